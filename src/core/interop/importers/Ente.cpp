// Ente Auth's export. Plain: a text file, one otpauth:// URI a line
// (hosts totp, hotp and steam), each with a codeDisplay parameter holding
// the app's own JSON for the code ({"pinned", "trashed", "tags", "note",
// ...}); older exports leave codeDisplay out, some write algorithm=null,
// digits=null or period=null for "not set", and an HOTP URI without a
// counter counts from 0. Encrypted: JSON {"version": 1,
// "kdfParams": {"memLimit" (bytes), "opsLimit", "salt"}, "encryptedData",
// "encryptionNonce"}: Argon2id (memLimit / 1024 KiB, opsLimit passes, one
// lane) of the password and the salt makes a 32-byte key, which opens
// encryptedData as the one message of a libsodium secretstream
// (XChaCha20-Poly1305) whose header is encryptionNonce; the plaintext is
// the plain export. docs/FORMAT.md section 9.
#include "crypto/SecretStream.h"
#include "interop/importers/Common.h"
#include "interop/importers/Formats.h"
#include "interop/importers/JsonFields.h"
#include "otp/OtpauthUri.h"

#include <array>

namespace watchword::importers::detail {

namespace {

constexpr std::string_view formatLabel = "ente";
constexpr std::uint64_t readVersion = 1;
// Ente decodes a secret whose last Base32 group has 1, 3 or 6 symbols by
// leaving those symbols out.
constexpr auto secretTail = encoding::Base32Tail::DropSymbols;
// The parameters Ente writes as the text "null" when they are not set.
constexpr std::array<std::string_view, 4> nullableParameters = {"algorithm", "digits", "period",
                                                                "counter"};

// One line of the export: the URI without what only Ente reads, and the
// codeDisplay JSON (percent-decoded), if any.
struct EnteLine
{
    std::string uri;
    std::string codeDisplay;
};

EnteLine splitLine(std::string_view line)
{
    EnteLine out;
    const auto query = line.find('?');
    out.uri = std::string(line.substr(0, query));
    if (query == std::string_view::npos)
        return out;
    char separator = '?';
    bool hasCounter = false;
    otp::QueryParameters parameters(line.substr(query + 1));
    while (const auto each = parameters.next()) {
        const std::string_view parameter = each->text;
        const std::string_view name = each->name;
        const std::string_view value = each->value;
        if (name == "codeDisplay") {
            out.codeDisplay.resize(value.size());
            const auto decoded = otp::percentDecode(value, true, out.codeDisplay.data());
            out.codeDisplay.resize(decoded.badEscape ? 0 : decoded.size);
            continue;
        }
        if (value == "null" && std::find(nullableParameters.begin(), nullableParameters.end(),
                                         name) != nullableParameters.end())
            continue;
        if (name == "counter")
            hasCounter = true;
        out.uri += separator;
        out.uri += parameter;
        separator = '&';
    }
    // Ente counts an HOTP code without a counter from 0.
    if (!hasCounter && startsWithFolded(line, "otpauth://hotp/"))
        out.uri += std::string(1, separator) + "counter=0";
    return out;
}

// An account, or nullopt for one in Ente's trash (a warning says so).
ImportResult<std::optional<ImportedAccount>> lineAccount(std::size_t index, std::string_view line,
                                                         std::vector<std::string>& warnings)
{
    const EnteLine parts = splitLine(line);
    auto account = accountFromUri(formatLabel, index, parts.uri, secretTail);
    if (!account)
        return account.failure();
    if (parts.codeDisplay.empty())
        return std::optional<ImportedAccount>(std::move(account).value());
    const std::string named = entryLabel(formatLabel, index, account->issuer, account->accountName);
    Json display = Json::parse(parts.codeDisplay, nullptr, /*allow_exceptions=*/false);
    if (!display.is_object()) {
        warnings.push_back(named +
                           ": its codeDisplay is not JSON; its tags and note were not read");
        return std::optional<ImportedAccount>(std::move(account).value());
    }
    if (const Json* trashed = optionalMember(display, "trashed");
        trashed && trashed->is_boolean() && trashed->get<bool>()) {
        warnings.push_back(named + ": in Ente's trash; not imported");
        return std::optional<ImportedAccount>();
    }
    EntryFields fields;
    fields.issuer = std::move(account->issuer);
    fields.accountName = std::move(account->accountName);
    fields.secret = std::move(account->secret);
    fields.parameters = account->parameters;
    if (const Json* tags = optionalMember(display, "tags"); tags && tags->is_array())
        for (const Json& tag : *tags)
            if (tag.is_string())
                fields.tags.push_back(tag.get<std::string>());
    if (const Json* note = optionalMember(display, "note"); note && note->is_string())
        fields.note = note->get<std::string>();
    auto made = makeAccount(formatLabel, index, std::move(fields));
    if (!made)
        return made.failure();
    return std::optional<ImportedAccount>(std::move(made).value());
}

ImportResult<Imported> importLines(std::string_view text)
{
    Imported imported;
    imported.format = Format::Ente;
    TextLines lines(text);
    std::size_t entries = 0;
    while (const auto line = lines.next()) {
        const std::size_t index = entries++;
        if (auto counted = checkCount(formatLabel, entries); !counted)
            return counted.failure();
        auto account = lineAccount(index, *line, imported.warnings);
        if (!account) {
            auto error = account.error();
            error.message += " (line " + std::to_string(lines.lineNumber()) + ")";
            if (auto kept = keep(imported, index, fail(std::move(error))); !kept)
                return kept.failure();
            continue;
        }
        if (*account)
            imported.accounts.push_back(std::move(**account));
    }
    if (entries == 0)
        return malformed(formatLabel, "no otpauth:// URI in the export");
    return imported;
}

// The plain export out of an encrypted one.
ImportResult<SecureBuffer> decryptExport(const Json& root, ByteView password)
{
    const Json* kdf = optionalMember(root, "kdfParams");
    if (!kdf || !kdf->is_object())
        return malformed(formatLabel, "\"kdfParams\" is missing or not an object");
    const auto memoryBytes = unsignedMember(*kdf, "memLimit", "kdfParams.");
    const auto passes = unsignedMember(*kdf, "opsLimit", "kdfParams.");
    const auto salt = fromBase64(stringMember(*kdf, "salt"));
    const auto sealed = fromBase64(stringMember(root, "encryptedData"));
    const auto header = fromBase64(stringMember(root, "encryptionNonce"));
    if (!memoryBytes || !passes)
        return malformed(formatLabel, "kdfParams.memLimit or kdfParams.opsLimit is missing");
    if (!salt || !sealed || !header)
        return malformed(formatLabel,
                         "the salt, \"encryptedData\" or \"encryptionNonce\" is not Base64");
    if (auto bounded = checkSaltSize(formatLabel, "kdfParams.salt", salt->size()); !bounded)
        return bounded.failure();
    if (header->size() != crypto::secretStream::headerSize)
        return outOfBounds(ImportError::Malformed, formatLabel, "\"encryptionNonce\"",
                           std::to_string(header->size()) + " bytes",
                           crypto::secretStream::headerSize, crypto::secretStream::headerSize);
    // Bounds before any work: Argon2's own (at least 8 KiB, one pass) and
    // the build's cost bound (argon2id), checked on whole KiB.
    if (*memoryBytes < 8 * 1024 || *memoryBytes > std::uint64_t{maximumArgon2MemoryKiB} * 1024)
        return outOfBounds(
            *memoryBytes < 8 * 1024 ? ImportError::Malformed : ImportError::Unsupported,
            formatLabel, "kdfParams.memLimit", std::to_string(*memoryBytes) + " bytes", 8 * 1024,
            std::uint64_t{maximumArgon2MemoryKiB} * 1024);
    if (*passes < 1 || *passes > maximumArgon2Work)
        return outOfBounds(*passes < 1 ? ImportError::Malformed : ImportError::Unsupported,
                           formatLabel, "kdfParams.opsLimit", std::to_string(*passes), 1,
                           maximumArgon2Work);
    const Argon2Cost cost{static_cast<std::uint32_t>(*passes),
                          static_cast<std::uint32_t>(*memoryBytes / 1024), 1};
    auto key = argon2id(formatLabel, password, *salt, cost, crypto::secretStream::keySize);
    if (!key)
        return key.failure();
    auto plaintext = crypto::secretStream::openSingleMessage(key->span(), *header, *sealed);
    if (!plaintext) {
        if (plaintext.error().code == crypto::SecretStreamError::AuthenticationFailed)
            return fail(ImportError::WrongPassword,
                        std::string(formatLabel) +
                            ": the password is wrong (or the export is damaged)");
        return malformed(formatLabel, "cannot decrypt: " + plaintext.error().message);
    }
    return std::move(plaintext).value();
}

ImportResult<Imported> importSealed(ByteView data, Password password)
{
    return importJsonFile(
        formatLabel, data, password,
        [](const Json& root, Password given) -> ImportResult<Imported> {
            if (!root.is_object())
                return malformed(formatLabel, "not a JSON object");
            const auto version = unsignedMember(root, "version", "");
            if (!version)
                return malformed(formatLabel, "\"version\" is missing");
            if (*version != readVersion)
                return fail(ImportError::UnsupportedVersion,
                            std::string(formatLabel) + ": export version " +
                                std::to_string(*version) + " (this build reads 1)");
            if (!given)
                return fail(ImportError::PasswordRequired,
                            std::string(formatLabel) + ": the export is encrypted");
            auto plaintext = decryptExport(root, *given);
            if (!plaintext)
                return plaintext.failure();
            auto text = utf8Text(plaintext->span(), formatLabel);
            if (!text)
                return text.failure();
            return importLines(*text);
        });
}

bool looksSealed(ByteView data)
{
    const auto root = jsonObjectOf(data);
    return root && root->contains("kdfParams") && root->contains("encryptedData");
}

} // namespace

ImportResult<Imported> importEnte(ByteView data, Password password)
{
    if (looksSealed(data))
        return importSealed(data, password);
    auto text = utf8Text(data, formatLabel);
    if (!text)
        return text.failure();
    return importLines(*text);
}

bool enteEncrypted(ByteView data)
{
    return looksSealed(data);
}

} // namespace watchword::importers::detail
