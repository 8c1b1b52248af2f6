// The Criterion-model runner on benchmarks made for the test: the sampling
// plan it chooses, cancellation within a sample, failures that do not stop a
// run, progress, profiles and selection. Nothing here asserts how fast
// anything is: only lower bounds a spinning routine guarantees.
#include "perf/Runner.h"

#include <QtTest>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>

using namespace watchword::perf;
using namespace std::chrono_literals;

namespace {

// Spins for at least `each` per iteration, so a sample of n iterations
// takes at least n * each.
class Spin final : public Routine
{
public:
    explicit Spin(std::chrono::nanoseconds each, std::atomic<int>* calls = nullptr)
        : m_each(each), m_calls(calls)
    {}
    void run(std::uint64_t iterations) override
    {
        if (m_calls)
            ++*m_calls;
        const auto end = std::chrono::steady_clock::now() + m_each * iterations;
        while (std::chrono::steady_clock::now() < end) {
        }
    }

private:
    std::chrono::nanoseconds m_each;
    std::atomic<int>* m_calls;
};

Benchmark spinning(std::string name, std::chrono::nanoseconds each,
                   std::atomic<int>* calls = nullptr)
{
    Benchmark benchmark;
    benchmark.name = std::move(name);
    benchmark.description = "spins";
    benchmark.prepare = [each, calls] {
        return prepared(std::make_unique<Spin>(each, calls));
    };
    return benchmark;
}

// Counts its calls and asks for the cancel on call number stopAt, after
// spinning `each` per iteration like Spin.
class Canceller final : public Routine
{
public:
    Canceller(std::atomic<bool>& cancel, std::atomic<int>& calls, int stopAt,
              std::chrono::nanoseconds each = {})
        : m_cancel(cancel), m_calls(calls), m_stopAt(stopAt), m_each(each)
    {}
    void run(std::uint64_t iterations) override
    {
        const auto end = std::chrono::steady_clock::now() + m_each * iterations;
        while (std::chrono::steady_clock::now() < end) {
        }
        if (++m_calls == m_stopAt)
            m_cancel = true;
    }

private:
    std::atomic<bool>& m_cancel;
    std::atomic<int>& m_calls;
    int m_stopAt;
    std::chrono::nanoseconds m_each;
};

Profile tiny(std::size_t samples = 10, std::chrono::nanoseconds measurement = 20ms)
{
    return {"tiny", samples, 2ms, measurement, 500, {}};
}

} // namespace

class TestRunner : public QObject
{
    Q_OBJECT

private slots:
    void profiles()
    {
        const auto full = profileNamed("full");
        QVERIFY(full.has_value());
        QCOMPARE(full->sampleSize, std::size_t(50));
        QCOMPARE(full->warmUp, std::chrono::nanoseconds(2s));
        QCOMPARE(full->measurement, std::chrono::nanoseconds(10s));
        const auto quick = profileNamed("quick");
        QVERIFY(quick.has_value());
        // About a second per benchmark in all.
        QVERIFY(quick->warmUp + quick->measurement <= 1s);
        QVERIFY(!profileNamed("fast").has_value());
        QVERIFY(!profileNamed("").has_value());
    }

    void linearSamplingForAFastRoutine()
    {
        const std::atomic<bool> cancel{false};
        const auto m = measure(spinning("spin/1us", 1us), tiny(), cancel);
        QCOMPARE(m.status, Status::Measured);
        QCOMPARE(m.sampling, Sampling::Linear);
        QCOMPARE(m.iterations.size(), std::size_t(10));
        QCOMPARE(m.nanoseconds.size(), std::size_t(10));
        // d, 2d, ..., 10d.
        const double d = m.iterations.front();
        QVERIFY(d >= 1);
        for (std::size_t i = 0; i < m.iterations.size(); ++i)
            QCOMPARE(m.iterations[i], d * static_cast<double>(i + 1));
        // The routine cannot be faster than its spin.
        for (const double t : m.perIteration())
            QVERIFY(t >= 1000);
        QCOMPARE(m.estimates.samples, std::size_t(10));
        QCOMPARE(&m.typical(), &m.estimates.slope);
        QVERIFY(m.typical().point >= 1000);
        QVERIFY(m.typical().low <= m.typical().point);
        QVERIFY(m.typical().point <= m.typical().high);
        QVERIFY(m.estimates.outliers.mild() + m.estimates.outliers.severe() <= 10);
    }

