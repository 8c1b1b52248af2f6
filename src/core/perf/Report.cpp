#include "perf/Report.h"

#include "base/FileIo.h"
#include "encoding/Decimal.h"
#include "encoding/Utf8.h"
#include "perf/Benchmark.h"
#include "perf/Comparisons.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <system_error>

namespace watchword::perf {

namespace {

// --- numbers, never through the C locale -----------------------------------

using encoding::fixedNumber;
using encoding::shortestNumber;

// value rounded to digits significant digits, as a number.
double roundedSignificant(double value, int digits)
{
    if (value == 0 || !std::isfinite(value))
        return value;
    const int exponent = static_cast<int>(std::floor(std::log10(std::abs(value))));
    const double scale = std::pow(10.0, digits - 1 - exponent);
    return std::round(value * scale) / scale;
}

// value to digits significant digits in fixed notation: 78.4, 928, 1.17.
std::string significant(double value, int digits = 3)
{
    if (!std::isfinite(value))
        return "n/a";
    if (value == 0)
        return "0";
    const double rounded = std::abs(roundedSignificant(value, digits));
    const int exponent = static_cast<int>(std::floor(std::log10(rounded)));
    return fixedNumber(value, std::max(0, digits - 1 - exponent));
}

// Seconds without trailing zeros: 2 s, 0.25 s.
std::string seconds(std::chrono::nanoseconds duration)
{
    return shortestNumber(static_cast<double>(duration.count()) / 1e9) + " s";
}

// --- text that may hold anything --------------------------------------------

std::string jsonString(std::string_view text)
{
    std::string out = "\"";
    for (const char c : encoding::withValidUtf8(text)) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                static constexpr char hex[] = "0123456789abcdef";
                out += "\\u00";
                out += hex[(c >> 4) & 0xf];
                out += hex[c & 0xf];
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

std::string jsonNumber(double value)
{
    return std::isfinite(value) ? shortestNumber(value) : "null";
}

std::string html(std::string_view text)
{
    std::string out;
    for (const char c : encoding::withValidUtf8(text)) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            // Control characters have no business in a page (and some are
            // not allowed in XML at all, which SVG is).
            out += static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' ? ' ' : c;
        }
    }
    return out;
}

// One line, and nothing that ends a Markdown table cell.
std::string cell(std::string_view text)
{
    std::string out;
    for (const char c : encoding::withValidUtf8(text)) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n' || c == '\r' || c == '\t')
            out += ' ';
        else
            out += c;
    }
    return out;
}

// Columns a terminal gives the text: one per code point (the report's
// non-ASCII characters, µ, †, ×, ≥, are all narrow).
std::size_t displayWidth(std::string_view text)
{
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xc0) != 0x80;
    }));
}

// --- the report's content, once for every format ----------------------------

struct Table
{
    std::vector<std::string> headers;
    std::vector<bool> numeric; // right-aligned
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> rowClasses; // for HTML, may be empty
};

struct Section
{
    std::string title; // empty for the opening one
    std::vector<std::string> paragraphs;
    Table table;
    std::vector<std::string> notes; // after the table
};

// The verdict's key in JSON and its HTML row class.
const char* verdictClass(stats::Verdict verdict)
{
    switch (verdict) {
    case stats::Verdict::Improved:
        return "improved";
    case stats::Verdict::Regressed:
        return "regressed";
    case stats::Verdict::NoChange:
        break;
    }
    return "same";
}

const char* verdictText(stats::Verdict verdict)
{
    return verdict == stats::Verdict::NoChange ? "no significant change" : verdictClass(verdict);
}

const char* statusText(Status status)
{
    switch (status) {
    case Status::Measured:
        return "measured";
    case Status::Failed:
        return "failed";
    case Status::Cancelled:
        break;
    }
    return "cancelled";
}

bool hasSamples(const Measurement& m)
{
    return m.status == Status::Measured && m.estimates.samples > 0;
}

bool hasThroughput(const Measurement& m)
{
    return hasSamples(m) && m.unitsPerIteration > 0 && !m.unit.empty();
}

std::string statusOf(const Measurement& m)
{
    return m.status == Status::Measured ? "no samples" : statusText(m.status);
}

std::string operationName(const Measurement& m)
{
    return m.status == Status::Measured && m.sampling == Sampling::Flat ? m.name + " †" : m.name;
}

