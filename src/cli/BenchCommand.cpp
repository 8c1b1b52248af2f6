// watchword-cli bench: the benchmark catalogue measured on Criterion's model
// (src/core/perf), the same code the app's Diagnostics view runs.
#include "Arguments.h"
#include "Cli.h"
#include "perf/Baseline.h"
#include "perf/Report.h"
#include "perf/Runner.h"

#include <QtGlobal>
#include <atomic>
#include <csignal>
#include <unistd.h>

namespace watchword::cli {

namespace {

constexpr const char* usage = R"(usage: watchword-cli bench [--quick | --full] [--filter REGEX]
                           [--format table|markdown|json|html]
                           [--save-baseline NAME] [--baseline NAME]
                           [--noise-threshold PERCENT] [--output DIR] [--interleave]
                           [--list]

Measures Watchword's operations and their references on Criterion's model:
warm-up, linear sampling, the slope as the point estimate with a 95 %
bootstrap interval, Tukey outliers counted as mild and severe.

  --quick            about 1 s per benchmark (20 samples; the default)
  --full             the reference reports' settings: 50 samples, 2 s warm-up,
                     10 s measurement
  --interleave       take the samples of all the chosen benchmarks in turn, so
                     a busy moment of the machine falls on ours and its
                     reference alike: sturdier ratios
  --filter REGEX     only the benchmarks whose name matches (ECMAScript regex,
                     anywhere in the name); a reference does not follow its
                     benchmark, name both to get their ratio
  --format F         table (default), markdown, json or html, on stdout
  --save-baseline N  save this run's samples as baseline N
  --baseline N       compare with baseline N: the change per benchmark with its
                     95 % interval; inside the noise threshold it is no change
  --noise-threshold P  the noise threshold in percent (default 5)
  --output DIR       also write DIR/<benchmark>/estimates.json and
                     DIR/report.{md,json,html}
  --list             list the benchmarks and what each measures, run nothing

Baselines live in $XDG_DATA_HOME/watchword/baselines (default
~/.local/share/watchword/baselines). Progress goes to stderr on a terminal.
Ctrl+C stops the run and prints what was measured. Exit status: 0 if every
benchmark was measured, 1 if one failed or the run was stopped, 2 on bad input.
)";

std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void onInterrupt(int)
{
    interrupted.store(true);
}

// A progress line redrawn in place on a terminal.
void showProgress(const perf::Progress& progress)
{
    char line[160];
    const int length = std::snprintf(line, sizeof line, "\r\033[K[%zu/%zu] %s %3.0f %%",
                                     progress.benchmarkIndex + 1, progress.benchmarkCount,
                                     progress.name.c_str(), progress.benchmarkFraction * 100);
    if (length > 0)
        std::fwrite(line, 1,
                    std::min<std::size_t>(static_cast<std::size_t>(length), sizeof line - 1),
                    stderr);
}

int list()
{
    for (const auto& benchmark : perf::catalogue())
        printLines(benchmark.name + "\n    " + benchmark.description);
    return exitOk;
}

} // namespace

