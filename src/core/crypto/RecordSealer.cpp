#include "crypto/RecordSealer.h"

#include "crypto/CryptoState.h"
#include "crypto/Kdf.h"

#include <algorithm>
#include <string>
#include <utility>

namespace watchword::crypto {

namespace {

// version (1) and be64 length of the associated data (8).
constexpr std::size_t macHeaderSize = 1 + 8;

} // namespace

RecordSealer::RecordSealer(AesCbc cipher, HmacKey macKey) noexcept
    : m_cipher(std::move(cipher)), m_macKey(std::move(macKey))
{}

RecordResult<RecordSealer> RecordSealer::create(ByteView masterKey)
{
    if (isDisabled())
        return fail(RecordError::CryptoDisabled, disabledReason());
    if (masterKey.size() != masterKeySize)
        return fail(RecordError::BadMasterKeySize, "record master key is " +
                                                       std::to_string(masterKey.size()) +
                                                       " bytes; expected 32");
    SecureBuffer encryptionKey(keySize);
    SecureBuffer authenticationKey(keySize);
    if (!hkdf(HashAlgorithm::Sha256, masterKey, {}, asBytes(encryptionKeyInfo),
              encryptionKey.span())
             .ok() ||
        !hkdf(HashAlgorithm::Sha256, masterKey, {}, asBytes(authenticationKeyInfo),
              authenticationKey.span())
             .ok())
        return fail(RecordError::InternalFailure, "record key derivation (HKDF-SHA256) failed");
    auto cipher = AesCbc::create(encryptionKey);
    if (!cipher)
        return cipher.failure(RecordError::InternalFailure, "record cipher setup failed: ");
    // Both SecureBuffers wipe the derived keys on return; only the prepared
    // forms (OpenSSL's key schedules, the HMAC states) remain.
    return RecordSealer(std::move(cipher).value(),
                        HmacKey(HashAlgorithm::Sha256, authenticationKey));
}

ByteView RecordSealer::macInput(ByteView associatedData, ByteView ivAndCiphertext)
{
    m_macInput.resize(macHeaderSize + associatedData.size() + ivAndCiphertext.size());
    auto out = m_macInput.begin();
    *out++ = envelopeVersion;
    const auto length = static_cast<std::uint64_t>(associatedData.size());
    for (int shift = 56; shift >= 0; shift -= 8)
        *out++ = static_cast<std::uint8_t>(length >> shift);
    out = std::copy(associatedData.begin(), associatedData.end(), out);
    std::copy(ivAndCiphertext.begin(), ivAndCiphertext.end(), out);
    return m_macInput;
}

RecordResult<Bytes> RecordSealer::seal(ByteView associatedData, ByteView plaintext,
                                       RandomSource& random)
{
    if (plaintext.size() > AesCbc::maximumInputSize)
        return fail(RecordError::PlaintextTooLong, "record plaintext of " +
                                                       std::to_string(plaintext.size()) +
                                                       " bytes is over the 1 GiB limit");
    Bytes sealed(sealedSize(plaintext.size()));
    const std::span<std::uint8_t> iv(sealed.data(), ivSize);
    const std::span<std::uint8_t> ciphertext(sealed.data() + ivSize,
                                             sealed.size() - ivSize - tagSize);
    const std::span<std::uint8_t> tag(sealed.data() + sealed.size() - tagSize, tagSize);

    random.fill(iv); // the one call for randomness per seal
    if (auto encrypted = m_cipher.encrypt(iv, plaintext, ciphertext); !encrypted)
        return encrypted.failure(RecordError::InternalFailure, "record encryption failed: ");
    m_macKey.compute(macInput(associatedData, ByteView(sealed.data(), ivSize + ciphertext.size())),
                     tag);
    return sealed;
}

RecordResult<SecureBuffer> RecordSealer::open(ByteView associatedData, ByteView sealed)
{
    SecureBuffer plaintext(maximumPlaintextSize(sealed.size()));
    auto length = open(associatedData, sealed, plaintext.span());
    if (!length)
        return length.failure();
    plaintext.truncate(*length);
    return plaintext;
}

RecordResult<std::size_t> RecordSealer::open(ByteView associatedData, ByteView sealed,
                                             std::span<std::uint8_t> out)
{
    if (sealed.size() < minimumSealedSize)
        return fail(RecordError::Malformed,
                    "sealed record is " + std::to_string(sealed.size()) +
                        " bytes; the minimum is 64 (IV 16, one block 16, tag 32)");
    const std::size_t ciphertextSize = sealed.size() - ivSize - tagSize;
    if (ciphertextSize % AesCbc::blockSize != 0)
        return fail(RecordError::Malformed,
                    "sealed record has a " + std::to_string(ciphertextSize) +
                        "-byte ciphertext; it must be a whole number of 16-byte blocks");
    const ByteView ivAndCiphertext = sealed.first(ivSize + ciphertextSize);
    const ByteView tag = sealed.last(tagSize);

    // Encrypt-then-MAC: nothing is decrypted before the tag is known good.
    if (!m_macKey.verify(macInput(associatedData, ivAndCiphertext), tag))
        return fail(RecordError::AuthenticationFailed,
                    "record authentication failed: wrong key, wrong associated data, or the "
                    "record was altered");

    auto length =
        m_cipher.decrypt(ivAndCiphertext.first(ivSize), ivAndCiphertext.subspan(ivSize), out);
    if (!length) {
        if (length.error().code == AesCbcError::BadPadding)
            return fail(RecordError::Corrupt,
                        "record has a valid tag but invalid padding: it was sealed by a faulty "
                        "writer");
        return length.failure(RecordError::InternalFailure, "record decryption failed: ");
    }
    return *length;
}

} // namespace watchword::crypto
