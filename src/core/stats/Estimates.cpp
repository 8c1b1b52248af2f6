#include "stats/Estimates.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

namespace watchword::stats {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
// The MAD of normal data, times this, estimates its standard deviation.
constexpr double madScale = 1.4826;

// An estimate from the point and its bootstrap replicates.
Estimate fromReplicates(double point, std::vector<double> replicates, double confidence)
{
    Estimate estimate;
    estimate.point = point;
    if (replicates.empty()) {
        estimate.low = estimate.high = point;
        return estimate;
    }
    const double tail = (1 - confidence) / 2 * 100;
    estimate.standardError = standardDeviation(replicates);
    estimate.low = percentile(replicates, tail);
    estimate.high = percentile(std::move(replicates), 100 - tail);
    return estimate;
}

std::vector<double> perIteration(const std::vector<double>& iterations,
                                 const std::vector<double>& nanoseconds)
{
    std::vector<double> times(iterations.size());
    for (std::size_t i = 0; i < iterations.size(); ++i)
        times[i] = nanoseconds[i] / iterations[i];
    return times;
}

} // namespace

std::vector<double> linearIterations(std::uint64_t d, std::size_t n)
{
    std::vector<double> out(n);
    for (std::size_t i = 0; i < n; ++i)
        out[i] = double(d) * double(i + 1);
    return out;
}

std::uint64_t linearStep(double nanosecondsPerIteration, std::size_t n, double targetNanoseconds)
{
    const double total = double(n) * double(n + 1) / 2;
    if (!(nanosecondsPerIteration > 0) || total <= 0)
        return 1;
    const double d = std::ceil(targetNanoseconds / (total * nanosecondsPerIteration));
    return d < 1 ? 1 : std::uint64_t(std::min(d, 1e15));
}

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return nan;
    std::sort(values.begin(), values.end());
    const double rank = std::clamp(p, 0.0, 100.0) / 100 * double(values.size() - 1);
    const auto below = std::size_t(std::floor(rank));
    const auto above = std::min(below + 1, values.size() - 1);
    const double fraction = rank - double(below);
    return values[below] + (values[above] - values[below]) * fraction;
}

double mean(const std::vector<double>& values)
{
    if (values.empty())
        return nan;
    return std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
}

double median(const std::vector<double>& values)
{
    return percentile(values, 50);
}

double standardDeviation(const std::vector<double>& values)
{
    if (values.size() < 2)
        return 0;
    const double m = mean(values);
    double sum = 0;
    for (const double v : values)
        sum += (v - m) * (v - m);
    return std::sqrt(sum / double(values.size() - 1));
}

double medianAbsoluteDeviation(const std::vector<double>& values)
{
    if (values.empty())
        return nan;
    const double m = median(values);
    std::vector<double> deviations(values.size());
    std::transform(values.begin(), values.end(), deviations.begin(),
                   [m](double v) { return std::abs(v - m); });
    return median(deviations) * madScale;
}

double slopeThroughOrigin(const std::vector<double>& x, const std::vector<double>& y)
{
    if (x.size() != y.size())
        return nan;
    double xy = 0;
    double xx = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        xy += x[i] * y[i];
        xx += x[i] * x[i];
    }
    return xx > 0 ? xy / xx : nan;
}

Outliers classifyOutliers(const std::vector<double>& values)
{
    Outliers outliers;
    if (values.empty())
        return outliers;
    const double q1 = percentile(values, 25);
    const double q3 = percentile(values, 75);
    const double iqr = q3 - q1;
    outliers.lowSevereFence = q1 - 3 * iqr;
    outliers.lowMildFence = q1 - 1.5 * iqr;
    outliers.highMildFence = q3 + 1.5 * iqr;
    outliers.highSevereFence = q3 + 3 * iqr;
    for (const double v : values) {
        if (v < outliers.lowSevereFence)
            ++outliers.lowSevere;
        else if (v < outliers.lowMildFence)
            ++outliers.lowMild;
        else if (v > outliers.highSevereFence)
            ++outliers.highSevere;
        else if (v > outliers.highMildFence)
            ++outliers.highMild;
    }
    return outliers;
}

Estimates estimate(const std::vector<double>& iterations, const std::vector<double>& nanoseconds,
                   const BootstrapOptions& options)
{
    Estimates out;
    const std::size_t n = iterations.size();
    if (n == 0 || nanoseconds.size() != n)
        return out;
    out.samples = n;
    const std::vector<double> times = perIteration(iterations, nanoseconds);
    out.outliers = classifyOutliers(times);

    std::mt19937_64 generator(options.seed);
    std::uniform_int_distribution<std::size_t> pick(0, n - 1);
    std::vector<double> slopes, means, medians, mads, deviations;
    for (auto* replicates : {&slopes, &means, &medians, &mads, &deviations})
        replicates->reserve(options.resamples);
    std::vector<double> x(n), y(n), t(n);
    for (std::size_t r = 0; r < options.resamples; ++r) {
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t k = pick(generator);
            x[i] = iterations[k];
            y[i] = nanoseconds[k];
            t[i] = times[k];
        }
        slopes.push_back(slopeThroughOrigin(x, y));
        means.push_back(mean(t));
        medians.push_back(median(t));
        mads.push_back(medianAbsoluteDeviation(t));
        deviations.push_back(standardDeviation(t));
    }
    out.slope = fromReplicates(slopeThroughOrigin(iterations, nanoseconds), std::move(slopes),
                               options.confidence);
    out.mean = fromReplicates(mean(times), std::move(means), options.confidence);
    out.median = fromReplicates(median(times), std::move(medians), options.confidence);
    out.medianAbsoluteDeviation =
        fromReplicates(medianAbsoluteDeviation(times), std::move(mads), options.confidence);
    out.standardDeviation =
        fromReplicates(standardDeviation(times), std::move(deviations), options.confidence);
    return out;
}

Change compare(const std::vector<double>& baselinePerIteration,
               const std::vector<double>& currentPerIteration, double noiseThreshold,
               const BootstrapOptions& options)
{
    Change change;
    if (baselinePerIteration.empty() || currentPerIteration.empty())
        return change;
    const double before = mean(baselinePerIteration);
    const double after = mean(currentPerIteration);
    std::mt19937_64 generator(options.seed);
    std::uniform_int_distribution<std::size_t> pickBefore(0, baselinePerIteration.size() - 1);
    std::uniform_int_distribution<std::size_t> pickAfter(0, currentPerIteration.size() - 1);
    std::vector<double> replicates;
    replicates.reserve(options.resamples);
    for (std::size_t r = 0; r < options.resamples; ++r) {
        double sumBefore = 0;
        for (std::size_t i = 0; i < baselinePerIteration.size(); ++i)
            sumBefore += baselinePerIteration[pickBefore(generator)];
        double sumAfter = 0;
        for (std::size_t i = 0; i < currentPerIteration.size(); ++i)
            sumAfter += currentPerIteration[pickAfter(generator)];
        const double meanBefore = sumBefore / double(baselinePerIteration.size());
        const double meanAfter = sumAfter / double(currentPerIteration.size());
        replicates.push_back(meanAfter / meanBefore - 1);
    }
    change.relative = fromReplicates(after / before - 1, std::move(replicates), options.confidence);
    if (change.relative.low > noiseThreshold)
        change.verdict = Verdict::Regressed;
    else if (change.relative.high < -noiseThreshold)
        change.verdict = Verdict::Improved;
    return change;
}

} // namespace watchword::stats
