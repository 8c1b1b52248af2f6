#include "perf/Runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <regex>

namespace watchword::perf {

namespace {

using Clock = std::chrono::steady_clock;

// Linear sampling runs n(n+1)/2 * d iterations in all.
double triangular(std::size_t n)
{
    return static_cast<double>(n) * static_cast<double>(n + 1) / 2.0;
}

// How often progress is told within a phase: enough for a smooth bar, few
// enough that a front end marshalling every call to another thread is not
// flooded by a fast benchmark's thousands of samples.
constexpr int progressSteps = 50;

class Reporter
{
public:
    Reporter(const ProgressCallback& callback, std::size_t index, std::size_t count,
             const std::string& name)
        : m_callback(callback)
    {
        m_progress.benchmarkIndex = index;
        m_progress.benchmarkCount = count;
        m_progress.name = name;
    }

    // Warm-up is the first part of a benchmark's time, sampling the rest.
    void tell(Phase phase, double fractionOfPhase, bool force = false)
    {
        if (!m_callback)
            return;
        const double warmUpShare = m_warmUpShare;
        double fraction = 0;
        switch (phase) {
        case Phase::Preparing:
            fraction = 0;
            break;
        case Phase::WarmingUp:
            fraction = warmUpShare * fractionOfPhase;
            break;
        case Phase::Measuring:
            fraction = warmUpShare + (1 - warmUpShare) * fractionOfPhase;
            break;
        case Phase::Analysing:
            fraction = 1;
            break;
        }
        fraction = std::clamp(fraction, 0.0, 1.0);
        const int step = static_cast<int>(fraction * progressSteps);
        if (!force && phase == m_progress.phase && step == m_lastStep)
            return;
        m_lastStep = step;
        m_progress.phase = phase;
        m_progress.benchmarkFraction = fraction;
        m_progress.overallFraction =
            m_progress.benchmarkCount == 0
                ? 1.0
                : (static_cast<double>(m_progress.benchmarkIndex) + fraction) /
                      static_cast<double>(m_progress.benchmarkCount);
        m_callback(m_progress);
    }

    void setWarmUpShare(double share) { m_warmUpShare = share; }

private:
    const ProgressCallback& m_callback;
    Progress m_progress;
    double m_warmUpShare = 0.2;
    int m_lastStep = -1;
};

// Runs routine for iterations and returns the elapsed nanoseconds; what the
// iterations kept is dropped after the clock stops.
double timed(Routine& routine, std::uint64_t iterations)
{
    const auto start = Clock::now();
    routine.run(iterations);
    const auto end = Clock::now();
    routine.afterSample();
    return static_cast<double>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count());
}

Measurement measureAt(const Benchmark& benchmark, const Profile& profile,
                      const std::atomic<bool>& cancel, Reporter& reporter)
{
    Measurement result;
    result.name = benchmark.name;
    result.unitsPerIteration = benchmark.unitsPerIteration;
    result.unit = benchmark.unit;

    const auto cancelled = [&] {
        result.status = Status::Cancelled;
        return result;
    };
    if (cancel.load(std::memory_order_relaxed))
        return cancelled();

    reporter.tell(Phase::Preparing, 0, true);
    Prepared prepared = benchmark.prepare ? benchmark.prepare() : notPrepared("nothing to run");
    if (!prepared.routine) {
        result.status = Status::Failed;
        result.error =
            prepared.error.empty() ? "the benchmark could not be prepared" : prepared.error;
        return result;
    }
    Routine& routine = *prepared.routine;

    const double warmUpBudget = static_cast<double>(profile.warmUp.count());
    const double measurementBudget = static_cast<double>(profile.measurement.count());
    reporter.setWarmUpShare(warmUpBudget + measurementBudget > 0
                                ? warmUpBudget / (warmUpBudget + measurementBudget)
                                : 0);

    // 1. Warm-up: doubling batches until the warm-up time is spent. At least
    // one iteration, so that even a zero warm-up yields an estimate.
    double warmUpNanoseconds = 0;
    double warmUpIterations = 0;
    std::uint64_t batch = 1;
    do {
        if (cancel.load(std::memory_order_relaxed))
            return cancelled();
        warmUpNanoseconds += timed(routine, batch);
        warmUpIterations += static_cast<double>(batch);
        reporter.tell(Phase::WarmingUp, warmUpBudget > 0 ? warmUpNanoseconds / warmUpBudget : 1.0);
        if (batch < (std::uint64_t{1} << 62))
            batch *= 2;
    } while (warmUpNanoseconds < warmUpBudget);
    // A routine faster than the clock's resolution still costs something.
    const double perIteration = std::max(warmUpNanoseconds / warmUpIterations, 1e-3);

    // 2. The sampling plan, as Criterion's automatic mode chooses it.
    const std::size_t n = std::max<std::size_t>(profile.sampleSize, 2);
    std::vector<double> plan;
    const std::uint64_t linearD =
        stats::linearStep(perIteration, n, measurementBudget); // at least 1
    const double linearExpected = triangular(n) * static_cast<double>(linearD) * perIteration;
    if (linearExpected > 2 * measurementBudget) {
        result.sampling = Sampling::Flat;
        const double d =
            std::max(1.0, std::ceil(measurementBudget / (perIteration * static_cast<double>(n))));
        plan.assign(n, d);
    } else {
        result.sampling = Sampling::Linear;
        plan = stats::linearIterations(linearD, n);
    }
    double plannedIterations = 0;
    for (const double iterations : plan)
        plannedIterations += iterations;

    // 3. The samples.
    result.iterations.reserve(n);
    result.nanoseconds.reserve(n);
    double doneIterations = 0;
    for (const double iterations : plan) {
        if (cancel.load(std::memory_order_relaxed))
            return cancelled();
        const double elapsed = timed(routine, static_cast<std::uint64_t>(iterations));
        result.iterations.push_back(iterations);
        result.nanoseconds.push_back(elapsed);
        doneIterations += iterations;
        reporter.tell(Phase::Measuring, doneIterations / plannedIterations);
    }
    prepared.routine.reset(); // setup's files and memory go before the analysis

    // 4. The statistics.
    reporter.tell(Phase::Analysing, 1, true);
    stats::BootstrapOptions options;
    options.resamples = profile.resamples;
    result.estimates = stats::estimate(result.iterations, result.nanoseconds, options);
    return result;
}

} // namespace

