// What the two AEAD ciphers (AES-256-GCM, ChaCha20-Poly1305) do alike with
// an EVP cipher context: the associated data, and the end of sealing.
#pragma once

#include "base/Bytes.h"

#include <cstddef>
#include <cstdint>
#include <openssl/core_names.h>
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

} // namespace watchword::crypto::detail
