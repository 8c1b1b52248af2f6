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

// The share of a benchmark's time the profile gives to warming up.
double warmUpShare(const Profile& profile)
{
    const double warmUp = static_cast<double>(profile.warmUp.count());
    const double measurement = static_cast<double>(profile.measurement.count());
    return warmUp + measurement > 0 ? warmUp / (warmUp + measurement) : 0;
}

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
        // A phase's last step may overshoot its budget (a warm-up batch
        // that ends past the warm-up time on a busy machine): a phase never
        // counts for more than its share, or the next would go backwards.
        fractionOfPhase = std::clamp(fractionOfPhase, 0.0, 1.0);
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
double timed(Routine& routine, std::uint64_t iterations, const Profile& profile)
{
    if (profile.clock) {
        const std::chrono::nanoseconds start = profile.clock();
        routine.run(iterations);
        const std::chrono::nanoseconds end = profile.clock();
        routine.afterSample();
        return static_cast<double>((end - start).count());
    }
    const auto start = Clock::now();
    routine.run(iterations);
    const auto end = Clock::now();
    routine.afterSample();
    return static_cast<double>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count());
}

// A benchmark prepared, warmed up and with its sampling plan: what is left
// is taking the samples, in one go or interleaved with other benchmarks.
struct Planned
{
    Measurement result;
    Prepared prepared;
    std::vector<double> plan;
    double plannedIterations = 0;
    double doneIterations = 0;

    bool ready() const { return result.status == Status::Measured && prepared.routine; }
};

// Prepares, warms up and plans; result.status says Failed or Cancelled if
// it went no further.
Planned prepareAndPlan(const Benchmark& benchmark, const Profile& profile,
                       const std::atomic<bool>& cancel, Reporter& reporter)
{
    Planned planned;
    Measurement& result = planned.result;
    result.name = benchmark.name;
    result.unitsPerIteration = benchmark.unitsPerIteration;
    result.unit = benchmark.unit;
    const auto cancelled = [&]() -> Planned {
        result.status = Status::Cancelled;
        planned.prepared.routine.reset();
        return std::move(planned);
    };
    if (cancel.load(std::memory_order_relaxed))
        return cancelled();

    reporter.tell(Phase::Preparing, 0, true);
    planned.prepared = benchmark.prepare ? benchmark.prepare() : notPrepared("nothing to run");
    if (!planned.prepared.routine) {
        result.status = Status::Failed;
        result.error = planned.prepared.error.empty() ? "the benchmark could not be prepared"
                                                      : planned.prepared.error;
        return planned;
    }
    Routine& routine = *planned.prepared.routine;

    const double warmUpBudget = static_cast<double>(profile.warmUp.count());
    const double measurementBudget = static_cast<double>(profile.measurement.count());
    reporter.setWarmUpShare(warmUpShare(profile));

    // 1. Warm-up: doubling batches until the warm-up time is spent. At least
    // one iteration, so that even a zero warm-up yields an estimate.
    double warmUpNanoseconds = 0;
    double warmUpIterations = 0;
    std::uint64_t batch = 1;
    do {
        if (cancel.load(std::memory_order_relaxed))
            return cancelled();
        warmUpNanoseconds += timed(routine, batch, profile);
        warmUpIterations += static_cast<double>(batch);
        reporter.tell(Phase::WarmingUp, warmUpBudget > 0 ? warmUpNanoseconds / warmUpBudget : 1.0);
        if (batch < (std::uint64_t{1} << 62))
            batch *= 2;
    } while (warmUpNanoseconds < warmUpBudget);
    // A routine faster than the clock's resolution still costs something.
    const double perIteration = std::max(warmUpNanoseconds / warmUpIterations, 1e-3);

    // 2. The sampling plan, as Criterion's automatic mode chooses it.
    const std::size_t n = std::max<std::size_t>(profile.sampleSize, 2);
    const std::uint64_t linearD =
        stats::linearStep(perIteration, n, measurementBudget); // at least 1
    const double linearExpected = triangular(n) * static_cast<double>(linearD) * perIteration;
    if (linearExpected > 2 * measurementBudget) {
        result.sampling = Sampling::Flat;
        const double d =
            std::max(1.0, std::ceil(measurementBudget / (perIteration * static_cast<double>(n))));
        planned.plan.assign(n, d);
    } else {
        result.sampling = Sampling::Linear;
        planned.plan = stats::linearIterations(linearD, n);
    }
    for (const double iterations : planned.plan)
        planned.plannedIterations += iterations;
    result.iterations.reserve(n);
    result.nanoseconds.reserve(n);
    return planned;
}