std::string profileSentence(const Profile& profile)
{
    return "Criterion model" +
           (profile.name.empty() ? std::string() : " (" + profile.name + " profile)") +
           ": sample size " + std::to_string(profile.sampleSize) + ", warm-up " +
           seconds(profile.warmUp) + ", measurement " + seconds(profile.measurement) + ", " +
           encoding::groupedNumber(static_cast<double>(profile.resamples), 0) +
           " bootstrap resamples; slope point estimate (mean for flat-sampled benchmarks, "
           "marked †) with its 95 % bootstrap interval.";
}

Table resultsTable(const Report& report)
{
    Table table{{"Operation", "low", "point", "high", "outliers (mild + severe)"},
                {false, true, true, true, true},
                {},
                {}};
    for (const auto& m : report.measurements) {
        if (hasSamples(m)) {
            const auto& typical = m.typical();
            table.rows.push_back({operationName(m), formatDuration(typical.low),
                                  formatDuration(typical.point), formatDuration(typical.high),
                                  std::to_string(m.estimates.outliers.mild()) + " + " +
                                      std::to_string(m.estimates.outliers.severe())});
            table.rowClasses.push_back({});
            continue;
        }
        // A benchmark that did not run is a row too: a missing line reads as
        // "not in the suite", which is not what happened. Its reason goes
        // under the table, where a long one does not widen the columns.
        table.rows.push_back({m.name, "—", statusOf(m), "—", "—"});
        table.rowClasses.push_back("missing");
    }
    return table;
}

// Why each benchmark without samples has none.
std::vector<std::string> failureNotes(const Report& report)
{
    std::vector<std::string> notes;
    for (const auto& m : report.measurements)
        if (!hasSamples(m) && !m.error.empty())
            notes.push_back(m.name + " " + statusOf(m) + ": " + m.error);
    return notes;
}

Table throughputTable(const Report& report)
{
    Table table{{"Operation", "low", "point", "high"}, {false, true, true, true}, {}, {}};
    for (const auto& m : report.measurements) {
        if (!hasThroughput(m))
            continue;
        const auto& typical = m.typical();
        // The slowest time is the lowest rate.
        const auto rate = [&](double nanoseconds) {
            return formatThroughput(m.unitsPerIteration * 1e9 / nanoseconds, m.unit);
        };
        table.rows.push_back(
            {operationName(m), rate(typical.high), rate(typical.point), rate(typical.low)});
    }
    return table;
}

std::string ratioTarget(const Comparison& c)
{
    switch (c.kind) {
    case Comparison::Kind::AtLeastFaster:
        return "≥ " + shortestNumber(c.target);
    case Comparison::Kind::AtMostSlower:
    case Comparison::Kind::WithinBudget:
        break;
    }
    return "≤ " + shortestNumber(c.target);
}

std::string ratioFormula(const Comparison& c, double ratio)
{
    switch (c.kind) {
    case Comparison::Kind::AtLeastFaster:
        return "reference / ours = " + significant(ratio);
    case Comparison::Kind::AtMostSlower:
        return "ours / reference = " + significant(ratio);
    case Comparison::Kind::WithinBudget:
        break;
    }
    return "ours / budget = " + significant(ratio);
}

std::string against(const Comparison& c)
{
    return c.kind == Comparison::Kind::WithinBudget
               ? "budget " + formatDuration(c.budgetNanoseconds)
               : c.reference;
}

const char* kindName(Comparison::Kind kind)
{
    switch (kind) {
    case Comparison::Kind::AtLeastFaster:
        return "at_least_faster";
    case Comparison::Kind::AtMostSlower:
        return "at_most_slower";
    case Comparison::Kind::WithinBudget:
        break;
    }
    return "within_budget";
}

Section ratioSection(const Report& report)
{
    Section section;
    section.title = "Ratios to the references";
    section.table = {{"Subject", "Reference or budget", "Ratio", "Target", "Met", "Source"},
                     {false, false, true, true, false, false},
                     {},
                     {}};
    const auto times = typicalTimes(report.measurements);
    for (const auto& outcome : evaluate(times)) {
        const auto& c = *outcome.comparison;
        section.table.rows.push_back({c.subject, against(c), ratioFormula(c, outcome.ratio),
                                      ratioTarget(c), outcome.met ? "met" : "not met", c.source});
        section.table.rowClasses.push_back(outcome.met ? "improved" : "regressed");
    }
    if (section.table.rows.empty())
        section.paragraphs.push_back("No comparison had both of its benchmarks measured.");
    std::string notCompared;
    for (const Comparison* c : halfMeasured(times)) {
        if (!notCompared.empty())
            notCompared += "; ";
        notCompared += c->subject;
        notCompared += " against ";
        notCompared += c->reference;
    }
    if (!notCompared.empty())
        section.notes.push_back("Not compared, one side not measured in this run: " + notCompared +
                                ".");
    return section;
}

