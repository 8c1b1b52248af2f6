// Named baselines: names, a lossless save and load of every sample, atomic
// replacement (a failed save leaves the old file), damaged and hostile files
// refused with the line at fault, listing, and the verdicts of a comparison.
#include "perf/Baseline.h"

#include <QTemporaryDir>
#include <QtTest>
#include <bit>
#include <csignal>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

using namespace watchword;
using namespace watchword::perf;
using namespace std::chrono_literals;

namespace {

// n linear samples of an operation taking perIteration ns, with
// multiplicative noise of relative size noise (deterministic).
Measurement series(std::string name, double perIteration, double noise, std::size_t n,
                   std::uint64_t seed, Sampling sampling = Sampling::Linear)
{
    Measurement m;
    m.name = std::move(name);
    m.sampling = sampling;
    std::mt19937_64 generator(seed);
    std::normal_distribution<double> jitter(1.0, noise);
    for (std::size_t i = 1; i <= n; ++i) {
        const double iterations = sampling == Sampling::Linear ? 37.0 * static_cast<double>(i) : 3;
        m.iterations.push_back(iterations);
        m.nanoseconds.push_back(iterations * perIteration * jitter(generator));
    }
    m.estimates.samples = n;
    return m;
}

Report reportOf(std::vector<Measurement> measurements)
{
    Report report;
    report.machine.cpuModel = "Example CPU";
    report.machine.logicalCpus = 2;
    report.machine.os = "Debian GNU/Linux 12 (bookworm)";
    report.profile = {"quick", 20, 250ms, 750ms, 10'000, {}};
    report.measurements = std::move(measurements);
    return report;
}

bool sameBits(const std::vector<double>& a, const std::vector<double>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::bit_cast<std::uint64_t>(a[i]) != std::bit_cast<std::uint64_t>(b[i]))
            return false;
    return true;
}

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream file(path, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

void writeFile(const std::filesystem::path& path, const std::string& text)
{
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << text;
}

// A valid baseline named "damaged", one benchmark of three samples. Lines:
//  1 version, 2 name, 3 created, 4 machine, 5 profile, 6 benchmarks,
//  7 benchmark, 8 sampling, 9 units, 10 samples, 11-13 samples, 14 end.
QStringList validLines()
{
    return {"watchword-baseline 1",
            "name damaged",
            "created 2026-01-02T03:04:05Z",
            "machine CPU: Example (2 logical CPUs, SHA-NI, AES-NI)",
            "profile quick",
            "benchmarks 1",
            "benchmark totp/sha1",
            "sampling linear",
            "units 1000 rounds",
            "samples 3",
            "10 1234.5",
            "20 2469.25",
            "30 3703.125",
            "end"};
}

QString joined(const QStringList& lines)
{
    return lines.join('\n') + '\n';
}

QString replaced(int line, const QString& text)
{
    QStringList lines = validLines();
    lines[line - 1] = text;
    return joined(lines);
}

} // namespace

class TestBaseline : public QObject
{
    Q_OBJECT

private slots:
    void names_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");
        QTest::newRow("plain") << "main" << true;
        QTest::newRow("every class") << "Release-2026.01_b" << true;
        QTest::newRow("64 characters") << QString(64, 'a') << true;
        QTest::newRow("65 characters") << QString(65, 'a') << false;
        QTest::newRow("empty") << "" << false;
        QTest::newRow("hidden") << ".main" << false;
        QTest::newRow("dot dot") << ".." << false;
        QTest::newRow("slash") << "a/b" << false;
        QTest::newRow("space") << "a b" << false;
        QTest::newRow("non-ASCII") << "r\u00e9sum\u00e9" << false;
    }

    void names()
    {
        QFETCH(QString, name);
        QFETCH(bool, valid);
        QCOMPARE(isValidBaselineName(name.toStdString()), valid);
        QTemporaryDir temp;
        const auto saved = saveBaseline(temp.path().toStdString(), name.toStdString(),
                                        reportOf({series("a", 10, 0.01, 3, 1)}));
        QCOMPARE(saved.ok(), valid);
        if (!valid) {
            QCOMPARE(saved.error().code, BaselineError::BadName);
            const auto loaded = loadBaseline(temp.path().toStdString(), name.toStdString());
            QVERIFY(!loaded.ok());
            QCOMPARE(loaded.error().code, BaselineError::BadName);
        }
    }

