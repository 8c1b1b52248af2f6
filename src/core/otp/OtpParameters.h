// What defines a one-time-password account apart from its secret: the kind
// (TOTP, HOTP, Steam Guard), the hash, the code length, the time step and the
// HOTP counter. Plus the two pieces of time arithmetic every TOTP display
// needs, with the time always passed in (Unix seconds), never read here.
#pragma once

#include "base/Result.h"
#include "crypto/Hash.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace watchword::otp {

enum class OtpKind {
    Totp,  // RFC 6238: HOTP over floor(unixSeconds / period), T0 = 0
    Hotp,  // RFC 4226: HOTP over an event counter
    Steam, // Steam Guard: TOTP-SHA1, 30 s, the value written as 5 letters/digits
};

enum class OtpError {
    EmptySecret,      // no key bytes: every code would be predictable
    InvalidDigits,    // outside 6..10 (TOTP/HOTP), not 5 (Steam)
    InvalidPeriod,    // zero (TOTP), not 30 (Steam)
    InvalidAlgorithm, // Steam is defined over HMAC-SHA1 only
    TimeBeforeEpoch,  // a negative Unix time has no RFC 6238 counter
    NotTimeBased,     // asked an HOTP account for a code at a time
    CryptoDisabled,   // the start-up self-test failed (crypto/CryptoState.h)
};

// RFC 4226 section 5.3: "Implementations MUST extract a 6-digit code at a
// minimum". The truncated value has 31 bits (< 2^31 = 2147483648), so ten
// digits already show all of it: more digits would only add leading zeros.
inline constexpr int minimumDigits = 6;
inline constexpr int maximumDigits = 10;

// Google's Key Uri Format defaults: 6 digits, 30 s (RFC 6238 section 5.2
// recommends 30 s), SHA-1.
inline constexpr int defaultDigits = 6;
inline constexpr std::uint32_t defaultPeriod = 30;

// Steam Guard: 5 symbols from this 26-character alphabet (no vowels, no
// look-alikes such as 0/O or 1/I), HMAC-SHA1, 30 s steps, as Steam's mobile
// authenticator computes them.
inline constexpr int steamDigits = 5;
inline constexpr std::uint32_t steamPeriod = 30;
inline constexpr std::string_view steamAlphabet = "23456789BCDFGHJKMNPQRTVWXY";

struct OtpParameters
{
    OtpKind kind = OtpKind::Totp;
    crypto::HashAlgorithm algorithm = crypto::HashAlgorithm::Sha1;
    int digits = defaultDigits;           // code length; Steam: steamDigits
    std::uint32_t period = defaultPeriod; // seconds per step; used by Totp and Steam
    std::uint64_t counter = 0;            // the next HOTP counter; used by Hotp only

    // A Steam Guard account's fixed parameters.
    static OtpParameters steam() noexcept
    {
        return {OtpKind::Steam, crypto::HashAlgorithm::Sha1, steamDigits, steamPeriod, 0};
    }

    bool isTimeBased() const noexcept { return kind != OtpKind::Hotp; }
    friend bool operator==(const OtpParameters&, const OtpParameters&) = default;
};

// "totp", "hotp", "steam".
[[nodiscard]] std::string_view kindName(OtpKind kind) noexcept;
// "TOTP", "HOTP", "Steam": the kind as a person reads it.
[[nodiscard]] std::string_view kindTitle(OtpKind kind) noexcept;

// Checks parameters for an account whose secret has secretSize bytes:
// a non-empty secret; TOTP/HOTP: digits in minimumDigits..maximumDigits and,
// for TOTP, a non-zero period; Steam: exactly SHA-1, 5 digits and 30 s.
// The HOTP counter may be any 64-bit value (RFC 4226 section 5.2).
[[nodiscard]] Result<void, Error<OtpError>> validate(const OtpParameters& parameters,
                                                     std::size_t secretSize);

// The RFC 6238 section 4.2 step counter T = floor(unixSeconds / period) with
// T0 = 0. Times before the epoch fail with TimeBeforeEpoch instead of wrapping
// into a huge unsigned counter (the RFC defines T only from T0 on), and a zero
// period fails with InvalidPeriod.
[[nodiscard]] Result<std::uint64_t, Error<OtpError>> counterForTime(std::int64_t unixSeconds,
                                                                    std::uint32_t period);

// Seconds until the step that contains unixSeconds ends: 1..period, period
// exactly at a step boundary. Uses the floor remainder, so it is well defined
// for negative times too. Returns 0 if period is 0.
[[nodiscard]] std::uint32_t secondsRemaining(std::int64_t unixSeconds,
                                             std::uint32_t period) noexcept;

} // namespace watchword::otp