Section changeSection(const Report& report)
{
    Section section;
    section.title = "Change against baseline " + report.baselineName;
    std::string sentence = "The change of the mean time per iteration with its 95 % bootstrap "
                           "interval; a change whose interval lies within ";
    sentence += report.noiseThreshold > 0 ? "±" + shortestNumber(report.noiseThreshold * 100) + " %"
                                          : std::string("the noise threshold");
    sentence += " reads \"no significant change\".";
    section.paragraphs.push_back(sentence);
    section.table = {{"Operation", "low", "change", "high", "verdict"},
                     {false, true, true, true, false},
                     {},
                     {}};
    // In the order of the run, then any the run no longer has.
    std::vector<std::string> names;
    for (const auto& m : report.measurements)
        if (report.changes.contains(m.name))
            names.push_back(m.name);
    for (const auto& [name, change] : report.changes)
        if (std::find(names.begin(), names.end(), name) == names.end())
            names.push_back(name);
    for (const auto& name : names) {
        const auto& change = report.changes.at(name);
        section.table.rows.push_back(
            {name, formatChange(change.relative.low), formatChange(change.relative.point),
             formatChange(change.relative.high), verdictText(change.verdict)});
        section.table.rowClasses.push_back(verdictClass(change.verdict));
    }
    if (names.empty())
        section.paragraphs.push_back("No benchmark of this run is in the baseline.");
    return section;
}

std::vector<Section> sections(const Report& report)
{
    std::vector<Section> all;
    Section results;
    results.paragraphs = {"Machine: " + machineLine(report.machine),
                          report.method.empty() ? profileSentence(report.profile) : report.method};
    results.table = resultsTable(report);
    results.notes = failureNotes(report);
    all.push_back(std::move(results));

    if (Table throughput = throughputTable(report); !throughput.rows.empty()) {
        Section section;
        section.title = "Throughput";
        section.paragraphs.push_back(
            "Work per second at the point estimate and at the ends of its interval.");
        section.table = std::move(throughput);
        all.push_back(std::move(section));
    }
    all.push_back(ratioSection(report));
    if (!report.baselineName.empty())
        all.push_back(changeSection(report));
    return all;
}

// --- tables in each format ----------------------------------------------------

std::string markdownTable(const Table& table)
{
    // Appended piece by piece: g++ 12 at -O3 misreports " " + std::string as
    // an overlapping memcpy (-Wrestrict).
    std::string out = "|";
    for (const auto& header : table.headers) {
        out += ' ';
        out += cell(header);
        out += " |";
    }
    out += "\n|";
    for (const bool numeric : table.numeric)
        out += numeric ? "---:|" : "---|";
    out += "\n";
    for (const auto& row : table.rows) {
        out += "|";
        for (const auto& value : row) {
            out += ' ';
            out += cell(value);
            out += " |";
        }
        out += "\n";
    }
    return out;
}

std::string textTable(const Table& table)
{
    std::vector<std::size_t> widths(table.headers.size(), 0);
    const auto measure = [&](const std::vector<std::string>& row) {
        for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], displayWidth(cell(row[i])));
    };
    measure(table.headers);
    for (const auto& row : table.rows)
        measure(row);

    const auto line = [&](const std::vector<std::string>& row) {
        std::string out;
        for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) {
            const std::string value = cell(row[i]);
            const std::string padding(widths[i] - displayWidth(value), ' ');
            if (i > 0)
                out += "  ";
            const bool last = i + 1 == row.size();
            if (table.numeric[i])
                out += padding + value;
            else
                out += last ? value : value + padding;
        }
        return out + "\n";
    };
    std::string out = line(table.headers);
    std::vector<std::string> rules;
    for (const auto width : widths)
        rules.emplace_back(width, '-');
    out += line(rules);
    for (const auto& row : table.rows)
        out += line(row);
    return out;
}

