// What FreeOTP and FreeOTP+ share: the token JSON both keep (one object per
// account, written by Gson from FreeOTP's Token class) and the Android
// SharedPreferences XML both keep it in. Internal to importers/.
#pragma once

#include "interop/importers/Common.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace watchword::importers::detail {

// A token object as an account. secret: the key when the caller already has
// it (FreeOTP 2 keeps it apart, encrypted); otherwise the token's "secret"
// (an array of Java's signed bytes) is read. Fields the token leaves out take
// FreeOTP's defaults (TOTP, SHA1, 6 digits, 30 s). A field of the wrong JSON
// type is Malformed; values no code can come from are InvalidEntry.
// warnings: where a note about the entry goes.
[[nodiscard]] ImportResult<ImportedAccount>
freeOtpTokenAccount(std::string_view format, std::size_t index, const nlohmann::json& token,
                    std::optional<SecureBuffer> secret, std::vector<std::string>& warnings);

// Android SharedPreferences XML: <map> with one <string name="...">text</string>
// per key. Gives the (name, text) pairs in document order. Malformed if text
// is not such a file; a DOCTYPE is refused (TextReaders.h).
[[nodiscard]] ImportResult<std::vector<std::pair<std::string, std::string>>>
readSharedPreferences(std::string_view format, std::string_view text);

// Reads the pairs of a FreeOTP SharedPreferences file ("tokenOrder" and one
// token JSON per other key) into accounts, in the order "tokenOrder" gives
// (the order the app showed); tokens it does not name follow in file order.
[[nodiscard]] ImportResult<Imported>
importFreeOtpPreferences(Format format, std::string_view formatName,
                         const std::vector<std::pair<std::string, std::string>>& pairs);

// True if text looks like a SharedPreferences file (after an XML declaration
// and blanks, the <map> element starts).
bool looksLikeSharedPreferences(std::string_view text);

} // namespace watchword::importers::detail
