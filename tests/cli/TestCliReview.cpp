// The unhappy paths an outside security review attacked, each through the
// real watchword-cli as a user (or an attacker) runs it: plaintext exports
// killed mid-write, secrets on the command line, weak passwords, the
// file-size limit, FIFOs, a failed directory flush after the rename, control
// characters in what is printed, a swapped recovery key, a read-only vault,
// parallel writers, and a failure injected at every system call of a save.
#include "CliTestSupport.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace watchword::test;

namespace {

const QByteArray password = "correct horse battery staple";
const QByteArray otherPassword = "a different long passphrase for this";
const QString totpUri =
    QStringLiteral("otpauth://totp/ACME:alice?secret=JBSWY3DPEHPK3PXP&issuer=ACME");
const QString hotpUri =
    QStringLiteral("otpauth://hotp/Bank:bob?secret=GEZDGNBVGY3TQOJQ&counter=7&issuer=Bank");
const QString faultLibrary = QStringLiteral(WATCHWORD_FAULTS);

// The environment with the fault injector preloaded to fail the n-th call
// of call, creating fired when it does.
QProcessEnvironment withFault(const QString& call, int n, const QString& fired)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("LD_PRELOAD", faultLibrary);
    environment.insert("WATCHWORD_FAULT", call + ':' + QString::number(n));
    environment.insert("WATCHWORD_FAULT_FIRED", fired);
    // The sanitizers' runtime wants to be first in the library list; the
    // injector goes in front of it on purpose.
    QString asan = environment.value("ASAN_OPTIONS");
    if (!asan.isEmpty())
        asan += ':';
    environment.insert("ASAN_OPTIONS", asan + "verify_asan_link_order=0");
    return environment;
}

// The names in directory, sorted.
QStringList namesIn(const QString& directory)
{
    QDir dir(directory);
    return dir.entryList(QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                         QDir::Name);
}

// One line on stderr, "watchword-cli: <message>", with exit status code.
void verifyOneLine(const Outcome& outcome, int code, const QByteArray& expected)
{
    QVERIFY2(outcome.exitCode == code, qPrintable(describe(outcome)));
    QVERIFY2(outcome.err.startsWith("watchword-cli: "), qPrintable(describe(outcome)));
    QVERIFY2(outcome.err.count('\n') == 1 && outcome.err.endsWith('\n'),
             qPrintable(describe(outcome)));
    QVERIFY2(outcome.err.contains(expected), qPrintable(describe(outcome)));
}

// watchword-cli with args and input, under a file-size limit of blocks (the
// shell's ulimit -f), as a crashed outcome if a signal ended it.
Outcome underFileSizeLimit(int blocks, const QStringList& args, const QByteArray& input)
{
    QProcess process;
    process.setProgram("/bin/sh");
    process.setArguments(
        QStringList{"-c", QStringLiteral("ulimit -f %1; exec \"$0\" \"$@\"").arg(blocks), cliPath} +
        args);
    process.start();
    Outcome outcome;
    if (!process.waitForStarted())
        return outcome;
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit)
        return outcome;
    outcome.exitCode = process.exitCode();
    outcome.out = process.readAllStandardOutput();
    outcome.err = process.readAllStandardError();
    return outcome;
}

// A vault in a temporary directory, and the commands run on it.
class Vault
{
public:
    Vault()
    {
        const Outcome made = runCli(
            {"vault", "init", m_path, "--target-ms", "1", "--password-stdin"}, password + '\n');
        m_made = made.exitCode == 0;
        for (const QByteArray& line : made.out.split('\n'))
            if (line.startsWith("recovery phrase: "))
                m_phrase = line.mid(17);
        if (!m_made)
            QTest::qFail(qPrintable("vault init: " + describe(made)), __FILE__, __LINE__);
    }

    bool made() const { return m_made; }
    const QString& path() const { return m_path; }
    QString directory() const { return m_directory.path(); }
    QString file(const QString& name) const { return m_directory.filePath(name); }
    const QByteArray& phrase() const { return m_phrase; }

