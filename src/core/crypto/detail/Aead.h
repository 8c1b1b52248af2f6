// What the two AEAD ciphers (AES-256-GCM, ChaCha20-Poly1305) do alike with
// an EVP cipher context.
#pragma once

#include "base/Bytes.h"

#include <openssl/evp.h>

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

} // namespace watchword::crypto::detail
