// watchword-cli watch devices and watch estimate as a user runs them: the
// profiles listed, the cost table with the notes' figures and its bases, the
// floor's warning, memory in percent, the notes' inconsistency, and bad input
// refused with exit 2 before anything is printed.
#include "CliTestSupport.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using watchword::test::Outcome;
using watchword::test::parseJsonObject;
using watchword::test::runCli;
using watchword::test::verifyUsageError;

namespace {

const QString shipped = QStringLiteral(WATCHWORD_SHIPPED_DEVICES_DIR);
const QString testData = QStringLiteral(WATCHWORD_TEST_DATA_DIR);

QStringList estimate(const QStringList& more)
{
    return QStringList{"watch", "estimate", "--devices-dir", shipped} + more;
}

QJsonObject operation(const QJsonObject& result, const QString& key)
{
    for (const auto& value : result[QStringLiteral("operations")].toArray())
        if (value.toObject()[QStringLiteral("operation")].toString() == key)
            return value.toObject();
    return {};
}

} // namespace

class TestCliWatch : public QObject
{
    Q_OBJECT

private slots:
    void devicesTable()
    {
        const Outcome outcome = runCli({"watch", "devices", "--devices-dir", shipped});
        QCOMPARE(outcome.exitCode, 0);
        QVERIFY(outcome.err.isEmpty());
        const QList<QByteArray> lines = outcome.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 13); // a header and twelve devices
        QVERIFY(lines[0].startsWith("id "));
        QVERIFY(lines[0].contains("verified"));
        const auto row = [&](const QByteArray& id) {
            for (const auto& line : lines)
                if (line.startsWith(id + ' '))
                    return line.simplified();
            return QByteArray();
        };
        QCOMPARE(row("fr255s"),
                 QByteArray("fr255s Forerunner 255S round 218x218 MIP, 64 colours 512 KB yes"));
        QCOMPARE(row("instinct2"),
                 QByteArray("instinct2 Instinct 2 semi-octagon 176x176 MIP, 2 colours 96 KB yes"));
        QCOMPARE(row("fr70"), QByteArray("fr70 Forerunner 70 unknown unknown unknown unknown no"));
    }

    void devicesJson()
    {
        const Outcome outcome = runCli({"watch", "devices", "--json", "--devices-dir", shipped});
        QCOMPARE(outcome.exitCode, 0);
        const QJsonObject root = parseJsonObject(outcome.out);
        const QJsonArray devices = root[QStringLiteral("devices")].toArray();
        QCOMPARE(devices.size(), 12);
        bool sawFr70 = false;
        for (const auto& value : devices) {
            const QJsonObject device = value.toObject();
            if (device[QStringLiteral("id")].toString() == QStringLiteral("fr70")) {
                sawFr70 = true;
                QCOMPARE(device[QStringLiteral("verified")].toBool(true), false);
                QVERIFY(device[QStringLiteral("width")].isNull());
                QVERIFY(device[QStringLiteral("appBytes")].isNull());
                QCOMPARE(device[QStringLiteral("unknown")].toArray().size(), 13);
            }
            if (device[QStringLiteral("id")].toString() == QStringLiteral("venu3")) {
                QCOMPARE(device[QStringLiteral("width")].toInt(), 454);
                QCOMPARE(device[QStringLiteral("buttons")].toInt(), 2);
                QCOMPARE(device[QStringLiteral("touch")].toBool(), true);
                QCOMPARE(device[QStringLiteral("technology")].toString(), QStringLiteral("amoled"));
                QCOMPARE(device[QStringLiteral("appBytes")].toInt(), 786432);
            }
        }
        QVERIFY(sawFr70);
    }

    void estimateTableHasTheNotesFigures()
    {
        const Outcome outcome = runCli(estimate({"--device", "fr255s"}));
        QCOMPARE(outcome.exitCode, 0);
        QVERIFY(outcome.err.isEmpty());
        const QByteArray& out = outcome.out;
        const auto line = [&](const QByteArray& start) {
            for (const auto& text : out.split('\n'))
                if (text.startsWith(start))
                    return text.simplified();
            return QByteArray();
        };
        QCOMPARE(line("TOTP, SHA-1"),
                 QByteArray("TOTP, SHA-1 0.35 ms 1.75 - 7 ms estimate native: HMAC in Monkey C "
                            "over the native SHA-1"));
        QCOMPARE(line("TOTP, SHA-512"),
                 QByteArray("TOTP, SHA-512 17.5 ms 350 - 1,750 ms estimate vm: no native "
                            "SHA-512: written in Monkey C"));
        QVERIFY(line("PBKDF2, 1000 iterations")
                    .startsWith("PBKDF2, 1000 iterations 52 ms 1,040 "
                                "- 5,200 ms estimate vm"));
        QVERIFY(line("Seal + open a record").startsWith("Seal + open a record 0.25 ms"));
        QVERIFY(line("Start-up self-test").startsWith("Start-up self-test 6.7 ms 134 - 670 ms"));
        QCOMPARE(line("unlock at"), QByteArray("unlock at 2,000 PBKDF2 rounds: simulator 104 ms; "
                                               "on the watch 2,080 - 10,400 ms (estimate)"));
        QCOMPARE(line("calibrated for"),
                 QByteArray("calibrated for 1,000 ms: simulator 19,230 rounds; on the watch "
                            "2,000 rounds (estimate); floor 2,000 rounds, applied"));
        QCOMPARE(line("memory:"), QByteArray("memory: working set 17,920 bytes, no export: 3.4 % "
                                             "of 524,288 bytes (the app alone 3.4 %)"));
        QVERIFY(line("warning:")
                    .contains("the floor of 2,000 rounds takes 2,080 to 10,400 ms, "
                              "over the 1,000 ms target"));
        QVERIFY(out.contains("about 19,231 iterations per second, but they give about 12,000 "
                             "iterations for a 1 s calibration"));
    }

    void estimateJson()
    {
        const Outcome outcome = runCli(estimate(
            {"--device", "fenix7", "--iterations", "12000", "--accounts", "10", "--json"}));
        QCOMPARE(outcome.exitCode, 0);
        const QJsonObject result = parseJsonObject(outcome.out);
        QCOMPARE(result[QStringLiteral("device")].toString(), QStringLiteral("fenix7"));
        const QJsonObject sha256 = operation(result, QStringLiteral("totp-sha256"));
        QCOMPARE(sha256[QStringLiteral("simulatorMs")].toDouble(), 0.05);
        QCOMPARE(sha256[QStringLiteral("workClass")].toString(), QStringLiteral("native"));
        const QJsonObject device = sha256[QStringLiteral("device")].toObject();
        QCOMPARE(device[QStringLiteral("basis")].toString(), QStringLiteral("estimate"));
        QVERIFY(qFuzzyCompare(device[QStringLiteral("lowMs")].toDouble(), 0.25));
        QVERIFY(qFuzzyCompare(device[QStringLiteral("highMs")].toDouble(), 1.0));
        // 12,000 rounds at 52 ms per 1,000: 624 ms.
        const QJsonObject unlock = result[QStringLiteral("unlock")].toObject();
        QCOMPARE(unlock[QStringLiteral("iterations")].toInt(), 12000);
        QVERIFY(qFuzzyCompare(unlock[QStringLiteral("simulatorMs")].toDouble(), 624.0));
        // 17,920 + 512 + 10 x 256 bytes of 786,432.
        const QJsonObject memory = result[QStringLiteral("memory")].toObject();
        QCOMPARE(memory[QStringLiteral("payloadBytes")].toInt(), 3072);
        QVERIFY(qFuzzyCompare(memory[QStringLiteral("totalPercent")].toDouble(),
                              20992.0 / 786432.0 * 100));
        QVERIFY(qFuzzyCompare(memory[QStringLiteral("appPercent")].toDouble(),
                              17920.0 / 786432.0 * 100));
        QCOMPARE(result[QStringLiteral("simulatorCalibrationRounds")].toDouble(), 12000.0);
        QVERIFY(
            qFuzzyCompare(result[QStringLiteral("simulatorRoundsPerSecond")].toDouble(), 1e6 / 52));
        QVERIFY(result[QStringLiteral("notes")].toArray().size() >= 2);
    }

    void targetChangesTheCalibration()
    {
        // 20 s: 19,230 rounds at the fast end, 3,846 at the slow end, no floor.
        const Outcome outcome =
            runCli(estimate({"--device", "fr255", "--target-ms", "20000", "--json"}));
        QCOMPARE(outcome.exitCode, 0);
        const QJsonObject calibration =
            parseJsonObject(outcome.out)[QStringLiteral("calibration")].toObject();
        QCOMPARE(calibration[QStringLiteral("deviceLow")].toInt(), 3846);
        QCOMPARE(calibration[QStringLiteral("deviceHigh")].toInt(), 19230);
        QCOMPARE(calibration[QStringLiteral("floorApplied")].toBool(true), false);
        QCOMPARE(calibration[QStringLiteral("simulator")].toInt(), 384615);
    }

    void measuredProfileReplacesTheEstimate()
    {
        const Outcome outcome =
            runCli({"watch", "estimate", "--devices-dir", testData + "/devices/good", "--device",
                    "measured255", "--json"});
        QCOMPARE(outcome.exitCode, 0);
        const QJsonObject result = parseJsonObject(outcome.out);
        const QJsonObject sha1 =
            operation(result, QStringLiteral("totp-sha1"))[QStringLiteral("device")].toObject();
        QCOMPARE(sha1[QStringLiteral("basis")].toString(), QStringLiteral("measured"));
        QCOMPARE(sha1[QStringLiteral("lowMs")].toDouble(), 4.0);
    }

    void unverifiedDeviceSaysWhatIsUnknown()
    {
        const Outcome outcome = runCli(estimate({"--device", "fr70"}));
        QCOMPARE(outcome.exitCode, 0);
        QVERIFY(outcome.out.contains("NOT verified"));
        QVERIFY(outcome.out.contains("the native crypto of fr70 is unknown"));
        QVERIFY(outcome.out.contains("the app memory limit of fr70 is unknown"));
    }

    void installedProfilesAreFoundWithoutTheOption()
    {
        // The build tree's binary finds the source tree's profiles.
        const Outcome outcome = runCli({"watch", "estimate", "--device", "fr965"});
        QCOMPARE(outcome.exitCode, 0);
        QVERIFY(outcome.out.startsWith("Forerunner 965 (fr965), verified"));
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no subcommand")
            << QStringList{"watch"} << "watch needs a subcommand: devices, estimate";
        QTest::newRow("unknown subcommand")
            << QStringList{"watch", "flash"} << "unknown watch subcommand 'flash'";
        QTest::newRow("no device")
            << QStringList{"watch", "estimate"} << "watch estimate needs --device ID";
        QTest::newRow("unknown device")
            << estimate({"--device", "fr999"}) << "no device 'fr999' in " + shipped;
        QTest::newRow("both counts")
            << estimate({"--device", "fr255", "--iterations", "5000", "--target-ms", "500"})
            << "--iterations and --target-ms exclude each other";
        QTest::newRow("zero iterations")
            << estimate({"--device", "fr255", "--iterations", "0"})
            << "--iterations takes a whole number from 1 to 500,000, got '0'";
        QTest::newRow("too many iterations")
            << estimate({"--device", "fr255", "--iterations", "500001"})
            << "--iterations takes a whole number from 1 to 500,000, got '500001'";
        QTest::newRow("target too long")
            << estimate({"--device", "fr255", "--target-ms", "60001"})
            << "--target-ms takes a whole number of milliseconds from 1 to 60,000, got '60001'";
        QTest::newRow("target not a number")
            << estimate({"--device", "fr255", "--target-ms", "1s"})
            << "--target-ms takes a whole number of milliseconds from 1 to 60,000, got '1s'";
        QTest::newRow("negative accounts")
            << estimate({"--device", "fr255", "--accounts", "-1"})
            << "--accounts takes a whole number from 0 to 10,000, got '-1'";
        QTest::newRow("too many accounts")
            << estimate({"--device", "fr255", "--accounts", "10001"})
            << "--accounts takes a whole number from 0 to 10,000, got '10001'";
        QTest::newRow("positional") << estimate({"fr255"}) << "watch estimate takes no arguments";
        QTest::newRow("unknown option") << QStringList{"watch", "devices", "--all"} << "--all";
        QTest::newRow("duplicate ids")
            << QStringList{"watch", "devices", "--devices-dir", testData + "/devices/duplicate"}
            << "fr255.json: id: 'fr255' is already the id of fr255-copy.json";
        QTest::newRow("no profiles") << QStringList{"watch", "devices", "--devices-dir",
                                                    testData + "/devices/empty-has-no-json"}
                                     << "no device profiles (*.json) in";
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Outcome outcome = runCli(args);
        verifyUsageError(outcome);
        QVERIFY2(outcome.err.contains(message.toUtf8()), outcome.err.constData());
    }

    void badProfileNamesItsFileAndField()
    {
        QTemporaryDir directory;
        QVERIFY(directory.isValid());
        QByteArray text = watchword::test::readBytes(shipped + "/fr255.json");
        QVERIFY(text.contains("\"width\": 260"));
        text.replace("\"width\": 260", "\"width\": -3");
        QVERIFY(watchword::test::writeBytes(directory.filePath("fr255.json"), text));
        const Outcome outcome = runCli({"watch", "devices", "--devices-dir", directory.path()});
        verifyUsageError(outcome);
        QCOMPARE(outcome.err, QByteArray("watchword-cli: fr255.json: display.width: must be a "
                                         "positive integer or null, got -3\n"));
    }

    void exportWritesAPayloadOnce()
    {
        // A vault made and filled by the CLI, exported for an fr255 with
        // the secrets on stdin: vault password, PIN, PIN again.
        QTemporaryDir directory;
        const QString vault = directory.filePath(QStringLiteral("vault.wwv"));
        const QByteArray password = "correct horse battery staple";
        QCOMPARE(runCli({"vault", "init", vault, "--target-ms", "1", "--password-stdin"},
                        password + '\n')
                     .exitCode,
                 0);
        QCOMPARE(
            runCli({"vault", "add", vault, "--password-stdin"},
                   password +
                       "\notpauth://totp/Example:alice?secret=JBSWY3DPEHPK3PXP&issuer=Example\n")
                .exitCode,
            0);
        const QString payload = directory.filePath(QStringLiteral("watch.json"));
        const QStringList exportArgs = {"watch",         "export", "--device",        "fr255",
                                        "--vault",       vault,    "--out",           payload,
                                        "--devices-dir", shipped,  "--password-stdin"};
        const Outcome exported = runCli(exportArgs, password + "\n482913\n482913\n");
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        const QJsonObject document =
            QJsonDocument::fromJson(watchword::test::readBytes(payload)).object();
        QCOMPARE(document[QStringLiteral("format")].toString(),
                 QStringLiteral("watchword-watch-export"));
        QCOMPARE(document[QStringLiteral("device")].toString(), QStringLiteral("fr255"));
        QCOMPARE(document[QStringLiteral("accounts")].toArray().size(), 1);
        // The default count: the cost model's calibrated count, never under
        // the floor.
        QVERIFY(document[QStringLiteral("slot")].toObject()[QStringLiteral("iterations")].toInt() >=
                2000);
        // Nothing secret in the clear.
        QVERIFY(!watchword::test::readBytes(payload).contains("JBSWY3DPEHPK3PXP"));
        QVERIFY(!watchword::test::readBytes(payload).contains("alice"));

        // Not over an existing payload without --force; the file stays.
        const QByteArray before = watchword::test::readBytes(payload);
        const Outcome again = runCli(exportArgs, password + "\n482913\n482913\n");
        QVERIFY(again.exitCode != 0);
        QCOMPARE(watchword::test::readBytes(payload), before);

        // PINs that differ, and a PIN too short: refused, nothing written.
        const QString other = directory.filePath(QStringLiteral("other.json"));
        QStringList otherArgs = exportArgs;
        otherArgs[otherArgs.indexOf(payload)] = other;
        QCOMPARE(runCli(otherArgs, password + "\n482913\n482914\n").exitCode, 2);
        QCOMPARE(runCli(otherArgs, password + "\n123\n123\n").exitCode, 2);
        QVERIFY(!QFile::exists(other));
        // A wrong vault password: the vault cannot be opened.
        QCOMPARE(runCli(otherArgs, QByteArray("wrong password\n482913\n482913\n")).exitCode, 1);
        QVERIFY(!QFile::exists(other));
    }

    void helpDescribesBoth()
    {
        const Outcome outcome = runCli({"watch", "--help"});
        QCOMPARE(outcome.exitCode, 0);
        QVERIFY(outcome.out.contains("watchword-cli watch devices"));
        QVERIFY(outcome.out.contains("watchword-cli watch estimate --device ID"));
    }
};

QTEST_GUILESS_MAIN(TestCliWatch)
#include "TestCliWatch.moc"
