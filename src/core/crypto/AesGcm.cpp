#include "crypto/AesGcm.h"

#include "crypto/CryptoState.h"
#include "crypto/OpenSslHandles.h"
#include "crypto/detail/Aead.h"

#include <algorithm>
#include <cstdint>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <optional>
#include <string>
#include <utility>

namespace watchword::crypto::aesGcm {

namespace {

using Failed = Failure<Error<AesGcmError>>;

// OpenSSL also queues its own error; it is reported here as a value, so the
// queue is cleared rather than left for an unrelated caller to trip over.
Failed backendFailure(const char* step)
{
    ERR_clear_error();
    return fail(AesGcmError::BackendFailure, std::string("AES-GCM: OpenSSL failed in ") + step);
}

Failed inputTooLong(const char* what, std::size_t size)
{
    return fail(AesGcmError::InputTooLong, std::string("AES-GCM ") + what + " of " +
                                               std::to_string(size) +
                                               " bytes is over the 1 GiB limit");
}

// The checks both directions share; an empty optional means all is well.
std::optional<Failed> checkCommon(ByteView key, ByteView iv, ByteView associatedData,
                                  std::size_t dataSize)
{
    if (isDisabled())
        return fail(AesGcmError::CryptoDisabled, disabledReason());
    if (key.size() != keySize)
        return fail(AesGcmError::BadKeySize,
                    "AES-256-GCM key is " + std::to_string(key.size()) + " bytes; expected 32");
    if (iv.empty() || iv.size() > maximumIvSize)
        return fail(AesGcmError::BadIvSize, "AES-GCM IV is " + std::to_string(iv.size()) +
                                                " bytes; expected 1 to 128 (usually 12)");
    if (dataSize > maximumInputSize)
        return inputTooLong("input", dataSize);
    if (associatedData.size() > maximumInputSize)
        return inputTooLong("associated data", associatedData.size());
    return std::nullopt;
}

// A context keyed for one message. The IV length has to be set between
// choosing the cipher and giving the IV, so initialisation takes two calls.
CipherContext prepare(bool encrypting, ByteView key, ByteView iv)
{
    const Cipher cipher(EVP_CIPHER_fetch(nullptr, "AES-256-GCM", nullptr));
    CipherContext context = newCipherContext();
    if (!cipher || !context)
        return {};
    std::size_t ivLength = iv.size();
    const OSSL_PARAM ivParameter[] = {
        OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivLength),
        OSSL_PARAM_construct_end()};
    const int direction = encrypting ? 1 : 0;
    if (EVP_CipherInit_ex2(context.get(), cipher.get(), nullptr, nullptr, direction, ivParameter) !=
            1 ||
        EVP_CipherInit_ex2(context.get(), nullptr, key.data(), iv.data(), direction, nullptr) != 1)
        return {};
    return context;
}

} // namespace

AesGcmResult<Bytes> encrypt(ByteView key, ByteView iv, ByteView associatedData, ByteView plaintext)
{
    if (auto failed = checkCommon(key, iv, associatedData, plaintext.size()))
        return std::move(*failed);
    const CipherContext context = prepare(true, key, iv);
    if (!context)
        return backendFailure("key and IV setup");
    if (!detail::addAssociatedData(context.get(), associatedData))
        return backendFailure("EVP_EncryptUpdate (AAD)");
    Bytes out(plaintext.size() + tagSize);
    int written = 0;
    if (!plaintext.empty() &&
        EVP_EncryptUpdate(context.get(), out.data(), &written, plaintext.data(),
                          static_cast<int>(plaintext.size())) != 1)
        return backendFailure("EVP_EncryptUpdate");
    static_assert(tagSize == 16);
    if (const char* step = detail::finishSealing(context.get(), written, plaintext.size(),
                                                 out.data() + plaintext.size()))
        return backendFailure(step);
    return out;
}

AesGcmResult<SecureBuffer> decrypt(ByteView key, ByteView iv, ByteView associatedData,
                                   ByteView ciphertext, ByteView tag)
{
    if (tag.size() != tagSize)
        return fail(AesGcmError::BadTagSize,
                    "AES-GCM tag is " + std::to_string(tag.size()) + " bytes; expected 16");
    if (auto failed = checkCommon(key, iv, associatedData, ciphertext.size()))
        return std::move(*failed);
    const CipherContext context = prepare(false, key, iv);
    if (!context)
        return backendFailure("key and IV setup");
    // The tag is public; a local copy because OpenSSL takes a mutable pointer.
    std::uint8_t expectedTag[tagSize];
    std::copy_n(tag.begin(), tagSize, expectedTag);
    const OSSL_PARAM tagParameter[] = {
        OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, expectedTag, tagSize),
        OSSL_PARAM_construct_end()};
    if (EVP_CIPHER_CTX_set_params(context.get(), tagParameter) != 1)
        return backendFailure("EVP_CIPHER_CTX_set_params (tag)");
    if (!detail::addAssociatedData(context.get(), associatedData))
        return backendFailure("EVP_DecryptUpdate (AAD)");
    // Decrypted before the tag is known: it stays in this SecureBuffer and is
    // wiped, never returned, if the tag turns out wrong.
    SecureBuffer plaintext(ciphertext.size());
    if (const char* step = detail::decryptInto(context.get(), ciphertext, plaintext))
        return backendFailure(step);
    if (!detail::tagMatches(context.get())) {
        return fail(AesGcmError::AuthenticationFailed,
                    "AES-GCM authentication failed: wrong key, IV or associated data, or the "
                    "ciphertext was altered");
    }
    return plaintext;
}

AesGcmResult<SecureBuffer> decrypt(ByteView key, ByteView iv, ByteView associatedData,
                                   ByteView ciphertextAndTag)
{
    if (ciphertextAndTag.size() < tagSize)
        return fail(AesGcmError::TooShort, "AES-GCM input is " +
                                               std::to_string(ciphertextAndTag.size()) +
                                               " bytes; it must hold at least the 16-byte tag");
    const std::size_t ciphertextSize = ciphertextAndTag.size() - tagSize;
    return decrypt(key, iv, associatedData, ciphertextAndTag.first(ciphertextSize),
                   ciphertextAndTag.subspan(ciphertextSize));
}

} // namespace watchword::crypto::aesGcm
