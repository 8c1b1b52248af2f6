// The Diagnostics view's controller: the catalogue and the quick profile by
// default, the benchmarks chosen, and busy while a run goes on.
#include "FakeBenchmarks.h"
#include "perf/Comparisons.h"

#include <QtTest>

using namespace watchword::test;

class TestDiagnosticsController : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(keepDataIn(m_dataHome)); }

    void defaultsToTheCatalogueAndQuickProfile()
    {
        DiagnosticsController controller;
        QCOMPARE(controller.benchmarks()->rowCount(), int(perf::catalogue().size()));
        QCOMPARE(controller.benchmarks()->checkedCount(), controller.benchmarks()->rowCount());
        QCOMPARE(controller.run()->profile(), QStringLiteral("quick"));
        QVERIFY(controller.baselines()->directory().startsWith(m_dataHome.path()));
        QCOMPARE(controller.comparisons()->rowCount(), int(perf::comparisons().size()));
        QVERIFY(!controller.systemInfo().value(QStringLiteral("line")).toString().isEmpty());

        QSignalSpy profileChanged(controller.run(), &BenchmarkRun::profileChanged);
        controller.run()->setProfile(QStringLiteral("full"));
        QCOMPARE(controller.run()->profile(), QStringLiteral("full"));
        QCOMPARE(profileChanged.count(), 1);
        controller.run()->setProfile(QStringLiteral("thorough"));
        QCOMPARE(controller.run()->profile(), QStringLiteral("full"));
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
        QVERIFY(!controller->run()->start());
        QVERIFY(!controller->error().isEmpty());
        QVERIFY(!controller->run()->running());

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

    void busyWhileRunning()
    {
        auto controller = makeController({spinning("fake/fast", 100)});
        QSignalSpy busy(controller.get(), &DiagnosticsController::busyChanged);
        QVERIFY(!controller->busy());
        QSignalSpy finished(controller->run(), &BenchmarkRun::finished);
        QVERIFY(controller->run()->start());
        QVERIFY(controller->busy());
        QCOMPARE(busy.count(), 1);
        QVERIFY(finished.wait(60000));
        QVERIFY(!controller->busy());
        QCOMPARE(busy.count(), 2);
    }

private:
    QTemporaryDir m_dataHome;
};

QTEST_MAIN(TestDiagnosticsController)
#include "TestDiagnosticsController.moc"
