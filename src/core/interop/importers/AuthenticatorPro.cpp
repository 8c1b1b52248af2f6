// Authenticator Pro (now Stratum): its backup, in three layouts, and the
// app's internal database.
//
// Plain backup: JSON {"Authenticators": [...], "Categories": [...],
// "AuthenticatorCategories": [...], "CustomIcons": [...]}. An authenticator
// has "Type" (1 HOTP, 2 TOTP, 3 mOTP, 4 Steam, 5 Yandex), "Issuer",
// "Username", "Secret" (Base32), "Pin", "Algorithm" (0 SHA-1, 1 SHA-256,
// 2 SHA-512), "Digits", "Period", "Counter"; a category has "Id" and "Name",
// and each AuthenticatorCategories row puts the authenticator whose secret
// is "AuthenticatorSecret" in the category "CategoryId". Categories become
// tags. mOTP and Yandex codes need a PIN and algorithms Watchword does not
// compute: such an entry fails the import (InvalidEntry, naming it).
//
// Encrypted backup: "AUTHENTICATORPRO" (16 bytes) | salt (16) | IV (12) |
// AES-256-GCM ciphertext || tag (16), no associated data, under
// Argon2id(password, salt; 3 passes, 64 MiB, 4 lanes) of 32 bytes. The
// costs are the app's constants; the file does not carry them.
//
// Legacy encrypted backup (before the app's 1.15): "AuthenticatorPro"
// (16 bytes) | salt (20) | IV (16) | AES-256-CBC ciphertext with PKCS#7
// padding, under PBKDF2-HMAC-SHA1(password, salt, 64,000 iterations) of 32
// bytes. Nothing authenticates it: a wrong password shows as bad padding or
// as plaintext that is not the backup's JSON, both answered WrongPassword.
//
// Internal database (SQLite): table authenticator (type, issuer, username,
// secret, algorithm, digits, period, counter, as in the backup), category
// (id, name) and authenticatorcategory (categoryId, authenticatorSecret).
#include "crypto/AesCbc.h"
#include "crypto/AesGcm.h"
#include "crypto/Kdf.h"
#include "interop/importers/Common.h"
#include "interop/importers/Formats.h"
#include "interop/importers/JsonFields.h"
#include "interop/importers/SqliteDatabase.h"

#include <cstdint>
#include <limits>
#include <map>

