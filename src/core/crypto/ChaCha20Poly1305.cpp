#include "crypto/ChaCha20Poly1305.h"

#include "crypto/CryptoState.h"
#include "crypto/detail/Aead.h"

#include <algorithm>
#include <cstdint>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <string>
#include <utility>

namespace watchword::crypto {

namespace {

// OpenSSL also queues its own error; it is reported here as a value, so the
// queue is cleared rather than left for an unrelated caller to trip over.
Failure<Error<ChaCha20Poly1305Error>> backendFailure(const char* step)
{
    ERR_clear_error();
    return fail(ChaCha20Poly1305Error::BackendFailure,
                std::string("ChaCha20-Poly1305: OpenSSL failed in ") + step);
}

Failure<Error<ChaCha20Poly1305Error>> badNonceSize(std::size_t size)
{
    return fail(ChaCha20Poly1305Error::BadNonceSize,
                "ChaCha20-Poly1305 nonce is " + std::to_string(size) + " bytes; expected 12");
}

Failure<Error<ChaCha20Poly1305Error>> inputTooLong(const char* what, std::size_t size)
{
    return fail(ChaCha20Poly1305Error::InputTooLong, std::string("ChaCha20-Poly1305 ") + what +
                                                         " of " + std::to_string(size) +
                                                         " bytes is over the 1 GiB limit");
}

} // namespace

ChaCha20Poly1305::ChaCha20Poly1305(CipherContext encryptContext,
                                   CipherContext decryptContext) noexcept
    : m_encrypt(std::move(encryptContext)), m_decrypt(std::move(decryptContext))
{}

ChaCha20Poly1305Result<ChaCha20Poly1305> ChaCha20Poly1305::create(ByteView key)
{
    if (isDisabled())
        return fail(ChaCha20Poly1305Error::CryptoDisabled, disabledReason());
    if (key.size() != keySize)
        return fail(ChaCha20Poly1305Error::BadKeySize, "ChaCha20-Poly1305 key is " +
                                                           std::to_string(key.size()) +
                                                           " bytes; expected 32");
    // The contexts keep their own reference to the fetched cipher.
    const Cipher cipher(EVP_CIPHER_fetch(nullptr, "ChaCha20-Poly1305", nullptr));
    CipherContext encryptContext = newCipherContext();
    CipherContext decryptContext = newCipherContext();
    if (!cipher || !encryptContext || !decryptContext)
        return backendFailure("EVP_CIPHER_fetch/EVP_CIPHER_CTX_new");
    // OpenSSL's default nonce length for this cipher is the RFC's 12 bytes.
    if (EVP_CIPHER_get_iv_length(cipher.get()) != static_cast<int>(nonceSize) ||
        EVP_EncryptInit_ex(encryptContext.get(), cipher.get(), nullptr, key.data(), nullptr) != 1 ||
        EVP_DecryptInit_ex(decryptContext.get(), cipher.get(), nullptr, key.data(), nullptr) != 1)
        return backendFailure("key setup");
    return ChaCha20Poly1305(std::move(encryptContext), std::move(decryptContext));
}

ChaCha20Poly1305Result<Bytes> ChaCha20Poly1305::encrypt(ByteView nonce, ByteView associatedData,
                                                        ByteView plaintext)
{
    if (nonce.size() != nonceSize)
        return badNonceSize(nonce.size());
    if (plaintext.size() > maximumInputSize)
        return inputTooLong("plaintext", plaintext.size());
    if (associatedData.size() > maximumInputSize)
        return inputTooLong("associated data", associatedData.size());

    EVP_CIPHER_CTX* context = m_encrypt.get();
    // A null cipher and key keep the key; the nonce re-arm resets the
    // keystream counter and the Poly1305 state (RFC 8439 section 2.8).
    if (EVP_EncryptInit_ex(context, nullptr, nullptr, nullptr, nonce.data()) != 1)
        return backendFailure("EVP_EncryptInit_ex (nonce)");
    if (!detail::addAssociatedData(context, associatedData))
        return backendFailure("EVP_EncryptUpdate (AAD)");
    Bytes out(plaintext.size() + tagSize);
    int written = 0;
    if (!plaintext.empty() && EVP_EncryptUpdate(context, out.data(), &written, plaintext.data(),
                                                static_cast<int>(plaintext.size())) != 1)
        return backendFailure("EVP_EncryptUpdate");
    static_assert(tagSize == 16);
    if (const char* step = detail::finishSealing(context, written, plaintext.size(),
                                                 out.data() + plaintext.size()))
        return backendFailure(step);
    return out;
}

ChaCha20Poly1305Result<SecureBuffer>
ChaCha20Poly1305::decrypt(ByteView nonce, ByteView associatedData, ByteView ciphertextAndTag)
{
    if (nonce.size() != nonceSize)
        return badNonceSize(nonce.size());
    if (ciphertextAndTag.size() < tagSize)
        return fail(ChaCha20Poly1305Error::TooShort,
                    "ChaCha20-Poly1305 input is " + std::to_string(ciphertextAndTag.size()) +
                        " bytes; it must hold at least the 16-byte tag");
    if (ciphertextAndTag.size() > maximumInputSize + tagSize)
        return inputTooLong("ciphertext", ciphertextAndTag.size());
    if (associatedData.size() > maximumInputSize)
        return inputTooLong("associated data", associatedData.size());

    const ByteView ciphertext = ciphertextAndTag.first(ciphertextAndTag.size() - tagSize);
    // The tag is public; a local copy because the ctrl call takes a mutable pointer.
    std::uint8_t expectedTag[tagSize];
    std::copy_n(ciphertextAndTag.end() - tagSize, tagSize, expectedTag);

    EVP_CIPHER_CTX* context = m_decrypt.get();
    // The expected tag goes in with the nonce, as a parameter of the re-arm:
    // one call into the provider instead of an init and a control call
    // translated into parameters (a third of a short note's decryption).
    const OSSL_PARAM tagParameter[] = {
        OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, expectedTag, tagSize),
        OSSL_PARAM_construct_end()};
    if (EVP_DecryptInit_ex2(context, nullptr, nullptr, nonce.data(), tagParameter) != 1)
        return backendFailure("EVP_DecryptInit_ex2 (nonce, tag)");
    if (!detail::addAssociatedData(context, associatedData))
        return backendFailure("EVP_DecryptUpdate (AAD)");
    // Decrypted before the tag is known: it stays in this SecureBuffer and is
    // wiped, never returned, if the tag turns out wrong.
    SecureBuffer plaintext(ciphertext.size());
    if (const char* step = detail::decryptInto(context, ciphertext, plaintext))
        return backendFailure(step);
    if (!detail::tagMatches(context))
        return fail(ChaCha20Poly1305Error::AuthenticationFailed,
                    "ChaCha20-Poly1305 authentication failed: wrong key, nonce or associated "
                    "data, or the ciphertext was altered");
    return plaintext;
}

} // namespace watchword::crypto
