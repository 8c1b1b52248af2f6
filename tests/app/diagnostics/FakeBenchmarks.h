// Fake benchmarks (small spinning loops, one that cannot be prepared) with
// a tiny profile, and a Diagnostics controller on them: what the tests of the
// controller, a run, the baselines and the report's export start from.
#pragma once

#include "app/diagnostics/BenchmarkResultsModel.h"
#include "app/diagnostics/DiagnosticsController.h"
#include "perf/Benchmark.h"
#include "perf/Runner.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QVariant>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace watchword::test {

namespace perf = watchword::perf;
using app::BenchmarkResultsModel;
using app::BenchmarkRun;
using app::DiagnosticsController;
using namespace std::chrono_literals;

// The default baseline folder follows XDG_DATA_HOME: never the user's, but
// home. False if home could not be made.
inline bool keepDataIn(const QTemporaryDir& home)
{
    if (!home.isValid())
        return false;
    qputenv("XDG_DATA_HOME", QFile::encodeName(home.path()));
    return true;
}

// The work the fake benchmarks have done, one nanosecond per round: the
// clock of workProfile(). What a test on it measures is then the work it
// asked for, whatever else the machine is doing (a loaded machine once read
// three times the work as "no change").
inline std::atomic<std::int64_t>& roundsDone()
{
    static std::atomic<std::int64_t> rounds{0};
    return rounds;
}

inline void spin(std::uint64_t rounds)
{
    std::uint64_t x = 0;
    for (std::uint64_t i = 0; i < rounds; ++i) {
        x += i * 0x9e3779b97f4a7c15ULL;
        perf::keep(x);
    }
    roundsDone() += static_cast<std::int64_t>(rounds);
}

// A benchmark whose iteration spins rounds() rounds (read at every iteration,
// so a test can make it slower between runs). prepared counts its prepares.
inline perf::Benchmark spinning(std::string name, std::function<std::uint64_t()> rounds,
                                std::shared_ptr<std::atomic<int>> prepared = nullptr)
{
    perf::Benchmark benchmark;
    benchmark.name = std::move(name);
    benchmark.description = "Spins a small loop.";
    benchmark.prepare = [rounds = std::move(rounds), prepared] {
        if (prepared)
            ++*prepared;
        return perf::prepared(perf::loop([rounds] { spin(rounds()); }));
    };
    return benchmark;
}

inline perf::Benchmark spinning(std::string name, std::uint64_t rounds)
{
    return spinning(std::move(name), [rounds] { return rounds; });
}

inline perf::Benchmark failing(std::string name, std::string why)
{
    perf::Benchmark benchmark;
    benchmark.name = std::move(name);
    benchmark.prepare = [why = std::move(why)] {
        return perf::notPrepared(why);
    };
    return benchmark;
}

// 5 samples, 10 ms warm-up, 20 ms of measurement, 200 resamples.
inline perf::Profile tinyProfile()
{
    return {"tiny", 5, 10ms, 20ms, 200, {}};
}

// tinyProfile() on the clock of the rounds spun, for tests that compare
// amounts of work: only benchmarks that spin() advance it.
inline perf::Profile workProfile()
{
    auto profile = tinyProfile();
    profile.name = "work";
    profile.clock = [] {
        return std::chrono::nanoseconds(roundsDone());
    };
    return profile;
}

inline QVariant role(const BenchmarkResultsModel& model, int row, const char* name)
{
    const auto roles = model.roleNames();
    return model.data(model.index(row), roles.key(name));
}

// Waits (processing events) until done() holds, a signal of spy at a time.
inline bool waitUntil(QSignalSpy& spy, const std::function<bool()>& done)
{
    while (!done()) {
        if (!spy.wait(30000))
            return done();
    }
    return true;
}

// Runs controller's checked benchmarks to the end; true if it was not cancelled.
inline bool runToEnd(DiagnosticsController& controller)
{
    QSignalSpy finished(controller.run(), &BenchmarkRun::finished);
    if (!controller.run()->start())
        return false;
    if (!finished.wait(60000))
        return false;
    return !finished.constFirst().constFirst().toBool();
}

inline std::unique_ptr<DiagnosticsController>
makeController(std::vector<perf::Benchmark> benchmarks, const QString& baselines = {})
{
    auto controller = std::make_unique<DiagnosticsController>();
    controller->setBenchmarks(std::move(benchmarks));
    controller->run()->setCustomProfile(tinyProfile());
    if (!baselines.isEmpty())
        controller->baselines()->setDirectory(baselines);
    return controller;
}

} // namespace watchword::test