    Outcome
    run(const QString& command, const QStringList& arguments, const QByteArray& input,
        const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment()) const
    {
        return runCli(QStringList{"vault", command, m_path} + arguments, input, {}, environment);
    }

    Outcome
    add(const QString& uri,
        const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment()) const
    {
        return run("add", {"--password-stdin"}, password + '\n' + uri.toUtf8() + '\n', environment);
    }

    // The accounts' "issuer:account" labels, as vault list --json has them.
    QStringList labels(const QByteArray& withPassword = password) const
    {
        const Outcome listed = run("list", {"--json", "--password-stdin"}, withPassword + '\n');
        QStringList labels;
        for (const auto& record : parseJsonObject(listed.out).value("records").toArray()) {
            const QJsonObject o = record.toObject();
            labels << (o.value("kind").toString() == "note"
                           ? o.value("title").toString()
                           : o.value("issuer").toString() + ':' + o.value("account").toString());
        }
        return labels;
    }

private:
    QTemporaryDir m_directory;
    QString m_path = m_directory.filePath("vault.wwv");
    QByteArray m_phrase;
    bool m_made = false;
};

} // namespace

class TestCliReview : public QObject
{
    Q_OBJECT

private slots:
    // Findings 1 and 4: a plaintext export that cannot be written whole
    // (here: past the file-size limit) fails with one clear line and leaves
    // no file holding any secret. (A writer killed mid-write leaves none
    // either: TestFileIo kills one.)
    void plaintextExportPastTheSizeLimitLeavesNothing()
    {
        Vault vault;
        if (!vault.made())
            return;
        for (int i = 0; i < 40; ++i)
            QCOMPARE(
                vault
                    .add(
                        QStringLiteral("otpauth://totp/Many:user%1?secret=JBSWY3DPEHPK3PXP").arg(i))
                    .exitCode,
                0);
        QTemporaryDir outputs;
        const QString out = outputs.filePath("codes.txt");
        // A limit of a block or two: the export's write fails part way.
        const Outcome outcome =
            underFileSizeLimit(2,
                               {"vault", "export", vault.path(), "--to", "otpauth", out,
                                "--plaintext", "--password-stdin"},
                               password + '\n');
        // SIGXFSZ would kill it without a word; ignored, EFBIG answers.
        verifyOneLine(outcome, 1, "File too large");
        QCOMPARE(namesIn(outputs.path()), QStringList());
    }

    // Finding 4: the file-size limit answers with a message, not SIGXFSZ,
    // and a vault save under it leaves the vault and no temp file.
    void fileSizeLimitIsAnError()
    {
        Vault vault;
        if (!vault.made())
            return;
        const QStringList before = namesIn(vault.directory());
        const QByteArray bytes = readBytes(vault.path());
        const QString noteFile = vault.file("body.txt");
        QVERIFY(writeBytes(noteFile, QByteArray(4000, 'x')));
        const Outcome outcome = underFileSizeLimit(1,
                                                   {"vault", "note", vault.path(), "--title", "big",
                                                    "--body-file", noteFile, "--password-stdin"},
                                                   password + '\n');
        verifyOneLine(outcome, 1, "File too large");
        QCOMPARE(readBytes(vault.path()), bytes);
        QStringList expected = before + QStringList{"body.txt"};
        expected.sort();
        QCOMPARE(namesIn(vault.directory()), expected);
    }

