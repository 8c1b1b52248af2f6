#include "perf/Baseline.h"

#include "base/FileIo.h"
#include "encoding/Decimal.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <pwd.h>
#include <set>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace watchword::perf {

namespace {

constexpr std::string_view magic = "watchword-baseline 1";
constexpr std::string_view extension = ".baseline";
constexpr std::size_t maximumNameLength = 128; // a benchmark's
constexpr std::size_t maximumUnitLength = 32;
constexpr std::size_t maximumProfileLength = 64;
// Iteration counts are whole numbers a double holds exactly.
constexpr double maximumIterations = 9007199254740992.0; // 2^53

using BaselineFailure = Failure<Error<BaselineError>>;

BaselineFailure failure(BaselineError code, std::string message)
{
    return fail(code, std::move(message));
}

// Printable ASCII without the space: benchmark names, units, profile names.
bool isToken(std::string_view text, std::size_t minimum, std::size_t maximum)
{
    return text.size() >= minimum && text.size() <= maximum &&
           std::all_of(text.begin(), text.end(), [](char c) { return c > ' ' && c < 0x7f; });
}

// The machine line on one line, whatever it held.
std::string oneLine(std::string_view text)
{
    std::string out(text.substr(0, maximumBaselineLineLength - 16));
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            c = ' ';
    return out;
}

std::string sanitizedToken(std::string_view text, std::size_t maximum)
{
    std::string out(text.substr(0, maximum));
    for (char& c : out)
        if (c <= ' ' || c >= 0x7f)
            c = '_';
    return out;
}

std::string nowUtc()
{
    const std::time_t now = std::time(nullptr);
    std::tm parts{};
    ::gmtime_r(&now, &parts);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &parts);
    return buffer;
}

bool isTimestamp(std::string_view text)
{
    // YYYY-MM-DDTHH:MM:SSZ
    if (text.size() != 20)
        return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const char expected = i == 4 || i == 7     ? '-'
                              : i == 10            ? 'T'
                              : i == 13 || i == 16 ? ':'
                              : i == 19            ? 'Z'
                                                   : '0';
        if (expected == '0' ? (c < '0' || c > '9') : c != expected)
            return false;
    }
    const auto number = [&](std::size_t at) {
        return (text[at] - '0') * 10 + (text[at + 1] - '0');
    };
    return number(5) >= 1 && number(5) <= 12 && number(8) >= 1 && number(8) <= 31 &&
           number(11) <= 23 && number(14) <= 59 && number(17) <= 60;
}

// The lines of a baseline file, numbered from 1, with the parser's errors.
class LineReader
{
public:
    LineReader(std::string_view text, std::string path) : m_text(text), m_path(std::move(path)) {}

    std::size_t number() const { return m_number; }

    // The next line, or an error if there is none or it is not well formed.
    Result<std::string_view, Error<BaselineError>> next(std::string_view expecting)
    {
        ++m_number;
        if (m_position >= m_text.size())
            return error("the file ends where " + std::string(expecting) +
                         " was expected (truncated?)");
        const auto end = m_text.find('\n', m_position);
        if (end == std::string_view::npos)
            return error("the file ends in the middle of a line (truncated?)");
        const std::string_view line = m_text.substr(m_position, end - m_position);
        m_position = end + 1;
        if (line.size() > maximumBaselineLineLength)
            return error("longer than " + std::to_string(maximumBaselineLineLength) + " bytes");
        for (const char c : line)
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
                return error("holds a control character");
        return line;
    }

    // The value of a "key value" line.
    Result<std::string_view, Error<BaselineError>> field(std::string_view key)
    {
        auto line = next("\"" + std::string(key) + "\"");
        if (!line)
            return line.failure();
        if (!line->starts_with(key) || line->size() < key.size() + 1 || (*line)[key.size()] != ' ')
            return error("expected \"" + std::string(key) + " ...\", found \"" +
                         std::string(line->substr(0, 40)) + "\"");
        return line->substr(key.size() + 1);
    }

    bool atEnd() const { return m_position >= m_text.size(); }

    BaselineFailure error(const std::string& message) const
    {
        return failure(BaselineError::Malformed,
                       m_path + ": line " + std::to_string(m_number) + ": " + message);
    }

private:
    std::string_view m_text;
    std::string m_path;
    std::size_t m_position = 0;
    std::size_t m_number = 0;
};

