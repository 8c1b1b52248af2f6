#pragma once

// The figures the two reference documents published for the operations we
// measure under the same names, on their own machines: shown beside ours
// (the Diagnostics view, docs/PERFORMANCE.md) so that a reader sees where
// the comparison started. Their machines are not ours: a ratio against a
// published figure says how this machine compares, not which code is
// faster (the ref/ benchmarks, measured in the same run, say that).

#include <string>
#include <string_view>
#include <vector>

namespace watchword::perf {

struct PublishedFigure
{
    std::string benchmark; // our benchmark of the same operation
    std::string source;    // which document, on which machine
    double low = 0;        // nanoseconds per operation; low = high = point
    double point = 0;      // when the document gives one figure only
    double high = 0;
};

// Both documents' figures, in the catalogue's order.
const std::vector<PublishedFigure>& publishedFigures();
// The figure for benchmark, or nullptr.
const PublishedFigure* publishedFigure(std::string_view benchmark);

} // namespace watchword::perf
