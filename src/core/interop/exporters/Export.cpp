#include "interop/exporters/Export.h"

#include "crypto/CryptoState.h"
#include "interop/EntryLabel.h"
#include "interop/exporters/ExportCommon.h"
#include "otp/OtpauthUri.h"

#include <algorithm>
#include <cstring>

namespace watchword::exporters {

namespace {

struct FormatNames
{
    ExportFormat format;
    std::string_view name;
    std::string_view title;
};

constexpr std::array<FormatNames, allExportFormats.size()> formatNames = {{
    {ExportFormat::WatchwordBackup, "watchword-backup", "Watchword backup"},
    {ExportFormat::Aegis, "aegis", "Aegis (plain)"},
    {ExportFormat::AegisEncrypted, "aegis-encrypted", "Aegis (encrypted)"},
    {ExportFormat::OtpauthList, "otpauth", "otpauth:// URI list"},
    {ExportFormat::GoogleMigration, "google-migration", "Google Authenticator transfer"},
    {ExportFormat::TwoFas, "2fas", "2FAS (plain)"},
    {ExportFormat::Ente, "ente", "Ente Auth (plain)"},
}};

const FormatNames& namesOf(ExportFormat format)
{
    for (const auto& names : formatNames)
        if (names.format == format)
            return names;
    return formatNames[0];
}

std::string accountNamed(const vault::OtpAccount& account)
{
    if (!account.issuer.empty() && !account.accountName.empty())
        return account.issuer + " (" + account.accountName + ")";
    return account.issuer.empty() ? account.accountName : account.issuer;
}

} // namespace

namespace detail {

Failure<Error<ExportError>> fail(ExportError code, std::string message)
{
    return watchword::fail(code, std::move(message));
}

std::string entryLabel(std::size_t index, const vault::OtpAccount& account)
{
    return interop::entryLabel(index, account.issuer, account.accountName);
}

std::string droppedFieldsWarning(std::size_t index, const vault::OtpAccount& account,
                                 std::string_view why)
{
    if (account.tags.empty() && account.note.empty())
        return {};
    const std::string_view dropped = account.tags.empty()   ? "the note"
                                     : account.note.empty() ? "the tags"
                                                            : "the tags and the note";
    return entryLabel(index, account) + ": " + std::string(dropped) + " left out (" +
           std::string(why) + ")";
}

std::string randomUuid(crypto::RandomSource& random)
{
    std::array<std::uint8_t, 16> bytes{};
    random.fill(bytes);
    bytes[6] = static_cast<std::uint8_t>((bytes[6] & 0x0f) | 0x40);
    bytes[8] = static_cast<std::uint8_t>((bytes[8] & 0x3f) | 0x80);
    constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(36);
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out.push_back('-');
        out.push_back(digits[bytes[i] >> 4]);
        out.push_back(digits[bytes[i] & 15]);
    }
    return out;
}

void SecureText::append(std::string_view text)
{
    append(asBytes(text));
}

void SecureText::append(ByteView bytes)
{
    if (bytes.empty())
        return;
    if (m_buffer.size() - m_size < bytes.size()) {
        SecureBuffer bigger(std::max(m_buffer.size() * 2, m_size + bytes.size() + 256));
        if (m_size != 0)
            std::memcpy(bigger.data(), m_buffer.data(), m_size);
        m_buffer = std::move(bigger);
    }
    std::memcpy(m_buffer.data() + m_size, bytes.data(), bytes.size());
    m_size += bytes.size();
}

SecureBuffer SecureText::take()
{
    SecureBuffer out(m_buffer.span().first(m_size));
    m_buffer = SecureBuffer();
    m_size = 0;
    return out;
}

} // namespace detail

std::string_view exportFormatName(ExportFormat format)
{
    return namesOf(format).name;
}

std::string_view exportFormatTitle(ExportFormat format)
{
    return namesOf(format).title;
}

std::optional<ExportFormat> exportFormatNamed(std::string_view name)
{
    for (const auto& names : formatNames)
        if (names.name == name)
            return names.format;
    return std::nullopt;
}

bool exportNeedsPassword(ExportFormat format)
{
    return format == ExportFormat::WatchwordBackup || format == ExportFormat::AegisEncrypted;
}

bool exportIsPlaintext(ExportFormat format)
{
    return !exportNeedsPassword(format);
}

ExportResult<Exported> exportAccounts(ExportFormat format,
                                      std::span<const vault::OtpAccount> accounts,
                                      const ExportOptions& options, crypto::RandomSource& random)
{
    if (crypto::isDisabled())
        return detail::fail(ExportError::CryptoDisabled,
                            "export: cryptography is disabled (the start-up self-test failed)");
    if (accounts.empty())
        return detail::fail(ExportError::NothingToExport,
                            std::string(exportFormatName(format)) + ": no accounts to export");
    if (exportNeedsPassword(format) && (!options.password || options.password->empty()))
        return detail::fail(ExportError::PasswordRequired,
                            std::string(exportFormatName(format)) +
                                ": the file is encrypted, so it needs a password");
    switch (format) {
    case ExportFormat::WatchwordBackup:
        return detail::exportWatchwordBackup(accounts, *options.password, options.backupIterations,
                                             options.now, random);
    case ExportFormat::Aegis:
        return detail::exportAegis(accounts, std::nullopt, random);
    case ExportFormat::AegisEncrypted:
        return detail::exportAegis(accounts, options.password, random);
    case ExportFormat::OtpauthList:
        return detail::exportOtpauthList(accounts);
    case ExportFormat::GoogleMigration:
        return detail::exportGoogleMigration(accounts, random);
    case ExportFormat::TwoFas:
        return detail::exportTwoFas(accounts, options.now, random);
    case ExportFormat::Ente:
        return detail::exportEnte(accounts);
    }
    return detail::fail(ExportError::NotRepresentable, "unknown export format");
}

namespace detail {

ExportResult<SecureBuffer> canonicalUri(const vault::OtpAccount& account,
                                        std::vector<otp::UriParameter> extra)
{
    if (account.accountName.find(':') != std::string::npos)
        return fail(ExportError::NotRepresentable,
                    "the account name contains ':', which an otpauth:// label cannot hold");
    otp::OtpauthUri uri;
    uri.parameters = account.parameters;
    uri.secret = account.secret.clone();
    uri.account = account.accountName;
    if (!account.issuer.empty()) {
        uri.issuerParameter = account.issuer;
        // The label repeats the issuer for readers that ignore the parameter,
        // unless the label could not hold it (a ':' in the issuer, a name
        // starting with a space): the parameter alone then says it.
        if (account.issuer.find(':') == std::string::npos && !account.accountName.starts_with(' '))
            uri.labelIssuer = account.issuer;
    }
    uri.unknownParameters = std::move(extra);
    auto formatted = otp::formatOtpauthUri(uri);
    if (!formatted)
        return formatted.failure(ExportError::NotRepresentable);
    return std::move(formatted).value();
}

} // namespace detail

ExportResult<SecureBuffer> otpauthUriOf(const vault::OtpAccount& account)
{
    auto uri = detail::canonicalUri(account);
    if (!uri)
        return uri.failure(uri.error().code, "otpauth: " + accountNamed(account) + ": ");
    return uri;
}

} // namespace watchword::exporters
