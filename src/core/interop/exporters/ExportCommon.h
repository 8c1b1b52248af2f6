// What the exporters share: errors worded alike, accounts named alike in
// messages (never by secret), Base64 and UUIDs, and a growing buffer for
// text that holds secrets. Internal to exporters/.
#pragma once

#include "encoding/Base64.h"
#include "interop/exporters/Export.h"
#include "otp/OtpauthUri.h"

#include <string>
#include <string_view>
#include <vector>

namespace watchword::exporters::detail {

Failure<Error<ExportError>> fail(ExportError code, std::string message);

// "entry 3 (GitHub)": the account's position (from 1) and its issuer, else
// its name; never its secret.
std::string entryLabel(std::size_t index, const vault::OtpAccount& account);

// The warning for an account whose tags or note the format cannot keep
// ("entry 3 (GitHub): the tags left out (why)"), or "" if it has neither.
std::string droppedFieldsWarning(std::size_t index, const vault::OtpAccount& account,
                                 std::string_view why);

using encoding::toBase64;
using encoding::toBase64Secure;

// A random (version 4) UUID in its lower-case 8-4-4-4-12 form: 16 bytes from
// random with the version and variant bits set (RFC 9562 section 5.4).
std::string randomUuid(crypto::RandomSource& random);

// Text that holds secrets, built by appending: every buffer it outgrows is
// wiped (a SecureBuffer), so no copy of a secret is left behind.
class SecureText
{
public:
    void append(std::string_view text);
    void append(ByteView bytes);
    void append(char c) { append(std::string_view(&c, 1)); }
    std::size_t size() const { return m_size; }
    // The text so far, in a buffer of exactly its size.
    SecureBuffer take();

private:
    SecureBuffer m_buffer;
    std::size_t m_size = 0;
};

// The canonical otpauth:// URI of account (otpauthUriOf without the
// account's name in the message, for callers that name it their own way),
// with extra parameters after the known ones (percent-encoded).
[[nodiscard]] ExportResult<SecureBuffer> canonicalUri(const vault::OtpAccount& account,
                                                      std::vector<otp::UriParameter> extra = {});

// One canonical URI a line (with extraOf(account)'s parameters), in the order
// given: an account no URI can hold is left out with a warning (label names
// the format in the error when none is left); if keepsTagsAndNote is false,
// an account's tags and note are dropped with a warning saying why.
[[nodiscard]] ExportResult<Exported>
exportUriLines(std::span<const vault::OtpAccount> accounts, std::string_view label,
               std::vector<otp::UriParameter> (*extraOf)(const vault::OtpAccount&),
               std::string_view droppedWhy);

// The per-format writers behind exportAccounts (accounts is not empty; the
// password, where one is needed, is not empty).
[[nodiscard]] ExportResult<Exported>
exportWatchwordBackup(std::span<const vault::OtpAccount> accounts, ByteView password,
                      std::uint32_t iterations, std::int64_t now, crypto::RandomSource& random);
// password: nullopt writes the plain JSON.
[[nodiscard]] ExportResult<Exported> exportAegis(std::span<const vault::OtpAccount> accounts,
                                                 std::optional<ByteView> password,
                                                 crypto::RandomSource& random);
[[nodiscard]] ExportResult<Exported> exportOtpauthList(std::span<const vault::OtpAccount> accounts);
[[nodiscard]] ExportResult<Exported> exportEnte(std::span<const vault::OtpAccount> accounts);
[[nodiscard]] ExportResult<Exported> exportTwoFas(std::span<const vault::OtpAccount> accounts,
                                                  std::int64_t now, crypto::RandomSource& random);
[[nodiscard]] ExportResult<Exported>
exportGoogleMigration(std::span<const vault::OtpAccount> accounts, crypto::RandomSource& random);

} // namespace watchword::exporters::detail
