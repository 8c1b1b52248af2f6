// Named baselines: a run's samples saved under a name, and a later run
// compared with them benchmark by benchmark (stats::compare: the change of
// the mean with its bootstrap interval; only a change whose whole interval
// lies beyond the noise threshold is a regression or an improvement, any
// other is "no change"). The file format is in docs/FORMAT.md.
#pragma once

#include "base/Result.h"
#include "perf/Report.h"
#include "perf/Runner.h"
#include "stats/Estimates.h"

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::perf {

// Changes whose whole interval lies within +-5 % are no change: the spread
// of repeated runs on the shared machines we measure on (docs/PERFORMANCE.md).
inline constexpr double defaultNoiseThreshold = 0.05;

enum class BaselineError {
    BadName,  // not 1..64 of [A-Za-z0-9._-], or starting with '.'
    NotFound, // no baseline of that name
    Unreadable,
    Malformed, // the message names the line
    WriteFailed,
};

// Limits of what loadBaseline reads, so that a damaged or hostile file
// cannot make it allocate without bound. A full-profile run of the whole
// suite is about 40 benchmarks of 50 samples, 100 KB.
inline constexpr std::size_t maximumBaselineBytes = 64u * 1024u * 1024u;
inline constexpr std::size_t maximumBaselineBenchmarks = 1000;
inline constexpr std::size_t maximumBaselineSamples = 10'000; // per benchmark
inline constexpr std::size_t maximumBaselineLineLength = 4096;

// A loaded baseline holds the samples only: its measurements' estimates are
// empty (samples == 0); stats::estimate() derives them where they are needed.
struct Baseline
{
    std::string name;
    std::string machineLine;
    std::string profile;
    std::string created;                   // UTC, ISO 8601
    std::vector<Measurement> measurements; // Measured ones, with their samples
};

bool isValidBaselineName(std::string_view name);

// $XDG_DATA_HOME/watchword/baselines, or ~/.local/share/watchword/baselines.
std::filesystem::path defaultBaselineDirectory();

// Saves the report's measured benchmarks as directory/<name>.baseline,
// replacing an older one of that name atomically (a failed save leaves the
// old file as it was).
Result<void, Error<BaselineError>> saveBaseline(const std::filesystem::path& directory,
                                                const std::string& name, const Report& report);

Result<Baseline, Error<BaselineError>> loadBaseline(const std::filesystem::path& directory,
                                                    const std::string& name);

// The names of the baselines in directory, sorted; empty if there is none.
std::vector<std::string> listBaselines(const std::filesystem::path& directory);

// The change of every benchmark measured in both, by name.
std::map<std::string, stats::Change>
compareWithBaseline(const Baseline& baseline, const std::vector<Measurement>& current,
                    double noiseThreshold = defaultNoiseThreshold, std::size_t resamples = 10'000);

} // namespace watchword::perf
