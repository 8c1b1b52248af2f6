#include "crypto/AesCbc.h"

#include "crypto/CryptoState.h"

#include <algorithm>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <string>
#include <utility>

namespace watchword::crypto {

namespace {

const char* cipherName(std::size_t keySize) noexcept
{
    switch (keySize) {
    case 16:
        return "AES-128-CBC";
    case 24:
        return "AES-192-CBC";
    case 32:
        return "AES-256-CBC";
    default:
        return nullptr;
    }
}

// OpenSSL also queues its own error; it is reported here as a value, so the
// queue is cleared rather than left for an unrelated caller to trip over.
Failure<Error<AesCbcError>> backendFailure(const char* step)
{
    ERR_clear_error();
    return fail(AesCbcError::BackendFailure, std::string("AES-CBC: OpenSSL failed in ") + step);
}

// The PKCS#7 padding length (1 to 16) at the end of lastBlock, or 0 if the
// padding is malformed. Branch-free over the block's bytes, so its timing says
// nothing about where the padding went wrong.
std::size_t paddingLength(std::span<const std::uint8_t> lastBlock) noexcept
{
    constexpr unsigned block = AesCbc::blockSize;
    const unsigned padding = lastBlock[block - 1];
    // bad stays 0 only if 1 <= padding <= 16 and the last `padding` bytes all
    // equal it. (x >> 8) != 0 below means x went below zero (unsigned wrap).
    unsigned bad = ((padding - 1u) >> 8) | ((block - padding) >> 8); // padding == 0 or > 16
    for (unsigned i = 0; i < block; ++i) {
        // All ones if byte i lies inside the padding (i >= 16 - padding), else 0.
        const unsigned inPadding = 0u - ((((block - 1u - i) - padding) >> 8) & 1u);
        bad |= inPadding & (lastBlock[i] ^ padding);
    }
    const unsigned valid = 0u - ((((bad & 0xffu) - 1u) >> 8) & 1u); // all ones if bad == 0
    return padding & valid;
}

} // namespace

AesCbc::AesCbc(CipherContext encryptContext, CipherContext decryptContext,
               std::size_t keySize) noexcept
    : m_encrypt(std::move(encryptContext)), m_decrypt(std::move(decryptContext)), m_keySize(keySize)
{}

AesCbcResult<AesCbc> AesCbc::create(ByteView key)
{
    if (isDisabled())
        return fail(AesCbcError::CryptoDisabled, disabledReason());
    const char* name = cipherName(key.size());
    if (name == nullptr)
        return fail(AesCbcError::BadKeySize,
                    "AES key is " + std::to_string(key.size()) + " bytes; expected 16, 24 or 32");
    // The contexts keep their own reference to the fetched cipher.
    const Cipher cipher(EVP_CIPHER_fetch(nullptr, name, nullptr));
    CipherContext encryptContext = newCipherContext();
    CipherContext decryptContext = newCipherContext();
    if (!cipher || !encryptContext || !decryptContext)
        return backendFailure("EVP_CIPHER_fetch/EVP_CIPHER_CTX_new");
    // The key schedules are computed here, once. EVP's own padding is off
    // (the setting survives the IV-only re-initialisations below): padding
    // here means the contexts only ever see whole blocks, so no plaintext is
    // left behind in their internal block buffers between messages, and the
    // padding check on decryption runs in constant time.
    if (EVP_EncryptInit_ex(encryptContext.get(), cipher.get(), nullptr, key.data(), nullptr) != 1 ||
        EVP_DecryptInit_ex(decryptContext.get(), cipher.get(), nullptr, key.data(), nullptr) != 1 ||
        EVP_CIPHER_CTX_set_padding(encryptContext.get(), 0) != 1 ||
        EVP_CIPHER_CTX_set_padding(decryptContext.get(), 0) != 1)
        return backendFailure("key setup");
    return AesCbc(std::move(encryptContext), std::move(decryptContext), key.size());
}

AesCbcResult<void> AesCbc::encrypt(ByteView iv, ByteView plaintext, std::span<std::uint8_t> out)
{
    if (iv.size() != ivSize)
        return fail(AesCbcError::BadIvSize,
                    "AES-CBC IV is " + std::to_string(iv.size()) + " bytes; expected 16");
    if (plaintext.size() > maximumInputSize)
        return fail(AesCbcError::InputTooLong, "AES-CBC plaintext of " +
                                                   std::to_string(plaintext.size()) +
                                                   " bytes is over the 1 GiB limit");
    if (out.size() != ciphertextSize(plaintext.size()))
        return fail(AesCbcError::BadOutputSize,
                    "AES-CBC output buffer is " + std::to_string(out.size()) + " bytes; expected " +
                        std::to_string(ciphertextSize(plaintext.size())));

    EVP_CIPHER_CTX* context = m_encrypt.get();
    // A null cipher and key keep the prepared key schedule; only the IV and
    // the chaining state are reset.
    if (EVP_EncryptInit_ex(context, nullptr, nullptr, nullptr, iv.data()) != 1)
        return backendFailure("EVP_EncryptInit_ex (IV)");
    // Whole blocks straight from the plaintext, then the last partial block
    // with its PKCS#7 padding (RFC 5652 section 6.3) from a wiped local block.
    const std::size_t wholeBlocks = plaintext.size() - plaintext.size() % blockSize;
    int written = 0;
    if (wholeBlocks != 0 && (EVP_EncryptUpdate(context, out.data(), &written, plaintext.data(),
                                               static_cast<int>(wholeBlocks)) != 1 ||
                             static_cast<std::size_t>(written) != wholeBlocks))
        return backendFailure("EVP_EncryptUpdate");
    std::uint8_t lastBlock[blockSize];
    const std::size_t tail = plaintext.size() - wholeBlocks;
    std::copy_n(plaintext.begin() + static_cast<std::ptrdiff_t>(wholeBlocks), tail, lastBlock);
    std::fill(lastBlock + tail, lastBlock + blockSize, static_cast<std::uint8_t>(blockSize - tail));
    int lastWritten = 0;
    const bool lastOk = EVP_EncryptUpdate(context, out.data() + wholeBlocks, &lastWritten,
                                          lastBlock, static_cast<int>(blockSize)) == 1 &&
                        static_cast<std::size_t>(lastWritten) == blockSize;
    secureWipe(lastBlock, sizeof lastBlock);
    if (!lastOk)
        return backendFailure("EVP_EncryptUpdate (last block)");
    return {};
}

AesCbcResult<Bytes> AesCbc::encrypt(ByteView iv, ByteView plaintext)
{
    // Checked here as well so the size below is never computed from garbage.
    if (plaintext.size() > maximumInputSize)
        return fail(AesCbcError::InputTooLong, "AES-CBC plaintext of " +
                                                   std::to_string(plaintext.size()) +
                                                   " bytes is over the 1 GiB limit");
    Bytes out(ciphertextSize(plaintext.size()));
    auto result = encrypt(iv, plaintext, out);
    if (!result)
        return result.failure();
    return out;
}

AesCbcResult<SecureBuffer> AesCbc::decrypt(ByteView iv, ByteView ciphertext)
{
    // Sized before any check runs: an invalid length fails below, before the
    // buffer is used.
    SecureBuffer plaintext(std::min(ciphertext.size(), maximumInputSize + blockSize));
    auto length = decrypt(iv, ciphertext, plaintext.span());
    if (!length)
        return length.failure();
    plaintext.truncate(*length);
    return plaintext;
}

AesCbcResult<std::size_t> AesCbc::decrypt(ByteView iv, ByteView ciphertext,
                                          std::span<std::uint8_t> out)
{
    if (iv.size() != ivSize)
        return fail(AesCbcError::BadIvSize,
                    "AES-CBC IV is " + std::to_string(iv.size()) + " bytes; expected 16");
    if (ciphertext.empty() || ciphertext.size() % blockSize != 0)
        return fail(AesCbcError::BadCiphertextLength,
                    "AES-CBC ciphertext is " + std::to_string(ciphertext.size()) +
                        " bytes; expected a non-zero multiple of 16");
    if (ciphertext.size() > maximumInputSize + blockSize)
        return fail(AesCbcError::InputTooLong, "AES-CBC ciphertext of " +
                                                   std::to_string(ciphertext.size()) +
                                                   " bytes is over the 1 GiB limit");
    if (out.size() < ciphertext.size())
        return fail(AesCbcError::BadOutputSize,
                    "AES-CBC output buffer is " + std::to_string(out.size()) +
                        " bytes; the ciphertext needs " + std::to_string(ciphertext.size()));

    EVP_CIPHER_CTX* context = m_decrypt.get();
    // No re-initialisation for the new IV. CBC decrypts block i as
    // D(C[i]) XOR C[i-1], so whatever the context decrypted before, once it
    // has decrypted the IV as a block of its own (that output is thrown
    // away) the IV is its chaining value and the message decrypts exactly as
    // after EVP_DecryptInit_ex with this IV. That call's parameter handling
    // costs more than the AES of a whole 160-byte record (about 200 ns here,
    // against 10 ns for one block), and unlocking opens thousands of records.
    std::uint8_t discarded[blockSize];
    int written = 0;
    const bool chained = EVP_DecryptUpdate(context, discarded, &written, iv.data(),
                                           static_cast<int>(blockSize)) == 1 &&
                         static_cast<std::size_t>(written) == blockSize;
    secureWipe(discarded, sizeof discarded);
    if (!chained)
        return backendFailure("EVP_DecryptUpdate (IV block)");
    if (EVP_DecryptUpdate(context, out.data(), &written, ciphertext.data(),
                          static_cast<int>(ciphertext.size())) != 1 ||
        static_cast<std::size_t>(written) != ciphertext.size()) {
        secureWipe(out.data(), out.size());
        return backendFailure("EVP_DecryptUpdate");
    }
    const std::size_t padding =
        paddingLength(out.subspan(ciphertext.size() - blockSize, blockSize));
    if (padding == 0) {
        secureWipe(out.data(), out.size());
        return fail(AesCbcError::BadPadding,
                    "AES-CBC: the last block does not end in valid PKCS#7 padding");
    }
    const std::size_t length = ciphertext.size() - padding;
    secureWipe(out.data() + length, out.size() - length);
    return length;
}

} // namespace watchword::crypto
