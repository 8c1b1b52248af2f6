// Google Authenticator's transfer: otpauth-migration://offline?data=<the
// percent-encoded Base64 of a protobuf MigrationPayload>, one URI per QR
// code; the inverse of importers/GoogleMigration.cpp, with the same field
// numbers (google_auth.proto):
//   MigrationPayload: 1 otp_parameters (repeated message), 2 version,
//                     3 batch_size, 4 batch_index, 5 batch_id
//   OtpParameters:    1 secret (bytes), 2 name, 3 issuer, 4 algorithm,
//                     5 digits, 6 type, 7 counter
// Fields are written in ascending number, as Google's app writes them: an
// entry's zero values left out (no issuer, no counter on TOTP), the
// payload's four numbers always, batch_id as a sign-extended int32 (a
// negative id takes ten bytes). An export of the accounts of a code from the
// app, with its batch id, is that code byte for byte (tests/core/exporters).
#include "interop/exporters/ExportCommon.h"

#include <algorithm>
#include <limits>

namespace watchword::exporters::detail {

namespace {

constexpr std::string_view label = "google-migration";
constexpr std::string_view prefix = "otpauth-migration://offline?data=";
// Protobuf bytes per code at most (unless one account alone is larger):
// with Base64 and escapes the URI stays under about 1,900 characters, which
// a QR code holds at error correction level M (version 40 holds 2,331 bytes).
constexpr std::size_t maximumPayloadBytes = 1'200;

enum WireType : std::uint8_t { Varint = 0, Length = 2 };

void putVarint(SecureText& out, std::uint64_t value)
{
    while (value >= 0x80) {
        out.append(static_cast<char>((value & 0x7f) | 0x80));
        value >>= 7;
    }
    out.append(static_cast<char>(value));
}

void putKey(SecureText& out, std::uint32_t field, WireType type)
{
    putVarint(out, (std::uint64_t{field} << 3) | type);
}

void putVarintField(SecureText& out, std::uint32_t field, std::uint64_t value)
{
    if (value == 0)
        return;
    putKey(out, field, Varint);
    putVarint(out, value);
}

void putBytesField(SecureText& out, std::uint32_t field, ByteView bytes)
{
    if (bytes.empty())
        return;
    putKey(out, field, Length);
    putVarint(out, bytes.size());
    out.append(bytes);
}

// Why the transfer cannot hold account; empty if it can.
std::string unrepresentable(const vault::OtpAccount& account)
{
    const auto& parameters = account.parameters;
    if (auto valid = otp::validate(parameters, account.secret.size()); !valid)
        return "no code can come from it: " + valid.error().message;
    if (parameters.kind == otp::OtpKind::Steam)
        return "the transfer has no Steam Guard codes";
    if (parameters.digits != 6 && parameters.digits != 8)
        return std::to_string(parameters.digits) +
               "-digit codes do not fit (the transfer has 6 or 8)";
    if (parameters.kind == otp::OtpKind::Totp && parameters.period != 30)
        return "a period of " + std::to_string(parameters.period) +
               " s does not fit (the transfer always uses 30 s)";
    if (parameters.kind == otp::OtpKind::Hotp &&
        parameters.counter > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return "the counter is beyond the transfer's signed 64-bit range";
    return {};
}

// One OtpParameters message.
SecureBuffer entryMessage(const vault::OtpAccount& account)
{
    SecureText out;
    putBytesField(out, 1, account.secret.span());
    // The importer drops a leading "<issuer>:" from the name (Google writes
    // the label so); a name that itself starts so keeps it by getting one more.
    std::string name = account.accountName;
    if (!account.issuer.empty() && name.starts_with(account.issuer + ":"))
        name = account.issuer + ":" + name;
    putBytesField(out, 2, asBytes(name));
    putBytesField(out, 3, asBytes(account.issuer));
    const auto& parameters = account.parameters;
    putVarintField(out, 4,
                   parameters.algorithm == crypto::HashAlgorithm::Sha1     ? 1
                   : parameters.algorithm == crypto::HashAlgorithm::Sha256 ? 2
                                                                           : 3);
    putVarintField(out, 5, parameters.digits == 8 ? 2 : 1);
    putVarintField(out, 6, parameters.kind == otp::OtpKind::Hotp ? 1 : 2);
    if (parameters.kind == otp::OtpKind::Hotp)
        putVarintField(out, 7, parameters.counter);
    return out.take();
}

SecureBuffer uriOf(const std::vector<SecureBuffer>& entries, std::size_t batchSize,
                   std::size_t batchIndex, std::int32_t batchId)
{
    SecureText payload;
    for (const SecureBuffer& entry : entries) {
        putKey(payload, 1, Length);
        putVarint(payload, entry.size());
        payload.append(entry.span());
    }
    putKey(payload, 2, Varint);
    putVarint(payload, 1);
    putKey(payload, 3, Varint);
    putVarint(payload, batchSize);
    putKey(payload, 4, Varint);
    putVarint(payload, batchIndex);
    putKey(payload, 5, Varint);
    putVarint(payload, static_cast<std::uint64_t>(static_cast<std::int64_t>(batchId)));
    const SecureBuffer bytes = payload.take();
    const SecureBuffer base64 = toBase64Secure(bytes.span());
    SecureText uri;
    uri.append(prefix);
    constexpr char hexDigits[] = "0123456789ABCDEF";
    for (const std::uint8_t c : base64) {
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            uri.append(static_cast<char>(c));
        } else {
            const char escape[3] = {'%', hexDigits[c >> 4], hexDigits[c & 15]};
            uri.append(std::string_view(escape, 3));
        }
    }
    return uri.take();
}

} // namespace

} // namespace watchword::exporters::detail

