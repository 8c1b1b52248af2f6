// BIP39 mnemonics (BIP-0039): entropy <-> English words, and the seed.
//
//   words    = (entropy || first ENT/32 bits of SHA-256(entropy)) in 11-bit groups,
//              each an index into the English wordlist (keychain/Wordlist.h)
//   mnemonic = the words joined by single spaces (U+0020)
//   seed     = PBKDF2-HMAC-SHA512(password = mnemonic,
//                                 salt = "mnemonic" || passphrase, 2048 rounds, 64 bytes)
//
// Entropy of 16, 20, 24, 28 or 32 bytes gives 12, 15, 18, 21 or 24 words.
// Mnemonics, entropy and seeds are secrets and come back in SecureBuffers.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace watchword::keychain {

enum class KeychainError {
    InvalidEntropySize, // entropy is not 16, 20, 24, 28 or 32 bytes
    InvalidWordCount,   // a mnemonic is not 12, 15, 18, 21 or 24 words
    UnknownWord,        // a word is not in the BIP39 English wordlist
    BadChecksum,        // the words are all known but their checksum bits do not match
    CryptoDisabled,     // the start-up self-test failed
};

template <typename T> using KeychainResult = Result<T, Error<KeychainError>>;

inline constexpr std::size_t seedSize = 64;           // BIP39 seed, PBKDF2-HMAC-SHA512 output
inline constexpr std::uint32_t seedIterations = 2048; // BIP39 "From mnemonic to seed"

// True for 12, 15, 18, 21 and 24.
[[nodiscard]] constexpr bool isValidWordCount(std::size_t words) noexcept
{
    return words >= 12 && words <= 24 && words % 3 == 0;
}

// Bytes of entropy behind a phrase of words (4 bytes per 3 words); words must
// be a valid count.
[[nodiscard]] constexpr std::size_t entropySizeForWordCount(std::size_t words) noexcept
{
    return words / 3 * 4;
}

// The mnemonic of entropy: lower-case words separated by single spaces.
[[nodiscard]] KeychainResult<SecureBuffer> entropyToMnemonic(ByteView entropy);

// The entropy of a mnemonic in normalized form (normalizeMnemonic()): checks
// the word count, then each word (the error names its 1-based position, never
// the word, since error text is not kept in wiped memory), then the checksum.
[[nodiscard]] KeychainResult<SecureBuffer> mnemonicToEntropy(std::string_view mnemonic);

// The canonical form of a typed or pasted phrase: ASCII letters lower-cased,
// each run of ASCII whitespace (space, tab, CR, LF, VT, FF) made one space,
// none at either end. Other bytes pass through unchanged: the Qt layer hands
// in NFKD-normalized UTF-8, which already turns no-break and ideographic
// spaces into U+0020.
[[nodiscard]] SecureBuffer normalizeMnemonic(std::string_view text);

// The 64-byte BIP39 seed of mnemonic and passphrase. BIP39 specifies both as
// NFKD-normalized UTF-8; the core has no Unicode tables, so the caller
// normalizes (QString::normalized(QString::NormalizationForm_KD)) and this
// function uses the bytes as given. Any bytes are accepted, so every ASCII
// passphrase works as is; the empty passphrase is the BIP39 default. mnemonic
// is not checked here (restore does that first). Fails only with
// CryptoDisabled.
[[nodiscard]] KeychainResult<SecureBuffer> mnemonicToSeed(std::string_view mnemonic,
                                                          std::string_view passphrase);

} // namespace watchword::keychain
