#include "interop/importers/Import.h"

#include "base/FileIo.h"
#include "interop/importers/Common.h"
#include "interop/importers/Formats.h"
#include "interop/importers/SqliteDatabase.h"
#include "interop/importers/ZipArchive.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace watchword::importers {

namespace {

using Json = nlohmann::json;

struct FormatNames
{
    Format format;
    std::string_view name;
    std::string_view title;
};

constexpr std::array<FormatNames, allFormats.size()> formatNames = {{
    {Format::OtpauthList, "otpauth", "otpauth:// URI list"},
    {Format::GoogleMigration, "google-migration", "Google Authenticator"},
    {Format::Aegis, "aegis", "Aegis"},
    {Format::TwoFas, "2fas", "2FAS"},
    {Format::AndOtp, "andotp", "andOTP"},
    {Format::FreeOtpPlus, "freeotp-plus", "FreeOTP+"},
    {Format::FreeOtp, "freeotp", "FreeOTP"},
    {Format::Bitwarden, "bitwarden", "Bitwarden"},
    {Format::AuthenticatorPro, "authenticator-pro", "Authenticator Pro"},
    {Format::GoogleAuthenticatorDb, "google-authenticator-db", "Google Authenticator database"},
    {Format::WatchwordBackup, "watchword-backup", "Watchword backup"},
    {Format::ProtonAuthenticator, "proton-authenticator", "Proton Authenticator"},
    {Format::LastPass, "lastpass", "LastPass Authenticator"},
    {Format::Ente, "ente", "Ente Auth"},
    {Format::KeePass, "keepass", "KeePassXC / KeePass"},
    {Format::Steam, "steam", "Steam Guard (.maFile)"},
    {Format::WinAuth, "winauth", "WinAuth / Authenticator Plus"},
    {Format::Raivo, "raivo", "Raivo OTP"},
}};

const FormatNames& namesOf(Format format)
{
    for (const auto& names : formatNames)
        if (names.format == format)
            return names;
    return formatNames[0];
}

// Java serialization's stream magic and version (FreeOTP 2 backups).
constexpr std::string_view javaSerializationMagic = "\xAC\xED\x00\x05";

std::string_view trimmedText(ByteView data)
{
    std::string_view text = detail::asText(data);
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    text.remove_prefix(first);
    return text;
}

// The first line that is neither blank nor a '#' comment.
std::string_view firstContentLine(std::string_view text)
{
    while (!text.empty()) {
        const auto end = text.find('\n');
        std::string_view line = text.substr(0, end);
        const auto first = line.find_first_not_of(" \t\r");
        if (first != std::string_view::npos && line[first] != '#')
            return line.substr(first);
        if (end == std::string_view::npos)
            break;
        text.remove_prefix(end + 1);
    }
    return {};
}

// The magic numbers of containers no format here is, and how a refusal
// names them: an import of one must not be taken for an andOTP backup
// (which has none) and ask for its password.
struct ForeignMagic
{
    std::string_view magic;
    std::string_view description;
};
constexpr std::array<ForeignMagic, 6> foreignMagic = {{
    {std::string_view("PK\x03\x04", 4), "a ZIP archive"}, // none of WinAuth's or Raivo's
    {std::string_view("PK\x05\x06", 4), "a ZIP archive"}, // an empty one
    {"%PDF-", "a PDF document"},                          // a printed backup
    {"\x89PNG", "an image"},                              // a screenshot of a QR code
    {"\xFF\xD8\xFF", "an image"},                         // JPEG
    {"\x03\xD9\xA2\x9A\x67\xFB\x4B\xB5",
     "a KeePass database (.kdbx): export it from KeePassXC as CSV or XML and import that"},
}};

// Binary that is none of the formats with magic. andOTP's encrypted backups
// have none: iterations (big-endian uint32) ‖ salt (12) ‖ nonce (12) ‖
// ciphertext ‖ tag (16) in the current layout, nonce ‖ ciphertext ‖ tag in
// the old one. The current layout is recognised by its iteration count
// (andOTP writes 140,000 to 160,000; 1,000 to 10,000,000 is taken); the old
// one, random throughout, only by not being what else random-looking files
// are: an encrypted database (SQLCipher: Authenticator Plus) is whole
// pages, a multiple of 512 bytes.
bool looksLikeAndOtpBackup(ByteView data)
{
    if (data.size() < 12 + 16)
        return false;
    for (const auto& foreign : foreignMagic)
        if (detail::startsWith(data, foreign.magic))
            return false;
    const std::uint32_t iterations = (std::uint32_t{data[0]} << 24) |
                                     (std::uint32_t{data[1]} << 16) |
                                     (std::uint32_t{data[2]} << 8) | std::uint32_t{data[3]};
    const bool currentLayout =
        iterations >= 1'000 && iterations <= 10'000'000 && data.size() >= 4 + 12 + 12 + 16;
    return currentLayout || data.size() % 512 != 0;
}

void add(std::vector<Format>& formats, Format format)
{
    if (std::find(formats.begin(), formats.end(), format) == formats.end())
        formats.push_back(format);
}

void guessJson(const Json& json, std::vector<Format>& formats)
{
    if (json.is_object()) {
        // A Steam secret's own members (steamguard-cli's files also have a
        // "tokens", which FreeOTP+'s export has too).
        if (detail::steamJsonKind(json) != detail::SteamJson::None) {
            add(formats, Format::Steam);
            return;
        }
        if (json.contains("header") && json.contains("db"))
            add(formats, Format::Aegis);
        if (json.contains("schemaVersion") &&
            (json.contains("services") || json.contains("servicesEncrypted")))
            add(formats, Format::TwoFas);
        if (json.contains("tokenOrder") || json.contains("tokens"))
            add(formats, Format::FreeOtpPlus);
        if (json.contains("encrypted") && (json.contains("items") || json.contains("data")))
            add(formats, Format::Bitwarden);
        if (json.contains("Authenticators"))
            add(formats, Format::AuthenticatorPro);
        if (json.contains("version") &&
            (json.contains("entries") || (json.contains("salt") && json.contains("content"))))
            add(formats, Format::ProtonAuthenticator);
        if (json.contains("accounts") && json.contains("folders") && json.contains("version"))
            add(formats, Format::LastPass);
        if (json.contains("kdfParams") && json.contains("encryptedData"))
            add(formats, Format::Ente);
        return;
    }
    if (json.is_array()) {
        const bool andOtpLike = std::all_of(json.begin(), json.end(), [](const Json& entry) {
            return entry.is_object() && entry.contains("secret") &&
                   (entry.contains("label") || entry.contains("type"));
        });
        if (andOtpLike)
            add(formats, Format::AndOtp);
        const bool raivoLike =
            !json.empty() && std::all_of(json.begin(), json.end(), [](const Json& entry) {
                return entry.is_object() && entry.contains("secret") && entry.contains("kind") &&
                       entry.contains("timer");
            });
        if (raivoLike)
            add(formats, Format::Raivo);
    }
}

} // namespace

