// UTF-8 read one character at a time, strictly (RFC 3629): no overlong
// forms, no surrogates, nothing past U+10FFFF.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace watchword::encoding {

struct Utf8Character
{
    char32_t codePoint = 0;
    std::size_t length = 0; // bytes, 1..4
};

// The character that starts at byte offset of text, or nullopt if the bytes
// there are not well-formed UTF-8 (offset < text.size()).
[[nodiscard]] std::optional<Utf8Character> decodeUtf8At(std::string_view text,
                                                        std::size_t offset) noexcept;

} // namespace watchword::encoding
