// shared_secret_key/sender_dh: the note key of a shared note, from the
// sender's side (new ephemeral key, public key, ECDH, HKDF), against the same
// work done with raw libsecp256k1 calls.
#include "share/SenderDh.h"

#include "base/Bytes.h"
#include "base/SecureBuffer.h"
#include "crypto/Hash.h"
#include "crypto/Kdf.h"
#include "crypto/Random.h"
#include "crypto/Secp256k1.h"
#include "perf/catalogue/Catalogue.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <secp256k1.h>
#include <secp256k1_ecdh.h>
#include <span>

namespace watchword::perf::entries {

namespace {

using crypto::PublicKey;
using crypto::SecretKey;

// The first vector of tests/data/share/vectors.json.
constexpr std::string_view kRecipientSecretKey =
    "0570eaa895fabf65ddbc11820af0fac0fa94303b2bf5f5eecff339555611bff0";
constexpr std::string_view kRecipientPublicKey =
    "0345e17da5f2bc90cc26b64f7efd8984bed5569d4f7e6442646ae2e91661d037d4";
constexpr std::string_view kEphemeralSecretKey =
    "8fe7ce21a434a9bb427bf2bf059e5da3adddd45ad7ba281fd11f58cdd28b7603";

using CompressedKey = std::array<std::uint8_t, PublicKey::compressedSize>;
using NoteKey = std::array<std::uint8_t, share::noteKeySize>;

struct Recipient
{
    SecretKey secretKey;
    PublicKey publicKey;
};

std::optional<Recipient> fixedRecipient()
{
    auto secretKey = SecretKey::fromBytes(bytesFromHex(kRecipientSecretKey));
    auto publicKey = PublicKey::fromSec1(bytesFromHex(kRecipientPublicKey));
    if (!secretKey || !publicKey)
        return std::nullopt;
    return Recipient{std::move(secretKey).value(), std::move(publicKey).value()};
}

// The sender DH in raw libsecp256k1 calls, then the SAME HKDF-SHA256 as
// share::senderNoteKey (crypto::hkdf, same salt and label), so that the pair of
// benchmarks differs only in our wrapper's overhead: the SecretKey/PublicKey
// types, Result values and SecureBuffer allocations. random supplies the 32
// ephemeral bytes (a final class: the call is direct). False if a
// libsecp256k1 call failed.
template <typename Random>
bool rawSenderNoteKey(const secp256k1_context* context, const secp256k1_pubkey& recipient,
                      Random& random, CompressedKey& ephemeralPublicKey, NoteKey& noteKey)
{
    std::array<std::uint8_t, SecretKey::size> secret;
    do
        random.fill(secret);
    while (secp256k1_ec_seckey_verify(context, secret.data()) != 1);

    secp256k1_pubkey ephemeral;
    std::array<std::uint8_t, crypto::ecdhSecretSize> shared;
    // salt = ephemeral public || recipient public, both compressed; the
    // recipient is serialized per note, as senderNoteKey does.
    std::array<std::uint8_t, 2 * PublicKey::compressedSize> salt;
    std::size_t ephemeralSize = PublicKey::compressedSize;
    std::size_t recipientSize = PublicKey::compressedSize;
    bool ok =
        secp256k1_ec_pubkey_create(context, &ephemeral, secret.data()) == 1 &&
        secp256k1_ec_pubkey_serialize(context, ephemeralPublicKey.data(), &ephemeralSize,
                                      &ephemeral, SECP256K1_EC_COMPRESSED) == 1 &&
        secp256k1_ecdh(context, shared.data(), &recipient, secret.data(), perfCopyXCoordinate,
                       nullptr) == 1 &&
        secp256k1_ec_pubkey_serialize(context, salt.data() + PublicKey::compressedSize,
                                      &recipientSize, &recipient, SECP256K1_EC_COMPRESSED) == 1;
    secureWipe(secret.data(), secret.size());
    if (ok) {
        std::copy(ephemeralPublicKey.begin(), ephemeralPublicKey.end(), salt.begin());
        ok = crypto::hkdf(crypto::HashAlgorithm::Sha256, shared, salt, asBytes(share::noteKeyLabel),
                          noteKey)
                 .ok();
    }
    secureWipe(shared.data(), shared.size());
    return ok;
}

Prepared prepareSenderDh()
{
    auto recipient = fixedRecipient();
    if (!recipient)
        return notPrepared("the fixed recipient key does not parse");
    auto& random = crypto::systemRandom();
    if (!share::senderNoteKey(random, recipient->publicKey))
        return notPrepared("senderNoteKey failed");
    return prepared(loop([recipient = std::move(recipient->publicKey), &random] {
        auto noteKey = share::senderNoteKey(random, recipient);
        keep(noteKey);
    }));
}

// A recipient and the buffers of one raw sender DH, kept at one address: the
// libsecp256k1 point is read in place.
class RawSenderDh final : public Routine
{
public:
    explicit RawSenderDh(Recipient recipient) : m_recipient(std::move(recipient)) {}

