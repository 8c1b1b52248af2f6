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
// A folder's manifest.json (SDA's, or steamguard-cli's own) names each
// account's .maFile; imported with the files beside it (CompanionFiles), it
// brings every account of the folder, in its order. With encryption on,
// each .maFile is Base64 of AES-256-CBC (PKCS#7) under PBKDF2-HMAC-SHA1(the
// password, the entry's salt, 50,000 iterations) as a 32-byte key, with the
// entry's IV: the salt and IV are in the manifest, so an encrypted .maFile
// is read only through it.
#include "interop/importers/Common.h"
#include "interop/importers/Formats.h"
#include "interop/importers/JsonFields.h"

#include <algorithm>

namespace watchword::importers::detail {

namespace {

constexpr std::string_view formatLabel = "steam";
// Steam Desktop Authenticator's constants (its FileEncryptor), which
// steamguard-cli keeps as its "LegacySdaCompatible" scheme.
constexpr std::uint32_t sdaIterations = 50'000;
constexpr std::string_view sdaScheme = "LegacySdaCompatible";

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

// An entry's IV and salt (Base64): SDA's "encryption_iv" and
// "encryption_salt", or steamguard-cli's "encryption": {"iv", "salt",
// "scheme"}; nullopt for an entry that is not encrypted.
struct Sealing
{
    Bytes iv;
    Bytes salt;
};
ImportResult<std::optional<Sealing>> sealingOf(const Json& entry, const std::string& named)
{
    std::string iv = stringMember(entry, "encryption_iv");
    std::string salt = stringMember(entry, "encryption_salt");
    if (const Json* encryption = optionalMember(entry, "encryption")) {
        if (!encryption->is_object())
            return fail(ImportError::Malformed, named + ": \"encryption\" is not an object");
        if (const std::string scheme = stringMember(*encryption, "scheme");
            !scheme.empty() && scheme != sdaScheme)
            return fail(ImportError::Unsupported,
                        named + ": encryption scheme " + shownValue(scheme) +
                            " is not one this version reads (only " + std::string(sdaScheme) + ")");
        iv = stringMember(*encryption, "iv");
        salt = stringMember(*encryption, "salt");
    }
    if (iv.empty() && salt.empty())
        return std::optional<Sealing>();
    auto ivBytes = fromBase64(iv);
    auto saltBytes = fromBase64(salt);
    if (!ivBytes || !saltBytes || saltBytes->empty())
        return fail(ImportError::Malformed, named + ": its IV or salt is missing or not Base64");
    return std::optional<Sealing>(Sealing{std::move(*ivBytes), std::move(*saltBytes)});
}

// The accounts of the .maFiles a manifest names, read beside it.
ImportResult<Imported> importManifest(const Json& root, Password password,
                                      const CompanionFiles& companions)
{
    const Json& entries = root.at("entries");
    if (auto counted = checkCount(formatLabel, entries.size()); !counted)
        return counted.failure();
    Imported imported;
    imported.format = Format::Steam;
    for (std::size_t index = 0; index < entries.size(); ++index) {
        const Json& entry = entries[index];
        if (!entry.is_object())
            return malformed(formatLabel,
                             "manifest entry " + std::to_string(index + 1) + " is not an object");
        const std::string fileName = stringMember(entry, "filename");
        const std::string named =
            entryLabel(formatLabel, index, "Steam", stringMember(entry, "account_name"));
        if (!isPlainFileName(fileName))
            return fail(ImportError::Malformed, named + ": the file name " + shownValue(fileName) +
                                                    " is not a file of the manifest's folder");
        auto sealing = sealingOf(entry, named);
        if (!sealing)
            return sealing.failure();
        if (*sealing && !password)
            return fail(ImportError::PasswordRequired,
                        std::string(formatLabel) +
                            ": the .maFiles are encrypted; give the encryption password");
        auto file = companions(fileName);
        if (!file)
            return fail(ImportError::Malformed, named + ": " + shownValue(fileName) +
                                                    ", which the manifest names, is not beside it "
                                                    "(or cannot be read)");
        std::optional<SecureBuffer> opened;
        if (*sealing) {
            std::string_view text = file->view();
            while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
                text.remove_suffix(1);
            auto sealed = fromBase64(text);
            if (!sealed)
                return fail(ImportError::Malformed,
                            named + ": " + shownValue(fileName) +
                                " is not the Base64 of an encrypted .maFile");
            auto plain = openPbkdf2AesCbc(formatLabel, crypto::HashAlgorithm::Sha1, *password,
                                          (*sealing)->salt, sdaIterations, (*sealing)->iv, *sealed,
                                          fileName);
            if (!plain)
                return plain.failure();
            opened = std::move(*plain);
        }
        const ByteView bytes = opened ? opened->span() : file->span();
        auto text = utf8Text(bytes, formatLabel);
        if (!text)
            return text.failure();
        auto parsed = parseJson(formatLabel, *text, fileName);
        if (!parsed)
            return parsed.failure();
        if (auto kept = keep(imported, index, accountOf(index, *parsed)); !kept)
            return kept.failure();
    }
    return imported;
}

ImportResult<Imported> importParsed(const Json& root, Password password,
                                    const CompanionFiles& companions)
{
    if (!root.is_object())
        return malformed(formatLabel, "not a JSON object");
    if (steamJsonKind(root) == SteamJson::Manifest) {
        if (companions)
            return importManifest(root, password, companions);
        return fail(ImportError::Unsupported,
                    std::string(formatLabel) +
                        ": this is the manifest.json of Steam Desktop Authenticator or "
                        "steamguard-cli, which lists the accounts but holds no secret, and the "
                        "files beside it were not given: import it from its folder, or each "
                        "account's .maFile");
    }
    Imported imported;
    imported.format = Format::Steam;
    if (const Json* accounts = optionalMember(root, "accounts")) {
        if (!accounts->is_object())
            return malformed(formatLabel, "\"accounts\" is not an object");
        if (accounts->empty())
            return malformed(formatLabel, "\"accounts\" is empty");
        if (auto counted = checkCount(formatLabel, accounts->size()); !counted)
            return counted.failure();
        std::size_t index = 0;
        for (const auto& [key, entry] : accounts->items()) {
            if (auto kept = keep(imported, index, accountOf(index, entry)); !kept)
                return kept.failure();
            ++index;
        }
        return imported;
    }
    if (!root.contains("shared_secret"))
        return malformed(formatLabel,
                         "neither \"shared_secret\" (a .maFile) nor \"accounts\" (the Steam "
                         "app's file) is there");
    if (auto kept = keep(imported, 0, accountOf(0, root)); !kept)
        return kept.failure();
    return imported;
}

} // namespace

SteamJson steamJsonKind(const Json& root)
{
    if (!root.is_object())
        return SteamJson::None;
    if (root.contains("shared_secret"))
        return SteamJson::Accounts;
    if (const Json* accounts = optionalMember(root, "accounts");
        accounts && accounts->is_object() && !accounts->empty()) {
        const Json& first = accounts->get_ref<const Json::object_t&>().begin()->second;
        if (first.is_object() && first.contains("shared_secret"))
            return SteamJson::Accounts;
    }
    // SDA's {"encrypted", "entries": [{"filename", "steamid", "encryption_iv",
    // ...}], ...}; steamguard-cli's {"version": 1, "entries": [{"filename",
    // "steam_id", "account_name", "encryption"}]}.
    if (const Json* entries = optionalMember(root, "entries");
        entries && entries->is_array() && !entries->empty()) {
        const Json& first = (*entries)[0];
        if (first.is_object() && first.contains("filename") &&
            (first.contains("steamid") || first.contains("steam_id")))
            return SteamJson::Manifest;
    }
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

bool steamEncrypted(ByteView data)
{
    const auto root = jsonObjectOf(data);
    if (!root || steamJsonKind(*root) != SteamJson::Manifest)
        return false;
    if (const Json* encrypted = optionalMember(*root, "encrypted"))
        if (encrypted->is_boolean() && encrypted->get<bool>())
            return true;
    const Json& first = root->at("entries")[0];
    return optionalMember(first, "encryption") != nullptr ||
           optionalMember(first, "encryption_iv") != nullptr;
}

ImportResult<Imported> importSteam(ByteView data, Password password,
                                   const CompanionFiles& companions)
{
    if (data.size() <= maximumImportBytes && looksLikeEncryptedMaFile(asText(data)))
        return fail(ImportError::Unsupported,
                    std::string(formatLabel) +
                        ": this looks like an encrypted Steam Desktop Authenticator .maFile, "
                        "whose salt and IV are in the folder's manifest.json: import that "
                        "manifest.json, from the same folder, with the encryption password");
    return importJsonFile(formatLabel, data, password, [&](const Json& root, Password given) {
        return importParsed(root, given, companions);
    });
}

} // namespace watchword::importers::detail
