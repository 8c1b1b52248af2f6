// Calibration: the chosen count follows the measured rate and the target,
// and never leaves [minimum, maximum].
#include "crypto/CryptoState.h"
#include "vault/Calibration.h"

#include <QtTest>

using namespace watchword;
using namespace watchword::vault;

class TestCalibration : public QObject
{
    Q_OBJECT

private slots:
    void iterationsFollowRateAndTarget_data()
    {
        QTest::addColumn<quint64>("rate");
        QTest::addColumn<uint>("targetMs");
        QTest::addColumn<uint>("expected");
        QTest::newRow("fast machine, 1 s") << quint64(9'000'000) << 1000u << 9'000'000u;
        QTest::newRow("fast machine, 250 ms") << quint64(9'000'000) << 250u << 2'250'000u;
        QTest::newRow("slow machine: the floor")
            << quint64(100'000) << 1000u << minimumPasswordIterations;
        QTest::newRow("no measurement: the floor")
            << quint64(0) << 1000u << minimumPasswordIterations;
        QTest::newRow("huge target: the ceiling")
            << quint64(9'000'000) << 60'000u << maximumPasswordIterations;
        QTest::newRow("absurd rate: no overflow")
            << quint64(1) << 60'000u << minimumPasswordIterations;
        QTest::newRow("rate near 2^64 / 60000")
            << quint64(300'000'000'000'000ULL) << 60'000u << maximumPasswordIterations;
    }

    void iterationsFollowRateAndTarget()
    {
        QFETCH(quint64, rate);
        QFETCH(uint, targetMs);
        QFETCH(uint, expected);
        QCOMPARE(iterationsFor(rate, targetMs), expected);
    }

    void calibrationMeasuresThisMachine()
    {
        const auto calibration = calibratePasswordKdf(1000, std::chrono::milliseconds(30));
        QVERIFY(calibration.ok());
        QVERIFY(calibration->iterationsPerSecond > 0);
        QCOMPARE(calibration->targetMilliseconds, 1000u);
        QCOMPARE(calibration->iterations, iterationsFor(calibration->iterationsPerSecond, 1000));
        QVERIFY(calibration->iterations >= minimumPasswordIterations);
        QVERIFY(calibration->iterations <= maximumPasswordIterations);
    }

    void refusesBadTargetsAndDisabledCrypto()
    {
        QCOMPARE(calibratePasswordKdf(0).error().code, CalibrationError::TargetOutOfRange);
        QCOMPARE(calibratePasswordKdf(60'001).error().code, CalibrationError::TargetOutOfRange);
        crypto::disable("self-test failed: injected for this test");
        const auto refused = calibratePasswordKdf(1000, std::chrono::milliseconds(5));
        crypto::testing::reenable();
        QCOMPARE(refused.error().code, CalibrationError::CryptoDisabled);
    }
};

QTEST_APPLESS_MAIN(TestCalibration)
#include "TestCalibration.moc"
