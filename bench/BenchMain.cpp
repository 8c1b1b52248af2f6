// watchword-bench: the benchmark catalogue (src/core/perf/Benchmark.h) timed
// by Google Benchmark, with Google Benchmark's own command line, plus a
// closing table of the comparisons (perf/Comparisons.h) measured in this run.
//
// Ratios are computed from the mean over repetitions (from the library's
// medians with --benchmark_report_aggregates_only). For fair ratios on a
// noisy machine, run with repetitions interleaved at random:
//   watchword-bench --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
#include "perf/Benchmark.h"
#include "perf/Comparisons.h"
#include "perf/Machine.h"
#include "perf/Report.h"
#include "stats/Estimates.h"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using watchword::perf::Comparison;

// One repetition of a benchmark as Google Benchmark timed it: the iterations
// of the run and their total wall time.
struct Repetition
{
    double iterations = 0;
    double nanoseconds = 0;
};

// A time per iteration in the benchmark's display unit, in nanoseconds.
double nanosecondsPerIteration(const benchmark::BenchmarkReporter::Run& run)
{
    return run.GetAdjustedRealTime() * 1e9 / benchmark::GetTimeUnitMultiplier(run.time_unit);
}

// Passes everything to the reporter the library would have used (the one
// --benchmark_format, --benchmark_color and --benchmark_counters_tabular
// choose) and keeps each benchmark's repetitions for the tables at the end.
class CollectingReporter final : public benchmark::BenchmarkReporter
{
public:
    explicit CollectingReporter(benchmark::BenchmarkReporter& display) : m_display(display) {}

    bool ReportContext(const Context& context) override { return m_display.ReportContext(context); }

    void ReportRuns(const std::vector<Run>& runs) override
    {
        for (const auto& run : runs) {
            if (run.error_occurred)
                continue;
            if (run.run_type == Run::RT_Iteration)
                m_repetitions[run.run_name.str()].push_back(
                    {static_cast<double>(run.iterations), run.real_accumulated_time * 1e9});
            else if (run.aggregate_name == "median")
                m_reportedMedians[run.run_name.str()] = nanosecondsPerIteration(run);
        }
        m_display.ReportRuns(runs);
    }

    void Finalize() override { m_display.Finalize(); }

    const std::map<std::string, std::vector<Repetition>>& repetitions() const
    {
        return m_repetitions;
    }

    // The library's median wall time per iteration in nanoseconds, by
    // benchmark name: all there is with --benchmark_report_aggregates_only,
    // when no single repetition arrives.
    const std::map<std::string, double>& reportedMedians() const { return m_reportedMedians; }

private:
    benchmark::BenchmarkReporter& m_display;
    std::map<std::string, std::vector<Repetition>> m_repetitions;
    std::map<std::string, double> m_reportedMedians;
};

// The display unit of one of our benchmarks, by its expected magnitude.
benchmark::TimeUnit unitOfOurs(std::string_view name)
{
    // First match wins: the exceptions before their group.
    static const std::pair<std::string_view, benchmark::TimeUnit> prefixes[] = {
        {"keychain/", benchmark::kMillisecond},
        {"shared_secret_key/", benchmark::kMicrosecond},
        {"pbkdf2/", benchmark::kMicrosecond},
        {"selftest/", benchmark::kMillisecond},
        {"calibration/", benchmark::kMillisecond},
        {"vault/unlock_recovery_kek", benchmark::kMicrosecond},
        {"vault/", benchmark::kMillisecond},
    };
    for (const auto& [prefix, unit] : prefixes)
        if (name.starts_with(prefix))
            return unit;
    return benchmark::kNanosecond;
}

// A reference is shown in the unit of the benchmark it is compared with.
benchmark::TimeUnit unitOf(const watchword::perf::Benchmark& benchmark)
{
    if (benchmark.isReference()) {
        for (const auto& comparison : watchword::perf::comparisons())
            if (comparison.reference == benchmark.name)
                return unitOfOurs(comparison.subject);
    }
    return unitOfOurs(benchmark.name);
}

void runFromCatalogue(benchmark::State& state, const watchword::perf::Benchmark* entry)
{
    // Prepared outside the timing; the routine is destroyed after it (a
    // vault benchmark removes its temporary files then).
    auto prepared = entry->prepare();
    if (!prepared.routine) {
        state.SkipWithError(prepared.error.c_str());
        return;
    }
    // One batch of all the iterations Google Benchmark asks for: the timer
    // starts at the first call and stops at the second.
    while (state.KeepRunningBatch(state.max_iterations))
        prepared.routine->run(static_cast<std::uint64_t>(state.max_iterations));
    // The timer has stopped: what the iterations kept goes now.
    prepared.routine->afterSample();
    if (entry->unitsPerIteration > 0)
        state.counters[entry->unit + "/s"] = benchmark::Counter(
            entry->unitsPerIteration, benchmark::Counter::kIsIterationInvariantRate);
}

