#include "app/codes/AccountStore.h"
#include "app/codes/Clock.h"
#include "app/desktop/ClipboardService.h"
#include "app/diagnostics/AppMetrics.h"
#include "app/vault/VaultController.h"

#include <QQuickWindow>
#include <QSignalSpy>
#include <QtTest>
#include <cmath>
#include <limits>

using watchword::app::AccountStore;
using watchword::app::AppMetrics;
using watchword::app::ClipboardService;
using watchword::app::Clock;
using watchword::app::TickStopwatch;
using watchword::app::VaultController;
namespace procfs = watchword::app::procfs;
using Figure = AppMetrics::Figure;

namespace {

constexpr qint64 msec = 1'000'000; // nanoseconds
constexpr double notMeasured = std::numeric_limits<double>::quiet_NaN();

QElapsedTimer started()
{
    QElapsedTimer timer;
    timer.start();
    return timer;
}

// A /proc/self/status as Linux 6.1 writes it, cut down.
constexpr char statusSample[] = "Name:\twatchword\n"
                                "Umask:\t0022\n"
                                "State:\tS (sleeping)\n"
                                "VmPeak:\t 1236508 kB\n"
                                "VmSize:\t 1171004 kB\n"
                                "VmLck:\t       0 kB\n"
                                "VmHWM:\t   72812 kB\n"
                                "VmRSS:\t   70144 kB\n"
                                "RssAnon:\t   21640 kB\n"
                                "Threads:\t7\n";

} // namespace

class TestAppMetrics : public QObject
{
    Q_OBJECT

private slots:
    void parsesStatus_data();
    void parsesStatus();
    void readsOwnMemory();
    void parsesStartTicks_data();
    void parsesStartTicks();
    void processStartBeforeMain();
    void stopwatchNeedsAStart();
    void ratioAndMet_data();
    void ratioAndMet();
    void slowestSecond();
    void medianOfTheLastMinute();
    void medianWindowDropsOldSeconds();
    void memoryRows();
    void launchFigures();
    void codesFrameNeedsASceneAfterTheUnlock();
    void onlyTheFirstUnlockCounts();
    void ticksOfARealClock();
    void noSecondsWhileTheCodesAreHidden();
    void modelRowsAndSignals();
    void activeRefreshes();
    void watchesAWindowAndADemoVault();
};

void TestAppMetrics::parsesStatus_data()
{
    QTest::addColumn<QByteArray>("status");
    QTest::addColumn<qint64>("peak");
    QTest::addColumn<qint64>("resident");
    QTest::newRow("linux") << QByteArray(statusSample) << qint64(72812) << qint64(70144);
    QTest::newRow("no final newline")
        << QByteArray("VmRSS:\t  512 kB\nVmHWM:\t 1024 kB") << qint64(1024) << qint64(512);
    QTest::newRow("spaces, no tab")
        << QByteArray("VmHWM: 9 kB\nVmRSS: 8 kB\n") << qint64(9) << qint64(8);
    QTest::newRow("missing") << QByteArray("Name:\tx\nVmPeak:\t 100 kB\n") << qint64(-1)
                             << qint64(-1);
    QTest::newRow("garbage value")
        << QByteArray("VmHWM:\t lots kB\nVmRSS:\t 7 kB\n") << qint64(-1) << qint64(7);
    // RssVmHWM is not VmHWM: a key starts its line.
    QTest::newRow("look-alikes") << QByteArray("RssVmHWM:\t 5 kB\nVmRSS:\t 6 kB\n") << qint64(-1)
                                 << qint64(6);
    QTest::newRow("empty") << QByteArray() << qint64(-1) << qint64(-1);
}

void TestAppMetrics::parsesStatus()
{
    QFETCH(QByteArray, status);
    QFETCH(qint64, peak);
    QFETCH(qint64, resident);
    const procfs::Memory memory = procfs::parseStatus(status);
    QCOMPARE(memory.peakKilobytes, peak);
    QCOMPARE(memory.residentKilobytes, resident);
}

void TestAppMetrics::readsOwnMemory()
{
    const procfs::Memory memory = procfs::readMemory();
    QVERIFY(memory.residentKilobytes > 0);
    QVERIFY(memory.peakKilobytes >= memory.residentKilobytes);
}

