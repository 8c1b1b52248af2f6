// XChaCha20-Poly1305 in libsodium's secretstream construction
// (crypto_secretstream_xchacha20poly1305), for opening Ente Auth's encrypted
// exports, which seal the whole export as one message of such a stream. Only
// opening, and only a stream of one message: that is all an import needs.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"

#include <cstddef>

namespace watchword::crypto {

enum class SecretStreamError {
    BadKeySize,           // the key is not 32 bytes
    BadHeaderSize,        // the stream header is not 24 bytes
    TooShort,             // fewer bytes than a message's 17 bytes of overhead
    AuthenticationFailed, // the tag does not verify (wrong key, or altered)
    NotOneMessage,        // the message's tag says more messages follow (PUSH or REKEY)
    BackendFailure,       // libsodium could not start
    CryptoDisabled,       // the start-up self-test failed
};

template <typename T> using SecretStreamResult = Result<T, Error<SecretStreamError>>;

namespace secretStream {

inline constexpr std::size_t keySize = 32;
inline constexpr std::size_t headerSize = 24;
// Per message: one encrypted tag byte and the 16-byte Poly1305 tag.
inline constexpr std::size_t overhead = 17;

// Opens ciphertext as the one message of a stream started with header under
// key. Its tag must be MESSAGE (0) or FINAL (3): writers end a one-message
// stream either way. No plaintext is returned unless it verifies.
[[nodiscard]] SecretStreamResult<SecureBuffer> openSingleMessage(ByteView key, ByteView header,
                                                                 ByteView ciphertext);

} // namespace secretStream

} // namespace watchword::crypto
