#include "Arguments.h"
#include "Cli.h"
#include "selftest/SelfTest.h"

#include <chrono>
#include <nlohmann/json.hpp>

namespace watchword::cli {

namespace {

constexpr const char* usage = R"(usage: watchword-cli selftest [--json]

Runs every known-answer test of the crypto core and prints one line per test:
PASS or FAIL, its time, its name. Exit status 0 only if all pass.
)";

double microseconds(std::chrono::nanoseconds duration)
{
    return std::chrono::duration<double, std::micro>(duration).count();
}

} // namespace

int runSelfTest(const std::vector<std::string>& args)
{
    const auto arguments = Arguments::parse(args, {{"json"}, {"help"}});
    if (!arguments.ok())
        return reportError(arguments.error() + " (see watchword-cli selftest --help)");
    if (arguments.has("help")) {
        std::fputs(usage, stdout);
        return exitOk;
    }
    if (!arguments.positionals().empty())
        return reportError("selftest takes no arguments, got '" + arguments.positionals().front() +
                           "'");

    const auto report = selftest::run();
    if (arguments.has("json")) {
        auto tests = nlohmann::json::array();
        for (const auto& outcome : report.outcomes) {
            tests.push_back({{"name", outcome.name},
                             {"passed", outcome.passed},
                             {"microseconds", microseconds(outcome.duration)}});
        }
        printJson({{"passed", report.passed()},
                   {"total_microseconds", microseconds(report.duration)},
                   {"tests", tests}});
    } else {
        char line[512];
        for (const auto& outcome : report.outcomes) {
            std::snprintf(line, sizeof line, "%s %10.1f us  %s", outcome.passed ? "PASS" : "FAIL",
                          microseconds(outcome.duration), outcome.name.c_str());
            printLine(line);
        }
        std::snprintf(line, sizeof line, "%s: %zu known-answer tests in %.2f ms",
                      report.passed() ? "all passed" : "FAILED", report.outcomes.size(),
                      microseconds(report.duration) / 1000.0);
        printLine(line);
    }
    return report.passed() ? exitOk : exitFailure;
}

} // namespace watchword::cli
