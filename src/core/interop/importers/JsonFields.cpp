#include "interop/importers/JsonFields.h"

#include <limits>

namespace watchword::importers::detail {

Failure<Error<ImportError>> malformed(std::string_view format, const std::string& what)
{
    return fail(ImportError::Malformed, std::string(format) + ": " + what);
}

const Json* optionalMember(const Json& object, const char* key)
{
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return nullptr;
    return &*it;
}

const Json& requiredMember(const Json& object, const char* key, const std::string& where)
{
    const Json* value = optionalMember(object, key);
    if (!value)
        throw FieldError{where + "\"" + key + "\" is missing"};
    return *value;
}

std::string stringMember(const Json& object, const char* key)
{
    const Json* value = optionalMember(object, key);
    if (!value)
        return {};
    if (!value->is_string())
        throw FieldError{std::string("\"") + key + "\" is not a string"};
    return value->get<std::string>();
}

std::optional<std::uint64_t> unsignedMember(const Json& object, const char* key,
                                            const std::string& where)
{
    const Json* value = optionalMember(object, key);
    if (!value)
        return std::nullopt;
    // nlohmann keeps every non-negative integer it parses as unsigned.
    if (!value->is_number_unsigned())
        throw FieldError{where + "\"" + key + "\" is not a non-negative integer"};
    return value->get<std::uint64_t>();
}

std::optional<std::int64_t> integerMember(const Json& object, const char* key)
{
    const Json* value = optionalMember(object, key);
    if (!value)
        return std::nullopt;
    if (!value->is_number_integer())
        throw FieldError{std::string("\"") + key + "\" is not an integer"};
    if (value->is_number_unsigned() &&
        value->get<std::uint64_t>() >
            static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        throw FieldError{std::string("\"") + key + "\" is out of range"};
    return value->get<std::int64_t>();
}

ImportResult<SecureBuffer> base32SecretMember(const Json& object, const char* key,
                                              const std::string& entry, encoding::Base32Tail tail)
{
    const Json* secret = optionalMember(object, key);
    if (!secret || !secret->is_string())
        return fail(ImportError::InvalidEntry, entry + ": no secret");
    return secretFromBase32(entry, secret->get_ref<const std::string&>(), tail);
}

ImportResult<Json> parseJson(std::string_view format, std::string_view text,
                             const std::string& what)
{
    try {
        return Json::parse(text);
    } catch (const Json::exception& error) {
        return malformed(format, what + " is not JSON (" + error.what() + ")");
    }
}

std::optional<Json> jsonObjectOf(ByteView data)
{
    if (data.size() > maximumImportBytes)
        return std::nullopt;
    Json root = Json::parse(asText(data), nullptr, /*allow_exceptions=*/false);
    if (!root.is_object())
        return std::nullopt;
    return root;
}

ImportResult<Imported>
importJsonFile(std::string_view format, ByteView data, Password password,
               const std::function<ImportResult<Imported>(const Json&, Password)>& importParsed)
{
    if (auto sized = checkSize(format, data); !sized)
        return sized.failure();
    const auto text = utf8Text(data, format);
    if (!text)
        return text.failure();
    auto root = parseJson(format, *text, "the file");
    if (!root)
        return root.failure();
    return catchFieldErrors<Imported>(format, [&] { return importParsed(*root, password); });
}

} // namespace watchword::importers::detail