    // Finding 2: a link with a secret on the command line is refused, and
    // says how to give it instead; the vault is unchanged.
    void noSecretOnTheCommandLine()
    {
        Vault vault;
        if (!vault.made())
            return;
        const QByteArray bytes = readBytes(vault.path());
        const Outcome refused = vault.run("add", {totpUri, "--password-stdin"}, password + '\n');
        verifyOneLine(refused, 2, "takes no link on the command line");
        QVERIFY(refused.err.contains("/proc/PID/cmdline"));
        QVERIFY(!refused.err.contains("JBSWY3DPEHPK3PXP"));
        QCOMPARE(readBytes(vault.path()), bytes);
        QCOMPARE(vault.add(totpUri).exitCode, 0);

        // code still takes one, for test vectors, and says so every time.
        const Outcome code = runCli({"code", totpUri, "--at", "59"});
        QCOMPARE(code.exitCode, 0);
        QCOMPARE(code.out.count('\n'), 1);
        QVERIFY2(code.err.startsWith("watchword-cli: warning: the secret was given on the "
                                     "command line"),
                 code.err.constData());
        const Outcome piped = runCli({"code", "-", "--at", "59"}, totpUri.toUtf8() + '\n');
        QCOMPARE(piped.out, code.out);
        QVERIFY(piped.err.isEmpty());
    }

    // Finding 3: one password policy: init, passwd and recover refuse a
    // very weak password unless --allow-weak-password says otherwise.
    void weakPasswordsRefused_data()
    {
        QTest::addColumn<QByteArray>("weak");
        QTest::newRow("one letter") << QByteArray("a");
        QTest::newRow("common") << QByteArray("password1");
        QTest::newRow("keyboard run") << QByteArray("qwertyuiop");
        QTest::newRow("two words") << QByteArray("new password");
    }

    void weakPasswordsRefused()
    {
        QFETCH(QByteArray, weak);
        QTemporaryDir directory;
        const QString path = directory.filePath("weak.wwv");
        const Outcome init =
            runCli({"vault", "init", path, "--target-ms", "1", "--password-stdin"}, weak + '\n');
        verifyOneLine(init, 2, "too easy to guess");
        QVERIFY(!QFile::exists(path));
        const Outcome allowed = runCli({"vault", "init", path, "--target-ms", "1",
                                        "--password-stdin", "--allow-weak-password"},
                                       weak + '\n');
        QCOMPARE(allowed.exitCode, 0);

        Vault vault;
        if (!vault.made())
            return;
        const QByteArray bytes = readBytes(vault.path());
        verifyOneLine(vault.run("passwd", {"--target-ms", "1", "--password-stdin"},
                                password + '\n' + weak + '\n'),
                      2, "too easy to guess");
        verifyOneLine(vault.run("recover", {"--target-ms", "1", "--password-stdin"},
                                vault.phrase() + '\n' + weak + '\n'),
                      2, "too easy to guess");
        QCOMPARE(readBytes(vault.path()), bytes);
        QCOMPARE(vault
                     .run("passwd",
                          {"--target-ms", "1", "--password-stdin", "--allow-weak-password"},
                          password + '\n' + weak + '\n')
                     .exitCode,
                 0);
        QCOMPARE(vault.labels(weak), QStringList());
    }

    // Finding 5: a FIFO (or a directory, a device) as a path fails at once,
    // clearly, for the vault and for every input; the test would hang, not
    // fail, if a FIFO were opened for reading.
    void nonRegularFilesRefused()
    {
        QTemporaryDir directory;
        const QString fifo = directory.filePath("fifo");
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        verifyOneLine(runCli({"vault", "info", fifo}), 1, "is a FIFO (named pipe), not a regular");
        verifyOneLine(runCli({"vault", "list", fifo, "--password-stdin"}, password + '\n'), 1,
                      "is a FIFO");
        verifyOneLine(runCli({"vault", "add", fifo, "--password-stdin"},
                             password + '\n' + totpUri.toUtf8() + '\n'),
                      1, "is a FIFO");
        verifyOneLine(runCli({"vault", "info", directory.path()}), 1, "is a directory");
        verifyOneLine(runCli({"vault", "info", "/dev/zero"}), 1, "is a character device");

        Vault vault;
        if (!vault.made())
            return;
        verifyOneLine(
            vault.run("import", {"--from", "auto", fifo, "--password-stdin"}, password + '\n'), 2,
            "is a FIFO");
        verifyOneLine(vault.run("note", {"--title", "t", "--body-file", fifo, "--password-stdin"},
                                password + '\n'),
                      2, "is a FIFO");
        verifyOneLine(runCli({"qr", "decode", fifo}), 2, "is a FIFO");
    }

