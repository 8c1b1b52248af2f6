// A run of fake benchmarks (small spinning loops) with a tiny profile: it
// fills the results in, cancelling stops it inside the benchmark it
// interrupts, failures are shown and passed over, and a controller
// destroyed mid-run does not hang.
#include "FakeBenchmarks.h"
#include "perf/Comparisons.h"

#include <QtTest>
#include <thread>

using namespace watchword::test;

class TestBenchmarkRun : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(keepDataIn(m_dataHome)); }

    void runFillsTheResults()
    {
        auto controller =
            makeController({spinning("fake/fast", 100), spinning("fake/slower", 1000)});
        QSignalSpy progress(controller->run(), &BenchmarkRun::progressChanged);
        QSignalSpy rows(controller->results(), &QAbstractItemModel::dataChanged);
        QVERIFY(runToEnd(*controller));
        QVERIFY(!controller->run()->running());
        QVERIFY(!controller->busy());
        QVERIFY(progress.count() > 2);
        QVERIFY(rows.count() >= 2); // each row as it finished
        QCOMPARE(controller->run()->overallProgress(), 1.0);

        const auto& model = *controller->results();
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.measuredCount(), 2);
        for (int row = 0; row < 2; ++row) {
            QCOMPARE(role(model, row, "status").toString(), QStringLiteral("measured"));
            const double low = role(model, row, "low").toDouble();
            const double point = role(model, row, "point").toDouble();
            const double high = role(model, row, "high").toDouble();
            QVERIFY2(low > 0 && low <= point && point <= high,
                     qPrintable(QStringLiteral("%1 %2 %3").arg(low).arg(point).arg(high)));
            const auto samples = role(model, row, "samples").toULongLong();
            QCOMPARE(samples, 5ULL);
            QVERIFY(role(model, row, "mildOutliers").toULongLong() +
                        role(model, row, "severeOutliers").toULongLong() <=
                    samples);
            QVERIFY(!role(model, row, "pointText").toString().isEmpty());
            QVERIFY(role(model, row, "error").toString().isEmpty());
            QVERIFY(role(model, row, "verdict").toString().isEmpty());
        }
        // Ten times the work takes longer.
        QVERIFY(role(model, 1, "point").toDouble() > role(model, 0, "point").toDouble());
        QCOMPARE(controller->report().measurements.size(), std::size_t(2));
        QCOMPARE(controller->report().profile.name, std::string("tiny"));
    }

    void ratioToTheReference()
    {
        const perf::Comparison* pair = nullptr;
        for (const auto& comparison : perf::comparisons()) {
            if (!comparison.reference.empty()) {
                pair = &comparison;
                break;
            }
        }
        if (pair == nullptr)
            QSKIP("no comparison with a reference");
        auto controller =
            makeController({spinning(pair->subject, 300), spinning(pair->reference, 1200),
                            spinning("fake/alone", 100)});
        QVERIFY(runToEnd(*controller));
        const auto& model = *controller->results();
        const double ours = role(model, 0, "point").toDouble();
        const double theirs = role(model, 1, "point").toDouble();
        QVERIFY(role(model, 0, "hasRatio").toBool());
        QCOMPARE(role(model, 0, "referenceName").toString(),
                 QString::fromStdString(pair->reference));
        QCOMPARE(role(model, 0, "referencePoint").toDouble(), theirs);
        const double expected =
            pair->kind == perf::Comparison::Kind::AtLeastFaster ? theirs / ours : ours / theirs;
        QVERIFY(qFuzzyCompare(role(model, 0, "ratio").toDouble(), expected));
        QVERIFY(!role(model, 0, "ratioText").toString().isEmpty());
        QVERIFY(!role(model, 2, "hasRatio").toBool());
        QVERIFY(controller->comparisons()->measuredCount() >= 1);

        const QVariantList bars = controller->comparisons()->bars();
        QCOMPARE(bars.size(), 1);
        const QVariantMap bar = bars.constFirst().toMap();
        QCOMPARE(bar.value(QStringLiteral("name")).toString(),
                 QString::fromStdString(pair->subject));
        QCOMPARE(bar.value(QStringLiteral("ours")).toDouble(), ours);
        QCOMPARE(bar.value(QStringLiteral("theirs")).toDouble(), theirs);
    }

    void interleavedRunMeasuresEveryOne()
    {
        auto controller =
            makeController({spinning("fake/fast", 100), failing("fake/failing", "no such key"),
                            spinning("fake/slower", 1000)});
        controller->run()->setCustomProfile(workProfile());
        QSignalSpy interleavedChanged(controller->run(), &BenchmarkRun::interleavedChanged);
        controller->run()->setInterleaved(true);
        QCOMPARE(interleavedChanged.size(), 1);
        QVERIFY(controller->run()->interleaved());
        QVERIFY(runToEnd(*controller));
        const auto& model = *controller->results();
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(role(model, 0, "status").toString(), QStringLiteral("measured"));
        QCOMPARE(role(model, 1, "status").toString(), QStringLiteral("failed"));
        QCOMPARE(role(model, 2, "status").toString(), QStringLiteral("measured"));
        // Slower by the work done, whatever the machine: ten times the spin.
        QVERIFY(role(model, 2, "point").toDouble() > role(model, 0, "point").toDouble());
        // Not changeable during a run.
        QVERIFY(controller->run()->start());
        controller->run()->setInterleaved(false);
        QVERIFY(controller->run()->interleaved());
        controller->run()->cancel();
        QSignalSpy finished(controller->run(), &BenchmarkRun::finished);
        QVERIFY(finished.wait(60000));
    }

    // A benchmark a reference document measured shows that document's own
    // figure, and ours against it.
    void publishedFiguresBesideOurs()
    {
        auto controller =
            makeController({spinning("totp/sha1", 100), spinning("fake/unpublished", 100)});
        QVERIFY(runToEnd(*controller));
        const auto& model = *controller->results();
        QCOMPARE(role(model, 0, "publishedText").toString(), QStringLiteral("350 \u00b5s"));
        QVERIFY(
            role(model, 0, "publishedSource").toString().startsWith(QStringLiteral("watch notes")));
        // A spin of 100 rounds takes far less than 350 µs: a fraction.
        QVERIFY2(role(model, 0, "publishedRatioText").toString().startsWith(QStringLiteral("1/")),
                 qPrintable(role(model, 0, "publishedRatioText").toString()));
        QCOMPARE(role(model, 1, "publishedText").toString(), QString());
        QCOMPARE(role(model, 1, "publishedRatioText").toString(), QString());
    }

    void failingBenchmarkIsShownAndPassedOver()
    {
        auto controller =
            makeController({failing("fake/failing", "no such key"), spinning("fake/after", 100)});
        QVERIFY(runToEnd(*controller));
        const auto& model = *controller->results();
        QCOMPARE(role(model, 0, "status").toString(), QStringLiteral("failed"));
        QCOMPARE(role(model, 0, "error").toString(), QStringLiteral("no such key"));
        QCOMPARE(role(model, 0, "pointText").toString(), QString());
        QCOMPARE(role(model, 1, "status").toString(), QStringLiteral("measured"));
        QCOMPARE(role(model, 0, "detailText").toString(), QStringLiteral("failed: no such key"));
        QCOMPARE(role(model, 1, "detailText").toString(), QStringLiteral("linear sampling"));
        QCOMPARE(model.failedCount(), 1);
        QVERIFY(controller->statusText().contains(QStringLiteral("1 failed")));
    }

    void cancelStopsInsideTheBenchmark()
    {
        auto release = std::make_shared<std::atomic<bool>>(false);
        auto laterPrepared = std::make_shared<std::atomic<int>>(0);
        // Blocks in its first iteration until the test releases it.
        perf::Benchmark blocker;
        blocker.name = "fake/blocker";
        blocker.prepare = [release] {
            return perf::prepared(perf::loop([release] {
                while (!release->load())
                    std::this_thread::yield();
            }));
        };
        auto controller = makeController({spinning("fake/first", 100), blocker,
                                          spinning(
                                              "fake/later", [] { return 100; }, laterPrepared)});
        QSignalSpy finished(controller->run(), &BenchmarkRun::finished);
        QSignalSpy progress(controller->run(), &BenchmarkRun::progressChanged);
        QVERIFY(controller->run()->start());
        QVERIFY(controller->run()->running());
        QVERIFY(!controller->run()->start()); // one run at a time
        QCOMPARE(role(*controller->results(), 2, "detailText").toString(),
                 QStringLiteral("queued"));
        QVERIFY(waitUntil(progress, [&] {
            return controller->run()->currentName() == QLatin1String("fake/blocker");
        }));
        QCOMPARE(controller->results()->status(1), BenchmarkResultsModel::Status::Running);
        QCOMPARE(role(*controller->results(), 1, "detailText").toString(),
                 QStringLiteral("running\u2026"));
        controller->run()->cancel();
        QVERIFY(controller->statusText().contains(QStringLiteral("Cancelling")));
        release->store(true);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.constFirst().constFirst().toBool(), true);
        QVERIFY(!controller->run()->running());

        const auto& model = *controller->results();
        QCOMPARE(role(model, 0, "status").toString(), QStringLiteral("measured"));
        QCOMPARE(role(model, 1, "status").toString(), QStringLiteral("cancelled"));
        QCOMPARE(role(model, 2, "status").toString(), QStringLiteral("skipped"));
        QCOMPARE(role(model, 1, "detailText").toString(), QStringLiteral("cancelled"));
        QCOMPARE(role(model, 2, "detailText").toString(), QStringLiteral("not run"));
        QCOMPARE(laterPrepared->load(), 0);
        QCOMPARE(model.measuredCount(), 1);

        // And it runs again afterwards.
        QVERIFY(runToEnd(*controller));
        QCOMPARE(laterPrepared->load(), 1);
        QCOMPARE(model.measuredCount(), 3);

        // A run cancelled after a complete one: the complete one is shown
        // again, not the stopped run's single row.
        release->store(false);
        finished.clear();
        QVERIFY(controller->run()->start());
        QVERIFY(waitUntil(progress, [&] {
            return controller->run()->currentName() == QLatin1String("fake/blocker");
        }));
        controller->run()->cancel();
        release->store(true);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.constFirst().constFirst().toBool(), true);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.measuredCount(), 3);
        for (int row = 0; row < 3; ++row)
            QCOMPARE(role(model, row, "status").toString(), QStringLiteral("measured"));
        QVERIFY2(controller->statusText().contains(QStringLiteral("last complete run")),
                 qPrintable(controller->statusText()));
    }

    // `watchword --diagnostics-run FILTER`: the matching benchmarks chosen
    // and run; a filter that does not compile runs nothing.
    void startMatchingChoosesAndRuns()
    {
        auto controller =
            makeController({spinning("fake/fast", 100), spinning("fake/slower", 1000)});
        QVERIFY(!controller->run()->startMatching(QStringLiteral("(")));
        QVERIFY(!controller->run()->running());
        QVERIFY(!controller->benchmarks()->filterError().isEmpty());
        QSignalSpy finished(controller->run(), &BenchmarkRun::finished);
        QVERIFY(controller->run()->startMatching(QStringLiteral("^fake/fast$")));
        QVERIFY(controller->run()->running());
        QVERIFY(finished.wait(60000));
        QCOMPARE(controller->results()->rowCount(), 1);
        QCOMPARE(role(*controller->results(), 0, "name").toString(), QStringLiteral("fake/fast"));
    }

    void destroyedMidRunDoesNotHang()
    {
        // A warm-up of an hour: only the cancel at destruction ends the run.
        auto controller = makeController({spinning("fake/endless", 100)});
        controller->run()->setCustomProfile({"endless", 5, 3600s, 20ms, 200, {}});
        QSignalSpy progress(controller->run(), &BenchmarkRun::progressChanged);
        QVERIFY(controller->run()->start());
        // Under way: the benchmark is being measured.
        QVERIFY(waitUntil(progress, [&] {
            return controller->results()->status(0) == BenchmarkResultsModel::Status::Running;
        }));
        controller.reset(); // cancels and joins
        QVERIFY(!controller);
    }

private:
    QTemporaryDir m_dataHome;
};

QTEST_MAIN(TestBenchmarkRun)
#include "TestBenchmarkRun.moc"
