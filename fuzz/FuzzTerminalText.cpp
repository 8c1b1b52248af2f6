// Fuzz target: text shown to a person (encoding/DisplayText.h): what the CLI
// prints of labels, paths and files' text, and the labels the vault keeps.
//
// Properties besides not crashing:
//  1. escapeForTerminal's output is well-formed UTF-8 without a single
//     control character or invisible formatting character (with LineBreaks::
//     Keep: '\n' is the one control character left, and only where the
//     input had one).
//  2. neutralisedLabel of well-formed UTF-8 is well-formed UTF-8 without
//     control or invisible formatting characters, no longer than the input,
//     and neutralising it again changes nothing.
#include "FuzzCheck.h"
#include "encoding/DisplayText.h"
#include "encoding/Utf8.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

using namespace watchword::encoding;
using watchword::fuzz::expect;

// Every character of text is well-formed and shown; '\n' passes only if
// allowed. Returns the number of '\n'.
std::size_t checkShown(std::string_view text, bool newlinesAllowed)
{
    std::size_t newlines = 0;
    for (std::size_t i = 0; i < text.size();) {
        const auto character = decodeUtf8At(text, i);
        expect(character.has_value(), "the output is not well-formed UTF-8");
        const char32_t c = character->codePoint;
        if (c == '\n' && newlinesAllowed)
            ++newlines;
        else
            expect(!isControlCharacter(c), "a control character got through");
        expect(!isInvisibleFormatting(c), "an invisible formatting character got through");
        i += character->length;
    }
    return newlines;
}

bool isWellFormed(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        const auto character = decodeUtf8At(text, i);
        if (!character)
            return false;
        i += character->length;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    checkShown(escapeForTerminal(text), false);
    const std::size_t kept = checkShown(escapeForTerminal(text, LineBreaks::Keep), true);
    expect(kept == static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')),
           "LineBreaks::Keep kept a different number of line breaks than the input has");

    if (isWellFormed(text)) {
        const std::string label = neutralisedLabel(text);
        checkShown(label, false);
        expect(label.size() <= text.size(), "a neutralised label grew");
        expect(neutralisedLabel(label) == label, "neutralising twice changed the label");
    }
    return 0;
}
