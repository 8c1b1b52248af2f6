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

[[nodiscard]] ImportResult<Imported> importAegis(ByteView data, Password password);
bool aegisEncrypted(ByteView data);
[[nodiscard]] ImportResult<Imported> importAndOtp(ByteView data, Password password);
bool andOtpEncrypted(ByteView data);

[[nodiscard]] ImportResult<Imported> importTwoFas(ByteView data, Password password);
bool twoFasEncrypted(ByteView data);
[[nodiscard]] ImportResult<Imported> importFreeOtpPlus(ByteView data); // JSON or XML
[[nodiscard]] ImportResult<Imported> importFreeOtp(ByteView data, Password password);
bool freeOtpEncrypted(ByteView data);

} // namespace watchword::importers::detail
