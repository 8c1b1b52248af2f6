// Owning handles for OpenSSL objects. Every OpenSSL object in Watchword is
// held by one of these, so no error path frees anything by hand.
#pragma once

#include <memory>
#include <openssl/evp.h>
#include <openssl/kdf.h>

namespace watchword::crypto {

template <auto FreeFunction> struct OpenSslDeleter
{
    template <typename T> void operator()(T* handle) const noexcept { FreeFunction(handle); }
};

using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, OpenSslDeleter<&EVP_CIPHER_CTX_free>>;
using Cipher = std::unique_ptr<EVP_CIPHER, OpenSslDeleter<&EVP_CIPHER_free>>;
using DigestContext = std::unique_ptr<EVP_MD_CTX, OpenSslDeleter<&EVP_MD_CTX_free>>;
using Digest = std::unique_ptr<EVP_MD, OpenSslDeleter<&EVP_MD_free>>;
using Mac = std::unique_ptr<EVP_MAC, OpenSslDeleter<&EVP_MAC_free>>;
using MacContext = std::unique_ptr<EVP_MAC_CTX, OpenSslDeleter<&EVP_MAC_CTX_free>>;
using Kdf = std::unique_ptr<EVP_KDF, OpenSslDeleter<&EVP_KDF_free>>;
using KdfContext = std::unique_ptr<EVP_KDF_CTX, OpenSslDeleter<&EVP_KDF_CTX_free>>;
using PrivateOrPublicKey = std::unique_ptr<EVP_PKEY, OpenSslDeleter<&EVP_PKEY_free>>;

// A new cipher context, or a null handle if OpenSSL is out of memory.
inline CipherContext newCipherContext()
{
    return CipherContext(EVP_CIPHER_CTX_new());
}

} // namespace watchword::crypto
