#include "encoding/DisplayText.h"

#include "encoding/Utf8.h"

namespace watchword::encoding {

bool isControlCharacter(char32_t codePoint) noexcept
{
    return codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f);
}

bool isInvisibleFormatting(char32_t codePoint) noexcept
{
    switch (codePoint) {
    case 0x00ad:
    case 0x061c:
    case 0x180e:
    case 0x200b:
    case 0x200e:
    case 0x200f:
    case 0x2028:
    case 0x2029:
    case 0xfeff:
        return true;
    default:
        return (codePoint >= 0x202a && codePoint <= 0x202e) ||
               (codePoint >= 0x2060 && codePoint <= 0x2064) ||
               (codePoint >= 0x2066 && codePoint <= 0x2069);
    }
}

namespace {

// A backslash, then x and two hex digits, or u and four.
void appendEscape(std::string& out, char kind, unsigned value)
{
    constexpr char digits[] = "0123456789abcdef";
    out.push_back('\\');
    out.push_back(kind);
    for (int shift = kind == 'x' ? 4 : 12; shift >= 0; shift -= 4)
        out.push_back(digits[(value >> shift) & 0xf]);
}

} // namespace

std::string escapeForTerminal(std::string_view text, LineBreaks lineBreaks)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto character = decodeUtf8At(text, i);
        if (!character) {
            appendEscape(out, 'x', static_cast<unsigned char>(text[i]));
            ++i;
            continue;
        }
        const char32_t c = character->codePoint;
        if (c == '\n' && lineBreaks == LineBreaks::Keep)
            out.push_back('\n');
        else if (c == '\n')
            out.append("\\n");
        else if (c == '\r')
            out.append("\\r");
        else if (c == '\t')
            out.append("\\t");
        else if (c == 0x1b)
            out.append("\\e");
        else if (c < 0x80 && isControlCharacter(c))
            appendEscape(out, 'x', static_cast<unsigned>(c));
        else if (isControlCharacter(c) || isInvisibleFormatting(c))
            appendEscape(out, 'u', static_cast<unsigned>(c));
        else
            out.append(text.substr(i, character->length));
        i += character->length;
    }
    return out;
}

std::string escapeInvisibleInJson(std::string_view json)
{
    std::string out;
    out.reserve(json.size());
    for (std::size_t i = 0; i < json.size();) {
        const auto character = decodeUtf8At(json, i);
        const std::size_t length = character ? character->length : 1;
        if (character && (isControlCharacter(character->codePoint) ||
                          isInvisibleFormatting(character->codePoint)))
            appendEscape(out, 'u', static_cast<unsigned>(character->codePoint));
        else
            out.append(json.substr(i, length));
        i += length;
    }
    return out;
}

std::string neutralisedLabel(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto character = decodeUtf8At(text, i);
        if (!character) {
            out.push_back(text[i]);
            ++i;
            continue;
        }
        if (isControlCharacter(character->codePoint))
            out.push_back(' ');
        else if (!isInvisibleFormatting(character->codePoint))
            out.append(text.substr(i, character->length));
        i += character->length;
    }
    return out;
}

std::string countText(std::size_t count, std::string_view one, std::string_view many)
{
    return std::to_string(count) + " " + std::string(count == 1 ? one : many);
}

} // namespace watchword::encoding
