// andOTP's backups: a plain JSON array of entries, or that array encrypted
// with AES-256-GCM (no associated data) in one of two binary layouts.
//
// Current: iterations (uint32, big-endian) | salt (12) | nonce (12) |
// ciphertext | tag (16), under PBKDF2-HMAC-SHA1(password, salt, iterations)
// of 32 bytes. Old (before andOTP 0.6.3): nonce (12) | ciphertext | tag (16)
// under SHA-256(password), a key with no salt or stretching. Nothing in the
// file says which it is, so the current layout is tried first and the old
// one after it, as andOTP itself and Aegis do; the password is wrong only if
// neither opens. An iteration count outside 1 to maximumPbkdf2Iterations
// rules the current layout out before any key work; if the old one does not
// open either, the count is the error (Malformed for 0, Unsupported above),
// since such a file is no current backup this build opens.
//
// Entries: "secret" (Base32, padded), "issuer", "label", "type" (TOTP, HOTP,
// STEAM; andOTP's MOTP needs a PIN and fails the import as an invalid
// entry), "algorithm", "digits", "period" or "counter", and "tags". Old
// backups have no "issuer": their label reads "<issuer> - <issuer>:<name>"
// and is split back into the two.
#include "crypto/AesGcm.h"
#include "crypto/Hash.h"
#include "crypto/Kdf.h"
#include "interop/importers/Common.h"
#include "interop/importers/Formats.h"
#include "interop/importers/JsonFields.h"

#include <cstdint>
#include <limits>