    void defaultDirectory()
    {
        const QByteArray old = qgetenv("XDG_DATA_HOME");
        qputenv("XDG_DATA_HOME", "/data/home");
        QCOMPARE(defaultBaselineDirectory(),
                 std::filesystem::path("/data/home/watchword/baselines"));
        // A relative value is not valid by the specification: ignored.
        qputenv("XDG_DATA_HOME", "relative");
        QCOMPARE(defaultBaselineDirectory(), std::filesystem::path(qgetenv("HOME").toStdString()) /
                                                 ".local/share/watchword/baselines");
        if (old.isNull())
            qunsetenv("XDG_DATA_HOME");
        else
            qputenv("XDG_DATA_HOME", old);
    }

    void roundTripIsLossless()
    {
        QTemporaryDir temp;
        const std::filesystem::path directory = temp.filePath("deep/er").toStdString();
        Measurement linear = series("pbkdf2/sha256_1000", 1.0 / 3.0 * 1e6, 0.05, 50, 7);
        // Values that need all 17 digits, and extremes.
        linear.nanoseconds[0] = 0.1 + 0.2;
        linear.nanoseconds[1] = 5e-324;
        linear.nanoseconds[2] = 1.7976931348623157e308;
        linear.nanoseconds[3] = 0;
        linear.iterations[4] = 9007199254740992.0;
        Measurement flat = series("vault/unlock", 7.77e8, 0.02, 10, 8, Sampling::Flat);
        flat.unitsPerIteration = 600000;
        flat.unit = "rounds";
        Measurement failed;
        failed.name = "ref/broken";
        failed.status = Status::Failed;
        failed.error = "no";
        Report report = reportOf({linear, failed, flat});
        report.machine.harness = "line\nbreak"; // kept on one line

        const auto saved = saveBaseline(directory, "main", report);
        QVERIFY2(saved.ok(), saved.ok() ? "" : saved.error().message.c_str());
        const auto loaded = loadBaseline(directory, "main");
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());