    // Finding 7: the directory flush after the rename fails: the change is
    // made, so exit 0, with a warning that says exactly that.
    void failedDirectoryFlushIsAWarning()
    {
        Vault vault;
        if (!vault.made())
            return;
        QTemporaryDir scratch;
        const QString fired = scratch.filePath("fired");
        const Outcome added = vault.add(totpUri, withFault("fsync-directory", 1, fired));
        QVERIFY(QFile::exists(fired));
        QVERIFY2(added.exitCode == 0, qPrintable(describe(added)));
        QVERIFY(
            QRegularExpression("^[0-9a-f]{32}\n$").match(QString::fromUtf8(added.out)).hasMatch());
        QVERIFY2(added.err.startsWith("watchword-cli: warning: saved " + vault.path().toUtf8() +
                                      ", but could not flush the directory") &&
                     added.err.contains("the change is made") && added.err.count('\n') == 1,
                 qPrintable(describe(added)));
        QCOMPARE(vault.labels(), QStringList{"ACME:alice"});

        // passwd: the new password is the one that works, and it says so.
        QFile::remove(fired);
        const Outcome changed = vault.run("passwd", {"--target-ms", "1", "--password-stdin"},
                                          password + '\n' + otherPassword + '\n',
                                          withFault("fsync-directory", 1, fired));
        QVERIFY(QFile::exists(fired));
        QVERIFY2(changed.exitCode == 0 && changed.err.contains("warning: saved"),
                 qPrintable(describe(changed)));
        QCOMPARE(vault.labels(otherPassword), QStringList{"ACME:alice"});
    }

    // Finding 8: what is printed cannot forge a line or reach the terminal.
    void controlCharactersEscaped()
    {
        QTemporaryDir directory;
        const QString forged = directory.filePath("x\nwatchword-cli: all is well");
        const Outcome info = runCli({"vault", "info", forged});
        verifyOneLine(info, 1, "x\\nwatchword-cli: all is well");

        Vault vault;
        if (!vault.made())
            return;
        // A label from an import file with an override and a zero-width
        // space shows them escaped in the preview, and the vault keeps the
        // label without them.
        const QString list = vault.file("list.txt");
        QVERIFY(writeBytes(list, "otpauth://totp/Pay%E2%80%8BPal%E2%80%AE:eve?secret="
                                 "JBSWY3DPEHPK3PXP&issuer=Pay%E2%80%8BPal%E2%80%AE\n"));
        const Outcome imported =
            vault.run("import", {"--from", "otpauth", list, "--password-stdin"}, password + '\n');
        QVERIFY2(imported.exitCode == 0, qPrintable(describe(imported)));
        QVERIFY2(imported.out.contains("Pay\\u200bPal\\u202e:eve"), imported.out.constData());
        QVERIFY(!imported.out.contains("\xe2\x80\xae"));
        QCOMPARE(vault.labels(), QStringList{"PayPal:eve"});

        // A note title with ESC and a line break: kept as spaces, listed as such.
        const QString body = vault.file("body.txt");
        QVERIFY(writeBytes(body, "text"));
        QCOMPARE(vault
                     .run("note",
                          {"--title", "\x1b[31mred\nline", "--body-file", body, "--password-stdin"},
                          password + '\n')
                     .exitCode,
                 0);
        const Outcome listed = vault.run("list", {"--password-stdin"}, password + '\n');
        QVERIFY(!listed.out.contains('\x1b'));
        QVERIFY2(listed.out.contains("note      [31mred line"), listed.out.constData());
        QCOMPARE(listed.out.count('\n'), 2);
    }

