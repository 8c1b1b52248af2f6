// Ente Auth's plain export, as the app writes it and reads it back (its
// "Import codes" from a plain text file): each account's canonical
// otpauth:// URI, one a line, with Ente's codeDisplay parameter, the
// percent-encoded JSON {"pinned": false, "trashed": false, "lastUsedAt": 0,
// "tapCount": 0, "tags": [...], "note": "..."}, so the account's tags and
// note go along. A Steam account is otpauth://steam/ with 5 digits, which
// Ente reads as Steam. importers/Ente.cpp reads it (docs/FORMAT.md
// section 9). Every secret is readable in the file.
#include "interop/exporters/ExportCommon.h"

#include <nlohmann/json.hpp>

namespace watchword::exporters::detail {

namespace {

std::vector<otp::UriParameter> codeDisplay(const vault::OtpAccount& account)
{
    nlohmann::ordered_json display = {{"pinned", false},      {"trashed", false},
                                      {"lastUsedAt", 0},      {"tapCount", 0},
                                      {"tags", account.tags}, {"note", account.note}};
    return {
        {"codeDisplay", display.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)}};
}

} // namespace

ExportResult<Exported> exportEnte(std::span<const vault::OtpAccount> accounts)
{
    return exportUriLines(accounts, "ente", codeDisplay, {});
}

} // namespace watchword::exporters::detail
