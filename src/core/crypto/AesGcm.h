// AES-256-GCM (NIST SP 800-38D), over OpenSSL EVP, for opening (and, for
// the exporters, writing) other authenticator apps' encrypted backups: Aegis,
// andOTP, 2FAS and others all seal their vaults with it.
//
// Unlike ChaCha20Poly1305 no context is kept between calls: each backup is
// opened once, with a key derived for it, so a prepared key schedule would buy
// nothing. Every call makes and frees its own context.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"

#include <cstddef>

namespace watchword::crypto {

enum class AesGcmError {
    BadKeySize,           // the key is not 32 bytes
    BadIvSize,            // the IV is empty or longer than maximumIvSize bytes
    BadTagSize,           // decrypt(): a separate tag that is not 16 bytes
    TooShort,             // decrypt(): fewer bytes than the 16-byte tag
    AuthenticationFailed, // decrypt(): the tag does not match (wrong key, IV, AAD, or altered)
    InputTooLong,         // over maximumInputSize bytes (OpenSSL counts in int)
    BackendFailure,       // OpenSSL refused (out of memory)
    CryptoDisabled,       // the start-up self-test failed
};

template <typename T> using AesGcmResult = Result<T, Error<AesGcmError>>;

namespace aesGcm {

inline constexpr std::size_t keySize = 32; // AES-256 only
// 12 bytes is the usual IV; other lengths are hashed into the counter block
// (SP 800-38D section 7.1). 128 bytes is the most OpenSSL 3 takes.
inline constexpr std::size_t maximumIvSize = 128;
inline constexpr std::size_t tagSize = 16; // full-length tags only
inline constexpr std::size_t maximumInputSize = std::size_t{1} << 30;

// Returns ciphertext || tag (plaintext.size() + 16 bytes). The IV must never
// repeat under one key: a repeat reveals the XOR of the plaintexts and the
// authentication key.
[[nodiscard]] AesGcmResult<Bytes> encrypt(ByteView key, ByteView iv, ByteView associatedData,
                                          ByteView plaintext);

// Verifies and decrypts ciphertext || tag. OpenSSL compares the tag in
// constant time; on any failure no plaintext is returned (what was decrypted
// is wiped). Errors: BadKeySize, BadIvSize, TooShort, AuthenticationFailed,
// InputTooLong, BackendFailure, CryptoDisabled.
[[nodiscard]] AesGcmResult<SecureBuffer> decrypt(ByteView key, ByteView iv, ByteView associatedData,
                                                 ByteView ciphertextAndTag);

// The same with the tag stored apart from the ciphertext (as Aegis does);
// tag must be 16 bytes (BadTagSize otherwise).
[[nodiscard]] AesGcmResult<SecureBuffer> decrypt(ByteView key, ByteView iv, ByteView associatedData,
                                                 ByteView ciphertext, ByteView tag);

} // namespace aesGcm

} // namespace watchword::crypto
