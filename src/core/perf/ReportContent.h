// The benchmark report's content, once for every format (ReportContent.cpp),
// and the text helpers the renderers share: ReportText.cpp (Markdown and
// plain text), ReportJson.cpp (JSON and Criterion's estimates.json) and
// ReportHtml.cpp (HTML with its charts). Report.h is the public face.
#pragma once

#include "perf/Benchmark.h"
#include "perf/Comparisons.h"
#include "perf/Report.h"

#include <string>
#include <string_view>
#include <vector>

namespace watchword::perf::detail {

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

// The report as sections: an opening, the results, throughput, ratios and
// changes against a baseline, each a table with its paragraphs and notes.
std::vector<Section> sections(const Report& report);

// Numbers, never through the C locale: value rounded to digits significant
// digits, as a number and as text.
double roundedSignificant(double value, int digits);
std::string significant(double value, int digits = 3);

// Text that may hold anything (invalid UTF-8 becomes U+FFFD): as a JSON
// string, as HTML text, as a Markdown table cell; and its width in a
// terminal.
std::string jsonString(std::string_view text);
std::string jsonNumber(double value);
std::string html(std::string_view text);
std::string cell(std::string_view text);
std::size_t displayWidth(std::string_view text);

// A measurement's and a comparison's words.
const char* verdictClass(stats::Verdict verdict);
const char* statusText(Status status);
bool hasSamples(const Measurement& m);
std::string operationName(const Measurement& m);
std::string against(const Comparison& c);
const char* kindName(Comparison::Kind kind);

} // namespace watchword::perf::detail