std::string_view formatName(Format format)
{
    return namesOf(format).name;
}

std::string_view formatTitle(Format format)
{
    return namesOf(format).title;
}

std::optional<Format> formatNamed(std::string_view name)
{
    for (const auto& names : formatNames)
        if (names.name == name)
            return names.format;
    return std::nullopt;
}

bool isEncrypted(Format format, ByteView data)
{
    switch (format) {
    case Format::OtpauthList:
    case Format::GoogleMigration:
    case Format::FreeOtpPlus:
    case Format::Bitwarden:
    case Format::LastPass:
    case Format::KeePass:
        return false;
    case Format::Aegis:
        return detail::aegisEncrypted(data);
    case Format::TwoFas:
        return detail::twoFasEncrypted(data);
    case Format::AndOtp:
        return detail::andOtpEncrypted(data);
    case Format::FreeOtp:
        return detail::freeOtpEncrypted(data);
    case Format::AuthenticatorPro:
        return detail::authenticatorProEncrypted(data);
    case Format::WinAuth:
        return detail::winAuthEncrypted(data);
    case Format::Raivo:
        return detail::raivoEncrypted(data);
    case Format::Steam:
        return detail::steamEncrypted(data);
    case Format::GoogleAuthenticatorDb:
        return false;
    case Format::WatchwordBackup:
        return detail::watchwordBackupEncrypted(data);
    case Format::ProtonAuthenticator:
        return detail::protonAuthenticatorEncrypted(data);
    case Format::Ente:
        return detail::enteEncrypted(data);
    }
    return false;
}

