// LastPass Authenticator's export: JSON {"version", "deviceName", ...,
// "accounts": [...], "folders": [{"id", "name"}]}, each account
// {"issuerName", "originalIssuerName", "userName", "originalUserName",
// "secret" (Base32), "timeStep", "digits", "algorithm", "folderData":
// {"folderId", "position"}, ...}. Every account is TOTP. The app for
// Android writes version 3, for iOS version 1; both hold these fields. No
// encrypted variant exists. docs/FORMAT.md section 9.
#include "interop/importers/Common.h"
#include "interop/importers/Formats.h"
#include "interop/importers/JsonFields.h"

#include <map>

namespace watchword::importers::detail {

namespace {

constexpr std::string_view formatLabel = "lastpass";
// The folder every account is in unless the user moved it: not a tag.
constexpr std::uint64_t defaultFolder = 0;
// Secrets typed into LastPass of an impossible Base32 length (its real
// exports hold several) are decoded with the bits after the last whole byte
// dropped, as Base32 readers that accept them do.
constexpr auto secretTail = encoding::Base32Tail::DropBits;

// The user's name for a field, else the one the account came with.
std::string shownOrOriginal(const Json& account, const char* shown, const char* original)
{
    std::string value = stringMember(account, shown);
    return value.empty() ? stringMember(account, original) : value;
}

ImportResult<ImportedAccount> accountOf(std::size_t index, const Json& account,
                                        const std::map<std::uint64_t, std::string>& folders)
{
    if (!account.is_object())
        return malformed(formatLabel, "account " + std::to_string(index + 1) + " is not an object");
    EntryFields fields;
    fields.issuer = shownOrOriginal(account, "issuerName", "originalIssuerName");
    fields.accountName = shownOrOriginal(account, "userName", "originalUserName");
    const std::string named = entryLabel(formatLabel, index, fields.issuer, fields.accountName);
    fields.parameters.kind = otp::OtpKind::Totp;
    if (auto applied =
            applyStoredCode(named,
                            {stringMember(account, "algorithm"), integerMember(account, "digits"),
                             integerMember(account, "timeStep")},
                            fields.parameters);
        !applied)
        return applied.failure();
    auto secret = base32SecretMember(account, "secret", named, secretTail);
    if (!secret)
        return secret.failure();
    fields.secret = std::move(secret).value();
    if (const Json* folder = optionalMember(account, "folderData")) {
        if (!folder->is_object())
            throw FieldError{"account " + std::to_string(index + 1) +
                             ": \"folderData\" is not an object"};
        const auto id = unsignedMember(*folder, "folderId", "folderData.");
        if (id && *id != defaultFolder)
            if (const auto it = folders.find(*id); it != folders.end())
                fields.tags.push_back(it->second);
    }
    return makeAccount(formatLabel, index, std::move(fields));
}

ImportResult<Imported> importParsed(const Json& root, Password)
{
    if (!root.is_object())
        return malformed(formatLabel, "not a JSON object");
    const Json* accounts = optionalMember(root, "accounts");
    if (!accounts || !accounts->is_array())
        return malformed(formatLabel, "\"accounts\" is missing or not an array");
    if (auto counted = checkCount(formatLabel, accounts->size()); !counted)
        return counted.failure();
    std::map<std::uint64_t, std::string> folders;
    if (const Json* list = optionalMember(root, "folders")) {
        if (!list->is_array())
            return malformed(formatLabel, "\"folders\" is not an array");
        for (const Json& folder : *list) {
            if (!folder.is_object())
                return malformed(formatLabel, "a folder is not an object");
            if (const auto id = unsignedMember(folder, "id", "a folder's "))
                folders.emplace(*id, stringMember(folder, "name"));
        }
    }
    Imported imported;
    imported.format = Format::LastPass;
    for (std::size_t i = 0; i < accounts->size(); ++i)
        if (auto kept = keep(imported, i, accountOf(i, (*accounts)[i], folders)); !kept)
            return kept.failure();
    return imported;
}

} // namespace

ImportResult<Imported> importLastPass(ByteView data)
{
    return importJsonFile(formatLabel, data, std::nullopt, importParsed);
}

} // namespace watchword::importers::detail
