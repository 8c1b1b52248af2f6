#include "perf/catalogue/Catalogue.h"

#include "crypto/Secp256k1.h"
#include "encoding/Hex.h"
#include "perf/Benchmark.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <utility>

namespace watchword::perf {

namespace entries {

Bytes bytesFromHex(std::string_view text)
{
    auto decoded = encoding::fromHex(text);
    if (!decoded) {
        std::fprintf(stderr, "watchword perf catalogue: bad hex constant \"%.*s\": %s\n",
                     static_cast<int>(text.size()), text.data(), decoded.error().message.c_str());
        std::abort();
    }
    return std::move(decoded).value();
}

RepeatingRandom::RepeatingRandom(Bytes pattern) : m_pattern(std::move(pattern))
{
    if (m_pattern.empty())
        std::abort(); // a catalogue bug: there is nothing to repeat
}

void RepeatingRandom::fill(std::span<std::uint8_t> out)
{
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = m_pattern[i % m_pattern.size()];
}

ScriptedRandom::ScriptedRandom(Bytes script) : m_script(std::move(script)) {}

void ScriptedRandom::fill(std::span<std::uint8_t> out)
{
    const std::size_t given = std::min(out.size(), m_script.size() - m_used);
    std::copy_n(m_script.begin() + static_cast<std::ptrdiff_t>(m_used), given, out.begin());
    std::fill(out.begin() + static_cast<std::ptrdiff_t>(given), out.end(), std::uint8_t{0});
    m_used += given;
    m_overrun = m_overrun || given < out.size();
}

bool ScriptedRandom::usedExactly() const noexcept
{
    return !m_overrun && m_used == m_script.size();
}

extern "C" int perfCopyXCoordinate(unsigned char* output, const unsigned char* x32,
                                   const unsigned char* /*y32*/, void* /*data*/)
{
    std::memcpy(output, x32, crypto::ecdhSecretSize);
    return 1;
}

Bytes concatenate(ByteView a, ByteView b)
{
    Bytes result(a.size() + b.size());
    std::copy(b.begin(), b.end(), std::copy(a.begin(), a.end(), result.begin()));
    return result;
}

Prepared notTheSameWork(std::string_view reference, std::string_view ours)
{
    return notPrepared(std::string(reference) + " does not compute what " + std::string(ours) +
                       " computes: not the same work, so not timed");
}

} // namespace entries

const std::vector<Benchmark>& catalogue()
{
    // Built on first use (C++ makes that thread-safe) and never changed.
    static const std::vector<Benchmark> list = [] {
        std::vector<Benchmark> all;
        for (auto part :
             {entries::keychainBenchmarks, entries::senderDhBenchmarks, entries::shareBenchmarks,
              entries::noteBenchmarks, entries::totpBenchmarks, entries::kdfBenchmarks,
              entries::recordBenchmarks, entries::selfTestBenchmarks, entries::vaultBenchmarks}) {
            auto benchmarks = part();
            std::move(benchmarks.begin(), benchmarks.end(), std::back_inserter(all));
        }
        // Ours first, in the order above, then the references in the same order.
        std::stable_partition(all.begin(), all.end(),
                              [](const Benchmark& benchmark) { return !benchmark.isReference(); });
        return all;
    }();
    return list;
}

const Benchmark* findBenchmark(const std::string& name)
{
    const auto& list = catalogue();
    const auto found = std::find_if(list.begin(), list.end(), [&name](const Benchmark& benchmark) {
        return benchmark.name == name;
    });
    return found == list.end() ? nullptr : &*found;
}

} // namespace watchword::perf
