// FreeOTP+: its JSON export {"tokenOrder": [...], "tokens": [...]}, or the
// SharedPreferences XML the app keeps its tokens in (the same file FreeOTP
// 1.x keeps). Each token is FreeOTP's token JSON (importers/FreeOtpToken.h).
#include "interop/importers/Formats.h"
#include "interop/importers/FreeOtpToken.h"
#include "interop/importers/JsonFields.h"

namespace watchword::importers::detail {

namespace {

constexpr std::string_view formatLabel = "freeotp-plus";

ImportResult<Imported> importJson(std::string_view text)
{
    const std::string name(formatLabel);
    auto parsed = parseJson(formatLabel, text, "the file");
    if (!parsed)
        return parsed.failure();
    const Json root = std::move(parsed).value();
    if (!root.is_object())
        return fail(ImportError::Malformed, name + ": not a JSON object");
    const auto tokens = root.find("tokens");
    if (tokens == root.end() || !tokens->is_array())
        return fail(ImportError::Malformed, name + ": \"tokens\" is missing or not an array");
    if (auto counted = checkCount(formatLabel, tokens->size()); !counted)
        return counted.failure();

    // The export writes tokens in the app's order already; "tokenOrder" is
    // checked for shape only.
    if (const auto order = root.find("tokenOrder"); order != root.end() && !order->is_array())
        return fail(ImportError::Malformed, name + ": \"tokenOrder\" is not an array");

    Imported imported;
    imported.format = Format::FreeOtpPlus;
    for (std::size_t i = 0; i < tokens->size(); ++i) {
        if (auto kept = keep(
                imported, i,
                freeOtpTokenAccount(formatLabel, i, (*tokens)[i], std::nullopt, imported.warnings));
            !kept)
            return kept.failure();
    }
    return imported;
}

} // namespace

ImportResult<Imported> importFreeOtpPlus(ByteView data)
{
    if (auto sized = checkSize(formatLabel, data); !sized)
        return sized.failure();
    const auto text = utf8Text(data, formatLabel);
    if (!text)
        return text.failure();
    if (looksLikeSharedPreferences(*text)) {
        const auto pairs = readSharedPreferences(formatLabel, *text);
        if (!pairs)
            return pairs.failure();
        return importFreeOtpPreferences(Format::FreeOtpPlus, formatLabel, *pairs);
    }
    return importJson(*text);
}

} // namespace watchword::importers::detail
