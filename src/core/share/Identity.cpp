#include "share/Identity.h"

#include "crypto/Hash.h"
#include "encoding/Bech32.h"
#include "keychain/Wordlist.h"

#include <algorithm>

namespace watchword::share {

namespace {

constexpr std::string_view spaces = " \t\r\n";

std::string_view trimmed(std::string_view text)
{
    const auto first = text.find_first_not_of(spaces);
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(spaces);
    return text.substr(first, last - first + 1);
}

bool startsWithIgnoringCase(std::string_view text, std::string_view prefix)
{
    return text.size() >= prefix.size() &&
           std::equal(prefix.begin(), prefix.end(), text.begin(), [](char a, char b) {
               const auto lower = [](char c) {
                   return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
               };
               return lower(a) == lower(b);
           });
}

} // namespace

std::string identityText(const crypto::PublicKey& key)
{
    const auto compressed = key.compressed();
    return std::string(identityTextPrefix) +
           encoding::toBech32m(identityHumanReadablePart, compressed);
}

IdentityResult<crypto::PublicKey> parseIdentityText(std::string_view text)
{
    text = trimmed(text);
    if (!startsWithIgnoringCase(text, identityTextPrefix))
        return fail(IdentityError::NotAnIdentity,
                    "not a Watchword identity: it begins with \"watchword-id:\"");
    auto decoded = encoding::fromBech32m(text.substr(identityTextPrefix.size()));
    if (!decoded)
        return fail(IdentityError::Damaged,
                    "the identity text is damaged: " + decoded.error().message);
    if (decoded->humanReadablePart != identityHumanReadablePart ||
        decoded->data.size() != crypto::PublicKey::compressedSize)
        return fail(IdentityError::WrongKind, "the text is not an identity: it holds " +
                                                  std::to_string(decoded->data.size()) +
                                                  " bytes under \"" + decoded->humanReadablePart +
                                                  "\", not a 33-byte key under \"ww\"");
    auto key = crypto::PublicKey::fromSec1(decoded->data);
    if (!key)
        return fail(IdentityError::NotAKey,
                    "the identity holds 33 bytes that are not a secp256k1 public key");
    return std::move(key).value();
}

std::array<std::string_view, fingerprintWords> identityFingerprint(const crypto::PublicKey& key)
{
    const auto compressed = key.compressed();
    Bytes input(fingerprintLabel.begin(), fingerprintLabel.end());
    input.insert(input.end(), compressed.begin(), compressed.end());
    const auto digest = crypto::sha256(input);
    const auto words = keychain::englishWordlist();
    std::array<std::string_view, fingerprintWords> out;
    for (std::size_t i = 0; i < fingerprintWords; ++i) {
        // Bits 11i .. 11i + 10 of the digest, big-endian.
        const std::size_t bit = 11 * i;
        const std::uint32_t window = (std::uint32_t{digest[bit / 8]} << 16) |
                                     (std::uint32_t{digest[bit / 8 + 1]} << 8) |
                                     digest[bit / 8 + 2];
        out[i] = words[(window >> (24 - 11 - bit % 8)) & 0x7ff];
    }
    return out;
}

std::string identityFingerprintText(const crypto::PublicKey& key)
{
    std::string text;
    for (const auto word : identityFingerprint(key)) {
        if (!text.empty())
            text += ' ';
        text += word;
    }
    return text;
}

} // namespace watchword::share
