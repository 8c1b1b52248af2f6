#include "perf/Report.h"

#include "base/FileIo.h"
#include "encoding/Decimal.h"
#include "perf/ReportContent.h"

#include <array>
#include <cmath>
#include <filesystem>
#include <system_error>

namespace watchword::perf {

using namespace detail;
using encoding::fixedNumber;

namespace {

// --- files ----------------------------------------------------------------------

// A benchmark name as a relative path: its '/' make folders, and nothing in
// it can climb out of the report directory.
std::filesystem::path benchmarkFolder(const std::string& name)
{
    std::filesystem::path folder;
    std::size_t start = 0;
    while (start <= name.size()) {
        auto end = name.find('/', start);
        if (end == std::string::npos)
            end = name.size();
        std::string part = name.substr(start, end - start);
        if (part.empty() || part == "." || part == "..")
            part.assign(1, '_');
        folder /= part;
        start = end + 1;
    }
    return folder;
}

} // namespace

std::string formatDuration(double nanoseconds)
{
    if (!std::isfinite(nanoseconds))
        return "n/a";
    struct Unit
    {
        double scale;
        const char* name;
    };
    static constexpr std::array<Unit, 4> units{{{1, "ns"}, {1e3, "µs"}, {1e6, "ms"}, {1e9, "s"}}};
    // The unit suits the rounded value, so 999.7 ns reads "1.00 µs".
    const double rounded = std::abs(roundedSignificant(nanoseconds, 3));
    Unit unit = units[0];
    for (const auto& candidate : units)
        if (rounded >= candidate.scale)
            unit = candidate;
    return significant(nanoseconds / unit.scale) + " " + unit.name;
}

std::string formatChange(double relative)
{
    if (!std::isfinite(relative))
        return "n/a";
    std::string text = fixedNumber(relative * 100, 1);
    if (text == "0.0" || text == "-0.0")
        return "0.0 %";
    return (text.front() == '-' ? "" : "+") + text + " %";
}

std::string formatThroughput(double unitsPerSecond, const std::string& unit)
{
    if (!std::isfinite(unitsPerSecond))
        return "n/a";
    struct Prefix
    {
        double scale;
        const char* name;
    };
    static constexpr std::array<Prefix, 5> prefixes{
        {{1, ""}, {1e3, "k "}, {1e6, "M "}, {1e9, "G "}, {1e12, "T "}}};
    const double rounded = std::abs(roundedSignificant(unitsPerSecond, 3));
    Prefix prefix = prefixes[0];
    for (const auto& candidate : prefixes)
        if (rounded >= candidate.scale)
            prefix = candidate;
    return significant(unitsPerSecond / prefix.scale) + " " + prefix.name + unit + "/s";
}

std::map<std::string, double> typicalTimes(const std::vector<Measurement>& measurements)
{
    std::map<std::string, double> times;
    for (const auto& m : measurements)
        if (hasSamples(m) && std::isfinite(m.typical().point))
            times[m.name] = m.typical().point;
    return times;
}

std::optional<std::string> writeReportDirectory(const Report& report,
                                                const std::filesystem::path& directory)
{
    const auto makeDirectories =
        [](const std::filesystem::path& path) -> std::optional<std::string> {
        std::error_code error;
        std::filesystem::create_directories(path, error);
        if (error)
            return "could not create the directory " + path.string() + ": " + error.message();
        return std::nullopt;
    };
    // A report whose directory could not be flushed is still a report.
    const auto write = [](const std::filesystem::path& path,
                          std::string_view text) -> std::optional<std::string> {
        if (auto written = writeFileAtomically(path, text); !written)
            return written.error();
        return std::nullopt;
    };
    if (auto error = makeDirectories(directory))
        return error;
    for (const auto& m : report.measurements) {
        if (!hasSamples(m))
            continue;
        const auto folder = directory / benchmarkFolder(m.name);
        if (auto error = makeDirectories(folder))
            return error;
        if (auto error = write(folder / "estimates.json", estimatesJson(m)))
            return error;
    }
    if (auto error = write(directory / "report.md", markdownReport(report) + "\n"))
        return error;
    if (auto error = write(directory / "report.json", jsonReport(report)))
        return error;
    return write(directory / "report.html", htmlReport(report));
}

} // namespace watchword::perf