    // Finding 10: a former password holder swaps the recovery key. The owner
    // sees it (fingerprints, check-phrase) and locks them out (--new-phrase).
    void swappedRecoveryKeyIsVisibleAndUndone()
    {
        Vault vault;
        if (!vault.made())
            return;
        const QByteArray ownerPhrase = vault.phrase();
        const Outcome info = vault.run("info", {"--json"}, {});
        const QString ownerFingerprint =
            parseJsonObject(info.out).value("recovery_key_fingerprint").toString();
        QVERIFY(QRegularExpression("^[0-9A-F]{4}( [0-9A-F]{4}){4}$")
                    .match(ownerFingerprint)
                    .hasMatch());
        const Outcome matches = vault.run("check-phrase", {"--password-stdin"}, ownerPhrase + '\n');
        QCOMPARE(matches.exitCode, 0);
        QVERIFY(matches.out.contains(ownerFingerprint.toUtf8()));

        // The attacker, who knows the password, puts a key of theirs in the
        // file (keeping the password as it was).
        const Outcome swapped =
            vault.run("passwd", {"--target-ms", "1", "--new-phrase", "--password-stdin"},
                      password + '\n' + password + '\n');
        QCOMPARE(swapped.exitCode, 0);
        QByteArray attackerPhrase;
        for (const QByteArray& line : swapped.out.split('\n'))
            if (line.startsWith("recovery phrase: "))
                attackerPhrase = line.mid(17);
        QCOMPARE(attackerPhrase.count(' '), 23);

        // The owner's check says so, naming both fingerprints.
        const Outcome check = vault.run("check-phrase", {"--password-stdin"}, ownerPhrase + '\n');
        verifyOneLine(check, 1, "the recovery phrase does not open this vault");
        QVERIFY(check.err.contains(ownerFingerprint.toUtf8()));
        QVERIFY(check.err.contains("replaced its recovery key"));
        const Outcome recovery = vault.run("recover", {"--target-ms", "1", "--password-stdin"},
                                           ownerPhrase + '\n' + otherPassword + '\n');
        verifyOneLine(recovery, 1, "was replaced");

        // The owner's password change names the key it wraps for; with
        // --new-phrase the attacker's phrase stops working.
        const Outcome plain = vault.run("passwd", {"--target-ms", "1", "--password-stdin"},
                                        password + '\n' + otherPassword + '\n');
        QCOMPARE(plain.exitCode, 0);
        QVERIFY(plain.out.contains("; recovery key fingerprint "));
        QVERIFY(!plain.out.contains(ownerFingerprint.toUtf8()));
        const Outcome renewed = vault.run(
            "passwd", {"--target-ms", "1", "--new-phrase", "--words", "12", "--password-stdin"},
            otherPassword + '\n' + password + '\n');
        QCOMPARE(renewed.exitCode, 0);
        QVERIFY(renewed.out.contains("The old recovery phrase no longer opens this vault."));
        verifyOneLine(vault.run("check-phrase", {"--password-stdin"}, attackerPhrase + '\n'), 1,
                      "does not open this vault");
        QByteArray newPhrase;
        for (const QByteArray& line : renewed.out.split('\n'))
            if (line.startsWith("recovery phrase: "))
                newPhrase = line.mid(17);
        QCOMPARE(newPhrase.count(' '), 11);
        QCOMPARE(vault.run("check-phrase", {"--password-stdin"}, newPhrase + '\n').exitCode, 0);
    }

    // Finding 11: a vault its owner made read-only stays read-only.
    void readOnlyVaultIsNotReplaced()
    {
        Vault vault;
        if (!vault.made())
            return;
        QVERIFY(QFile::setPermissions(vault.path(), QFile::ReadOwner));
        const QByteArray bytes = readBytes(vault.path());
        const Outcome added = vault.add(totpUri);
        verifyOneLine(added, 1, "is read-only (mode 0400); not saved");
        QCOMPARE(readBytes(vault.path()), bytes);
        struct stat status
        {};
        QCOMPARE(::stat(QFile::encodeName(vault.path()).constData(), &status), 0);
        QCOMPARE(int(status.st_mode & 07777), 0400);
    }

