#include "encoding/Utf8.h"

#include <cstdint>
#include <cstring>

namespace watchword::encoding {

std::optional<Utf8Character> decodeUtf8At(std::string_view text, std::size_t offset) noexcept
{
    const auto byteAt = [&](std::size_t i) {
        return static_cast<unsigned char>(text[i]);
    };
    const unsigned char lead = byteAt(offset);
    if (lead < 0x80)
        return Utf8Character{lead, 1};
    std::size_t length = 0;
    char32_t codePoint = 0;
    char32_t minimum = 0;
    if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2;
        codePoint = lead & 0x1f;
        minimum = 0x80;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        codePoint = lead & 0x0f;
        minimum = 0x800;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        codePoint = lead & 0x07;
        minimum = 0x10000;
    } else {
        return std::nullopt;
    }
    if (text.size() - offset < length)
        return std::nullopt;
    for (std::size_t k = 1; k < length; ++k) {
        const unsigned char next = byteAt(offset + k);
        if ((next & 0xc0) != 0x80)
            return std::nullopt;
        codePoint = (codePoint << 6) | (next & 0x3f);
    }
    if (codePoint < minimum || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff))
        return std::nullopt;
    return Utf8Character{codePoint, length};
}

bool isUtf8(std::string_view text) noexcept
{
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        // Eight ASCII bytes at a time (no high bit set), which is most of the
        // text a vault holds.
        while (n - i >= 8) {
            std::uint64_t word;
            std::memcpy(&word, text.data() + i, sizeof word);
            if ((word & 0x8080808080808080) != 0)
                break;
            i += 8;
        }
        if (i == n)
            break;
        if (static_cast<unsigned char>(text[i]) < 0x80) {
            ++i;
            continue;
        }
        const auto character = decodeUtf8At(text, i);
        if (!character)
            return false;
        i += character->length;
    }
    return true;
}

std::string withValidUtf8(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        if (const auto character = decodeUtf8At(text, i)) {
            out.append(text.substr(i, character->length));
            i += character->length;
        } else {
            out += "\xef\xbf\xbd";
            ++i;
        }
    }
    return out;
}

} // namespace watchword::encoding
