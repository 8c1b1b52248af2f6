// Proton Authenticator's export: JSON {"version": 1, "entries": [...]},
// each entry {"id", "content": {"uri", "entry_type", "name"}, "note"},
// where uri is an otpauth:// URI, or steam://<Base32 secret> for a Steam
// entry, and name is the account's name as the app shows it. With a
// password the export is {"version": 1, "salt": Base64 (16 bytes),
// "content": Base64(nonce (12) || ciphertext || tag (16))}: AES-256-GCM with
// the associated data "proton.authenticator.export.v1", under a key made by
// Argon2id (19 MiB, 2 passes, 1 lane, 32 bytes) of the password and the
// salt; the plaintext is the plain export. docs/FORMAT.md section 9.
#include "crypto/AesGcm.h"
#include "interop/importers/Common.h"
#include "interop/importers/Formats.h"
#include "interop/importers/JsonFields.h"

namespace watchword::importers::detail {

namespace {

constexpr std::string_view formatLabel = "proton-authenticator";
constexpr std::uint64_t readVersion = 1;
constexpr std::string_view associatedData = "proton.authenticator.export.v1";
// The app's constants: the file carries none of them.
constexpr Argon2Cost kdfCost{2, 19 * 1024, 1};
constexpr std::size_t keySize = 32;
constexpr std::size_t nonceSize = 12;
// Proton's Base32 reader drops the bits after the last whole byte of a
// secret whose last group has 1, 3 or 6 symbols.
constexpr auto secretTail = encoding::Base32Tail::DropBits;

ImportResult<void> checkVersion(const Json& root)
{
    const auto version = unsignedMember(root, "version", "");
    if (!version)
        return malformed(formatLabel, "\"version\" is missing");
    if (*version != readVersion)
        return fail(ImportError::UnsupportedVersion,
                    std::string(formatLabel) + ": export version " + std::to_string(*version) +
                        " (this build reads 1)");
    return {};
}

ImportResult<ImportedAccount> entryAccount(std::size_t index, const Json& entry)
{
    if (!entry.is_object())
        return malformed(formatLabel, "entry " + std::to_string(index + 1) + " is not an object");
    const Json* content = optionalMember(entry, "content");
    if (!content || !content->is_object())
        return malformed(formatLabel, "entry " + std::to_string(index + 1) +
                                          ": \"content\" is missing or not an object");
    const std::string uri = stringMember(*content, "uri");
    const std::string type = stringMember(*content, "entry_type");
    const std::string name = stringMember(*content, "name");
    const std::string named = entryLabel(formatLabel, index, {}, name);

    EntryFields fields;
    if (type != "Steam" && type != "Totp" && type != "Hotp" && !type.empty())
        return fail(ImportError::InvalidEntry, named + ": unknown entry type " + shownValue(type));
    if (type == "Steam" || (type.empty() && startsWithFolded(uri, "steam://"))) {
        if (!startsWithFolded(uri, "steam://"))
            return fail(ImportError::InvalidEntry,
                        named + ": a Steam entry whose URI is not steam://<secret>");
        auto secret = secretFromBase32(named, std::string_view(uri).substr(8), secretTail);
        if (!secret)
            return secret.failure();
        fields.secret = std::move(secret).value();
        fields.parameters = otp::OtpParameters::steam();
        fields.issuer = "Steam";
        fields.accountName = name;
    } else {
        auto account = accountFromUri(formatLabel, index, uri, secretTail);
        if (!account)
            return account;
        fields.issuer = std::move(account->issuer);
        // The name the app shows (the user may have renamed the account).
        fields.accountName = name.empty() ? std::move(account->accountName) : name;
        fields.secret = std::move(account->secret);
        fields.parameters = account->parameters;
    }
    fields.note = stringMember(entry, "note");
    return makeAccount(formatLabel, index, std::move(fields));
}

ImportResult<Imported> importEntries(const Json& root)
{
    if (auto version = checkVersion(root); !version)
        return version.failure();
    const Json* entries = optionalMember(root, "entries");
    if (!entries || !entries->is_array())
        return malformed(formatLabel, "\"entries\" is missing or not an array");
    if (auto counted = checkCount(formatLabel, entries->size()); !counted)
        return counted.failure();
    Imported imported;
    imported.format = Format::ProtonAuthenticator;
    for (std::size_t i = 0; i < entries->size(); ++i)
        if (auto kept = keep(imported, i, entryAccount(i, (*entries)[i])); !kept)
            return kept.failure();
    return imported;
}

// The plain export out of an encrypted one.
ImportResult<Json> decryptExport(const Json& root, ByteView password)
{
    const auto salt = fromBase64(stringMember(root, "salt"));
    const auto sealed = fromBase64(stringMember(root, "content"));
    if (!salt || !sealed)
        return malformed(formatLabel, "\"salt\" or \"content\" is not Base64");
    if (auto bounded = checkSaltSize(formatLabel, "\"salt\"", salt->size()); !bounded)
        return bounded.failure();
    if (sealed->size() < nonceSize + crypto::aesGcm::tagSize)
        return malformed(formatLabel, "\"content\" is too short to hold its nonce and tag");
    auto key = argon2id(formatLabel, password, *salt, kdfCost, keySize);
    if (!key)
        return key.failure();
    const ByteView whole(*sealed);
    auto plaintext =
        openWithPasswordKey(formatLabel, key->span(), whole.first(nonceSize),
                            asBytes(associatedData), whole.subspan(nonceSize), "the export");
    if (!plaintext)
        return plaintext.failure();
    const auto text = utf8Text(plaintext->span(), formatLabel);
    if (!text)
        return text.failure();
    auto inner = parseJson(formatLabel, *text, "the decrypted export");
    if (inner && !inner->is_object())
        return malformed(formatLabel, "the decrypted export is not a JSON object");
    return inner;
}

bool isSealed(const Json& root)
{
    return root.is_object() && root.contains("salt") && !root.contains("entries");
}

ImportResult<Imported> importParsed(const Json& root, Password password)
{
    if (!root.is_object())
        return malformed(formatLabel, "not a JSON object");
    if (!isSealed(root))
        return importEntries(root);
    if (auto version = checkVersion(root); !version)
        return version.failure();
    if (!password)
        return fail(ImportError::PasswordRequired,
                    std::string(formatLabel) + ": the export is encrypted");
    auto inner = decryptExport(root, *password);
    if (!inner)
        return inner.failure();
    return catchFieldErrors<Imported>(formatLabel, [&] { return importEntries(*inner); });
}

} // namespace

ImportResult<Imported> importProtonAuthenticator(ByteView data, Password password)
{
    return importJsonFile(formatLabel, data, password, importParsed);
}

bool protonAuthenticatorEncrypted(ByteView data)
{
    const auto root = jsonObjectOf(data);
    return root && isSealed(*root);
}

} // namespace watchword::importers::detail