int runBench(const std::vector<std::string>& args)
{
    const auto arguments = Arguments::parse(args, {{"quick"},
                                                   {"full"},
                                                   {"filter", true},
                                                   {"format", true},
                                                   {"save-baseline", true},
                                                   {"baseline", true},
                                                   {"noise-threshold", true},
                                                   {"output", true},
                                                   {"list"},
                                                   {"interleave"},
                                                   {"help"}});
    if (!arguments.ok())
        return reportError(arguments.error() + " (see watchword-cli bench --help)");
    if (arguments.has("help")) {
        std::fputs(usage, stdout);
        return exitOk;
    }
    if (!arguments.positionals().empty())
        return reportError("bench takes no arguments, got '" + arguments.positionals().front() +
                           "' (a filter is given with --filter)");
    if (arguments.has("list"))
        return list();
    if (arguments.has("quick") && arguments.has("full"))
        return reportError("--quick and --full exclude each other");
    const perf::Profile profile =
        arguments.has("full") ? perf::fullProfile() : perf::quickProfile();

    const std::string format = arguments.value("format").value_or("table");
    using Formatter = std::string (*)(const perf::Report&);
    Formatter formatter = nullptr;
    if (format == "table")
        formatter = perf::textReport;
    else if (format == "markdown")
        formatter = perf::markdownReport;
    else if (format == "json")
        formatter = perf::jsonReport;
    else if (format == "html")
        formatter = perf::htmlReport;
    else
        return reportError("unknown --format '" + format + "': table, markdown, json or html");

    double noiseThreshold = perf::defaultNoiseThreshold;
    if (const auto value = arguments.value("noise-threshold")) {
        const auto percent = parseInteger(*value, 0, 100);
        if (!percent)
            return reportError("--noise-threshold takes a whole percentage from 0 to 100, got '" +
                               *value + "'");
        noiseThreshold = static_cast<double>(*percent) / 100.0;
    }

    const auto saveName = arguments.value("save-baseline");
    if (saveName && !perf::isValidBaselineName(*saveName))
        return reportError("'" + *saveName +
                           "' is not a baseline name: 1 to 64 letters, digits, '.', '_' or '-', "
                           "not starting with '.'");
    const auto baselineDirectory = perf::defaultBaselineDirectory();
    std::optional<perf::Baseline> baseline;
    if (const auto name = arguments.value("baseline")) {
        auto loaded = perf::loadBaseline(baselineDirectory, *name);
        if (!loaded)
            return reportError(loaded.error().message);
        baseline = std::move(loaded).value();
    }

    std::string filterError;
    const auto selection = perf::select(arguments.value("filter").value_or(""), &filterError);
    if (!selection)
        return reportError("--filter: " + filterError);
    if (selection->empty())
        return reportError("no benchmark matches --filter '" + *arguments.value("filter") +
                           "' (watchword-cli bench --list names them)");

    // Benchmarks of disabled crypto would only measure refusals.
    if (const auto failed = requireSelfTest())
        return reportError(*failed, exitFailure);

    const bool terminal = isatty(STDERR_FILENO) != 0;
    struct sigaction action = {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    struct sigaction previous = {};
    sigaction(SIGINT, &action, &previous);

    perf::Report report;
    report.machine = perf::currentMachine(qVersion());
    report.machine.harness = "Criterion-model runner, " + profile.name + " profile";
    report.profile = profile;
    const bool interleave = arguments.has("interleave");
    if (interleave)
        report.machine.harness += ", samples interleaved";
    const auto run = interleave ? perf::runInterleaved : perf::runSuite;
    report.measurements =
        run(*selection, profile, interrupted,
            terminal ? perf::ProgressCallback(showProgress) : perf::ProgressCallback(), {});
    sigaction(SIGINT, &previous, nullptr);
    if (terminal)
        std::fputs("\r\033[K", stderr);

    if (baseline) {
        report.baselineName = baseline->name;
        report.noiseThreshold = noiseThreshold;
        report.changes = perf::compareWithBaseline(*baseline, report.measurements, noiseThreshold,
                                                   profile.resamples);
    }
    const std::string text = formatter(report);
    std::fwrite(text.data(), 1, text.size(), stdout);
    if (!text.empty() && text.back() != '\n')
        std::fputc('\n', stdout);

    int status = exitOk;
    if (const auto directory = arguments.value("output")) {
        if (const auto failed = perf::writeReportDirectory(report, *directory))
            status = reportError(*failed, exitFailure);
    }
    bool complete = !interrupted.load();
    for (const auto& measurement : report.measurements) {
        if (measurement.status != perf::Status::Measured) {
            complete = false;
            reportError(
                measurement.name + ": " +
                    (measurement.status == perf::Status::Cancelled ? "stopped" : measurement.error),
                exitFailure);
        }
    }
    if (interrupted.load())
        reportError("stopped by an interrupt: the report holds what was measured", exitFailure);
    if (saveName) {
        // A baseline of a partial run would compare later runs with nothing.
        if (!complete)
            return reportError("baseline '" + *saveName + "' not saved: the run was incomplete",
                               exitFailure);
        if (auto saved = perf::saveBaseline(baselineDirectory, *saveName, report); !saved)
            return reportError(saved.error().message, exitFailure);
        reportError("saved baseline '" + *saveName + "'", exitOk);
    }
    return complete ? status : exitFailure;
}

} // namespace watchword::cli
