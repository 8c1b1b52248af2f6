#include "otp/OtpParameters.h"

#include <string>

namespace watchword::otp {

std::string_view kindName(OtpKind kind) noexcept
{
    switch (kind) {
    case OtpKind::Totp:
        return "totp";
    case OtpKind::Hotp:
        return "hotp";
    case OtpKind::Steam:
        return "steam";
    }
    return {};
}

std::string_view kindTitle(OtpKind kind) noexcept
{
    switch (kind) {
    case OtpKind::Totp:
        return "TOTP";
    case OtpKind::Hotp:
        return "HOTP";
    case OtpKind::Steam:
        return "Steam";
    }
    return {};
}

Result<void, Error<OtpError>> validate(const OtpParameters& parameters, std::size_t secretSize)
{
    if (secretSize == 0)
        return fail(OtpError::EmptySecret, "the OTP secret is empty");

    if (parameters.kind == OtpKind::Steam) {
        if (parameters.algorithm != crypto::HashAlgorithm::Sha1)
            return fail(OtpError::InvalidAlgorithm,
                        "Steam Guard codes use SHA1, not " +
                            std::string(crypto::hashName(parameters.algorithm)));
        if (parameters.digits != steamDigits)
            return fail(OtpError::InvalidDigits, "Steam Guard codes have 5 characters, not " +
                                                     std::to_string(parameters.digits));
        if (parameters.period != steamPeriod)
            return fail(OtpError::InvalidPeriod, "Steam Guard codes change every 30 seconds, not " +
                                                     std::to_string(parameters.period));
        return {};
    }

    if (parameters.digits < minimumDigits || parameters.digits > maximumDigits)
        return fail(OtpError::InvalidDigits,
                    "an OTP code has 6 to 10 digits, not " + std::to_string(parameters.digits));
    if (parameters.kind == OtpKind::Totp && parameters.period == 0)
        return fail(OtpError::InvalidPeriod, "a TOTP period must be at least 1 second, not 0");
    return {};
}

Result<std::uint64_t, Error<OtpError>> counterForTime(std::int64_t unixSeconds,
                                                      std::uint32_t period)
{
    if (period == 0)
        return fail(OtpError::InvalidPeriod, "a TOTP period must be at least 1 second, not 0");
    if (unixSeconds < 0)
        return fail(OtpError::TimeBeforeEpoch,
                    "time " + std::to_string(unixSeconds) +
                        " is before the Unix epoch, where TOTP has no counter");
    return static_cast<std::uint64_t>(unixSeconds) / period;
}

std::uint32_t secondsRemaining(std::int64_t unixSeconds, std::uint32_t period) noexcept
{
    if (period == 0)
        return 0;
    const std::int64_t step = period;
    std::int64_t into = unixSeconds % step; // C++ truncates toward zero...
    if (into < 0)
        into += step; // ...so fold negative times onto 0..period-1 (floor remainder)
    return static_cast<std::uint32_t>(step - into);
}

} // namespace watchword::otp