    // The lock: a writer waits (--wait) for another instead of failing, so
    // parallel scripts succeed; --wait 0 keeps the old answer. The writers
    // all read the vault before any of them saves (the test holds the lock
    // until each has the lock file open, which it does after reading): each
    // must work on what the one before it saved, not on what it first read.
    void parallelWritersAllSucceed()
    {
        Vault vault;
        if (!vault.made())
            return;
        const QString lockPath = vault.path() + ".lock";
        const int lock =
            ::open(QFile::encodeName(lockPath).constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        QVERIFY(lock >= 0);
        QCOMPARE(::flock(lock, LOCK_EX), 0);
        const Outcome refused = vault.run("add", {"--wait", "0", "--password-stdin"},
                                          password + '\n' + totpUri.toUtf8() + '\n');
        verifyOneLine(refused, 1, "is in use by");

        constexpr int writers = 8;
        QList<QProcess*> processes;
        for (int i = 0; i < writers; ++i) {
            auto* process = new QProcess(this);
            process->setProgram(cliPath);
            process->setArguments(
                {"vault", "add", vault.path(), "--wait", "120", "--password-stdin"});
            process->start();
            process->write(password + '\n' +
                           QStringLiteral("otpauth://totp/Parallel:w%1?secret=JBSWY3DPEHPK3PXP")
                               .arg(i)
                               .toUtf8() +
                           '\n');
            process->closeWriteChannel();
            processes << process;
        }
        // Each writer, once it has read the vault, opens the lock file and
        // waits on it; a writer that ends before (an error) fails the test.
        const QString lockTarget = QFileInfo(lockPath).canonicalFilePath();
        const auto holdsLockFile = [&](QProcess* process) {
            const QDir fds(QStringLiteral("/proc/%1/fd").arg(process->processId()));
            const auto entries =
                fds.entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot);
            return std::any_of(entries.begin(), entries.end(), [&](const QString& fd) {
                return QFileInfo(fds.filePath(fd)).symLinkTarget() == lockTarget;
            });
        };
        QElapsedTimer waited;
        waited.start();
        for (auto* process : processes) {
            while (!holdsLockFile(process)) {
                QVERIFY2(process->state() != QProcess::NotRunning,
                         process->readAllStandardError().constData());
                QVERIFY2(waited.elapsed() < 60000, "a writer never opened the lock file");
                QTest::qWait(20);
            }
        }
        ::close(lock);
        for (auto* process : processes) {
            QVERIFY(process->waitForFinished(180000));
            QVERIFY2(process->exitCode() == 0, process->readAllStandardError().constData());
        }
        qDeleteAll(processes);
        QCOMPARE(vault.labels().size(), writers);
    }

    // A failure injected at each system call of a save, in turn: every run
    // either saves or fails with one clear line, and after it the vault
    // opens with the old or the new contents, never anything else, with no
    // temp file left and no backup lost before the new file was in place.
    void faultAtEverySaveStep_data()
    {
        QTest::addColumn<QString>("call");
        for (const char* call : {"open", "openat", "write", "fsync", "fsync-directory", "rename",
                                 "link", "linkat", "unlink", "fchmod", "flock", "ftruncate"})
            QTest::newRow(call) << QString::fromLatin1(call);
    }