std::string htmlTable(const Table& table)
{
    std::string out = "<table>\n<thead><tr>";
    for (std::size_t i = 0; i < table.headers.size(); ++i)
        out += std::string(table.numeric[i] ? "<th class=\"n\">" : "<th>") +
               html(table.headers[i]) + "</th>";
    out += "</tr></thead>\n<tbody>\n";
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const std::string rowClass = r < table.rowClasses.size() ? table.rowClasses[r] : "";
        out += rowClass.empty() ? "<tr>" : "<tr class=\"" + html(rowClass) + "\">";
        for (std::size_t i = 0; i < table.rows[r].size(); ++i)
            out += std::string(table.numeric[i] ? "<td class=\"n\">" : "<td>") +
                   html(table.rows[r][i]) + "</td>";
        out += "</tr>\n";
    }
    return out + "</tbody>\n</table>\n";
}

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

// --- HTML -----------------------------------------------------------------------

// SVG coordinates: one decimal is finer than any screen.
std::string px(double value)
{
    return fixedNumber(std::isfinite(value) ? value : 0, 1);
}

constexpr std::string_view styleSheet =
    R"(:root{color-scheme:light dark;--fg:#1f2328;--bg:#ffffff;--muted:#59636e;--grid:#d1d9e0;--ours:#0969da;--ref:#8250df;--good:#1a7f37;--bad:#cf222e;--same:#6e7781}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#9198a1;--grid:#3d444d;--ours:#4493f8;--ref:#ab7df8;--good:#3fb950;--bad:#f85149;--same:#9198a1}}
body{font-family:system-ui,sans-serif;color:var(--fg);background:var(--bg);max-width:72em;margin:2em auto;padding:0 1em;line-height:1.45}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em}h3{font-size:1em;margin:0 0 .3em}
p.machine{font-size:.9em;color:var(--muted)}
table{border-collapse:collapse;margin:.8em 0}th,td{padding:.2em .7em;border-bottom:1px solid var(--grid);text-align:left;vertical-align:top}
.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.improved td:last-child,tr.improved td:nth-child(5){color:var(--good)}tr.regressed td:last-child,tr.regressed td:nth-child(5){color:var(--bad)}tr.same td{color:var(--same)}tr.missing td{color:var(--bad)}
svg{max-width:100%;height:auto}svg text{fill:var(--fg);font-size:11px;font-family:system-ui,sans-serif}svg .muted{fill:var(--muted)}
.grid{stroke:var(--grid);stroke-width:1}.axis{stroke:var(--muted);stroke-width:1}.ours{fill:var(--ours)}.ref{fill:var(--ref)}.whisker{stroke:var(--fg);stroke-width:1.2}.fit{stroke:var(--bad);stroke-width:1.5}.pt{fill:var(--ours);fill-opacity:.75}
.cards{display:flex;flex-wrap:wrap;gap:1em}.card{border:1px solid var(--grid);border-radius:6px;padding:.7em;flex:1 1 22em;max-width:26em}.card p{margin:.2em 0;font-size:.85em}
)";

// 10^decade nanoseconds as an axis label: "1 µs", "10 µs", "100 µs".
std::string decadeLabel(int decade)
{
    static constexpr std::array<const char*, 4> units{"ns", "µs", "ms", "s"};
    const int unit = std::clamp(decade / 3, 0, 3);
    return shortestNumber(std::pow(10.0, decade - 3 * unit)) + " " +
           units[static_cast<std::size_t>(unit)];
}

struct BarRow
{
    const Measurement* measurement;
    bool reference; // drawn beside the benchmark above it
};