    void flatSamplingForASlowRoutine()
    {
        // 10 linear samples of a 3-ms routine would take at least 165 ms,
        // far past twice the 10-ms measurement: every sample runs once.
        const std::atomic<bool> cancel{false};
        const auto m = measure(spinning("spin/3ms", 3ms), tiny(10, 10ms), cancel);
        QCOMPARE(m.status, Status::Measured);
        QCOMPARE(m.sampling, Sampling::Flat);
        QCOMPARE(m.iterations, std::vector<double>(10, 1.0));
        QCOMPARE(&m.typical(), &m.estimates.mean);
        QVERIFY(m.typical().point >= 3e6);
    }

    void cancelStopsWithinASample()
    {
        // The routine asks for the cancel on its fifth call; the runner must
        // not start another.
        std::atomic<bool> cancel{false};
        std::atomic<int> calls{0};
        std::vector<Benchmark> benchmarks(2);
        benchmarks[0].name = "cancels";
        benchmarks[0].prepare = [&] {
            return prepared(std::make_unique<Canceller>(cancel, calls, 5));
        };
        std::atomic<int> laterCalls{0};
        benchmarks[1] = spinning("never", 1us, &laterCalls);

        std::vector<std::string> finished;
        const auto results = runSuite({&benchmarks[0], &benchmarks[1]}, tiny(), cancel, {},
                                      [&](const Measurement& m) { finished.push_back(m.name); });
        QCOMPARE(calls.load(), 5);
        QCOMPARE(results.size(), std::size_t(1));
        QCOMPARE(results[0].status, Status::Cancelled);
        QCOMPARE(results[0].estimates.samples, std::size_t(0));
        QCOMPARE(finished, std::vector<std::string>{"cancels"});
        QCOMPARE(laterCalls.load(), 0);
    }

    void afterEverySampleOutsideTheRun()
    {
        // run and afterSample alternate, one afterSample per warm-up batch
        // and per sample, so a routine can keep what its iterations made and
        // drop it after the clock stops.
        class Keeper final : public Routine
        {
        public:
            void run(std::uint64_t iterations) override
            {
                if (kept != 0)
                    interleaved = false;
                kept += iterations;
                ++runs;
            }
            void afterSample() override
            {
                if (kept == 0)
                    interleaved = false;
                kept = 0;
                ++drops;
            }
            std::uint64_t kept = 0;
            int runs = 0;
            int drops = 0;
            bool interleaved = true;
        };
        Keeper* keeper = nullptr;
        Benchmark benchmark;
        benchmark.name = "keeps";
        benchmark.prepare = [&keeper] {
            auto routine = std::make_unique<Keeper>();
            keeper = routine.get();
            return prepared(std::move(routine));
        };
        // The routine lives until measure() returns: read its counts from
        // inside the last progress call.
        int runs = 0, drops = 0;
        bool interleaved = false;
        const std::atomic<bool> cancel{false};
        const auto m = measure(benchmark, tiny(), cancel, [&](const Progress& p) {
            if (p.phase == Phase::Measuring && keeper) {
                runs = keeper->runs;
                drops = keeper->drops;
                interleaved = keeper->interleaved;
            }
        });
        QCOMPARE(m.status, Status::Measured);
        QVERIFY(runs > 10);
        QCOMPARE(drops, runs);
        QVERIFY(interleaved);
    }

    void cancelledBeforeTheStart()
    {
        const std::atomic<bool> cancel{true};
        std::atomic<int> calls{0};
        const auto b = spinning("spin", 1us, &calls);
        QVERIFY(runSuite({&b}, tiny(), cancel).empty());
        QCOMPARE(measure(b, tiny(), cancel).status, Status::Cancelled);
        QCOMPARE(calls.load(), 0);
    }

    void aFailureDoesNotStopTheRun()
    {
        std::vector<Benchmark> benchmarks(2);
        benchmarks[0].name = "ref/mismatch";
        benchmarks[0].prepare = [] {
            return notPrepared("the reference does not compute what ours computes");
        };
        benchmarks[1] = spinning("spin", 1us);
        const std::atomic<bool> cancel{false};
        const auto results = runSuite({&benchmarks[0], &benchmarks[1]}, tiny(), cancel);
        QCOMPARE(results.size(), std::size_t(2));
        QCOMPARE(results[0].status, Status::Failed);
        QCOMPARE(results[0].error,
                 std::string("the reference does not compute what ours computes"));
        QVERIFY(results[0].iterations.empty());
        QCOMPARE(results[1].status, Status::Measured);

        Benchmark empty;
        empty.name = "empty";
        const auto m = measure(empty, tiny(), cancel);
        QCOMPARE(m.status, Status::Failed);
        QVERIFY(!m.error.empty());
    }

