#include "watch/WatchExport.h"

#include "crypto/Kdf.h"
#include "crypto/RecordSealer.h"
#include "encoding/Hex.h"
#include "vault/Records.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace watchword::watch {

namespace {

void appendBigEndian(Bytes& out, std::uint64_t value, int bytes)
{
    for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8)
        out.push_back(static_cast<std::uint8_t>(value >> shift));
}

void appendBigEndian(SecureBuffer& out, std::size_t& at, std::uint64_t value, int bytes)
{
    for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8)
        out[at++] = static_cast<std::uint8_t>(value >> shift);
}

void appendText(SecureBuffer& out, std::size_t& at, ByteView text)
{
    appendBigEndian(out, at, text.size(), 2);
    std::copy(text.begin(), text.end(), out.begin() + static_cast<std::ptrdiff_t>(at));
    at += text.size();
}

} // namespace

WatchAccount watchAccountFrom(const vault::OtpAccount& account)
{
    return {account.issuer, account.accountName, SecureBuffer(account.secret.span()),
            account.parameters};
}

WatchExportResult<void> checkPin(std::string_view pin)
{
    if (pin.size() < minimumPinLength || pin.size() > maximumPinLength ||
        !std::all_of(pin.begin(), pin.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return fail(WatchExportError::BadPin, "the watch PIN must be 4 to 12 digits");
    return {};
}

WatchExportResult<void> checkIterations(std::uint32_t iterations)
{
    if (iterations < minimumIterations)
        return fail(WatchExportError::IterationsTooLow,
                    "the watch PIN needs at least " + std::to_string(minimumIterations) +
                        " PBKDF2 rounds, not " + std::to_string(iterations));
    if (iterations > maximumIterations)
        return fail(WatchExportError::IterationsTooHigh,
                    "at most " + std::to_string(maximumIterations) +
                        " PBKDF2 rounds for a watch, not " + std::to_string(iterations));
    return {};
}

bool isValidDeviceId(std::string_view deviceId) noexcept
{
    return !deviceId.empty() && deviceId.size() <= maximumDeviceIdLength &&
           std::all_of(deviceId.begin(), deviceId.end(), [](char c) {
               return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
           });
}

WatchExportResult<SecureBuffer> encodeAccount(const WatchAccount& account)
{
    if (auto valid = otp::validate(account.parameters, account.secret.size()); !valid)
        return valid.failure(WatchExportError::InvalidAccount);
    if (account.issuer.size() > maximumTextSize || account.accountName.size() > maximumTextSize ||
        account.secret.size() > maximumSecretSize)
        return fail(WatchExportError::InvalidAccount,
                    "an account's issuer, name or secret is over 1024 bytes");
    const auto& p = account.parameters;
    SecureBuffer out(3 + 8 + 2 + account.issuer.size() + 2 + account.accountName.size() + 2 +
                     account.secret.size());
    std::size_t at = 0;
    out[at++] = vault::otpKindCode(p.kind);
    out[at++] = vault::algorithmCode(p.algorithm);
    out[at++] = static_cast<std::uint8_t>(p.digits);
    appendBigEndian(out, at, p.kind == otp::OtpKind::Hotp ? p.counter : p.period, 8);
    appendText(out, at, asBytes(account.issuer));
    appendText(out, at, asBytes(account.accountName));
    appendText(out, at, account.secret.span());
    return out;
}

Bytes slotAssociatedData(const ExportHeader& header, ByteView salt, std::size_t accountCount)
{
    Bytes ad(slotLabel.begin(), slotLabel.end());
    appendBigEndian(ad, exportFormatVersion, 2);
    appendBigEndian(ad, header.deviceId.size(), 2);
    ad.insert(ad.end(), header.deviceId.begin(), header.deviceId.end());
    appendBigEndian(ad, static_cast<std::uint64_t>(header.created), 8);
    appendBigEndian(ad, header.iterations, 4);
    ad.insert(ad.end(), salt.begin(), salt.end());
    appendBigEndian(ad, accountCount, 4);
    return ad;
}

Bytes accountAssociatedData(std::size_t index, std::size_t count)
{
    Bytes ad(accountLabel.begin(), accountLabel.end());
    appendBigEndian(ad, index, 4);
    appendBigEndian(ad, count, 4);
    return ad;
}

WatchExportResult<std::string> writeExport(const ExportHeader& header, std::string_view pin,
                                           std::span<const WatchAccount> accounts,
                                           crypto::RandomSource& random)
{
    if (auto ok = checkPin(pin); !ok)
        return ok.failure();
    if (auto ok = checkIterations(header.iterations); !ok)
        return ok.failure();
    if (!isValidDeviceId(header.deviceId))
        return fail(WatchExportError::BadDeviceId,
                    "the device id must be 1 to 64 of a-z, 0-9, '_' and '-'");
    if (accounts.empty() || accounts.size() > maximumAccounts)
        return fail(WatchExportError::NoAccounts, "a watch export holds 1 to 256 accounts");

    // Encode first, so a bad account fails before any key work.
    std::vector<SecureBuffer> plaintexts;
    plaintexts.reserve(accounts.size());
    for (const auto& account : accounts) {
        auto encoded = encodeAccount(account);
        if (!encoded)
            return encoded.failure();
        plaintexts.push_back(std::move(*encoded));
    }

    Bytes salt(saltSize);
    random.fill(salt);
    SecureBuffer exportKey(exportKeySize);
    random.fill(exportKey.span());

    SecureBuffer pinKey(crypto::RecordSealer::masterKeySize);
    if (!crypto::pbkdf2(crypto::HashAlgorithm::Sha256, asBytes(pin), salt, header.iterations,
                        pinKey.span()))
        return fail(WatchExportError::InternalFailure, "the PIN key derivation failed");
    auto slotSealer = crypto::RecordSealer::create(pinKey);
    if (!slotSealer)
        return slotSealer.failure(WatchExportError::InternalFailure);
    auto wrapped =
        slotSealer->seal(slotAssociatedData(header, salt, accounts.size()), exportKey, random);
    if (!wrapped)
        return wrapped.failure(WatchExportError::InternalFailure);

    auto sealer = crypto::RecordSealer::create(exportKey);
    if (!sealer)
        return sealer.failure(WatchExportError::InternalFailure);
    // ordered_json keeps the documented key order, so equal inputs give equal bytes.
    nlohmann::ordered_json records = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < plaintexts.size(); ++i) {
        auto sealed =
            sealer->seal(accountAssociatedData(i, plaintexts.size()), plaintexts[i], random);
        if (!sealed)
            return sealed.failure(WatchExportError::InternalFailure);
        records.push_back(encoding::toHex(*sealed));
    }

    nlohmann::ordered_json payload;
    payload["format"] = exportFormatName;
    payload["version"] = exportFormatVersion;
    payload["device"] = header.deviceId;
    payload["created"] = header.created;
    payload["slot"] = nlohmann::ordered_json{{"kdf", exportKdfName},
                                             {"iterations", header.iterations},
                                             {"salt", encoding::toHex(salt)},
                                             {"key", encoding::toHex(*wrapped)}};
    payload["accounts"] = std::move(records);
    try {
        return payload.dump();
    } catch (const nlohmann::json::exception& e) {
        // Only invalid UTF-8 in the device id could do this, and it is checked.
        return fail(WatchExportError::InternalFailure, e.what());
    }
}

} // namespace watchword::watch
