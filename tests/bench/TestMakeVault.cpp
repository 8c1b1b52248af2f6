// watchword-make-vault writes a vault that opens with the password it read
// from stdin (and not with another), holding the accounts and notes asked
// for in a mix of kinds; it never writes over a file and refuses bad input.
// The app started on such a vault with --unlock-stdin and --timing unlocks
// it and writes the measurements bench/app_performance.py reads.
#include "common/TestSupport.h"
#include "otp/OtpParameters.h"
#include "vault/Records.h"
#include "vault/Vault.h"
#include "vault/VaultFile.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>
#include <variant>

using namespace watchword;

namespace {

struct Outcome
{
    int exitCode = -1;
    QByteArray out;
    QByteArray errors;
};

Outcome run(const QString& program, const QStringList& arguments, const QByteArray& input,
            const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment(),
            int timeoutMilliseconds = 60000)
{
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(program, arguments);
    Outcome outcome;
    if (!process.waitForStarted())
        return outcome;
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMilliseconds)) {
        process.kill();
        process.waitForFinished();
        return outcome;
    }
    outcome.out = process.readAllStandardOutput();
    outcome.errors = process.readAllStandardError();
    outcome.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    return outcome;
}

Outcome makeVault(const QString& path, int accounts, int notes, const QByteArray& input)
{
    return run(QStringLiteral(WATCHWORD_MAKE_VAULT),
               {path, QStringLiteral("--accounts"), QString::number(accounts),
                QStringLiteral("--notes"), QString::number(notes)},
               input);
}

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A password no earlier run used.
QByteArray freshPassword()
{
    return "make-vault test " + QByteArray::number(QRandomGenerator::system()->generate64(), 16);
}

} // namespace

class TestMakeVault : public QObject
{
    Q_OBJECT

private slots:
    void writesWhatWasAskedFor()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("v.wwv"));
        const QByteArray password = freshPassword();
        const Outcome made = makeVault(path, 20, 3, password + "\n");
        QVERIFY2(made.exitCode == 0, made.errors.constData());
        QVERIFY2(made.errors.isEmpty(), made.errors.constData());
        QVERIFY(made.out.contains("20 accounts, 3 notes"));

        const QByteArray file = readFile(path);
        const auto header = vault::decodeHeader(test::view(file));
        QVERIFY(bool(header));
        QCOMPARE(header->passwordSlot.iterations, vault::minimumPasswordIterations);
        QVERIFY(header->passwordSlot.iterationsPerSecond > 0);

        const auto opened =
            vault::Vault::unlockWithPassword(test::view(file), test::view(password));
        QVERIFY2(bool(opened), opened ? "" : opened.error().message.c_str());
        QCOMPARE(opened->recordCount(), std::size_t(23));
        int accounts = 0;
        int notes = 0;
        QSet<QString> shapes; // kind, hash, digits, period
        QSet<QString> issuers;
        for (std::size_t i = 0; i < opened->recordCount(); ++i) {
            const auto& record = opened->record(i);
            if (const auto* account = std::get_if<vault::OtpAccount>(&record)) {
                ++accounts;
                const auto& p = account->parameters;
                shapes.insert(QStringLiteral("%1 %2 %3 %4")
                                  .arg(QString::fromLatin1(otp::kindName(p.kind)))
                                  .arg(int(p.algorithm))
                                  .arg(p.digits)
                                  .arg(p.period));
                issuers.insert(QString::fromStdString(account->issuer));
                QVERIFY(!account->secret.empty());
            } else {
                ++notes;
                QVERIFY(!std::get<vault::SecureNote>(record).body.empty());
            }
        }
        QCOMPARE(accounts, 20);
        QCOMPARE(notes, 3);
        // A mix even in a small vault: plain TOTP and at least three other shapes.
        QVERIFY2(shapes.size() >= 4, qPrintable(QStringList(shapes.values()).join(u", ")));
        QCOMPARE(issuers.size(), 20);

        // Another password does not open it.
        const auto wrong =
            vault::Vault::unlockWithPassword(test::view(file), test::view(password + "x"));
        QVERIFY(!wrong);
        QCOMPARE(wrong.error().code, vault::VaultError::WrongPassword);
    }

    // The product's own reader agrees.
    void theCliListsIt()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("v.wwv"));
        const QByteArray password = freshPassword();
        QCOMPARE(makeVault(path, 20, 2, password + "\n").exitCode, 0);
        const Outcome listed = run(QStringLiteral(WATCHWORD_CLI),
                                   {QStringLiteral("vault"), QStringLiteral("list"), path,
                                    QStringLiteral("--json"), QStringLiteral("--password-stdin")},
                                   password + "\n");
        QVERIFY2(listed.exitCode == 0, listed.errors.constData());
        const QJsonArray records = QJsonDocument::fromJson(listed.out)["records"].toArray();
        int accounts = 0;
        int notes = 0;
        for (const auto& record : records) {
            const QString kind = record[QStringLiteral("kind")].toString();
            accounts += kind == QStringLiteral("account");
            notes += kind == QStringLiteral("note");
        }
        QCOMPARE(accounts, 20);
        QCOMPARE(notes, 2);
    }

    void neverWritesOverAFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("v.wwv"));
        QCOMPARE(makeVault(path, 2, 0, freshPassword() + "\n").exitCode, 0);
        const QByteArray before = readFile(path);
        const Outcome again = makeVault(path, 5, 0, freshPassword() + "\n");
        QCOMPARE(again.exitCode, 1);
        QVERIFY(!again.errors.isEmpty());
        QCOMPARE(readFile(path), before);
    }

    void refusesBadInput_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("input");
        QTest::newRow("no password") << QStringList{QStringLiteral("v.wwv")} << QByteArray();
        QTest::newRow("empty line") << QStringList{QStringLiteral("v.wwv")} << QByteArray("\n");
        // NFKD would change it; the tool does not normalize.
        QTest::newRow("not ASCII")
            << QStringList{QStringLiteral("v.wwv")} << QByteArray("caf\xc3\xa9 au lait\n");
        QTest::newRow("no file") << QStringList{} << QByteArray("password\n");
        QTest::newRow("bad count")
            << QStringList{QStringLiteral("v.wwv"), QStringLiteral("--accounts"),
                           QStringLiteral("ten")}
            << QByteArray("password\n");
        QTest::newRow("password as argument")
            << QStringList{QStringLiteral("v.wwv"), QStringLiteral("--password"),
                           QStringLiteral("secret")}
            << QByteArray("password\n");
    }

    void refusesBadInput()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, input);
        QTemporaryDir dir;
        for (auto& argument : arguments)
            if (argument == QStringLiteral("v.wwv"))
                argument = dir.filePath(argument);
        const Outcome outcome = run(QStringLiteral(WATCHWORD_MAKE_VAULT), arguments, input);
        QCOMPARE(outcome.exitCode, 2);
        QVERIFY(outcome.out.isEmpty());
        QVERIFY(!outcome.errors.isEmpty());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("v.wwv"))));
    }

