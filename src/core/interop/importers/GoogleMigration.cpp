// Google Authenticator's "Transfer accounts": otpauth-migration://offline?
// data=<Base64 of a protobuf MigrationPayload, percent-encoded>, one URI per
// QR code; a large transfer is a batch of several codes. The protobuf is
// read by hand for the few fields it has (google_auth.proto as Aegis and
// other readers restate it):
//   MigrationPayload: 1 otp_parameters (repeated message), 2 version,
//                     3 batch_size, 4 batch_index, 5 batch_id
//   OtpParameters:    1 secret (bytes), 2 name, 3 issuer, 4 algorithm,
//                     5 digits, 6 type, 7 counter
// Google Authenticator 7.x writes version 2, with a field 8 in entries
// that no published schema names; it is skipped, as every unknown field.
#include "interop/importers/Common.h"
#include "interop/importers/Formats.h"
#include "otp/OtpauthUri.h"

#include <algorithm>
#include <map>
#include <set>

namespace watchword::importers::detail {

namespace {

constexpr std::string_view format = "google-migration";
constexpr std::string_view prefix = "otpauth-migration://offline?";
constexpr std::uint64_t newestKnownVersion = 2;

enum class WireType : std::uint8_t { Varint = 0, Fixed64 = 1, Length = 2, Fixed32 = 5 };

// A protobuf reader over one message: every read is bounded by the
// message's end, varints by 10 bytes.
class ProtoReader
{
public:
    explicit ProtoReader(ByteView data) : m_data(data) {}

    bool atEnd() const { return m_position == m_data.size(); }

    std::optional<std::uint64_t> varint()
    {
        std::uint64_t value = 0;
        for (int i = 0; i < 10; ++i) {
            if (m_position == m_data.size())
                return std::nullopt;
            const std::uint8_t byte = m_data[m_position++];
            // The tenth byte holds bit 63 only.
            if (i == 9 && byte > 1)
                return std::nullopt;
            value |= static_cast<std::uint64_t>(byte & 0x7f) << (7 * i);
            if ((byte & 0x80) == 0)
                return value;
        }
        return std::nullopt;
    }

    std::optional<ByteView> bytes(std::size_t count)
    {
        if (m_data.size() - m_position < count)
            return std::nullopt;
        const ByteView out = m_data.subspan(m_position, count);
        m_position += count;
        return out;
    }

    std::optional<ByteView> lengthDelimited()
    {
        const auto length = varint();
        if (!length || *length > m_data.size())
            return std::nullopt;
        return bytes(static_cast<std::size_t>(*length));
    }

