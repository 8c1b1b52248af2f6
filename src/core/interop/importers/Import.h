// Accounts brought in from other authenticator apps: one module per format
// (importers/<Format>.cpp), all answering in the same terms. An import reads
// a whole file (or pasted text) that the caller has already loaded, with the
// file's password if it is encrypted, and gives back the accounts it holds
// or one error saying what is wrong; it never touches a vault (the caller
// shows a preview and adds the accounts only on confirmation).
//
// Formats and their quirks are specified in docs/FORMAT.md section 9.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"
#include "interop/Limits.h"
#include "otp/OtpParameters.h"

#include <array>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::importers {

enum class Format {
    OtpauthList,           // otpauth:// URIs, one per line
    GoogleMigration,       // otpauth-migration://offline?data=... (Google Authenticator's transfer)
    Aegis,                 // Aegis vault/export JSON, plain or password-encrypted
    TwoFas,                // 2FAS .2fas backup, plain or encrypted
    AndOtp,                // andOTP JSON, or its encrypted .bin (current and old)
    FreeOtpPlus,           // FreeOTP+ JSON export, or its SharedPreferences XML
    FreeOtp,               // FreeOTP 1.x SharedPreferences XML, or a 2.x encrypted backup
    Bitwarden,             // Bitwarden unencrypted JSON or CSV export
    AuthenticatorPro,      // Authenticator Pro / Stratum backup (plain, encrypted, legacy) or its
                           // database
    GoogleAuthenticatorDb, // Google Authenticator's own SQLite database (rooted phones)
    WatchwordBackup,       // Watchword's own encrypted backup (docs/FORMAT.md section 10)
    ProtonAuthenticator,   // Proton Authenticator's export, plain or password-encrypted
    LastPass,              // LastPass Authenticator's export (JSON)
    Ente,                  // Ente Auth's export: otpauth URIs, plain or password-encrypted
    KeePass,               // KeePassXC's CSV export, or a KeePass / KeePassXC XML export
    Steam,   // a Steam Desktop Authenticator .maFile, or the Steam app's Steamguard file
    WinAuth, // WinAuth's text export, or its ZIP archive (password-encrypted)
    Raivo,   // Raivo OTP's ZIP export (password-encrypted), or the JSON in it
};

inline constexpr std::array<Format, 18> allFormats = {Format::OtpauthList,
                                                      Format::GoogleMigration,
                                                      Format::Aegis,
                                                      Format::TwoFas,
                                                      Format::AndOtp,
                                                      Format::FreeOtpPlus,
                                                      Format::FreeOtp,
                                                      Format::Bitwarden,
                                                      Format::AuthenticatorPro,
                                                      Format::GoogleAuthenticatorDb,
                                                      Format::WatchwordBackup,
                                                      Format::ProtonAuthenticator,
                                                      Format::LastPass,
                                                      Format::Ente,
                                                      Format::KeePass,
                                                      Format::Steam,
                                                      Format::WinAuth,
                                                      Format::Raivo};

// "otpauth", "google-migration", "aegis", "2fas", "andotp", "freeotp-plus",
// "freeotp", "bitwarden", "authenticator-pro", "google-authenticator-db",
// "watchword-backup", "proton-authenticator", "lastpass", "ente", "keepass", "steam", "winauth",
// "raivo": the names the CLI's --from takes.
std::string_view formatName(Format format);
// "Aegis", "2FAS", ...: as the app names the source.
std::string_view formatTitle(Format format);
std::optional<Format> formatNamed(std::string_view name);

enum class ImportError {
    Malformed,          // not this format, or damaged: names where
    UnsupportedVersion, // the format's own version field says one we do not read
    PasswordRequired,   // the file is encrypted and no password was given
    WrongPassword,      // the password does not open it (or its tag does not verify)
    InvalidEntry,       // an entry whose secret or parameters no code can come from
    TooLarge,           // over maximumImportBytes or maximumImportedAccounts
    Unsupported,        // a variant of the format this build does not read (says which)
};

template <typename T> using ImportResult = Result<T, Error<ImportError>>;

// The shared bounds (interop/Limits.h), by their importer names.
using interop::maximumImportBytes;
using interop::maximumImportedAccounts;

