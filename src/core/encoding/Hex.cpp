#include "encoding/Hex.h"

namespace watchword::encoding {

int hexDigitValue(char c) noexcept
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

std::string toHex(ByteView bytes)
{
    static constexpr char digits[] = "0123456789abcdef";
    std::string out(bytes.size() * 2, '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 0x0f];
    }
    return out;
}

Result<Bytes, Error<HexError>> fromHex(std::string_view text)
{
    if (text.size() % 2 != 0)
        return fail(HexError::OddLength,
                    "hex text has an odd number of digits (" + std::to_string(text.size()) + ")");
    Bytes out(text.size() / 2);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const int high = hexDigitValue(text[2 * i]);
        const int low = hexDigitValue(text[2 * i + 1]);
        if (high < 0 || low < 0) {
            const std::size_t at = high < 0 ? 2 * i : 2 * i + 1;
            return fail(HexError::InvalidCharacter,
                        "invalid hex digit at position " + std::to_string(at + 1));
        }
        out[i] = static_cast<std::uint8_t>((high << 4) | low);
    }
    return out;
}

} // namespace watchword::encoding
