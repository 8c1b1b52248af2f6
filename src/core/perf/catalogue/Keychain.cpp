// keychain/*: a whole keychain (24-word phrase -> BIP39 seed -> HKDF ->
// three secp256k1 key pairs (recovery, sharing, the version-1 recovery key)
// and the recovery wrapping key), new from OS
// randomness or restored from a typed phrase; and the restore path again with
// the seed from OpenSSL's PKCS5_PBKDF2_HMAC, to show what our PBKDF2 is worth
// there.
#include "keychain/Keychain.h"

#include "base/SecureBuffer.h"
#include "crypto/Hash.h"
#include "crypto/Kdf.h"
#include "crypto/Random.h"
#include "crypto/Secp256k1.h"
#include "keychain/Bip39.h"
#include "perf/catalogue/Catalogue.h"

#include <openssl/evp.h>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace watchword::perf::entries {

namespace {

using crypto::HashAlgorithm;
using crypto::PublicKey;
using crypto::SecretKey;
using keychain::Keychain;

// kPhrase (Catalogue.h) with the empty passphrase, the product's default.
constexpr std::string_view kPassphrase = "";

// What a keychain holds, derived as Keychain::restore does, but with the BIP39
// seed from PKCS5_PBKDF2_HMAC. The key pairs' retry with a counter byte
// (Keychain.h; odds about 2^-128) is left out: the check before timing proves
// this phrase does not need it.
struct OpenSslKeychain
{
    SecureBuffer mnemonic;
    keychain::KeyPair recoveryKey;
    keychain::KeyPair sharingKey;
    keychain::KeyPair versionOneRecoveryKey;
    SecureBuffer recoveryWrappingKey;
};

// The key pair of label, first candidate only.
std::optional<keychain::KeyPair> keyPairOf(ByteView prk, std::string_view label)
{
    SecureBuffer candidate(SecretKey::size);
    if (!crypto::hkdfExpand(HashAlgorithm::Sha512, prk, asBytes(label), candidate.span()))
        return std::nullopt;
    auto secretKey = SecretKey::fromBytes(std::move(candidate));
    if (!secretKey)
        return std::nullopt;
    auto publicKey = secretKey->publicKey();
    return keychain::KeyPair{std::move(secretKey).value(), std::move(publicKey)};
}

std::optional<OpenSslKeychain> restoreWithOpenSslPbkdf2(std::string_view phrase,
                                                        std::string_view passphrase)
{
    SecureBuffer mnemonic = keychain::normalizeMnemonic(phrase);
    if (!keychain::mnemonicToEntropy(mnemonic.view()))
        return std::nullopt;

    // BIP39: salt = "mnemonic" || passphrase, 2048 rounds of HMAC-SHA512.
    const std::string salt = "mnemonic" + std::string(passphrase);
    SecureBuffer seed(keychain::seedSize);
    if (PKCS5_PBKDF2_HMAC(mnemonic.view().data(), static_cast<int>(mnemonic.size()),
                          reinterpret_cast<const unsigned char*>(salt.data()),
                          static_cast<int>(salt.size()), static_cast<int>(keychain::seedIterations),
                          EVP_sha512(), static_cast<int>(seed.size()), seed.data()) != 1)
        return std::nullopt;

    constexpr auto kdfHash = HashAlgorithm::Sha512;
    SecureBuffer prk(crypto::digestSize(kdfHash));
    crypto::hkdfExtract(kdfHash, asBytes(keychain::keychainSalt), seed, prk.span());
    auto recovery = keyPairOf(prk, keychain::recoveryKeyLabel);
    auto sharing = keyPairOf(prk, keychain::sharingKeyLabel);
    auto versionOne = keyPairOf(prk, keychain::versionOneRecoveryKeyLabel);
    if (!recovery || !sharing || !versionOne)
        return std::nullopt;
    SecureBuffer wrappingKey(keychain::recoveryWrappingKeySize);
    if (!crypto::hkdfExpand(kdfHash, prk, asBytes(keychain::recoveryWrappingKeyLabel),
                            wrappingKey.span()))
        return std::nullopt;
    return OpenSslKeychain{std::move(mnemonic), std::move(*recovery), std::move(*sharing),
                           std::move(*versionOne), std::move(wrappingKey)};
}

// What the check compares: the three public keys, then the wrapping key.
Bytes keysOf(const keychain::KeyPair& recovery, const keychain::KeyPair& sharing,
             const keychain::KeyPair& versionOne, ByteView recoveryWrappingKey)
{
    return concatenate(concatenate(recovery.publicKey.compressed(), sharing.publicKey.compressed()),
                       concatenate(versionOne.publicKey.compressed(), recoveryWrappingKey));
}

Prepared prepareNewOsRandom()
{
    auto& random = crypto::systemRandom();
    if (auto first = Keychain::create(random, Keychain::defaultWordCount); !first)
        return notPrepared(first.error().message);
    return prepared(loop([&random] {
        auto keychain = Keychain::create(random, Keychain::defaultWordCount);
        keep(keychain);
    }));
}

Prepared prepareNewMnemonic()
{
    if (auto first = Keychain::restore(kPhrase, kPassphrase); !first)
        return notPrepared(first.error().message);
    return prepared(loop([] {
        auto keychain = Keychain::restore(kPhrase, kPassphrase);
        keep(keychain);
    }));
}

} // namespace

Bytes ourKeychainKeys()
{
    const auto ours = Keychain::restore(kPhrase, kPassphrase);
    if (!ours)
        return {};
    return keysOf(ours->recoveryKey(), ours->sharingKey(), ours->versionOneRecoveryKey(),
                  ours->recoveryWrappingKey());
}

Prepared prepareOpenSslKeychain(ByteView expected)
{
    const auto reference = restoreWithOpenSslPbkdf2(kPhrase, kPassphrase);
    if (!reference ||
        keysOf(reference->recoveryKey, reference->sharingKey, reference->versionOneRecoveryKey,
               reference->recoveryWrappingKey) != Bytes(expected.begin(), expected.end()))
        return notTheSameWork("the keychain with PKCS5_PBKDF2_HMAC", "Keychain::restore");
    return prepared(loop([] {
        auto keychain = restoreWithOpenSslPbkdf2(kPhrase, kPassphrase);
        keep(keychain);
    }));
}

std::vector<Benchmark> keychainBenchmarks()
{
    return {
        {"keychain/new_os_random",
         "a new keychain: 32 bytes from getrandom(2) -> 24-word phrase -> BIP39 seed -> three "
         "key pairs (recovery, sharing, version-1 recovery) and the recovery wrapping key",
         0, "", prepareNewOsRandom},
        {"keychain/new_mnemonic",
         "the keychain of a typed 24-word phrase: normalize, check, BIP39 seed, three key pairs "
         "and the recovery wrapping key",
         0, "", prepareNewMnemonic},
        {"ref/openssl_pkcs5_keychain_new_mnemonic",
         "keychain/new_mnemonic with the BIP39 seed from OpenSSL's PKCS5_PBKDF2_HMAC", 0, "",
         [] {
             return prepareOpenSslKeychain(ourKeychainKeys());
         }},
    };
}

} // namespace watchword::perf::entries
