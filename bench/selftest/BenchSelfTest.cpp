// selftest/startup: every known-answer test, as the application runs them
// before any vault opens (the reference watch app spends 6.7 ms on its own).
#include "selftest/SelfTest.h"

#include <benchmark/benchmark.h>
#include <string>

namespace {

void startup(benchmark::State& state)
{
    // A failing test would disable crypto for the rest of this process and
    // every later benchmark would time error paths: stop here instead.
    if (const auto first = watchword::selftest::run(); !first.passed()) {
        const std::string message = "self-test failed: " + first.firstFailure()->name;
        state.SkipWithError(message.c_str());
        return;
    }
    for (auto _ : state) {
        auto report = watchword::selftest::run();
        benchmark::DoNotOptimize(report);
    }
    state.counters["tests"] = static_cast<double>(watchword::selftest::knownAnswerTests().size());
}

BENCHMARK(startup)->Name("selftest/startup")->Unit(benchmark::kMillisecond);

} // namespace
