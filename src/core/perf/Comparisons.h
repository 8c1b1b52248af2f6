// The ratios and targets Watchword claims. Each comparison names a benchmark
// of ours and either a reference measured in the same run (a ratio of times)
// or an absolute budget from an issue (measured time / budget). Reports and
// the Diagnostics view show every comparison whose benchmarks ran, with its
// ratio and whether the target was met.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace watchword::perf {

struct Comparison
{
    enum class Kind {
        AtLeastFaster, // reference time / subject time >= target
        AtMostSlower,  // subject time / reference time <= target
        WithinBudget,  // subject time / budgetNanoseconds <= target (target is 1)
    };
    std::string subject;
    std::string reference; // a benchmark name; empty for WithinBudget
    Kind kind = Kind::AtLeastFaster;
    double target = 1;
    double budgetNanoseconds = 0; // WithinBudget only
    std::string what;             // one sentence for the reader
    std::string source;           // where the target comes from ("issue 1", "design")
};

// Every comparison, in report order.
const std::vector<Comparison>& comparisons();

struct ComparisonOutcome
{
    const Comparison* comparison = nullptr;
    double ratio = 0;
    bool met = false;
};

// Evaluates every comparison whose benchmarks appear in times (benchmark
// name -> time per iteration in nanoseconds: the point estimate, or a median).
std::vector<ComparisonOutcome> evaluate(const std::map<std::string, double>& times);

// The ratio comparisons of which exactly one side appears in times: the other
// was filtered out, failed, or no longer runs under that name.
std::vector<const Comparison*> halfMeasured(const std::map<std::string, double>& times);

} // namespace watchword::perf
