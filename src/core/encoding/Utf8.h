// UTF-8 read one character at a time, strictly (RFC 3629): no overlong
// forms, no surrogates, nothing past U+10FFFF.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
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

// True if the whole of text is well-formed UTF-8 (NUL is a character here;
// callers that refuse it say so). The one validator: vault records, imports
// and reports all ask this.
[[nodiscard]] bool isUtf8(std::string_view text) noexcept;

// text with each byte that does not start a well-formed character replaced by
// U+FFFD, so that JSON and HTML stay valid whatever the text held.
[[nodiscard]] std::string withValidUtf8(std::string_view text);

} // namespace watchword::encoding
