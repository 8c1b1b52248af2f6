// Benchmark statistics on Criterion's model, written once for the CLI, the
// benchmark runner and the app's Diagnostics view.
//
// A benchmark is measured in samples taken with linear sampling: sample i
// (1-based) runs i * d iterations, for a d chosen so that the whole series
// fills the measurement time. Each sample gives a total time y_i for x_i
// iterations; its per-iteration time is y_i / x_i.
//
//   slope     the least-squares line through the origin: sum(x*y) / sum(x*x).
//             It weighs the long samples most, so a fixed cost per sample
//             (the timer, a cold cache) counts for less than in the mean;
//             Criterion shows it as the point estimate.
//   mean, median, std-dev (n - 1), MAD (median absolute deviation, scaled by
//             1.4826 so that it estimates the std-dev of normal data)
//             of the per-iteration times.
//   outliers  Tukey's fences on the per-iteration times: below Q1 - 3 IQR or
//             above Q3 + 3 IQR severe, else beyond 1.5 IQR mild. They are
//             counted and reported, never dropped: every estimate uses every
//             sample.
//   interval  a 95 % percentile bootstrap: resample the (x, y) pairs with
//             replacement, recompute each statistic, and take the 2.5th and
//             97.5th percentiles of the resampled values.
//
// Percentiles interpolate linearly between order statistics at rank
// p * (n - 1) (the definition Criterion and numpy use by default).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace watchword::stats {

// The iteration counts of linear sampling: d, 2d, ..., n*d.
[[nodiscard]] std::vector<double> linearIterations(std::uint64_t d, std::size_t n);

// The d that makes n linear samples of an operation taking about
// nanosecondsPerIteration fill targetNanoseconds (at least 1):
// d * n(n+1)/2 * t = target.
[[nodiscard]] std::uint64_t linearStep(double nanosecondsPerIteration, std::size_t n,
                                       double targetNanoseconds);

// The pth percentile (p in [0, 100]) of values, by linear interpolation at
// rank p/100 * (n - 1). values need not be sorted. NaN if empty.
[[nodiscard]] double percentile(std::vector<double> values, double p);

[[nodiscard]] double mean(const std::vector<double>& values);
[[nodiscard]] double median(const std::vector<double>& values);
// Sample standard deviation (n - 1); 0 for fewer than two values.
[[nodiscard]] double standardDeviation(const std::vector<double>& values);
// Median absolute deviation from the median, times 1.4826.
[[nodiscard]] double medianAbsoluteDeviation(const std::vector<double>& values);
// sum(x*y) / sum(x*x); NaN if every x is 0 or the sizes differ.
[[nodiscard]] double slopeThroughOrigin(const std::vector<double>& x, const std::vector<double>& y);

struct Outliers
{
    std::size_t lowSevere = 0;
    std::size_t lowMild = 0;
    std::size_t highMild = 0;
    std::size_t highSevere = 0;
    // The fences: low severe < lowSevereFence <= low mild < lowMildFence, and
    // likewise above.
    double lowSevereFence = 0;
    double lowMildFence = 0;
    double highMildFence = 0;
    double highSevereFence = 0;

    std::size_t mild() const { return lowMild + highMild; }
    std::size_t severe() const { return lowSevere + highSevere; }
};

[[nodiscard]] Outliers classifyOutliers(const std::vector<double>& values);

// A statistic with its bootstrap interval.
struct Estimate
{
    double point = 0;
    double low = 0;  // 2.5th percentile of the bootstrap distribution
    double high = 0; // 97.5th percentile
    double standardError = 0;
};

struct Estimates
{
    Estimate slope;
    Estimate mean;
    Estimate median;
    Estimate medianAbsoluteDeviation;
    Estimate standardDeviation;
    Outliers outliers; // of the per-iteration times
    std::size_t samples = 0;
};

struct BootstrapOptions
{
    std::size_t resamples = 10'000;
    double confidence = 0.95;
    // The generator's seed: the same data and seed give the same intervals.
    std::uint64_t seed = 0x5eed;
};

// Every estimate of a series of samples: iterations[i] runs took
// nanoseconds[i] in total. Empty Estimates (samples == 0) if the sizes
// differ or there are no samples.
[[nodiscard]] Estimates estimate(const std::vector<double>& iterations,
                                 const std::vector<double>& nanoseconds,
                                 const BootstrapOptions& options = {});

// A change between a baseline and a new measurement: the relative change of
// the mean per-iteration time (new / old - 1) with its bootstrap interval
// (both series resampled independently).
enum class Verdict {
    NoChange,  // the interval holds 0, or the change is within the noise
    Improved,  // faster, beyond the noise threshold
    Regressed, // slower, beyond the noise threshold
};

struct Change
{
    Estimate relative; // of the mean, e.g. -0.12 for 12 % faster
    Verdict verdict = Verdict::NoChange;
};

// noiseThreshold: only a change whose whole interval lies beyond
// +-threshold is Improved or Regressed; any other is NoChange (Criterion's
// default is 0.01; this machine's noise calls for more, see
// docs/PERFORMANCE.md).
[[nodiscard]] Change compare(const std::vector<double>& baselinePerIteration,
                             const std::vector<double>& currentPerIteration,
                             double noiseThreshold = 0.02, const BootstrapOptions& options = {});

} // namespace watchword::stats