namespace watchword::importers::detail {

namespace {

constexpr std::string_view formatLabel = "authenticator-pro";

constexpr std::string_view currentMagic = "AUTHENTICATORPRO";
constexpr std::size_t currentSaltSize = 16;
constexpr std::size_t currentIvSize = 12;
constexpr Argon2Cost currentCost = {.iterations = 3, .memoryKiB = 64 * 1024, .parallelism = 4};

constexpr std::string_view legacyMagic = "AuthenticatorPro";
constexpr std::size_t legacySaltSize = 20;
constexpr std::uint32_t legacyIterations = 64'000;

constexpr std::size_t keySize = 32;

enum Type : std::int64_t { Hotp = 1, Totp = 2, MobileOtp = 3, Steam = 4, Yandex = 5 };

// One authenticator as either source stores it; an absent number is
// nullopt.
struct Stored
{
    std::optional<std::int64_t> type;
    std::string issuer;
    std::string username;
    std::string secret;
    std::optional<std::int64_t> algorithm;
    std::optional<std::int64_t> digits;
    std::optional<std::int64_t> period;
    std::optional<std::int64_t> counter;
};

std::string entryName(std::size_t index, const Stored& stored)
{
    return entryLabel(formatLabel, index, stored.issuer, stored.username);
}

ImportResult<ImportedAccount> storedAccount(std::size_t index, Stored stored,
                                            std::vector<std::string> tags)
{
    const std::string named = entryName(index, stored);
    auto invalid = [&](const std::string& what) {
        return fail(ImportError::InvalidEntry, named + ": " + what);
    };
    EntryFields fields;
    fields.issuer = std::move(stored.issuer);
    fields.accountName = std::move(stored.username);
    fields.tags = std::move(tags);
    switch (stored.type.value_or(-1)) {
    case Totp:
        fields.parameters.kind = otp::OtpKind::Totp;
        break;
    case Hotp:
        fields.parameters.kind = otp::OtpKind::Hotp;
        break;
    case Steam:
        fields.parameters = otp::OtpParameters::steam();
        break;
    case MobileOtp:
    case Yandex:
        return invalid(std::string("Authenticator Pro's ") +
                       (*stored.type == MobileOtp ? "mOTP" : "Yandex") +
                       " entries (a PIN-based code) are not supported; remove the entry in "
                       "the app or back up without it");
    default:
        return invalid(stored.type ? "unknown type " + std::to_string(*stored.type)
                                   : std::string("no type"));
    }
    // Steam codes are defined as SHA-1, 5 characters, 30 s: what the app
    // stores beside them is not read.
    if (fields.parameters.kind != otp::OtpKind::Steam) {
        switch (stored.algorithm.value_or(0)) {
        case 0:
            fields.parameters.algorithm = crypto::HashAlgorithm::Sha1;
            break;
        case 1:
            fields.parameters.algorithm = crypto::HashAlgorithm::Sha256;
            break;
        case 2:
            fields.parameters.algorithm = crypto::HashAlgorithm::Sha512;
            break;
        default:
            return invalid("unsupported algorithm " + std::to_string(*stored.algorithm));
        }
        // An HOTP entry's period is the app's default, never used.
        const bool hotp = fields.parameters.kind == otp::OtpKind::Hotp;
        if (auto applied = applyStoredCode(
                named, {{}, stored.digits, hotp ? std::nullopt : stored.period}, fields.parameters);
            !applied)
            return applied.failure();
        if (hotp) {
            if (stored.counter.value_or(0) < 0)
                return invalid("invalid counter");
            fields.parameters.counter = static_cast<std::uint64_t>(stored.counter.value_or(0));
        }
    }
    if (stored.secret.empty())
        return invalid("no secret");
    auto secret = secretFromBase32(named, stored.secret);
    if (!secret)
        return secret.failure();
    fields.secret = std::move(secret).value();
    return makeAccount(formatLabel, index, std::move(fields));
}

// The categories each secret is in: secret -> category names.
using Categories = std::map<std::string, std::vector<std::string>>;

std::vector<std::string> categoriesOf(const Categories& categories, const std::string& secret)
{
    const auto it = categories.find(secret);
    return it == categories.end() ? std::vector<std::string>{} : it->second;
}

// --- the JSON backup

std::optional<std::int64_t> numberMember(const Json& object, const char* key, std::size_t index)
{
    const Json* value = optionalMember(object, key);
    if (!value)
        return std::nullopt;
    if (!value->is_number_integer() ||
        (value->is_number_unsigned() &&
         value->get<std::uint64_t>() >
             static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())))
        throw FieldError{"Authenticators[" + std::to_string(index) + "]: \"" + key +
                         "\" is not an integer"};
    return value->get<std::int64_t>();
}

Categories jsonCategories(const Json& root)
{
    std::map<std::string, std::string> names; // id -> name
    if (const Json* list = optionalMember(root, "Categories")) {
        if (!list->is_array())
            throw FieldError{"\"Categories\" is not an array"};
        for (const Json& category : *list) {
            if (!category.is_object())
                throw FieldError{"a category is not an object"};
            names.emplace(stringMember(category, "Id"), stringMember(category, "Name"));
        }
    }
    Categories out;
    if (const Json* list = optionalMember(root, "AuthenticatorCategories")) {
        if (!list->is_array())
            throw FieldError{"\"AuthenticatorCategories\" is not an array"};
        for (const Json& binding : *list) {
            if (!binding.is_object())
                throw FieldError{"an AuthenticatorCategories row is not an object"};
            // A row naming a category that is not listed is dropped, as the app does.
            const auto name = names.find(stringMember(binding, "CategoryId"));
            if (name != names.end())
                out[stringMember(binding, "AuthenticatorSecret")].push_back(name->second);
        }
    }
    return out;
}

ImportResult<Imported> importParsed(const Json& root, Password)
{
    if (!root.is_object())
        return malformed(formatLabel, "not a JSON object");
    const Json* list = optionalMember(root, "Authenticators");
    if (!list)
        return malformed(formatLabel,
                         "not an Authenticator Pro backup (\"Authenticators\" expected)");
    if (!list->is_array())
        return malformed(formatLabel, "\"Authenticators\" is not an array");
    if (auto counted = checkCount(formatLabel, list->size()); !counted)
        return counted.failure();
    const Categories categories = jsonCategories(root);

    Imported imported;
    imported.format = Format::AuthenticatorPro;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const Json& entry = (*list)[i];
        if (!entry.is_object())
            return malformed(formatLabel, "entry " + std::to_string(i + 1) + " is not an object");
        Stored stored;
        stored.type = numberMember(entry, "Type", i);
        stored.issuer = stringMember(entry, "Issuer");
        stored.username = stringMember(entry, "Username");
        stored.secret = stringMember(entry, "Secret");
        stored.algorithm = numberMember(entry, "Algorithm", i);
        stored.digits = numberMember(entry, "Digits", i);
        stored.period = numberMember(entry, "Period", i);
        stored.counter = numberMember(entry, "Counter", i);
        auto tags = categoriesOf(categories, stored.secret);
        if (auto kept = keep(imported, i, storedAccount(i, std::move(stored), std::move(tags)));
            !kept)
            return kept.failure();
    }
    return imported;
}

ImportResult<Imported> importJson(ByteView data)
{
    return importJsonFile(formatLabel, data, std::nullopt, importParsed);
}

// --- the encrypted backups

