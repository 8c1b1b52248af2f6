// Google Authenticator's own database (databases/databases in the app's
// data, readable on a rooted phone): SQLite, table accounts with "email"
// (the account's label, "<issuer>:<name>" when it came from a Key Uri with
// an issuer), "secret" (Base32), "counter", "type" (0 TOTP, 1 HOTP) and,
// in newer versions, "issuer" and "original_name". The app stores no
// algorithm, digits or period: every account is SHA-1, 6 digits, 30 s.
#include "interop/importers/Common.h"
#include "interop/importers/Formats.h"
#include "interop/importers/SqliteDatabase.h"

namespace watchword::importers::detail {

namespace {

constexpr std::string_view formatLabel = "google-authenticator-db";

enum Type : std::int64_t { Totp = 0, Hotp = 1 };

std::string trim(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return {};
    return std::string(text.substr(first, text.find_last_not_of(" \t") - first + 1));
}

// The issuer and the account name out of the "email" label: a prefix that
// repeats the issuer is dropped; with no issuer column, a label
// "<issuer>:<name>" gives both, as a Key Uri label does.
void splitLabel(const std::string& label, EntryFields& fields)
{
    const auto colon = label.find(':');
    if (!fields.issuer.empty()) {
        if (label.starts_with(fields.issuer + ":"))
            fields.accountName = trim(std::string_view(label).substr(fields.issuer.size() + 1));
        else
            fields.accountName = label;
        return;
    }
    if (colon != std::string::npos && colon > 0) {
        fields.issuer = trim(std::string_view(label).substr(0, colon));
        fields.accountName = trim(std::string_view(label).substr(colon + 1));
        return;
    }
    fields.accountName = label;
}

} // namespace

ImportResult<Imported> importGoogleAuthenticatorDb(ByteView data)
{
    auto database = SqliteDatabase::open(formatLabel, data);
    if (!database)
        return database.failure();
    auto rows = database->readTable("accounts", {"email", "secret"}, "Google Authenticator");
    if (!rows)
        return rows.failure();

    Imported imported;
    imported.format = Format::GoogleAuthenticatorDb;
    auto read = rows->forEachAccount([&](std::size_t i) -> ImportResult<void> {
        EntryFields fields;
        fields.issuer = trim(rows->value("issuer").text);
        splitLabel(rows->value("email").text, fields);
        const std::string named = entryLabel(formatLabel, i, fields.issuer, fields.accountName);
        const auto invalid = [&](const std::string& what) {
            return fail(ImportError::InvalidEntry, named + ": " + what);
        };

        const SqliteValue type = rows->value("type");
        if (type.type != SqliteValue::Type::Null && type.type != SqliteValue::Type::Integer)
            return invalid("\"type\" is not an integer");
        if (type.type == SqliteValue::Type::Null || type.integer == Totp) {
            fields.parameters.kind = otp::OtpKind::Totp;
        } else if (type.integer == Hotp) {
            fields.parameters.kind = otp::OtpKind::Hotp;
            const SqliteValue counter = rows->value("counter");
            if (counter.type == SqliteValue::Type::Integer && counter.integer >= 0)
                fields.parameters.counter = static_cast<std::uint64_t>(counter.integer);
            else if (counter.type != SqliteValue::Type::Null)
                return invalid("invalid counter");
        } else {
            return invalid("unknown type " + std::to_string(type.integer));
        }

        const SqliteValue secretText = rows->value("secret");
        if (secretText.type != SqliteValue::Type::Text || secretText.text.empty())
            return invalid("no secret");
        auto secret = secretFromBase32(named, secretText.text);
        if (!secret)
            return secret.failure();
        fields.secret = std::move(secret).value();

        auto account = makeAccount(formatLabel, i, std::move(fields));
        if (!account)
            return account.failure();
        imported.accounts.push_back(std::move(account).value());
        return {};
    });
    if (!read)
        return read.failure();
    return imported;
}

} // namespace watchword::importers::detail
