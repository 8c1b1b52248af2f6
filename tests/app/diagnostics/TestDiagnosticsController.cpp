// The Diagnostics view's controller on fake benchmarks (small spinning
// loops) with a tiny profile: runs fill the model in, cancelling stops a run
// inside the benchmark it interrupts, failures are shown and passed over,
// baselines are saved and compared, reports are written, and a controller
// destroyed mid-run does not hang.
#include "app/diagnostics/BenchmarkChoiceModel.h"
#include "app/diagnostics/BenchmarkResultsModel.h"
#include "app/diagnostics/ComparisonListModel.h"
#include "app/diagnostics/DiagnosticsController.h"
#include "perf/Comparisons.h"

#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <functional>
#include <memory>
#include <thread>

using namespace std::chrono_literals;
using watchword::app::BenchmarkResultsModel;
using watchword::app::DiagnosticsController;
namespace perf = watchword::perf;

namespace {

// The work the fake benchmarks have done, one nanosecond per round: the
// clock of workProfile(). What a test on it measures is then the work it
// asked for, whatever else the machine is doing (a loaded machine once read
// three times the work as "no change").
std::atomic<std::int64_t>& roundsDone()
{
    static std::atomic<std::int64_t> rounds{0};
    return rounds;
}

void spin(std::uint64_t rounds)
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
perf::Benchmark spinning(std::string name, std::function<std::uint64_t()> rounds,
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

perf::Benchmark spinning(std::string name, std::uint64_t rounds)
{
    return spinning(std::move(name), [rounds] { return rounds; });
}

perf::Benchmark failing(std::string name, std::string why)
{
    perf::Benchmark benchmark;
    benchmark.name = std::move(name);
    benchmark.prepare = [why = std::move(why)] {
        return perf::notPrepared(why);
    };
    return benchmark;
}

// 5 samples, 10 ms warm-up, 20 ms of measurement, 200 resamples.
perf::Profile tinyProfile()
{
    return {"tiny", 5, 10ms, 20ms, 200, {}};
}

// tinyProfile() on the clock of the rounds spun, for tests that compare
// amounts of work: only benchmarks that spin() advance it.
perf::Profile workProfile()
{
    auto profile = tinyProfile();
    profile.name = "work";
    profile.clock = [] {
        return std::chrono::nanoseconds(roundsDone());
    };
    return profile;
}

QVariant role(const BenchmarkResultsModel& model, int row, const char* name)
{
    const auto roles = model.roleNames();
    return model.data(model.index(row), roles.key(name));
}

// Waits (processing events) until done() holds, a signal of spy at a time.
bool waitUntil(QSignalSpy& spy, const std::function<bool()>& done)
{
    while (!done()) {
        if (!spy.wait(30000))
            return done();
    }
    return true;
}

// Runs controller's checked benchmarks to the end; true if it was not cancelled.
bool runToEnd(DiagnosticsController& controller)
{
    QSignalSpy finished(&controller, &DiagnosticsController::runFinished);
    if (!controller.run())
        return false;
    if (!finished.wait(60000))
        return false;
    return !finished.constFirst().constFirst().toBool();
}

std::unique_ptr<DiagnosticsController> makeController(std::vector<perf::Benchmark> benchmarks,
                                                      const QString& baselines = {})
{
    auto controller = std::make_unique<DiagnosticsController>();
    controller->setBenchmarks(std::move(benchmarks));
    controller->setCustomProfile(tinyProfile());
    if (!baselines.isEmpty())
        controller->setBaselineDirectory(baselines);
    return controller;
}

} // namespace

class TestDiagnosticsController : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // The default baseline folder follows XDG_DATA_HOME: never the user's.
        QVERIFY(m_dataHome.isValid());
        qputenv("XDG_DATA_HOME", QFile::encodeName(m_dataHome.path()));
    }

    void defaultsToTheCatalogueAndQuickProfile()
    {
        DiagnosticsController controller;
        QCOMPARE(controller.benchmarks()->rowCount(), int(perf::catalogue().size()));
        QCOMPARE(controller.benchmarks()->checkedCount(), controller.benchmarks()->rowCount());
        QCOMPARE(controller.profile(), QStringLiteral("quick"));
        QVERIFY(controller.baselineDirectory().startsWith(m_dataHome.path()));
        QCOMPARE(controller.comparisons()->rowCount(), int(perf::comparisons().size()));
        QVERIFY(!controller.systemInfo().value(QStringLiteral("line")).toString().isEmpty());

        QSignalSpy profileChanged(&controller, &DiagnosticsController::profileChanged);
        controller.setProfile(QStringLiteral("full"));
        QCOMPARE(controller.profile(), QStringLiteral("full"));
        QCOMPARE(profileChanged.count(), 1);
        controller.setProfile(QStringLiteral("thorough"));
        QCOMPARE(controller.profile(), QStringLiteral("full"));
        QVERIFY(!controller.error().isEmpty());
    }

    void choosesBenchmarks()
    {
        auto controller = makeController({spinning("totp/fast", 10), spinning("pbkdf2/slow", 10),
                                          spinning("ref/totp_reference", 10)});
        auto* choices = controller->benchmarks();
        QCOMPARE(choices->checkedCount(), 3);
        choices->selectNone();
        QCOMPARE(choices->checkedCount(), 0);
        QVERIFY(!controller->run());
        QVERIFY(!controller->error().isEmpty());
        QVERIFY(!controller->running());

        QVERIFY(choices->selectMatching(QStringLiteral("TOTP")));
        QCOMPARE(choices->checkedCount(), 2);
        QCOMPARE(choices->checkedRows(), (std::vector<int>{0, 2}));
        QVERIFY(!choices->selectMatching(QStringLiteral("(")));
        QVERIFY(!choices->filterError().isEmpty());
        QCOMPARE(choices->checkedCount(), 2); // unchanged
        QVERIFY(choices->selectMatching(QStringLiteral("^pbkdf2/")));
        QVERIFY(choices->filterError().isEmpty());
        QCOMPARE(choices->checkedRows(), (std::vector<int>{1}));
        choices->setChecked(0, true);
        QCOMPARE(choices->checkedCount(), 2);
        choices->selectAll();
        QCOMPARE(choices->checkedCount(), 3);
    }

    void runFillsTheResults()
    {
        auto controller =
            makeController({spinning("fake/fast", 100), spinning("fake/slower", 1000)});
        QSignalSpy progress(controller.get(), &DiagnosticsController::progressChanged);
        QSignalSpy rows(controller->results(), &QAbstractItemModel::dataChanged);
        QVERIFY(runToEnd(*controller));
        QVERIFY(!controller->running());
        QVERIFY(!controller->busy());
        QVERIFY(progress.count() > 2);
        QVERIFY(rows.count() >= 2); // each row as it finished
        QCOMPARE(controller->overallProgress(), 1.0);

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

        const QVariantList bars = controller->chartData();
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
        controller->setCustomProfile(workProfile());
        QSignalSpy interleavedChanged(controller.get(), &DiagnosticsController::interleavedChanged);
        controller->setInterleaved(true);
        QCOMPARE(interleavedChanged.size(), 1);
        QVERIFY(controller->interleaved());
        QVERIFY(runToEnd(*controller));
        const auto& model = *controller->results();
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(role(model, 0, "status").toString(), QStringLiteral("measured"));
        QCOMPARE(role(model, 1, "status").toString(), QStringLiteral("failed"));
        QCOMPARE(role(model, 2, "status").toString(), QStringLiteral("measured"));
        // Slower by the work done, whatever the machine: ten times the spin.
        QVERIFY(role(model, 2, "point").toDouble() > role(model, 0, "point").toDouble());
        // Not changeable during a run.
        QVERIFY(controller->run());
        controller->setInterleaved(false);
        QVERIFY(controller->interleaved());
        controller->cancel();
        QSignalSpy finished(controller.get(), &DiagnosticsController::runFinished);
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
        QSignalSpy finished(controller.get(), &DiagnosticsController::runFinished);
        QSignalSpy progress(controller.get(), &DiagnosticsController::progressChanged);
        QVERIFY(controller->run());
        QVERIFY(controller->running());
        QVERIFY(!controller->run()); // one run at a time
        QVERIFY(waitUntil(
            progress, [&] { return controller->currentName() == QLatin1String("fake/blocker"); }));
        QCOMPARE(controller->results()->status(1), BenchmarkResultsModel::Status::Running);
        controller->cancel();
        QVERIFY(controller->statusText().contains(QStringLiteral("Cancelling")));
        release->store(true);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.constFirst().constFirst().toBool(), true);
        QVERIFY(!controller->running());

        const auto& model = *controller->results();
        QCOMPARE(role(model, 0, "status").toString(), QStringLiteral("measured"));
        QCOMPARE(role(model, 1, "status").toString(), QStringLiteral("cancelled"));
        QCOMPARE(role(model, 2, "status").toString(), QStringLiteral("skipped"));
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
        QVERIFY(controller->run());
        QVERIFY(waitUntil(
            progress, [&] { return controller->currentName() == QLatin1String("fake/blocker"); }));
        controller->cancel();
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

    void baselineComparisonFindsARegression()
    {
        QTemporaryDir baselines;
        auto rounds = std::make_shared<std::atomic<std::uint64_t>>(2000);
        auto controller =
            makeController({spinning("fake/scaled", [rounds] { return rounds->load(); }),
                            spinning("fake/steady", 100)},
                           baselines.path());
        controller->setCustomProfile(workProfile());
        QVERIFY(controller->baselines().isEmpty());
        QVERIFY(!controller->saveBaseline(QStringLiteral("early"))); // nothing measured yet
        QVERIFY(!controller->compareWith(QStringLiteral("early")));

        QVERIFY(runToEnd(*controller));
        QSignalSpy saved(controller.get(), &DiagnosticsController::baselineSaved);
        QSignalSpy listed(controller.get(), &DiagnosticsController::baselinesChanged);
        QVERIFY2(controller->saveBaseline(QStringLiteral("before")),
                 qPrintable(controller->error()));
        QCOMPARE(saved.count(), 1);
        QCOMPARE(listed.count(), 1);
        QCOMPARE(controller->baselines(), QStringList{QStringLiteral("before")});
        QVERIFY(QFile::exists(QDir(baselines.path()).filePath(QStringLiteral("before.baseline"))));

        rounds->store(6000); // three times the work
        QVERIFY(runToEnd(*controller));
        QSignalSpy compared(controller.get(), &DiagnosticsController::comparisonFinished);
        QVERIFY2(controller->compareWith(QStringLiteral("before")),
                 qPrintable(controller->error()));
        QVERIFY(controller->comparing());
        QVERIFY(!controller->run()); // busy comparing
        QVERIFY(compared.wait(30000));
        QVERIFY(!controller->comparing());
        QCOMPARE(controller->comparedWith(), QStringLiteral("before"));

        const auto& model = *controller->results();
        QVERIFY(model.hasChanges());
        QCOMPARE(role(model, 0, "verdict").toString(), QStringLiteral("regressed"));
        QVERIFY(role(model, 0, "change").toDouble() > 0.5);
        QVERIFY(role(model, 0, "changeLow").toDouble() <= role(model, 0, "change").toDouble());
        QVERIFY(role(model, 0, "change").toDouble() <= role(model, 0, "changeHigh").toDouble());
        QVERIFY(role(model, 0, "changeText").toString().startsWith(QLatin1Char('+')));
        QVERIFY(role(model, 1, "hasChange").toBool());
        QCOMPARE(controller->report().baselineName, std::string("before"));

        controller->clearComparison();
        QCOMPARE(controller->comparedWith(), QString());
        QCOMPARE(role(model, 0, "verdict").toString(), QString());
        QVERIFY(!model.hasChanges());

        QVERIFY(!controller->compareWith(QStringLiteral("missing")));
        QVERIFY(!controller->error().isEmpty());
    }

    void badBaselineNamesAreRefused_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("empty") << QString();
        QTest::newRow("path") << QStringLiteral("../escape");
        QTest::newRow("hidden") << QStringLiteral(".hidden");
        QTest::newRow("space") << QStringLiteral("my baseline");
        QTest::newRow("too long") << QString(65, QLatin1Char('a'));
    }

    void badBaselineNamesAreRefused()
    {
        QFETCH(QString, name);
        QTemporaryDir baselines;
        auto controller = makeController({spinning("fake/fast", 100)}, baselines.path());
        QVERIFY(runToEnd(*controller));
        QSignalSpy errors(controller.get(), &DiagnosticsController::errorChanged);
        QVERIFY(!controller->isValidBaselineName(name));
        QVERIFY(!controller->saveBaseline(name));
        QCOMPARE(errors.count(), 1);
        QVERIFY(controller->error().contains(QStringLiteral("letters")));
        QVERIFY(QDir(baselines.path())
                    .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot)
                    .isEmpty());
        QVERIFY(controller->isValidBaselineName(QStringLiteral("good-name_1.0")));
    }

    void exportsEveryFormat()
    {
        QTemporaryDir out;
        auto controller =
            makeController({spinning("fake/fast", 100), spinning("fake/slower", 500)});
        QVERIFY(!controller->exportReport(QStringLiteral("json"),
                                          QUrl::fromLocalFile(out.filePath("early.json"))));
        QVERIFY(runToEnd(*controller));
        QSignalSpy exported(controller.get(), &DiagnosticsController::reportExported);

        const QString json = out.filePath(QStringLiteral("report.json"));
        QVERIFY2(controller->exportReport(QStringLiteral("json"), QUrl::fromLocalFile(json)),
                 qPrintable(controller->error()));
        QFile jsonFile(json);
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(jsonFile.readAll(), &parseError);
        QVERIFY2(parseError.error == QJsonParseError::NoError,
                 qPrintable(parseError.errorString()));
        QVERIFY(document.isObject());
        QVERIFY(QString::fromUtf8(document.toJson()).contains(QStringLiteral("fake/slower")));

        const QString html = out.filePath(QStringLiteral("report.html"));
        QVERIFY(controller->exportReport(QStringLiteral("html"), QUrl::fromLocalFile(html)));
        QFile htmlFile(html);
        QVERIFY(htmlFile.open(QIODevice::ReadOnly));
        QVERIFY(htmlFile.readAll().startsWith("<!DOCTYPE html>"));

        const QString markdown = out.filePath(QStringLiteral("report.md"));
        QVERIFY(
            controller->exportReport(QStringLiteral("markdown"), QUrl::fromLocalFile(markdown)));
        QFile markdownFile(markdown);
        QVERIFY(markdownFile.open(QIODevice::ReadOnly));
        const QByteArray table = markdownFile.readAll();
        QVERIFY(table.contains("| Operation | low | point | high | outliers (mild + severe) |"));
        QVERIFY(table.contains("fake/fast"));
        QCOMPARE(exported.count(), 3);
        // The next export dialog opens where this one saved.
        QCOMPARE(controller->exportFolder(),
                 QUrl::fromLocalFile(QFileInfo(markdown).absolutePath()));

        QVERIFY(!controller->exportReport(QStringLiteral("pdf"),
                                          QUrl::fromLocalFile(out.filePath("report.pdf"))));
        QVERIFY(!controller->error().isEmpty());
        QVERIFY(!QFile::exists(out.filePath(QStringLiteral("report.pdf"))));
        QVERIFY(!controller->exportReport(
            QStringLiteral("json"), QUrl::fromLocalFile(out.filePath("no/such/folder/r.json"))));
        QVERIFY(controller->error().contains(QStringLiteral("Could not write")));
        QVERIFY(!controller->exportReport(QStringLiteral("json"),
                                          QUrl(QStringLiteral("https://example.com/r.json"))));

        QVERIFY(controller->copyTable());
        QVERIFY(QGuiApplication::clipboard()->text().contains(QStringLiteral("| Operation |")));
        QCOMPARE(controller->suggestedFileName(QStringLiteral("html")).right(5),
                 QStringLiteral(".html"));
    }

    void destroyedMidRunDoesNotHang()
    {
        // A warm-up of an hour: only the cancel at destruction ends the run.
        auto controller = makeController({spinning("fake/endless", 100)});
        controller->setCustomProfile({"endless", 5, 3600s, 20ms, 200, {}});
        QSignalSpy progress(controller.get(), &DiagnosticsController::progressChanged);
        QVERIFY(controller->run());
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

QTEST_MAIN(TestDiagnosticsController)
#include "TestDiagnosticsController.moc"