void TestAppMetrics::parsesStartTicks_data()
{
    QTest::addColumn<QByteArray>("stat");
    QTest::addColumn<qint64>("ticks");
    // Fields 3 to 23: the start time (22) is 987654.
    const QByteArray fields =
        "S 1 4242 4242 0 -1 4194560 1000 0 0 0 5 3 0 0 20 0 4 0 987654 123456789 1000\n";
    QTest::newRow("plain") << QByteArray("4242 (watchword) " + fields) << qint64(987654);
    QTest::newRow("name with spaces and parentheses")
        << QByteArray("4242 (a (b) c) " + fields) << qint64(987654);
    QTest::newRow("name of ') 1 2 3'") << QByteArray("4242 () 1 2 3) " + fields) << qint64(987654);
    QTest::newRow("truncated") << QByteArray("4242 (watchword) S 1 4242 4242 0") << qint64(-1);
    QTest::newRow("no name") << QByteArray("4242 watchword S 1") << qint64(-1);
    QTest::newRow("ends at the name") << QByteArray("4242 (watchword)") << qint64(-1);
}

void TestAppMetrics::parsesStartTicks()
{
    QFETCH(QByteArray, stat);
    QFETCH(qint64, ticks);
    QCOMPARE(procfs::parseStartTicks(stat), ticks);
}

void TestAppMetrics::processStartBeforeMain()
{
    // This process started before the timer did, so it had lived a while.
    const QElapsedTimer now = started();
    const double before = procfs::processStartToMainMilliseconds(now);
    QVERIFY2(before >= 0, QByteArray::number(before));
    QFile stat(QStringLiteral("/proc/self/stat"));
    QVERIFY(stat.open(QIODevice::ReadOnly));
    QVERIFY(procfs::parseStartTicks(stat.readAll()) >= 0);
}

void TestAppMetrics::stopwatchNeedsAStart()
{
    TickStopwatch stopwatch(started());
    QVERIFY(!stopwatch.running());
    QVERIFY(!stopwatch.stop());
    stopwatch.start();
    QVERIFY(stopwatch.running());
    const auto span = stopwatch.stop();
    QVERIFY(span);
    QVERIFY(!stopwatch.running());
    QVERIFY(span->wallNanoseconds >= 0);
    QVERIFY(span->cpuNanoseconds >= 0);
    QVERIFY(!stopwatch.stop());

    TickStopwatch wallOnly(started(), TickStopwatch::Cpu::NotMeasured);
    wallOnly.start();
    const auto wall = wallOnly.stop();
    QVERIFY(wall);
    QVERIFY(wall->wallNanoseconds >= 0);
    QCOMPARE(wall->cpuNanoseconds, std::int64_t(-1));
}

void TestAppMetrics::ratioAndMet_data()
{
    QTest::addColumn<double>("measured");
    QTest::addColumn<double>("target");
    QTest::addColumn<double>("ratio");
    QTest::addColumn<bool>("met");
    QTest::newRow("half") << 1.0 << 2.0 << 0.5 << true;
    QTest::newRow("at the target") << 400.0 << 400.0 << 1.0 << true;
    QTest::newRow("over") << 2.5 << 2.0 << 1.25 << false;
    QTest::newRow("zero") << 0.0 << 150.0 << 0.0 << true;
    QTest::newRow("not measured") << notMeasured << 2.0 << notMeasured << false;
    QTest::newRow("no target") << 1083.0 << 0.0 << notMeasured << false;
}

void TestAppMetrics::ratioAndMet()
{
    QFETCH(double, measured);
    QFETCH(double, target);
    QFETCH(double, ratio);
    QFETCH(bool, met);
    const AppMetrics::Row row{measured, target, {}};
    QCOMPARE(row.available(), !std::isnan(measured));
    if (std::isnan(ratio))
        QVERIFY(std::isnan(row.ratio()));
    else
        QCOMPARE(row.ratio(), ratio);
    QCOMPARE(row.met(), met);
}