    void progressRisesToTheEnd()
    {
        std::vector<Benchmark> benchmarks = {spinning("a", 1us), spinning("b", 1us)};
        std::vector<Progress> seen;
        const std::atomic<bool> cancel{false};
        runSuite({&benchmarks[0], &benchmarks[1]}, tiny(), cancel,
                 [&](const Progress& p) { seen.push_back(p); });
        QVERIFY(seen.size() >= 4);
        // Few calls, not one per sample and warm-up batch.
        QVERIFY(seen.size() <= 2 * (4 + 2 * 51));
        double overall = 0;
        for (const auto& p : seen) {
            QCOMPARE(p.benchmarkCount, std::size_t(2));
            QCOMPARE(p.name, p.benchmarkIndex == 0 ? std::string("a") : std::string("b"));
            QVERIFY(p.overallFraction >= overall);
            QVERIFY(p.benchmarkFraction >= 0 && p.benchmarkFraction <= 1);
            overall = p.overallFraction;
        }
        QCOMPARE(seen.front().phase, Phase::Preparing);
        QCOMPARE(seen.back().phase, Phase::Analysing);
        QCOMPARE(seen.back().overallFraction, 1.0);
    }

    // A warm-up that ends far past its time (one call of 3 ms against a
    // warm-up of 0.1 ms, as a busy machine makes happen): the progress still
    // never goes back when the sampling starts.
    void progressNeverGoesBackAfterALongWarmUp()
    {
        std::vector<Benchmark> benchmarks = {spinning("slow", 3ms)};
        const Profile profile{"overshoot", 2, 100us, 1ms, 100, {}};
        std::vector<Progress> seen;
        const std::atomic<bool> cancel{false};
        runSuite({&benchmarks[0]}, profile, cancel, [&](const Progress& p) { seen.push_back(p); });
        double overall = 0;
        bool warmedUp = false;
        for (const auto& p : seen) {
            QVERIFY2(p.overallFraction >= overall,
                     qPrintable(QStringLiteral("%1 after %2").arg(p.overallFraction).arg(overall)));
            warmedUp = warmedUp || p.phase == Phase::WarmingUp;
            overall = p.overallFraction;
        }
        QVERIFY(warmedUp);
        QCOMPARE(overall, 1.0);
    }

    void interleavedSamplesAlternate()
    {
        // Each routine logs its name per call: the warm-ups come one
        // benchmark after the other, then the samples alternate.
        std::vector<char> log;
        class Logger final : public Routine
        {
        public:
            Logger(std::vector<char>& log, char id) : m_log(log), m_id(id) {}
            void run(std::uint64_t) override { m_log.push_back(m_id); }

        private:
            std::vector<char>& m_log;
            char m_id;
        };
        std::vector<Benchmark> benchmarks(3);
        for (int i = 0; i < 3; ++i) {
            const char id = static_cast<char>('a' + i);
            benchmarks[std::size_t(i)].name = std::string(1, id);
            benchmarks[std::size_t(i)].prepare = [&log, id] {
                return prepared(std::make_unique<Logger>(log, id));
            };
        }
        benchmarks[1].prepare = [] {
            return notPrepared("no b today");
        };
        std::vector<Progress> seen;
        std::vector<std::string> finished;
        const std::atomic<bool> cancel{false};
        const auto results = runInterleaved(
            {&benchmarks[0], &benchmarks[1], &benchmarks[2]}, tiny(), cancel,
            [&](const Progress& p) { seen.push_back(p); },
            [&](const Measurement& m) { finished.push_back(m.name); });

        QCOMPARE(results.size(), std::size_t(3));
        QCOMPARE(results[0].status, Status::Measured);
        QCOMPARE(results[1].status, Status::Failed);
        QCOMPARE(results[1].error, std::string("no b today"));
        QCOMPARE(results[2].status, Status::Measured);
        QCOMPARE(results[0].iterations.size(), std::size_t(10));
        QCOMPARE(results[2].iterations.size(), std::size_t(10));
        QCOMPARE(finished, (std::vector<std::string>{"a", "b", "c"}));
        // The last 20 calls are the samples: a, c, a, c, ...
        QVERIFY(log.size() > 20);
        const std::vector<char> samples(log.end() - 20, log.end());
        for (std::size_t i = 0; i < samples.size(); ++i)
            QCOMPARE(samples[i], i % 2 == 0 ? 'a' : 'c');
        // and before them every warm-up of a, then every one of c.
        const std::vector<char> warmUps(log.begin(), log.end() - 20);
        QVERIFY(
            std::is_partitioned(warmUps.begin(), warmUps.end(), [](char c) { return c == 'a'; }));
        QCOMPARE(warmUps.front(), 'a');
        QCOMPARE(warmUps.back(), 'c');

        double overall = 0;
        for (const auto& p : seen) {
            QVERIFY2(p.overallFraction >= overall - 1e-12, p.name.c_str());
            QVERIFY(p.overallFraction <= 1.0);
            overall = p.overallFraction;
        }
        QCOMPARE(seen.back().overallFraction, 1.0);
    }

