// The per-format importers behind importers::importAccounts (Import.cpp
// dispatches). Each reads the whole of data; password is used only by
// encrypted variants. Internal to importers/.
#pragma once

#include "importers/Import.h"

#include <optional>

namespace watchword::importers::detail {

using Password = std::optional<ByteView>;

[[nodiscard]] ImportResult<Imported> importOtpauthList(ByteView data);
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
// Watchword's own backup (docs/FORMAT.md section 10); always encrypted.
[[nodiscard]] ImportResult<Imported> importWatchwordBackup(ByteView data, Password password);
bool watchwordBackupEncrypted(ByteView data);

} // namespace watchword::importers::detail
