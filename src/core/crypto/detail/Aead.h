// What the two AEAD ciphers (AES-256-GCM, ChaCha20-Poly1305) do alike with
// an EVP cipher context: the associated data, the end of sealing, and
// opening.
#pragma once

#include "base/Bytes.h"
#include "base/SecureBuffer.h"

#include <cstddef>
#include <cstdint>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

namespace watchword::crypto::detail {

// Feeds the associated data to an armed context (EVP takes AAD as an update
// with no output buffer). False if OpenSSL refuses it.
inline bool addAssociatedData(EVP_CIPHER_CTX* context, ByteView associatedData)
{
    if (associatedData.empty())
        return true;
    int ignored = 0;
    return EVP_CipherUpdate(context, nullptr, &ignored, associatedData.data(),
                            static_cast<int>(associatedData.size())) == 1;
}

// Completes an encryption whose update wrote `written` bytes of `plaintextSize`
// and puts the 16-byte tag at `tag`. Both ciphers are counter or stream
// modes: Final emits nothing, it completes the tag, which is read as a
// parameter rather than through EVP_CIPHER_CTX_ctrl (which OpenSSL 3
// translates into the same parameter at a cost). The OpenSSL step that
// failed, or null.
inline const char* finishSealing(EVP_CIPHER_CTX* context, int written, std::size_t plaintextSize,
                                 std::uint8_t* tag)
{
    constexpr std::size_t tagSize = 16;
    std::uint8_t unused[tagSize];
    int finalWritten = 0;
    if (EVP_EncryptFinal_ex(context, unused, &finalWritten) != 1 || finalWritten != 0 ||
        static_cast<std::size_t>(written) != plaintextSize)
        return "EVP_EncryptFinal_ex";
    OSSL_PARAM tagParameter[] = {
        OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, tagSize),
        OSSL_PARAM_construct_end()};
    if (EVP_CIPHER_CTX_get_params(context, tagParameter) != 1)
        return "EVP_CIPHER_CTX_get_params (tag)";
    return nullptr;
}

// Decrypts ciphertext into plaintext (as long as it) before the tag is
// known: the caller keeps it in that wiped buffer until tagMatches(). The
// OpenSSL step that failed, or null.
inline const char* decryptInto(EVP_CIPHER_CTX* context, ByteView ciphertext,
                               SecureBuffer& plaintext)
{
    int written = 0;
    if (!ciphertext.empty() &&
        EVP_DecryptUpdate(context, plaintext.data(), &written, ciphertext.data(),
                          static_cast<int>(ciphertext.size())) != 1)
        return "EVP_DecryptUpdate";
    if (static_cast<std::size_t>(written) != ciphertext.size())
        return "EVP_DecryptUpdate (unexpected length)";
    return nullptr;
}

// Whether the tag set on the context is right: Final computes the tag and
// compares it with CRYPTO_memcmp. A wrong one leaves no error queued.
inline bool tagMatches(EVP_CIPHER_CTX* context)
{
    std::uint8_t unused[16];
    int finalWritten = 0;
    if (EVP_DecryptFinal_ex(context, unused, &finalWritten) == 1)
        return true;
    ERR_clear_error();
    return false;
}

} // namespace watchword::crypto::detail
