#include "encoding/Base32.h"

#include <cstdint>
#include <cstdio>
#include <string>

namespace watchword::encoding {

namespace {

constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

// The 5-bit value of a Base32 symbol of either case, or -1.
int symbolValue(char c) noexcept
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a';
    if (c >= '2' && c <= '7')
        return c - '2' + 26;
    return -1;
}

bool isSeparator(char c) noexcept
{
    return c == ' ' || c == '-';
}

// "'x'" for printable ASCII, "byte 0xNN" otherwise, so a message never
// carries raw control bytes or half a UTF-8 sequence.
std::string describe(char c)
{
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x21 && byte <= 0x7e)
        return std::string("'") + c + "'";
    char text[16];
    std::snprintf(text, sizeof text, "byte 0x%02X", byte);
    return text;
}

std::string position(std::size_t index)
{
    return "position " + std::to_string(index + 1);
}

} // namespace

SecureBuffer toBase32(ByteView bytes, Base32Padding padding)
{
    SecureBuffer out(base32Length(bytes.size(), padding));
    std::size_t written = 0;
    std::uint32_t buffer = 0; // at most 12 pending bits
    int bits = 0;
    for (const std::uint8_t byte : bytes) {
        buffer = (buffer << 8) | byte;
        bits += 8;
        while (bits >= 5) {
            bits -= 5;
            out[written++] = static_cast<std::uint8_t>(alphabet[(buffer >> bits) & 0x1f]);
        }
        buffer &= (1u << bits) - 1;
    }
    if (bits > 0)
        out[written++] = static_cast<std::uint8_t>(alphabet[(buffer << (5 - bits)) & 0x1f]);
    while (written < out.size())
        out[written++] = '=';
    secureWipe(&buffer, sizeof buffer);
    return out;
}

Result<SecureBuffer, Error<Base32Error>> fromBase32(std::string_view text, Base32Tail tail)
{
    // Each symbol carries 5 bits, so the output is at most 5/8 of the input
    // (and one more byte for ZeroFill).
    SecureBuffer out(text.size() * 5 / 8 + 1);
    std::size_t written = 0;
    std::size_t symbols = 0;
    std::size_t paddingCount = 0;
    std::size_t firstPadding = 0;
    std::uint32_t buffer = 0; // at most 12 pending bits
    int bits = 0;

    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (isSeparator(c))
            continue;
        if (c == '=') {
            // Padding only ever completes a partial group of 8 symbols.
            if (paddingCount == 0 && symbols % 8 == 0)
                return fail(Base32Error::MisplacedPadding,
                            "Base32 padding '=' at " + position(i) +
                                " does not follow a partial group of 8 symbols");
            if (paddingCount == 0)
                firstPadding = i;
            ++paddingCount;
            continue;
        }
        const int value = symbolValue(c);
        if (value < 0)
            return fail(Base32Error::InvalidCharacter,
                        "invalid Base32 character " + describe(c) + " at " + position(i));
        if (paddingCount != 0)
            return fail(Base32Error::MisplacedPadding, "Base32 symbol at " + position(i) +
                                                           " after the padding that starts at " +
                                                           position(firstPadding));
        ++symbols;
        buffer = (buffer << 5) | static_cast<std::uint32_t>(value);
        bits += 5;
        if (bits >= 8) {
            bits -= 8;
            out[written++] = static_cast<std::uint8_t>(buffer >> bits);
            buffer &= (1u << bits) - 1;
        }
    }
    // RFC 4648 section 6: a final group holds 2, 4, 5 or 7 symbols (1 to 4
    // bytes); 1, 3 or 6 symbols cannot come from any byte string.
    const std::size_t leftover = symbols % 8;
    const bool impossible = leftover == 1 || leftover == 3 || leftover == 6;
    if (impossible && tail == Base32Tail::ZeroFill)
        out[written++] = static_cast<std::uint8_t>(buffer << (8 - bits));
    secureWipe(&buffer, sizeof buffer);
    if (impossible && tail == Base32Tail::DropSymbols)
        written -= leftover * 5 / 8; // the bytes those symbols made
    if (impossible && tail == Base32Tail::Refuse)
        return fail(Base32Error::ImpossibleLength,
                    "Base32 text ends with " + std::to_string(leftover) +
                        " symbol(s) in its last group of 8 (" + std::to_string(symbols) +
                        " in all); a last group has 2, 4, 5, 7 or 8");
    if (paddingCount != 0 && leftover + paddingCount != 8)
        return fail(Base32Error::WrongPaddingLength,
                    "Base32 padding at " + position(firstPadding) + " has " +
                        std::to_string(paddingCount) + " '=', expected " +
                        std::to_string(8 - leftover) + " (or none)");
    out.truncate(written);
    return out;
}

} // namespace watchword::encoding
