#include "selftest/SelfTest.h"

#include "crypto/CryptoState.h"

#include <algorithm>

namespace watchword::selftest {

bool Report::passed() const
{
    return firstFailure() == nullptr;
}

const Outcome* Report::firstFailure() const
{
    const auto failed = std::find_if(outcomes.begin(), outcomes.end(),
                                     [](const Outcome& outcome) { return !outcome.passed; });
    return failed == outcomes.end() ? nullptr : &*failed;
}

Report run(const std::vector<KnownAnswerTest>& tests)
{
    using Clock = std::chrono::steady_clock;
    Report report;
    const auto start = Clock::now();
    for (const auto& test : tests) {
        const auto before = Clock::now();
        const bool passed = test.run();
        report.outcomes.push_back({test.name, passed, Clock::now() - before});
    }
    report.duration = Clock::now() - start;
    if (const Outcome* failure = report.firstFailure())
        crypto::disable("self-test failed: " + failure->name);
    return report;
}

} // namespace watchword::selftest
