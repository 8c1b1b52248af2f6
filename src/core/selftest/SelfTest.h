// The start-up self-test: known-answer tests of every primitive Watchword
// ships, run before any vault opens. If one fails, crypto is disabled for the
// rest of the process (crypto/CryptoState.h) and the report names the test.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace watchword::selftest {

struct KnownAnswerTest
{
    std::string name;
    // True if the primitive produced the published answer.
    std::function<bool()> run;
};

struct Outcome
{
    std::string name;
    bool passed = false;
    std::chrono::nanoseconds duration{0};
};

struct Report
{
    std::vector<Outcome> outcomes;
    std::chrono::nanoseconds duration{0};

    bool passed() const;
    // The first failing test, or nullptr.
    const Outcome* firstFailure() const;
};

// Every known-answer test, in the order they run.
const std::vector<KnownAnswerTest>& knownAnswerTests();

// Runs tests (all of them, even after a failure, so the report is complete)
// and, if any failed, disables crypto naming the first failure.
Report run(const std::vector<KnownAnswerTest>& tests = knownAnswerTests());

} // namespace watchword::selftest