std::string barChart(const Report& report)
{
    std::map<std::string, const Measurement*> byName;
    for (const auto& m : report.measurements)
        byName.emplace(m.name, &m);

    // Ours in the run's order, each followed by the references it is compared
    // with; references compared with nothing that ran come last.
    std::vector<BarRow> rows;
    std::vector<std::string> shownReferences;
    for (const auto& m : report.measurements) {
        if (m.name.starts_with("ref/"))
            continue;
        rows.push_back({&m, false});
        for (const auto& c : comparisons()) {
            if (c.subject != m.name || c.reference.empty())
                continue;
            const auto found = byName.find(c.reference);
            if (found == byName.end())
                continue;
            rows.push_back({found->second, true});
            shownReferences.push_back(c.reference);
        }
    }
    for (const auto& m : report.measurements)
        if (m.name.starts_with("ref/") && std::find(shownReferences.begin(), shownReferences.end(),
                                                    m.name) == shownReferences.end())
            rows.push_back({&m, false});
    if (rows.empty())
        return {};

    double smallest = std::numeric_limits<double>::infinity();
    double largest = 0;
    for (const auto& row : rows) {
        if (!hasSamples(*row.measurement))
            continue;
        const auto& t = row.measurement->typical();
        for (const double v : {t.low, t.point, t.high})
            if (std::isfinite(v) && v > 0) {
                smallest = std::min(smallest, v);
                largest = std::max(largest, v);
            }
    }
    if (!(largest > 0))
        smallest = largest = 1;
    int firstDecade = static_cast<int>(std::floor(std::log10(smallest)));
    int lastDecade = static_cast<int>(std::ceil(std::log10(largest)));
    if (lastDecade <= firstDecade)
        lastDecade = firstDecade + 1;

    constexpr double labelWidth = 290, plotWidth = 560, rowHeight = 18, top = 10;
    const double width = labelWidth + plotWidth + 80;
    const double plotHeight = rowHeight * static_cast<double>(rows.size());
    const double height = top + plotHeight + 40;
    const auto x = [&](double nanoseconds) {
        const double position =
            (std::log10(nanoseconds) - firstDecade) / (lastDecade - firstDecade);
        return labelWidth + std::clamp(position, 0.0, 1.0) * plotWidth;
    };

    std::string svg = "<svg role=\"img\" aria-label=\"Time per iteration on a logarithmic axis\" "
                      "viewBox=\"0 0 " +
                      px(width) + " " + px(height) + "\" width=\"" + px(width) + "\" height=\"" +
                      px(height) + "\">\n";
    for (int decade = firstDecade; decade <= lastDecade; ++decade) {
        const double gx = x(std::pow(10.0, decade));
        svg += "<line class=\"grid\" x1=\"" + px(gx) + "\" y1=\"" + px(top) + "\" x2=\"" + px(gx) +
               "\" y2=\"" + px(top + plotHeight) + "\"/><text x=\"" + px(gx) + "\" y=\"" +
               px(top + plotHeight + 14) + "\" text-anchor=\"middle\">" +
               html(decadeLabel(decade)) + "</text>\n";
    }
    svg += "<text class=\"muted\" x=\"" + px(labelWidth + plotWidth / 2) + "\" y=\"" +
           px(top + plotHeight + 32) +
           "\" text-anchor=\"middle\">time per iteration (log scale; whiskers: 95 % "
           "interval)</text>\n";

    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Measurement& m = *rows[i].measurement;
        const double y = top + rowHeight * static_cast<double>(i);
        const double middle = y + rowHeight / 2;
        svg += "<text x=\"" + px(labelWidth - 8) + "\" y=\"" + px(middle + 4) +
               "\" text-anchor=\"end\"" + (rows[i].reference ? " class=\"muted\"" : "") + ">" +
               html(rows[i].reference ? "↳ " + m.name : operationName(m)) + "</text>";
        if (!hasSamples(m)) {
            svg += "<text class=\"muted\" x=\"" + px(labelWidth + 4) + "\" y=\"" + px(middle + 4) +
                   "\">" + html(statusText(m.status)) + "</text>\n";
            continue;
        }
        const auto& t = m.typical();
        std::string title = m.name + ": " + formatDuration(t.point) + " [" + formatDuration(t.low) +
                            ", " + formatDuration(t.high) + "]";
        svg += "<g><title>" + html(title) + "</title>";
        if (std::isfinite(t.point) && t.point > 0)
            svg += "<rect class=\"" + std::string(rows[i].reference ? "ref" : "ours") + "\" x=\"" +
                   px(labelWidth) + "\" y=\"" + px(y + 3) + "\" width=\"" +
                   px(std::max(1.0, x(t.point) - labelWidth)) + "\" height=\"" + px(rowHeight - 6) +
                   "\"/>";
        if (std::isfinite(t.low) && std::isfinite(t.high) && t.low > 0 && t.high > 0) {
            const double x1 = x(t.low), x2 = x(t.high);
            svg += "<path class=\"whisker\" fill=\"none\" d=\"M" + px(x1) + " " + px(middle) + "H" +
                   px(x2) + "M" + px(x1) + " " + px(middle - 4) + "V" + px(middle + 4) + "M" +
                   px(x2) + " " + px(middle - 4) + "V" + px(middle + 4) + "\"/>";
        }
        svg += "<text x=\"" + px(x(t.high) + 6) + "\" y=\"" + px(middle + 4) + "\">" +
               html(formatDuration(t.point)) + "</text></g>\n";
    }
    return svg + "</svg>\n";
}