    // Skips a field of a number this reader does not know.
    bool skip(std::uint64_t wireType)
    {
        switch (wireType) {
        case 0:
            return varint().has_value();
        case 1:
            return bytes(8).has_value();
        case 2:
            return lengthDelimited().has_value();
        case 5:
            return bytes(4).has_value();
        default: // groups (3, 4) are not in this schema; anything else is not protobuf
            return false;
        }
    }

private:
    ByteView m_data;
    std::size_t m_position = 0;
};

struct Key
{
    std::uint64_t field;
    std::uint64_t wireType;
};

std::optional<Key> readKey(ProtoReader& reader)
{
    const auto key = reader.varint();
    if (!key || (*key >> 3) == 0)
        return std::nullopt;
    return Key{*key >> 3, *key & 7};
}

std::string asString(ByteView bytes)
{
    return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

struct Batch
{
    std::uint64_t version = 0;
    std::uint64_t size = 0;
    std::uint64_t index = 0;
    std::int64_t id = 0;
};

// One OtpParameters message as an account. index: the entry's position in
// the whole import, for error messages.
ImportResult<ImportedAccount> readEntry(ByteView message, std::size_t index)
{
    const std::string label = std::string(format) + ": entry " + std::to_string(index + 1);
    auto damaged = [&] {
        return fail(ImportError::Malformed, label + ": damaged protobuf field");
    };
    ProtoReader reader(message);
    EntryFields fields;
    std::uint64_t algorithm = 0, digits = 0, type = 0, counter = 0;
    while (!reader.atEnd()) {
        const auto key = readKey(reader);
        if (!key)
            return damaged();
        const bool isLength = key->wireType == static_cast<std::uint64_t>(WireType::Length);
        const bool isVarint = key->wireType == static_cast<std::uint64_t>(WireType::Varint);
        if (key->field >= 1 && key->field <= 3 && isLength) {
            const auto value = reader.lengthDelimited();
            if (!value)
                return damaged();
            if (key->field == 1)
                fields.secret = SecureBuffer(*value);
            else if (key->field == 2)
                fields.accountName = asString(*value);
            else
                fields.issuer = asString(*value);
        } else if (key->field >= 4 && key->field <= 7 && isVarint) {
            const auto value = reader.varint();
            if (!value)
                return damaged();
            (key->field == 4   ? algorithm
             : key->field == 5 ? digits
             : key->field == 6 ? type
                               : counter) = *value;
        } else if (!reader.skip(key->wireType)) {
            return damaged();
        }
    }
    // Google writes the name as "Issuer:account" when the account came
    // from a URI whose label had the issuer; the issuer is its own field.
    if (!fields.issuer.empty() && fields.accountName.starts_with(fields.issuer + ":")) {
        fields.accountName.erase(0, fields.issuer.size() + 1);
        fields.accountName.erase(0, fields.accountName.find_first_not_of(' '));
    }
    auto invalid = [&](const std::string& what) {
        return fail(ImportError::InvalidEntry,
                    entryLabel(format, index, fields.issuer, fields.accountName) + ": " + what);
    };
    switch (algorithm) {
    case 0: // unspecified: the app computes SHA-1
    case 1:
        fields.parameters.algorithm = crypto::HashAlgorithm::Sha1;
        break;
    case 2:
        fields.parameters.algorithm = crypto::HashAlgorithm::Sha256;
        break;
    case 3:
        fields.parameters.algorithm = crypto::HashAlgorithm::Sha512;
        break;
    case 4:
        return invalid("MD5 codes are not supported");
    default:
        return invalid("unknown algorithm " + std::to_string(algorithm));
    }
    switch (digits) {
    case 0: // unspecified: six, as the app shows
    case 1:
        fields.parameters.digits = 6;
        break;
    case 2:
        fields.parameters.digits = 8;
        break;
    default:
        return invalid("unknown digit count " + std::to_string(digits));
    }
    switch (type) {
    case 0: // unspecified: the app treats it as time-based
    case 2:
        fields.parameters.kind = otp::OtpKind::Totp;
        break;
    case 1:
        fields.parameters.kind = otp::OtpKind::Hotp;
        fields.parameters.counter = counter;
        break;
    default:
        return invalid("unknown OTP type " + std::to_string(type));
    }
    // The transfer has no period: Google Authenticator always uses 30 s.
    fields.parameters.period = otp::defaultPeriod;
    return makeAccount(format, index, std::move(fields));
}

// The data parameter of a migration URI, percent-decoded and Base64-decoded.
// '+' stays '+' (it is Base64, not a form-encoded space: some QR readers do
// not escape it), and a space that a form decoder made of one goes back.
ImportResult<SecureBuffer> payloadOf(std::string_view line, std::size_t lineNumber)
{
    const std::string where = std::string(format) + ": line " + std::to_string(lineNumber);
    if (!startsWithFolded(line, prefix))
        return fail(ImportError::Malformed,
                    where + ": not an otpauth-migration://offline?data=... URI");
    std::string_view query = line.substr(prefix.size());
    std::optional<std::string_view> data;
    while (true) {
        const auto amp = query.find('&');
        const std::string_view parameter = query.substr(0, amp);
        if (parameter.starts_with("data=")) {
            if (data)
                return fail(ImportError::Malformed, where + ": the data parameter appears twice");
            data = parameter.substr(5);
        }
        if (amp == std::string_view::npos)
            break;
        query.remove_prefix(amp + 1);
    }
    if (!data || data->empty())
        return fail(ImportError::Malformed, where + ": no data parameter");
    SecureBuffer base64(data->size() + 3);
    const auto unescaped =
        otp::percentDecode(*data, /*plusIsSpace=*/false, reinterpret_cast<char*>(base64.data()));
    if (unescaped.badEscape)
        return fail(ImportError::Malformed, where + ": broken %-escape in the data");
    std::size_t length = unescaped.size;
    for (std::size_t i = 0; i < length; ++i)
        if (base64[i] == ' ')
            base64[i] = '+';
    // Tolerate missing '=' padding, as Base64 readers of these URIs do.
    while (length % 4 != 0 && length < base64.size())
        base64[length++] = '=';
    base64.truncate(length);
    auto decoded = fromBase64(base64.view());
    if (!decoded)
        return fail(ImportError::Malformed, where + ": the data is not Base64");
    SecureBuffer payload(*decoded);
    secureWipe(decoded->data(), decoded->size());
    return payload;
}

} // namespace

ImportResult<Imported> importGoogleMigration(ByteView data)
{
    auto text = utf8Text(data, format);
    if (!text)
        return text.failure();
    Imported imported;
    imported.format = Format::GoogleMigration;
    // batch_id -> (batch_size, indexes seen), to tell the user which QR
    // codes of a multi-code transfer are missing.
    std::map<std::int64_t, std::pair<std::uint64_t, std::set<std::uint64_t>>> batches;
    std::vector<std::uint64_t> newerVersions; // warned about once each
    std::size_t entryCount = 0;               // of every payload read so far
    TextLines lines(*text);
    while (const auto next = lines.next()) {
        const std::string_view line = *next;
        const std::size_t lineNumber = lines.lineNumber();
        // '#' comments: the text files that migration readers take (one
        // decoded QR code per line) have them.
        if (line.starts_with('#'))
            continue;

        auto payload = payloadOf(line, lineNumber);
        if (!payload)
            return payload.failure();
        const std::string where = std::string(format) + ": line " + std::to_string(lineNumber);
        auto damaged = [&] {
            return fail(ImportError::Malformed, where + ": the data is not a migration payload");
        };
        ProtoReader reader(payload->span());
        Batch batch;
        std::vector<ByteView> entries;
        while (!reader.atEnd()) {
            const auto key = readKey(reader);
            if (!key)
                return damaged();
            if (key->field == 1 && key->wireType == 2) {
                const auto entry = reader.lengthDelimited();
                if (!entry)
                    return damaged();
                entries.push_back(*entry);
            } else if (key->field >= 2 && key->field <= 5 && key->wireType == 0) {
                const auto value = reader.varint();
                if (!value)
                    return damaged();
                if (key->field == 2)
                    batch.version = *value;
                else if (key->field == 3)
                    batch.size = *value;
                else if (key->field == 4)
                    batch.index = *value;
                else // int32 written as a 64-bit varint: negative ids wrap
                    batch.id = static_cast<std::int32_t>(static_cast<std::uint32_t>(*value));
            } else if (!reader.skip(key->wireType)) {
                return damaged();
            }
        }
        // The version is informative: 1 (Google Authenticator up to 6.x)
        // and 2 (7.x, whose entries add a field 8) share every field read
        // here, and a field this reader does not know is skipped. A later
        // version is read by the same fields, and said so: what its new
        // fields meant is not known here.
        if (batch.version > newestKnownVersion &&
            std::find(newerVersions.begin(), newerVersions.end(), batch.version) ==
                newerVersions.end()) {
            newerVersions.push_back(batch.version);
            imported.warnings.push_back(
                where + ": migration payload version " + std::to_string(batch.version) +
                " is newer than the versions this build knows (1 and 2); its accounts were read "
                "by the fields of version 2, anything new in them was not read");
        }
        if (entries.empty())
            return fail(ImportError::Malformed, where + ": the payload holds no account");
        if (batch.size > 1 && batch.index >= batch.size)
            return fail(ImportError::Malformed, where + ": QR code " +
                                                    std::to_string(batch.index + 1) + " of " +
                                                    std::to_string(batch.size));
        if (batch.size > 1) {
            auto& seen = batches[batch.id];
            seen.first = batch.size;
            if (!seen.second.insert(batch.index).second) {
                imported.warnings.push_back(where + ": QR code " + std::to_string(batch.index + 1) +
                                            " of " + std::to_string(batch.size) +
                                            " given twice; read once");
                continue;
            }
        }
        if (auto counted = checkCount(format, entryCount + entries.size()); !counted)
            return counted.failure();
        for (const ByteView entry : entries) {
            const std::size_t index = entryCount++;
            if (auto kept = keep(imported, index, readEntry(entry, index)); !kept)
                return kept.failure();
        }
    }
    if (entryCount == 0)
        return fail(ImportError::Malformed,
                    std::string(format) + ": no otpauth-migration:// URI in the text");
    for (const auto& [id, batch] : batches) {
        const auto& [size, seen] = batch;
        if (seen.size() < size)
            imported.warnings.push_back(
                std::string(format) + ": only " + std::to_string(seen.size()) + " of the " +
                std::to_string(size) + " QR codes of one transfer (batch " + std::to_string(id) +
                ") were given; the accounts of the others are missing");
    }
    return imported;
}

} // namespace watchword::importers::detail
