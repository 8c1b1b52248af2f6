// The per-format importers behind importers::importAccounts (Import.cpp
// dispatches). Each reads the whole of data; password is used only by
// encrypted variants. Internal to importers/.
#pragma once

#include "interop/importers/Import.h"

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <vector>

namespace watchword::importers::detail {

struct ZipFile; // importers/ZipArchive.h

using Password = std::optional<ByteView>;

[[nodiscard]] ImportResult<Imported> importOtpauthList(ByteView data);
// A text of otpauth:// URIs, one a line, read as importOtpauthList does,
// errors named by format, the result's format source.
[[nodiscard]] ImportResult<Imported> importUriLines(std::string_view format, Format source,
                                                    ByteView data);
[[nodiscard]] ImportResult<Imported> importGoogleMigration(ByteView data);
[[nodiscard]] ImportResult<Imported> importBitwarden(ByteView data); // JSON or CSV
[[nodiscard]] ImportResult<Imported> importLastPass(ByteView data);

[[nodiscard]] ImportResult<Imported> importAegis(ByteView data, Password password);
bool aegisEncrypted(ByteView data);
[[nodiscard]] ImportResult<Imported> importAndOtp(ByteView data, Password password);
bool andOtpEncrypted(ByteView data);

[[nodiscard]] ImportResult<Imported> importTwoFas(ByteView data, Password password);
bool twoFasEncrypted(ByteView data);
[[nodiscard]] ImportResult<Imported> importFreeOtpPlus(ByteView data); // JSON or XML
[[nodiscard]] ImportResult<Imported> importFreeOtp(ByteView data, Password password);
bool freeOtpEncrypted(ByteView data);

// Authenticator Pro / Stratum: plain JSON, encrypted (Argon2id + AES-GCM),
// legacy encrypted (PBKDF2 + AES-CBC), or the app's internal SQLite database.
[[nodiscard]] ImportResult<Imported> importAuthenticatorPro(ByteView data, Password password);
bool authenticatorProEncrypted(ByteView data);
// Google Authenticator's internal SQLite database (databases/databases).
[[nodiscard]] ImportResult<Imported> importGoogleAuthenticatorDb(ByteView data);
// Proton Authenticator's export, plain or encrypted (Argon2id + AES-GCM).
[[nodiscard]] ImportResult<Imported> importProtonAuthenticator(ByteView data, Password password);
bool protonAuthenticatorEncrypted(ByteView data);
// Ente Auth's export: otpauth URIs, plain or in its encrypted JSON (Argon2id
// + libsodium's XChaCha20-Poly1305 secretstream).
[[nodiscard]] ImportResult<Imported> importEnte(ByteView data, Password password);
bool enteEncrypted(ByteView data);
// KeePassXC's CSV export or a KeePass / KeePassXC XML export: the entries
// with one-time-password fields.
[[nodiscard]] ImportResult<Imported> importKeePass(ByteView data);
// Whether a CSV file's first line is KeePassXC's export header.
bool looksLikeKeePassCsv(std::string_view firstLine);
// A Steam Desktop Authenticator .maFile or the Steam app's Steamguard file:
// Steam Guard accounts from their Base64 shared_secret.
[[nodiscard]] ImportResult<Imported> importSteam(ByteView data, Password password,
                                                 const CompanionFiles& companions);
// Whether data is a manifest.json whose .maFiles are encrypted.
bool steamEncrypted(ByteView data);
// What a JSON document is to the Steam importer: an account or the Steam
// app's accounts (it reads them), a manifest of Steam Desktop Authenticator
// or steamguard-cli (it names the .maFile to import instead), or neither.
enum class SteamJson { None, Accounts, Manifest };
SteamJson steamJsonKind(const nlohmann::json& root);
// Whether text is nothing but one run of Base64 of at least a few AES
// blocks: what an encrypted .maFile holds.
bool looksLikeEncryptedMaFile(std::string_view text);
// WinAuth's export: otpauth URIs, as text or the one file of a ZIP archive
// (password-encrypted, or not).
[[nodiscard]] ImportResult<Imported> importWinAuth(ByteView data, Password password);
bool winAuthEncrypted(ByteView data);
// The files of a ZIP archive (importers/ZipArchive.h's zipFiles): WinAuth's
// (and Authenticator Plus's) is one .txt.
bool isWinAuthArchive(const std::vector<ZipFile>& files);
// Raivo OTP's export: its ZIP archive (password-encrypted) or the
// raivo-otp-export.json in it.
[[nodiscard]] ImportResult<Imported> importRaivo(ByteView data, Password password);
bool raivoEncrypted(ByteView data);
// The files of a ZIP archive: Raivo's holds raivo-otp-export.json.
bool isRaivoArchive(const std::vector<ZipFile>& files);
// Watchword's own backup (docs/FORMAT.md section 10); always encrypted.
[[nodiscard]] ImportResult<Imported> importWatchwordBackup(ByteView data, Password password);
bool watchwordBackupEncrypted(ByteView data);

} // namespace watchword::importers::detail