// A whole decimal count within [minimum, maximum], digits only.
std::optional<std::size_t> parseCount(std::string_view text, std::size_t minimum,
                                      std::size_t maximum)
{
    if (text.empty() || text.size() > 12 ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    std::size_t value = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    if (result.ec != std::errc() || result.ptr != text.data() + text.size() || value < minimum ||
        value > maximum)
        return std::nullopt;
    return value;
}

// A finite decimal number, the whole text (from_chars takes no sign '+',
// no blanks; "inf" and "nan" are refused after parsing).
std::optional<double> parseNumber(std::string_view text)
{
    double value = 0;
    const auto result =
        std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
    if (text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size() ||
        !std::isfinite(value))
        return std::nullopt;
    return value;
}

bool validIterations(double value)
{
    return std::isfinite(value) && value >= 1 && value <= maximumIterations &&
           value == std::floor(value);
}

bool validNanoseconds(double value)
{
    return std::isfinite(value) && value >= 0;
}

Result<Measurement, Error<BaselineError>> parseBenchmark(LineReader& lines)
{
    Measurement m;
    auto name = lines.field("benchmark");
    if (!name)
        return name.failure();
    if (!isToken(*name, 1, maximumNameLength))
        return lines.error("a benchmark name is 1 to " + std::to_string(maximumNameLength) +
                           " printable ASCII characters without spaces");
    m.name = std::string(*name);

    auto sampling = lines.field("sampling");
    if (!sampling)
        return sampling.failure();
    if (*sampling == "linear")
        m.sampling = Sampling::Linear;
    else if (*sampling == "flat")
        m.sampling = Sampling::Flat;
    else
        return lines.error("sampling is \"linear\" or \"flat\"");

    auto units = lines.field("units");
    if (!units)
        return units.failure();
    const auto space = units->find(' ');
    const auto amount = parseNumber(units->substr(0, space));
    if (!amount || *amount < 0)
        return lines.error("units per iteration must be a number of at least 0");
    m.unitsPerIteration = *amount;
    if (space != std::string_view::npos) {
        const auto unit = units->substr(space + 1);
        if (!isToken(unit, 1, maximumUnitLength))
            return lines.error("a unit is 1 to " + std::to_string(maximumUnitLength) +
                               " printable ASCII characters without spaces");
        m.unit = std::string(unit);
    }

    auto samples = lines.field("samples");
    if (!samples)
        return samples.failure();
    const auto count = parseCount(*samples, 1, maximumBaselineSamples);
    if (!count)
        return lines.error("the sample count must be a whole number from 1 to " +
                           std::to_string(maximumBaselineSamples));
    m.iterations.reserve(*count);
    m.nanoseconds.reserve(*count);
    for (std::size_t i = 0; i < *count; ++i) {
        auto line = lines.next("a sample");
        if (!line)
            return line.failure();
        const auto separator = line->find(' ');
        if (separator == std::string_view::npos)
            return lines.error("a sample is \"<iterations> <nanoseconds>\"");
        const auto iterations = parseNumber(line->substr(0, separator));
        if (!iterations || !validIterations(*iterations))
            return lines.error("iterations must be a whole number from 1 to 2^53");
        const auto nanoseconds = parseNumber(line->substr(separator + 1));
        if (!nanoseconds || !validNanoseconds(*nanoseconds))
            return lines.error("nanoseconds must be a finite number of at least 0");
        m.iterations.push_back(*iterations);
        m.nanoseconds.push_back(*nanoseconds);
    }
    return m;
}

Result<Baseline, Error<BaselineError>> parseBaseline(std::string_view text, const std::string& path,
                                                     const std::string& expectedName)
{
    LineReader lines(text, path);
    auto first = lines.next("the version line");
    if (!first)
        return first.failure();
    if (*first != magic) {
        if (first->starts_with("watchword-baseline "))
            return lines.error("version \"" + std::string(first->substr(19, 20)) +
                               "\" is not one this version reads (it reads 1)");
        return lines.error("not a Watchword baseline (expected \"" + std::string(magic) + "\")");
    }

    Baseline baseline;
    auto name = lines.field("name");
    if (!name)
        return name.failure();
    if (*name != expectedName)
        return lines.error("the baseline is named \"" + std::string(name->substr(0, 64)) +
                           "\" but its file is " + expectedName + std::string(extension));
    baseline.name = std::string(*name);

    auto created = lines.field("created");
    if (!created)
        return created.failure();
    if (!isTimestamp(*created))
        return lines.error("created is a UTC time, YYYY-MM-DDTHH:MM:SSZ");
    baseline.created = std::string(*created);

    auto machine = lines.field("machine");
    if (!machine)
        return machine.failure();
    baseline.machineLine = std::string(*machine);

    auto profile = lines.field("profile");
    if (!profile)
        return profile.failure();
    if (!profile->empty() && !isToken(*profile, 1, maximumProfileLength))
        return lines.error("a profile name is up to " + std::to_string(maximumProfileLength) +
                           " printable ASCII characters without spaces");
    baseline.profile = std::string(*profile);

    auto benchmarks = lines.field("benchmarks");
    if (!benchmarks)
        return benchmarks.failure();
    const auto count = parseCount(*benchmarks, 0, maximumBaselineBenchmarks);
    if (!count)
        return lines.error("the benchmark count must be a whole number from 0 to " +
                           std::to_string(maximumBaselineBenchmarks));
    baseline.measurements.reserve(*count);
    std::set<std::string> names;
    for (std::size_t i = 0; i < *count; ++i) {
        auto measurement = parseBenchmark(lines);
        if (!measurement)
            return measurement.failure();
        if (!names.insert(measurement->name).second)
            return failure(BaselineError::Malformed,
                           path + ": benchmark " + measurement->name + " appears twice");
        baseline.measurements.push_back(std::move(measurement).value());
    }
    auto end = lines.next("\"end\"");
    if (!end)
        return end.failure();
    if (*end != "end")
        return lines.error("expected \"end\" after " + std::to_string(*count) + " benchmarks");
    if (!lines.atEnd()) {
        (void)lines.next("nothing");
        return lines.error("nothing may follow \"end\"");
    }
    return baseline;
}

std::filesystem::path baselinePath(const std::filesystem::path& directory, const std::string& name)
{
    return directory / (name + std::string(extension));
}

std::string badName(const std::string& name)
{
    std::string message(1, '"');
    message += name.substr(0, 80);
    message += "\" is not a baseline name: 1 to 64 letters, digits, '.', '_' or '-', not "
               "starting with '.'";
    return message;
}

} // namespace

