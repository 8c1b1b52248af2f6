// Where randomness comes from. Everything that needs random bytes takes a
// RandomSource&, so tests can inject a fixed one; the product passes
// systemRandom().
#pragma once

#include <cstdint>
#include <span>

namespace watchword::crypto {

class RandomSource
{
public:
    virtual ~RandomSource() = default;
    // Fills out with random bytes. Never fails: a source that cannot deliver
    // stops the process rather than return predictable bytes.
    virtual void fill(std::span<std::uint8_t> out) = 0;
};

// The kernel CSPRNG through getrandom(2): no user-space state, so it stays
// safe across fork(), and it blocks only until the kernel pool is first
// seeded. Measured faster per call than RAND_bytes (docs/PERFORMANCE.md).
class SystemRandom final : public RandomSource
{
public:
    void fill(std::span<std::uint8_t> out) override;
};

// The process-wide system source.
RandomSource& systemRandom();

} // namespace watchword::crypto