namespace {

ImportResult<Imported> importAll(Format format, ByteView data, std::optional<ByteView> password,
                                 const CompanionFiles& companions)
{
    if (auto size = detail::checkSize(formatName(format), data); !size)
        return size.failure();
    if (data.empty())
        return fail(ImportError::Malformed,
                    std::string(formatName(format)) + ": the file is empty");
    switch (format) {
    case Format::OtpauthList:
        return detail::importOtpauthList(data);
    case Format::GoogleMigration:
        return detail::importGoogleMigration(data);
    case Format::Aegis:
        return detail::importAegis(data, password);
    case Format::TwoFas:
        return detail::importTwoFas(data, password);
    case Format::AndOtp:
        return detail::importAndOtp(data, password);
    case Format::FreeOtpPlus:
        return detail::importFreeOtpPlus(data);
    case Format::FreeOtp:
        return detail::importFreeOtp(data, password);
    case Format::Bitwarden:
        return detail::importBitwarden(data);
    case Format::AuthenticatorPro:
        return detail::importAuthenticatorPro(data, password);
    case Format::GoogleAuthenticatorDb:
        return detail::importGoogleAuthenticatorDb(data);
    case Format::WatchwordBackup:
        return detail::importWatchwordBackup(data, password);
    case Format::ProtonAuthenticator:
        return detail::importProtonAuthenticator(data, password);
    case Format::LastPass:
        return detail::importLastPass(data);
    case Format::Ente:
        return detail::importEnte(data, password);
    case Format::KeePass:
        return detail::importKeePass(data);
    case Format::Steam:
        return detail::importSteam(data, password, companions);
    case Format::WinAuth:
        return detail::importWinAuth(data, password);
    case Format::Raivo:
        return detail::importRaivo(data, password);
    }
    return fail(ImportError::Unsupported, "unknown import format");
}

} // namespace

ImportResult<Imported> importAccounts(Format format, ByteView data,
                                      std::optional<ByteView> password,
                                      UnreadableEntries unreadable,
                                      const CompanionFiles& companions)
{
    auto imported = importAll(format, data, password, companions);
    if (!imported || imported->skipped.empty() || unreadable == UnreadableEntries::Skip)
        return imported;
    const auto& skipped = imported->skipped;
    std::string message = skipped.front().reason;
    if (skipped.size() > 1)
        message += " (and " + std::to_string(skipped.size() - 1) + " more " +
                   (skipped.size() == 2 ? "entry" : "entries") + " that cannot be imported)";
    return fail(ImportError::InvalidEntry, std::move(message));
}

bool isPlainFileName(std::string_view name) noexcept
{
    return !name.empty() && name != "." && name != ".." &&
           name.find_first_of(std::string_view("/\\\0", 3)) == std::string_view::npos;
}

CompanionFiles companionFilesBeside(const std::string& path)
{
    const auto slash = path.rfind('/');
    const std::string folder =
        slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
    return [folder](std::string_view name) -> std::optional<SecureBuffer> {
        if (!isPlainFileName(name))
            return std::nullopt;
        std::string companion = folder;
        companion.append(name);
        auto read = readRegularFile(companion, maximumImportBytes);
        if (!read)
            return std::nullopt;
        return std::move(read).value();
    };
}