        const Baseline& baseline = loaded.value();
        QCOMPARE(baseline.name, std::string("main"));
        QCOMPARE(baseline.profile, std::string("quick"));
        std::string line = machineLine(report.machine);
        std::replace(line.begin(), line.end(), '\n', ' ');
        QCOMPARE(baseline.machineLine, line);
        QVERIFY(QRegularExpression("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$")
                    .match(QString::fromStdString(baseline.created))
                    .hasMatch());
        // Only what was measured.
        QCOMPARE(baseline.measurements.size(), std::size_t(2));
        const Measurement* originals[] = {&linear, &flat};
        for (std::size_t i = 0; i < 2; ++i) {
            const Measurement& got = baseline.measurements[i];
            const Measurement& want = *originals[i];
            QCOMPARE(got.name, want.name);
            QCOMPARE(got.status, Status::Measured);
            QVERIFY(got.sampling == want.sampling);
            QVERIFY(sameBits(got.iterations, want.iterations));
            QVERIFY(sameBits(got.nanoseconds, want.nanoseconds));
            QCOMPARE(got.unitsPerIteration, want.unitsPerIteration);
            QCOMPARE(got.unit, want.unit);
        }
        QCOMPARE(listBaselines(directory), std::vector<std::string>{"main"});
    }

    void saveReplaces()
    {
        QTemporaryDir temp;
        const std::filesystem::path directory = temp.path().toStdString();
        QVERIFY(saveBaseline(directory, "main", reportOf({series("a", 10, 0.01, 3, 1)})).ok());
        QVERIFY(saveBaseline(directory, "main", reportOf({series("b", 10, 0.01, 4, 2)})).ok());
        const auto loaded = loadBaseline(directory, "main");
        QVERIFY(loaded.ok());
        QCOMPARE(loaded->measurements.size(), std::size_t(1));
        QCOMPARE(loaded->measurements[0].name, std::string("b"));
        // Nothing but the baseline: no temp file left behind.
        QCOMPARE(std::distance(std::filesystem::directory_iterator(directory),
                               std::filesystem::directory_iterator()),
                 1);
    }

    void failedSaveKeepsTheOldFile()
    {
        QTemporaryDir temp;
        const std::filesystem::path directory = temp.path().toStdString();
        QVERIFY(saveBaseline(directory, "main", reportOf({series("old", 10, 0.01, 3, 1)})).ok());
        const std::string before = readFile(directory / "main.baseline");

        // A file size limit makes the write of the new, larger file fail (as
        // a full disk would), whoever runs the test; root ignores a read-only
        // directory, but not this.
        struct sigaction ignore
        {};
        ignore.sa_handler = SIG_IGN;
        struct sigaction previous
        {};
        QCOMPARE(::sigaction(SIGXFSZ, &ignore, &previous), 0);
        rlimit limit{};
        QCOMPARE(::getrlimit(RLIMIT_FSIZE, &limit), 0);
        const rlimit old = limit;
        limit.rlim_cur = before.size();
        QCOMPARE(::setrlimit(RLIMIT_FSIZE, &limit), 0);
        const auto saved =
            saveBaseline(directory, "main", reportOf({series("new", 10, 0.01, 50, 2)}));
        QCOMPARE(::setrlimit(RLIMIT_FSIZE, &old), 0);
        QCOMPARE(::sigaction(SIGXFSZ, &previous, nullptr), 0);

        QVERIFY(!saved.ok());
        QCOMPARE(saved.error().code, BaselineError::WriteFailed);
        QVERIFY2(saved.error().message.find((directory / "main.baseline").string()) !=
                     std::string::npos,
                 saved.error().message.c_str());
        QCOMPARE(readFile(directory / "main.baseline"), before);
        QCOMPARE(std::distance(std::filesystem::directory_iterator(directory),
                               std::filesystem::directory_iterator()),
                 1);
        QVERIFY(loadBaseline(directory, "main").ok());

        // A read-only directory, where permissions apply.
        if (::geteuid() != 0) {
            std::filesystem::permissions(directory, std::filesystem::perms::owner_read |
                                                        std::filesystem::perms::owner_exec);
            const auto refused =
                saveBaseline(directory, "main", reportOf({series("new", 10, 0.01, 5, 2)}));
            std::filesystem::permissions(directory, std::filesystem::perms::owner_all);
            QVERIFY(!refused.ok());
            QCOMPARE(refused.error().code, BaselineError::WriteFailed);
            QCOMPARE(readFile(directory / "main.baseline"), before);
        }
    }

    void saveWhereADirectoryCannotBe()
    {
        QTemporaryDir temp;
        const std::filesystem::path file = temp.filePath("file").toStdString();
        writeFile(file, "x");
        const auto saved =
            saveBaseline(file / "baselines", "main", reportOf({series("a", 10, 0.01, 3, 1)}));
        QVERIFY(!saved.ok());
        QCOMPARE(saved.error().code, BaselineError::WriteFailed);
        QVERIFY2(saved.error().message.find(file.string()) != std::string::npos,
                 saved.error().message.c_str());
    }

    void notFound()
    {
        QTemporaryDir temp;
        const auto missing = loadBaseline(temp.path().toStdString(), "main");
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, BaselineError::NotFound);
        const auto noDirectory = loadBaseline(temp.filePath("nowhere").toStdString(), "main");
        QVERIFY(!noDirectory.ok());
        QCOMPARE(noDirectory.error().code, BaselineError::NotFound);
    }

    void theValidTemplateLoads()
    {
        // The damaged files below are this one with one fault each.
        QTemporaryDir temp;
        writeFile(temp.filePath("damaged.baseline").toStdString(),
                  joined(validLines()).toStdString());
        const auto loaded = loadBaseline(temp.path().toStdString(), "damaged");
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());
        QCOMPARE(loaded->measurements.size(), std::size_t(1));
        QCOMPARE(loaded->measurements[0].nanoseconds,
                 (std::vector<double>{1234.5, 2469.25, 3703.125}));
        QCOMPARE(loaded->measurements[0].unitsPerIteration, 1000.0);
        QCOMPARE(loaded->measurements[0].unit, std::string("rounds"));
        QCOMPARE(loaded->created, std::string("2026-01-02T03:04:05Z"));
    }

    void damaged_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        const QString valid = joined(validLines());
        QTest::newRow("empty") << QString() << 1;
        QTest::newRow("not a baseline") << "hello\n" << 1;
        QTest::newRow("unknown version") << replaced(1, "watchword-baseline 2") << 1;
        QTest::newRow("carriage returns") << QString(valid).replace("\n", "\r\n") << 1;
        QTest::newRow("other name") << replaced(2, "name other") << 2;
        QTest::newRow("missing field") << replaced(2, "nom damaged") << 2;
        QTest::newRow("bad time") << replaced(3, "created yesterday") << 3;
        QTest::newRow("control character") << replaced(4, "machine a\tb") << 4;
        QTest::newRow("profile with a space") << replaced(5, "profile very quick") << 5;
        QTest::newRow("negative benchmark count") << replaced(6, "benchmarks -1") << 6;
        QTest::newRow("too many benchmarks") << replaced(6, "benchmarks 1001") << 6;
        QTest::newRow("huge benchmark count")
            << replaced(6, "benchmarks 99999999999999999999") << 6;
        QTest::newRow("empty benchmark name") << replaced(7, "benchmark ") << 7;
        QTest::newRow("unknown sampling") << replaced(8, "sampling curved") << 8;
        QTest::newRow("negative units") << replaced(9, "units -5 rounds") << 9;
        QTest::newRow("units with two spaces") << replaced(9, "units 5  rounds") << 9;
        QTest::newRow("negative sample count") << replaced(10, "samples -3") << 10;
        QTest::newRow("zero samples") << replaced(10, "samples 0") << 10;
        QTest::newRow("too many samples") << replaced(10, "samples 10001") << 10;
        QTest::newRow("signed sample count") << replaced(10, "samples +3") << 10;
        QTest::newRow("bad number") << replaced(11, "10 12x4.5") << 11;
        QTest::newRow("NaN") << replaced(12, "20 nan") << 12;
        QTest::newRow("infinity") << replaced(12, "20 inf") << 12;
        QTest::newRow("negative time") << replaced(12, "20 -1") << 12;
        QTest::newRow("fractional iterations") << replaced(13, "30.5 3703.125") << 13;
        QTest::newRow("zero iterations") << replaced(13, "0 3703.125") << 13;
        QTest::newRow("one number") << replaced(13, "30") << 13;
        QTest::newRow("three numbers") << replaced(13, "30 1 2") << 13;
        QTest::newRow("no end") << replaced(14, "benchmark more") << 14;
        QTest::newRow("more samples than counted") << replaced(14, "40 5000") << 14;
        QTest::newRow("something after end") << valid + "extra\n" << 15;
        QTest::newRow("blank line after end") << valid + "\n" << 15;
        // Truncation: in the middle of a sample line, and after a whole line.
        QTest::newRow("truncated mid-line") << valid.left(valid.indexOf("20 2469") + 5) << 12;
        QTest::newRow("truncated after a line") << valid.left(valid.indexOf("20 2469")) << 12;
        // A second benchmark of the same name.
        {
            QStringList lines = validLines();
            lines[5] = "benchmarks 2";
            lines.removeLast();
            lines << validLines().mid(6, 7) << "end";
            QTest::newRow("duplicate benchmark") << joined(lines) << 0;
        }
        QTest::newRow("overlong line") << replaced(4, "machine " + QString(5000, 'x')) << 4;
    }

    void damaged()
    {
        QFETCH(QString, text);
        QFETCH(int, line);
        QTemporaryDir temp;
        writeFile(temp.filePath("damaged.baseline").toStdString(), text.toStdString());
        const auto loaded = loadBaseline(temp.path().toStdString(), "damaged");
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.error().code, BaselineError::Malformed);
        const std::string& message = loaded.error().message;
        QVERIFY2(message.find(temp.filePath("damaged.baseline").toStdString()) != std::string::npos,
                 message.c_str());
        if (line > 0)
            QVERIFY2(message.find(": line " + std::to_string(line) + ": ") != std::string::npos,
                     message.c_str());
        else
            QVERIFY2(message.find("appears twice") != std::string::npos, message.c_str());
    }

    void oversizedFileIsRefusedUnread()
    {
        QTemporaryDir temp;
        const std::string path = temp.filePath("big.baseline").toStdString();
        {
            std::ofstream file(path);
            file << "watchword-baseline 1\n";
        }
        // Sparse: costs no disk.
        std::filesystem::resize_file(path, maximumBaselineBytes + 1);
        const auto loaded = loadBaseline(temp.path().toStdString(), "big");
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.error().code, BaselineError::Unreadable);
        QVERIFY(loaded.error().message.find("is larger than") != std::string::npos);
    }

    void notARegularFile()
    {
        QTemporaryDir temp;
        std::filesystem::create_directory(temp.filePath("folder.baseline").toStdString());
        const auto loaded = loadBaseline(temp.path().toStdString(), "folder");
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.error().code, BaselineError::Unreadable);
    }

    void listing()
    {
        QTemporaryDir temp;
        const std::filesystem::path directory = temp.path().toStdString();
        const Report report = reportOf({series("a", 10, 0.01, 3, 1)});
        for (const char* name : {"zeta", "alpha", "Main-2"})
            QVERIFY(saveBaseline(directory, name, report).ok());
        writeFile(directory / ".hidden.baseline", "x");
        writeFile(directory / "bad name.baseline", "x");
        writeFile(directory / "notes.txt", "x");
        std::filesystem::create_directory(directory / "folder.baseline");
        QCOMPARE(listBaselines(directory), (std::vector<std::string>{"Main-2", "alpha", "zeta"}));
        QVERIFY(listBaselines(directory / "nowhere").empty());
    }

    void verdicts_data()
    {
        QTest::addColumn<double>("factor");
        QTest::addColumn<int>("verdict");
        QTest::newRow("30 % slower") << 1.30 << int(stats::Verdict::Regressed);
        QTest::newRow("30 % faster") << 0.70 << int(stats::Verdict::Improved);
        QTest::newRow("the same") << 1.0 << int(stats::Verdict::NoChange);
        // Within the 5 % noise threshold: not a regression.
        QTest::newRow("2 % slower") << 1.02 << int(stats::Verdict::NoChange);
    }

    void verdicts()
    {
        QFETCH(double, factor);
        QFETCH(int, verdict);
        Baseline baseline;
        baseline.name = "main";
        baseline.measurements = {series("totp/sha1", 100, 0.01, 50, 11),
                                 series("only/in_baseline", 100, 0.01, 50, 12)};
        // Identical data for "the same"; a fresh series otherwise.
        std::vector<Measurement> current = {factor == 1.0
                                                ? baseline.measurements[0]
                                                : series("totp/sha1", 100 * factor, 0.01, 50, 13),
                                            series("only/in_current", 100, 0.01, 50, 14)};
        Measurement failed = series("only/in_baseline", 100, 0.01, 50, 15);
        failed.status = Status::Failed;
        current.push_back(failed);

        const auto changes = compareWithBaseline(baseline, current, defaultNoiseThreshold, 2000);
        // Only what was measured in both.
        QCOMPARE(changes.size(), std::size_t(1));
        const stats::Change& change = changes.at("totp/sha1");
        QCOMPARE(int(change.verdict), verdict);
        QVERIFY(change.relative.low <= change.relative.point);
        QVERIFY(change.relative.point <= change.relative.high);
        if (factor != 1.0)
            QVERIFY2(std::abs(change.relative.point - (factor - 1)) < 0.02,
                     qPrintable(QString::number(change.relative.point)));
        else
            QCOMPARE(change.relative.point, 0.0);
    }

    void comparesWhatWasSaved()
    {
        // The comparison reads the samples back from disk, as the CLI does.
        QTemporaryDir temp;
        const std::filesystem::path directory = temp.path().toStdString();
        const Report before = reportOf({series("totp/sha1", 100, 0.01, 50, 21)});
        QVERIFY(saveBaseline(directory, "main", before).ok());
        const auto baseline = loadBaseline(directory, "main");
        QVERIFY(baseline.ok());
        const auto changes =
            compareWithBaseline(baseline.value(), {series("totp/sha1", 130, 0.01, 50, 22)},
                                defaultNoiseThreshold, 2000);
        QCOMPARE(int(changes.at("totp/sha1").verdict), int(stats::Verdict::Regressed));
    }
};

QTEST_GUILESS_MAIN(TestBaseline)
#include "TestBaseline.moc"
