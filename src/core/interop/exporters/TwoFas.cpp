// 2FAS Authenticator's plain backup (.2fas) as 2FAS for Android 5.x writes
// it, schema 4: {"services": [...], "groups": [...], "updatedAt",
// "schemaVersion": 4, "appVersionCode", "appVersionName", "appOrigin":
// "android"}, each service {"name", "secret" (Base32), "updatedAt", "otp":
// {"label", "account", "issuer", "digits", "period", "algorithm",
// "tokenType" (TOTP, HOTP, STEAM), "source": "Manual", "counter" (HOTP)},
// "order": {"position"}, "groupId"}. The app version fields name the 2FAS
// release whose backups this follows (5.1.0), since 2FAS reads them. A
// service is in at most one group: an account's first tag becomes it, the
// others are dropped with a warning, as is a note (2FAS has no notes).
// importers/TwoFas.cpp reads it. Every secret is readable in the file.
#include "crypto/Hash.h"
#include "encoding/Base32.h"
#include "interop/exporters/ExportCommon.h"

#include <map>
#include <nlohmann/json.hpp>

namespace watchword::exporters::detail {

namespace {

using Json = nlohmann::ordered_json;

constexpr int schemaVersion = 4;
constexpr int appVersionCode = 5000009;
constexpr std::string_view appVersionName = "5.1.0";

const char* tokenType(otp::OtpKind kind)
{
    switch (kind) {
    case otp::OtpKind::Totp:
        return "TOTP";
    case otp::OtpKind::Hotp:
        return "HOTP";
    case otp::OtpKind::Steam:
        return "STEAM";
    }
    return "TOTP";
}

// Overwrites every "secret" string before the document is freed.
void wipeSecrets(Json& root)
{
    for (Json& service : root["services"]) {
        std::string& secret = service["secret"].get_ref<std::string&>();
        secureWipe(secret.data(), secret.size());
    }
}

} // namespace

ExportResult<Exported> exportTwoFas(std::span<const vault::OtpAccount> accounts, std::int64_t now,
                                    crypto::RandomSource& random)
{
    const std::int64_t nowMilliseconds = now * 1000;
    Exported exported;
    Json root = {{"services", Json::array()},
                 {"groups", Json::array()},
                 {"updatedAt", nowMilliseconds},
                 {"schemaVersion", schemaVersion},
                 {"appVersionCode", appVersionCode},
                 {"appVersionName", appVersionName},
                 {"appOrigin", "android"}};
    std::map<std::string, std::string> groupIds; // tag -> the group's UUID
    std::string firstLeftOut;
    for (std::size_t i = 0; i < accounts.size(); ++i) {
        const vault::OtpAccount& account = accounts[i];
        const auto& parameters = account.parameters;
        if (auto valid = otp::validate(parameters, account.secret.size()); !valid) {
            const std::string why =
                entryLabel(i, account) + ": no code can come from it: " + valid.error().message;
            exported.warnings.push_back(why + "; left out");
            if (firstLeftOut.empty())
                firstLeftOut = why;
            continue;
        }
        Json otp = {{"label", account.accountName},
                    {"account", account.accountName},
                    {"issuer", account.issuer},
                    {"digits", parameters.digits},
                    {"period", parameters.isTimeBased() ? parameters.period : otp::defaultPeriod},
                    {"algorithm", std::string(crypto::hashName(parameters.algorithm))},
                    {"tokenType", tokenType(parameters.kind)},
                    {"source", "Manual"}};
        if (parameters.kind == otp::OtpKind::Hotp)
            otp["counter"] = parameters.counter;
        const SecureBuffer secret =
            encoding::toBase32(account.secret.span(), encoding::Base32Padding::Omit);
        Json service = {{"name", account.issuer.empty() ? account.accountName : account.issuer},
                        {"secret", std::string(secret.view())},
                        {"updatedAt", nowMilliseconds},
                        {"otp", std::move(otp)},
                        {"order", {{"position", root["services"].size()}}}};
        if (!account.tags.empty()) {
            auto [group, added] = groupIds.try_emplace(account.tags.front());
            if (added) {
                group->second = randomUuid(random);
                root["groups"].push_back({{"id", group->second},
                                          {"name", account.tags.front()},
                                          {"isExpanded", true},
                                          {"updatedAt", nowMilliseconds}});
            }
            service["groupId"] = group->second;
        }
        root["services"].push_back(std::move(service));
        vault::OtpAccount dropped;
        dropped.issuer = account.issuer;
        dropped.accountName = account.accountName;
        dropped.note = account.note;
        if (account.tags.size() > 1)
            dropped.tags.assign(account.tags.begin() + 1, account.tags.end());
        if (auto warning = droppedFieldsWarning(
                i, dropped,
                "2FAS keeps one group a service and no note; the first tag is its group");
            !warning.empty())
            exported.warnings.push_back(std::move(warning));
    }
    if (root["services"].empty())
        return fail(ExportError::NotRepresentable,
                    "2fas: no account can be written (" + firstLeftOut +
                        (accounts.size() > 1 ? "; and the others" : "") + ")");
    std::string text = root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    wipeSecrets(root);
    exported.data = SecureBuffer(asBytes(text));
    secureWipe(text.data(), text.size());
    return exported;
}

} // namespace watchword::exporters::detail
