// Steam Guard secrets as the tools that hold them write them (docs/FORMAT.md
// section 9):
// - a Steam Desktop Authenticator (SDA) .maFile, which steamguard-cli also
//   reads and writes: one JSON object {"shared_secret" (Base64 of the 20-byte
//   key), "account_name", "serial_number", "revocation_code", "uri",
//   "identity_secret", "Session", ...};
// - the Steam mobile app's own file (files/Steamguard-<id> on a rooted
//   phone): the same object, or {"accounts": {"<key>": {the same object}}}.
// Only shared_secret and account_name are read: the codes come from the
// first (Steam issues 20 bytes; any non-empty key is taken, as HMAC takes
// it and Aegis's test files hold a 16-byte one), the account is named by the second. The "uri"
// member is Steam's otpauth URI of the same key and is not needed. identity_secret (trade
// confirmations) and the session are not kept: Watchword makes codes.
//
// An SDA folder whose files are encrypted holds Base64 text in each .maFile
// and the salt and IV in manifest.json beside it: the two are refused with
// the way out (remove the encryption in SDA, then import the .maFile).
#include "importers/Common.h"
#include "importers/Formats.h"
#include "importers/JsonFields.h"

#include <algorithm>

namespace watchword::importers::detail {

namespace {

constexpr std::string_view formatLabel = "steam";

ImportResult<ImportedAccount> accountOf(std::size_t index, const Json& entry)
{
    if (!entry.is_object())
        return malformed(formatLabel, "account " + std::to_string(index + 1) + " is not an object");
    EntryFields fields;
    fields.issuer = "Steam";
    fields.accountName = stringMember(entry, "account_name");
    fields.parameters = otp::OtpParameters::steam();
    const std::string named = entryLabel(formatLabel, index, fields.issuer, fields.accountName);
    const Json* shared = optionalMember(entry, "shared_secret");
    if (!shared || !shared->is_string())
        return fail(ImportError::InvalidEntry, named + ": no shared_secret");
    auto secret = secretFromBase64(shared->get_ref<const std::string&>());
    if (!secret)
        return fail(ImportError::InvalidEntry, named + ": the shared_secret is not Base64");
    fields.secret = std::move(*secret);
    return makeAccount(formatLabel, index, std::move(fields));
}

ImportResult<Imported> importParsed(const Json& root, Password)
{
    if (!root.is_object())
        return malformed(formatLabel, "not a JSON object");
    if (steamJsonKind(root) == SteamJson::Manifest) {
        const Json* encrypted = optionalMember(root, "encrypted");
        const bool sealed = (encrypted && encrypted->is_boolean() && encrypted->get<bool>()) ||
                            optionalMember(root.at("entries").front(), "encryption");
        return fail(ImportError::Unsupported,
                    std::string(formatLabel) +
                        ": this is the manifest.json of Steam Desktop Authenticator or "
                        "steamguard-cli, which lists the accounts but holds no secret: import "
                        "each account's .maFile from the same folder instead" +
                        (sealed ? std::string(", once its encryption is removed (in Steam "
                                              "Desktop Authenticator: Manage Encryption)")
                                : std::string()));
    }
    Imported imported;
    imported.format = Format::Steam;
    if (const Json* accounts = optionalMember(root, "accounts")) {
        if (!accounts->is_object())
            return malformed(formatLabel, "\"accounts\" is not an object");
        if (accounts->empty())
            return malformed(formatLabel, "\"accounts\" is empty");
        if (auto counted = checkCount(formatLabel, accounts->size()); !counted)
            return fail(counted.error());
        std::size_t index = 0;
        for (const auto& [key, entry] : accounts->items()) {
            if (auto kept = keep(imported, index, accountOf(index, entry)); !kept)
                return fail(kept.error());
            ++index;
        }
        return imported;
    }
    if (!root.contains("shared_secret"))
        return malformed(formatLabel,
                         "neither \"shared_secret\" (a .maFile) nor \"accounts\" (the Steam "
                         "app's file) is there");
    if (auto kept = keep(imported, 0, accountOf(0, root)); !kept)
        return fail(kept.error());
    return imported;
}

} // namespace

SteamJson steamJsonKind(const Json& root)
{
    if (!root.is_object())
        return SteamJson::None;
    if (root.contains("shared_secret"))
        return SteamJson::Accounts;
    if (const auto accounts = root.find("accounts");
        accounts != root.end() && accounts->is_object() && !accounts->empty() &&
        accounts->begin()->is_object() && accounts->begin()->contains("shared_secret"))
        return SteamJson::Accounts;
    // SDA's {"encrypted", "entries": [{"filename", "steamid", "encryption_iv",
    // ...}], ...}; steamguard-cli's {"version": 1, "entries": [{"filename",
    // "steam_id", "account_name", "encryption"}]}.
    if (const auto entries = root.find("entries");
        entries != root.end() && entries->is_array() && !entries->empty() &&
        entries->front().is_object() && entries->front().contains("filename") &&
        (entries->front().contains("steamid") || entries->front().contains("steam_id")))
        return SteamJson::Manifest;
    return SteamJson::None;
}

bool looksLikeEncryptedMaFile(std::string_view text)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
        text.remove_suffix(1);
    if (text.size() < 64 || text.size() % 4 != 0)
        return false;
    return std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
               c == '+' || c == '/' || c == '=';
    });
}

ImportResult<Imported> importSteam(ByteView data)
{
    if (data.size() <= maximumImportBytes && looksLikeEncryptedMaFile(asText(data)))
        return fail(ImportError::Unsupported,
                    std::string(formatLabel) +
                        ": this looks like an encrypted Steam Desktop Authenticator .maFile, "
                        "whose salt and IV are in the folder's manifest.json: remove the "
                        "encryption in Steam Desktop Authenticator (Manage Encryption), then "
                        "import the .maFile");
    return importJsonFile(formatLabel, data, std::nullopt, importParsed);
}

} // namespace watchword::importers::detail
