// selftest/startup: every known-answer test, as the application runs them
// before any vault opens (the watch reference spends 6.7 ms on its own).
#include "selftest/SelfTest.h"

#include "perf/catalogue/Catalogue.h"

namespace watchword::perf::entries {

namespace {

Prepared prepareStartup()
{
    // A failing test would disable crypto for the rest of this process and
    // every later benchmark would time error paths: refuse here instead.
    if (const auto first = selftest::run(); !first.passed())
        return notPrepared("self-test failed: " + first.firstFailure()->name);
    return prepared(loop([] {
        auto report = selftest::run();
        keep(report);
    }));
}

} // namespace

std::vector<Benchmark> selfTestBenchmarks()
{
    return {
        {"selftest/startup",
         "the start-up self-test: every known-answer test, as the application runs it before any "
         "vault opens",
         0, "", prepareStartup},
    };
}

} // namespace watchword::perf::entries