    void faultAtEverySaveStep()
    {
        QFETCH(QString, call);
#ifdef WATCHWORD_CLI_SANITIZED
        // Each run unlocks at 600,000 iterations, slow under the sanitizers:
        // there the calls that a save's outcome turns on.
        if (!QStringList{"write", "fsync", "rename", "link"}.contains(call))
            QSKIP("the sanitizer build fails only write, fsync, rename and link");
#endif
        Vault vault;
        if (!vault.made())
            return;
        QCOMPARE(vault.add(totpUri).exitCode, 0);
        QTemporaryDir scratch;
        const QString fired = scratch.filePath("fired");
        int added = 1;
        for (int n = 1; n < 200; ++n) {
            QFile::remove(fired);
            const QByteArray before = readBytes(vault.path());
            const QString uri = QStringLiteral("otpauth://totp/Fault:%1-%2?secret=JBSWY3DPEHPK3PXP")
                                    .arg(call)
                                    .arg(n);
            const Outcome outcome = vault.add(uri, withFault(call, n, fired));
            const bool hit = QFile::exists(fired);
            const QString step = call + ':' + QString::number(n) + ": " + describe(outcome);
            if (outcome.exitCode == 0) {
                QVERIFY2(readBytes(vault.path()) != before, qPrintable(step));
                ++added;
            } else {
                QVERIFY2(outcome.exitCode == 1 && outcome.out.isEmpty() &&
                             outcome.err.count('\n') == 1,
                         qPrintable(step));
                QVERIFY2(readBytes(vault.path()) == before, qPrintable(step));
            }
            // Nothing but the vault, its lock and its backups (.0 until the
            // next save rotates it, if the rotation was what failed).
            for (const QString& name : namesIn(vault.directory()))
                QVERIFY2(
                    QRegularExpression("^vault\\.wwv(\\.lock|\\.[0-5])?$").match(name).hasMatch(),
                    qPrintable(step + " left " + name));
            if (!hit) {
                qInfo("%s: failed each of its %d calls in a save in turn", qPrintable(call), n - 1);
                break; // the n-th call never came: every one has been failed
            }
        }
        QCOMPARE(vault.labels().size(), added);
    }

    // The same for an export over an existing file (--force) and to a new
    // one: OUT holds the old contents or the whole new ones, and nothing
    // else is left beside it.
    void faultAtEveryExportStep_data()
    {
        QTest::addColumn<QString>("call");
        QTest::addColumn<bool>("replace");
        for (const char* call :
             {"open", "write", "fsync", "fsync-directory", "linkat", "rename", "fchmod", "flock"}) {
            QTest::addRow("%s, new file", call) << QString::fromLatin1(call) << false;
            QTest::addRow("%s, replacing", call) << QString::fromLatin1(call) << true;
        }
    }

    void faultAtEveryExportStep()
    {
        QFETCH(QString, call);
        QFETCH(bool, replace);
#ifdef WATCHWORD_CLI_SANITIZED
        if (!QStringList{"write", "linkat", "rename"}.contains(call))
            QSKIP("the sanitizer build fails only write, linkat and rename");
#endif
        Vault vault;
        if (!vault.made())
            return;
        QCOMPARE(vault.add(totpUri).exitCode, 0);
        QCOMPARE(vault.add(hotpUri).exitCode, 0);
        QTemporaryDir outputs;
        const QString out = outputs.filePath("accounts.txt");
        const QByteArray old = "an older export\n";
        QTemporaryDir scratch;
        const QString fired = scratch.filePath("fired");
        for (int n = 1; n < 100; ++n) {
            QFile::remove(fired);
            QFile::remove(out);
            if (replace)
                QVERIFY(writeBytes(out, old));
            QStringList arguments{"--to", "otpauth", out, "--plaintext", "--password-stdin"};
            if (replace)
                arguments << "--force";
            const Outcome outcome =
                vault.run("export", arguments, password + '\n', withFault(call, n, fired));
            const bool hit = QFile::exists(fired);
            const QString step = call + ':' + QString::number(n) + ": " + describe(outcome);
            if (outcome.exitCode == 0) {
                const QByteArray written = readBytes(out);
                QVERIFY2(written.count('\n') == 2 && written.contains("secret=GEZDGNBVGY3TQOJQ"),
                         qPrintable(step));
            } else {
                QVERIFY2(outcome.exitCode == 1 && outcome.out.isEmpty() &&
                             outcome.err.count('\n') == 1,
                         qPrintable(step));
                if (replace)
                    QVERIFY2(readBytes(out) == old, qPrintable(step));
                else
                    QVERIFY2(!QFile::exists(out), qPrintable(step));
            }
            const QStringList left = namesIn(outputs.path());
            QVERIFY2(left.isEmpty() || left == QStringList{"accounts.txt"},
                     qPrintable(step + " left " + left.join(", ")));
            if (!hit) {
                qInfo("%s: failed each of its %d calls in an export in turn", qPrintable(call),
                      n - 1);
                break;
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCliReview)
#include "TestCliReview.moc"