void registerCatalogue()
{
    for (const auto& entry : watchword::perf::catalogue())
        benchmark::RegisterBenchmark(entry.name.c_str(), runFromCatalogue, &entry)
            ->Unit(unitOf(entry));
}

// The reference reports' table, with the ratios, from every repetition of
// every benchmark that ran: each repetition is one sample, as in flat
// sampling (Google Benchmark gives every repetition the same iteration
// count), so the point is the mean with its bootstrap interval.
std::string repetitionReport(const std::map<std::string, std::vector<Repetition>>& repetitions)
{
    watchword::perf::Report report;
    report.machine = watchword::perf::currentMachine();
    report.machine.harness = "Google Benchmark " WATCHWORD_BENCHMARK_VERSION
                             " (Debian's build of the library is a debug build)";
    std::size_t mostRepetitions = 0;
    // In catalogue order, as the other front ends list them.
    for (const auto& entry : watchword::perf::catalogue()) {
        const auto found = repetitions.find(entry.name);
        if (found == repetitions.end())
            continue;
        watchword::perf::Measurement m;
        m.name = entry.name;
        m.sampling = watchword::perf::Sampling::Flat;
        m.unitsPerIteration = entry.unitsPerIteration;
        m.unit = entry.unit;
        for (const auto& repetition : found->second) {
            m.iterations.push_back(repetition.iterations);
            m.nanoseconds.push_back(repetition.nanoseconds);
        }
        mostRepetitions = std::max(mostRepetitions, m.iterations.size());
        m.estimates = watchword::stats::estimate(m.iterations, m.nanoseconds);
        report.measurements.push_back(std::move(m));
    }
    report.method =
        "Google Benchmark, each repetition one sample (" + std::to_string(mostRepetitions) +
        (mostRepetitions == 1 ? " repetition" : " repetitions") +
        "; the library chooses the iterations): the mean time per iteration (marked †) with "
        "its 95 % bootstrap interval over the repetitions. One repetition gives no interval: "
        "add --benchmark_repetitions=10 or more, or use watchword-cli bench for Criterion's "
        "linear sampling.";
    return watchword::perf::textReport(report);
}

void printComparisons(std::FILE* out, const std::map<std::string, double>& medians)
{
    const auto halfMeasured = watchword::perf::halfMeasured(medians);
    if (!halfMeasured.empty()) {
        std::fprintf(out, "\nComparisons with only one side in this run"
                          " (filtered out, failed or renamed):\n");
        for (const auto* comparison : halfMeasured)
            std::fprintf(out, "  %s\n    vs %s\n", comparison->subject.c_str(),
                         comparison->reference.c_str());
    }
    const auto outcomes = watchword::perf::evaluate(medians);
    if (outcomes.empty())
        return;
    std::fprintf(
        out,
        "\nRatios measured in this run (medians; the Debian libbenchmark is a debug build):\n");
    for (const auto& outcome : outcomes) {
        const auto& c = *outcome.comparison;
        const char* verdict = outcome.met ? "met" : "NOT MET";
        switch (c.kind) {
        case Comparison::Kind::AtLeastFaster:
            std::fprintf(out, "  %-8s %5.2fx faster (target >= %.2fx)\n", verdict, outcome.ratio,
                         c.target);
            break;
        case Comparison::Kind::AtMostSlower:
            std::fprintf(out, "  %-8s %5.2fx of the reference (target <= %.2fx)\n", verdict,
                         outcome.ratio, c.target);
            break;
        case Comparison::Kind::WithinBudget:
            std::fprintf(out, "  %-8s %5.2fx of its budget of %g ms (target <= %.2fx)\n", verdict,
                         outcome.ratio, c.budgetNanoseconds / 1e6, c.target);
            break;
        }
        std::fprintf(out, "           %s (%s)\n", c.what.c_str(), c.source.c_str());
    }
}

} // namespace

int main(int argc, char** argv)
{
    registerCatalogue();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    // The library's own display reporter (it keeps it for the whole process),
    // after Initialize() has read the flags that choose it.
    benchmark::BenchmarkReporter& display = *benchmark::CreateDefaultDisplayReporter();
    CollectingReporter reporter(display);
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();

    // After a console table on stdout; after JSON or CSV, on stderr, so that
    // stdout stays one well-formed document.
    std::FILE* tables =
        dynamic_cast<benchmark::ConsoleReporter*>(&display) != nullptr ? stdout : stderr;
    // With --benchmark_report_aggregates_only no single repetition arrives:
    // the ratios are then computed from the library's medians.
    if (!reporter.repetitions().empty()) {
        const std::string text = repetitionReport(reporter.repetitions());
        std::fprintf(tables, "\n%s\n", text.c_str());
    } else {
        printComparisons(tables, reporter.reportedMedians());
    }
    return 0;
}
