// ChaCha20-Poly1305 AEAD (RFC 8439 section 2.8), over OpenSSL EVP, for the
// short notes sealed to another person's key (the reference note is 49 bytes).
//
// The key is set once, when the object is made; each message only re-arms
// the prepared contexts with its nonce. The nonce is never generated here: the
// caller supplies one that is unique per key (sharing derives a fresh key for
// every note from an ephemeral ECDH).
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"
#include "crypto/OpenSslHandles.h"

#include <cstddef>

namespace watchword::crypto {

enum class ChaCha20Poly1305Error {
    BadKeySize,           // the key is not 32 bytes
    BadNonceSize,         // the nonce is not 12 bytes (RFC 8439 section 2.8)
    TooShort,             // decrypt(): fewer bytes than the 16-byte tag
    AuthenticationFailed, // decrypt(): the tag does not match (wrong key, nonce, AAD, or altered)
    InputTooLong,         // over maximumInputSize bytes (OpenSSL counts in int)
    BackendFailure,       // OpenSSL refused (out of memory)
    CryptoDisabled,       // create(): the start-up self-test failed
};

template <typename T> using ChaCha20Poly1305Result = Result<T, Error<ChaCha20Poly1305Error>>;

class ChaCha20Poly1305
{
public:
    static constexpr std::size_t keySize = 32;   // RFC 8439 section 2.8
    static constexpr std::size_t nonceSize = 12; // RFC 8439 section 2.8
    static constexpr std::size_t tagSize = 16;   // Poly1305, RFC 8439 section 2.5
    static constexpr std::size_t maximumInputSize = std::size_t{1} << 30;

    // Prepares encryption and decryption under key (32 bytes). OpenSSL keeps
    // its own copy and wipes it when this object dies; the caller's key stays
    // the caller's to wipe.
    [[nodiscard]] static ChaCha20Poly1305Result<ChaCha20Poly1305> create(ByteView key);

    ChaCha20Poly1305(ChaCha20Poly1305&&) noexcept = default;
    ChaCha20Poly1305& operator=(ChaCha20Poly1305&&) noexcept = default;
    ChaCha20Poly1305(const ChaCha20Poly1305&) = delete;
    ChaCha20Poly1305& operator=(const ChaCha20Poly1305&) = delete;
    ~ChaCha20Poly1305() = default;

    // Returns ciphertext || tag (plaintext.size() + 16 bytes). The nonce
    // (12 bytes) must never repeat under one key: a repeat reveals the XOR of
    // the two plaintexts and lets anyone forge tags.
    [[nodiscard]] ChaCha20Poly1305Result<Bytes> encrypt(ByteView nonce, ByteView associatedData,
                                                        ByteView plaintext);

    // Verifies and decrypts ciphertext || tag. OpenSSL compares the tag in
    // constant time; on any failure no plaintext is returned (what was
    // decrypted is wiped). Errors: BadNonceSize, TooShort, AuthenticationFailed,
    // InputTooLong, BackendFailure.
    [[nodiscard]] ChaCha20Poly1305Result<SecureBuffer>
    decrypt(ByteView nonce, ByteView associatedData, ByteView ciphertextAndTag);

    // Not thread-safe: each call re-arms the object's contexts.

private:
    ChaCha20Poly1305(CipherContext encryptContext, CipherContext decryptContext) noexcept;

    CipherContext m_encrypt;
    CipherContext m_decrypt;
};

} // namespace watchword::crypto