Profile fullProfile()
{
    return {"full", 50, std::chrono::seconds(2), std::chrono::seconds(10), 100'000};
}

Profile quickProfile()
{
    using namespace std::chrono_literals;
    return {"quick", 20, 250ms, 750ms, 10'000};
}

std::optional<Profile> profileNamed(const std::string& name)
{
    if (name == "quick")
        return quickProfile();
    if (name == "full")
        return fullProfile();
    return std::nullopt;
}

std::vector<double> Measurement::perIteration() const
{
    std::vector<double> times;
    times.reserve(iterations.size());
    for (std::size_t i = 0; i < iterations.size() && i < nanoseconds.size(); ++i)
        times.push_back(iterations[i] > 0 ? nanoseconds[i] / iterations[i]
                                          : std::numeric_limits<double>::quiet_NaN());
    return times;
}

Measurement measure(const Benchmark& benchmark, const Profile& profile,
                    const std::atomic<bool>& cancel, const ProgressCallback& progress)
{
    Reporter reporter(progress, 0, 1, benchmark.name);
    return measureAt(benchmark, profile, cancel, reporter);
}

std::vector<Measurement> runSuite(const std::vector<const Benchmark*>& selection,
                                  const Profile& profile, const std::atomic<bool>& cancel,
                                  const ProgressCallback& progress,
                                  const std::function<void(const Measurement&)>& finished)
{
    std::vector<Measurement> results;
    results.reserve(selection.size());
    for (std::size_t i = 0; i < selection.size(); ++i) {
        if (cancel.load(std::memory_order_relaxed))
            break;
        Reporter reporter(progress, i, selection.size(), selection[i]->name);
        results.push_back(measureAt(*selection[i], profile, cancel, reporter));
        if (finished)
            finished(results.back());
        if (results.back().status == Status::Cancelled)
            break;
    }
    return results;
}

std::optional<std::vector<const Benchmark*>>
select(const std::string& filter, const std::vector<Benchmark>& benchmarks, std::string* error)
{
    std::vector<const Benchmark*> chosen;
    if (filter.empty()) {
        for (const auto& benchmark : benchmarks)
            chosen.push_back(&benchmark);
        return chosen;
    }
    std::regex expression;
    try {
        expression = std::regex(filter, std::regex::ECMAScript);
    } catch (const std::regex_error& failure) {
        if (error)
            *error = std::string("not a regular expression: ") + failure.what();
        return std::nullopt;
    }
    for (const auto& benchmark : benchmarks) {
        if (std::regex_search(benchmark.name, expression))
            chosen.push_back(&benchmark);
    }
    return chosen;
}

std::optional<std::vector<const Benchmark*>> select(const std::string& filter, std::string* error)
{
    return select(filter, catalogue(), error);
}

} // namespace watchword::perf
