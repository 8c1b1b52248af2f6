#include "interop/importers/FreeOtpToken.h"

#include "interop/importers/JsonFields.h"
#include "interop/importers/TextReaders.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>

namespace watchword::importers::detail {

namespace {

// Java's byte[] as Gson writes it: numbers -128..127.
std::optional<SecureBuffer> signedBytes(const Json& array)
{
    SecureBuffer bytes(array.size());
    for (std::size_t i = 0; i < array.size(); ++i) {
        const Json& value = array[i];
        if (!value.is_number_integer())
            return std::nullopt;
        const auto number = value.get<std::int64_t>();
        if (number < -128 || number > 127)
            return std::nullopt;
        bytes[i] = static_cast<std::uint8_t>(number & 0xff);
    }
    return bytes;
}

ImportResult<ImportedAccount> tokenAccount(std::string_view format, std::size_t index,
                                           const Json& token, std::optional<SecureBuffer> secret,
                                           std::vector<std::string>& warnings)
{
    if (!token.is_object())
        return fail(ImportError::Malformed, entryLabel(format, index, {}) + ": not a JSON object");

    EntryFields fields;
    // FreeOTP shows issuerAlt/labelAlt (the user's renaming) over the values
    // from the URI; issuerInt (the URI's issuer parameter) only when the
    // label had no issuer prefix.
    const std::string issuerAlt = stringMember(token, "issuerAlt");
    const std::string issuerExt = stringMember(token, "issuerExt");
    const std::string issuerInt = stringMember(token, "issuerInt");
    fields.issuer = !issuerAlt.empty() ? issuerAlt : !issuerExt.empty() ? issuerExt : issuerInt;
    const std::string labelAlt = stringMember(token, "labelAlt");
    fields.accountName = !labelAlt.empty() ? labelAlt : stringMember(token, "label");
    const std::string where = entryLabel(format, index, fields.issuer, fields.accountName);

    const std::string type = stringMember(token, "type");
    if (type.empty() || type == "TOTP")
        fields.parameters.kind = otp::OtpKind::Totp;
    else if (type == "HOTP")
        fields.parameters.kind = otp::OtpKind::Hotp;
    else
        return fail(ImportError::InvalidEntry, where + ": unknown token type " + shownValue(type));

    const std::string algo = stringMember(token, "algo");
    if (auto applied = applyStoredCode(
            where, {algo, integerMember(token, "digits"), integerMember(token, "period")},
            fields.parameters);
        !applied)
        return applied.failure();
    if (fields.parameters.kind == otp::OtpKind::Hotp) {
        // FreeOTP shows getHOTP(counter) and then counts up: the stored value
        // is the next counter, as Watchword keeps it, whatever it was made
        // from. (FreeOTP 1.x and FreeOTP+ store a URI's counter minus one, so
        // their files hold one less than the URI they were added from; taking
        // the stored value keeps the codes the app would have shown next,
        // which are the ones the server has seen.) A negative counter, which
        // that subtraction leaves for a URI with counter=0, goes into HMAC as
        // its 64-bit two's complement, so it is kept as that.
        const auto counter = integerMember(token, "counter").value_or(0);
        fields.parameters.counter = static_cast<std::uint64_t>(counter);
        if (counter < 0)
            warnings.push_back(where + ": negative counter " + std::to_string(counter) +
                               " kept as FreeOTP computes it");
    }
    // Steam: FreeOTP draws Steam's letters when the label's issuer prefix is
    // "Steam".
    if (issuerExt == "Steam" && fields.parameters.kind == otp::OtpKind::Totp)
        fields.parameters = otp::OtpParameters::steam();

    if (secret) {
        fields.secret = std::move(*secret);
    } else {
        const auto it = token.find("secret");
        if (it == token.end() || it->is_null())
            return fail(ImportError::InvalidEntry, where + ": no secret");
        if (it->is_string()) {
            auto decoded = secretFromBase32(where, it->get_ref<const std::string&>());
            if (!decoded)
                return decoded.failure();
            fields.secret = std::move(decoded).value();
        } else if (it->is_array()) {
            auto bytes = signedBytes(*it);
            if (!bytes)
                return fail(ImportError::InvalidEntry,
                            where + ": the secret is not an array of bytes (-128 to 127)");
            fields.secret = std::move(*bytes);
        } else {
            throw FieldError{"\"secret\" is neither a byte array nor a string"};
        }
    }
    return makeAccount(format, index, std::move(fields));
}

} // namespace

ImportResult<ImportedAccount> freeOtpTokenAccount(std::string_view format, std::size_t index,
                                                  const nlohmann::json& token,
                                                  std::optional<SecureBuffer> secret,
                                                  std::vector<std::string>& warnings)
{
    return catchFieldErrors<ImportedAccount>(
        std::string(format) + ": entry " + std::to_string(index + 1),
        [&] { return tokenAccount(format, index, token, std::move(secret), warnings); });
}

ImportResult<std::vector<std::pair<std::string, std::string>>>
readSharedPreferences(std::string_view format, std::string_view text)
{
    const std::string name(format);
    pugi::xml_document document;
    const auto parsedRoot = parseXmlRoot(format, text, document);
    if (!parsedRoot)
        return parsedRoot.failure();
    const pugi::xml_node root = *parsedRoot;
    if (std::string_view(root.name()) != "map")
        return fail(ImportError::Malformed, name + ": the XML is not a <map> of preferences");

    std::vector<std::pair<std::string, std::string>> pairs;
    for (const pugi::xml_node node : root.children()) {
        if (node.type() != pugi::node_element)
            continue;
        // Android stores other preference kinds as <int>, <boolean>, ...;
        // FreeOTP keeps everything it needs in strings.
        if (std::string_view(node.name()) != "string")
            continue;
        const pugi::xml_attribute key = node.attribute("name");
        if (!key)
            return fail(ImportError::Malformed, name + ": a <string> without a name");
        if (node.find_child(
                [](const pugi::xml_node child) { return child.type() == pugi::node_element; }))
            return fail(ImportError::Malformed, name + ": a <string> holds elements");
        pairs.emplace_back(key.value(), node.text().get());
        if (pairs.size() > maximumImportedAccounts + 1)
            return fail(ImportError::TooLarge, name + ": more than " +
                                                   std::to_string(maximumImportedAccounts) +
                                                   " accounts");
    }
    return pairs;
}

ImportResult<Imported>
importFreeOtpPreferences(Format format, std::string_view formatName,
                         const std::vector<std::pair<std::string, std::string>>& pairs)
{
    const std::string name(formatName);
    Imported imported;
    imported.format = format;

    std::map<std::string, std::size_t> rank;
    for (const auto& [key, value] : pairs) {
        if (key != "tokenOrder")
            continue;
        const Json order = Json::parse(value, nullptr, /*allow_exceptions=*/false);
        if (!order.is_array())
            return fail(ImportError::Malformed, name + ": \"tokenOrder\" is not a JSON array");
        for (const Json& id : order)
            if (id.is_string())
                rank.emplace(id.get<std::string>(), rank.size());
    }

    // Tokens in the order the app listed them; those "tokenOrder" leaves
    // out after them, as the file has them.
    std::vector<const std::pair<std::string, std::string>*> tokens;
    for (const auto& pair : pairs)
        if (pair.first != "tokenOrder")
            tokens.push_back(&pair);
    std::stable_sort(tokens.begin(), tokens.end(), [&](const auto* a, const auto* b) {
        const auto ra = rank.find(a->first);
        const auto rb = rank.find(b->first);
        const std::size_t x = ra == rank.end() ? rank.size() : ra->second;
        const std::size_t y = rb == rank.end() ? rank.size() : rb->second;
        return x < y;
    });
    if (auto counted = checkCount(formatName, tokens.size()); !counted)
        return counted.failure();

    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const Json token = Json::parse(tokens[i]->second, nullptr, /*allow_exceptions=*/false);
        if (token.is_discarded() || !token.is_object())
            return fail(ImportError::Malformed,
                        name + ": entry " + std::to_string(i + 1) + ": not a token JSON object");
        if (auto kept =
                keep(imported, i,
                     freeOtpTokenAccount(formatName, i, token, std::nullopt, imported.warnings));
            !kept)
            return kept.failure();
    }
    return imported;
}

bool looksLikeSharedPreferences(std::string_view text)
{
    auto skipBlanks = [&] {
        while (!text.empty() && (text.front() == ' ' || text.front() == '\n' ||
                                 text.front() == '\r' || text.front() == '\t'))
            text.remove_prefix(1);
    };
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    skipBlanks();
    if (text.starts_with("<?xml")) {
        const auto end = text.find("?>");
        if (end == std::string_view::npos)
            return false;
        text.remove_prefix(end + 2);
        skipBlanks();
    }
    return text.starts_with("<map>") || text.starts_with("<map ") || text.starts_with("<map/>");
}

} // namespace watchword::importers::detail
