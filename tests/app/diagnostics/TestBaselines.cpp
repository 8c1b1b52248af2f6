// Baselines of fake benchmarks: saved, listed and compared (three times the
// work is a regression), and names that could leave the folder refused.
#include "FakeBenchmarks.h"

#include <QDir>
#include <QtTest>

using namespace watchword::test;
using watchword::app::Baselines;

class TestBaselines : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(keepDataIn(m_dataHome)); }

    void baselineComparisonFindsARegression()
    {
        QTemporaryDir baselines;
        auto rounds = std::make_shared<std::atomic<std::uint64_t>>(2000);
        auto controller =
            makeController({spinning("fake/scaled", [rounds] { return rounds->load(); }),
                            spinning("fake/steady", 100)},
                           baselines.path());
        controller->run()->setCustomProfile(workProfile());
        QVERIFY(controller->baselines()->names().isEmpty());
        QVERIFY(!controller->baselines()->save(QStringLiteral("early"))); // nothing measured yet
        QVERIFY(!controller->baselines()->compareWith(QStringLiteral("early")));

        QVERIFY(runToEnd(*controller));
        QSignalSpy saved(controller->baselines(), &Baselines::saved);
        QSignalSpy listed(controller->baselines(), &Baselines::namesChanged);
        QVERIFY2(controller->baselines()->save(QStringLiteral("before")),
                 qPrintable(controller->error()));
        QCOMPARE(saved.count(), 1);
        QCOMPARE(listed.count(), 1);
        QCOMPARE(controller->baselines()->names(), QStringList{QStringLiteral("before")});
        QVERIFY(QFile::exists(QDir(baselines.path()).filePath(QStringLiteral("before.baseline"))));

        rounds->store(6000); // three times the work
        QVERIFY(runToEnd(*controller));
        QSignalSpy compared(controller->baselines(), &Baselines::comparisonFinished);
        QVERIFY2(controller->baselines()->compareWith(QStringLiteral("before")),
                 qPrintable(controller->error()));
        QVERIFY(controller->baselines()->comparing());
        QVERIFY(!controller->run()->start()); // busy comparing
        QVERIFY(compared.wait(30000));
        QVERIFY(!controller->baselines()->comparing());
        QCOMPARE(controller->baselines()->comparedWith(), QStringLiteral("before"));

        const auto& model = *controller->results();
        QVERIFY(model.hasChanges());
        QCOMPARE(role(model, 0, "verdict").toString(), QStringLiteral("regressed"));
        QVERIFY(role(model, 0, "change").toDouble() > 0.5);
        QVERIFY(role(model, 0, "changeLow").toDouble() <= role(model, 0, "change").toDouble());
        QVERIFY(role(model, 0, "change").toDouble() <= role(model, 0, "changeHigh").toDouble());
        QVERIFY(role(model, 0, "changeText").toString().startsWith(QLatin1Char('+')));
        QVERIFY(role(model, 1, "hasChange").toBool());
        QCOMPARE(controller->report().baselineName, std::string("before"));

        controller->baselines()->clearComparison();
        QCOMPARE(controller->baselines()->comparedWith(), QString());
        QCOMPARE(role(model, 0, "verdict").toString(), QString());
        QVERIFY(!model.hasChanges());

        QVERIFY(!controller->baselines()->compareWith(QStringLiteral("missing")));
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
        QVERIFY(!controller->baselines()->isValidName(name));
        QVERIFY(!controller->baselines()->save(name));
        QCOMPARE(errors.count(), 1);
        QVERIFY(controller->error().contains(QStringLiteral("letters")));
        QVERIFY(QDir(baselines.path())
                    .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot)
                    .isEmpty());
        QVERIFY(controller->baselines()->isValidName(QStringLiteral("good-name_1.0")));
    }

private:
    QTemporaryDir m_dataHome;
};

QTEST_MAIN(TestBaselines)
#include "TestBaselines.moc"
