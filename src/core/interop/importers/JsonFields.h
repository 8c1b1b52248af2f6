// Reading the JSON that Aegis, andOTP, 2FAS and FreeOTP write: members that
// may be absent or null, of one expected type, with a FieldError for a
// member of the wrong type. Internal to importers/.
#pragma once

#include "interop/importers/Common.h"
#include "interop/importers/Formats.h"

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace watchword::importers::detail {

using Json = nlohmann::json;

// A field of the wrong JSON type: not what the source app writes. Thrown by
// the member readers below and turned into Malformed where an import starts
// (catchFieldErrors).
struct FieldError
{
    std::string message;
};

// The error for a file that is not what the format's app writes:
// malformed("aegis", "db.entries is missing") reads "aegis: db.entries is
// missing".
Failure<Error<ImportError>> malformed(std::string_view format, const std::string& what);

// The member key of object; nullptr if it is absent or null.
const Json* optionalMember(const Json& object, const char* key);

// The member key of object; FieldError "<where>"key" is missing" if absent.
const Json& requiredMember(const Json& object, const char* key, const std::string& where);

// A string member; empty if absent.
std::string stringMember(const Json& object, const char* key);

// A non-negative integer member; nullopt if absent. where prefixes the
// FieldError's message.
std::optional<std::uint64_t> unsignedMember(const Json& object, const char* key,
                                            const std::string& where = {});

// An integer member that fits in int64; nullopt if absent.
std::optional<std::int64_t> integerMember(const Json& object, const char* key);

// An entry's Base32 secret member (secretFromBase32, with tail); InvalidEntry
// "<entry>: no secret" if it is absent or not a string, secretFromBase32's
// error if it does not decode.
[[nodiscard]] ImportResult<SecureBuffer>
base32SecretMember(const Json& object, const char* key, const std::string& entry,
                   encoding::Base32Tail tail = encoding::Base32Tail::Refuse);

// text parsed; Malformed "<format>: <what> is not JSON (...)" if it is not.
ImportResult<Json> parseJson(std::string_view format, std::string_view text,
                             const std::string& what);

// data as a JSON object without throwing; nullopt if data is over
// maximumImportBytes or not a JSON object. For the quick "is it encrypted"
// checks, which must not fail.
std::optional<Json> jsonObjectOf(ByteView data);

// body(), with a FieldError or a JSON error (of type, or of parsing an
// embedded JSON text) thrown in it answered as Malformed, naming format
// (which may name an entry too: "freeotp: entry 3").
template <typename T, typename Body>
ImportResult<T> catchFieldErrors(std::string_view format, Body&& body)
{
    try {
        return body();
    } catch (const FieldError& error) {
        return malformed(format, error.message);
    } catch (const Json::exception& error) {
        return malformed(format,
                         std::string("a value is not what the app writes (") + error.what() + ")");
    }
}

// A JSON file's import: the size bound, UTF-8, parsing, then importParsed
// on the root, its FieldErrors answered as Malformed.
ImportResult<Imported>
importJsonFile(std::string_view format, ByteView data, Password password,
               const std::function<ImportResult<Imported>(const Json&, Password)>& importParsed);

} // namespace watchword::importers::detail
