// The keychain: one BIP39 recovery phrase from which everything else follows.
//
// From the phrase's 64-byte BIP39 seed (keychain/Bip39.h), HKDF-SHA512 (RFC
// 5869) with a fixed, versioned salt derives independent keys, each for one
// purpose only (docs/FORMAT.md section 1):
//
//   prk       = HKDF-Extract(SHA-512, salt = "watchword/keychain/v1", ikm = seed)
//   recovery  = the secp256k1 key pair of label "recovery secp256k1": a vault
//               (format 2) wraps its master key to its public key
//   sharing   = the secp256k1 key pair of label "sharing secp256k1": the
//               identity other people seal shared records to, and that signs
//               what this person sends
//   version-1 recovery key
//             = the key pair of label "identity secp256k1": what a vault of
//               format 1 wraps its master key to, so that old phrases keep
//               opening old files; nothing else uses it
//   wrapping  = HKDF-Expand(prk, info = "recovery wrapping key", 32 bytes),
//               derived and checked by the self-test; no vault format uses it
//
// A key pair of label L: secret = HKDF-Expand(prk, info = L, 32 bytes) as a
// big-endian scalar; if it is 0 or >= n (odds about 2^-128), the next
// candidate is HKDF-Expand(prk, L || k, 32) for the single byte k = 0x01,
// 0x02, ...: the first valid one wins. Labels are ASCII without a
// terminating NUL.
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
inline constexpr std::string_view versionOneRecoveryKeyLabel = "identity secp256k1";
inline constexpr std::string_view recoveryKeyLabel = "recovery secp256k1";
inline constexpr std::string_view sharingKeyLabel = "sharing secp256k1";
inline constexpr std::string_view recoveryWrappingKeyLabel = "recovery wrapping key";
inline constexpr std::size_t recoveryWrappingKeySize = 32;

// A secp256k1 key pair the keychain derives.
struct KeyPair
{
    crypto::SecretKey secretKey;
    crypto::PublicKey publicKey;
};

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
    // What a format-2 vault's recovery slot wraps to.
    const KeyPair& recoveryKey() const noexcept { return m_recoveryKey; }
    // The identity for sharing.
    const KeyPair& sharingKey() const noexcept { return m_sharingKey; }
    // What a format-1 vault's recovery slot wraps to.
    const KeyPair& versionOneRecoveryKey() const noexcept { return m_versionOneRecoveryKey; }
    // recoveryWrappingKeySize bytes.
    const SecureBuffer& recoveryWrappingKey() const noexcept { return m_recoveryWrappingKey; }

private:
    Keychain(SecureBuffer mnemonic, KeyPair recoveryKey, KeyPair sharingKey,
             KeyPair versionOneRecoveryKey, SecureBuffer recoveryWrappingKey) noexcept;

    // Derives the keys above from a checked, normalized phrase.
    static KeychainResult<Keychain> derive(SecureBuffer mnemonic, std::string_view passphrase);

    SecureBuffer m_mnemonic;
    KeyPair m_recoveryKey;
    KeyPair m_sharingKey;
    KeyPair m_versionOneRecoveryKey;
    SecureBuffer m_recoveryWrappingKey;
};

} // namespace watchword::keychain
