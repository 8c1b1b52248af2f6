#include "otp/OtpGenerator.h"

#include "crypto/CryptoState.h"

#include <array>
#include <cassert>
#include <utility>

namespace watchword::otp {

namespace {

// 10^n for n = 0..maximumDigits, as 64-bit values (10^10 > 2^32).
constexpr std::array<std::uint64_t, maximumDigits + 1> powersOfTen = [] {
    std::array<std::uint64_t, maximumDigits + 1> powers{};
    std::uint64_t value = 1;
    for (auto& power : powers) {
        power = value;
        value *= 10;
    }
    return powers;
}();

} // namespace

std::uint32_t dynamicTruncate(ByteView mac) noexcept
{
    assert(mac.size() >= 20);
    const std::size_t offset = mac[mac.size() - 1] & 0x0f;
    return (static_cast<std::uint32_t>(mac[offset] & 0x7f) << 24) |
           (static_cast<std::uint32_t>(mac[offset + 1]) << 16) |
           (static_cast<std::uint32_t>(mac[offset + 2]) << 8) |
           static_cast<std::uint32_t>(mac[offset + 3]);
}

Result<OtpGenerator, Error<OtpError>> OtpGenerator::create(const OtpParameters& parameters,
                                                           ByteView secret)
{
    if (crypto::isDisabled())
        return fail(OtpError::CryptoDisabled, crypto::disabledReason());
    if (auto valid = validate(parameters, secret.size()); !valid)
        return valid.failure();
    return OtpGenerator(parameters, crypto::HmacKey(parameters.algorithm, secret));
}

OtpGenerator::OtpGenerator(const OtpParameters& parameters, crypto::HmacKey key)
    : m_parameters(parameters), m_key(std::move(key))
{}

std::uint32_t OtpGenerator::truncatedValue(std::uint64_t counter) const noexcept
{
    // RFC 4226 section 5.2: the counter is an 8-byte big-endian value.
    std::uint8_t message[8];
    for (int i = 7; i >= 0; --i) {
        message[i] = static_cast<std::uint8_t>(counter);
        counter >>= 8;
    }
    // The MAC is not wiped: it only determines this counter's code, which is
    // shown to the user anyway, and says nothing about the key.
    std::uint8_t mac[64];
    const std::span<std::uint8_t> out(mac, m_key.size());
    m_key.compute(ByteView(message, sizeof message), out);
    return dynamicTruncate(out);
}

std::string OtpGenerator::formatCode(std::uint32_t truncated) const
{
    if (m_parameters.kind == OtpKind::Steam) {
        std::string code(steamDigits, '\0');
        std::uint32_t value = truncated;
        for (auto& symbol : code) {
            symbol = steamAlphabet[value % steamAlphabet.size()];
            value /= static_cast<std::uint32_t>(steamAlphabet.size());
        }
        return code;
    }
    const auto digits = static_cast<std::size_t>(m_parameters.digits);
    assert(digits <= maximumDigits);
    std::uint64_t value = truncated % powersOfTen[digits];
    std::string code(digits, '0');
    for (std::size_t i = digits; i-- > 0 && value != 0;) {
        code[i] = static_cast<char>('0' + value % 10);
        value /= 10;
    }
    return code;
}

std::string OtpGenerator::codeForCounter(std::uint64_t counter) const
{
    return formatCode(truncatedValue(counter));
}

Result<std::string, Error<OtpError>> OtpGenerator::codeForTime(std::int64_t unixSeconds) const
{
    if (!m_parameters.isTimeBased())
        return fail(OtpError::NotTimeBased,
                    "an HOTP account's code depends on its counter, not on the time");
    auto counter = counterForTime(unixSeconds, m_parameters.period);
    if (!counter)
        return counter.failure();
    return codeForCounter(*counter);
}

} // namespace watchword::otp
