// A list of otpauth:// URIs, one per line: what Aegis, andOTP and others
// write as a "plain text" export and what people paste from QR decoders.
#include "interop/importers/Common.h"
#include "interop/importers/Formats.h"

namespace watchword::importers::detail {

ImportResult<Imported> importUriLines(std::string_view format, Format source, ByteView data)
{
    auto text = utf8Text(data, format);
    if (!text)
        return text.failure();
    Imported imported;
    imported.format = source;
    // Blank lines and the spaces around a URI come from pasting; no app
    // writes comments into these lists, so '#' is not special (a line
    // starting with it fails like any other line that is not a URI).
    TextLines lines(*text);
    std::size_t entries = 0;
    while (const auto line = lines.next()) {
        const std::size_t lineNumber = lines.lineNumber();
        const std::size_t index = entries++;
        if (auto counted = checkCount(format, entries); !counted)
            return counted.failure();
        auto account = accountFromUri(format, index, *line);
        if (!account)
            account = account.failure(account.error().code, {},
                                      " (line " + std::to_string(lineNumber) + ")");
        if (auto kept = keep(imported, index, std::move(account)); !kept)
            return kept.failure();
    }
    if (entries == 0)
        return fail(ImportError::Malformed,
                    std::string(format) + ": no otpauth:// URI in the text");
    return imported;
}

ImportResult<Imported> importOtpauthList(ByteView data)
{
    return importUriLines("otpauth", Format::OtpauthList, data);
}

} // namespace watchword::importers::detail
