// watchword-cli bench as a user runs it: the catalogue listed, bad options
// refused before anything runs, a quick run of a benchmark and its reference
// in every format, estimates written, and a baseline saved and compared.
// Nothing here asserts how fast anything is.
#include "CliTestSupport.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using watchword::test::Outcome;
using watchword::test::parseJsonObject;
using watchword::test::runCli;

namespace {

// One benchmark and its reference: a couple of seconds in the quick profile.
const QString pair = QStringLiteral("^(totp/sha1|ref/openssl_hmac_oneshot_totp_sha1)$");

void verifyInterval(const QJsonObject& estimate)
{
    const double low = estimate[QStringLiteral("low")].toDouble(-1);
    const double point = estimate[QStringLiteral("point")].toDouble(-1);
    const double high = estimate[QStringLiteral("high")].toDouble(-1);
    QVERIFY2(low > 0 && low <= point && point <= high,
             qPrintable(QStringLiteral("%1 <= %2 <= %3").arg(low).arg(point).arg(high)));
}

} // namespace

class TestCliBench : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_data.isValid());
        // Baselines go to $XDG_DATA_HOME/watchword/baselines: a folder of
        // the test's own, inherited by every watchword-cli it starts.
        qputenv("XDG_DATA_HOME", m_data.path().toUtf8());
    }

    void listNamesTheReferenceOperations()
    {
        const Outcome outcome = runCli({"bench", "--list"});
        QCOMPARE(outcome.exitCode, 0);
        for (const char* name : {"keychain/new_os_random",
                                 "keychain/new_mnemonic",
                                 "shared_secret_key/sender_dh",
                                 "encryption/encrypt",
                                 "encryption/decrypt",
                                 "totp/sha1",
                                 "totp/sha256",
                                 "totp/sha512",
                                 "pbkdf2/sha256_1000",
                                 "pbkdf2/sha512_2048",
                                 "record/seal",
                                 "record/open",
                                 "record/seal_open",
                                 "selftest/startup",
                                 "calibration/pbkdf2_1s",
                                 "vault/unlock_kdf",
                                 "vault/save/10000",
                                 "ref/openssl_pkcs5_pbkdf2_sha256_1000",
                                 "ref/openssl_pkcs5_pbkdf2_sha512_2048",
                                 "ref/openssl_hmac_oneshot_totp_sha1",
                                 "ref/openssl_hmac_oneshot_totp_sha256",
                                 "ref/openssl_hmac_oneshot_totp_sha512",
                                 "ref/secp256k1_raw_sender_dh",
                                 "ref/evp_cbc_hmac_seal"})
            QVERIFY2(outcome.out.contains(QByteArray(name) + '\n'), name);
    }

    void badOptions_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("format") << QStringList{"--format", "pdf"} << "unknown --format 'pdf'";
        QTest::newRow("both profiles") << QStringList{"--quick", "--full"} << "exclude each other";
        QTest::newRow("regex") << QStringList{"--filter", "totp/(sha1"}
                               << "not a regular expression";
        QTest::newRow("no match") << QStringList{"--filter", "^nothing$"} << "no benchmark matches";
        QTest::newRow("missing baseline")
            << QStringList{"--baseline", "never-saved"} << "no baseline named never-saved";
        QTest::newRow("bad baseline name")
            << QStringList{"--save-baseline", "../escape"} << "is not a baseline name";
        QTest::newRow("threshold") << QStringList{"--noise-threshold", "5%"}
                                   << "--noise-threshold takes a whole percentage";
        QTest::newRow("positional") << QStringList{"totp"} << "bench takes no arguments";
        QTest::newRow("unknown option") << QStringList{"--samples", "10"} << "--samples";
    }

    void badOptions()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Outcome outcome = runCli(QStringList{"bench"} + args);
        QCOMPARE(outcome.exitCode, 2);
        QVERIFY(outcome.out.isEmpty());
        QVERIFY2(outcome.err.contains(message.toUtf8()), outcome.err.constData());
    }

    void markdownHasTheReferenceTable()
    {
        const Outcome outcome =
            runCli({"bench", "--quick", "--filter", pair, "--format", "markdown"});
        QCOMPARE(outcome.exitCode, 0);
        const QList<QByteArray> lines = outcome.out.split('\n');
        QVERIFY(lines.first().startsWith("Machine: CPU: "));
        QVERIFY(lines.contains("| Operation | low | point | high | outliers (mild + severe) |"));
        QVERIFY(lines.contains("|---|---:|---:|---:|---:|"));
        int rows = 0;
        for (const auto& line : lines)
            rows += (line.startsWith("| totp/sha1 | ") ||
                     line.startsWith("| ref/openssl_hmac_oneshot_totp_sha1 | ")) &&
                    !line.contains("reference / ours");
        QCOMPARE(rows, 2);
        QVERIFY(outcome.out.contains("| totp/sha1 | ref/openssl_hmac_oneshot_totp_sha1 | "
                                     "reference / ours = "));
    }

    void jsonAndEstimates()
    {
        QTemporaryDir output;
        const Outcome outcome =
            runCli({"bench", "--filter", pair, "--format", "json", "--output", output.path()});
        QCOMPARE(outcome.exitCode, 0);
        const QJsonObject report = parseJsonObject(outcome.out);
        QCOMPARE(report[QStringLiteral("profile")].toObject()[QStringLiteral("name")].toString(),
                 QStringLiteral("quick"));
        const QJsonArray benchmarks = report[QStringLiteral("benchmarks")].toArray();
        QCOMPARE(benchmarks.size(), 2);
        for (const auto& value : benchmarks) {
            const QJsonObject benchmark = value.toObject();
            QCOMPARE(benchmark[QStringLiteral("status")].toString(), QStringLiteral("measured"));
            const QJsonArray iterations = benchmark[QStringLiteral("samples")]
                                              .toObject()[QStringLiteral("iterations")]
                                              .toArray();
            QCOMPARE(iterations.size(), 20);
            // Linear sampling: d, 2d, ..., 20d.
            const double d = iterations.first().toDouble();
            for (int i = 0; i < iterations.size(); ++i)
                QCOMPARE(iterations[i].toDouble(), d * (i + 1));
            verifyInterval(benchmark[QStringLiteral("estimates")]
                               .toObject()[QStringLiteral("slope")]
                               .toObject());
        }
        const QJsonArray comparisons = report[QStringLiteral("comparisons")].toArray();
        QCOMPARE(comparisons.size(), 1);
        QVERIFY(comparisons[0].toObject()[QStringLiteral("ratio")].toDouble() > 0);

        // Criterion's estimates.json, one folder per name.
        const QString path = output.filePath(QStringLiteral("totp/sha1/estimates.json"));
        QVERIFY2(QFile::exists(path), qPrintable(path));
        const QJsonObject estimates = parseJsonObject(watchword::test::readBytes(path));
        for (const char* field : {"mean", "median", "median_abs_dev", "slope", "std_dev"}) {
            const QJsonObject estimate = estimates[QLatin1String(field)].toObject();
            QVERIFY2(estimate.contains(QStringLiteral("point_estimate")), field);
            const QJsonObject interval = estimate[QStringLiteral("confidence_interval")].toObject();
            QCOMPARE(interval[QStringLiteral("confidence_level")].toDouble(), 0.95);
            QVERIFY(interval[QStringLiteral("lower_bound")].toDouble() <=
                    estimate[QStringLiteral("point_estimate")].toDouble());
        }
        QVERIFY(QFile::exists(output.filePath(QStringLiteral("report.html"))));
        QVERIFY(QFile::exists(output.filePath(QStringLiteral("report.md"))));
    }

    void interleaved()
    {
        const Outcome outcome =
            runCli({"bench", "--interleave", "--filter", pair, "--format", "json"});
        QCOMPARE(outcome.exitCode, 0);
        const QJsonObject report = parseJsonObject(outcome.out);
        QVERIFY(report[QStringLiteral("machine")]
                    .toObject()[QStringLiteral("harness")]
                    .toString()
                    .contains(QStringLiteral("interleaved")));
        const QJsonArray benchmarks = report[QStringLiteral("benchmarks")].toArray();
        QCOMPARE(benchmarks.size(), 2);
        for (const auto& value : benchmarks) {
            const QJsonObject benchmark = value.toObject();
            QCOMPARE(benchmark[QStringLiteral("status")].toString(), QStringLiteral("measured"));
            verifyInterval(benchmark[QStringLiteral("estimates")]
                               .toObject()[QStringLiteral("slope")]
                               .toObject());
        }
        QCOMPARE(report[QStringLiteral("comparisons")].toArray().size(), 1);
    }

    void baselineSavedAndCompared()
    {
        const QString one = QStringLiteral("^totp/sha1$");
        const Outcome saved = runCli({"bench", "--filter", one, "--save-baseline", "before"});
        QCOMPARE(saved.exitCode, 0);
        QVERIFY(saved.err.contains("saved baseline 'before'"));
        QVERIFY(
            QFile::exists(m_data.filePath(QStringLiteral("watchword/baselines/before.baseline"))));

        const Outcome compared =
            runCli({"bench", "--filter", one, "--baseline", "before", "--format", "json"});
        QCOMPARE(compared.exitCode, 0);
        const QJsonObject baseline =
            parseJsonObject(compared.out)[QStringLiteral("baseline")].toObject();
        QCOMPARE(baseline[QStringLiteral("name")].toString(), QStringLiteral("before"));
        QCOMPARE(baseline[QStringLiteral("noise_threshold")].toDouble(), 0.05);
        const QJsonArray changes = baseline[QStringLiteral("changes")].toArray();
        QCOMPARE(changes.size(), 1);
        const QJsonObject change = changes[0].toObject();
        QCOMPARE(change[QStringLiteral("name")].toString(), QStringLiteral("totp/sha1"));
        // Whatever the machine did in between, the verdict is one of three.
        QVERIFY(QStringList({"improved", "regressed", "same"})
                    .contains(change[QStringLiteral("verdict")].toString()));

        const Outcome table = runCli({"bench", "--filter", one, "--baseline", "before"});
        QCOMPARE(table.exitCode, 0);
        QVERIFY(table.out.contains("Change against baseline before"));
    }

private:
    QTemporaryDir m_data;
};

QTEST_GUILESS_MAIN(TestCliBench)
#include "TestCliBench.moc"
