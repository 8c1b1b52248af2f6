#include "vault/Calibration.h"

#include "base/SecureBuffer.h"

#include <algorithm>
#include <array>
#include <limits>

namespace watchword::vault {

std::uint32_t iterationsFor(std::uint64_t iterationsPerSecond,
                            std::uint32_t targetMilliseconds) noexcept
{
    // A rate near 2^64 times a 60 s target must not wrap around.
    const bool overflows =
        targetMilliseconds != 0 &&
        iterationsPerSecond > std::numeric_limits<std::uint64_t>::max() / targetMilliseconds;
    const std::uint64_t wanted =
        overflows ? maximumPasswordIterations : iterationsPerSecond * targetMilliseconds / 1000;
    return static_cast<std::uint32_t>(
        std::clamp<std::uint64_t>(wanted, minimumPasswordIterations, maximumPasswordIterations));
}

Result<Calibration, Error<CalibrationError>>
calibratePasswordKdf(std::uint32_t targetMilliseconds, std::chrono::milliseconds sampleTime)
{
    if (targetMilliseconds < 1 || targetMilliseconds > 60'000)
        return fail(CalibrationError::TargetOutOfRange, "calibration target of " +
                                                            std::to_string(targetMilliseconds) +
                                                            " ms is outside 1 to 60,000 ms");
    using Clock = std::chrono::steady_clock;
    // A throwaway password and salt of the real shapes: the cost per iteration
    // does not depend on them.
    constexpr std::array<std::uint8_t, 16> password{};
    constexpr std::array<std::uint8_t, 32> salt{};
    SecureBuffer out(32);
    // Grow the batch until one batch takes a measurable slice of the sample,
    // then keep the best rate: interference only ever slows a batch down.
    std::uint32_t batch = 10'000;
    std::uint64_t bestRate = 0;
    const auto deadline = Clock::now() + sampleTime;
    do {
        const auto start = Clock::now();
        if (auto ran =
                crypto::pbkdf2(crypto::HashAlgorithm::Sha256, password, salt, batch, out.span());
            !ran)
            return ran.failure(CalibrationError::CryptoDisabled);
        const auto elapsed =
            std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start);
        if (elapsed.count() > 0)
            bestRate = std::max<std::uint64_t>(
                bestRate, static_cast<std::uint64_t>(batch) * 1'000'000'000ULL /
                              static_cast<std::uint64_t>(elapsed.count()));
        if (elapsed < sampleTime / 10)
            batch *= 2;
    } while (Clock::now() < deadline);
    return Calibration{iterationsFor(bestRate, targetMilliseconds), targetMilliseconds, bestRate};
}

} // namespace watchword::vault
