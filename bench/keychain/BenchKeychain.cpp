// keychain/*: a whole keychain (24-word phrase -> BIP39 seed -> HKDF ->
// secp256k1 identity key pair and recovery wrapping key), new from OS
// randomness or restored from a typed phrase; the restore path again with the
// seed from OpenSSL's PKCS5_PBKDF2_HMAC, to show what our PBKDF2 is worth
// there; and bip39/mnemonic_to_seed, the PBKDF2 step alone.
#include "base/SecureBuffer.h"
#include "crypto/Hash.h"
#include "crypto/Kdf.h"
#include "crypto/Random.h"
#include "crypto/Secp256k1.h"
#include "keychain/Bip39.h"
#include "keychain/Keychain.h"

#include <benchmark/benchmark.h>
#include <openssl/evp.h>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace {

using watchword::asBytes;
using watchword::SecureBuffer;
using watchword::crypto::HashAlgorithm;
using watchword::crypto::PublicKey;
using watchword::crypto::SecretKey;
using watchword::keychain::Keychain;

// A 24-word BIP39 English test vector (entropy 68a79eac...e6ce7c), with the
// empty passphrase, the product's default.
constexpr std::string_view kPhrase =
    "hamster diagram private dutch cause delay private meat slide toddler razor book happy fancy "
    "gospel tennis maple dilemma loan word shrug inflict delay length";
constexpr std::string_view kPassphrase = "";

// What a keychain holds, derived as Keychain::restore does, but with the BIP39
// seed from PKCS5_PBKDF2_HMAC. The identity key's retry with a counter byte
// (Keychain.h; odds about 2^-128) is left out: the check in the benchmark
// proves this phrase does not need it.
struct OpenSslKeychain
{
    SecureBuffer mnemonic;
    SecretKey identitySecretKey;
    PublicKey identityPublicKey;
    SecureBuffer recoveryWrappingKey;
};

std::optional<OpenSslKeychain> restoreWithOpenSslPbkdf2(std::string_view phrase,
                                                        std::string_view passphrase)
{
    SecureBuffer mnemonic = watchword::keychain::normalizeMnemonic(phrase);
    if (!watchword::keychain::mnemonicToEntropy(mnemonic.view()))
        return std::nullopt;

    // BIP39: salt = "mnemonic" || passphrase, 2048 rounds of HMAC-SHA512.
    const std::string salt = "mnemonic" + std::string(passphrase);
    SecureBuffer seed(watchword::keychain::seedSize);
    if (PKCS5_PBKDF2_HMAC(mnemonic.view().data(), static_cast<int>(mnemonic.size()),
                          reinterpret_cast<const unsigned char*>(salt.data()),
                          static_cast<int>(salt.size()),
                          static_cast<int>(watchword::keychain::seedIterations), EVP_sha512(),
                          static_cast<int>(seed.size()), seed.data()) != 1)
        return std::nullopt;

    constexpr auto kdfHash = HashAlgorithm::Sha512;
    SecureBuffer prk(watchword::crypto::digestSize(kdfHash));
    watchword::crypto::hkdfExtract(kdfHash, asBytes(watchword::keychain::keychainSalt), seed,
                                   prk.span());
    SecureBuffer candidate(SecretKey::size);
    if (!watchword::crypto::hkdfExpand(kdfHash, prk, asBytes(watchword::keychain::identityKeyLabel),
                                       candidate.span()))
        return std::nullopt;
    auto secretKey = SecretKey::fromBytes(std::move(candidate));
    if (!secretKey)
        return std::nullopt;
    SecureBuffer wrappingKey(watchword::keychain::recoveryWrappingKeySize);
    if (!watchword::crypto::hkdfExpand(kdfHash, prk,
                                       asBytes(watchword::keychain::recoveryWrappingKeyLabel),
                                       wrappingKey.span()))
        return std::nullopt;
    auto publicKey = secretKey->publicKey();
    return OpenSslKeychain{std::move(mnemonic), std::move(secretKey).value(), std::move(publicKey),
                           std::move(wrappingKey)};
}

void newOsRandom(benchmark::State& state)
{
    auto& random = watchword::crypto::systemRandom();
    if (auto first = Keychain::create(random, Keychain::defaultWordCount); !first) {
        state.SkipWithError(first.error().message.c_str());
        return;
    }
    for (auto _ : state) {
        auto keychain = Keychain::create(random, Keychain::defaultWordCount);
        benchmark::DoNotOptimize(keychain);
    }
}

void newMnemonic(benchmark::State& state)
{
    if (auto first = Keychain::restore(kPhrase, kPassphrase); !first) {
        state.SkipWithError(first.error().message.c_str());
        return;
    }
    for (auto _ : state) {
        auto keychain = Keychain::restore(kPhrase, kPassphrase);
        benchmark::DoNotOptimize(keychain);
    }
}

void newMnemonicOpenSslPbkdf2(benchmark::State& state)
{
    // Same keys as Keychain::restore, or the pair would not compare like with like.
    const auto ours = Keychain::restore(kPhrase, kPassphrase);
    const auto reference = restoreWithOpenSslPbkdf2(kPhrase, kPassphrase);
    if (!ours || !reference || reference->identityPublicKey != ours->identityPublicKey() ||
        !watchword::constantTimeEqual(reference->recoveryWrappingKey,
                                      ours->recoveryWrappingKey())) {
        state.SkipWithError("the OpenSSL-PBKDF2 path does not derive Keychain::restore's keys");
        return;
    }
    for (auto _ : state) {
        auto keychain = restoreWithOpenSslPbkdf2(kPhrase, kPassphrase);
        benchmark::DoNotOptimize(keychain);
    }
}

void mnemonicToSeed(benchmark::State& state)
{
    if (auto first = watchword::keychain::mnemonicToSeed(kPhrase, kPassphrase); !first) {
        state.SkipWithError(first.error().message.c_str());
        return;
    }
    for (auto _ : state) {
        auto seed = watchword::keychain::mnemonicToSeed(kPhrase, kPassphrase);
        benchmark::DoNotOptimize(seed);
    }
}

BENCHMARK(newOsRandom)->Name("keychain/new_os_random")->Unit(benchmark::kMillisecond);
BENCHMARK(newMnemonic)->Name("keychain/new_mnemonic")->Unit(benchmark::kMillisecond);
BENCHMARK(newMnemonicOpenSslPbkdf2)
    ->Name("keychain/new_mnemonic_openssl_pbkdf2")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(mnemonicToSeed)->Name("bip39/mnemonic_to_seed")->Unit(benchmark::kMillisecond);

} // namespace
