// Reports of a benchmark run: the formatting of durations and changes, the
// reference reports' Markdown table from hand-set estimates, Criterion's
// estimates.json and the JSON report read back with an independent parser,
// the HTML page's self-containment and escaping, and the report directory.
#include "perf/Comparisons.h"
#include "perf/Report.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include <bit>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

using namespace watchword;
using namespace watchword::perf;
using namespace std::chrono_literals;

namespace {

stats::Estimate estimate(double point, double low, double high, double standardError = 0)
{
    return {point, low, high, standardError};
}

// A Measured benchmark whose typical estimate is (point, low, high) and whose
// other estimates are distinct from it and from each other, so a field read
// from the wrong statistic shows.
Measurement measured(std::string name, Sampling sampling, double point, double low, double high,
                     std::size_t mild, std::size_t severe)
{
    Measurement m;
    m.name = std::move(name);
    m.sampling = sampling;
    const std::size_t n = 5;
    for (std::size_t i = 1; i <= n; ++i) {
        m.iterations.push_back(sampling == Sampling::Linear ? 10.0 * static_cast<double>(i) : 10.0);
        m.nanoseconds.push_back(m.iterations.back() * point * (1 + 0.01 * static_cast<double>(i)));
    }
    auto& e = m.estimates;
    e.samples = n;
    const stats::Estimate typical = estimate(point, low, high, point / 100);
    e.slope = sampling == Sampling::Linear ? typical : estimate(point * 1.5, low * 1.5, high * 1.5);
    e.mean = sampling == Sampling::Flat ? typical : estimate(point * 1.1, low * 1.1, high * 1.1, 7);
    e.median = estimate(point * 0.9, low * 0.9, high * 0.9, 3);
    e.medianAbsoluteDeviation = estimate(point / 20, low / 20, high / 20, 0.5);
    e.standardDeviation = estimate(point / 10, low / 10, high / 10, 0.25);
    e.outliers.lowMild = mild / 2;
    e.outliers.highMild = mild - mild / 2;
    e.outliers.highSevere = severe;
    return m;
}

Measurement failed(std::string name, Status status, std::string error)
{
    Measurement m;
    m.name = std::move(name);
    m.status = status;
    m.error = std::move(error);
    return m;
}

MachineInfo machine()
{
    MachineInfo info;
    info.cpuModel = "Example CPU 3000";
    info.logicalCpus = 2;
    info.shaNi = true;
    info.aesNi = true;
    info.os = "Debian GNU/Linux 12 (bookworm)";
    info.kernel = "6.1.0";
    info.compiler = "GCC 12.2.0";
    info.buildType = "Release";
    info.openssl = "3.0.17";
    info.secp256k1 = "0.2.0";
    info.qt = "6.4.2";
    info.harness = "Criterion-model runner, full profile";
    return info;
}

Report handMade()
{
    Report report;
    report.machine = machine();
    report.profile = {"full", 50, 2s, 10s, 100'000, {}};
    report.measurements = {
        measured("keychain/new_os_random", Sampling::Linear, 3.21e6, 3.11e6, 3.34e6, 3, 5),
        measured("encryption/decrypt", Sampling::Flat, 928, 907, 954, 0, 3),
        failed("shared_secret_key/sender_dh", Status::Failed, "no context"),
    };
    return report;
}

QStringList lines(const std::string& text)
{
    return QString::fromStdString(text).split(QLatin1Char('\n'));
}

// The lines of the table whose header line is header, up to the blank line
// that ends it.
QStringList tableAt(const std::string& text, const QString& header)
{
    const QStringList all = lines(text);
    const auto start = all.indexOf(header);
    if (start < 0)
        return {};
    QStringList table;
    for (auto i = start; i < all.size() && !all[i].isEmpty(); ++i)
        table << all[i];
    return table;
}

QJsonObject parse(const std::string& json)
{
    QJsonParseError error;
    const auto document = QJsonDocument::fromJson(QByteArray::fromStdString(json), &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("not JSON (%s at %d): %s", qPrintable(error.errorString()), error.offset,
               json.substr(0, 400).c_str());
    return document.object();
}

bool sameBits(double a, double b)
{
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

void checkCriterionEstimate(const QJsonValue& value, const stats::Estimate& expected)
{
    QVERIFY(value.isObject());
    const auto object = value.toObject();
    QCOMPARE(object.keys(),
             (QStringList{"confidence_interval", "point_estimate", "standard_error"}));
    QVERIFY(sameBits(object["point_estimate"].toDouble(), expected.point));
    QVERIFY(sameBits(object["standard_error"].toDouble(), expected.standardError));
    const auto interval = object["confidence_interval"].toObject();
    QCOMPARE(interval.keys(), (QStringList{"confidence_level", "lower_bound", "upper_bound"}));
    QCOMPARE(interval["confidence_level"].toDouble(), 0.95);
    QVERIFY(sameBits(interval["lower_bound"].toDouble(), expected.low));
    QVERIFY(sameBits(interval["upper_bound"].toDouble(), expected.high));
}

void checkEstimate(const QJsonValue& value, const stats::Estimate& expected)
{
    const auto object = value.toObject();
    QCOMPARE(object.keys(), (QStringList{"high", "low", "point", "standard_error"}));
    QVERIFY(sameBits(object["point"].toDouble(), expected.point));
    QVERIFY(sameBits(object["low"].toDouble(), expected.low));
    QVERIFY(sameBits(object["high"].toDouble(), expected.high));
    QVERIFY(sameBits(object["standard_error"].toDouble(), expected.standardError));
}

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream file(path, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

} // namespace

class TestReport : public QObject
{
    Q_OBJECT

private slots:
    void durations_data()
    {
        QTest::addColumn<double>("nanoseconds");
        QTest::addColumn<QString>("expected");
        // The reference report's figures.
        QTest::newRow("3.21 ms") << 3.2149e6 << "3.21 ms";
        QTest::newRow("78.4 µs") << 78'412.0 << "78.4 µs";
        QTest::newRow("1.17 µs") << 1'171.0 << "1.17 µs";
        QTest::newRow("928 ns") << 928.3 << "928 ns";
        QTest::newRow("seconds") << 1.0249e9 << "1.02 s";
        QTest::newRow("tens of ns") << 12.34 << "12.3 ns";
        QTest::newRow("below 1 ns") << 0.5 << "0.500 ns";
        QTest::newRow("zero") << 0.0 << "0 ns";
        // Rounding to three digits can move a value into the next unit.
        QTest::newRow("999.4 ns") << 999.4 << "999 ns";
        QTest::newRow("999.7 ns") << 999.7 << "1.00 µs";
        QTest::newRow("999.99 µs") << 999'990.0 << "1.00 ms";
        QTest::newRow("an hour") << 3600e9 << "3600 s";
        QTest::newRow("NaN") << std::numeric_limits<double>::quiet_NaN() << "n/a";
        QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << "n/a";
    }

    void durations()
    {
        QFETCH(double, nanoseconds);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(formatDuration(nanoseconds)), expected);
    }

    void changes_data()
    {
        QTest::addColumn<double>("relative");
        QTest::addColumn<QString>("expected");
        QTest::newRow("faster") << -0.123 << "-12.3 %";
        QTest::newRow("slightly slower") << 0.004 << "+0.4 %";
        QTest::newRow("30 % slower") << 0.30 << "+30.0 %";
        QTest::newRow("2.5 times") << 1.5 << "+150.0 %";
        QTest::newRow("zero") << 0.0 << "0.0 %";
        QTest::newRow("rounds to zero") << -0.0004 << "0.0 %";
        QTest::newRow("NaN") << std::numeric_limits<double>::quiet_NaN() << "n/a";
    }

    void changes()
    {
        QFETCH(double, relative);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(formatChange(relative)), expected);
    }

    void throughput_data()
    {
        QTest::addColumn<double>("rate");
        QTest::addColumn<QString>("expected");
        QTest::newRow("millions") << 9.4e6 << "9.40 M rounds/s";
        QTest::newRow("thousands") << 1234.5 << "1.23 k rounds/s";
        QTest::newRow("units") << 512.0 << "512 rounds/s";
        QTest::newRow("NaN") << std::numeric_limits<double>::quiet_NaN() << "n/a";
    }

    void throughput()
    {
        QFETCH(double, rate);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(formatThroughput(rate, "rounds")), expected);
    }

    void markdownTable()
    {
        const std::string markdown = markdownReport(handMade());
        const QStringList expected{
            "| Operation | low | point | high | outliers (mild + severe) |",
            "|---|---:|---:|---:|---:|",
            "| keychain/new_os_random | 3.11 ms | 3.21 ms | 3.34 ms | 3 + 5 |",
            "| encryption/decrypt † | 907 ns | 928 ns | 954 ns | 0 + 3 |",
            "| shared_secret_key/sender_dh | — | failed | — | — |",
        };
        const QStringList table = tableAt(markdown, expected.front());
        QCOMPARE(table.size(), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i)
            QCOMPARE(table[i], expected[i]);
        // The reason, under the table.
        const QStringList all = lines(markdown);
        QCOMPARE(all.value(all.indexOf(expected.back()) + 1), QString());
        QCOMPARE(all.value(all.indexOf(expected.back()) + 2),
                 QString("shared_secret_key/sender_dh failed: no context"));
    }

    void markdownOpening()
    {
        const QStringList all = lines(markdownReport(handMade()));
        QCOMPARE(all.value(0), QString::fromStdString("Machine: " + machineLine(machine())));
        QCOMPARE(all.value(1), QString());
        QCOMPARE(all.value(2),
                 QString("Criterion model (full profile): sample size 50, warm-up 2 s, "
                         "measurement 10 s, 100,000 bootstrap resamples; slope point estimate "
                         "(mean for flat-sampled benchmarks, marked †) with its 95 % bootstrap "
                         "interval."));
    }

    void cancelledAndEscaped()
    {
        Report report = handMade();
        report.measurements.push_back(failed("vault/unlock", Status::Cancelled, {}));
        report.measurements.push_back(measured("odd|name", Sampling::Linear, 100, 90, 110, 1, 0));
        const QStringList table =
            tableAt(markdownReport(report),
                    "| Operation | low | point | high | outliers (mild + severe) |");
        QCOMPARE(table.value(5), QString("| vault/unlock | — | cancelled | — | — |"));
        QCOMPARE(table.value(6), QString("| odd\\|name | 90.0 ns | 100 ns | 110 ns | 1 + 0 |"));
    }

    void throughputSection()
    {
        Report report = handMade();
        Measurement calibration =
            measured("calibration/pbkdf2_1s", Sampling::Linear, 1e6, 0.8e6, 1.25e6, 0, 0);
        calibration.unitsPerIteration = 1000;
        calibration.unit = "rounds";
        report.measurements.push_back(calibration);
        const QStringList table =
            tableAt(markdownReport(report), "| Operation | low | point | high |");
        // The slowest time is the lowest rate.
        QCOMPARE(table, (QStringList{"| Operation | low | point | high |", "|---|---:|---:|---:|",
                                     "| calibration/pbkdf2_1s | 800 k rounds/s | 1.00 M rounds/s "
                                     "| 1.25 M rounds/s |"}));
        QVERIFY(markdownReport(report).find("### Throughput\n") != std::string::npos);
    }

    void ratios()
    {
        // A comparison from the catalogue's list, with times that meet its
        // target and then miss it.
        const auto found =
            std::find_if(comparisons().begin(), comparisons().end(), [](const Comparison& c) {
                return c.kind == Comparison::Kind::AtLeastFaster && !c.reference.empty();
            });
        QVERIFY(found != comparisons().end());
        const Comparison& c = *found;
        for (const bool meet : {true, false}) {
            Report report = handMade();
            const double ours = 100;
            const double reference = meet ? ours * c.target * 2 : ours * c.target / 2;
            report.measurements.push_back(
                measured(c.subject, Sampling::Linear, ours, 90, 110, 0, 0));
            report.measurements.push_back(measured(c.reference, Sampling::Linear, reference,
                                                   reference * 0.9, reference * 1.1, 0, 0));
            const std::string markdown = markdownReport(report);
            QVERIFY(markdown.find("### Ratios to the references\n") != std::string::npos);
            const QStringList table = tableAt(
                markdown, "| Subject | Reference or budget | Ratio | Target | Met | Source |");
            QVERIFY(table.size() >= 3);
            const QString start = QString::fromStdString("| " + c.subject + " | " + c.reference +
                                                         " | reference / ours = ");
            const QString end = QString::fromStdString(
                " | " + std::string(meet ? "met" : "not met") + " | " + c.source + " |");
            bool seen = false;
            for (const auto& line : table) {
                if (!line.startsWith(start))
                    continue;
                seen = true;
                QVERIFY2(line.endsWith(end), qPrintable(line));
            }
            QVERIFY(seen);
            // The catalogue's own evaluation agrees with the table.
            const auto outcomes = evaluate(typicalTimes(report.measurements));
            QVERIFY(std::any_of(outcomes.begin(), outcomes.end(), [&](const ComparisonOutcome& o) {
                return o.comparison == &c && o.met == meet;
            }));
        }
    }

    void baselineChanges()
    {
        Report report = handMade();
        report.baselineName = "main";
        report.noiseThreshold = 0.05;
        report.changes["keychain/new_os_random"] = {estimate(0.30, 0.25, 0.35),
                                                    stats::Verdict::Regressed};
        report.changes["encryption/decrypt"] = {estimate(-0.01, -0.03, 0.01),
                                                stats::Verdict::NoChange};
        const std::string markdown = markdownReport(report);
        QVERIFY(markdown.find("### Change against baseline main\n") != std::string::npos);
        QVERIFY(markdown.find("within ±5 % reads \"no significant change\"") != std::string::npos);
        const QStringList table =
            tableAt(markdown, "| Operation | low | change | high | verdict |");
        QCOMPARE(table, (QStringList{"| Operation | low | change | high | verdict |",
                                     "|---|---:|---:|---:|---|",
                                     "| keychain/new_os_random | +25.0 % | +30.0 % | +35.0 % | "
                                     "regressed |",
                                     "| encryption/decrypt | -3.0 % | -1.0 % | +1.0 % | no "
                                     "significant change |"}));
        // Without a baseline there is no such section.
        QVERIFY(markdownReport(handMade()).find("Change against baseline") == std::string::npos);
    }

    void textColumnsAlign()
    {
        const std::string text = textReport(handMade());
        const QStringList all = lines(text);
        const auto header = all.indexOf(QRegularExpression("^Operation +low +point +high +"
                                                           "outliers \\(mild \\+ severe\\)$"));
        QVERIFY2(header >= 0, text.c_str());
        // Every line of the table is as wide as the header: numbers are
        // right-aligned to it.
        for (auto i = header; i < header + 5; ++i)
            QCOMPARE(all[i].size(), all[header].size());
        QVERIFY(all[header + 1].startsWith("-----"));
        const QStringList row = all[header + 2].split(QRegularExpression("  +"));
        QCOMPARE(row,
                 (QStringList{"keychain/new_os_random", "3.11 ms", "3.21 ms", "3.34 ms", "3 + 5"}));
        QVERIFY(all[header + 3].startsWith("encryption/decrypt † "));
        QVERIFY(all[header + 4].contains(" failed "));
        QVERIFY(text.find("shared_secret_key/sender_dh failed: no context\n") != std::string::npos);
        QVERIFY(text.find('|') == std::string::npos);
    }

    void estimatesJsonInCriterionShape()
    {
        const Report report = handMade();
        for (const auto& m : report.measurements) {
            const QJsonObject object = parse(estimatesJson(m));
            QCOMPARE(object.keys(),
                     (QStringList{"mean", "median", "median_abs_dev", "slope", "std_dev"}));
            if (m.status != Status::Measured) {
                for (const auto& key : object.keys())
                    QVERIFY(object[key].isNull());
                continue;
            }
            checkCriterionEstimate(object["mean"], m.estimates.mean);
            checkCriterionEstimate(object["median"], m.estimates.median);
            checkCriterionEstimate(object["median_abs_dev"], m.estimates.medianAbsoluteDeviation);
            checkCriterionEstimate(object["std_dev"], m.estimates.standardDeviation);
            if (m.sampling == Sampling::Flat)
                QVERIFY(object["slope"].isNull());
            else
                checkCriterionEstimate(object["slope"], m.estimates.slope);
        }
    }

    void jsonReportRoundTrips()
    {
        Report report = handMade();
        // Numbers that need all 17 digits, and ones that are not numbers.
        Measurement& first = report.measurements[0];
        first.iterations = {1, 2, 3};
        first.nanoseconds = {0.1 + 0.2, 1.0 / 3.0, 1e-300};
        first.estimates.median.standardError = std::numeric_limits<double>::quiet_NaN();
        first.unitsPerIteration = 2048;
        first.unit = "rounds";
        report.measurements[2].error = "quote \" backslash \\ newline \n tab \t bell \a end";
        report.baselineName = "main";
        report.noiseThreshold = 0.05;
        report.changes["keychain/new_os_random"] = {estimate(-0.2, -0.25, -0.15, 0.01),
                                                    stats::Verdict::Improved};

        const QJsonObject root = parse(jsonReport(report));
        QCOMPARE(root["format"].toString(), QString("watchword-bench-report"));
        QCOMPARE(root["version"].toInt(), 1);

        const auto m = root["machine"].toObject();
        const MachineInfo info = report.machine;
        QCOMPARE(m["line"].toString().toStdString(), machineLine(info));
        QCOMPARE(m["cpu_model"].toString().toStdString(), info.cpuModel);
        QCOMPARE(m["logical_cpus"].toInt(), 2);
        QCOMPARE(m["sha_ni"].toBool(), true);
        QCOMPARE(m["aes_ni"].toBool(), true);
        QCOMPARE(m["os"].toString().toStdString(), info.os);
        QCOMPARE(m["kernel"].toString().toStdString(), info.kernel);
        QCOMPARE(m["compiler"].toString().toStdString(), info.compiler);
        QCOMPARE(m["build_type"].toString().toStdString(), info.buildType);
        QCOMPARE(m["openssl"].toString().toStdString(), info.openssl);
        QCOMPARE(m["secp256k1"].toString().toStdString(), info.secp256k1);
        QCOMPARE(m["qt"].toString().toStdString(), info.qt);
        QCOMPARE(m["harness"].toString().toStdString(), info.harness);

        const auto profile = root["profile"].toObject();
        QCOMPARE(profile["name"].toString(), QString("full"));
        QCOMPARE(profile["sample_size"].toInt(), 50);
        QCOMPARE(profile["warm_up_ns"].toDouble(), 2e9);
        QCOMPARE(profile["measurement_ns"].toDouble(), 10e9);
        QCOMPARE(profile["resamples"].toInt(), 100000);

        const auto benchmarks = root["benchmarks"].toArray();
        QCOMPARE(benchmarks.size(), 3);
        for (qsizetype i = 0; i < benchmarks.size(); ++i) {
            const auto b = benchmarks[i].toObject();
            const Measurement& expected = report.measurements[static_cast<std::size_t>(i)];
            QCOMPARE(b["name"].toString().toStdString(), expected.name);
            QCOMPARE(b["error"].toString().toStdString(), expected.error);
            QCOMPARE(b["status"].toString(),
                     QString(expected.status == Status::Measured ? "measured" : "failed"));
            const auto samples = b["samples"].toObject();
            const auto iterations = samples["iterations"].toArray();
            const auto nanoseconds = samples["nanoseconds"].toArray();
            QCOMPARE(static_cast<std::size_t>(iterations.size()), expected.iterations.size());
            QCOMPARE(static_cast<std::size_t>(nanoseconds.size()), expected.nanoseconds.size());
            for (qsizetype k = 0; k < iterations.size(); ++k) {
                QVERIFY(sameBits(iterations[k].toDouble(),
                                 expected.iterations[static_cast<std::size_t>(k)]));
                QVERIFY(sameBits(nanoseconds[k].toDouble(),
                                 expected.nanoseconds[static_cast<std::size_t>(k)]));
            }
            if (expected.status != Status::Measured) {
                QVERIFY(b["estimates"].isNull());
                QVERIFY(b["outliers"].isNull());
                continue;
            }
            QCOMPARE(b["sampling"].toString(),
                     QString(expected.sampling == Sampling::Linear ? "linear" : "flat"));
            const auto e = b["estimates"].toObject();
            QCOMPARE(e["samples"].toInt(), 5);
            checkEstimate(e["typical"], expected.typical());
            checkEstimate(e["slope"], expected.estimates.slope);
            checkEstimate(e["mean"], expected.estimates.mean);
            checkEstimate(e["median_abs_dev"], expected.estimates.medianAbsoluteDeviation);
            checkEstimate(e["std_dev"], expected.estimates.standardDeviation);
            const auto median = e["median"].toObject();
            QVERIFY(sameBits(median["point"].toDouble(), expected.estimates.median.point));
            if (i == 0)
                QVERIFY(median["standard_error"].isNull()); // NaN has no JSON form
            const auto o = b["outliers"].toObject();
            QCOMPARE(o["low_mild"].toInt(), static_cast<int>(expected.estimates.outliers.lowMild));
            QCOMPARE(o["high_mild"].toInt(),
                     static_cast<int>(expected.estimates.outliers.highMild));
            QCOMPARE(o["high_severe"].toInt(),
                     static_cast<int>(expected.estimates.outliers.highSevere));
            QCOMPARE(o["low_severe"].toInt(), 0);
        }
        QCOMPARE(benchmarks[0].toObject()["unit"].toString(), QString("rounds"));
        QCOMPARE(benchmarks[0].toObject()["units_per_iteration"].toDouble(), 2048.0);

        QVERIFY(root["comparisons"].isArray());
        const auto baseline = root["baseline"].toObject();
        QCOMPARE(baseline["name"].toString(), QString("main"));
        QCOMPARE(baseline["noise_threshold"].toDouble(), 0.05);
        const auto changes = baseline["changes"].toArray();
        QCOMPARE(changes.size(), 1);
        QCOMPARE(changes[0].toObject()["verdict"].toString(), QString("improved"));
        checkEstimate(changes[0].toObject()["change"],
                      report.changes["keychain/new_os_random"].relative);

        // Without a baseline, null.
        QVERIFY(parse(jsonReport(handMade()))["baseline"].isNull());
    }

    // The bytes of report.json that nlohmann-json would write otherwise
    // (docs/ARCHITECTURE.md, "JSON"): arrays of numbers on one line, doubles
    // in their shortest form ("5", "1e+05", "3e-04"; nlohmann: "5.0",
    // "100000.0", "0.0003"), U+0008 and U+000C as \u escapes.
    void jsonReportLayoutPinned()
    {
        Report report = handMade();
        Measurement& first = report.measurements[0];
        first.iterations = {5, 100000, 1e6};
        first.nanoseconds = {0.5, 0.0003, 1.0 / 3.0};
        first.unitsPerIteration = 2048;
        report.measurements[2].error = "bell \a backspace \b form feed \f";
        const std::string json = jsonReport(report);
        for (const std::string& line :
             {std::string("{\n  \"format\": \"watchword-bench-report\",\n  \"version\": 1,\n"),
              std::string("\n        \"iterations\": [5, 1e+05, 1e+06],\n"),
              std::string("\n        \"nanoseconds\": [0.5, 3e-04, 0.3333333333333333]\n"),
              std::string("\n      \"units_per_iteration\": 2048,\n"),
              std::string("\n      \"error\": \"bell \\u0007 backspace \\u0008 form feed "
                          "\\u000c\",\n"),
              std::string("\n  \"baseline\": null\n}\n")})
            QVERIFY2(json.find(line) != std::string::npos, line.c_str());
    }

    void invalidUtf8StaysValidJson()
    {
        Report report = handMade();
        report.machine.cpuModel = "bad \xff\xfe bytes \xc3";
        const QJsonObject root = parse(jsonReport(report));
        QCOMPARE(root["machine"].toObject()["cpu_model"].toString(),
                 QString::fromUtf8("bad \xef\xbf\xbd\xef\xbf\xbd bytes \xef\xbf\xbd"));
    }

    void htmlIsSelfContainedAndEscaped()
    {
        Report report = handMade();
        report.measurements.push_back(measured("x/<b>&\"'", Sampling::Linear, 50, 45, 55, 0, 0));
        report.machine.os = "OS <script>alert(1)</script>";
        report.baselineName = "main";
        report.changes["keychain/new_os_random"] = {estimate(0.3, 0.25, 0.35),
                                                    stats::Verdict::Regressed};
        report.changes["encryption/decrypt"] = {estimate(-0.3, -0.35, -0.25),
                                                stats::Verdict::Improved};
        const std::string page = htmlReport(report);
        const QString html = QString::fromStdString(page);

        QVERIFY(html.startsWith("<!DOCTYPE html>"));
        QVERIFY(!html.contains("<script", Qt::CaseInsensitive));
        QVERIFY(!html.contains("http://"));
        QVERIFY(!html.contains("https://"));
        QVERIFY(!html.contains("<link", Qt::CaseInsensitive));
        QVERIFY(!html.contains("url(", Qt::CaseInsensitive));
        QVERIFY(html.contains("x/&lt;b&gt;&amp;&quot;&#39;"));
        QVERIFY(!html.contains("x/<b>"));
        QVERIFY(html.contains("OS &lt;script&gt;alert(1)&lt;/script&gt;"));

        // Every element that is opened is closed, in SVG (XML) and around it.
        for (const QString tag :
             {"svg", "table", "tr", "td", "th", "g", "text", "div", "p", "h2", "title", "style"}) {
            const auto opened = html.count(QRegularExpression("<" + tag + "[ >]"));
            const auto closed = html.count("</" + tag + ">");
            QVERIFY2(opened == closed,
                     qPrintable(tag + QString(": %1 opened, %2 closed").arg(opened).arg(closed)));
        }
        QVERIFY(html.count("<svg") >= 1 + 4); // the bar chart and one plot per measured benchmark
        QVERIFY(html.contains("prefers-color-scheme:dark"));
        QVERIFY(html.contains("<tr class=\"regressed\">"));
        QVERIFY(html.contains("<tr class=\"improved\">"));
        QVERIFY(html.contains("<td class=\"n\">failed</td>"));
        QVERIFY(html.contains("shared_secret_key/sender_dh failed: no context"));

        // Each SVG on its own is well-formed XML.
        qsizetype from = 0;
        while ((from = html.indexOf("<svg", from)) >= 0) {
            const auto to = html.indexOf("</svg>", from) + 6;
            QXmlStreamReader xml(html.mid(from, to - from));
            while (!xml.atEnd())
                xml.readNext();
            QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
            from = to;
        }
    }

    void htmlSizeIsReasonable()
    {
        Report report = handMade();
        report.measurements.clear();
        for (int b = 0; b < 40; ++b) {
            Measurement m = measured("group/benchmark_" + std::to_string(b), Sampling::Linear,
                                     1000.0 * (b + 1), 900.0 * (b + 1), 1100.0 * (b + 1), 2, 1);
            m.iterations.clear();
            m.nanoseconds.clear();
            for (int i = 1; i <= 50; ++i) {
                m.iterations.push_back(123.0 * i);
                m.nanoseconds.push_back(123.0 * i * 1000.0 * (b + 1) * (1 + 0.001 * (i % 7)));
            }
            m.estimates.samples = 50;
            report.measurements.push_back(m);
        }
        const std::string page = htmlReport(report);
        QVERIFY2(page.size() < 500'000, qPrintable(QString::number(page.size())));
        QCOMPARE(QString::fromStdString(page).count("<circle"), 40 * 50);
    }

    void reportDirectory()
    {
        QTemporaryDir temp;
        QVERIFY(temp.isValid());
        const std::filesystem::path root = temp.filePath("out/nested").toStdString();
        Report report = handMade();
        report.measurements.push_back(measured("../escape", Sampling::Linear, 10, 9, 11, 0, 0));
        QCOMPARE(writeReportDirectory(report, root), std::nullopt);

        const auto estimates = root / "keychain" / "new_os_random" / "estimates.json";
        QVERIFY(std::filesystem::is_regular_file(estimates));
        QCOMPARE(readFile(estimates), estimatesJson(report.measurements[0]));
        QVERIFY(
            std::filesystem::is_regular_file(root / "encryption" / "decrypt" / "estimates.json"));
        // Not measured: no estimates.
        QVERIFY(!std::filesystem::exists(root / "shared_secret_key"));
        // A name cannot climb out of the directory.
        QVERIFY(std::filesystem::is_regular_file(root / "_" / "escape" / "estimates.json"));
        QVERIFY(!std::filesystem::exists(root.parent_path() / "escape"));
        QCOMPARE(readFile(root / "report.md"), markdownReport(report) + "\n");
        QCOMPARE(readFile(root / "report.json"), jsonReport(report));
        QCOMPARE(readFile(root / "report.html"), htmlReport(report));
        // No temp file is left behind.
        for (const auto& entry : std::filesystem::recursive_directory_iterator(root))
            QVERIFY2(!entry.path().filename().string().starts_with("."), entry.path().c_str());

        // A directory where a file should be: the error names the path.
        const std::filesystem::path blocked = temp.filePath("blocked").toStdString();
        std::filesystem::create_directories(blocked / "report.json" / "inside");
        const auto error = writeReportDirectory(report, blocked);
        QVERIFY(error.has_value());
        QVERIFY2(error->find((blocked / "report.json").string()) != std::string::npos,
                 error->c_str());

        // A file where the directory should be.
        const std::filesystem::path file = temp.filePath("plain").toStdString();
        std::ofstream(file) << "x";
        const auto notDirectory = writeReportDirectory(report, file / "sub");
        QVERIFY(notDirectory.has_value());
        QVERIFY2(notDirectory->find(file.string()) != std::string::npos, notDirectory->c_str());
    }
};

QTEST_GUILESS_MAIN(TestReport)
#include "TestReport.moc"