void TestAppMetrics::slowestSecond()
{
    AppMetrics metrics(started());
    metrics.publish({}, 100);
    QVERIFY(!metrics.row(Figure::SlowestSecond).available());
    QVERIFY(!metrics.row(Figure::SlowestSecond).met());

    metrics.recordSecond(95, 40'000);    // 0.04 ms
    metrics.recordSecond(96, 1'520'000); // 1.52 ms, a roll-over
    metrics.recordSecond(97, 37'000);
    metrics.publish({}, 97);
    const auto& slowest = metrics.row(Figure::SlowestSecond);
    QCOMPARE(slowest.measured, 1.52);
    QCOMPARE(slowest.target, 2.0);
    QCOMPARE(slowest.ratio(), 0.76);
    QVERIFY(slowest.met());
    QCOMPARE(metrics.secondsRecorded(), qint64(3));

    metrics.recordSecond(98, 3'830'000);
    metrics.publish({}, 98);
    QCOMPARE(metrics.row(Figure::SlowestSecond).measured, 3.83);
    QVERIFY(!metrics.row(Figure::SlowestSecond).met());
    // A later, quicker second does not replace it; nor do seconds beyond the
    // median's window.
    for (qint64 second = 99; second < 300; ++second)
        metrics.recordSecond(second, 50'000);
    metrics.publish({}, 299);
    QCOMPARE(metrics.row(Figure::SlowestSecond).measured, 3.83);
    QVERIFY(metrics.row(Figure::SlowestSecond).detail.contains(QStringLiteral("of 205 seconds")));
}

void TestAppMetrics::medianOfTheLastMinute()
{
    AppMetrics metrics(started());
    // Odd count: the middle one.
    metrics.recordSecond(10, 5 * msec);
    metrics.recordSecond(11, 1 * msec);
    metrics.recordSecond(12, 3 * msec);
    metrics.publish({}, 12);
    QCOMPARE(metrics.row(Figure::MedianSecond).measured, 3.0);
    QCOMPARE(metrics.row(Figure::MedianSecond).ratio(), 1.5);
    QVERIFY(!metrics.row(Figure::MedianSecond).met());
    // Even count: the mean of the two middle ones.
    metrics.recordSecond(13, 2 * msec);
    metrics.publish({}, 13);
    QCOMPARE(metrics.row(Figure::MedianSecond).measured, 2.5);

    // More than a minute of seconds: only the last 60 count (the ring
    // overwrites the oldest). Seconds 14 to 73 cost 1 to 60 µs, so the
    // median is the mean of 30 and 31 µs.
    for (qint64 i = 1; i <= 60; ++i)
        metrics.recordSecond(13 + i, i * 1000);
    metrics.publish({}, 73);
    QCOMPARE(metrics.row(Figure::MedianSecond).measured, 0.0305);
    QVERIFY(metrics.row(Figure::MedianSecond).met());
    QVERIFY(metrics.row(Figure::MedianSecond).detail.contains(QStringLiteral(": 60 seconds with")));
    // The slowest second is still the 5 ms one.
    QCOMPARE(metrics.row(Figure::SlowestSecond).measured, 5.0);
}

void TestAppMetrics::medianWindowDropsOldSeconds()
{
    AppMetrics metrics(started());
    metrics.recordSecond(1000, 9 * msec);
    metrics.recordSecond(1001, 9 * msec);
    metrics.recordSecond(1050, 1 * msec);
    metrics.publish({}, 1050);
    QCOMPARE(metrics.row(Figure::MedianSecond).measured, 9.0);
    // Later (the vault locked meanwhile): the minute up to 1060 starts at
    // 1001, the one up to 1061 after it.
    metrics.publish({}, 1060);
    QCOMPARE(metrics.row(Figure::MedianSecond).measured, 5.0);
    metrics.publish({}, 1061);
    QCOMPARE(metrics.row(Figure::MedianSecond).measured, 1.0);
    // Nothing in the last minute: nothing to show.
    metrics.publish({}, 2000);
    QVERIFY(!metrics.row(Figure::MedianSecond).available());
    QVERIFY(!metrics.row(Figure::MedianSecond).met());
    // The slowest is the session's, not the minute's.
    QCOMPARE(metrics.row(Figure::SlowestSecond).measured, 9.0);
}

void TestAppMetrics::memoryRows()
{
    AppMetrics metrics(started());
    metrics.publish(procfs::parseStatus(statusSample), 0);
    const auto& peak = metrics.row(Figure::PeakMemory);
    QCOMPARE(peak.measured, 72812 / 1024.0);
    QCOMPARE(peak.target, 150.0);
    QCOMPARE(peak.ratio(), 72812 / 1024.0 / 150.0);
    QVERIFY(peak.met());
    QCOMPARE(metrics.row(Figure::MemoryNow).measured, 70144 / 1024.0);

    // 150 MB is 153,600 kB: at the target is met, a kB over is not.
    metrics.publish({153'600, 100'000}, 0);
    QCOMPARE(metrics.row(Figure::PeakMemory).ratio(), 1.0);
    QVERIFY(metrics.row(Figure::PeakMemory).met());
    metrics.publish({153'601, 100'000}, 0);
    QVERIFY(!metrics.row(Figure::PeakMemory).met());

    metrics.publish({}, 0);
    QVERIFY(!metrics.row(Figure::PeakMemory).available());
    QVERIFY(!metrics.row(Figure::MemoryNow).available());
}

void TestAppMetrics::launchFigures()
{
    AppMetrics metrics(started());
    const double beforeMain = metrics.processStartToMainMilliseconds();
    QVERIFY(beforeMain >= 0);
    metrics.publish({}, 0);
    for (const Figure figure : {Figure::FirstFrame, Figure::UnlockJob, Figure::UnlockToCodesFrame,
                                Figure::LaunchToCodesFrame})
        QVERIFY(!metrics.row(figure).available());

    metrics.frameSynchronized();
    metrics.frameSwapped(150 * msec); // the unlock page
    metrics.frameSynchronized();
    metrics.frameSwapped(160 * msec);
    metrics.unlockStarted(2000 * msec); // typed after a while
    metrics.unlockFinished(3080 * msec);
    metrics.frameSynchronized();
    metrics.frameSwapped(3098 * msec); // the codes
    metrics.publish({}, 0);

    QCOMPARE(metrics.row(Figure::FirstFrame).measured, 150.0);
    QCOMPARE(metrics.row(Figure::FirstFrame).target, 0.0);
    QCOMPARE(metrics.row(Figure::UnlockJob).measured, 1080.0);
    QCOMPARE(metrics.row(Figure::UnlockToCodesFrame).measured, 18.0);
    const auto& launch = metrics.row(Figure::LaunchToCodesFrame);
    // The typing and the unlock job are left out.
    QCOMPARE(launch.measured, beforeMain + 150.0 + 18.0);
    QCOMPARE(launch.target, 400.0);
    QCOMPARE(launch.ratio(), (beforeMain + 168.0) / 400.0);
    QCOMPARE(launch.met(), beforeMain + 168.0 <= 400.0);
}

void TestAppMetrics::codesFrameNeedsASceneAfterTheUnlock()
{
    AppMetrics metrics(started());
    metrics.frameSynchronized();
    metrics.frameSwapped(100 * msec);
    // A frame synchronized before the unlock ended and swapped after it (the
    // threaded render loop) still shows the unlock page.
    metrics.frameSynchronized();
    metrics.unlockFinished(1000 * msec);
    metrics.frameSwapped(1005 * msec);
    metrics.publish({}, 0);
    QVERIFY(!metrics.row(Figure::UnlockToCodesFrame).available());
    QVERIFY(!metrics.row(Figure::LaunchToCodesFrame).available());
    // Nothing asked for the unlock here (the demo's vault is made so).
    QVERIFY(!metrics.row(Figure::UnlockJob).available());

    metrics.frameSynchronized();
    metrics.frameSwapped(1021 * msec);
    metrics.frameSynchronized();
    metrics.frameSwapped(1040 * msec);
    metrics.publish({}, 0);
    QCOMPARE(metrics.row(Figure::UnlockToCodesFrame).measured, 21.0);
    QCOMPARE(metrics.row(Figure::FirstFrame).measured, 100.0);
}

void TestAppMetrics::onlyTheFirstUnlockCounts()
{
    AppMetrics metrics(started());
    metrics.frameSwapped(100 * msec);
    metrics.unlockStarted(500 * msec);
    metrics.unlockFinished(1500 * msec);
    metrics.frameSynchronized();
    metrics.frameSwapped(1510 * msec);
    // Locked, then unlocked again: the launch was the first one.
    metrics.unlockStarted(9000 * msec);
    metrics.unlockFinished(9500 * msec);
    metrics.frameSynchronized();
    metrics.frameSwapped(9600 * msec);
    metrics.publish({}, 0);
    QCOMPARE(metrics.row(Figure::UnlockJob).measured, 1000.0);
    QCOMPARE(metrics.row(Figure::UnlockToCodesFrame).measured, 10.0);
}

void TestAppMetrics::ticksOfARealClock()
{
    Clock clock;
    clock.setMilliseconds(1'800'000'000'000);
    AppMetrics metrics(started());
    metrics.beginTicks(&clock);
    int received = 0;
    QObject receiver;
    connect(&clock, &Clock::secondChanged, &receiver, [&received] { ++received; });
    metrics.endTicks(&clock);

    clock.setMilliseconds(1'800'000'000'250); // the same second: no tick
    QCOMPARE(metrics.secondsRecorded(), qint64(0));
    clock.setMilliseconds(1'800'000'001'000);
    clock.setMilliseconds(1'800'000'002'000);
    clock.setMilliseconds(1'800'000'003'000);
    QCOMPARE(received, 3);
    QCOMPARE(metrics.secondsRecorded(), qint64(3));
    // refresh() counts the minute up to the clock's second.
    metrics.refresh();
    QVERIFY(metrics.row(Figure::SlowestSecond).available());
    QVERIFY(metrics.row(Figure::SlowestSecond).measured >= 0);
    QVERIFY(metrics.row(Figure::MedianSecond).available());
    QVERIFY(metrics.row(Figure::MedianSecond).detail.contains(QStringLiteral(": 3 seconds with")));
    QVERIFY(metrics.row(Figure::PeakMemory).available());
}

void TestAppMetrics::noSecondsWhileTheCodesAreHidden()
{
    Clock clock;
    clock.setMilliseconds(1'800'000'000'000);
    ClipboardService clipboard;
    AppMetrics metrics(started());
    metrics.beginTicks(&clock);
    // No vault file: the first-run page, no codes.
    VaultController vault(QStringLiteral("/nonexistent/watchword-test/vault.wwv"));
    AccountStore accounts(vault, clock, clipboard);
    QCOMPARE(vault.state(), VaultController::State::Missing);
    metrics.watch(nullptr, &vault, accounts.model());
    metrics.endTicks(&clock);
    clock.setMilliseconds(1'800'000'001'000);
    clock.setMilliseconds(1'800'000'002'000);
    QCOMPARE(metrics.secondsRecorded(), qint64(0));
    metrics.refresh();
    QVERIFY(!metrics.row(Figure::SlowestSecond).available());
    QCOMPARE(metrics.accounts(), 0);
}

void TestAppMetrics::modelRowsAndSignals()
{
    AppMetrics metrics(started());
    QCOMPARE(metrics.rowCount(), AppMetrics::figureCount);
    QCOMPARE(metrics.rowCount(metrics.index(0)), 0);
    QCOMPARE(metrics.targets(), 5);
    QCOMPARE(metrics.targetsMeasured(), 0);
    const auto roles = metrics.roleNames();
    for (const char* name :
         {"key", "figure", "detail", "measured", "unit", "target", "ratio", "available", "met"})
        QVERIFY2(roles.values().contains(QByteArray(name)), name);

    const QModelIndex launch = metrics.index(int(Figure::LaunchToCodesFrame));
    QCOMPARE(launch.data(AppMetrics::KeyRole).toString(), QStringLiteral("launchToCodesFrame"));
    QCOMPARE(launch.data(AppMetrics::UnitRole).toString(), QStringLiteral("ms"));
    QCOMPARE(launch.data(AppMetrics::TargetRole).toDouble(), 400.0);
    QVERIFY(!launch.data(AppMetrics::AvailableRole).toBool());
    QVERIFY(std::isnan(launch.data(AppMetrics::MeasuredRole).toDouble()));
    QVERIFY(!launch.data(AppMetrics::FigureRole).toString().isEmpty());
    QVERIFY(launch.data(AppMetrics::DetailRole).toString().contains(QStringLiteral("KDF")));
    const QModelIndex peak = metrics.index(int(Figure::PeakMemory));
    QCOMPARE(peak.data(AppMetrics::KeyRole).toString(), QStringLiteral("peakMemory"));
    QCOMPARE(peak.data(AppMetrics::UnitRole).toString(), QStringLiteral("MB"));
    QCOMPARE(metrics.index(int(Figure::UnlockJob)).data(AppMetrics::TargetRole).toDouble(), 0.0);

    QSignalSpy changed(&metrics, &QAbstractItemModel::dataChanged);
    QSignalSpy refreshed(&metrics, &AppMetrics::refreshed);
    metrics.recordSecond(7, 3 * msec);
    metrics.publish({102'400, 51'200}, 7);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(refreshed.count(), 1);
    QCOMPARE(peak.data(AppMetrics::MeasuredRole).toDouble(), 100.0);
    QCOMPARE(peak.data(AppMetrics::RatioRole).toDouble(), 100.0 / 150.0);
    QVERIFY(peak.data(AppMetrics::MetRole).toBool());
    // Slowest, median (3 ms: not met), peak, now.
    QCOMPARE(metrics.targetsMeasured(), 4);
    QCOMPARE(metrics.targetsMet(), 2);
    // The same figures again: nothing to signal.
    metrics.publish({102'400, 51'200}, 7);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(refreshed.count(), 1);
}

void TestAppMetrics::activeRefreshes()
{
    AppMetrics metrics(started());
    QSignalSpy active(&metrics, &AppMetrics::activeChanged);
    QSignalSpy refreshed(&metrics, &AppMetrics::refreshed);
    QVERIFY(!metrics.row(Figure::PeakMemory).available());
    metrics.setActive(true);
    QCOMPARE(active.count(), 1);
    // At once, with this process's memory.
    QCOMPARE(refreshed.count(), 1);
    QVERIFY(metrics.row(Figure::PeakMemory).available());
    QVERIFY(metrics.row(Figure::PeakMemory).measured > 0);
    metrics.setActive(true);
    QCOMPARE(active.count(), 1);
    metrics.setActive(false);
    QCOMPARE(active.count(), 2);
    QVERIFY(!metrics.active());
}

void TestAppMetrics::watchesAWindowAndADemoVault()
{
    Clock clock;
    clock.start();
    ClipboardService clipboard;
    AppMetrics metrics(started());
    metrics.beginTicks(&clock);
    auto vault = VaultController::makeDemo();
    AccountStore accounts(*vault, clock, clipboard);
    QQuickWindow window;
    window.resize(200, 100);
    metrics.watch(&window, vault.get(), accounts.model());
    metrics.endTicks(&clock);
    window.show();
    QSignalSpy finished(vault.get(), &VaultController::unlockFinished);
    QVERIFY(finished.wait(10'000));
    QCOMPARE(finished.first().first().toBool(), true);
    // A frame drawn after the demo vault was shown.
    QTRY_VERIFY_WITH_TIMEOUT(
        (window.update(), metrics.refresh(), metrics.row(Figure::UnlockToCodesFrame).available()),
        10'000);
    QVERIFY(metrics.row(Figure::FirstFrame).available());
    QVERIFY(metrics.row(Figure::UnlockToCodesFrame).measured >= 0);
    QVERIFY(metrics.row(Figure::LaunchToCodesFrame).available());
    QCOMPARE(metrics.accounts(), accounts.model()->rowCount());
    QVERIFY(metrics.accounts() > 0);
    // The demo vault was already being made when it was watched.
    QVERIFY(!metrics.row(Figure::UnlockJob).available());
    // Seconds count once the codes show.
    QTRY_VERIFY_WITH_TIMEOUT(metrics.secondsRecorded() > 0, 5'000);
}

QTEST_MAIN(TestAppMetrics)
#include "TestAppMetrics.moc"
