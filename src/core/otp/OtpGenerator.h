// One-time codes for one account: HOTP (RFC 4226), TOTP (RFC 6238) and Steam
// Guard, from a keyed HMAC state prepared once.
//
// create() hashes the secret into HMAC inner/outer chaining values
// (crypto::HmacKey) and keeps only those; the secret itself is not stored.
// Each code afterwards costs two hash compressions: the 8-byte counter fits in
// one inner block, the inner digest in one outer block. The object is what an
// account list keeps per row and ticks every second.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "crypto/Hmac.h"
#include "otp/OtpParameters.h"

#include <cstdint>
#include <string>

namespace watchword::otp {

// RFC 4226 section 5.3 dynamic truncation: the low 4 bits of the last MAC byte
// pick an offset, and the 4 bytes there, big-endian with the top bit cleared,
// are the 31-bit value. mac is a full HMAC-SHA1/256/512 output (at least 20
// bytes; offsets reach byte 18).
[[nodiscard]] std::uint32_t dynamicTruncate(ByteView mac) noexcept;

class OtpGenerator
{
public:
    // Validates parameters against secret (validate() in OtpParameters.h) and
    // prepares the HMAC key. The caller keeps and wipes secret.
    [[nodiscard]] static Result<OtpGenerator, Error<OtpError>>
    create(const OtpParameters& parameters, ByteView secret);

    const OtpParameters& parameters() const noexcept { return m_parameters; }

    // The 31-bit dynamic-truncation value for counter, before it is written as
    // digits or Steam symbols. For benchmarks and known-answer tests.
    [[nodiscard]] std::uint32_t truncatedValue(std::uint64_t counter) const noexcept;

    // truncatedValue written as the code: Steam, 5 symbols of steamAlphabet,
    // least significant first (the value divided by 26 after each); otherwise
    // the value modulo 10^digits, zero-padded to digits (10 digits: the whole
    // 31-bit value, zero-padded).
    [[nodiscard]] std::string formatCode(std::uint32_t truncated) const;

    // The code for an explicit counter, whatever the kind (for a TOTP or Steam
    // account the counter is a time step).
    [[nodiscard]] std::string codeForCounter(std::uint64_t counter) const;

    // The TOTP or Steam code at unixSeconds (counterForTime(), then
    // codeForCounter()). Fails with TimeBeforeEpoch for negative times and
    // NotTimeBased for an HOTP account.
    [[nodiscard]] Result<std::string, Error<OtpError>> codeForTime(std::int64_t unixSeconds) const;

    // Seconds the code at unixSeconds stays valid: 1..period. For the
    // countdown; meaningless (but harmless) for HOTP.
    [[nodiscard]] std::uint32_t secondsRemaining(std::int64_t unixSeconds) const noexcept
    {
        return otp::secondsRemaining(unixSeconds, m_parameters.period);
    }

private:
    OtpGenerator(const OtpParameters& parameters, crypto::HmacKey key);

    OtpParameters m_parameters;
    crypto::HmacKey m_key;
};

} // namespace watchword::otp
