// A list of otpauth:// URIs, one per line: what Aegis, andOTP and others
// write as a "plain text" export and what people paste from QR decoders.
#include "importers/Common.h"
#include "importers/Formats.h"

namespace watchword::importers::detail {

namespace {
constexpr std::string_view format = "otpauth";
} // namespace

ImportResult<Imported> importOtpauthList(ByteView data)
{
    auto text = utf8Text(data, format);
    if (!text)
        return Failure<Error<ImportError>>{text.error()};
    Imported imported;
    imported.format = Format::OtpauthList;
    // Blank lines and the spaces around a URI come from pasting; no app
    // writes comments into these lists, so '#' is not special (a line
    // starting with it fails like any other line that is not a URI).
    TextLines lines(*text);
    while (const auto line = lines.next()) {
        const std::size_t lineNumber = lines.lineNumber();
        if (auto counted = checkCount(format, imported.accounts.size() + 1); !counted)
            return Failure<Error<ImportError>>{counted.error()};
        auto account = accountFromUri(format, imported.accounts.size(), *line);
        if (!account) {
            const auto& error = account.error();
            return fail(error.code, error.message + " (line " + std::to_string(lineNumber) + ")");
        }
        imported.accounts.push_back(std::move(account).value());
    }
    if (imported.accounts.empty())
        return fail(ImportError::Malformed,
                    std::string(format) + ": no otpauth:// URI in the text");
    return imported;
}

} // namespace watchword::importers::detail
