#include "keychain/Keychain.h"

#include "crypto/Hash.h"
#include "crypto/Kdf.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdlib>
#include <optional>
#include <utility>
#include <vector>

namespace watchword::keychain {

namespace {

constexpr auto kdfHash = crypto::HashAlgorithm::Sha512;

// HKDF-Expand of prk with info into out. 32 bytes of HKDF-SHA512 are always in
// range, so the self-test switch is the only way this can fail.
KeychainResult<void> expand(ByteView prk, ByteView info, std::span<std::uint8_t> out)
{
    auto expanded = crypto::hkdfExpand(kdfHash, prk, info, out);
    if (!expanded) {
        assert(expanded.error().code == crypto::KdfError::CryptoDisabled);
        return expanded.failure(KeychainError::CryptoDisabled);
    }
    return {};
}

// The key pair of label: the first candidate that is a valid scalar, trying
// info = label, then label || 0x01, label || 0x02, ... (see Keychain.h).
KeychainResult<KeyPair> deriveKeyPair(ByteView prk, std::string_view label)
{
    std::vector<std::uint8_t> info(label.begin(), label.end());
    info.push_back(0);
    for (unsigned counter = 0; counter <= 0xff; ++counter) {
        info.back() = static_cast<std::uint8_t>(counter);
        const ByteView infoForAttempt(info.data(), counter == 0 ? label.size() : info.size());
        SecureBuffer candidate(crypto::SecretKey::size);
        if (auto expanded = expand(prk, infoForAttempt, candidate.span()); !expanded)
            return expanded.failure();
        if (auto key = crypto::SecretKey::fromBytes(std::move(candidate))) {
            auto publicKey = key->publicKey();
            return KeyPair{std::move(key).value(), std::move(publicKey)};
        }
    }
    // 256 invalid scalars in a row from HMAC-SHA512 would be a broken hash.
    std::abort();
}

} // namespace

Keychain::Keychain(SecureBuffer mnemonic, KeyPair recoveryKey, KeyPair sharingKey,
                   KeyPair versionOneRecoveryKey, SecureBuffer recoveryWrappingKey) noexcept
    : m_mnemonic(std::move(mnemonic)), m_recoveryKey(std::move(recoveryKey)),
      m_sharingKey(std::move(sharingKey)),
      m_versionOneRecoveryKey(std::move(versionOneRecoveryKey)),
      m_recoveryWrappingKey(std::move(recoveryWrappingKey))
{}

KeychainResult<Keychain> Keychain::create(crypto::RandomSource& random, std::size_t wordCount,
                                          std::string_view passphrase)
{
    if (!isValidWordCount(wordCount))
        return fail(KeychainError::InvalidWordCount,
                    "a recovery phrase has 12, 15, 18, 21 or 24 words, not " +
                        std::to_string(wordCount));
    SecureBuffer entropy(entropySizeForWordCount(wordCount));
    random.fill(entropy.span());
    auto mnemonic = entropyToMnemonic(entropy);
    if (!mnemonic)
        return mnemonic.failure();
    return derive(std::move(mnemonic).value(), passphrase);
}

KeychainResult<Keychain> Keychain::restore(std::string_view mnemonic, std::string_view passphrase)
{
    SecureBuffer normalized = normalizeMnemonic(mnemonic);
    if (auto entropy = mnemonicToEntropy(normalized.view()); !entropy)
        return entropy.failure();
    return derive(std::move(normalized), passphrase);
}

KeychainResult<Keychain> Keychain::derive(SecureBuffer mnemonic, std::string_view passphrase)
{
    auto seed = mnemonicToSeed(mnemonic.view(), passphrase);
    if (!seed)
        return seed.failure();

    SecureBuffer prk(crypto::digestSize(kdfHash));
    crypto::hkdfExtract(kdfHash, asBytes(keychainSalt), *seed, prk.span());

    auto recovery = deriveKeyPair(prk, recoveryKeyLabel);
    if (!recovery)
        return recovery.failure();
    auto sharing = deriveKeyPair(prk, sharingKeyLabel);
    if (!sharing)
        return sharing.failure();
    auto versionOne = deriveKeyPair(prk, versionOneRecoveryKeyLabel);
    if (!versionOne)
        return versionOne.failure();
    SecureBuffer wrappingKey(recoveryWrappingKeySize);
    if (auto expanded = expand(prk, asBytes(recoveryWrappingKeyLabel), wrappingKey.span());
        !expanded)
        return expanded.failure();
    return Keychain(std::move(mnemonic), std::move(recovery).value(), std::move(sharing).value(),
                    std::move(versionOne).value(), std::move(wrappingKey));
}

} // namespace watchword::keychain