ImportResult<Imported> importCurrent(ByteView data, ByteView password)
{
    const std::size_t header = currentMagic.size() + currentSaltSize + currentIvSize;
    if (data.size() < header + crypto::aesGcm::tagSize)
        return malformed(formatLabel, "the file is too short to be an encrypted backup");
    const ByteView salt = data.subspan(currentMagic.size(), currentSaltSize);
    const ByteView iv = data.subspan(currentMagic.size() + currentSaltSize, currentIvSize);
    auto key = argon2id(formatLabel, password, salt, currentCost, keySize);
    if (!key)
        return key.failure();
    auto plaintext =
        openWithPasswordKey(formatLabel, *key, iv, {}, data.subspan(header), "the file");
    if (!plaintext)
        return plaintext.failure();
    return importJson(plaintext->span());
}

ImportResult<Imported> importLegacy(ByteView data, ByteView password)
{
    const std::size_t header = legacyMagic.size() + legacySaltSize + crypto::AesCbc::ivSize;
    if (data.size() < header + crypto::AesCbc::blockSize ||
        (data.size() - header) % crypto::AesCbc::blockSize != 0)
        return malformed(formatLabel,
                         "the file is too short or cut off (an encrypted backup of the old "
                         "layout holds whole 16-byte blocks)");
    const ByteView salt = data.subspan(legacyMagic.size(), legacySaltSize);
    const ByteView iv = data.subspan(legacyMagic.size() + legacySaltSize, crypto::AesCbc::ivSize);
    auto plaintext =
        openPbkdf2AesCbc(formatLabel, crypto::HashAlgorithm::Sha1, password, salt, legacyIterations,
                         iv, data.subspan(header), "the file (old layout)");
    if (!plaintext)
        return plaintext.failure();
    return importJson(plaintext->span());
}

// --- the internal database

ImportResult<Categories> databaseCategories(SqliteDatabase& database)
{
    Categories out;
    for (const char* table : {"category", "authenticatorcategory"}) {
        auto has = database.hasTable(table);
        if (!has)
            return has.failure();
        if (!*has)
            return out; // an old database without categories
    }
    auto categories = database.textPairs("category", "id", "name");
    if (!categories)
        return categories.failure();
    const std::map<std::string, std::string> names(categories->begin(), categories->end());
    auto bindings =
        database.textPairs("authenticatorcategory", "categoryId", "authenticatorSecret");
    if (!bindings)
        return bindings.failure();
    for (const auto& [categoryId, secret] : *bindings)
        if (const auto name = names.find(categoryId); name != names.end())
            out[secret].push_back(name->second);
    return out;
}

ImportResult<Imported> importDatabase(ByteView data)
{
    auto database = SqliteDatabase::open(formatLabel, data);
    if (!database)
        return database.failure();
    auto categories = databaseCategories(*database);
    if (!categories)
        return categories.failure();
    auto rows = database->readTable("authenticator", {"type", "secret"}, "Authenticator Pro");
    if (!rows)
        return rows.failure();

    Imported imported;
    imported.format = Format::AuthenticatorPro;
    auto read = rows->forEachAccount([&](std::size_t i) -> ImportResult<void> {
        Stored stored;
        const auto number = [&](const char* column) -> ImportResult<std::optional<std::int64_t>> {
            const SqliteValue value = rows->value(column);
            if (value.type == SqliteValue::Type::Null)
                return std::optional<std::int64_t>();
            if (value.type != SqliteValue::Type::Integer)
                return fail(ImportError::InvalidEntry,
                            entryName(i, stored) + ": \"" + column + "\" is not an integer");
            return std::optional<std::int64_t>(value.integer);
        };
        stored.issuer = rows->value("issuer").text;
        stored.username = rows->value("username").text;
        stored.secret = rows->value("secret").text;
        for (const auto& [column, field] :
             {std::pair{"type", &stored.type}, std::pair{"algorithm", &stored.algorithm},
              std::pair{"digits", &stored.digits}, std::pair{"period", &stored.period},
              std::pair{"counter", &stored.counter}}) {
            auto value = number(column);
            if (!value)
                return value.failure();
            *field = *value;
        }
        auto tags = categoriesOf(*categories, stored.secret);
        if (auto kept = keep(imported, i, storedAccount(i, std::move(stored), std::move(tags)));
            !kept)
            return kept.failure();
        return {};
    });
    if (!read)
        return read.failure();
    return imported;
}

} // namespace

ImportResult<Imported> importAuthenticatorPro(ByteView data, Password password)
{
    if (auto sized = checkSize(formatLabel, data); !sized)
        return sized.failure();
    if (data.empty())
        return malformed(formatLabel, "the file is empty");
    if (isSqlite(data))
        return importDatabase(data);
    if (!authenticatorProEncrypted(data))
        return importJson(data);
    if (!password)
        return fail(ImportError::PasswordRequired,
                    std::string(formatLabel) + ": the backup is encrypted");
    if (startsWith(data, currentMagic))
        return importCurrent(data, *password);
    return importLegacy(data, *password);
}

bool authenticatorProEncrypted(ByteView data)
{
    return startsWith(data, currentMagic) || startsWith(data, legacyMagic);
}

} // namespace watchword::importers::detail
