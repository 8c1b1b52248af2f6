// The benchmark report as one HTML page: tables, a bar chart of every
// operation beside its reference and each benchmark's samples, drawn as
// inline SVG; its style sheet is resources/report/report.css, compiled in.
#include "encoding/Decimal.h"
#include "perf/ReportContent.h"
#include "perf/ReportStyle.h"

#include <algorithm>
#include <cmath>

namespace watchword::perf {

using namespace detail;
using encoding::fixedNumber;
using encoding::shortestNumber;

namespace {

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

// --- HTML -----------------------------------------------------------------------

// SVG coordinates: one decimal is finer than any screen.
std::string px(double value)
{
    return fixedNumber(std::isfinite(value) ? value : 0, 1);
}

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

} // namespace

std::string htmlReport(const Report& report)
{
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                      "<meta name=\"color-scheme\" content=\"light dark\">\n"
                      "<title>Watchword benchmarks</title>\n<style>\n";
    out += reportStyleSheet();
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

} // namespace watchword::perf
