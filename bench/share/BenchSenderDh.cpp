// shared_secret_key/*: the note key of a shared note, from the sender's side
// (new ephemeral key, public key, ECDH, HKDF) and the recipient's, against the
// same work done with raw libsecp256k1 calls. secp256k1/*: the two curve
// operations alone, for the reference table.
#include "BenchSupport.h"
#include "base/Bytes.h"
#include "base/SecureBuffer.h"
#include "crypto/Hash.h"
#include "crypto/Kdf.h"
#include "crypto/Random.h"
#include "crypto/Secp256k1.h"
#include "share/SenderDh.h"

#include <algorithm>
#include <array>
#include <benchmark/benchmark.h>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <secp256k1.h>
#include <secp256k1_ecdh.h>
#include <span>

namespace {

using watchword::asBytes;
using watchword::Bytes;
using watchword::bench::bytesFromHex;
using watchword::crypto::PublicKey;
using watchword::crypto::SecretKey;

// The first vector of tests/data/share/vectors.json.
constexpr std::string_view kRecipientSecretKey =
    "0570eaa895fabf65ddbc11820af0fac0fa94303b2bf5f5eecff339555611bff0";
constexpr std::string_view kRecipientPublicKey =
    "0345e17da5f2bc90cc26b64f7efd8984bed5569d4f7e6442646ae2e91661d037d4";
constexpr std::string_view kEphemeralSecretKey =
    "8fe7ce21a434a9bb427bf2bf059e5da3adddd45ad7ba281fd11f58cdd28b7603";
constexpr std::string_view kEphemeralPublicKey =
    "029117e047baa99d517ebd00c2f6b7f322da177ec5e049641b6f8c07260badc6b3";

using CompressedKey = std::array<std::uint8_t, PublicKey::compressedSize>;

extern "C" {
// The ECDH "hash" that keeps the plain x-coordinate, as crypto::ecdh does.
static int copyXCoordinate(unsigned char* output, const unsigned char* x32,
                           const unsigned char* /*y32*/, void* /*data*/)
{
    std::memcpy(output, x32, watchword::crypto::ecdhSecretSize);
    return 1;
}
}

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
// types, Result values and SecureBuffer allocations. fill supplies the 32
// ephemeral bytes. False if a libsecp256k1 call failed.
template <typename Fill>
bool rawSenderNoteKey(const secp256k1_context* context, const secp256k1_pubkey& recipient,
                      Fill&& fill, CompressedKey& ephemeralPublicKey,
                      std::span<std::uint8_t, watchword::share::noteKeySize> noteKey)
{
    std::array<std::uint8_t, SecretKey::size> secret;
    do
        fill(std::span<std::uint8_t>(secret));
    while (secp256k1_ec_seckey_verify(context, secret.data()) != 1);

    secp256k1_pubkey ephemeral;
    std::array<std::uint8_t, watchword::crypto::ecdhSecretSize> shared;
    // salt = ephemeral public || recipient public, both compressed; the
    // recipient is serialized per note, as senderNoteKey does.
    std::array<std::uint8_t, 2 * PublicKey::compressedSize> salt;
    std::size_t ephemeralSize = PublicKey::compressedSize;
    std::size_t recipientSize = PublicKey::compressedSize;
    bool ok =
        secp256k1_ec_pubkey_create(context, &ephemeral, secret.data()) == 1 &&
        secp256k1_ec_pubkey_serialize(context, ephemeralPublicKey.data(), &ephemeralSize,
                                      &ephemeral, SECP256K1_EC_COMPRESSED) == 1 &&
        secp256k1_ecdh(context, shared.data(), &recipient, secret.data(), copyXCoordinate,
                       nullptr) == 1 &&
        secp256k1_ec_pubkey_serialize(context, salt.data() + PublicKey::compressedSize,
                                      &recipientSize, &recipient, SECP256K1_EC_COMPRESSED) == 1;
    watchword::secureWipe(secret.data(), secret.size());
    if (ok) {
        std::copy(ephemeralPublicKey.begin(), ephemeralPublicKey.end(), salt.begin());
        ok = watchword::crypto::hkdf(watchword::crypto::HashAlgorithm::Sha256, shared, salt,
                                     asBytes(watchword::share::noteKeyLabel), noteKey)
                 .ok();
    }
    watchword::secureWipe(shared.data(), shared.size());
    return ok;
}

void senderDh(benchmark::State& state)
{
    const auto recipient = fixedRecipient();
    if (!recipient) {
        state.SkipWithError("the fixed recipient key does not parse");
        return;
    }
    auto& random = watchword::crypto::systemRandom();
    if (!watchword::share::senderNoteKey(random, recipient->publicKey)) {
        state.SkipWithError("senderNoteKey failed");
        return;
    }
    for (auto _ : state) {
        auto noteKey = watchword::share::senderNoteKey(random, recipient->publicKey);
        benchmark::DoNotOptimize(noteKey);
    }
}

void senderDhRawLibsecp256k1(benchmark::State& state)
{
    const auto recipient = fixedRecipient();
    if (!recipient) {
        state.SkipWithError("the fixed recipient key does not parse");
        return;
    }
    const secp256k1_context* context = watchword::crypto::secp256k1Context();
    const secp256k1_pubkey& recipientPoint = recipient->publicKey.native();
    CompressedKey ephemeralPublicKey;
    std::array<std::uint8_t, watchword::share::noteKeySize> noteKey;

    // Same ephemeral secret on both sides: the raw path must give our note key.
    const Bytes ephemeralSecret = bytesFromHex(kEphemeralSecretKey);
    watchword::bench::RepeatingRandom fixedEphemeral(ephemeralSecret);
    const auto ours = watchword::share::senderNoteKey(fixedEphemeral, recipient->publicKey);
    const bool rawOk = rawSenderNoteKey(
        context, recipientPoint, [&](std::span<std::uint8_t> out) { fixedEphemeral.fill(out); },
        ephemeralPublicKey, noteKey);
    if (!ours || !rawOk || ephemeralPublicKey != ours->ephemeralPublicKey ||
        !watchword::constantTimeEqual(noteKey, ours->noteKey)) {
        state.SkipWithError("the raw sender DH does not derive senderNoteKey's key");
        return;
    }

    // The same getrandom(2) source ours reads; SystemRandom is final, so the
    // call is direct.
    watchword::crypto::SystemRandom kernel;
    const auto fillFromKernel = [&](std::span<std::uint8_t> out) {
        kernel.fill(out);
    };
    for (auto _ : state) {
        const bool ok =
            rawSenderNoteKey(context, recipientPoint, fillFromKernel, ephemeralPublicKey, noteKey);
        benchmark::DoNotOptimize(ok);
        benchmark::DoNotOptimize(noteKey);
    }
    watchword::secureWipe(noteKey.data(), noteKey.size());
}

void recipientDh(benchmark::State& state)
{
    const auto recipient = fixedRecipient();
    if (!recipient) {
        state.SkipWithError("the fixed recipient key does not parse");
        return;
    }
    const Bytes ephemeralPublicKey = bytesFromHex(kEphemeralPublicKey);
    if (!watchword::share::recipientNoteKey(recipient->secretKey, recipient->publicKey,
                                            ephemeralPublicKey)) {
        state.SkipWithError("recipientNoteKey failed");
        return;
    }
    for (auto _ : state) {
        auto noteKey = watchword::share::recipientNoteKey(recipient->secretKey,
                                                          recipient->publicKey, ephemeralPublicKey);
        benchmark::DoNotOptimize(noteKey);
    }
}

void ecdhRaw(benchmark::State& state)
{
    const auto recipient = fixedRecipient();
    if (!recipient) {
        state.SkipWithError("the fixed recipient key does not parse");
        return;
    }
    const secp256k1_context* context = watchword::crypto::secp256k1Context();
    const Bytes secret = bytesFromHex(kEphemeralSecretKey);
    std::array<std::uint8_t, watchword::crypto::ecdhSecretSize> shared;
    for (auto _ : state) {
        const int ok = secp256k1_ecdh(context, shared.data(), &recipient->publicKey.native(),
                                      secret.data(), copyXCoordinate, nullptr);
        benchmark::DoNotOptimize(ok);
        benchmark::DoNotOptimize(shared);
    }
}

void pubkeyCreateRaw(benchmark::State& state)
{
    const secp256k1_context* context = watchword::crypto::secp256k1Context();
    const Bytes secret = bytesFromHex(kEphemeralSecretKey);
    secp256k1_pubkey publicKey;
    for (auto _ : state) {
        const int ok = secp256k1_ec_pubkey_create(context, &publicKey, secret.data());
        benchmark::DoNotOptimize(ok);
        benchmark::DoNotOptimize(publicKey);
    }
}

BENCHMARK(senderDh)->Name("shared_secret_key/sender_dh")->Unit(benchmark::kMicrosecond);
BENCHMARK(senderDhRawLibsecp256k1)
    ->Name("shared_secret_key/sender_dh_raw_libsecp256k1")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(recipientDh)->Name("shared_secret_key/recipient_dh")->Unit(benchmark::kMicrosecond);
BENCHMARK(ecdhRaw)->Name("secp256k1/ecdh_raw")->Unit(benchmark::kMicrosecond);
BENCHMARK(pubkeyCreateRaw)->Name("secp256k1/pubkey_create_raw")->Unit(benchmark::kMicrosecond);

} // namespace
