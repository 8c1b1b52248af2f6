// The benchmark report as Markdown and as plain text.
#include "perf/ReportContent.h"

#include <algorithm>

namespace watchword::perf {

using namespace detail;

namespace {

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

} // namespace

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

} // namespace watchword::perf
