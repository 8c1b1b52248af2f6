// Accounts taken out of the vault: to a Watchword backup, to Aegis (so a
// phone can take them over), to a plain otpauth:// list, and to Google
// Authenticator's transfer URIs (one QR code each). Every format written here
// reads back through importers::importAccounts to the same accounts
// (tests/core/exporters check it for each one).
//
// Formats are specified in docs/FORMAT.md sections 9 (the other apps' files)
// and 10 (the Watchword backup). The output holds every secret, in clear for
// the plaintext formats: it is returned in a SecureBuffer and never logged.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"
#include "crypto/Random.h"
#include "vault/Records.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::exporters {

enum class ExportFormat {
    WatchwordBackup, // encrypted with its own password (FORMAT.md section 10)
    Aegis,           // Aegis JSON, plain (every secret readable)
    AegisEncrypted,  // Aegis JSON encrypted with a password (scrypt + AES-256-GCM)
    OtpauthList,     // otpauth:// URIs, one per line (every secret readable)
    GoogleMigration, // otpauth-migration:// URIs, one per line, one QR code each
    TwoFas,          // 2FAS's plain backup (.2fas JSON, schema 4)
    Ente,            // Ente Auth's plain export (otpauth URIs with its codeDisplay)
};

inline constexpr std::array<ExportFormat, 7> allExportFormats = {ExportFormat::WatchwordBackup,
                                                                 ExportFormat::Aegis,
                                                                 ExportFormat::AegisEncrypted,
                                                                 ExportFormat::OtpauthList,
                                                                 ExportFormat::GoogleMigration,
                                                                 ExportFormat::TwoFas,
                                                                 ExportFormat::Ente};

// "watchword-backup", "aegis", "aegis-encrypted", "otpauth", "google-migration",
// "2fas", "ente": the names the CLI's --to takes.
std::string_view exportFormatName(ExportFormat format);
// "Watchword backup", "Aegis (plain)", ...: as the app names the target.
std::string_view exportFormatTitle(ExportFormat format);
std::optional<ExportFormat> exportFormatNamed(std::string_view name);
// Whether the format is encrypted with a password (ExportOptions::password).
bool exportNeedsPassword(ExportFormat format);
// Whether the output holds the secrets in clear: the app and the CLI warn
// before writing one and write the file 0600.
bool exportIsPlaintext(ExportFormat format);

enum class ExportError {
    NothingToExport,  // no accounts given
    PasswordRequired, // an encrypted format without a password (or an empty one)
    NotRepresentable, // the backup cannot hold an account, or another format none (names one)
    KdfOutOfBounds,   // backupIterations outside the bounds of section 10
    CryptoDisabled,   // the start-up self-test failed
};

template <typename T> using ExportResult = Result<T, Error<ExportError>>;

struct ExportOptions
{
    // The file's password (UTF-8) for the encrypted formats; ignored otherwise.
    std::optional<ByteView> password;
    // PBKDF2-HMAC-SHA256 iterations for WatchwordBackup: calibrated by the
    // caller (vault::calibratePasswordKdf) and never below the vault's floor.
    std::uint32_t backupIterations = 0;
    // Unix seconds written as the backup's creation time.
    std::int64_t now = 0;
};

struct Exported
{
    SecureBuffer data; // the whole file
    // Accounts the format had to change or leave out ("entry 3, Steam: the
    // Google transfer has no Steam codes; left out"), in order; never a
    // secret. Empty when every account went out as it is.
    std::vector<std::string> warnings;
};

// Writes accounts (in the order given) as format. Random bytes (salts, keys,
// nonces, ids) come from random. An account the format cannot hold is left
// out with a warning naming it (Aegis, the otpauth list, the Google
// transfer), and the export fails only if none is left; the Watchword
// backup, which holds everything a vault does, fails on any account it
// cannot store.
[[nodiscard]] ExportResult<Exported> exportAccounts(ExportFormat format,
                                                    std::span<const vault::OtpAccount> accounts,
                                                    const ExportOptions& options,
                                                    crypto::RandomSource& random);

// The canonical otpauth:// URI of one account (for its QR code).
[[nodiscard]] ExportResult<SecureBuffer> otpauthUriOf(const vault::OtpAccount& account);

// Google Authenticator transfer URIs for accounts, at most accountsPerCode
// accounts in each (Google's app puts about 10 in one code), with the batch
// size, index and a shared batch id set so that the phone takes them as one
// transfer. Accounts the transfer cannot hold (Steam, other than 6 or 8
// digits, a period other than 30 s) are left out, each with a warning.
struct MigrationCodes
{
    std::vector<SecureBuffer> uris;
    std::vector<std::string> warnings;
};
inline constexpr std::size_t defaultAccountsPerMigrationCode = 10;
[[nodiscard]] ExportResult<MigrationCodes>
googleMigrationUris(std::span<const vault::OtpAccount> accounts, crypto::RandomSource& random,
                    std::size_t accountsPerCode = defaultAccountsPerMigrationCode);

} // namespace watchword::exporters
