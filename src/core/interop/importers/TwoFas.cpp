// 2FAS Authenticator's .2fas backup: JSON with "schemaVersion" 1 to 4 and
// the accounts in "services", or, when the backup has a password, in
// "servicesEncrypted" = Base64(ciphertext || tag) ":" Base64(salt) ":"
// Base64(IV): AES-256-GCM without associated data, under a key made by
// PBKDF2-HMAC-SHA256 (10,000 iterations) of the password and the salt.
//
// What each schema holds: 1 has only the secret and the names (every entry
// is TOTP, SHA-1, 6 digits, 30 s: nothing else was stored); 2 adds
// algorithm, digits and period, but no token type, so every entry is TOTP
// (2FAS 3.x showed HOTP accounts as TOTP too); 3 adds otp.tokenType (TOTP,
// HOTP, STEAM) and otp.counter; 4 adds otp.link, the otpauth URI the account
// came from, which repeats what the fields say and is not read.
#include "crypto/AesGcm.h"
#include "crypto/Kdf.h"
#include "interop/importers/Common.h"
#include "interop/importers/Formats.h"
#include "interop/importers/JsonFields.h"

#include <cstdint>
#include <limits>
#include <map>

namespace watchword::importers::detail {

namespace {

constexpr std::string_view formatLabel = "2fas";
constexpr int newestSchema = 4;
constexpr std::uint32_t kdfIterations = 10'000;
constexpr std::size_t keySize = 32;

// The services array out of "servicesEncrypted".
ImportResult<Json> decryptServices(const std::string& sealed, ByteView password)
{
    const auto first = sealed.find(':');
    const auto second = first == std::string::npos ? first : sealed.find(':', first + 1);
    if (second == std::string::npos || sealed.find(':', second + 1) != std::string::npos)
        return malformed(formatLabel, "\"servicesEncrypted\" is not ciphertext:salt:iv");
    const auto ciphertext = fromBase64(std::string_view(sealed).substr(0, first));
    const auto salt = fromBase64(std::string_view(sealed).substr(first + 1, second - first - 1));
    const auto iv = fromBase64(std::string_view(sealed).substr(second + 1));
    if (!ciphertext || !salt || !iv)
        return malformed(formatLabel, "\"servicesEncrypted\" is not Base64");
    // The key derivation's input, checked before it runs: 2FAS writes a
    // 256-byte salt and a 12-byte IV (the iteration count is the app's
    // constant, not the file's).
    if (auto bounded =
            checkSaltSize(formatLabel, "the salt of \"servicesEncrypted\"", salt->size());
        !bounded)
        return bounded.failure();
    if (iv->empty() || iv->size() > crypto::aesGcm::maximumIvSize)
        return outOfBounds(ImportError::Malformed, formatLabel, "the IV of \"servicesEncrypted\"",
                           std::to_string(iv->size()) + " bytes", 1, crypto::aesGcm::maximumIvSize);
    if (ciphertext->size() < crypto::aesGcm::tagSize)
        return malformed(formatLabel, "\"servicesEncrypted\" is too short to hold its tag");

    SecureBuffer key(keySize);
    if (auto derived = crypto::pbkdf2(crypto::HashAlgorithm::Sha256, password, *salt, kdfIterations,
                                      key.span());
        !derived)
        return derived.failure(ImportError::Unsupported, std::string(formatLabel) + ": ");
    auto plaintext =
        openWithPasswordKey(formatLabel, key, *iv, {}, *ciphertext, "the encrypted part");
    if (!plaintext)
        return plaintext.failure();
    // plaintext (a SecureBuffer) is wiped when it goes; the parsed JSON holds
    // its own copy of the secrets for as long as the import runs.
    auto services =
        parseJson(formatLabel, plaintext->view(), "the decrypted \"servicesEncrypted\"");
    if (!services)
        return services;
    if (!services->is_array())
        return malformed(formatLabel, "the decrypted \"servicesEncrypted\" is not an array");
    return services;
}

ImportResult<ImportedAccount> serviceAccount(std::size_t index, const Json& service, int schema,
                                             const std::map<std::string, std::string>& groups,
                                             encoding::Base32Tail tail)
{
    if (!service.is_object())
        return malformed(formatLabel, "entry " + std::to_string(index + 1) + " is not an object");
    static const Json emptyObject = Json::object();
    const Json* otpObject = optionalMember(service, "otp");
    if (otpObject && !otpObject->is_object())
        throw FieldError{"\"otp\" is not an object"};
    const Json& otp = otpObject ? *otpObject : emptyObject;

    EntryFields fields;
    // "name" is the service as the user named it in 2FAS (and what the list
    // shows); otp.issuer is what the QR code said.
    fields.issuer = stringMember(service, "name");
    if (fields.issuer.empty())
        fields.issuer = stringMember(otp, "issuer");
    fields.accountName = stringMember(otp, "account");
    // A service of an account without an issuer is named after the account
    // (2FAS needs a name): it has no issuer.
    if (fields.issuer == fields.accountName && stringMember(otp, "issuer").empty())
        fields.issuer.clear();
    const std::string where = entryLabel(formatLabel, index, fields.issuer, fields.accountName);

    const std::string type = schema >= 3 ? stringMember(otp, "tokenType") : std::string();
    if (type.empty() || type == "TOTP") {
        fields.parameters.kind = otp::OtpKind::Totp;
    } else if (type == "HOTP") {
        fields.parameters.kind = otp::OtpKind::Hotp;
    } else if (type == "STEAM") {
        fields.parameters = otp::OtpParameters::steam();
    } else {
        return fail(ImportError::InvalidEntry, where + ": unknown token type " + shownValue(type));
    }
    if (fields.parameters.kind != otp::OtpKind::Steam) {
        const std::string algorithm = stringMember(otp, "algorithm");
        if (auto applied = applyStoredCode(
                where, {algorithm, integerMember(otp, "digits"), integerMember(otp, "period")},
                fields.parameters);
            !applied)
            return applied.failure();
        if (fields.parameters.kind == otp::OtpKind::Hotp) {
            const auto counter = integerMember(otp, "counter").value_or(0);
            if (counter < 0)
                return fail(ImportError::InvalidEntry, where + ": negative counter");
            fields.parameters.counter = static_cast<std::uint64_t>(counter);
        }
    }

    auto secret = base32SecretMember(service, "secret", where, tail);
    if (!secret)
        return secret.failure();
    fields.secret = std::move(secret).value();

    if (const std::string group = stringMember(service, "groupId"); !group.empty())
        if (const auto it = groups.find(group); it != groups.end())
            fields.tags.push_back(it->second);
    return makeAccount(formatLabel, index, std::move(fields));
}

ImportResult<Imported> importParsed(const Json& root, Password password)
{
    if (!root.is_object())
        return malformed(formatLabel, "not a JSON object");
    const Json* version = optionalMember(root, "schemaVersion");
    if (!version || !version->is_number_integer())
        return malformed(formatLabel, "\"schemaVersion\" is missing or not an integer");
    const auto schema = version->get<std::int64_t>();
    if (schema < 1 || schema > newestSchema)
        return fail(ImportError::UnsupportedVersion,
                    std::string(formatLabel) + ": schema version " + std::to_string(schema) +
                        " (this build reads 1 to " + std::to_string(newestSchema) + ")");

    std::map<std::string, std::string> groups;
    if (const Json* list = optionalMember(root, "groups")) {
        if (!list->is_array())
            return malformed(formatLabel, "\"groups\" is not an array");
        for (const Json& group : *list) {
            if (!group.is_object())
                return malformed(formatLabel, "a group is not an object");
            groups.emplace(stringMember(group, "id"), stringMember(group, "name"));
        }
    }

    Json decrypted;
    const Json* services = nullptr;
    if (const Json* sealed = optionalMember(root, "servicesEncrypted")) {
        if (!sealed->is_string())
            return malformed(formatLabel, "\"servicesEncrypted\" is not a string");
        if (!password)
            return fail(ImportError::PasswordRequired,
                        std::string(formatLabel) + ": the backup is encrypted");
        auto opened = decryptServices(sealed->get_ref<const std::string&>(), *password);
        if (!opened)
            return opened.failure();
        decrypted = std::move(opened).value();
        services = &decrypted;
    } else {
        services = optionalMember(root, "services");
        if (!services || !services->is_array())
            return malformed(formatLabel, "\"services\" is missing or not an array");
    }
    if (auto counted = checkCount(formatLabel, services->size()); !counted)
        return counted.failure();

    // A secret whose last Base32 group has 1, 3 or 6 symbols (typed by
    // hand: 2FAS stores what was typed) is decoded as the app that wrote
    // the backup decodes it: 2FAS for Android drops the bits after the last
    // whole byte, 2FAS for iOS fills them with zero bits to one more byte.
    // A backup that does not say ("appOrigin" is new in schema 3) is taken
    // for Android's.
    const auto tail = stringMember(root, "appOrigin") == "ios" ? encoding::Base32Tail::ZeroFill
                                                               : encoding::Base32Tail::DropBits;
    Imported imported;
    imported.format = Format::TwoFas;
    for (std::size_t i = 0; i < services->size(); ++i) {
        if (auto kept =
                keep(imported, i,
                     serviceAccount(i, (*services)[i], static_cast<int>(schema), groups, tail));
            !kept)
            return kept.failure();
    }
    return imported;
}

} // namespace

ImportResult<Imported> importTwoFas(ByteView data, Password password)
{
    return importJsonFile(formatLabel, data, password, importParsed);
}

bool twoFasEncrypted(ByteView data)
{
    const auto root = jsonObjectOf(data);
    if (!root)
        return false;
    const auto it = root->find("servicesEncrypted");
    return it != root->end() && it->is_string();
}

} // namespace watchword::importers::detail
