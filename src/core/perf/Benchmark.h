// The benchmark catalogue: every operation Watchword measures, under the
// names of the reference reports, each beside the reference it is compared
// with. One catalogue serves every front end: watchword-bench registers it
// with Google Benchmark, watchword-cli bench and the app's Diagnostics view
// measure it with the Criterion-model runner (perf/Runner.h).
//
// A benchmark is prepared once (keys, vault files, inputs: outside the
// timing), then its routine runs the operation a given number of times. The
// front end times the routine; the routine never reads a clock.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace watchword::perf {

// A prepared benchmark. run(n) performs the measured operation n times.
// Routines may be run from any one thread at a time.
class Routine
{
public:
    virtual ~Routine() = default;
    virtual void run(std::uint64_t iterations) = 0;
    // Called after every sample, outside the timing: where a routine whose
    // iterations make something expensive to destroy (an unlocked vault)
    // drops what it kept, as Criterion's iter_with_large_drop does.
    virtual void afterSample() {}
};

// Keeps value (and what it points to) alive as far as the optimizer is
// concerned, so the work that produced it cannot be removed.
template <typename T> inline void keep(T const& value)
{
    asm volatile("" : : "r,m"(value) : "memory");
}

// A routine from a callable run once per iteration; the call is inlined into
// the loop, so it costs what writing the loop by hand costs.
template <typename F> std::unique_ptr<Routine> loop(F operation)
{
    class Loop final : public Routine
    {
    public:
        explicit Loop(F operation) : m_operation(std::move(operation)) {}
        void run(std::uint64_t iterations) override
        {
            for (std::uint64_t i = 0; i < iterations; ++i)
                m_operation();
        }

    private:
        F m_operation;
    };
    return std::make_unique<Loop>(std::move(operation));
}

// What prepare() returns: the routine, or why the benchmark cannot run (a
// reference that does not compute what ours computes, a failed setup).
struct Prepared
{
    std::unique_ptr<Routine> routine;
    std::string error; // empty when routine is set
};

inline Prepared prepared(std::unique_ptr<Routine> routine)
{
    return {std::move(routine), {}};
}

inline Prepared notPrepared(std::string why)
{
    return {nullptr, std::move(why)};
}

struct Benchmark
{
    std::string name;        // "totp/sha1", "ref/openssl_hmac_oneshot_totp_sha1"
    std::string description; // one sentence: what one iteration does
    // Work per iteration for a throughput figure (e.g. 1000 "rounds" for
    // pbkdf2/sha256_1000, shown as rounds/s); 0 for none.
    double unitsPerIteration = 0;
    std::string unit; // "rounds", "bytes", ...
    std::function<Prepared()> prepare;

    // A reference: ours is compared against it (names start with "ref/").
    bool isReference() const { return name.starts_with("ref/"); }
};

// Every benchmark, in the order the reports list them: the reference
// documents' operations first, then the vault's, then the references.
const std::vector<Benchmark>& catalogue();

// The benchmark of that name, or nullptr.
const Benchmark* findBenchmark(const std::string& name);

} // namespace watchword::perf