namespace watchword::exporters {

ExportResult<MigrationCodes> googleMigrationUris(std::span<const vault::OtpAccount> accounts,
                                                 crypto::RandomSource& random,
                                                 std::size_t accountsPerCode)
{
    using namespace detail;
    if (accounts.empty())
        return fail(ExportError::NothingToExport, std::string(label) + ": no accounts to export");
    accountsPerCode = std::max<std::size_t>(accountsPerCode, 1);

    MigrationCodes codes;
    std::vector<std::vector<SecureBuffer>> batches;
    std::size_t batchBytes = 0;
    std::vector<std::string> leftOut;
    for (std::size_t i = 0; i < accounts.size(); ++i) {
        const vault::OtpAccount& account = accounts[i];
        if (const std::string why = unrepresentable(account); !why.empty()) {
            codes.warnings.push_back(entryLabel(i, account) + ": " + why + "; left out");
            leftOut.push_back(entryLabel(i, account) + ": " + why);
            continue;
        }
        if (auto dropped = droppedFieldsWarning(i, account, "the transfer has no place for them");
            !dropped.empty())
            codes.warnings.push_back(std::move(dropped));
        SecureBuffer entry = entryMessage(account);
        const std::size_t size = entry.size() + 3;
        if (batches.empty() || batches.back().size() >= accountsPerCode ||
            (batchBytes + size > maximumPayloadBytes && !batches.back().empty())) {
            batches.emplace_back();
            batchBytes = 0;
        }
        batchBytes += size;
        batches.back().push_back(std::move(entry));
    }
    if (batches.empty())
        return fail(ExportError::NotRepresentable,
                    std::string(label) + ": the transfer can hold none of the accounts (" +
                        leftOut.front() + (leftOut.size() > 1 ? "; and others" : "") + ")");

    // One random id for the batch (4 bytes, big-endian, as an int32), so that
    // the phone takes the codes as one transfer.
    std::array<std::uint8_t, 4> id{};
    random.fill(id);
    const auto batchId =
        static_cast<std::int32_t>((std::uint32_t{id[0]} << 24) | (std::uint32_t{id[1]} << 16) |
                                  (std::uint32_t{id[2]} << 8) | id[3]);
    for (std::size_t i = 0; i < batches.size(); ++i)
        codes.uris.push_back(uriOf(batches[i], batches.size(), i, batchId));
    return codes;
}

namespace detail {

ExportResult<Exported> exportGoogleMigration(std::span<const vault::OtpAccount> accounts,
                                             crypto::RandomSource& random)
{
    auto codes = googleMigrationUris(accounts, random);
    if (!codes)
        return codes.failure();
    SecureText text;
    for (const SecureBuffer& uri : codes->uris) {
        text.append(uri.span());
        text.append('\n');
    }
    Exported exported;
    exported.data = text.take();
    exported.warnings = std::move(codes->warnings);
    return exported;
}

} // namespace detail

} // namespace watchword::exporters