bool isValidBaselineName(std::string_view name)
{
    if (name.empty() || name.size() > 64 || name.front() == '.')
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '.' || c == '_' || c == '-';
    });
}

std::filesystem::path defaultBaselineDirectory()
{
    // Relative values are invalid by the XDG specification and are ignored.
    if (const char* data = std::getenv("XDG_DATA_HOME"); data && data[0] == '/')
        return std::filesystem::path(data) / "watchword" / "baselines";
    std::string home;
    if (const char* variable = std::getenv("HOME"); variable && variable[0] != '\0')
        home = variable;
    if (home.empty()) {
        passwd entry{};
        passwd* found = nullptr;
        std::vector<char> buffer(16384);
        if (::getpwuid_r(::getuid(), &entry, buffer.data(), buffer.size(), &found) == 0 && found &&
            found->pw_dir)
            home = found->pw_dir;
    }
    return std::filesystem::path(home) / ".local" / "share" / "watchword" / "baselines";
}

Result<void, Error<BaselineError>> saveBaseline(const std::filesystem::path& directory,
                                                const std::string& name, const Report& report)
{
    if (!isValidBaselineName(name))
        return failure(BaselineError::BadName, badName(name));

    std::vector<const Measurement*> measured;
    for (const auto& m : report.measurements)
        if (m.status == Status::Measured && !m.iterations.empty())
            measured.push_back(&m);
    if (measured.size() > maximumBaselineBenchmarks)
        return failure(BaselineError::WriteFailed, "a baseline holds at most " +
                                                       std::to_string(maximumBaselineBenchmarks) +
                                                       " benchmarks");

    std::string text = std::string(magic) + "\n";
    text += "name " + name + "\n";
    text += "created " + nowUtc() + "\n";
    text += "machine " + oneLine(machineLine(report.machine)) + "\n";
    text += "profile " + sanitizedToken(report.profile.name, maximumProfileLength) + "\n";
    text += "benchmarks " + std::to_string(measured.size()) + "\n";
    for (const Measurement* m : measured) {
        // What load would refuse is refused here, so a saved baseline always
        // loads.
        if (!isToken(m->name, 1, maximumNameLength))
            return failure(BaselineError::WriteFailed,
                           "benchmark name \"" + m->name + "\" cannot be saved in a baseline");
        if (m->iterations.size() != m->nanoseconds.size() ||
            m->iterations.size() > maximumBaselineSamples)
            return failure(BaselineError::WriteFailed,
                           "benchmark " + m->name + " has inconsistent or too many samples");
        text += "benchmark " + m->name + "\n";
        text +=
            std::string("sampling ") + (m->sampling == Sampling::Linear ? "linear" : "flat") + "\n";
        const double units = std::isfinite(m->unitsPerIteration) && m->unitsPerIteration > 0
                                 ? m->unitsPerIteration
                                 : 0;
        text += "units " + encoding::shortestNumber(units);
        if (units > 0 && isToken(m->unit, 1, maximumUnitLength))
            text += " " + m->unit;
        text += "\nsamples " + std::to_string(m->iterations.size()) + "\n";
        for (std::size_t i = 0; i < m->iterations.size(); ++i) {
            if (!validIterations(m->iterations[i]) || !validNanoseconds(m->nanoseconds[i]))
                return failure(BaselineError::WriteFailed,
                               "benchmark " + m->name +
                                   " has a sample that is not a count of "
                                   "iterations with a time");
            text += encoding::shortestNumber(m->iterations[i]) + " " +
                    encoding::shortestNumber(m->nanoseconds[i]) + "\n";
        }
    }
    text += "end\n";

    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (error)
        return failure(BaselineError::WriteFailed, "could not create the directory " +
                                                       directory.string() + ": " + error.message());
    // A baseline whose directory could not be flushed is still saved.
    if (auto written = writeFileAtomically(baselinePath(directory, name), text); !written)
        return failure(BaselineError::WriteFailed, written.error());
    return {};
}

