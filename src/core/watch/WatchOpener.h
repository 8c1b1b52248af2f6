// Opens a watch export (docs/FORMAT.md section 8) the way the watch app must:
// with only the primitives Toybox.Cryptography has natively. PBKDF2 and HKDF
// are written here on HMAC-SHA256, the PKCS#7 padding is checked here, and
// tags are compared here, so nothing of crypto/ is used: if this opens a
// payload, a Connect IQ app built on the same four calls can too.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "watch/WatchExport.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::watch {

// What a Connect IQ watch offers natively (API 3.0.0+): SHA-1 and SHA-256
// hashes, HMAC with SHA-256 only, AES-256-CBC over whole blocks (the app pads
// and unpads). SHA-1 is here because TOTP-SHA1 on the watch builds its HMAC
// on it; opening an export does not need it.
class NativePrimitives
{
public:
    virtual ~NativePrimitives() = default;
    virtual std::array<std::uint8_t, 20> sha1(ByteView data) = 0;
    virtual std::array<std::uint8_t, 32> sha256(ByteView data) = 0;
    virtual std::array<std::uint8_t, 32> hmacSha256(ByteView key, ByteView message) = 0;
    // Decrypts whole blocks into out (ciphertext.size() bytes), no padding
    // removed. False if the key is not 32 bytes, the IV not 16, or the
    // ciphertext not whole blocks.
    virtual bool aes256CbcDecrypt(ByteView key, ByteView iv, ByteView ciphertext,
                                  std::span<std::uint8_t> out) = 0;
};

// The desktop's stand-in for the watch: the same four calls over OpenSSL.
class OpenSslPrimitives final : public NativePrimitives
{
public:
    std::array<std::uint8_t, 20> sha1(ByteView data) override;
    std::array<std::uint8_t, 32> sha256(ByteView data) override;
    std::array<std::uint8_t, 32> hmacSha256(ByteView key, ByteView message) override;
    bool aes256CbcDecrypt(ByteView key, ByteView iv, ByteView ciphertext,
                          std::span<std::uint8_t> out) override;
};

enum class WatchOpenError {
    Malformed,          // not the JSON of section 8.2, a field of the wrong type or size, truncated
    UnsupportedVersion, // another format name or version, or a slot KDF other than PBKDF2
    BadPin,             // the PIN entered is not 4 to 12 digits
    BadIterations,      // the slot's round count is outside 2,000..500,000
    WrongPin,           // the slot's tag does not verify: wrong PIN, or header/slot altered
    RecordTampered,     // an account's tag does not verify (the PIN was right)
    RecordCorrupt,      // a verified envelope with bad padding or a bad account encoding
    PrimitiveFailure,   // the native AES call refused its input
};

template <typename T> using WatchOpenResult = Result<T, Error<WatchOpenError>>;

struct OpenedExport
{
    ExportHeader header;
    std::vector<WatchAccount> accounts;
};

// What a payload says before its PIN is entered: its header and how many
// accounts it holds, after the same checks of its form as openExport.
struct ExportSummary
{
    ExportHeader header;
    std::size_t accounts = 0;
};
[[nodiscard]] WatchOpenResult<ExportSummary> inspectExport(std::string_view payload);

[[nodiscard]] WatchOpenResult<OpenedExport>
openExport(std::string_view payload, std::string_view pin, NativePrimitives& primitives);

} // namespace watchword::watch
