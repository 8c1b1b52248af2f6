#include "encoding/Base64.h"

#include <cstdint>

namespace watchword::encoding {

namespace {

constexpr char standardAlphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

template <typename Sink> void writeBase64(ByteView bytes, Sink&& put)
{
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const std::uint32_t group =
            (std::uint32_t{bytes[i]} << 16) | (std::uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
        put(standardAlphabet[(group >> 18) & 63]);
        put(standardAlphabet[(group >> 12) & 63]);
        put(standardAlphabet[(group >> 6) & 63]);
        put(standardAlphabet[group & 63]);
    }
    const std::size_t rest = bytes.size() - i;
    if (rest == 0)
        return;
    std::uint32_t group = std::uint32_t{bytes[i]} << 16;
    if (rest == 2)
        group |= std::uint32_t{bytes[i + 1]} << 8;
    put(standardAlphabet[(group >> 18) & 63]);
    put(standardAlphabet[(group >> 12) & 63]);
    put(rest == 2 ? standardAlphabet[(group >> 6) & 63] : '=');
    put('=');
}

int base64Value(char c, Base64Alphabet alphabet) noexcept
{
    const bool urlSafe = alphabet == Base64Alphabet::UrlSafe;
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == (urlSafe ? '-' : '+'))
        return 62;
    if (c == (urlSafe ? '_' : '/'))
        return 63;
    return -1;
}

} // namespace

std::string toBase64(ByteView bytes)
{
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    writeBase64(bytes, [&](char c) { out.push_back(c); });
    return out;
}

SecureBuffer toBase64Secure(ByteView bytes)
{
    SecureBuffer out((bytes.size() + 2) / 3 * 4);
    std::size_t at = 0;
    writeBase64(bytes, [&](char c) { out[at++] = static_cast<std::uint8_t>(c); });
    return out;
}

std::optional<Bytes> fromBase64(std::string_view text, Base64Alphabet alphabet)
{
    if (text.size() % 4 != 0)
        return std::nullopt;
    std::size_t padding = 0;
    if (!text.empty() && text.back() == '=')
        padding = (text.size() >= 2 && text[text.size() - 2] == '=') ? 2 : 1;
    Bytes out;
    out.reserve(text.size() / 4 * 3);
    const std::size_t body = text.size() - padding;
    std::uint32_t accumulator = 0;
    int bits = 0;
    for (std::size_t i = 0; i < body; ++i) {
        const int value = base64Value(text[i], alphabet);
        if (value < 0)
            return std::nullopt;
        accumulator = (accumulator << 6) | static_cast<std::uint32_t>(value);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<std::uint8_t>(accumulator >> bits));
            accumulator &= (1u << bits) - 1;
        }
    }
    // The bits left over must be zero, so that one byte string has one text.
    if (accumulator != 0)
        return std::nullopt;
    return out;
}

} // namespace watchword::encoding
