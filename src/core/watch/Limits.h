// The bounds of the watch PIN slot's PBKDF2-HMAC-SHA256 round count, one
// definition for the cost model (which calibrates the count) and the export
// (which writes it).
#pragma once

#include <cstdint>

namespace watchword::watch {

// The notes: "If the watch manages fewer than 2,000 PBKDF2 iterations per
// second, unlocking takes longer than the 1 s target (the lower bound is kept
// for security)": the lower bound is 2,000 rounds, kept even when it makes
// the unlock slower than the target.
inline constexpr std::uint32_t minimumIterations = 2'000;
// The ceiling catches a mistaken count: 500,000 rounds take about 26 s even
// at the simulator's rate, minutes on a watch.
inline constexpr std::uint32_t maximumIterations = 500'000;

} // namespace watchword::watch
