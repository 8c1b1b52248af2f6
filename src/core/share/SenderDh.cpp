#include "share/SenderDh.h"

#include "crypto/Hash.h"
#include "crypto/Kdf.h"

#include <algorithm>
#include <cassert>
#include <span>
#include <utility>

namespace watchword::share {

namespace {

using CompressedKey = std::array<std::uint8_t, crypto::PublicKey::compressedSize>;

Failure<Error<ShareError>> cryptoDisabled(std::string message)
{
    return fail(ShareError::CryptoDisabled, std::move(message));
}

// noteKey = HKDF-SHA256(x(secret * peer), ephemeral || recipient, label): the
// part both sides share. out is noteKeySize bytes.
ShareResult<void> deriveNoteKey(const crypto::SecretKey& secretKey, const crypto::PublicKey& peer,
                                const CompressedKey& ephemeralPublicKey,
                                const CompressedKey& recipientPublicKey, std::string_view label,
                                std::span<std::uint8_t> out)
{
    std::array<std::uint8_t, crypto::ecdhSecretSize> shared;
    if (auto agreed = crypto::ecdh(secretKey, peer, shared); !agreed)
        return cryptoDisabled(agreed.error().message);

    std::array<std::uint8_t, 2 * crypto::PublicKey::compressedSize> salt;
    std::copy(ephemeralPublicKey.begin(), ephemeralPublicKey.end(), salt.begin());
    std::copy(recipientPublicKey.begin(), recipientPublicKey.end(),
              salt.begin() + crypto::PublicKey::compressedSize);

    auto derived = crypto::hkdf(crypto::HashAlgorithm::Sha256, shared, salt, asBytes(label), out);
    secureWipe(shared.data(), shared.size());
    if (!derived) {
        // 32 bytes of HKDF-SHA256 are always in range: only the switch refuses.
        assert(derived.error().code == crypto::KdfError::CryptoDisabled);
        return cryptoDisabled(derived.error().message);
    }
    return {};
}

} // namespace

ShareResult<SenderNoteKey> senderNoteKey(crypto::RandomSource& random,
                                         const crypto::PublicKey& recipientPublicKey,
                                         std::string_view label)
{
    const auto ephemeral = crypto::SecretKey::generate(random);
    SenderNoteKey result{ephemeral.publicKey().compressed(), SecureBuffer(noteKeySize)};
    if (auto derived = deriveNoteKey(ephemeral, recipientPublicKey, result.ephemeralPublicKey,
                                     recipientPublicKey.compressed(), label, result.noteKey.span());
        !derived)
        return derived.failure();
    return result;
}

ShareResult<SecureBuffer> recipientNoteKey(const crypto::SecretKey& recipientSecretKey,
                                           const crypto::PublicKey& recipientPublicKey,
                                           ByteView ephemeralPublicKey, std::string_view label)
{
    if (ephemeralPublicKey.size() != crypto::PublicKey::compressedSize)
        return fail(ShareError::InvalidEphemeralKey,
                    "the ephemeral public key of a shared note is 33 bytes (compressed), not " +
                        std::to_string(ephemeralPublicKey.size()));
    auto ephemeral = crypto::PublicKey::fromSec1(ephemeralPublicKey);
    if (!ephemeral)
        return ephemeral.failure(ShareError::InvalidEphemeralKey,
                                 "ephemeral public key of a shared note: ");
    // A 33-byte encoding that parses is the canonical one (x below p, prefix
    // by y's parity), so compressing it again gives the bytes the sender
    // hashed.
    return recipientNoteKey(recipientSecretKey, recipientPublicKey, *ephemeral, label);
}

ShareResult<SecureBuffer> recipientNoteKey(const crypto::SecretKey& recipientSecretKey,
                                           const crypto::PublicKey& recipientPublicKey,
                                           const crypto::PublicKey& ephemeralPublicKey,
                                           std::string_view label)
{
    SecureBuffer noteKey(noteKeySize);
    if (auto derived =
            deriveNoteKey(recipientSecretKey, ephemeralPublicKey, ephemeralPublicKey.compressed(),
                          recipientPublicKey.compressed(), label, noteKey.span());
        !derived)
        return derived.failure();
    return noteKey;
}

} // namespace watchword::share