    void run(std::uint64_t iterations) override
    {
        const secp256k1_context* context = crypto::secp256k1Context();
        for (std::uint64_t i = 0; i < iterations; ++i) {
            const bool ok = rawSenderNoteKey(context, m_recipient.publicKey.native(), m_kernel,
                                             m_ephemeralPublicKey, m_noteKey);
            keep(ok);
            keep(m_noteKey);
        }
    }

    ~RawSenderDh() override { secureWipe(m_noteKey.data(), m_noteKey.size()); }

private:
    Recipient m_recipient;
    // The same getrandom(2) source ours reads.
    crypto::SystemRandom m_kernel;
    CompressedKey m_ephemeralPublicKey{};
    NoteKey m_noteKey{};
};

} // namespace

Bytes ourFixedSenderNoteKey()
{
    const auto recipient = fixedRecipient();
    if (!recipient)
        return {};
    RepeatingRandom fixedEphemeral(bytesFromHex(kEphemeralSecretKey));
    const auto ours = share::senderNoteKey(fixedEphemeral, recipient->publicKey);
    if (!ours)
        return {};
    return concatenate(ours->ephemeralPublicKey, ours->noteKey);
}

Prepared prepareRawSenderDh(ByteView expected)
{
    auto recipient = fixedRecipient();
    if (!recipient)
        return notPrepared("the fixed recipient key does not parse");
    // Same ephemeral secret on both sides: the raw path must give our note key.
    RepeatingRandom fixedEphemeral(bytesFromHex(kEphemeralSecretKey));
    CompressedKey ephemeralPublicKey;
    NoteKey noteKey;
    const bool ok = rawSenderNoteKey(crypto::secp256k1Context(), recipient->publicKey.native(),
                                     fixedEphemeral, ephemeralPublicKey, noteKey);
    const Bytes result = concatenate(ephemeralPublicKey, noteKey);
    secureWipe(noteKey.data(), noteKey.size());
    if (!ok || result != Bytes(expected.begin(), expected.end()))
        return notTheSameWork("the raw libsecp256k1 sender DH", "share::senderNoteKey");
    return prepared(std::make_unique<RawSenderDh>(std::move(*recipient)));
}

std::vector<Benchmark> senderDhBenchmarks()
{
    return {
        {"shared_secret_key/sender_dh",
         "the sender's note key for one recipient: a new ephemeral key pair, ECDH with the "
         "recipient's public key, HKDF-SHA256",
         0, "", prepareSenderDh},
        {"ref/secp256k1_raw_sender_dh",
         "shared_secret_key/sender_dh in raw libsecp256k1 calls (the same getrandom(2) and HKDF)",
         0, "",
         [] {
             return prepareRawSenderDh(ourFixedSenderNoteKey());
         }},
    };
}

} // namespace watchword::perf::entries
