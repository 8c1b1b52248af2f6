// The ratios Watchword claims, each between a benchmark of ours and a
// reference measured in the same run. After a run the suite prints every
// comparison whose two sides ran, with its target and whether it was met.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace watchword::bench {

struct Comparison
{
    enum class Kind {
        AtLeastFaster, // reference time / subject time >= target
        AtMostSlower,  // subject time / reference time <= target
    };
    std::string subject;
    std::string reference;
    Kind kind;
    double target;
    std::string what;
};

// The comparisons with targets from the project's issues and design.
const std::vector<Comparison>& comparisons();

struct ComparisonOutcome
{
    const Comparison* comparison;
    double ratio;
    bool met;
};

// Evaluates every comparison whose two sides appear in medians (benchmark
// name -> median real time per iteration, in any one unit).
std::vector<ComparisonOutcome> evaluate(const std::map<std::string, double>& medians);

// The comparisons of which exactly one side appears in medians: the other was
// filtered out, stopped with an error, or no longer runs under that name.
std::vector<const Comparison*> halfMeasured(const std::map<std::string, double>& medians);

} // namespace watchword::bench
