// The watch app on the simulated watch, over an export of the demo vault's
// accounts: a wrong PIN refused, a stale answer dropped, the buttons
// unlocking and moving around (each account's code as the vault shows it),
// the last error cleared by an input, the vault's lock closing the app, and
// the code counting down with the clock.
#include "app/watch/WatchFixture.h"

using watchword::app::SimulatedWatch;
using namespace watchword::test;

class TestSimulatedWatch : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { m_fixture.initTestCase(); }
    void init() { m_fixture.init(); }
    void cleanupTestCase() { m_fixture.cleanupTestCase(); }

    void aWrongPinIsRefused();
    void aStaleAnswerIsDropped();
    void anInputClearsTheLastError();
    void theButtonsUnlockAndMoveAround();
    void lockingTheVaultLocksTheWatch();
    void theCodeCountsDownWithTheClock();

private:
    WatchFixture m_fixture;
};

void TestSimulatedWatch::aWrongPinIsRefused()
{
    const auto simulator = m_fixture.makeSimulator();
    SimulatedWatch& watch = *simulator->watch();
    exportAccounts(*simulator, m_fixture.accountIds().mid(0, 2));
    QSignalSpy finished(&watch, &SimulatedWatch::unlockFinished);
    for (const int digit : {4, 8, 2, 2})
        watch.typeDigit(digit);
    QCOMPARE(watch.frame().pinLength, 4);
    watch.enter();
    QCOMPARE(watch.view(), QStringLiteral("unlocking"));
    QVERIFY(watch.busy());
    QVERIFY(finished.wait(30'000));
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QVERIFY(!watch.busy());
    QCOMPARE(watch.view(), QStringLiteral("pin"));
    QCOMPARE(watch.openedAccounts(), 0);
    QCOMPARE(watch.frame().pinLength, 0);
    QVERIFY(!watch.frame().message.isEmpty());
    QCOMPARE(watch.frame().code, QString());
}

void TestSimulatedWatch::aStaleAnswerIsDropped()
{
    // A wrong PIN is being checked when the watch app is closed; the right
    // PIN entered next must get its own answer, not the stale one.
    const auto simulator = m_fixture.makeSimulator();
    SimulatedWatch& watch = *simulator->watch();
    exportAccounts(*simulator, m_fixture.accountIds().mid(0, 2));
    QSignalSpy finished(&watch, &SimulatedWatch::unlockFinished);
    for (const int digit : {4, 8, 2, 2})
        watch.typeDigit(digit);
    watch.enter();
    QVERIFY(watch.busy());
    watch.lock(); // before the check's answer can arrive
    QVERIFY(!watch.busy());
    QCOMPARE(watch.view(), QStringLiteral("pin"));
    for (const QChar digit : watchPin)
        watch.typeDigit(digit.digitValue());
    watch.enter();
    QVERIFY(finished.wait(30'000));
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), true);
    QCOMPARE(watch.view(), QStringLiteral("code"));
    QCOMPARE(watch.openedAccounts(), 2);
    // The stale check ends too, and changes nothing.
    QTest::qWait(200);
    QCOMPARE(finished.size(), 1);
    QCOMPARE(watch.view(), QStringLiteral("code"));
}

void TestSimulatedWatch::anInputClearsTheLastError()
{
    // One error for the page, whichever part set it.
    const auto simulator = m_fixture.makeSimulator();
    QVERIFY(!simulator->profiles()->setMeasured(QStringLiteral("no-such-operation"), 1));
    QVERIFY(!simulator->error().isEmpty());
    QVERIFY(simulator->profiles()->setMeasured(QStringLiteral("totp-sha1"), 1));
    QCOMPARE(simulator->error(), QString());
    simulator->watch()->press(QStringLiteral("sideways"));
    QVERIFY(simulator->error().contains(QStringLiteral("sideways")));
    simulator->watch()->press(QStringLiteral("up"));
    QCOMPARE(simulator->error(), QString());
}

void TestSimulatedWatch::theButtonsUnlockAndMoveAround()
{
    const auto simulator = m_fixture.makeSimulator();
    SimulatedWatch& watch = *simulator->watch();
    // Every account, whatever its kind.
    const QStringList ids = m_fixture.accountIds();
    exportAccounts(*simulator, ids);
    enterPinWithButtons(watch, watchPin);
    QCOMPARE(watch.view(), QStringLiteral("code"));
    QCOMPARE(watch.openedAccounts(), ids.size());

    // Each account's code as the vault's own list shows it at this time.
    QStringList titles;
    for (qsizetype i = 0; i < ids.size(); ++i) {
        QCOMPARE(watch.frame().selectedRow, int(i));
        const QString code = watch.frame().code;
        QVERIFY(!code.isEmpty());
        QCOMPARE(code, m_fixture.vaultCode(ids.at(i)));
        titles << watch.selectedTitle();
        watch.press(QStringLiteral("down"));
    }
    QCOMPARE(titles.size(), ids.size());
    QVERIFY(titles.at(0) != titles.at(1));

    watch.press(QStringLiteral("up"));
    const QString title = watch.selectedTitle();
    watch.press(QStringLiteral("up"));
    QVERIFY(watch.selectedTitle() != title);
    watch.press(QStringLiteral("down"));
    QCOMPARE(watch.selectedTitle(), title);

    watch.press(QStringLiteral("select"));
    QCOMPARE(watch.view(), QStringLiteral("list"));
    QCOMPARE(watch.frame().rows.size(), ids.size());
    watch.press(QStringLiteral("back"));
    QCOMPARE(watch.view(), QStringLiteral("code"));
    watch.press(QStringLiteral("back"));
    QCOMPARE(watch.view(), QStringLiteral("glance"));
    watch.press(QStringLiteral("select"));
    QCOMPARE(watch.view(), QStringLiteral("code"));
    QCOMPARE(watch.selectedTitle(), title);

    watch.press(QStringLiteral("wiggle"));
    QVERIFY(simulator->error().contains(QStringLiteral("wiggle")));
    QCOMPARE(watch.view(), QStringLiteral("code"));

    watch.lock();
    QCOMPARE(watch.view(), QStringLiteral("pin"));
    QCOMPARE(watch.openedAccounts(), 0);
    QCOMPARE(watch.frame().code, QString());
    QVERIFY(simulator->exportFile()->loaded());
}

void TestSimulatedWatch::lockingTheVaultLocksTheWatch()
{
    const auto simulator = m_fixture.makeSimulator();
    SimulatedWatch& watch = *simulator->watch();
    exportAccounts(*simulator, m_fixture.accountIds().mid(0, 2));
    enterPinWithButtons(watch, watchPin);
    QCOMPARE(watch.openedAccounts(), 2);
    QSignalSpy frames(&watch, &SimulatedWatch::frameChanged);
    m_fixture.vault->lock();
    QVERIFY(frames.size() >= 1);
    QCOMPARE(watch.view(), QStringLiteral("pin"));
    QCOMPARE(watch.openedAccounts(), 0);
    QCOMPARE(watch.frame().code, QString());
}

void TestSimulatedWatch::theCodeCountsDownWithTheClock()
{
    const auto simulator = m_fixture.makeSimulator();
    SimulatedWatch& watch = *simulator->watch();
    const QStringList ids = m_fixture.accountIds().mid(0, 1);
    exportAccounts(*simulator, ids);
    enterPinWithButtons(watch, watchPin);
    QVERIFY(watch.frame().timeBased);
    const int period = watch.frame().period;
    QVERIFY(period > 0);

    QSignalSpy frames(&watch, &SimulatedWatch::frameChanged);
    qint64 milliseconds = startMilliseconds;
    // Across a period boundary.
    for (int step = 0; step < period + 2; ++step) {
        const double before = watch.frame().remainingSeconds;
        QVERIFY(before >= 1 && before <= period);
        const int framesBefore = int(frames.size());
        milliseconds += 1000;
        m_fixture.clock.setMilliseconds(milliseconds);
        QCOMPARE(int(frames.size()), framesBefore + 1);
        const double after = watch.frame().remainingSeconds;
        QCOMPARE(after, before == 1 ? double(period) : before - 1);
        QCOMPARE(watch.frame().code, m_fixture.vaultCode(ids.first()));
    }
    // A locked watch does not redraw for the clock.
    watch.lock();
    frames.clear();
    m_fixture.clock.setMilliseconds(milliseconds + 1000);
    QCOMPARE(frames.size(), 0);
}

int main(int argc, char** argv)
{
    return runWatchTest<TestSimulatedWatch>(argc, argv, "TestSimulatedWatch");
}

#include "TestSimulatedWatch.moc"