// Criterion's regression plot: every sample (iterations, total time) with
// the fitted line through the origin. Flat sampling has one x for all, so it
// plots each sample's time per iteration against its index, with the mean.
std::string samplePlot(const Measurement& m)
{
    constexpr double width = 340, height = 200, left = 56, right = 10, top = 10, bottom = 34;
    const double plotWidth = width - left - right, plotHeight = height - top - bottom;
    const bool flat = m.sampling == Sampling::Flat;
    const std::size_t n = std::min(m.iterations.size(), m.nanoseconds.size());

    std::vector<double> xs(n), ys(n);
    for (std::size_t i = 0; i < n; ++i) {
        xs[i] = flat ? static_cast<double>(i + 1) : m.iterations[i];
        ys[i] = flat ? m.nanoseconds[i] / m.iterations[i] : m.nanoseconds[i];
    }
    double xMax = 0, yMax = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (std::isfinite(xs[i]))
            xMax = std::max(xMax, xs[i]);
        if (std::isfinite(ys[i]))
            yMax = std::max(yMax, ys[i]);
    }
    const double line = flat ? m.estimates.mean.point : m.estimates.slope.point * xMax;
    if (std::isfinite(line))
        yMax = std::max(yMax, line);
    if (!(xMax > 0))
        xMax = 1;
    if (!(yMax > 0))
        yMax = 1;
    yMax *= 1.05;
    const auto sx = [&](double v) {
        return left + v / xMax * plotWidth;
    };
    const auto sy = [&](double v) {
        return top + plotHeight - v / yMax * plotHeight;
    };

    std::string svg = "<svg role=\"img\" aria-label=\"" +
                      html(flat ? "Time per iteration of each sample"
                                : "Total time of each sample against its iterations") +
                      "\" viewBox=\"0 0 " + px(width) + " " + px(height) + "\" width=\"" +
                      px(width) + "\" height=\"" + px(height) + "\">\n";
    svg += "<path class=\"axis\" fill=\"none\" d=\"M" + px(left) + " " + px(top) + "V" +
           px(top + plotHeight) + "H" + px(left + plotWidth) + "\"/>\n";
    svg += "<text x=\"" + px(left - 4) + "\" y=\"" + px(top + 8) + "\" text-anchor=\"end\">" +
           html(formatDuration(yMax)) + "</text><text x=\"" + px(left - 4) + "\" y=\"" +
           px(top + plotHeight) + "\" text-anchor=\"end\">0</text>\n";
    svg += "<text x=\"" + px(left + plotWidth) + "\" y=\"" + px(top + plotHeight + 13) +
           "\" text-anchor=\"end\">" +
           html(flat ? std::to_string(n) : encoding::groupedNumber(std::trunc(xMax), 0)) +
           "</text><text class=\"muted\" x=\"" + px(left + plotWidth / 2) + "\" y=\"" +
           px(height - 4) + "\" text-anchor=\"middle\">" +
           html(flat ? "sample (time per iteration; line: mean)"
                     : "iterations (total time; line: slope)") +
           "</text>\n";
    for (std::size_t i = 0; i < n; ++i)
        if (std::isfinite(xs[i]) && std::isfinite(ys[i]))
            svg += "<circle class=\"pt\" cx=\"" + px(sx(xs[i])) + "\" cy=\"" + px(sy(ys[i])) +
                   "\" r=\"2.5\"/>";
    svg += "\n";
    if (std::isfinite(line) && line >= 0) {
        if (flat)
            svg += "<line class=\"fit\" x1=\"" + px(left) + "\" y1=\"" + px(sy(line)) + "\" x2=\"" +
                   px(left + plotWidth) + "\" y2=\"" + px(sy(line)) + "\"/>\n";
        else
            svg += "<line class=\"fit\" x1=\"" + px(left) + "\" y1=\"" + px(sy(0)) + "\" x2=\"" +
                   px(sx(xMax)) + "\" y2=\"" + px(sy(line)) + "\"/>\n";
    }
    return svg + "</svg>\n";
}

