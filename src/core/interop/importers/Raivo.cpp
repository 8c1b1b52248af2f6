// Raivo OTP's export (docs/FORMAT.md section 9), as the app's own source
// writes it (DataExportFeature, Password.getExportFields): a ZIP archive
// encrypted with the password the user gives (SSZipArchive: WinZip AES)
// holding raivo-otp-export.json and an HTML copy of the same. The JSON is
// an array of {"issuer", "account", "secret" (Base32), "algorithm" ("SHA1",
// "SHA256", "SHA512"), "digits", "kind" ("TOTP", "HOTP"), "timer" (the
// period), "counter", "iconType", "iconValue"}, every value a string. The
// JSON taken out of the archive is read too.
#include "interop/importers/Common.h"
#include "interop/importers/Formats.h"
#include "interop/importers/JsonFields.h"
#include "interop/importers/ZipArchive.h"

#include <algorithm>
#include <charconv>

namespace watchword::importers::detail {

namespace {

constexpr std::string_view formatLabel = "raivo";
constexpr std::string_view exportName = "raivo-otp-export.json";

// A number Raivo writes as a string ("6"), or as a number; nullopt if
// absent or empty. FieldError if it is neither.
std::optional<std::int64_t> numberMember(const Json& entry, const char* key)
{
    const Json* value = optionalMember(entry, key);
    if (!value)
        return std::nullopt;
    if (value->is_number_integer())
        return integerMember(entry, key);
    if (!value->is_string())
        throw FieldError{std::string("\"") + key + "\" is not a number"};
    const std::string& text = value->get_ref<const std::string&>();
    if (text.empty())
        return std::nullopt;
    std::int64_t number = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (error != std::errc() || end != text.data() + text.size())
        throw FieldError{std::string("\"") + key + "\" is not a number: " + shownValue(text)};
    return number;
}

ImportResult<ImportedAccount> accountOf(std::size_t index, const Json& entry)
{
    if (!entry.is_object())
        return malformed(formatLabel, "entry " + std::to_string(index + 1) + " is not an object");
    EntryFields fields;
    fields.issuer = stringMember(entry, "issuer");
    fields.accountName = stringMember(entry, "account");
    const std::string named = entryLabel(formatLabel, index, fields.issuer, fields.accountName);
    const std::string kind = stringMember(entry, "kind");
    if (kind == "TOTP" || kind.empty())
        fields.parameters.kind = otp::OtpKind::Totp;
    else if (kind == "HOTP")
        fields.parameters.kind = otp::OtpKind::Hotp;
    else
        return fail(ImportError::InvalidEntry,
                    named + ": unsupported kind " + shownValue(kind) + " (TOTP or HOTP)");
    if (auto applied =
            applyStoredCode(named,
                            {stringMember(entry, "algorithm"), numberMember(entry, "digits"),
                             numberMember(entry, "timer")},
                            fields.parameters);
        !applied)
        return applied.failure();
    if (fields.parameters.kind == otp::OtpKind::Hotp) {
        const auto counter = numberMember(entry, "counter");
        if (counter && *counter < 0)
            return fail(ImportError::InvalidEntry,
                        named + ": invalid counter " + std::to_string(*counter));
        fields.parameters.counter = std::uint64_t(counter.value_or(0));
    }
    auto secret = base32SecretMember(entry, "secret", named);
    if (!secret)
        return secret.failure();
    fields.secret = std::move(secret).value();
    return makeAccount(formatLabel, index, std::move(fields));
}

ImportResult<Imported> importParsed(const Json& root, Password)
{
    if (!root.is_array())
        return malformed(formatLabel, "not a JSON array of OTPs");
    if (auto counted = checkCount(formatLabel, root.size()); !counted)
        return counted.failure();
    Imported imported;
    imported.format = Format::Raivo;
    for (std::size_t i = 0; i < root.size(); ++i)
        if (auto kept = keep(imported, i, accountOf(i, root[i])); !kept)
            return kept.failure();
    return imported;
}

// The export's JSON file among an archive's files, if it is there.
const ZipFile* exportFileOf(const std::vector<ZipFile>& files)
{
    const auto found = std::find_if(files.begin(), files.end(),
                                    [](const ZipFile& file) { return file.name == exportName; });
    return found == files.end() ? nullptr : &*found;
}

} // namespace

bool isRaivoArchive(const std::vector<ZipFile>& files)
{
    return exportFileOf(files) != nullptr;
}

bool raivoEncrypted(ByteView data)
{
    const auto files = zipFiles(data);
    const ZipFile* file = files ? exportFileOf(*files) : nullptr;
    return file && file->encrypted;
}

ImportResult<Imported> importRaivo(ByteView data, Password password)
{
    if (!isZipArchive(data))
        return importJsonFile(formatLabel, data, std::nullopt, importParsed);
    auto json = readZipFile(formatLabel, data, exportName,
                            "Raivo's export holds raivo-otp-export.json", password);
    if (!json)
        return json.failure();
    return importJsonFile(formatLabel, json->span(), std::nullopt, importParsed);
}

} // namespace watchword::importers::detail