std::vector<Format> guessFormats(ByteView data)
{
    std::vector<Format> formats;
    if (data.empty() || data.size() > maximumImportBytes)
        return formats;
    if (detail::authenticatorProEncrypted(data)) {
        add(formats, Format::AuthenticatorPro);
        return formats;
    }
    // Watchword's own backup (docs/FORMAT.md section 10).
    if (detail::startsWith(data, "WWBACKUP")) {
        add(formats, Format::WatchwordBackup);
        return formats;
    }
    if (detail::startsWith(data, javaSerializationMagic)) {
        add(formats, Format::FreeOtp);
        return formats;
    }
    // An app's internal SQLite database: which app's, by its tables.
    if (detail::isSqlite(data)) {
        for (const auto format : detail::sqliteFormats(data))
            add(formats, format);
        return formats;
    }
    // A ZIP archive: whose, by its files (its directory read once).
    if (const auto files = detail::zipFiles(data)) {
        if (detail::isWinAuthArchive(*files))
            add(formats, Format::WinAuth);
        else if (detail::isRaivoArchive(*files))
            add(formats, Format::Raivo);
        return formats;
    }
    const std::string_view text = trimmedText(data);
    if (!detail::utf8Text(data, "").ok()) {
        if (looksLikeAndOtpBackup(data))
            add(formats, Format::AndOtp);
        return formats;
    }
    if (text.starts_with('{') || text.starts_with('[')) {
        try {
            guessJson(Json::parse(text.begin(), text.end()), formats);
        } catch (const Json::exception&) {
        }
        return formats;
    }
    if (text.starts_with("<?xml") || text.starts_with("<map") || text.starts_with("<KeePassFile")) {
        // FreeOTP 1.x and FreeOTP+ keep the same SharedPreferences file;
        // FreeOTP has no export of its own, so its file is the likelier one.
        if (text.find("<KeePassFile") != std::string_view::npos)
            add(formats, Format::KeePass);
        if (text.find("<map") != std::string_view::npos) {
            add(formats, Format::FreeOtp);
            add(formats, Format::FreeOtpPlus);
        }
        return formats;
    }
    const std::string_view line = firstContentLine(text);
    if (detail::startsWithFolded(line, "otpauth-migration://"))
        add(formats, Format::GoogleMigration);
    else if (detail::startsWithFolded(line, "otpauth://")) {
        // Ente Auth's export is such a list with its codeDisplay parameter;
        // without it (older exports) it reads as either.
        if (line.find("codeDisplay=") != std::string_view::npos)
            add(formats, Format::Ente);
        add(formats, Format::OtpauthList);
        add(formats, Format::Ente);
    } else if (line.find("login_totp") != std::string_view::npos)
        add(formats, Format::Bitwarden);
    else if (detail::looksLikeKeePassCsv(line))
        add(formats, Format::KeePass);
    return formats;
}

std::string_view describeUnrecognised(ByteView data)
{
    if (data.empty())
        return "empty";
    for (const auto& foreign : foreignMagic)
        if (detail::startsWith(data, foreign.magic))
            return foreign.description;
    if (detail::isSqlite(data))
        return "a SQLite database without the tables of Authenticator Pro or Google "
               "Authenticator";
    if (!detail::utf8Text(data, "").ok())
        return "binary data, perhaps encrypted";
    const std::string_view text = trimmedText(data);
    if (text.starts_with('{') || text.starts_with('['))
        return "JSON";
    if (text.starts_with('<'))
        return "XML or HTML";
    if (detail::looksLikeEncryptedMaFile(text))
        return "Base64 text, perhaps an encrypted Steam Desktop Authenticator .maFile: import "
               "the manifest.json of its folder instead, with the encryption password";
    return "text";
}

} // namespace watchword::importers