    void interleavedCancelStopsEveryone()
    {
        // The cancel comes at the 12th call, which every run reaches however
        // slow the machine: each benchmark's warm-up makes at least one call
        // and its 10 samples ten more, 22 in all. (At the 40th call, as this
        // test once had it, a loaded machine finished the run in 39 calls:
        // fewer warm-up calls fit in the warm-up time.)
        std::atomic<bool> cancel{false};
        std::atomic<int> calls{0};
        std::vector<Benchmark> benchmarks(2);
        for (auto& benchmark : benchmarks) {
            benchmark.name = "cancels";
            benchmark.prepare = [&] {
                return prepared(std::make_unique<Canceller>(cancel, calls, 12, 1us));
            };
        }
        const auto results = runInterleaved({&benchmarks[0], &benchmarks[1]}, tiny(), cancel);
        QCOMPARE(calls.load(), 12);
        // A cancel during the warm-ups: the benchmarks not reached come back
        // Cancelled too.
        calls = 0;
        cancel = false;
        std::vector<Benchmark> three = {benchmarks[0], benchmarks[1], benchmarks[1]};
        three[0].prepare = [&] {
            cancel = true;
            return prepared(std::make_unique<Canceller>(cancel, calls, 40, 1us));
        };
        const auto early = runInterleaved({&three[0], &three[1], &three[2]}, tiny(), cancel);
        QCOMPARE(early.size(), std::size_t(3));
        for (const auto& m : early)
            QCOMPARE(m.status, Status::Cancelled);
        QCOMPARE(early[2].name, std::string("cancels"));
        QCOMPARE(results.size(), std::size_t(2));
        for (const auto& m : results) {
            QCOMPARE(m.status, Status::Cancelled);
            QCOMPARE(m.estimates.samples, std::size_t(0));
        }
    }

    void perIterationTimes()
    {
        Measurement m;
        m.iterations = {2, 4, 0};
        m.nanoseconds = {10, 40, 5};
        const auto times = m.perIteration();
        QCOMPARE(times.size(), std::size_t(3));
        QCOMPARE(times[0], 5.0);
        QCOMPARE(times[1], 10.0);
        QVERIFY(std::isnan(times[2]));
    }

    void selection()
    {
        const std::vector<Benchmark> benchmarks = {
            spinning("totp/sha1", 1us), spinning("totp/sha256", 1us),
            spinning("ref/openssl_hmac_oneshot_totp_sha1", 1us)};
        const auto all = select("", benchmarks);
        QVERIFY(all.has_value());
        QCOMPARE(all->size(), std::size_t(3));
        const auto sha1 = select("sha1$", benchmarks);
        QVERIFY(sha1.has_value());
        QCOMPARE(sha1->size(), std::size_t(2));
        QCOMPARE((*sha1)[0], &benchmarks[0]);
        QCOMPARE((*sha1)[1], &benchmarks[2]);
        QVERIFY(select("^ref/", benchmarks)->size() == 1);
        QVERIFY(select("nothing", benchmarks)->empty());
        std::string error;
        QVERIFY(!select("totp/(sha1", benchmarks, &error).has_value());
        QVERIFY(error.starts_with("not a regular expression"));
    }
};

QTEST_APPLESS_MAIN(TestRunner)
#include "TestRunner.moc"