// One account as the source app stored it, normalised to what Watchword
// keeps: issuer and account name as UTF-8 text, the raw secret, the code's
// parameters (validated by otp::validate), and what else the source had that
// Watchword has a place for.
struct ImportedAccount
{
    std::string issuer;
    std::string accountName;
    SecureBuffer secret;
    otp::OtpParameters parameters;
    std::vector<std::string> tags; // the source's groups or tags
    std::string note;
};

// An entry of the file that cannot become an account (an mOTP or Yandex
// entry, an algorithm Watchword has no code for, a secret that does not
// decode): where it is and why, never its secret.
struct SkippedEntry
{
    std::size_t entry = 0; // position in the file's list of entries, from 0
    // "2fas: entry 3 (Example: alice@example.com): unsupported algorithm
    // \"SHA384\" (...)": the entry named as every importer error names it.
    std::string reason;
    // The parts of reason: the entry's names as it shows them ("Example:
    // alice@example.com"; empty if the entry has none that can be shown)
    // and why it cannot be imported ("unsupported algorithm ...").
    std::string name;
    std::string why;
};

struct Imported
{
    Format format = Format::OtpauthList;
    std::vector<ImportedAccount> accounts;
    // What was read but could not be kept as it was ("entry 3: icon
    // dropped"), in order; never a secret.
    std::vector<std::string> warnings;
    // Entries left out, in file order: only with UnreadableEntries::Skip
    // (with Refuse the first one fails the import).
    std::vector<SkippedEntry> skipped;
};

// What an entry that cannot become an account does to the import.
enum class UnreadableEntries {
    Refuse, // the import fails (InvalidEntry naming the entry): nothing by halves
    Skip,   // the entry is listed in Imported::skipped and the rest are read; for
            // a caller that shows the list and asks before it adds the rest
};

// The files beside the imported one, for a format whose export is a folder
// (Steam Desktop Authenticator's manifest.json names each account's
// .maFile): the file called name in the same folder, or nullopt if there is
// none or it cannot be read. name is the file's own; a name that is not a
// plain file name (a path, "..") is never looked up.
using CompanionFiles = std::function<std::optional<SecureBuffer>(std::string_view name)>;
// The regular files in the folder of path, each read whole into wiped memory
// (at most maximumImportBytes; a FIFO or a device is refused, not waited on).
CompanionFiles companionFilesBeside(const std::string& path);
// Whether name is a plain file name: not empty, not "." or "..", no '/',
// '\\' or NUL.
bool isPlainFileName(std::string_view name) noexcept;

// Whether data, read as format, is encrypted (so a password is needed).
// False for data that is not of that format at all: import() says why.
bool isEncrypted(Format format, ByteView data);

// Reads data as format. password: the file's password as the user typed it
// (UTF-8), used only if the file is encrypted. An entry that cannot become
// an account (InvalidEntry: an unsupported kind or algorithm, a secret that
// does not decode, parameters no code comes from) fails the whole import,
// naming the entry by position, issuer and name and the value refused, never
// by its secret; with UnreadableEntries::Skip it is listed in
// Imported::skipped instead and the other entries are read. A file that is
// damaged or not of the format fails whole either way. companions: the
// files beside data's, for the formats that read them (Steam); without,
// those refuse a file that needs them and say which file to import instead.
[[nodiscard]] ImportResult<Imported>
importAccounts(Format format, ByteView data, std::optional<ByteView> password = {},
               UnreadableEntries unreadable = UnreadableEntries::Refuse,
               const CompanionFiles& companions = {});

// The formats data could be, most likely first (from its first bytes and
// structure); empty if none. For the app's "Import..." to preselect, and
// the CLI's --from auto. A file of a kind no format here has (a ZIP
// archive, an encrypted database, a PDF) is none: an encrypted andOTP
// backup, which has no magic, is guessed only when its first four bytes are
// a plausible PBKDF2 iteration count (the current layout) or its size could
// not be a database's (the old layout).
std::vector<Format> guessFormats(ByteView data);

// What data is, for a message when guessFormats finds nothing: "a ZIP
// archive", "a SQLite database without the tables of Authenticator Pro or
// Google Authenticator", "binary data", "JSON", "XML", "text", "empty".
std::string_view describeUnrecognised(ByteView data);

} // namespace watchword::importers
