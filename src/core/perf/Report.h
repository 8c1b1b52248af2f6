// Reports of a benchmark run, written once for watchword-bench,
// watchword-cli bench and the Diagnostics view:
//
//   text      aligned columns for a terminal
//   markdown  the reference reports' table, "| Operation | low | point | high |
//             outliers (mild + severe) |", under the machine line and the
//             profile's settings, then the ratios to the references and, with
//             a baseline, the change per benchmark
//   json      everything: machine, profile, every benchmark's samples and
//             estimates, ratios, changes
//   html      one self-contained file (no scripts, no external resources)
//             with the tables and SVG charts
//   estimates.json per benchmark, in Criterion's shape
//   (docs/PERFORMANCE.md describes every field).
#pragma once

#include "perf/Machine.h"
#include "perf/Runner.h"
#include "stats/Estimates.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::perf {

struct Report
{
    MachineInfo machine;
    Profile profile;
    std::vector<Measurement> measurements;
    // Set when the run was compared with a baseline.
    std::string baselineName;
    std::map<std::string, stats::Change> changes; // by benchmark name
    // The threshold the changes were judged with, shown beside them; 0 when
    // unknown.
    double noiseThreshold = 0;
    // How the samples were taken, when not by the profile's Criterion-model
    // runner (watchword-bench's Google Benchmark repetitions); replaces the
    // profile's sentence.
    std::string method;
};

// A duration to three significant digits in the unit that suits it:
// "928 ns", "1.17 µs", "78.4 µs", "3.21 ms", "1.02 s".
std::string formatDuration(double nanoseconds);
// A relative change in percent with its sign: "-12.3 %", "+0.4 %".
std::string formatChange(double relative);
// A rate to three significant digits with an SI prefix: "9.40 M rounds/s",
// "512 bytes/s".
std::string formatThroughput(double unitsPerSecond, const std::string& unit);
// Every formatter above gives "n/a" for NaN or infinity, and none depends on
// the C locale (a Qt front end sets it from the environment).

// The point estimates by name (Measured benchmarks only), for evaluate().
std::map<std::string, double> typicalTimes(const std::vector<Measurement>& measurements);

std::string textReport(const Report& report);
std::string markdownReport(const Report& report);
std::string jsonReport(const Report& report);
std::string htmlReport(const Report& report);
// Criterion's estimates.json for one benchmark: mean, median, median_abs_dev,
// slope (null for flat sampling) and std_dev, each with point_estimate,
// standard_error and confidence_interval {confidence_level, lower_bound,
// upper_bound}, in nanoseconds. For a benchmark that was not Measured all
// five are null.
std::string estimatesJson(const Measurement& measurement);

// Writes directory/<benchmark name>/estimates.json for every measured
// benchmark (names with '/' make folders, as Criterion's <group>/<bench>),
// plus directory/report.md, report.json and report.html. The error says
// which file could not be written.
std::optional<std::string> writeReportDirectory(const Report& report,
                                                const std::filesystem::path& directory);

} // namespace watchword::perf
