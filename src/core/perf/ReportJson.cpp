// The benchmark report as JSON, and one measurement as Criterion's
// estimates.json.
#include "perf/ReportContent.h"

#include <cmath>
#include <type_traits>

namespace watchword::perf {

using namespace detail;

namespace {

// --- JSON ---------------------------------------------------------------------

// A small writer for pretty-printed JSON: objects one member a line, arrays
// of numbers on one line.
class JsonWriter
{
public:
    void beginObject()
    {
        prefix();
        m_out += '{';
        m_levels.push_back({false, false});
    }
    void endObject() { close('}'); }
    void beginArray(bool inlineItems = false)
    {
        prefix();
        m_out += '[';
        m_levels.push_back({false, inlineItems});
    }
    void endArray() { close(']'); }
    void key(std::string_view name)
    {
        prefix();
        m_out += jsonString(name) + ": ";
        m_afterKey = true;
    }
    void string(std::string_view value) { raw(jsonString(value)); }
    void number(double value) { raw(jsonNumber(value)); }
    void integer(std::uint64_t value) { raw(std::to_string(value)); }
    void boolean(bool value) { raw(value ? "true" : "false"); }
    void null() { raw("null"); }

    template <typename T> void member(std::string_view name, T value)
    {
        key(name);
        if constexpr (std::is_same_v<T, bool>)
            boolean(value);
        else if constexpr (std::is_same_v<T, double>)
            number(value);
        else if constexpr (std::is_integral_v<T>)
            integer(static_cast<std::uint64_t>(value));
        else
            string(value);
    }

    std::string take() { return std::move(m_out) + "\n"; }

private:
    struct Level
    {
        bool hasItems;
        bool inlineItems;
    };

    void raw(std::string_view text)
    {
        prefix();
        m_out += text;
    }
    void prefix()
    {
        if (m_afterKey) {
            m_afterKey = false;
            return;
        }
        if (m_levels.empty())
            return;
        Level& level = m_levels.back();
        if (level.hasItems)
            m_out += level.inlineItems ? ", " : ",";
        if (!level.inlineItems)
            newline(m_levels.size());
        level.hasItems = true;
    }
    void close(char bracket)
    {
        const Level level = m_levels.back();
        m_levels.pop_back();
        if (level.hasItems && !level.inlineItems)
            newline(m_levels.size());
        m_out += bracket;
    }
    void newline(std::size_t depth)
    {
        m_out += '\n';
        m_out.append(depth * 2, ' ');
    }

