// The chosen watch's costs over the shipped profiles: the notes' figures,
// a measured time replacing the estimate (kept in the settings by device),
// bad measured times refused, the notes' inconsistency, the unlock target
// and the round count.
#include "app/watch/WatchCosts.h"
#include "app/watch/WatchFixture.h"
#include "watch/CostModel.h"

#include <cmath>
#include <limits>

using watchword::app::WatchCalibration;
using watchword::app::WatchCost;
using watchword::app::WatchCosts;
using namespace watchword::test;
namespace watch = watchword::watch;

namespace {

// The cost row of operation key; a default-made one (key "") if none.
WatchCost costRow(const WatchCosts& costs, const QString& key)
{
    for (const auto& row : costs.operations())
        if (row.key == key)
            return row;
    return {};
}

} // namespace

class TestWatchCosts : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { m_fixture.initTestCase(); }
    void init() { m_fixture.init(); }
    void cleanupTestCase() { m_fixture.cleanupTestCase(); }

    void costsOnTheNotesFigures();
    void aMeasuredValueReplacesTheEstimate();
    void badMeasuredValuesAreRefused_data();
    void badMeasuredValuesAreRefused();
    void theNotesInconsistencyIsStatedOnce();
    void targetAndIterations();

private:
    WatchFixture m_fixture;
};

void TestWatchCosts::costsOnTheNotesFigures()
{
    const auto simulator = m_fixture.makeSimulator();
    const WatchCosts& costs = *simulator->costs();
    QCOMPARE(costs.operations().size(), 6);
    const std::pair<const char*, double> figures[] = {
        {"totp-sha1", 0.35}, {"totp-sha256", 0.05}, {"totp-sha512", 17.5},
        {"pbkdf2-1000", 52}, {"seal-open", 0.25},   {"self-test", 6.7},
    };
    for (const auto& [key, ms] : figures) {
        const WatchCost row = costRow(costs, QString::fromLatin1(key));
        QCOMPARE(row.key, QString::fromLatin1(key));
        QCOMPARE(row.simulatorMs, ms);
        QCOMPARE(row.basis, QStringLiteral("estimate"));
        QCOMPARE(row.measuredMs, 0.0);
        QVERIFY(row.lowMs < row.highMs);
        QVERIFY(!row.text.isEmpty());
    }
}

