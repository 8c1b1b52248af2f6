// The keychain: one BIP39 recovery phrase from which everything else follows.
//
// From the phrase's 64-byte BIP39 seed (keychain/Bip39.h), HKDF-SHA512 (RFC
// 5869) with a fixed, versioned salt derives two independent keys:
//
//   prk       = HKDF-Extract(SHA-512, salt = "watchword/keychain/v1", ikm = seed)
//   identity  = HKDF-Expand(prk, info = "identity secp256k1", 32 bytes),
//               a secp256k1 secret key (big-endian scalar). If it is 0 or
//               >= n (odds about 2^-128), the next candidate is
//               HKDF-Expand(prk, "identity secp256k1" || k, 32) for the single
//               byte k = 0x01, 0x02, ...: the first valid one wins.
//   wrapping  = HKDF-Expand(prk, info = "recovery wrapping key", 32 bytes),
//               derived and checked by the self-test; vault format 1 does not
//               use it (its recovery slot wraps the master key to the identity
//               key with the note key of share/SenderDh.h).
//
// Labels are ASCII without a terminating NUL. The identity public key is what
// other people seal shared notes to (share/SenderDh.h).
#pragma once

#include "base/Result.h"
#include "base/SecureBuffer.h"
#include "crypto/Random.h"
#include "crypto/Secp256k1.h"
#include "keychain/Bip39.h"

#include <cstddef>
#include <string_view>

namespace watchword::keychain {

inline constexpr std::string_view keychainSalt = "watchword/keychain/v1";
inline constexpr std::string_view identityKeyLabel = "identity secp256k1";
inline constexpr std::string_view recoveryWrappingKeyLabel = "recovery wrapping key";
inline constexpr std::size_t recoveryWrappingKeySize = 32;

class Keychain
{
public:
    static constexpr std::size_t defaultWordCount = 24; // 256 bits of entropy

    // A new keychain: entropySizeForWordCount(wordCount) bytes from random
    // become the phrase. Any BIP39 size (12, 15, 18, 21, 24 words) is allowed;
    // the passphrase is optional (see mnemonicToSeed() on its encoding).
    [[nodiscard]] static KeychainResult<Keychain> create(crypto::RandomSource& random,
                                                         std::size_t wordCount = defaultWordCount,
                                                         std::string_view passphrase = {});

    // The keychain of a phrase the user typed: normalized (normalizeMnemonic()),
    // checked (word count, words, checksum), then derived. The same phrase and
    // passphrase always give the same keys.
    [[nodiscard]] static KeychainResult<Keychain> restore(std::string_view mnemonic,
                                                          std::string_view passphrase = {});

    // The normalized phrase, for the user to write down.
    const SecureBuffer& mnemonic() const noexcept { return m_mnemonic; }
    const crypto::SecretKey& identitySecretKey() const noexcept { return m_identitySecretKey; }
    const crypto::PublicKey& identityPublicKey() const noexcept { return m_identityPublicKey; }
    // recoveryWrappingKeySize bytes.
    const SecureBuffer& recoveryWrappingKey() const noexcept { return m_recoveryWrappingKey; }

private:
    Keychain(SecureBuffer mnemonic, crypto::SecretKey identitySecretKey,
             crypto::PublicKey identityPublicKey, SecureBuffer recoveryWrappingKey) noexcept;

    // Derives the keys above from a checked, normalized phrase.
    static KeychainResult<Keychain> derive(SecureBuffer mnemonic, std::string_view passphrase);

    SecureBuffer m_mnemonic;
    crypto::SecretKey m_identitySecretKey;
    crypto::PublicKey m_identityPublicKey;
    SecureBuffer m_recoveryWrappingKey;
};

} // namespace watchword::keychain
