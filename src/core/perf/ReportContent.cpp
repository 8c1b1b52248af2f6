#include "perf/ReportContent.h"

#include "encoding/Decimal.h"
#include "encoding/Utf8.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

namespace watchword::perf::detail {

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
std::string significant(double value, int digits)
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

} // namespace watchword::perf::detail
