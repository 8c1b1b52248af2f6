// AES-CBC with PKCS#7 padding (NIST SP 800-38A section 6.2; RFC 5652 section
// 6.3 for the padding), over OpenSSL EVP.
//
// The key schedule is computed once, when the object is made; every message
// afterwards only re-arms the prepared contexts with its IV. Padding is added
// and checked here, so OpenSSL only ever sees whole blocks and keeps no
// plaintext in its contexts between messages. This is the
// cipher half of the vault's record envelope (crypto/RecordSealer.h), which is
// also the format the watch companion opens with its native AES-CBC.
//
// CBC alone is not authenticated and its padding check is a classic oracle:
// decrypt() reports bad padding as its own error code, which is safe only
// because Watchword never decrypts anything whose HMAC it has not verified
// first (RecordSealer checks the tag, in constant time, before decrypting).
// Do not use this class on its own for data an attacker can submit.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"
#include "crypto/OpenSslHandles.h"

#include <cstddef>
#include <cstdint>
#include <span>

namespace watchword::crypto {

enum class AesCbcError {
    BadKeySize,          // the key is not 16, 24 or 32 bytes
    BadIvSize,           // the IV is not 16 bytes
    BadOutputSize,       // encrypt(): out is not ciphertextSize(plaintext) bytes
    BadCiphertextLength, // decrypt(): empty, or not a multiple of 16 bytes
    BadPadding,          // decrypt(): the last block does not end in valid PKCS#7 padding
    InputTooLong,        // more than maximumInputSize bytes (OpenSSL counts in int)
    BackendFailure,      // OpenSSL refused (out of memory)
    CryptoDisabled,      // create(): the start-up self-test failed
};

template <typename T> using AesCbcResult = Result<T, Error<AesCbcError>>;

class AesCbc
{
public:
    static constexpr std::size_t blockSize = 16; // AES block, FIPS 197
    static constexpr std::size_t ivSize = 16;    // one block, SP 800-38A section 6.2
    // Keeps every length, padded, well inside OpenSSL's int arithmetic.
    static constexpr std::size_t maximumInputSize = std::size_t{1} << 30;

    // Prepares encryption and decryption under key: AES-128, AES-192 or
    // AES-256 by its length (the product uses 32 bytes). OpenSSL keeps its own
    // copy of the key schedule and wipes it when this object dies; the
    // caller's key stays the caller's to wipe.
    [[nodiscard]] static AesCbcResult<AesCbc> create(ByteView key);

    // Move-only: the contexts hold the key schedule. A moved-from object may
    // only be destroyed or assigned to.
    AesCbc(AesCbc&&) noexcept = default;
    AesCbc& operator=(AesCbc&&) noexcept = default;
    AesCbc(const AesCbc&) = delete;
    AesCbc& operator=(const AesCbc&) = delete;
    ~AesCbc() = default;

    std::size_t keySize() const noexcept { return m_keySize; }

    // The ciphertext size for a plaintext of plaintextSize bytes: PKCS#7
    // always adds 1 to 16 bytes, so the next multiple of 16 strictly above.
    static constexpr std::size_t ciphertextSize(std::size_t plaintextSize) noexcept
    {
        return (plaintextSize / blockSize + 1) * blockSize;
    }

    // Encrypts plaintext under iv (16 bytes) into out, which must be exactly
    // ciphertextSize(plaintext.size()) bytes. The IV must be unpredictable
    // (random) for every message: CBC with a repeated or guessable IV leaks.
    [[nodiscard]] AesCbcResult<void> encrypt(ByteView iv, ByteView plaintext,
                                             std::span<std::uint8_t> out);
    // The same, into a new buffer.
    [[nodiscard]] AesCbcResult<Bytes> encrypt(ByteView iv, ByteView plaintext);

    // Decrypts ciphertext under iv (16 bytes) and strips the padding. Errors:
    // BadIvSize, BadCiphertextLength, BadPadding (see the warning at the top
    // of this file), InputTooLong, BackendFailure. The padding is checked
    // here, branch-free, rather than by EVP; that is defence in depth, not a
    // licence to decrypt unauthenticated data (the error itself still tells).
    [[nodiscard]] AesCbcResult<SecureBuffer> decrypt(ByteView iv, ByteView ciphertext);
    // The same into out, which must hold at least ciphertext.size() bytes (a
    // caller's reusable secret buffer: nothing is allocated). Returns the
    // plaintext length; the bytes of out after it are wiped, and all of out
    // is wiped on BadPadding.
    [[nodiscard]] AesCbcResult<std::size_t> decrypt(ByteView iv, ByteView ciphertext,
                                                    std::span<std::uint8_t> out);

    // Not thread-safe: each call re-arms the object's contexts. Use one
    // object per thread.

private:
    AesCbc(CipherContext encryptContext, CipherContext decryptContext,
           std::size_t keySize) noexcept;

    CipherContext m_encrypt;
    CipherContext m_decrypt;
    std::size_t m_keySize = 0;
};

} // namespace watchword::crypto
