// Bitwarden's unencrypted exports, JSON or CSV: a password manager's items,
// of which those with a TOTP field become accounts. The field holds an
// otpauth:// URI, "steam://<Base32 secret>", or a bare Base32 secret (which
// Bitwarden computes as TOTP-SHA1, 6 digits, 30 s).
#include "interop/importers/Common.h"
#include "interop/importers/Formats.h"
#include "interop/importers/TextReaders.h"

#include <map>
#include <nlohmann/json.hpp>

namespace watchword::importers::detail {

namespace {

using Json = nlohmann::json;

constexpr std::string_view format = "bitwarden";
// Bitwarden computes a code from a secret whose last Base32 group has 1, 3
// or 6 symbols by dropping the bits after the last whole byte (its Base32
// decoder does), in a bare secret, steam:// or an otpauth URI alike.
constexpr auto secretTail = encoding::Base32Tail::DropBits;

// What one item says: its name and user name, for an account whose TOTP
// field carries no label of its own, and its folder, as a tag.
struct Item
{
    std::string name;
    std::string username;
    std::string folder;
};

ImportResult<ImportedAccount> accountOf(std::size_t index, std::string_view totp, Item item)
{
    const auto first = totp.find_first_not_of(" \t\r\n");
    totp = first == std::string_view::npos
               ? std::string_view{}
               : totp.substr(first, totp.find_last_not_of(" \t\r\n") - first + 1);
    if (startsWithFolded(totp, "otpauth://")) {
        auto account = accountFromUri(format, index, totp, secretTail);
        if (!account)
            return account;
        // The URI's label is the account's; the item name is the password
        // manager's title for the login, used only where the URI has none.
        EntryFields fields;
        fields.issuer = account->issuer.empty() ? std::move(item.name) : account->issuer;
        fields.accountName =
            account->accountName.empty() ? std::move(item.username) : account->accountName;
        fields.secret = std::move(account->secret);
        fields.parameters = account->parameters;
        if (!item.folder.empty())
            fields.tags.push_back(std::move(item.folder));
        return makeAccount(format, index, std::move(fields));
    }
    EntryFields fields;
    fields.issuer = std::move(item.name);
    fields.accountName = std::move(item.username);
    if (!item.folder.empty())
        fields.tags.push_back(std::move(item.folder));
    std::string_view secret = totp;
    if (startsWithFolded(totp, "steam://")) {
        secret.remove_prefix(8);
        fields.parameters = otp::OtpParameters::steam();
    }
    auto decoded = secretFromBase32(entryLabel(format, index, fields.issuer, fields.accountName),
                                    secret, secretTail);
    if (!decoded)
        return decoded.failure(ImportError::InvalidEntry, {},
                               "; the TOTP field is neither an otpauth URI nor a Base32 secret");
    fields.secret = std::move(decoded).value();
    return makeAccount(format, index, std::move(fields));
}

std::string stringOr(const Json& object, const char* key)
{
    if (!object.is_object())
        return {};
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

ImportResult<Imported> importJson(std::string_view text)
{
    Json root;
    try {
        root = Json::parse(text.begin(), text.end());
    } catch (const Json::exception&) {
        return fail(ImportError::Malformed, std::string(format) + ": not JSON");
    }
    if (!root.is_object() || !root.contains("encrypted"))
        return fail(ImportError::Malformed,
                    std::string(format) + ": not a Bitwarden export (no \"encrypted\" field)");
    const Json& encrypted = root["encrypted"];
    if (!encrypted.is_boolean())
        return fail(ImportError::Malformed,
                    std::string(format) + ": \"encrypted\" is not true/false");
    if (encrypted.get<bool>())
        return fail(ImportError::Unsupported,
                    std::string(format) +
                        ": encrypted Bitwarden exports are not read; export the vault as "
                        "unencrypted JSON or CSV");
    const auto items = root.find("items");
    if (items == root.end() || !items->is_array())
        return fail(ImportError::Malformed, std::string(format) + ": \"items\" is not an array");

    std::map<std::string, std::string> folders;
    if (const auto list = root.find("folders"); list != root.end() && list->is_array())
        for (const Json& folder : *list)
            if (folder.is_object())
                folders[stringOr(folder, "id")] = stringOr(folder, "name");

    Imported imported;
    imported.format = Format::Bitwarden;
    for (std::size_t i = 0; i < items->size(); ++i) {
        const Json& entry = (*items)[i];
        if (!entry.is_object())
            return fail(ImportError::Malformed, std::string(format) + ": item " +
                                                    std::to_string(i + 1) + " is not an object");
        const auto login = entry.find("login");
        if (login == entry.end() || !login->is_object())
            continue; // a note, card or identity: nothing to import
        const std::string totp = stringOr(*login, "totp");
        if (totp.empty())
            continue;
        if (auto counted = checkCount(format, imported.accounts.size() + 1); !counted)
            return counted.failure();
        Item item{stringOr(entry, "name"), stringOr(*login, "username"), {}};
        if (const std::string folderId = stringOr(entry, "folderId"); !folderId.empty())
            if (const auto it = folders.find(folderId); it != folders.end())
                item.folder = it->second;
        if (auto kept = keep(imported, i, accountOf(i, totp, std::move(item))); !kept)
            return kept.failure();
    }
    return imported;
}

ImportResult<Imported> importCsv(std::string_view text)
{
    CsvReader reader(text);
    std::string error;
    const auto header = reader.record(error);
    if (!header)
        return fail(ImportError::Malformed, std::string(format) + ": line 1: " + error);
    std::map<std::string, std::size_t> columns;
    for (std::size_t i = 0; i < header->size(); ++i) {
        std::string name = (*header)[i];
        const auto first = name.find_first_not_of(' ');
        name = first == std::string::npos
                   ? std::string{}
                   : name.substr(first, name.find_last_not_of(' ') - first + 1);
        columns.emplace(std::move(name), i);
    }
    const auto totpColumn = columns.find("login_totp");
    if (totpColumn == columns.end())
        return fail(ImportError::Malformed,
                    std::string(format) + ": not a Bitwarden CSV export (no login_totp column)");
    auto column = [&](const std::vector<std::string>& row, const char* name) -> std::string {
        const auto it = columns.find(name);
        return it != columns.end() && it->second < row.size() ? row[it->second] : std::string{};
    };

    Imported imported;
    imported.format = Format::Bitwarden;
    std::size_t index = 0;
    while (!reader.atEnd()) {
        const std::size_t line = reader.line();
        auto row = reader.record(error);
        if (!row)
            return fail(ImportError::Malformed,
                        std::string(format) + ": line " + std::to_string(line) + ": " + error);
        if (row->size() == 1 && row->front().empty())
            continue; // a blank line
        if (row->size() != header->size())
            return fail(ImportError::Malformed,
                        std::string(format) + ": line " + std::to_string(line) + ": " +
                            std::to_string(row->size()) + " fields where the header has " +
                            std::to_string(header->size()));
        const std::size_t position = index++;
        const std::string& totp = (*row)[totpColumn->second];
        if (totp.empty())
            continue;
        if (auto counted = checkCount(format, imported.accounts.size() + 1); !counted)
            return counted.failure();
        Item item{column(*row, "name"), column(*row, "login_username"), column(*row, "folder")};
        if (auto kept = keep(imported, position, accountOf(position, totp, std::move(item))); !kept)
            return kept.failure();
    }
    return imported;
}

} // namespace

ImportResult<Imported> importBitwarden(ByteView data)
{
    auto text = utf8Text(data, format);
    if (!text)
        return text.failure();
    const auto first = text->find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return fail(ImportError::Malformed, std::string(format) + ": the file is empty");
    auto imported = (*text)[first] == '{' ? importJson(*text) : importCsv(*text);
    if (imported && imported->accounts.empty() && imported->skipped.empty())
        return fail(ImportError::Malformed,
                    std::string(format) + ": no item of the export has a TOTP field");
    return imported;
}

} // namespace watchword::importers::detail