namespace watchword::importers::detail {

namespace {

constexpr std::string_view formatLabel = "andotp";
constexpr std::size_t iterationsSize = 4;
constexpr std::size_t saltSize = 12;
constexpr std::size_t nonceSize = 12;
constexpr std::size_t keySize = 32;
// andOTP picks 140,000 to 160,000 iterations (maximumPbkdf2Iterations
// bounds what a file may ask for).

// A plain backup is JSON text: '[' (or, for a file that is not andOTP's
// at all, '{') after any white space, and UTF-8 throughout. The binary
// layouts start with a big-endian iteration count or a random nonce; one
// that happened to start with a bracket would still not be valid UTF-8
// (with any real length, the chance is nil).
bool looksLikeJson(ByteView data)
{
    for (const std::uint8_t byte : data) {
        if (byte == ' ' || byte == '\t' || byte == '\r' || byte == '\n')
            continue;
        return (byte == '[' || byte == '{') && utf8Text(data, formatLabel).ok();
    }
    return false;
}

// Splits an old backup's "<issuer> - <issuer>:<name>" label.
void splitOldLabel(EntryFields& fields)
{
    const std::string label = std::move(fields.accountName);
    const auto dash = label.find(" - ");
    if (dash == std::string::npos || dash == 0) {
        fields.accountName = label;
        return;
    }
    fields.issuer = label.substr(0, dash);
    std::string rest = label.substr(dash + 3);
    if (rest.starts_with(fields.issuer + ":"))
        rest.erase(0, fields.issuer.size() + 1);
    fields.accountName = std::move(rest);
}

ImportResult<ImportedAccount> entryAccount(std::size_t index, const Json& entry)
{
    if (!entry.is_object())
        return malformed(formatLabel, "entry " + std::to_string(index + 1) + " is not an object");
    EntryFields fields;
    fields.accountName = stringMember(entry, "label");
    if (optionalMember(entry, "issuer"))
        fields.issuer = stringMember(entry, "issuer");
    else
        splitOldLabel(fields);
    const std::string named = entryLabel(formatLabel, index, fields.issuer, fields.accountName);

    const std::string type = stringMember(entry, "type");
    if (type == "TOTP" || type.empty()) {
        fields.parameters.kind = otp::OtpKind::Totp;
    } else if (type == "HOTP") {
        fields.parameters.kind = otp::OtpKind::Hotp;
    } else if (type == "STEAM") {
        fields.parameters = otp::OtpParameters::steam();
    } else if (type == "MOTP") {
        return fail(ImportError::InvalidEntry,
                    named + ": andOTP's MOTP entries (a PIN-based code) are not supported");
    } else {
        return fail(ImportError::InvalidEntry, named + ": unknown entry type " + shownValue(type));
    }
    // Stored values, checked by makeAccount; a Steam entry has no period
    // (30 s is implied) and 5 digits.
    const std::string algorithm = stringMember(entry, "algorithm");
    StoredCode stored{algorithm, asSigned(unsignedMember(entry, "digits")), {}};
    if (fields.parameters.kind == otp::OtpKind::Hotp)
        fields.parameters.counter = unsignedMember(entry, "counter").value_or(0);
    else
        stored.period = asSigned(unsignedMember(entry, "period"));
    if (auto applied = applyStoredCode(named, stored, fields.parameters); !applied)
        return applied.failure();

    auto secret = base32SecretMember(entry, "secret", named);
    if (!secret)
        return secret.failure();
    fields.secret = std::move(secret).value();

    if (const Json* tags = optionalMember(entry, "tags")) {
        if (!tags->is_array())
            throw FieldError{"entry " + std::to_string(index + 1) + ": \"tags\" is not an array"};
        for (const Json& tag : *tags) {
            if (!tag.is_string())
                throw FieldError{"entry " + std::to_string(index + 1) + ": a tag is not a string"};
            fields.tags.push_back(tag.get<std::string>());
        }
    }
    return makeAccount(formatLabel, index, std::move(fields));
}

ImportResult<Imported> importText(std::string_view text)
{
    auto parsed = parseJson(formatLabel, text, "the backup");
    if (!parsed)
        return parsed.failure();
    const Json root = std::move(parsed).value();
    if (!root.is_array())
        return malformed(formatLabel, "not an andOTP backup (a JSON array of entries expected)");
    if (auto counted = checkCount(formatLabel, root.size()); !counted)
        return counted.failure();
    Imported imported;
    imported.format = Format::AndOtp;
    return catchFieldErrors<Imported>(formatLabel, [&]() -> ImportResult<Imported> {
        for (std::size_t i = 0; i < root.size(); ++i) {
            if (auto kept = keep(imported, i, entryAccount(i, root[i])); !kept)
                return kept.failure();
        }
        return std::move(imported);
    });
}

// The iteration count of the current layout: the file's first 4 bytes.
std::uint32_t iterationsOf(ByteView data)
{
    return (std::uint32_t{data[0]} << 24) | (std::uint32_t{data[1]} << 16) |
           (std::uint32_t{data[2]} << 8) | std::uint32_t{data[3]};
}

// Whether data is long enough for the current layout.
bool currentLayoutFits(ByteView data)
{
    return data.size() >= iterationsSize + saltSize + nonceSize + crypto::aesGcm::tagSize;
}

// The plaintext of the current layout; nullopt if the tag does not verify
// (wrong password, or an old backup). The caller has checked the length and
// the iteration count.
std::optional<SecureBuffer> openCurrent(ByteView data, ByteView password)
{
    const std::uint32_t iterations = iterationsOf(data);
    const ByteView salt = data.subspan(iterationsSize, saltSize);
    const ByteView nonce = data.subspan(iterationsSize + saltSize, nonceSize);
    SecureBuffer key(keySize);
    if (!crypto::pbkdf2(crypto::HashAlgorithm::Sha1, password, salt, iterations, key.span()))
        return std::nullopt;
    auto plaintext = crypto::aesGcm::decrypt(key, nonce, {},
                                             data.subspan(iterationsSize + saltSize + nonceSize));
    if (!plaintext)
        return std::nullopt;
    return std::move(plaintext).value();
}

std::optional<SecureBuffer> openOld(ByteView data, ByteView password)
{
    if (data.size() < nonceSize + crypto::aesGcm::tagSize)
        return std::nullopt;
    auto digest = crypto::sha256(password);
    SecureBuffer key(ByteView(digest.data(), digest.size()));
    secureWipe(digest.data(), digest.size());
    auto plaintext =
        crypto::aesGcm::decrypt(key, data.first(nonceSize), {}, data.subspan(nonceSize));
    if (!plaintext)
        return std::nullopt;
    return std::move(plaintext).value();
}

} // namespace

ImportResult<Imported> importAndOtp(ByteView data, Password password)
{
    if (auto sized = checkSize(formatLabel, data); !sized)
        return sized.failure();
    if (data.empty())
        return malformed(formatLabel, "the file is empty");
    if (!andOtpEncrypted(data)) {
        const auto text = utf8Text(data, formatLabel);
        if (!text)
            return text.failure();
        return importText(*text);
    }
    if (data.size() < nonceSize + crypto::aesGcm::tagSize)
        return malformed(formatLabel, "the file is too short to be an encrypted backup");
    if (!password)
        return fail(ImportError::PasswordRequired,
                    std::string(formatLabel) + ": the backup is encrypted");
    // The current layout's iteration count is checked before any key work:
    // one out of bounds rules that layout out (nothing is derived for it),
    // and only the old one, which derives nothing costly, is tried.
    std::optional<Error<ImportError>> iterationsRefused;
    if (currentLayoutFits(data)) {
        if (auto bounded = checkPbkdf2Iterations(
                formatLabel, "the PBKDF2 iteration count (the first 4 bytes)", iterationsOf(data));
            !bounded)
            iterationsRefused = bounded.error();
    }
    std::optional<SecureBuffer> plaintext;
    if (currentLayoutFits(data) && !iterationsRefused)
        plaintext = openCurrent(data, *password);
    if (!plaintext)
        plaintext = openOld(data, *password);
    if (!plaintext && iterationsRefused)
        return fail(iterationsRefused->code,
                    iterationsRefused->message +
                        ", so the file was not read as a current backup (andOTP 0.6.3 and "
                        "later); read as an old one, which has no iteration count, the "
                        "password does not open it");
    if (!plaintext)
        return fail(ImportError::WrongPassword,
                    std::string(formatLabel) +
                        ": the password is wrong (or the file is damaged or not an andOTP "
                        "backup)");
    const auto text = utf8Text(plaintext->span(), formatLabel);
    if (!text)
        return text.failure();
    return importText(*text);
}

bool andOtpEncrypted(ByteView data)
{
    return !data.empty() && !looksLikeJson(data);
}

} // namespace watchword::importers::detail
