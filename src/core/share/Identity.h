// A person's sharing identity (the keychain's sharing key, docs/FORMAT.md
// section 1) as something people pass around and compare
// (docs/FORMAT.md section 11):
//
//   text         "watchword-id:" || Bech32m(hrp "ww", the 33-byte compressed key),
//                75 characters; the checksum finds any four changed letters
//   fingerprint  8 words of the BIP39 English list: the first 88 bits of
//                SHA-256("watchword/share/v1 fingerprint" || key), 11 bits a word,
//                to read out on the phone or compare side by side
#pragma once

#include "base/Result.h"
#include "crypto/Secp256k1.h"

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace watchword::share {

inline constexpr std::string_view identityTextPrefix = "watchword-id:";
inline constexpr std::string_view identityHumanReadablePart = "ww";
inline constexpr std::string_view fingerprintLabel = "watchword/share/v1 fingerprint";
inline constexpr std::size_t fingerprintWords = 8;

enum class IdentityError {
    NotAnIdentity, // no "watchword-id:" in front
    Damaged,       // the Bech32m text is broken (a letter changed, missing or out of place)
    WrongKind,     // a valid Bech32m text of something else (another part, another length)
    NotAKey,       // 33 bytes that are not a secp256k1 point
};

template <typename T> using IdentityResult = Result<T, Error<IdentityError>>;

// The identity text of key.
[[nodiscard]] std::string identityText(const crypto::PublicKey& key);

// The key of an identity text. Spaces and line breaks around it are allowed,
// and so is the whole text in upper case (as a QR code's alphanumeric mode
// carries it).
[[nodiscard]] IdentityResult<crypto::PublicKey> parseIdentityText(std::string_view text);

// The fingerprint words of key.
[[nodiscard]] std::array<std::string_view, fingerprintWords>
identityFingerprint(const crypto::PublicKey& key);
// The same words as one line, one space between them.
[[nodiscard]] std::string identityFingerprintText(const crypto::PublicKey& key);

} // namespace watchword::share
