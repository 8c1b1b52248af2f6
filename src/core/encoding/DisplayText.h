// Text from files, links and the command line shown to a person: on a
// terminal, where control characters are commands (a newline forges a line,
// ESC starts a terminal sequence), and as labels, where bidirectional
// overrides and invisible characters make one name look like another.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace watchword::encoding {

// C0 controls (U+0000..U+001F), DEL and the C1 controls (U+0080..U+009F).
[[nodiscard]] bool isControlCharacter(char32_t codePoint) noexcept;

// Characters that change how the text around them is shown while showing
// nothing themselves:
//   bidirectional controls  U+061C, U+200E, U+200F, U+202A..U+202E,
//                           U+2066..U+2069 (an override reverses a name)
//   invisible characters    U+00AD soft hyphen, U+180E, U+200B zero width
//                           space, U+2060..U+2064, U+FEFF
//   line and paragraph separators U+2028, U+2029
// Zero width (non-)joiners U+200C and U+200D are not among them: emoji
// sequences and several scripts (Persian, the Indic ones) need them.
[[nodiscard]] bool isInvisibleFormatting(char32_t codePoint) noexcept;

enum class LineBreaks {
    Escape, // one line: a newline shows as \n
    Keep,   // several lines of our own composing: '\n' passes
};

// text made safe to write to a terminal: every control character, invisible
// formatting character (above) and byte that is not well-formed UTF-8 is
// written as an escape (\n, \r, \t, \e, \xHH for a byte, \uHHHH for a
// character); everything else passes unchanged.
[[nodiscard]] std::string escapeForTerminal(std::string_view text,
                                            LineBreaks lineBreaks = LineBreaks::Escape);

// JSON text (well-formed UTF-8, its control characters already escaped, as
// a JSON writer leaves them) with DEL, the C1 controls and the invisible
// formatting characters, which writers pass raw, written as \uHHHH escapes:
// the same text to a JSON reader, nothing hidden to a person or a terminal.
[[nodiscard]] std::string escapeInvisibleInJson(std::string_view json);

// A one-line label (an issuer, an account name, a note title, a tag) as the
// vault keeps it: control characters (a tab, a line break, ESC) become a
// space and invisible formatting characters are removed, so that what the
// label shows is all it holds. Bytes that are not UTF-8 are left as they are
// (the vault refuses them). Idempotent.
[[nodiscard]] std::string neutralisedLabel(std::string_view text);

// "1 account", "3 accounts": count and the noun that fits it.
[[nodiscard]] std::string countText(std::size_t count, std::string_view one, std::string_view many);

} // namespace watchword::encoding
