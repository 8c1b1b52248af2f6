// The watch export: the payload a Connect IQ watch app loads, holding the
// accounts the user chose, sealed so that only the watch PIN opens them
// (docs/FORMAT.md section 8).
//
// Everything in it opens with what a watch has natively: PBKDF2 and HKDF are
// built on HMAC-SHA256, the records are section 2's envelope (AES-256-CBC +
// HMAC-SHA256, encrypt-then-MAC), so RecordSealer writes both the slot and
// the records. The PIN slot is protection against casual reading only: a
// 4-digit PIN falls to offline guessing in seconds (docs/SECURITY.md).
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"
#include "crypto/Random.h"
#include "otp/OtpParameters.h"
#include "watch/Limits.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::vault {
struct OtpAccount;
}

namespace watchword::watch {

inline constexpr std::string_view exportFormatName = "watchword-watch-export";
inline constexpr std::uint32_t exportFormatVersion = 1;
inline constexpr std::string_view exportKdfName = "pbkdf2-hmac-sha256";

// The round count is the caller's (the cost model calibrates it per watch),
// within watch/Limits.h's bounds.

// Watch buttons enter digits only.
inline constexpr std::size_t minimumPinLength = 4;
inline constexpr std::size_t maximumPinLength = 12;

inline constexpr std::size_t saltSize = 16;
inline constexpr std::size_t exportKeySize = 32;
inline constexpr std::size_t maximumAccounts = 256;
inline constexpr std::size_t maximumDeviceIdLength = 64;
// More than a watch screen shows; keeps a record's length fields small.
inline constexpr std::size_t maximumTextSize = 1024;
inline constexpr std::size_t maximumSecretSize = 1024;

// Associated-data labels (docs/FORMAT.md section 8.3).
inline constexpr std::string_view slotLabel = "watchword/watch/v1 slot";
inline constexpr std::string_view accountLabel = "watchword/watch/v1 account";

// What the watch needs of an account, and nothing else: no tags, no notes,
// no times.
struct WatchAccount
{
    std::string issuer;
    std::string accountName;
    SecureBuffer secret;
    otp::OtpParameters parameters; // period for TOTP/Steam, counter for HOTP
};

[[nodiscard]] WatchAccount watchAccountFrom(const vault::OtpAccount& account);

struct ExportHeader
{
    std::string deviceId;     // a device profile id: 1..64 of a-z 0-9 _ -
    std::int64_t created = 0; // Unix seconds
    std::uint32_t iterations = 0;
};

enum class WatchExportError {
    BadPin,            // not 4 to 12 ASCII digits
    IterationsTooLow,  // under minimumIterations
    IterationsTooHigh, // over maximumIterations
    BadDeviceId,       // empty, too long, or a character outside a-z 0-9 _ -
    NoAccounts,        // nothing to export, or more than maximumAccounts
    InvalidAccount,    // parameters otp::validate refuses, or a field too long
    InternalFailure,   // a derivation or the sealer failed
};

template <typename T> using WatchExportResult = Result<T, Error<WatchExportError>>;

// Checks the PIN and the round count as the export does (the CLI asks early).
[[nodiscard]] WatchExportResult<void> checkPin(std::string_view pin);
[[nodiscard]] WatchExportResult<void> checkIterations(std::uint32_t iterations);
[[nodiscard]] bool isValidDeviceId(std::string_view deviceId) noexcept;

// A record's plaintext (section 8.4); WatchOpener decodes it.
[[nodiscard]] WatchExportResult<SecureBuffer> encodeAccount(const WatchAccount& account);

// The associated data of the slot envelope and of account i of count.
[[nodiscard]] Bytes slotAssociatedData(const ExportHeader& header, ByteView salt,
                                       std::size_t accountCount);
[[nodiscard]] Bytes accountAssociatedData(std::size_t index, std::size_t count);

// Writes the payload: compact JSON text (section 8.2). Random bytes are drawn
// in this order: the salt (16), the export key (32), the slot IV (16), one IV
// per account in order (16 each).
[[nodiscard]] WatchExportResult<std::string> writeExport(const ExportHeader& header,
                                                         std::string_view pin,
                                                         std::span<const WatchAccount> accounts,
                                                         crypto::RandomSource& random);

} // namespace watchword::watch
