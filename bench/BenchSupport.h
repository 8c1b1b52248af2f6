// Small helpers shared by the benchmark files: fixed inputs from hex, and a
// RandomSource that repeats a fixed pattern (to take the cost of randomness
// out of a measurement, or to give two implementations the same key).
#pragma once

#include "base/Bytes.h"
#include "crypto/Random.h"
#include "encoding/Hex.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string_view>
#include <utility>

namespace watchword::bench {

// The bytes of a hex constant written in a benchmark file. A malformed
// constant is a bug in the benchmark: stop at once, naming it.
inline Bytes bytesFromHex(std::string_view text)
{
    auto decoded = encoding::fromHex(text);
    if (!decoded) {
        std::fprintf(stderr, "watchword-bench: bad hex constant \"%.*s\": %s\n",
                     static_cast<int>(text.size()), text.data(), decoded.error().message.c_str());
        std::abort();
    }
    return std::move(decoded).value();
}

// Fills every request with pattern, repeated from its start (so a 32-byte
// pattern gives the same 32 bytes to every 32-byte request). Never for keys
// outside a benchmark.
class RepeatingRandom final : public crypto::RandomSource
{
public:
    explicit RepeatingRandom(Bytes pattern) : m_pattern(std::move(pattern))
    {
        if (m_pattern.empty())
            std::abort(); // a benchmark bug: there is nothing to repeat
    }

    void fill(std::span<std::uint8_t> out) override
    {
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = m_pattern[i % m_pattern.size()];
    }

private:
    Bytes m_pattern;
};

} // namespace watchword::bench
