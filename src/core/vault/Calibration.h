// Choosing the password slot's PBKDF2 iteration count: as many iterations as
// our PBKDF2-HMAC-SHA256 runs in the target time on this machine, never fewer
// than the floor, never more than the ceiling a vault file may hold.
#pragma once

#include "base/Result.h"
#include "crypto/Kdf.h"

#include <chrono>
#include <cstdint>

namespace watchword::vault {

// OWASP's 2023 figure for PBKDF2-HMAC-SHA256: the least a desktop vault uses.
inline constexpr std::uint32_t minimumPasswordIterations = 600'000;
// The most a vault file may ask for: at our speed here, several seconds. A
// crafted file asking for more is refused before any work.
inline constexpr std::uint32_t maximumPasswordIterations = 50'000'000;
inline constexpr std::uint32_t defaultTargetMilliseconds = 1000;

enum class CalibrationError {
    TargetOutOfRange, // the target time is outside 1..60,000 ms
    CryptoDisabled,   // the start-up self-test failed
};

struct Calibration
{
    std::uint32_t iterations = minimumPasswordIterations; // the count chosen
    std::uint32_t targetMilliseconds = defaultTargetMilliseconds;
    std::uint64_t iterationsPerSecond = 0; // measured on this machine
};

// Measures pbkdf2(Sha256) on this machine for about sampleTime and picks the
// count that takes targetMilliseconds, clamped to [minimum, maximum]. Fails
// only if crypto is disabled or the target is outside 1..60,000 ms.
[[nodiscard]] Result<Calibration, Error<CalibrationError>>
calibratePasswordKdf(std::uint32_t targetMilliseconds = defaultTargetMilliseconds,
                     std::chrono::milliseconds sampleTime = std::chrono::milliseconds(100));

// The count for a measured rate and a target, clamped as above (the pure part
// of calibratePasswordKdf, for tests).
[[nodiscard]] std::uint32_t iterationsFor(std::uint64_t iterationsPerSecond,
                                          std::uint32_t targetMilliseconds) noexcept;

} // namespace watchword::vault
