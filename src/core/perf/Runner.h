// Measuring a benchmark on Criterion's model (the statistics are in
// stats/Estimates.h):
//
//  1. Warm-up: run the routine 1, 2, 4, ... iterations at a time until the
//     warm-up time has passed; the mean time per iteration so far estimates
//     the cost of one iteration (t).
//  2. Sampling. Linear: sample i of n runs i * d iterations, with d chosen so
//     the n samples fill the measurement time: d = ceil(T / (t * n(n+1)/2)).
//     If even d = 1 would take more than twice the measurement time (a slow
//     operation), flat sampling instead, as Criterion's automatic mode does:
//     every sample runs the same ceil(T / (t * n)) iterations (at least one).
//  3. Every statistic with its bootstrap interval. The point estimate is the
//     slope for linear sampling and the mean for flat sampling, where a
//     regression through equal x values says nothing more.
//
// Cancellation is checked before every warm-up batch and every sample: a
// cancelled run stops within one sample of the routine.
#pragma once

#include "perf/Benchmark.h"
#include "stats/Estimates.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace watchword::perf {

struct Profile
{
    std::string name;
    std::size_t sampleSize = 50;
    std::chrono::nanoseconds warmUp = std::chrono::seconds(2);
    std::chrono::nanoseconds measurement = std::chrono::seconds(10);
    std::size_t resamples = 100'000;
    // What reads the time around each batch of iterations; empty means
    // std::chrono::steady_clock. Tests give a clock that counts the work their
    // fake routines account for, so what they measure does not hang on the
    // machine's load.
    std::function<std::chrono::nanoseconds()> clock;
};

// The reference reports' settings: 50 samples, 2 s warm-up, 10 s measurement,
// 100,000 bootstrap resamples (Criterion's defaults).
Profile fullProfile();
// About a second per benchmark: 20 samples, 0.25 s warm-up, 0.75 s
// measurement, 10,000 resamples.
Profile quickProfile();
// "quick" or "full"; nullopt for any other name.
std::optional<Profile> profileNamed(const std::string& name);

enum class Sampling { Linear, Flat };

enum class Status {
    Measured,
    Failed,    // prepare() refused, see error
    Cancelled, // stopped before its samples were complete
};

struct Measurement
{
    std::string name;
    Status status = Status::Measured;
    std::string error;
    Sampling sampling = Sampling::Linear;
    std::vector<double> iterations;  // per sample
    std::vector<double> nanoseconds; // per sample, total
    stats::Estimates estimates;      // samples == 0 unless Measured
    double unitsPerIteration = 0;    // copied from the benchmark
    std::string unit;

    // The point estimate and interval the reports show: the slope for linear
    // sampling, the mean for flat.
    const stats::Estimate& typical() const
    {
        return sampling == Sampling::Linear ? estimates.slope : estimates.mean;
    }
    // Per-iteration times of the samples (nanoseconds[i] / iterations[i]).
    std::vector<double> perIteration() const;
};

enum class Phase { Preparing, WarmingUp, Measuring, Analysing };

struct Progress
{
    std::size_t benchmarkIndex = 0; // in the run's selection
    std::size_t benchmarkCount = 0;
    std::string name;
    Phase phase = Phase::Preparing;
    double benchmarkFraction = 0; // 0..1 within this benchmark
    double overallFraction = 0;   // 0..1 within the run
};

using ProgressCallback = std::function<void(const Progress&)>;

// Measures one benchmark. progress may be empty. Never throws for a failing
// benchmark: the Measurement says Failed with prepare()'s reason.
Measurement measure(const Benchmark& benchmark, const Profile& profile,
                    const std::atomic<bool>& cancel, const ProgressCallback& progress = {});

// Measures each benchmark in turn, calling finished after each (for a table
// that fills in live). After a cancel the remaining benchmarks are not run
// and not returned; the interrupted one is returned as Cancelled.
std::vector<Measurement> runSuite(const std::vector<const Benchmark*>& selection,
                                  const Profile& profile, const std::atomic<bool>& cancel,
                                  const ProgressCallback& progress = {},
                                  const std::function<void(const Measurement&)>& finished = {});

// The same benchmarks with their samples interleaved: each is prepared,
// warmed up and planned in turn (all stay prepared), then sample i of every
// benchmark is taken before sample i + 1 of any, so a slow patch of the
// machine falls on ours and its reference alike. Ratios are sturdier; the
// results arrive only at the end, each benchmark's samples spread over the
// whole run. After a cancel every benchmark that had not finished comes back
// Cancelled.
std::vector<Measurement>
runInterleaved(const std::vector<const Benchmark*>& selection, const Profile& profile,
               const std::atomic<bool>& cancel, const ProgressCallback& progress = {},
               const std::function<void(const Measurement&)>& finished = {});

// The benchmarks of the catalogue whose names match the ECMAScript regular
// expression filter anywhere (std::regex_search); all of them for an empty
// filter. nullopt if the expression does not compile (error says why).
std::optional<std::vector<const Benchmark*>> select(const std::string& filter,
                                                    std::string* error = nullptr);
// The same over any list of benchmarks (the pointers point into it).
std::optional<std::vector<const Benchmark*>> select(const std::string& filter,
                                                    const std::vector<Benchmark>& benchmarks,
                                                    std::string* error = nullptr);

} // namespace watchword::perf
