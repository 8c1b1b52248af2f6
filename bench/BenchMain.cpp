// watchword-bench: Google Benchmark's own command line, plus a closing table
// of the ratios between our code and the references measured in this run.
//
// Ratios are computed from medians over repetitions. For fair ratios on a
// noisy machine, run with repetitions interleaved at random:
//   watchword-bench --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
#include "Comparisons.h"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

namespace {

// Passes everything to the normal console/JSON reporter and keeps each
// benchmark's per-repetition times for the ratio table.
class CollectingReporter final : public benchmark::ConsoleReporter
{
public:
    explicit CollectingReporter(OutputOptions options) : ConsoleReporter(options) {}

    void ReportRuns(const std::vector<Run>& runs) override
    {
        for (const auto& run : runs) {
            if (run.error_occurred)
                continue;
            if (run.run_type == Run::RT_Iteration)
                m_times[run.run_name.str()].push_back(run.GetAdjustedRealTime());
            else if (run.aggregate_name == "median")
                m_reportedMedians[run.run_name.str()] = run.GetAdjustedRealTime();
        }
        ConsoleReporter::ReportRuns(runs);
    }

    std::map<std::string, double> medians() const
    {
        // With --benchmark_report_aggregates_only only the aggregates arrive.
        std::map<std::string, double> result = m_reportedMedians;
        for (auto [name, times] : m_times) {
            std::sort(times.begin(), times.end());
            const std::size_t n = times.size();
            result[name] = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
        }
        return result;
    }

private:
    std::map<std::string, std::vector<double>> m_times;
    std::map<std::string, double> m_reportedMedians;
};

} // namespace

int main(int argc, char** argv)
{
    // Our reporter replaces the library's, so honour its colour rule here
    // (read before Initialize() takes its flags out of argv):
    // colour on a terminal, unless --benchmark_color says otherwise.
    bool colour = isatty(STDOUT_FILENO) != 0;
    for (int i = 1; i < argc; ++i) {
        const std::string_view argument = argv[i];
        if (argument == "--benchmark_color=false" || argument == "--benchmark_color=no")
            colour = false;
        else if (argument == "--benchmark_color=true" || argument == "--benchmark_color=yes")
            colour = true;
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    CollectingReporter reporter(colour ? benchmark::ConsoleReporter::OO_Defaults
                                       : benchmark::ConsoleReporter::OO_Tabular);
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();

    const auto medians = reporter.medians();
    const auto outcomes = watchword::bench::evaluate(medians);
    const auto halfMeasured = watchword::bench::halfMeasured(medians);
    if (!halfMeasured.empty()) {
        std::printf("\nComparisons with only one side in this run"
                    " (filtered out, failed or renamed):\n");
        for (const auto* comparison : halfMeasured)
            std::printf("  %s\n    vs %s\n", comparison->subject.c_str(),
                        comparison->reference.c_str());
    }
    if (outcomes.empty())
        return 0;
    std::printf(
        "\nRatios measured in this run (medians; the Debian libbenchmark is a debug build):\n");
    for (const auto& outcome : outcomes) {
        const auto& c = *outcome.comparison;
        const bool faster = c.kind == watchword::bench::Comparison::Kind::AtLeastFaster;
        std::printf("  %-8s %5.2fx %s (target %s %.2fx)\n           %s\n",
                    outcome.met ? "met" : "NOT MET", outcome.ratio,
                    faster ? "faster" : "of the reference", faster ? ">=" : "<=", c.target,
                    c.what.c_str());
    }
    return 0;
}