std::string estimateLine(std::string_view label, const stats::Estimate& e)
{
    return "<p>" + html(label) + ": " + html(formatDuration(e.point)) + " [" +
           html(formatDuration(e.low)) + ", " + html(formatDuration(e.high)) + "]</p>";
}

std::string benchmarkCard(const Measurement& m)
{
    std::string out = "<div class=\"card\">\n<h3>" + html(operationName(m)) + "</h3>\n";
    if (const Benchmark* benchmark = findBenchmark(m.name); benchmark)
        out += "<p>" + html(benchmark->description) + "</p>\n";
    if (!hasSamples(m)) {
        out += "<p>" + html(statusText(m.status)) + (m.error.empty() ? "" : ": " + html(m.error)) +
               "</p>\n</div>\n";
        return out;
    }
    const auto& e = m.estimates;
    if (m.sampling == Sampling::Linear)
        out += estimateLine("slope", e.slope);
    out += estimateLine("mean", e.mean) + estimateLine("median", e.median) +
           estimateLine("MAD", e.medianAbsoluteDeviation) +
           estimateLine("std-dev", e.standardDeviation) + "\n";
    out += "<p>" + std::to_string(e.samples) + " samples, " +
           (m.sampling == Sampling::Linear ? "linear" : "flat") +
           " sampling; outliers: " + std::to_string(e.outliers.lowSevere) + " low severe, " +
           std::to_string(e.outliers.lowMild) + " low mild, " +
           std::to_string(e.outliers.highMild) + " high mild, " +
           std::to_string(e.outliers.highSevere) + " high severe</p>\n";
    out += samplePlot(m);
    return out + "</div>\n";
}

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

std::string markdownReport(const Report& report)
{
    std::string out;
    for (const auto& section : sections(report)) {
        if (!section.title.empty())
            out += "### " + cell(section.title) + "\n\n";
        for (const auto& paragraph : section.paragraphs)
            out += cell(paragraph) + "\n\n";
        if (!section.table.rows.empty())
            out += markdownTable(section.table) + "\n";
        for (const auto& note : section.notes)
            out += cell(note) + "\n\n";
    }
    while (out.ends_with("\n\n"))
        out.pop_back();
    return out;
}

std::string textReport(const Report& report)
{
    std::string out;
    for (const auto& section : sections(report)) {
        if (!section.title.empty())
            out += section.title + "\n" + std::string(displayWidth(section.title), '=') + "\n\n";
        for (const auto& paragraph : section.paragraphs)
            out += paragraph + "\n\n";
        if (!section.table.rows.empty())
            out += textTable(section.table) + "\n";
        for (const auto& note : section.notes)
            out += note + "\n\n";
    }
    while (out.ends_with("\n\n"))
        out.pop_back();
    return out;
}

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

std::string htmlReport(const Report& report)
{
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                      "<meta name=\"color-scheme\" content=\"light dark\">\n"
                      "<title>Watchword benchmarks</title>\n<style>\n";
    out += styleSheet;
    out += "</style>\n</head>\n<body>\n<h1>Watchword benchmarks</h1>\n";

    const auto all = sections(report);
    for (std::size_t i = 0; i < all.size(); ++i) {
        const auto& section = all[i];
        if (!section.title.empty())
            out += "<h2>" + html(section.title) + "</h2>\n";
        for (std::size_t p = 0; p < section.paragraphs.size(); ++p)
            out += (i == 0 && p == 0 ? "<p class=\"machine\">" : "<p>") +
                   html(section.paragraphs[p]) + "</p>\n";
        if (!section.table.rows.empty())
            out += htmlTable(section.table);
        for (const auto& note : section.notes)
            out += "<p>" + html(note) + "</p>\n";
        if (i == 0) {
            out += "<h2>Time per iteration</h2>\n<p>Each benchmark's point estimate with its "
                   "95 % interval; a reference it is compared with is drawn beneath it "
                   "(<svg width=\"10\" height=\"10\"><rect class=\"ours\" width=\"10\" "
                   "height=\"10\"/></svg> ours, <svg width=\"10\" height=\"10\"><rect "
                   "class=\"ref\" width=\"10\" height=\"10\"/></svg> reference).</p>\n";
            out += barChart(report);
        }
    }

    out += "<h2>Samples</h2>\n<div class=\"cards\">\n";
    for (const auto& m : report.measurements)
        out += benchmarkCard(m);
    out += "</div>\n</body>\n</html>\n";
    return out;
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