void TestWatchCosts::aMeasuredValueReplacesTheEstimate()
{
    const auto simulator = m_fixture.makeSimulator();
    const WatchCosts& costs = *simulator->costs();
    const WatchCalibration calibrationBefore = costs.calibration();
    QVERIFY(calibrationBefore.floorApplied);
    QSignalSpy changed(&costs, &WatchCosts::costsChanged);
    QVERIFY(simulator->profiles()->setMeasured(QStringLiteral("pbkdf2-1000"), 10));
    QVERIFY(changed.size() >= 1);

    const WatchCost row = costRow(costs, QStringLiteral("pbkdf2-1000"));
    QCOMPARE(row.basis, QStringLiteral("measured"));
    QCOMPARE(row.lowMs, 10.0);
    QCOMPARE(row.highMs, 10.0);
    QCOMPARE(row.measuredMs, 10.0);
    // The other rows stay estimates.
    QCOMPARE(costRow(costs, QStringLiteral("totp-sha1")).basis, QStringLiteral("estimate"));

    // 1,000 ms at 10 ms per 1,000 rounds: 100,000 rounds, timed at 1 s.
    const WatchCalibration calibration = costs.calibration();
    QCOMPARE(calibration.basis, QStringLiteral("measured"));
    QCOMPARE(calibration.low, 100'000);
    QCOMPARE(calibration.high, 100'000);
    QVERIFY(!calibration.floorApplied);
    QVERIFY(calibration.warnings.isEmpty());
    const auto unlock = costs.unlock();
    QCOMPARE(unlock.iterations, 100'000);
    QCOMPARE(unlock.basis, QStringLiteral("measured"));
    QCOMPARE(unlock.lowMs, 1000.0);
    QCOMPARE(unlock.highMs, 1000.0);

    // Kept by device: a new simulator on the same settings shows it; another
    // watch does not.
    {
        const auto again = m_fixture.makeSimulator();
        const WatchCost kept = costRow(*again->costs(), QStringLiteral("pbkdf2-1000"));
        QCOMPARE(kept.basis, QStringLiteral("measured"));
        QCOMPARE(kept.measuredMs, 10.0);
        QCOMPARE(again->costs()->unlock().iterations, 100'000);
        again->profiles()->setDeviceId(QStringLiteral("fr965"));
        QCOMPARE(costRow(*again->costs(), QStringLiteral("pbkdf2-1000")).basis,
                 QStringLiteral("estimate"));
    }

    // 0 clears it, here and in the settings.
    QVERIFY(simulator->profiles()->setMeasured(QStringLiteral("pbkdf2-1000"), 0));
    QCOMPARE(costRow(costs, QStringLiteral("pbkdf2-1000")).basis, QStringLiteral("estimate"));
    QCOMPARE(costs.calibration(), calibrationBefore);
    const auto cleared = m_fixture.makeSimulator();
    QCOMPARE(costRow(*cleared->costs(), QStringLiteral("pbkdf2-1000")).basis,
             QStringLiteral("estimate"));
}

void TestWatchCosts::badMeasuredValuesAreRefused_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<double>("milliseconds");
    QTest::newRow("unknown operation") << QStringLiteral("pbkdf2-2000") << 10.0;
    QTest::newRow("empty key") << QString() << 10.0;
    QTest::newRow("NaN") << QStringLiteral("totp-sha1") << std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("infinity") << QStringLiteral("totp-sha1")
                              << std::numeric_limits<double>::infinity();
    QTest::newRow("over an hour") << QStringLiteral("totp-sha1") << 3'600'001.0;
}

void TestWatchCosts::badMeasuredValuesAreRefused()
{
    QFETCH(QString, key);
    QFETCH(double, milliseconds);
    const auto simulator = m_fixture.makeSimulator();
    const WatchCosts& costs = *simulator->costs();
    const QList<WatchCost> before = costs.operations();
    QSignalSpy changed(&costs, &WatchCosts::costsChanged);
    QVERIFY(!simulator->profiles()->setMeasured(key, milliseconds));
    QVERIFY(!simulator->error().isEmpty());
    QCOMPARE(changed.size(), 0);
    QCOMPARE(costs.operations(), before);
    QCOMPARE(m_fixture.settings->watchMeasuredMs(QStringLiteral("fr255"), key), 0.0);
}

void TestWatchCosts::theNotesInconsistencyIsStatedOnce()
{
    const auto simulator = m_fixture.makeSimulator();
    const WatchCosts& costs = *simulator->costs();
    const QString text = costs.inconsistency().text;
    QVERIFY(!text.isEmpty());
    QVERIFY2(text.contains(QStringLiteral("19,231")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("12,000")), qPrintable(text));
    QCOMPARE(costs.inconsistency().simulatorCalibrationRounds, 12000.0);
    QVERIFY(!costs.notes().contains(text));
    for (const auto& note : costs.notes())
        QVERIFY2(!note.contains(QStringLiteral("19,231")), qPrintable(note));
}

void TestWatchCosts::targetAndIterations()
{
    const auto simulator = m_fixture.makeSimulator();
    WatchCosts& costs = *simulator->costs();
    const watch::Device fr255 = shippedDevice("fr255");
    QCOMPARE(fr255.id, std::string("fr255"));

    QCOMPARE(costs.targetMs(), 1000);
    costs.setTargetMs(5);
    QCOMPARE(costs.targetMs(), 100);
    costs.setTargetMs(20'000);
    QCOMPARE(costs.targetMs(), 10'000);
    QCOMPARE(costs.calibration().targetMs, 10'000);
    costs.setTargetMs(-1);
    QCOMPARE(costs.targetMs(), 100);
    costs.setTargetMs(4000);
    QCOMPARE(costs.targetMs(), 4000);

    // 0: the count an export would choose.
    QCOMPARE(costs.iterations(), 0);
    QCOMPARE(costs.unlock().iterations, qint64(watch::exportIterations(fr255, 4000)));
    QCOMPARE(costs.unlock().iterations, costs.calibration().low);

    // 12,000 rounds at 52 ms per 1,000.
    QSignalSpy changed(&costs, &WatchCosts::costsChanged);
    costs.setIterations(12'000);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(costs.iterations(), 12'000);
    QCOMPARE(costs.unlock().iterations, 12'000);
    QCOMPARE(costs.unlock().simulatorMs, 624.0);

    costs.setIterations(0);
    QCOMPARE(costs.unlock().iterations, qint64(watch::exportIterations(fr255, 4000)));
}

int main(int argc, char** argv)
{
    return runWatchTest<TestWatchCosts>(argc, argv, "TestWatchCosts");
}

#include "TestWatchCosts.moc"