// 3. Sample `index` of the plan.
void takeSample(Planned& planned, std::size_t index, const Profile& profile, Reporter& reporter)
{
    const double iterations = planned.plan[index];
    const double elapsed =
        timed(*planned.prepared.routine, static_cast<std::uint64_t>(iterations), profile);
    planned.result.iterations.push_back(iterations);
    planned.result.nanoseconds.push_back(elapsed);
    planned.doneIterations += iterations;
    reporter.tell(Phase::Measuring, planned.doneIterations / planned.plannedIterations);
}

// 4. The statistics, once every sample is in; the routine (with its files
// and memory) goes first.
Measurement analyse(Planned& planned, const Profile& profile, Reporter& reporter)
{
    planned.prepared.routine.reset();
    reporter.tell(Phase::Analysing, 1, true);
    stats::BootstrapOptions options;
    options.resamples = profile.resamples;
    planned.result.estimates =
        stats::estimate(planned.result.iterations, planned.result.nanoseconds, options);
    return std::move(planned.result);
}

Measurement cancelledMeasurement(Planned& planned)
{
    planned.prepared.routine.reset();
    planned.result.status = Status::Cancelled;
    return std::move(planned.result);
}

Measurement measureAt(const Benchmark& benchmark, const Profile& profile,
                      const std::atomic<bool>& cancel, Reporter& reporter)
{
    Planned planned = prepareAndPlan(benchmark, profile, cancel, reporter);
    if (!planned.ready())
        return std::move(planned.result);
    for (std::size_t i = 0; i < planned.plan.size(); ++i) {
        if (cancel.load(std::memory_order_relaxed))
            return cancelledMeasurement(planned);
        takeSample(planned, i, profile, reporter);
    }
    return analyse(planned, profile, reporter);
}

} // namespace

Profile fullProfile()
{
    return {"full", 50, std::chrono::seconds(2), std::chrono::seconds(10), 100'000, {}};
}

Profile quickProfile()
{
    using namespace std::chrono_literals;
    return {"quick", 20, 250ms, 750ms, 10'000, {}};
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

std::vector<Measurement> runInterleaved(const std::vector<const Benchmark*>& selection,
                                        const Profile& profile, const std::atomic<bool>& cancel,
                                        const ProgressCallback& progress,
                                        const std::function<void(const Measurement&)>& finished)
{
    // Overall progress: the warm-ups are the first part of the run, the
    // rounds of samples the rest, in the profile's proportions.
    const std::size_t count = selection.size();
    const double warmShare = warmUpShare(profile);
    std::size_t totalSamples = 0;
    std::size_t doneSamples = 0;
    const ProgressCallback planning = [&](const Progress& step) {
        Progress adjusted = step;
        const double warmedUp = step.phase == Phase::WarmingUp && warmShare > 0
                                    ? std::min(1.0, step.benchmarkFraction / warmShare)
                                    : 0.0;
        adjusted.overallFraction = warmShare *
                                   (static_cast<double>(step.benchmarkIndex) + warmedUp) /
                                   static_cast<double>(count);
        progress(adjusted);
    };
    const ProgressCallback sampling = [&](const Progress& step) {
        Progress adjusted = step;
        adjusted.overallFraction =
            step.phase == Phase::Analysing
                ? 1.0
                : warmShare + (1 - warmShare) * static_cast<double>(doneSamples) /
                                  static_cast<double>(std::max<std::size_t>(totalSamples, 1));
        progress(adjusted);
    };
    const ProgressCallback none;

    std::vector<Planned> planned;
    planned.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        // After a cancel the rest are only named: prepareAndPlan returns them
        // Cancelled without preparing anything.
        Reporter reporter(progress ? planning : none, i, count, selection[i]->name);
        planned.push_back(prepareAndPlan(*selection[i], profile, cancel, reporter));
    }

    std::size_t rounds = 0;
    for (const auto& p : planned) {
        if (p.ready()) {
            rounds = std::max(rounds, p.plan.size());
            totalSamples += p.plan.size();
        }
    }
    bool stopped = cancel.load(std::memory_order_relaxed);
    for (std::size_t round = 0; round < rounds && !stopped; ++round) {
        for (std::size_t i = 0; i < planned.size(); ++i) {
            if (!planned[i].ready() || round >= planned[i].plan.size())
                continue;
            if (cancel.load(std::memory_order_relaxed)) {
                stopped = true;
                break;
            }
            ++doneSamples;
            Reporter reporter(progress ? sampling : none, i, count, selection[i]->name);
            takeSample(planned[i], round, profile, reporter);
        }
    }

    std::vector<Measurement> results;
    results.reserve(planned.size());
    for (std::size_t i = 0; i < planned.size(); ++i) {
        Reporter reporter(progress ? sampling : none, i, count, selection[i]->name);
        if (!planned[i].ready())
            results.push_back(std::move(planned[i].result));
        else if (stopped)
            results.push_back(cancelledMeasurement(planned[i]));
        else
            results.push_back(analyse(planned[i], profile, reporter));
        if (finished)
            finished(results.back());
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