Result<Baseline, Error<BaselineError>> loadBaseline(const std::filesystem::path& directory,
                                                    const std::string& name)
{
    if (!isValidBaselineName(name))
        return failure(BaselineError::BadName, badName(name));
    const std::string path = baselinePath(directory, name).string();

    const RegularFile file = openRegularFile(path.c_str());
    if (file.descriptor < 0) {
        if (!file.kind.empty())
            return failure(BaselineError::Unreadable, notRegularFileMessage(path, file.kind));
        if (file.error == ENOENT || file.error == ENOTDIR)
            return failure(BaselineError::NotFound,
                           "no baseline named " + name + " in " + directory.string());
        return failure(BaselineError::Unreadable,
                       "could not open " + path + ": " + std::strerror(file.error));
    }
    auto read = readToEnd(file.descriptor, path, maximumBaselineBytes);
    ::close(file.descriptor);
    if (!read)
        return failure(BaselineError::Unreadable, read.error());
    const std::string text(read->view());
    return parseBaseline(text, path, name);
}

std::vector<std::string> listBaselines(const std::filesystem::path& directory)
{
    std::vector<std::string> names;
    std::error_code error;
    std::filesystem::directory_iterator entries(directory, error);
    if (error)
        return names;
    for (const auto& entry : entries) {
        const std::string file = entry.path().filename().string();
        if (!file.ends_with(extension))
            continue;
        const std::string name = file.substr(0, file.size() - extension.size());
        std::error_code typeError;
        if (isValidBaselineName(name) && entry.is_regular_file(typeError))
            names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::map<std::string, stats::Change> compareWithBaseline(const Baseline& baseline,
                                                         const std::vector<Measurement>& current,
                                                         double noiseThreshold,
                                                         std::size_t resamples)
{
    std::map<std::string, stats::Change> changes;
    for (const auto& now : current) {
        if (now.status != Status::Measured || now.iterations.empty())
            continue;
        const auto before = std::find_if(baseline.measurements.begin(), baseline.measurements.end(),
                                         [&](const Measurement& m) { return m.name == now.name; });
        if (before == baseline.measurements.end() || before->status != Status::Measured ||
            before->iterations.empty())
            continue;
        stats::BootstrapOptions options;
        options.resamples = resamples;
        changes[now.name] =
            stats::compare(before->perIteration(), now.perIteration(), noiseThreshold, options);
    }
    return changes;
}

} // namespace watchword::perf
