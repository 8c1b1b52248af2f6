#include "encoding/Bech32.h"

#include <array>
#include <cassert>
#include <cstdint>
#include <vector>

namespace watchword::encoding {

namespace {

constexpr std::string_view alphabet = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
constexpr std::uint32_t bech32mConstant = 0x2bc830a3;
constexpr std::size_t checksumLength = 6;
constexpr std::size_t maximumLength = 90;

// BIP-173's BCH code over GF(32): the generator's coefficients.
std::uint32_t polymod(const std::vector<std::uint8_t>& values)
{
    constexpr std::array<std::uint32_t, 5> generator = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa,
                                                        0x3d4233dd, 0x2a1462b3};
    std::uint32_t check = 1;
    for (const std::uint8_t value : values) {
        const std::uint32_t top = check >> 25;
        check = ((check & 0x1ffffff) << 5) ^ value;
        for (std::size_t i = 0; i < generator.size(); ++i)
            if ((top >> i) & 1)
                check ^= generator[i];
    }
    return check;
}

// The human-readable part as the checksum sees it: high bits, 0, low bits.
std::vector<std::uint8_t> expandedPart(std::string_view hrp)
{
    std::vector<std::uint8_t> out;
    out.reserve(hrp.size() * 2 + 1);
    for (const char c : hrp)
        out.push_back(static_cast<std::uint8_t>(static_cast<unsigned char>(c) >> 5));
    out.push_back(0);
    for (const char c : hrp)
        out.push_back(static_cast<std::uint8_t>(static_cast<unsigned char>(c) & 31));
    return out;
}

char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

Failure<Error<Bech32Error>> refuse(Bech32Error code, std::string message)
{
    return fail(code, "Bech32m: " + std::move(message));
}

} // namespace

std::string toBech32m(std::string_view hrp, ByteView data)
{
    std::vector<std::uint8_t> groups;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (const std::uint8_t byte : data) {
        buffer = (buffer << 8) | byte;
        bits += 8;
        while (bits >= 5) {
            bits -= 5;
            groups.push_back(static_cast<std::uint8_t>((buffer >> bits) & 31));
        }
    }
    if (bits > 0)
        groups.push_back(static_cast<std::uint8_t>((buffer << (5 - bits)) & 31));

    auto values = expandedPart(hrp);
    values.insert(values.end(), groups.begin(), groups.end());
    values.insert(values.end(), checksumLength, 0);
    const std::uint32_t check = polymod(values) ^ bech32mConstant;
    std::string out(hrp);
    out.push_back('1');
    for (const std::uint8_t group : groups)
        out.push_back(alphabet[group]);
    for (std::size_t i = 0; i < checksumLength; ++i)
        out.push_back(alphabet[(check >> (5 * (checksumLength - 1 - i))) & 31]);
    assert(out.size() <= maximumLength);
    return out;
}

Result<Bech32Groups, Error<Bech32Error>> bech32mGroups(std::string_view text)
{
    if (text.size() > maximumLength)
        return refuse(Bech32Error::TooLong,
                      std::to_string(text.size()) + " characters, more than the 90 allowed");
    bool hasLower = false;
    bool hasUpper = false;
    for (const char c : text) {
        const auto code = static_cast<unsigned char>(c);
        if (code < 33 || code > 126)
            return refuse(Bech32Error::BadCharacter, "a character outside printable ASCII");
        hasLower = hasLower || (c >= 'a' && c <= 'z');
        hasUpper = hasUpper || (c >= 'A' && c <= 'Z');
    }
    if (hasLower && hasUpper)
        return refuse(Bech32Error::MixedCase, "upper and lower case letters mixed");
    const auto separator = text.rfind('1');
    if (separator == std::string_view::npos || separator == 0)
        return refuse(Bech32Error::NoSeparator, "no human-readable part before a '1'");
    if (text.size() - separator - 1 < checksumLength)
        return refuse(Bech32Error::TooShort, "fewer than six letters after the '1'");

    Bech32Groups decoded;
    for (std::size_t i = 0; i < separator; ++i)
        decoded.humanReadablePart.push_back(lower(text[i]));
    std::vector<std::uint8_t> groups;
    for (std::size_t i = separator + 1; i < text.size(); ++i) {
        const auto at = alphabet.find(lower(text[i]));
        if (at == std::string_view::npos) {
            std::string message = "position ";
            message += std::to_string(i + 1);
            message += " is not a Bech32 letter";
            return refuse(Bech32Error::BadCharacter, std::move(message));
        }
        groups.push_back(static_cast<std::uint8_t>(at));
    }
    auto values = expandedPart(decoded.humanReadablePart);
    values.insert(values.end(), groups.begin(), groups.end());
    if (polymod(values) != bech32mConstant)
        return refuse(Bech32Error::BadChecksum,
                      "the checksum does not match (a letter is wrong or missing)");
    groups.resize(groups.size() - checksumLength);
    decoded.groups = std::move(groups);
    return decoded;
}

Result<Bech32Decoded, Error<Bech32Error>> fromBech32m(std::string_view text)
{
    auto checked = bech32mGroups(text);
    if (!checked)
        return checked.failure();
    Bech32Decoded decoded;
    decoded.humanReadablePart = std::move(checked->humanReadablePart);
    std::uint32_t buffer = 0;
    int bits = 0;
    for (const std::uint8_t group : checked->groups) {
        buffer = (buffer << 5) | group;
        bits += 5;
        if (bits >= 8) {
            bits -= 8;
            decoded.data.push_back(static_cast<std::uint8_t>((buffer >> bits) & 0xff));
        }
    }
    if (bits >= 5 || (buffer & ((1u << bits) - 1)) != 0)
        return refuse(Bech32Error::BadPadding, "the data does not end on a whole byte");
    return decoded;
}

} // namespace watchword::encoding