#ifdef WATCHWORD_APP_BINARY
    void theAppUnlocksAndTimesIt_data()
    {
        QTest::addColumn<bool>("rightPassword");
        QTest::newRow("right password") << true;
        QTest::newRow("wrong password") << false;
    }

    void theAppUnlocksAndTimesIt()
    {
        QFETCH(bool, rightPassword);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("v.wwv"));
        const QByteArray password = freshPassword();
        QCOMPARE(makeVault(path, 20, 0, password + "\n").exitCode, 0);

        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        environment.insert(QStringLiteral("QT_QUICK_CONTROLS_STYLE"), QStringLiteral("Basic"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("runtime")));
        QFile::setPermissions(dir.filePath(QStringLiteral("runtime")), QFileDevice::ReadOwner |
                                                                           QFileDevice::WriteOwner |
                                                                           QFileDevice::ExeOwner);
        environment.insert(QStringLiteral("XDG_RUNTIME_DIR"),
                           dir.filePath(QStringLiteral("runtime")));
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"),
                           dir.filePath(QStringLiteral("config")));
        const QString timing = dir.filePath(QStringLiteral("timing.json"));
        const Outcome app = run(QStringLiteral(WATCHWORD_APP_BINARY),
                                {QStringLiteral("--vault"), path, QStringLiteral("--unlock-stdin"),
                                 QStringLiteral("--timing"), timing, QStringLiteral("--quit-after"),
                                 QStringLiteral("2.5")},
                                (rightPassword ? password : password + "x") + "\n", environment);
        QVERIFY2(app.exitCode == 0, app.errors.constData());
        QVERIFY2(app.errors.isEmpty(), app.errors.constData());
        // Neither stream carries the password.
        QVERIFY(!app.out.contains(password));

        const QJsonObject marks = QJsonDocument::fromJson(readFile(timing)).object();
        QVERIFY(!marks.isEmpty());
        QCOMPARE(marks[QStringLiteral("initial_state")].toString(), QStringLiteral("Locked"));
        QCOMPARE(marks[QStringLiteral("unlock_succeeded")].toBool(), rightPassword);
        const double firstFrame = marks[QStringLiteral("first_frame_ms")].toDouble();
        const double requested = marks[QStringLiteral("unlock_requested_ms")].toDouble();
        const double finished = marks[QStringLiteral("unlock_finished_ms")].toDouble();
        QVERIFY(firstFrame > 0);
        QVERIFY(requested >= firstFrame); // unlocking waits for the first frame
        QVERIFY(finished > requested);
        QCOMPARE(marks[QStringLiteral("kdf")][QStringLiteral("iterations")].toInt(),
                 int(vault::minimumPasswordIterations));
        QVERIFY(marks[QStringLiteral("kdf")][QStringLiteral("ms")].toDouble() > 0);
        QVERIFY(marks[QStringLiteral("memory_at_end")][QStringLiteral("vmhwm_kb")].toInt() > 0);
        QVERIFY(marks[QStringLiteral("main_monotonic_ns")].toDouble() > 0);
        // The clock ticked once a second (at least twice in 2.5 s).
        const QJsonArray ticks = marks[QStringLiteral("ticks")].toArray();
        QVERIFY(ticks.size() >= 2);
        for (const auto& tick : ticks)
            QVERIFY(tick.toObject().contains(QStringLiteral("wall_us")) &&
                    tick[QStringLiteral("wall_us")].toDouble() >= 0);
        if (rightPassword) {
            QCOMPARE(marks[QStringLiteral("accounts")].toInt(), 20);
            QVERIFY(marks[QStringLiteral("codes_frame_ms")].toDouble() >= finished);
            QVERIFY(marks.contains(QStringLiteral("memory_at_codes")));
        } else {
            QVERIFY(!marks.contains(QStringLiteral("codes_frame_ms")));
        }
    }
#endif
};

QTEST_GUILESS_MAIN(TestMakeVault)
#include "TestMakeVault.moc"