    std::string m_out;
    std::vector<Level> m_levels;
    bool m_afterKey = false;
};

void writeEstimate(JsonWriter& json, std::string_view name, const stats::Estimate& estimate)
{
    json.key(name);
    json.beginObject();
    json.member("point", estimate.point);
    json.member("low", estimate.low);
    json.member("high", estimate.high);
    json.member("standard_error", estimate.standardError);
    json.endObject();
}

void writeNumbers(JsonWriter& json, std::string_view name, const std::vector<double>& values)
{
    json.key(name);
    json.beginArray(true);
    for (const double value : values)
        json.number(value);
    json.endArray();
}

void writeMachine(JsonWriter& json, const MachineInfo& machine)
{
    json.key("machine");
    json.beginObject();
    json.member("line", machineLine(machine));
    json.member("cpu_model", machine.cpuModel);
    json.member("logical_cpus", machine.logicalCpus);
    json.member("sha_ni", machine.shaNi);
    json.member("aes_ni", machine.aesNi);
    json.member("os", machine.os);
    json.member("kernel", machine.kernel);
    json.member("compiler", machine.compiler);
    json.member("build_type", machine.buildType);
    json.member("openssl", machine.openssl);
    json.member("secp256k1", machine.secp256k1);
    json.member("qt", machine.qt);
    json.member("harness", machine.harness);
    json.endObject();
}

void writeMeasurement(JsonWriter& json, const Measurement& m)
{
    json.beginObject();
    json.member("name", m.name);
    const Benchmark* benchmark = findBenchmark(m.name);
    json.member("description", benchmark ? benchmark->description : std::string());
    json.member("status", std::string(statusText(m.status)));
    json.member("error", m.error);
    json.member("sampling", std::string(m.sampling == Sampling::Linear ? "linear" : "flat"));
    json.member("units_per_iteration", m.unitsPerIteration);
    json.member("unit", m.unit);
    json.key("samples");
    json.beginObject();
    writeNumbers(json, "iterations", m.iterations);
    writeNumbers(json, "nanoseconds", m.nanoseconds);
    json.endObject();
    json.key("estimates");
    if (hasSamples(m)) {
        const auto& e = m.estimates;
        json.beginObject();
        json.member("samples", e.samples);
        writeEstimate(json, "typical", m.typical());
        writeEstimate(json, "slope", e.slope);
        writeEstimate(json, "mean", e.mean);
        writeEstimate(json, "median", e.median);
        writeEstimate(json, "median_abs_dev", e.medianAbsoluteDeviation);
        writeEstimate(json, "std_dev", e.standardDeviation);
        json.endObject();
        json.key("outliers");
        json.beginObject();
        json.member("low_severe", e.outliers.lowSevere);
        json.member("low_mild", e.outliers.lowMild);
        json.member("high_mild", e.outliers.highMild);
        json.member("high_severe", e.outliers.highSevere);
        json.member("low_severe_fence", e.outliers.lowSevereFence);
        json.member("low_mild_fence", e.outliers.lowMildFence);
        json.member("high_mild_fence", e.outliers.highMildFence);
        json.member("high_severe_fence", e.outliers.highSevereFence);
        json.endObject();
    } else {
        json.null();
        json.key("outliers");
        json.null();
    }
    json.endObject();
}

} // namespace

std::string jsonReport(const Report& report)
{
    JsonWriter json;
    json.beginObject();
    json.member("format", std::string("watchword-bench-report"));
    json.member("version", 1);
    writeMachine(json, report.machine);

    json.key("profile");
    json.beginObject();
    json.member("name", report.profile.name);
    json.member("sample_size", report.profile.sampleSize);
    json.member("warm_up_ns", static_cast<std::uint64_t>(report.profile.warmUp.count()));
    json.member("measurement_ns", static_cast<std::uint64_t>(report.profile.measurement.count()));
    json.member("resamples", report.profile.resamples);
    json.member("confidence_level", 0.95);
    json.endObject();

    json.key("benchmarks");
    json.beginArray();
    for (const auto& m : report.measurements)
        writeMeasurement(json, m);
    json.endArray();

    const auto times = typicalTimes(report.measurements);
    json.key("comparisons");
    json.beginArray();
    for (const auto& outcome : evaluate(times)) {
        const auto& c = *outcome.comparison;
        json.beginObject();
        json.member("subject", c.subject);
        json.member("reference", c.reference);
        json.member("kind", std::string(kindName(c.kind)));
        json.member("target", c.target);
        json.member("budget_ns", c.budgetNanoseconds);
        json.member("ratio", outcome.ratio);
        json.member("met", outcome.met);
        json.member("what", c.what);
        json.member("source", c.source);
        json.endObject();
    }
    json.endArray();
    json.key("not_compared");
    json.beginArray();
    for (const Comparison* c : halfMeasured(times)) {
        json.beginObject();
        json.member("subject", c->subject);
        json.member("reference", c->reference);
        json.endObject();
    }
    json.endArray();

    json.key("baseline");
    if (report.baselineName.empty()) {
        json.null();
    } else {
        json.beginObject();
        json.member("name", report.baselineName);
        json.member("noise_threshold", report.noiseThreshold);
        json.key("changes");
        json.beginArray();
        for (const auto& [name, change] : report.changes) {
            json.beginObject();
            json.member("name", name);
            writeEstimate(json, "change", change.relative);
            json.member("verdict", std::string(verdictClass(change.verdict)));
            json.endObject();
        }
        json.endArray();
        json.endObject();
    }
    json.endObject();
    return json.take();
}

std::string estimatesJson(const Measurement& measurement)
{
    const bool measured = hasSamples(measurement);
    const auto estimate = [&](const stats::Estimate& e, bool present) {
        if (!present)
            return std::string("null");
        return "{\"confidence_interval\":{\"confidence_level\":0.95,\"lower_bound\":" +
               jsonNumber(e.low) + ",\"upper_bound\":" + jsonNumber(e.high) +
               "},\"point_estimate\":" + jsonNumber(e.point) +
               ",\"standard_error\":" + jsonNumber(e.standardError) + "}";
    };
    const auto& e = measurement.estimates;
    return "{\"mean\":" + estimate(e.mean, measured) +
           ",\"median\":" + estimate(e.median, measured) +
           ",\"median_abs_dev\":" + estimate(e.medianAbsoluteDeviation, measured) +
           ",\"slope\":" + estimate(e.slope, measured && measurement.sampling == Sampling::Linear) +
           ",\"std_dev\":" + estimate(e.standardDeviation, measured) + "}\n";
}

} // namespace watchword::perf
