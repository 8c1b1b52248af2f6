// watchword-cli's vault commands driven as a user drives them: the real
// binary, with the secrets on standard input or typed at its hidden prompts
// on a pseudo-terminal; two writers at once; a file changed by someone else
// while a command has it open; a writer killed in the middle of a save. A
// command that fails leaves the vault file as it was.
#include "CliTestSupport.h"
#include "PseudoTerminal.h"
#include "common/TestSupport.h"
#include "vault/Storage.h"
#include "vault/VaultFile.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <chrono>
#include <fcntl.h>
#include <functional>
#include <optional>
#include <random>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <thread>
#include <tuple>
#include <unistd.h>
#include <utility>

using namespace watchword;
using namespace watchword::test;

namespace {

const QByteArray vaultPassword = "correct horse battery staple";

// The CLI's prompts, as the terminal shows them.
const QByteArray passwordPrompt = "Vault password: ";
const QByteArray newPasswordPrompt = "New vault password: ";
const QByteArray repeatPrompt = "Repeat the new password: ";
const QByteArray phrasePrompt = "Recovery phrase: ";
const QByteArray linkPrompt = "otpauth link (not shown): ";

// The accounts of the vault round trip: one of each kind, non-default
// parameters where the URI allows them.
struct VaultAccountCase
{
    const char* name;
    QString uri;
    bool timeBased;
};

const QList<VaultAccountCase>& vaultAccountCases()
{
    static const QList<VaultAccountCase> cases = {
        {"totp sha1 8 digits",
         "otpauth://totp/ACME:alice@example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
         "&issuer=ACME&digits=8",
         true},
        {"totp sha256 60 s",
         "otpauth://totp/Example:bob?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA"
         "&algorithm=SHA256&period=60",
         true},
        {"hotp counter 7",
         "otpauth://hotp/Hosted:carol?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&counter=7", false},
        {"steam", "otpauth://totp/Steam:dave?secret=JBSWY3DPEHPK3PXP&issuer=Steam&encoder=steam",
         true},
    };
    return cases;
}

const QRegularExpression recordIdPattern(QStringLiteral("^[0-9a-f]{32}$"));

// The output of a successful "vault init" at path; returns the recovery phrase
// it printed (empty on failure, reported via QTest).
QByteArray verifyInitOutput(const Outcome& outcome, const QString& path)
{
    QByteArray phrase;
    [&] {
        QVERIFY2(outcome.exitCode == 0, qPrintable(describe(outcome)));
        QVERIFY2(outcome.err.isEmpty(), qPrintable(describe(outcome)));
        const QList<QByteArray> lines = outcome.out.split('\n');
        QVERIFY2(lines.size() == 6 && lines[5].isEmpty(), qPrintable(describe(outcome)));
        QVERIFY2(lines[0].startsWith("recovery phrase: "), qPrintable(describe(outcome)));
        QVERIFY2(QRegularExpression("^recovery key fingerprint: [0-9A-F]{4}( [0-9A-F]{4}){4}$")
                     .match(QString::fromUtf8(lines[1]))
                     .hasMatch(),
                 qPrintable(describe(outcome)));
        QVERIFY2(lines[2].contains("Write the recovery phrase down"),
                 qPrintable(describe(outcome)));
        QVERIFY2(lines[3].contains("600000 iterations") && lines[3].contains("target 1 ms"),
                 qPrintable(describe(outcome)));
        QCOMPARE(lines[4], "created " + path.toUtf8());
        phrase = lines[0].mid(int(sizeof("recovery phrase: ")) - 1);
        QCOMPARE(phrase.count(' '), 23);
    }();
    return phrase;
}

// "vault init" at path with the password and the fastest calibration;
// returns the recovery phrase it printed (empty on failure, reported via QTest).
QByteArray initVault(const QString& path, const QByteArray& password = vaultPassword)
{
    return verifyInitOutput(
        runCli({"vault", "init", path, "--target-ms", "1", "--password-stdin"}, password + '\n'),
        path);
}

// "vault list --json" with password: the records array (empty on failure).
QJsonArray listVault(const QString& path, const QByteArray& password = vaultPassword)
{
    const Outcome outcome =
        runCli({"vault", "list", path, "--json", "--password-stdin"}, password + '\n');
    const QByteArray line = verifySuccessLine(outcome);
    return parseJsonObject(line).value("records").toArray();
}

QStringList recordIds(const QJsonArray& records)
{
    QStringList ids;
    for (const auto& record : records)
        ids << record.toObject().value("id").toString();
    return ids;
}

// Exit 1, nothing on stdout, one line on stderr that names the file first,
// once ("watchword-cli: <path>: ..." or "watchword-cli: <path> is ..."), and
// contains expected.
void verifyOperationFailure(const Outcome& outcome, const QString& path, const QByteArray& expected)
{
    QVERIFY2(outcome.exitCode == 1, qPrintable(describe(outcome)));
    QVERIFY2(outcome.out.isEmpty(), qPrintable(describe(outcome)));
    const QByteArray named = "watchword-cli: " + path.toUtf8();
    QVERIFY2(outcome.err.startsWith(named + ": ") || outcome.err.startsWith(named + " "),
             qPrintable(describe(outcome)));
    QVERIFY2(!outcome.err.mid(named.size()).startsWith(": " + path.toUtf8()),
             qPrintable(describe(outcome)));
    QVERIFY2(outcome.err.endsWith('\n') && outcome.err.count('\n') == 1,
             qPrintable(describe(outcome)));
    QVERIFY2(outcome.err.contains(expected), qPrintable(describe(outcome)));
}

// Every entry of directory but the one named except, with its bytes: the
// vault, its backups and any temp file a save left.
using Files = QMap<QString, QByteArray>;
Files filesIn(const QString& directory, const QString& except)
{
    Files files;
    const QDir dir(directory);
    for (const auto& name :
         dir.entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot)) {
        if (name != except)
            files.insert(name, readBytes(dir.filePath(name)));
    }
    return files;
}

// The same names with the same bytes.
void verifySameFiles(const Files& actual, const Files& expected)
{
    QCOMPARE(actual.keys(), expected.keys());
    for (auto file = expected.begin(); file != expected.end(); ++file)
        QVERIFY2(actual.value(file.key()) == file.value(), qPrintable(file.key() + " changed"));
}

QByteArray sha256(const QByteArray& bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
}

// A vault of its own in a new temporary directory, made by "vault init" with
// vaultPassword and the fastest calibration, and the vault commands run on it.
class ScratchVault
{
public:
    // Makes the vault; false (reported through QTest) if that failed.
    bool init(const QByteArray& password = vaultPassword)
    {
        if (!isValid()) {
            QTest::qFail("no temporary directory for the vault", __FILE__, __LINE__);
            return false;
        }
        m_phrase = initVault(m_path, password);
        return !QTest::currentTestFailed();
    }

    bool isValid() const { return m_directory.isValid(); }
    const QString& path() const { return m_path; }
    QString directory() const { return m_directory.path(); }
    QString filePath(const QString& name) const { return m_directory.filePath(name); }
    QString lockPath() const { return m_path + ".lock"; }
    const QByteArray& phrase() const { return m_phrase; }
    QByteArray bytes() const { return readBytes(m_path); }
    // The files beside the lock file. Even a command that fails may write
    // its pid into that one; the others change only when a save succeeds.
    Files files() const { return filesIn(directory(), QFileInfo(lockPath()).fileName()); }

    // "vault <command> FILE <arguments...>" with input on stdin.
    Outcome run(const QString& command, const QStringList& arguments = {},
                const QByteArray& input = {}) const
    {
        return runCli(QStringList{"vault", command, m_path} + arguments, input);
    }

    // The same with --password-stdin: stdin holds the password, then more.
    Outcome runWithPassword(const QString& command, const QStringList& arguments = {},
                            const QByteArray& more = {},
                            const QByteArray& password = vaultPassword) const
    {
        return run(command, arguments + QStringList{"--password-stdin"}, password + '\n' + more);
    }

    // Adds the account of uri; its id (empty on failure, reported via QTest).
    QByteArray add(const QString& uri, const QByteArray& password = vaultPassword) const
    {
        return verifySuccessLine(runWithPassword("add", {}, uri.toUtf8() + '\n', password));
    }

    QJsonArray list(const QByteArray& password = vaultPassword) const
    {
        return listVault(m_path, password);
    }

private:
    QTemporaryDir m_directory;
    QString m_path = m_directory.filePath("vault.wwv");
    QByteArray m_phrase;
};

// ---- the terminal -----------------------------------------------------------

// One prompt and what is typed once it shows: a secret and Enter ("\r"), or
// Ctrl-D ("\x04") for the end of input.
struct Exchange
{
    QByteArray prompt;
    QByteArray typed;
};
using Dialogue = QList<Exchange>;

QByteArray withoutControlCharacters(QByteArray typed)
{
    while (!typed.isEmpty() && static_cast<unsigned char>(typed.back()) < 0x20)
        typed.chop(1);
    return typed;
}

// The terminal is set as it was before the CLI started: echo on again.
void verifyTerminalRestored(const PseudoTerminal& terminal)
{
    const termios now = terminal.settings();
    QVERIFY2((now.c_lflag & ECHO) != 0, qPrintable(describeSettings(now)));
    QVERIFY2(
        sameSettings(now, terminal.initialSettings()),
        qPrintable(QStringLiteral("now %1, before %2")
                       .arg(describeSettings(now), describeSettings(terminal.initialSettings()))));
}

// What every hidden prompt promises, after the CLI ended: the terminal showed
// the prompts and the line ends of the answers, nothing typed; no secret typed
// reached stdout or stderr; the terminal is set as before.
void verifyNothingEchoed(const PseudoTerminal& terminal, const TerminalOutcome& ended,
                         const QByteArray& expectedShown, const Dialogue& dialogue)
{
    QCOMPARE(ended.shown, expectedShown);
    for (const auto& exchange : dialogue) {
        const QByteArray secret = withoutControlCharacters(exchange.typed);
        if (secret.isEmpty())
            continue;
        QVERIFY2(!ended.shown.contains(secret), qPrintable(describe(ended)));
        QVERIFY2(!ended.outcome.out.contains(secret), qPrintable(describe(ended)));
        QVERIFY2(!ended.outcome.err.contains(secret), qPrintable(describe(ended)));
    }
    verifyTerminalRestored(terminal);
}

// Runs "watchword-cli vault <args...>" on a terminal, types each answer of
// dialogue once its prompt shows, and checks the promises of hidden prompts
// (verifyNothingEchoed). Failures are reported through QTest.
TerminalOutcome runAtTerminal(const QStringList& args, const Dialogue& dialogue,
                              const PseudoTerminal::Options& options = {})
{
    PseudoTerminal terminal;
    TerminalOutcome ended;
    if (!terminal.start(QStringList{"vault"} + args, options))
        return ended;
    QByteArray expectedShown;
    for (const auto& exchange : dialogue) {
        if (!terminal.waitForHiddenPrompt(exchange.prompt))
            return ended;
        terminal.type(exchange.typed);
        // ECHONL: with echo off the terminal still shows the end of a line;
        // at the end of input (Ctrl-D) the CLI ends the line itself, so its
        // error does not land on the prompt's line.
        const bool endsLine = exchange.typed.endsWith('\r') || exchange.typed.endsWith('\x04');
        expectedShown += exchange.prompt + (endsLine ? "\r\n" : "");
    }
    ended = terminal.finish();
    verifyNothingEchoed(terminal, ended, expectedShown, dialogue);
    return ended;
}

// "FILE" in args and "PHRASE" in what is typed stand for the vault's path and
// recovery phrase: data rows are made before the vault.
QStringList withPath(QStringList args, const QString& path)
{
    args.replaceInStrings(QRegularExpression("^FILE$"), path);
    return args;
}

Dialogue withPhrase(Dialogue dialogue, const QByteArray& phrase)
{
    for (auto& exchange : dialogue)
        exchange.typed.replace("PHRASE", phrase);
    return dialogue;
}

// ---- other writers ----------------------------------------------------------

// Holds <vault>.lock the way VaultStorage does (flock LOCK_EX on its own open
// file description), with holder written into it as a writer writes its pid.
class ForeignLock
{
public:
    ForeignLock(const QString& lockPath, const QByteArray& holder)
    {
        m_descriptor = ::open(QFile::encodeName(lockPath).constData(),
                              O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        m_locked = m_descriptor >= 0 && ::flock(m_descriptor, LOCK_EX | LOCK_NB) == 0 &&
                   ::ftruncate(m_descriptor, 0) == 0 &&
                   ::pwrite(m_descriptor, holder.constData(),
                            static_cast<std::size_t>(holder.size()), 0) == holder.size();
    }
    ~ForeignLock() { release(); }
    ForeignLock(const ForeignLock&) = delete;
    ForeignLock& operator=(const ForeignLock&) = delete;

    bool isLocked() const { return m_locked; }
    void release()
    {
        if (m_descriptor >= 0)
            ::close(m_descriptor);
        m_descriptor = -1;
        m_locked = false;
    }

private:
    int m_descriptor = -1;
    bool m_locked = false;
};

// Watches the vault's directory (inotify) for the two steps of a save that
// matter to a kill: its temp file created, and moved over the vault.
class SaveWatch
{
public:
    enum class Step { TempFileCreated, VaultReplaced };

    SaveWatch(const QString& directory, const QString& vaultPath)
        : m_vaultPath(vaultPath.toStdString()),
          m_vaultName(QFile::encodeName(QFileInfo(vaultPath).fileName()))
    {
        m_descriptor = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (m_descriptor >= 0 &&
            ::inotify_add_watch(m_descriptor, QFile::encodeName(directory).constData(),
                                IN_CREATE | IN_MOVED_TO) < 0) {
            ::close(m_descriptor);
            m_descriptor = -1;
        }
    }
    ~SaveWatch()
    {
        if (m_descriptor >= 0)
            ::close(m_descriptor);
    }
    SaveWatch(const SaveWatch&) = delete;
    SaveWatch& operator=(const SaveWatch&) = delete;

    bool isValid() const { return m_descriptor >= 0; }

    // Forgets the steps seen so far.
    void clear()
    {
        readEvents();
        m_tempFileCreated = false;
        m_vaultReplaced = false;
    }

    // True once step has happened (since clear); false if process ended
    // first or timeoutMs passed.
    bool waitFor(Step step, QProcess& process, int timeoutMs)
    {
        const QDeadlineTimer deadline(timeoutMs);
        for (;;) {
            readEvents();
            if (step == Step::TempFileCreated ? m_tempFileCreated : m_vaultReplaced)
                return true;
            if (deadline.hasExpired())
                return false;
            pollfd watched{m_descriptor, POLLIN, 0};
            // The step wakes us at once; whether the process ended is looked
            // at every 10 ms.
            if (::poll(&watched, 1, 10) > 0)
                continue;
            process.waitForFinished(0);
            if (process.state() == QProcess::NotRunning) {
                readEvents();
                return step == Step::TempFileCreated ? m_tempFileCreated : m_vaultReplaced;
            }
        }
    }

private:
    void readEvents()
    {
        alignas(inotify_event) char buffer[4096];
        for (;;) {
            const ssize_t got = ::read(m_descriptor, buffer, sizeof buffer);
            if (got <= 0)
                return;
            for (ssize_t offset = 0; offset < got;) {
                const auto* event = reinterpret_cast<const inotify_event*>(buffer + offset);
                if (event->len > 0) {
                    const std::string name(event->name);
                    if ((event->mask & IN_CREATE) &&
                        vault::VaultStorage::isTempFileName(m_vaultPath, name))
                        m_tempFileCreated = true;
                    if ((event->mask & IN_MOVED_TO) && name == m_vaultName.toStdString())
                        m_vaultReplaced = true;
                }
                offset += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
            }
        }
    }

    std::string m_vaultPath;
    QByteArray m_vaultName;
    int m_descriptor = -1;
    bool m_tempFileCreated = false;
    bool m_vaultReplaced = false;
};

QString roundUri(int round)
{
    return QStringLiteral("otpauth://totp/Round:round-%1?secret=JBSWY3DPEHPK3PXP&issuer=Round")
        .arg(round);
}

} // namespace

Q_DECLARE_METATYPE(Exchange)

class TestCliVault : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void vaultRoundTrip();
    void vaultAddUriFromStdin();
    void vaultPasswd();
    void vaultRecover();
    void vaultWrongSecretLeavesFileUnchanged_data();
    void vaultWrongSecretLeavesFileUnchanged();
    void vaultDamagedFile_data();
    void vaultDamagedFile();
    void vaultInitRefusesExistingFile();
    void vaultBadInput_data();
    void vaultBadInput();

    // Secrets typed at the terminal.
    void promptInit();
    void promptInitRefused_data();
    void promptInitRefused();
    void promptUnlock();
    void promptPasswd();
    void promptRecover();
    void promptImportExport();
    void promptEndOfInput_data();
    void promptEndOfInput();
    void promptHangUp_data();
    void promptHangUp();
    void promptInterrupted_data();
    void promptInterrupted();
    void promptKeepsIgnoredSignal_data();
    void promptKeepsIgnoredSignal();

    // Two writers, and a file changed while a writer has it open.
    void lockHeldByWaitingCommand();
    void lockHeldByAnotherProgram_data();
    void lockHeldByAnotherProgram();
    void waitingForPasswordHoldsNoLock();
    void changedOnDiskWhileWaiting_data();
    void changedOnDiskWhileWaiting();
    void initWhileFileAppears();

    // A writer killed at any moment.
    void killedWhileAdding();
};

void TestCliVault::initTestCase()
{
    QVERIFY2(QFile::exists(cliPath), qPrintable(cliPath));
}

// ---- secrets on standard input ------------------------------------------------

// init, info, add (TOTP, HOTP, Steam), list, codes (equal to "code" for the
// same URIs), note, remove: the whole life of a vault through the CLI.
void TestCliVault::vaultRoundTrip()
{
    ScratchVault vault;
    if (!vault.init())
        return;

    {
        const QJsonObject info = parseJsonObject(verifySuccessLine(vault.run("info", {"--json"})));
        QCOMPARE(info.value("format_version").toInt(), int(vault::formatVersion));
        QCOMPARE(info.value("records").toInt(), 0);
        QCOMPARE(info.value("iterations").toInt(), 600000);
        QCOMPARE(info.value("target_ms").toInt(), 1);
        QCOMPARE(info.value("generation").toInt(), 1);
        QCOMPARE(info.value("kdf").toString(), QStringLiteral("PBKDF2-HMAC-SHA256"));
        QCOMPARE(info.value("recovery_slot").toBool(), true);
        QCOMPARE(info.value("recovery_key_kind").toString(), QStringLiteral("recovery"));
        QCOMPARE(info.value("sharing_identity").toBool(), true);
        QCOMPARE(info.value("sharing_public_key").toString().size(), 66);
        QVERIFY(info.value("measured_iterations_per_second").toDouble() > 0);
        QCOMPARE(info.value("vault_id").toString().size(), 32);
        const Outcome text = vault.run("info");
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("iterations: 600000\n"), text.out.constData());
        QVERIFY2(
            text.out.contains(
                "records: 0 (accounts, notes, contacts and deleted records' tombstones together"),
            text.out.constData());
    }

    QMap<QString, QString> uriById;
    QStringList addedIds;
    for (const auto& c : vaultAccountCases()) {
        const Outcome added = vault.runWithPassword("add", {}, c.uri.toUtf8() + '\n');
        const QByteArray id = verifySuccessLine(added);
        QVERIFY2(recordIdPattern.match(QString::fromUtf8(id)).hasMatch(),
                 qPrintable(describe(added)));
        uriById.insert(QString::fromUtf8(id), c.uri);
        addedIds << QString::fromUtf8(id);
    }
    QCOMPARE(uriById.size(), vaultAccountCases().size());

    const QJsonArray listed = vault.list();
    QCOMPARE(listed.size(), vaultAccountCases().size());
    QStringList listedIssuers;
    for (const auto& value : listed) {
        const QJsonObject record = value.toObject();
        QVERIFY2(uriById.contains(record.value("id").toString()), qPrintable(jsonText(record)));
        QCOMPARE(record.value("kind").toString(), QStringLiteral("account"));
        listedIssuers << record.value("issuer").toString() + ":" +
                             record.value("account").toString() + ":" +
                             record.value("type").toString();
    }
    listedIssuers.sort();
    QCOMPARE(listedIssuers, (QStringList{"ACME:alice@example.com:totp", "Example:bob:totp",
                                         "Hosted:carol:hotp", "Steam:dave:steam"}));

    // Codes at fixed times equal "watchword-cli code" for the same URI; HOTP
    // shows the stored counter's code and does not advance it.
    for (const qint64 at : {qint64(59), qint64(1111111109), qint64(2000000000)}) {
        const QByteArray line = verifySuccessLine(
            vault.runWithPassword("codes", {"--at", QString::number(at), "--json"}));
        const QJsonObject codes = parseJsonObject(line);
        QCOMPARE(codes.value("time").toInteger(), at);
        const QJsonArray entries = codes.value("codes").toArray();
        QCOMPARE(entries.size(), vaultAccountCases().size());
        for (const auto& value : entries) {
            const QJsonObject entry = value.toObject();
            const QString uri = uriById.value(entry.value("id").toString());
            QVERIFY2(!uri.isEmpty(), qPrintable(jsonText(entry)));
            const bool hotp = uri.startsWith("otpauth://hotp/");
            QStringList codeArgs{"code", "--json", "-"};
            if (!hotp)
                codeArgs << "--at" << QString::number(at);
            const QJsonObject expected =
                parseJsonObject(verifySuccessLine(runCli(codeArgs, uri.toUtf8() + '\n')));
            QCOMPARE(entry.value("code").toString(), expected.value("code").toString());
            QCOMPARE(entry.value("type").toString(), expected.value("type").toString());
            QCOMPARE(entry.value("issuer").toString(), expected.value("issuer").toString());
            QCOMPARE(entry.value("account").toString(), expected.value("account").toString());
            if (hotp) {
                QCOMPARE(entry.value("counter").toInt(), 7);
                QVERIFY(!entry.contains("seconds_remaining"));
            } else {
                QCOMPARE(entry.value("seconds_remaining").toInt(),
                         expected.value("seconds_remaining").toInt());
            }
        }
        // The text form carries the same codes.
        const Outcome text = vault.runWithPassword("codes", {"--at", QString::number(at)});
        QCOMPARE(text.exitCode, 0);
        QCOMPARE(text.out.count('\n'), vaultAccountCases().size());
        for (const auto& value : entries) {
            const QJsonObject entry = value.toObject();
            QVERIFY2(text.out.contains(entry.value("id").toString().toUtf8() + "  " +
                                       entry.value("code").toString().toUtf8() + "  "),
                     text.out.constData());
        }
    }

    // A note: its body comes from a file and is never listed.
    const QString bodyPath = vault.filePath("body.txt");
    QVERIFY(writeBytes(bodyPath, "the safe combination is 12-34-56\n"));
    const QByteArray noteId = verifySuccessLine(
        vault.runWithPassword("note", {"--title", "Safe", "--body-file", bodyPath}));
    QCOMPARE(noteId.size(), 32);
    {
        const Outcome text = vault.runWithPassword("list");
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains(noteId + "  note     Safe\n"), text.out.constData());
        QVERIFY(!text.out.contains("combination"));
        QCOMPARE(text.out.count('\n'), vaultAccountCases().size() + 1);
    }
    QCOMPARE(
        parseJsonObject(verifySuccessLine(vault.run("info", {"--json"}))).value("records").toInt(),
        vaultAccountCases().size() + 1);

    // Remove the note and one account; the rest stays.
    const QString removedAccount = addedIds.value(0);
    for (const QByteArray& id : {noteId, removedAccount.toUtf8()}) {
        const Outcome removed = vault.runWithPassword("remove", {QString::fromUtf8(id)});
        QCOMPARE(verifySuccessLine(removed), "removed " + id);
    }
    const QJsonArray remaining = vault.list();
    QCOMPARE(remaining.size(), vaultAccountCases().size() - 1);
    for (const auto& value : remaining) {
        const QString id = value.toObject().value("id").toString();
        QVERIFY(id != removedAccount && id != QString::fromUtf8(noteId));
        QVERIFY(uriById.contains(id));
    }
    // Removing it again: no such record, the file unchanged.
    const QByteArray before = vault.bytes();
    verifyOperationFailure(vault.runWithPassword("remove", {removedAccount}), vault.path(),
                           "no record");
    QCOMPARE(vault.bytes(), before);
}

// "add FILE -" with --password-stdin: the password on line 1, the URI on line 2.
void TestCliVault::vaultAddUriFromStdin()
{
    ScratchVault vault;
    if (!vault.init())
        return;
    const VaultAccountCase& c = vaultAccountCases().front();
    const QByteArray id =
        verifySuccessLine(vault.runWithPassword("add", {"-"}, c.uri.toUtf8() + '\n'));
    const QJsonArray listed = vault.list();
    QCOMPARE(listed.size(), 1);
    QCOMPARE(listed.first().toObject().value("id").toString(), QString::fromUtf8(id));
    QCOMPARE(listed.first().toObject().value("issuer").toString(), QStringLiteral("ACME"));
    // The URI line missing: bad input, nothing written.
    const QByteArray before = vault.bytes();
    verifyUsageError(vault.runWithPassword("add", {"-"}));
    QCOMPARE(vault.bytes(), before);
}

void TestCliVault::vaultPasswd()
{
    ScratchVault vault;
    if (!vault.init())
        return;
    const QByteArray id = vault.add(vaultAccountCases().front().uri);

    const QByteArray newPassword = "Tr0ub4dor&3 \xc3\xa9t\xc3\xa9 and more"; // UTF-8, spaces
    const Outcome changed = vault.runWithPassword("passwd", {}, newPassword + '\n');
    QVERIFY2(verifySuccessLine(changed).startsWith("password changed: PBKDF2-HMAC-SHA256, 600000 "),
             qPrintable(describe(changed)));

    const QByteArray after = vault.bytes();
    verifyOperationFailure(vault.runWithPassword("list"), vault.path(), "wrong password");
    QCOMPARE(vault.bytes(), after);
    const QJsonArray listed = vault.list(newPassword);
    QCOMPARE(listed.size(), 1);
    QCOMPARE(listed.first().toObject().value("id").toString(), QString::fromUtf8(id));
    // The same text in NFC and NFD opens the vault: passwords are NFKD-normalized.
    const QByteArray decomposed = "Tr0ub4dor&3 e\xcc\x81te\xcc\x81 and more";
    QCOMPARE(vault.list(decomposed).size(), 1);

    // passwd with the old password again: refused, file unchanged.
    verifyOperationFailure(vault.runWithPassword("passwd", {}, "another\n"), vault.path(),
                           "wrong password");
    QCOMPARE(vault.bytes(), after);
}

void TestCliVault::vaultRecover()
{
    ScratchVault vault;
    if (!vault.init())
        return;
    vault.add(vaultAccountCases().front().uri);

    // A valid phrase of another keychain: refused, file unchanged.
    ScratchVault other;
    if (!other.init())
        return;
    QVERIFY(other.phrase() != vault.phrase());
    const QByteArray before = vault.bytes();
    verifyOperationFailure(
        vault.run("recover", {"--password-stdin"}, other.phrase() + "\nnew password\n"),
        vault.path(), ": wrong recovery phrase: its recovery key ");
    verifyOperationFailure(
        vault.run("recover", {"--password-stdin"}, other.phrase() + "\nnew password\n"),
        vault.path(), "), or the file was altered. If this is the phrase the vault was made with");
    QCOMPARE(vault.bytes(), before);
    // Not a phrase at all: bad input.
    verifyUsageError(
        vault.run("recover", {"--password-stdin"}, "abandon abandon abandon\nnew password\n"));
    QCOMPARE(vault.bytes(), before);

    const QByteArray newPassword = "set again after the recovery";
    const Outcome recovered =
        vault.run("recover", {"--password-stdin"}, vault.phrase() + '\n' + newPassword + '\n');
    QVERIFY2(verifySuccessLine(recovered).startsWith("password changed: "),
             qPrintable(describe(recovered)));
    QCOMPARE(vault.list(newPassword).size(), 1);
    verifyOperationFailure(vault.runWithPassword("list"), vault.path(), "wrong password");
    // The phrase still opens the vault after the password change (the
    // recovery slot wraps the new master key).
    verifySuccessLine(vault.run("recover", {"--password-stdin"},
                                vault.phrase() + "\na third password, also long\n"));
    QCOMPARE(vault.list("a third password, also long").size(), 1);
}

void TestCliVault::vaultWrongSecretLeavesFileUnchanged_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QStringList>("arguments"); // after FILE
    QTest::addColumn<QByteArray>("input");
    const QByteArray wrong = "not the password\n";
    const QString uri = vaultAccountCases().front().uri;
    auto row = [](const char* name, const char* command, const QStringList& arguments,
                  const QByteArray& input) {
        QTest::newRow(name) << QString::fromLatin1(command) << arguments << input;
    };
    row("list", "list", {"--password-stdin"}, wrong);
    row("codes", "codes", {"--password-stdin"}, wrong);
    row("add", "add", {"--password-stdin"}, wrong + uri.toUtf8() + '\n');
    row("add -", "add", {"--password-stdin", "-"}, wrong + uri.toUtf8() + '\n');
    row("remove", "remove", {"--password-stdin", "00112233445566778899aabbccddeeff"}, wrong);
    row("passwd", "passwd", {"--password-stdin"}, wrong + "new password\n");
    row("password with a trailing space", "list", {"--password-stdin"}, vaultPassword + " \n");
}

void TestCliVault::vaultWrongSecretLeavesFileUnchanged()
{
    QFETCH(QString, command);
    QFETCH(QStringList, arguments);
    QFETCH(QByteArray, input);
    ScratchVault vault;
    if (!vault.init())
        return;
    const QByteArray before = vault.bytes();
    // The message says the file may have been altered instead: the two
    // cannot be told apart (docs/FORMAT.md section 6.5).
    verifyOperationFailure(
        vault.run(command, arguments, input), vault.path(),
        ": wrong password, or the file was altered (the two cannot be told apart)\n");
    QCOMPARE(vault.bytes(), before);
    QVERIFY(!QFile::exists(vault.path() + ".1")); // no save happened
}

void TestCliVault::vaultDamagedFile_data()
{
    QTest::addColumn<int>("truncateTo"); // -1: keep the length (see vaultDamagedFile)
    QTest::addColumn<int>("flipBit");    // -1: none; else a bit index (see vaultDamagedFile)
    QTest::addColumn<QByteArray>("message");
    QTest::newRow("empty") << 0 << -1 << QByteArray("truncated");
    QTest::newRow("magic only") << 8 << -1 << QByteArray("truncated");
    QTest::newRow("header only") << 64 << -1 << QByteArray("truncated");
    QTest::newRow("one byte short") << -2 << -1 << QByteArray("truncated");
    QTest::newRow("flip in the magic") << -1 << 3 << QByteArray("not a");
    // Version 3 with bit 2 flipped is 7 (bits 0 and 1 give versions 2 and 1,
    // which the slot count then refuses).
    QTest::newRow("flip in the version") << -1 << 8 * 9 + 2 << QByteArray("unsupported");
    QTest::newRow("flip in the iterations") << -1 << 8 * 70 << QByteArray("corrupted");
    QTest::newRow("flip in a record") << -1 << 8 * 600 << QByteArray("corrupted");
    QTest::newRow("flip in the checksum") << -1 << -3 << QByteArray("corrupted");
    // The checksum made to match again: only the keys can tell.
    QTest::newRow("flip in a record, checksum fixed") << -4 << 8 * 600 << QByteArray("tampered");
    QTest::newRow("flip in the manifest, checksum fixed") << -4 << -5 << QByteArray("tampered");
}

void TestCliVault::vaultDamagedFile()
{
    QFETCH(int, truncateTo); // -2: one byte short; -4: full length, checksum fixed after the flip
    QFETCH(int, flipBit);    // -3: in the checksum; -5: in the manifest
    QFETCH(QByteArray, message);
    ScratchVault vault;
    if (!vault.init())
        return;
    verifySuccessLine(
        vault.runWithPassword("add", {}, vaultAccountCases().front().uri.toUtf8() + '\n'));
    QByteArray damaged = vault.bytes();
    QVERIFY(damaged.size() > 600);
    if (truncateTo == -2)
        damaged.chop(1);
    else if (truncateTo >= 0)
        damaged.truncate(truncateTo);
    if (flipBit >= 0)
        damaged[flipBit / 8] = char(damaged[flipBit / 8] ^ (1 << (flipBit % 8)));
    else if (flipBit == -3)
        damaged[damaged.size() - 1] = char(damaged[damaged.size() - 1] ^ 0x01);
    else if (flipBit == -5)
        damaged[damaged.size() - 33] = char(damaged[damaged.size() - 33] ^ 0x80);
    if (truncateTo == -4) {
        const QByteArray body = damaged.left(damaged.size() - 32);
        damaged = body + QCryptographicHash::hash(body, QCryptographicHash::Sha256);
    }
    QVERIFY(writeBytes(vault.path(), damaged));

    const QByteArray pw = vaultPassword + '\n';
    const QList<std::tuple<QString, QStringList, QByteArray>> commands = {
        {"list", {"--password-stdin"}, pw},
        {"codes", {"--password-stdin"}, pw},
        {"add", {"--password-stdin"}, pw + vaultAccountCases()[1].uri.toUtf8() + '\n'},
        {"passwd", {"--password-stdin"}, pw + "new password\n"},
        {"info", {}, {}},
    };
    for (const auto& [command, arguments, input] : commands) {
        const Outcome outcome = vault.run(command, arguments, input);
        if (truncateTo == -4 && command == "info") {
            // info uses no key: a change made by someone who fixed the
            // checksum is beyond what it can see, and it says nothing of trust.
            QVERIFY2(outcome.exitCode == 0, qPrintable(describe(outcome)));
            QCOMPARE(vault.bytes(), damaged);
            continue;
        }
        verifyOperationFailure(outcome, vault.path(), message);
        QVERIFY2(!outcome.err.contains("wrong password"), qPrintable(describe(outcome)));
        QCOMPARE(vault.bytes(), damaged);
    }
}

void TestCliVault::vaultInitRefusesExistingFile()
{
    ScratchVault vault;
    if (!vault.init())
        return;
    const QByteArray before = vault.bytes();
    verifyOperationFailure(vault.run("init", {"--target-ms", "1", "--password-stdin"}, "other\n"),
                           vault.path(), "already exists");
    QCOMPARE(vault.bytes(), before);
    // Any file, not only a vault.
    const QString plain = vault.filePath("notes.txt");
    QVERIFY(writeBytes(plain, "keep me"));
    verifyOperationFailure(
        runCli({"vault", "init", plain, "--target-ms", "1", "--password-stdin"}, "pw\n"), plain,
        "already exists");
    QCOMPARE(readBytes(plain), QByteArray("keep me"));
    // A missing vault: the operation fails.
    const QString missing = vault.filePath("missing.wwv");
    verifyOperationFailure(runCli({"vault", "list", missing, "--password-stdin"}, "pw\n"), missing,
                           "");
    verifyOperationFailure(runCli({"vault", "info", missing}), missing, "");
    QVERIFY(!QFile::exists(missing));
}

void TestCliVault::vaultBadInput_data()
{
    QTest::addColumn<QStringList>("args"); // "FILE" is replaced by a real vault's path
    QTest::addColumn<QByteArray>("input");
    const QByteArray pw = vaultPassword + '\n';
    const QString uri = vaultAccountCases().front().uri;
    auto row = [](const char* name, const QStringList& args, const QByteArray& input) {
        QTest::newRow(name) << args << input;
    };
    row("no subcommand", {"vault"}, {});
    row("unknown subcommand", {"vault", "open", "FILE"}, pw);
    row("init without file", {"vault", "init", "--password-stdin"}, pw);
    row("init two files", {"vault", "init", "a.wwv", "b.wwv", "--password-stdin"}, pw);
    row("init --words 13", {"vault", "init", "new.wwv", "--words", "13", "--password-stdin"}, pw);
    row("init --words 15", {"vault", "init", "new.wwv", "--words", "15", "--password-stdin"}, pw);
    row("init --target-ms 0", {"vault", "init", "new.wwv", "--target-ms", "0", "--password-stdin"},
        pw);
    row("init --target-ms 60001",
        {"vault", "init", "new.wwv", "--target-ms", "60001", "--password-stdin"}, pw);
    row("init --target-ms abc",
        {"vault", "init", "new.wwv", "--target-ms", "abc", "--password-stdin"}, pw);
    row("init empty password", {"vault", "init", "new.wwv", "--password-stdin"}, "\n");
    row("init no stdin", {"vault", "init", "new.wwv", "--password-stdin"}, {});
    row("init two stdin lines", {"vault", "init", "new.wwv", "--password-stdin"}, "a\nb\n");
    row("init password not UTF-8", {"vault", "init", "new.wwv", "--password-stdin"}, "pass\xff\n");
    row("init unknown option", {"vault", "init", "new.wwv", "--password", "x"}, {});
    row("add without URI", {"vault", "add", "FILE", "--password-stdin"}, pw);
    row("add link on the command line", {"vault", "add", "FILE", uri, "--password-stdin"},
        pw + uri.toUtf8() + '\n');
    row("add bad URI", {"vault", "add", "FILE", "--password-stdin"},
        pw + "otpauth://totp/x?secret=1\n");
    row("add not a URI", {"vault", "add", "FILE", "--password-stdin"}, pw + "hello\n");
    row("add empty password", {"vault", "add", "FILE", "--password-stdin"},
        "\n" + uri.toUtf8() + '\n');
    row("add --wait not a number", {"vault", "add", "FILE", "--wait", "soon", "--password-stdin"},
        pw + uri.toUtf8() + '\n');
    row("add --wait too long", {"vault", "add", "FILE", "--wait", "3601", "--password-stdin"},
        pw + uri.toUtf8() + '\n');
    row("add - bad URI line", {"vault", "add", "FILE", "-", "--password-stdin"}, pw + "nope\n");
    row("remove short id", {"vault", "remove", "FILE", "0011", "--password-stdin"}, pw);
    row("remove long id",
        {"vault", "remove", "FILE", "00112233445566778899aabbccddeeff00", "--password-stdin"}, pw);
    row("remove non-hex id",
        {"vault", "remove", "FILE", "00112233445566778899aabbccddeefg", "--password-stdin"}, pw);
    row("remove without id", {"vault", "remove", "FILE", "--password-stdin"}, pw);
    row("note without title", {"vault", "note", "FILE", "--body-file", "FILE", "--password-stdin"},
        pw);
    row("note without body file", {"vault", "note", "FILE", "--title", "T", "--password-stdin"},
        pw);
    row("note missing body file",
        {"vault", "note", "FILE", "--title", "T", "--body-file", "/nonexistent/body",
         "--password-stdin"},
        pw);
    row("codes bad --at", {"vault", "codes", "FILE", "--at", "-1", "--password-stdin"}, pw);
    row("list extra argument", {"vault", "list", "FILE", "extra", "--password-stdin"}, pw);
    row("list two stdin lines", {"vault", "list", "FILE", "--password-stdin"}, pw + "more\n");
    row("passwd one stdin line", {"vault", "passwd", "FILE", "--password-stdin"}, pw);
    row("passwd empty new password", {"vault", "passwd", "FILE", "--password-stdin"}, pw + "\n");
    row("recover empty phrase", {"vault", "recover", "FILE", "--password-stdin"}, "\nnew\n");
    row("info extra argument", {"vault", "info", "FILE", "extra"}, {});
    row("info --password-stdin", {"vault", "info", "FILE", "--password-stdin"}, pw);
}

void TestCliVault::vaultBadInput()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, input);
    ScratchVault vault;
    QVERIFY(vault.isValid());
    if (args.contains("FILE")) {
        if (!vault.init())
            return;
        args = withPath(args, vault.path());
    }
    const QByteArray before = vault.bytes();
    // Relative paths of init land in the temporary directory.
    const QString previous = QDir::currentPath();
    QVERIFY(QDir::setCurrent(vault.directory()));
    const Outcome outcome = runCli(args, input);
    QVERIFY(QDir::setCurrent(previous));
    verifyUsageError(outcome);
    QCOMPARE(vault.bytes(), before);
    QVERIFY(!QFile::exists(vault.filePath("new.wwv")));
    QVERIFY(!QFile::exists(vault.path() + ".1"));
}

// ---- secrets typed at the terminal --------------------------------------------

// init without --password-stdin: the new password is asked twice on the
// terminal, never echoed, and is the vault's password.
void TestCliVault::promptInit()
{
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    const QString path = directory.filePath("vault.wwv");
    const QByteArray password = "typed at the terminal, never shown";
    const TerminalOutcome ended =
        runAtTerminal({"init", path, "--target-ms", "1"},
                      {{newPasswordPrompt, password + '\r'}, {repeatPrompt, password + '\r'}});
    if (QTest::currentTestFailed())
        return;
    verifyInitOutput(ended.outcome, path);
    QCOMPARE(listVault(path, password).size(), 0);
}

void TestCliVault::promptInitRefused_data()
{
    QTest::addColumn<Dialogue>("dialogue");
    QTest::addColumn<QByteArray>("message"); // in the error line
    const QByteArray first = "the first choice\r";
    QTest::newRow("passwords differ")
        << Dialogue{{newPasswordPrompt, first}, {repeatPrompt, "the second choice\r"}}
        << QByteArray("differ");
    QTest::newRow("empty password") << Dialogue{{newPasswordPrompt, "\r"}} << QByteArray("empty");
    QTest::newRow("empty repeat") << Dialogue{{newPasswordPrompt, first}, {repeatPrompt, "\r"}}
                                  << QByteArray("empty");
    // Ctrl-D on an empty line: the end of input.
    QTest::newRow("Ctrl-D at the first prompt")
        << Dialogue{{newPasswordPrompt, "\x04"}} << QByteArray("end of input");
    QTest::newRow("Ctrl-D at the repeat prompt")
        << Dialogue{{newPasswordPrompt, first}, {repeatPrompt, "\x04"}}
        << QByteArray("end of input");
    // Typed but never confirmed with Enter: the first Ctrl-D hands over the
    // characters, the second ends the input. Only Enter confirms a secret.
    QTest::newRow("typed without Enter, then Ctrl-D twice")
        << Dialogue{{newPasswordPrompt, "unconfirmed\x04\x04"}} << QByteArray("end of input");
}

// A refused new password: exit 2 with one clear line, and no file at all.
void TestCliVault::promptInitRefused()
{
    QFETCH(Dialogue, dialogue);
    QFETCH(QByteArray, message);
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    const QString path = directory.filePath("vault.wwv");
    const TerminalOutcome ended = runAtTerminal({"init", path, "--target-ms", "1"}, dialogue);
    if (QTest::currentTestFailed())
        return;
    verifyUsageError(ended.outcome);
    QVERIFY2(ended.outcome.err.contains(message), qPrintable(describe(ended)));
    verifySameFiles(filesIn(directory.path(), {}), {});
}

// list, add and codes with the password typed; add - with the URI piped in
// and the password typed.
void TestCliVault::promptUnlock()
{
    ScratchVault vault;
    if (!vault.init())
        return;
    const Dialogue password{{passwordPrompt, vaultPassword + '\r'}};

    const QString uri = vaultAccountCases()[0].uri;
    const QByteArray id = verifySuccessLine(
        runAtTerminal({"add", vault.path()},
                      {{passwordPrompt, vaultPassword + '\r'}, {linkPrompt, uri.toUtf8() + '\r'}})
            .outcome);
    if (QTest::currentTestFailed())
        return;
    PseudoTerminal::Options piped;
    piped.standardInput = vaultAccountCases()[2].uri.toUtf8() + '\n';
    const QByteArray pipedId =
        verifySuccessLine(runAtTerminal({"add", vault.path(), "-"}, password, piped).outcome);
    if (QTest::currentTestFailed())
        return;

    const TerminalOutcome listed = runAtTerminal({"list", vault.path(), "--json"}, password);
    const QJsonArray records =
        parseJsonObject(verifySuccessLine(listed.outcome)).value("records").toArray();
    QCOMPARE(recordIds(records), (QStringList{QString::fromUtf8(id), QString::fromUtf8(pipedId)}));
    QCOMPARE(records[1].toObject().value("issuer").toString(), QStringLiteral("Hosted"));

    const TerminalOutcome codes =
        runAtTerminal({"codes", vault.path(), "--at", "59", "--json"}, password);
    const QJsonArray entries =
        parseJsonObject(verifySuccessLine(codes.outcome)).value("codes").toArray();
    QCOMPARE(entries.size(), 2);
    QCOMPARE(entries[0].toObject().value("code").toString(),
             parseJsonObject(verifySuccessLine(runCli({"code", "--json", "-", "--at", "59"},
                                                      uri.toUtf8() + '\n')))
                 .value("code")
                 .toString());

    // A wrong password typed: refused, nothing changed.
    const Files before = vault.files();
    const TerminalOutcome wrong = runAtTerminal(
        {"add", vault.path()}, {{passwordPrompt, "not the password\r"},
                                {linkPrompt, vaultAccountCases()[1].uri.toUtf8() + '\r'}});
    if (QTest::currentTestFailed())
        return;
    verifyOperationFailure(wrong.outcome, vault.path(), "wrong password");
    verifySameFiles(vault.files(), before);
}

// passwd at the terminal: the current password, then the new one twice.
void TestCliVault::promptPasswd()
{
    ScratchVault vault;
    if (!vault.init())
        return;
    const QByteArray id = vault.add(vaultAccountCases().front().uri);
    const QByteArray newPassword = "a new password typed twice";

    // The two new passwords differ: refused, nothing changed.
    const Files before = vault.files();
    const TerminalOutcome differ =
        runAtTerminal({"passwd", vault.path()}, {{passwordPrompt, vaultPassword + '\r'},
                                                 {newPasswordPrompt, newPassword + '\r'},
                                                 {repeatPrompt, "a new password typed once\r"}});
    if (QTest::currentTestFailed())
        return;
    verifyUsageError(differ.outcome);
    QVERIFY2(differ.outcome.err.contains("differ"), qPrintable(describe(differ)));
    verifySameFiles(vault.files(), before);

    const TerminalOutcome changed = runAtTerminal({"passwd", vault.path(), "--target-ms", "1"},
                                                  {{passwordPrompt, vaultPassword + '\r'},
                                                   {newPasswordPrompt, newPassword + '\r'},
                                                   {repeatPrompt, newPassword + '\r'}});
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(verifySuccessLine(changed.outcome).startsWith("password changed: "),
             qPrintable(describe(changed)));
    QCOMPARE(recordIds(vault.list(newPassword)), QStringList{QString::fromUtf8(id)});
    verifyOperationFailure(vault.runWithPassword("list"), vault.path(), "wrong password");
}

// recover at the terminal: the phrase, then a new password twice.
void TestCliVault::promptRecover()
{
    ScratchVault vault;
    if (!vault.init())
        return;
    const QByteArray id = vault.add(vaultAccountCases().front().uri);
    const QByteArray newPassword = "set with the recovery phrase";
    const TerminalOutcome recovered =
        runAtTerminal({"recover", vault.path()}, {{phrasePrompt, vault.phrase() + '\r'},
                                                  {newPasswordPrompt, newPassword + '\r'},
                                                  {repeatPrompt, newPassword + '\r'}});
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(verifySuccessLine(recovered.outcome).startsWith("password changed: "),
             qPrintable(describe(recovered)));
    QCOMPARE(recordIds(vault.list(newPassword)), QStringList{QString::fromUtf8(id)});
}

void TestCliVault::promptImportExport()
{
    ScratchVault vault;
    if (!vault.init())
        return;
    const QByteArray sourcePassword = "test"; // aegis_encrypted.json's, from EXPECTED.json

    // The source on stdin: both passwords at the terminal, the vault's first.
    PseudoTerminal::Options piped;
    piped.standardInput = readBytes(dataPath("import/aegis/aegis_encrypted.json"));
    const TerminalOutcome imported =
        runAtTerminal({"import", vault.path(), "--from", "aegis", "-"},
                      {{passwordPrompt, vaultPassword + '\r'},
                       {"Password of standard input: ", sourcePassword + '\r'}},
                      piped);
    QVERIFY2(imported.outcome.exitCode == 0, qPrintable(describe(imported)));
    QVERIFY2(imported.outcome.out.contains("\n7 accounts to add, 0 duplicates skipped\n"),
             qPrintable(describe(imported)));
    QCOMPARE(vault.list().size(), 7);

    // A wrong source password typed: refused, the vault as it was.
    const Files before = vault.files();
    const QString source = dataPath("import/aegis/aegis_encrypted.json");
    const TerminalOutcome wrong =
        runAtTerminal({"import", vault.path(), "--from", "aegis", source},
                      {{passwordPrompt, vaultPassword + '\r'},
                       {"Password of " + source.toUtf8() + ": ", "not it\r"}});
    QVERIFY2(wrong.outcome.exitCode == 1, qPrintable(describe(wrong)));
    verifySameFiles(vault.files(), before);

    // The new file's password typed twice; two that differ write nothing.
    const QString out = vault.filePath("phone.json");
    const TerminalOutcome differ =
        runAtTerminal({"export", vault.path(), "--to", "aegis-encrypted", out},
                      {{passwordPrompt, vaultPassword + '\r'},
                       {"New password of " + out.toUtf8() + ": ", "first\r"},
                       {"Repeat the password of " + out.toUtf8() + ": ", "second\r"}});
    QVERIFY2(differ.outcome.exitCode == 2, qPrintable(describe(differ)));
    QVERIFY(!QFileInfo::exists(out));
    const TerminalOutcome exported =
        runAtTerminal({"export", vault.path(), "--to", "aegis-encrypted", out},
                      {{passwordPrompt, vaultPassword + '\r'},
                       {"New password of " + out.toUtf8() + ": ", "ph0ne\r"},
                       {"Repeat the password of " + out.toUtf8() + ": ", "ph0ne\r"}});
    QVERIFY2(exported.outcome.exitCode == 0, qPrintable(describe(exported)));
    QVERIFY(QFileInfo::exists(out));
    QVERIFY(!readBytes(out).contains("Deno"));
}

void TestCliVault::promptEndOfInput_data()
{
    QTest::addColumn<QStringList>("args"); // FILE: the vault
    QTest::addColumn<Dialogue>("dialogue");
    const QByteArray password = vaultPassword + '\r';
    const QByteArray next = "the next password\r";
    const QByteArray end = "\x04";
    QTest::newRow("list, password")
        << QStringList{"list", "FILE"} << Dialogue{{passwordPrompt, end}};
    QTest::newRow("add, password") << QStringList{"add", "FILE"} << Dialogue{{passwordPrompt, end}};
    QTest::newRow("add, link") << QStringList{"add", "FILE"}
                               << Dialogue{{passwordPrompt, password}, {linkPrompt, end}};
    QTest::newRow("passwd, current password")
        << QStringList{"passwd", "FILE"} << Dialogue{{passwordPrompt, end}};
    // From here passwd holds the vault open and locked.
    QTest::newRow("passwd, new password")
        << QStringList{"passwd", "FILE"}
        << Dialogue{{passwordPrompt, password}, {newPasswordPrompt, end}};
    QTest::newRow("passwd, repeat")
        << QStringList{"passwd", "FILE"}
        << Dialogue{{passwordPrompt, password}, {newPasswordPrompt, next}, {repeatPrompt, end}};
    QTest::newRow("recover, phrase")
        << QStringList{"recover", "FILE"} << Dialogue{{phrasePrompt, end}};
    QTest::newRow("recover, new password")
        << QStringList{"recover", "FILE"}
        << Dialogue{{phrasePrompt, "PHRASE\r"}, {newPasswordPrompt, end}};
}

// Ctrl-D at a prompt: bad input (exit 2, one clear line), the vault unchanged.
void TestCliVault::promptEndOfInput()
{
    QFETCH(QStringList, args);
    QFETCH(Dialogue, dialogue);
    ScratchVault vault;
    if (!vault.init())
        return;
    vault.add(vaultAccountCases().front().uri);
    const Files before = vault.files();
    const TerminalOutcome ended =
        runAtTerminal(withPath(args, vault.path()), withPhrase(dialogue, vault.phrase()));
    if (QTest::currentTestFailed())
        return;
    verifyUsageError(ended.outcome);
    verifySameFiles(vault.files(), before);
}

void TestCliVault::promptHangUp_data()
{
    QTest::addColumn<QStringList>("args"); // FILE: the vault; NEW: a path beside it
    QTest::addColumn<Dialogue>("answered");
    QTest::addColumn<QByteArray>("hangUpAt"); // the prompt showing when the terminal closes
    QTest::addColumn<bool>("ignoreHangUp");
    const Dialogue unlocked{{passwordPrompt, vaultPassword + '\r'}};
    for (const bool ignore : {false, true}) {
        const char* how = ignore ? "SIGHUP ignored" : "SIGHUP";
        QTest::addRow("init, %s", how) << QStringList{"init", "NEW", "--target-ms", "1"}
                                       << Dialogue{} << newPasswordPrompt << ignore;
        QTest::addRow("list, %s", how)
            << QStringList{"list", "FILE"} << Dialogue{} << passwordPrompt << ignore;
        QTest::addRow("passwd holding the lock, %s", how)
            << QStringList{"passwd", "FILE"} << unlocked << newPasswordPrompt << ignore;
    }
}

// Runs "vault <args>" on a terminal against a fresh vault (FILE in args) or a
// path beside it that must stay absent (NEW), answers `answered`, waits at
// `prompt`, then lets disturb() act on the terminal. Returns how the CLI
// ended, after checking that no file changed and NEW was never created, and,
// unless disturb() closed the terminal, that its settings are as before.
TerminalOutcome disturbAtPrompt(ScratchVault& vault, QStringList args, const Dialogue& answered,
                                const QByteArray& prompt, const PseudoTerminal::Options& options,
                                const std::function<void(PseudoTerminal&)>& disturb,
                                bool closesTerminal = false)
{
    TerminalOutcome ended;
    const QString newPath = vault.filePath("new.wwv");
    args = withPath(args, vault.path()).replaceInStrings(QRegularExpression("^NEW$"), newPath);
    const Files before = vault.files();
    PseudoTerminal terminal;
    if (!terminal.start(QStringList{"vault"} + args, options))
        return ended;
    for (const auto& exchange : answered) {
        if (!terminal.waitForHiddenPrompt(exchange.prompt))
            return ended;
        terminal.type(exchange.typed);
    }
    if (!terminal.waitForHiddenPrompt(prompt))
        return ended;
    disturb(terminal);
    ended = terminal.finish();
    if (QTest::currentTestFailed())
        return ended;
    verifySameFiles(vault.files(), before);
    if (QFile::exists(newPath))
        QTest::qFail("the command created the vault it was interrupted creating", __FILE__,
                     __LINE__);
    if (!closesTerminal)
        verifyTerminalRestored(terminal);
    return ended;
}

// The terminal closes while the CLI waits at a prompt: the CLI ends (by the
// SIGHUP, or with a clear error where SIGHUP is ignored), changes nothing,
// and no longer holds the vault.
void TestCliVault::promptHangUp()
{
    QFETCH(QStringList, args);
    QFETCH(Dialogue, answered);
    QFETCH(QByteArray, hangUpAt);
    QFETCH(bool, ignoreHangUp);
    ScratchVault vault;
    if (!vault.init())
        return;
    PseudoTerminal::Options options;
    if (ignoreHangUp)
        options.ignoredSignals = {SIGHUP};
    const TerminalOutcome ended = disturbAtPrompt(
        vault, args, answered, hangUpAt, options,
        [](PseudoTerminal& terminal) { terminal.hangUp(); }, true);
    if (QTest::currentTestFailed())
        return;
    if (ignoreHangUp) {
        QVERIFY2(ended.signal == 0, qPrintable(describe(ended)));
        QVERIFY2(ended.outcome.exitCode == 1 || ended.outcome.exitCode == 2,
                 qPrintable(describe(ended)));
        QVERIFY2(ended.outcome.err.startsWith("watchword-cli: ") &&
                     ended.outcome.err.count('\n') == 1,
                 qPrintable(describe(ended)));
    } else {
        QVERIFY2(ended.signal == SIGHUP || (ended.signal == 0 && ended.outcome.exitCode != 0 &&
                                            ended.outcome.err.startsWith("watchword-cli: ")),
                 qPrintable(describe(ended)));
    }
    QVERIFY2(ended.outcome.out.isEmpty(), qPrintable(describe(ended)));
    // The lock went with the process.
    verifySuccessLine(
        vault.runWithPassword("add", {}, vaultAccountCases().front().uri.toUtf8() + '\n'));
}

void TestCliVault::promptInterrupted_data()
{
    QTest::addColumn<QStringList>("args"); // FILE: the vault; NEW: a path beside it
    QTest::addColumn<Dialogue>("answered");
    QTest::addColumn<QByteArray>("interruptAt"); // the prompt showing
    QTest::addColumn<int>("signal");             // SIGINT: Ctrl-C typed; else sent by kill
    const Dialogue unlocked{{passwordPrompt, vaultPassword + '\r'}};
    const QStringList init{"init", "NEW", "--target-ms", "1"};
    QTest::newRow("init, Ctrl-C") << init << Dialogue{} << newPasswordPrompt << int(SIGINT);
    QTest::newRow("init, SIGTERM") << init << Dialogue{} << newPasswordPrompt << int(SIGTERM);
    QTest::newRow("passwd holding the lock, Ctrl-C")
        << QStringList{"passwd", "FILE"} << unlocked << newPasswordPrompt << int(SIGINT);
}

// Ctrl-C at a prompt (or a SIGTERM): the CLI ends without changing anything,
// and the terminal echoes again, as after any other way out of a prompt.
void TestCliVault::promptInterrupted()
{
    QFETCH(QStringList, args);
    QFETCH(Dialogue, answered);
    QFETCH(QByteArray, interruptAt);
    QFETCH(int, signal);
    ScratchVault vault;
    if (!vault.init())
        return;
    const TerminalOutcome ended =
        disturbAtPrompt(vault, args, answered, interruptAt, {}, [signal](PseudoTerminal& terminal) {
            if (signal == SIGINT)
                terminal.type("\x03");
            else
                QCOMPARE(::kill(terminal.pid(), signal), 0);
        });
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(ended.signal == signal || (ended.signal == 0 && ended.outcome.exitCode != 0),
             qPrintable(describe(ended)));
}

void TestCliVault::promptKeepsIgnoredSignal_data()
{
    QTest::addColumn<int>("signal");
    QTest::newRow("SIGINT") << int(SIGINT);
    QTest::newRow("SIGQUIT") << int(SIGQUIT);
    QTest::newRow("SIGTERM") << int(SIGTERM);
    QTest::newRow("SIGHUP") << int(SIGHUP);
}

// A signal the CLI was started with ignored (nohup, a script's trap '' INT)
// stays ignored at a prompt: it does not end the CLI, and the password typed
// after it still opens the vault. kill(), not a key: the terminal would also
// flush what is typed next, and an ignored signal is dropped when sent.
void TestCliVault::promptKeepsIgnoredSignal()
{
    QFETCH(int, signal);
    ScratchVault vault;
    if (!vault.init())
        return;
    PseudoTerminal terminal;
    PseudoTerminal::Options options;
    options.ignoredSignals = {signal};
    QVERIFY(terminal.start({"vault", "list", vault.path(), "--json"}, options));
    QVERIFY(terminal.waitForHiddenPrompt(passwordPrompt));
    QCOMPARE(::kill(terminal.pid(), signal), 0);
    terminal.type(vaultPassword + '\r');
    const TerminalOutcome ended = terminal.finish();
    QVERIFY2(ended.signal == 0, qPrintable(describe(ended)));
    QCOMPARE(parseJsonObject(verifySuccessLine(ended.outcome)).value("records").toArray().size(),
             0);
    verifyTerminalRestored(terminal);
}

// ---- two writers --------------------------------------------------------------

// passwd waiting for the new password has the vault open and locked: other
// writers are refused with the holder's pid and change nothing, readers go on,
// and once passwd is done the next writer goes through.
void TestCliVault::lockHeldByWaitingCommand()
{
    ScratchVault vault;
    if (!vault.init())
        return;
    const QByteArray id = vault.add(vaultAccountCases()[0].uri);

    PseudoTerminal passwd;
    QVERIFY(passwd.start({"vault", "passwd", vault.path()}));
    QVERIFY(passwd.answer(passwordPrompt, vaultPassword));
    QVERIFY(passwd.waitForHiddenPrompt(newPasswordPrompt));
    const QByteArray pid = QByteArray::number(passwd.pid());
    QCOMPARE(readBytes(vault.lockPath()), pid + '\n');

    const Files before = vault.files();
    const QByteArray holder = "is in use by process " + pid;
    const QString otherUri = vaultAccountCases()[1].uri;
    verifyOperationFailure(vault.runWithPassword("add", {"--wait", "0"}, otherUri.toUtf8() + '\n'),
                           vault.path(), holder);
    verifyOperationFailure(vault.runWithPassword("remove", {QString::fromUtf8(id)}), vault.path(),
                           holder);
    verifyOperationFailure(vault.runWithPassword("passwd", {}, "another password\n"), vault.path(),
                           holder);
    verifyOperationFailure(
        vault.run("recover", {"--password-stdin"}, vault.phrase() + "\nanother password\n"),
        vault.path(), holder);
    verifySameFiles(vault.files(), before);
    QCOMPARE(readBytes(vault.lockPath()), pid + '\n');
    // Readers take no lock.
    QCOMPARE(recordIds(vault.list()), QStringList{QString::fromUtf8(id)});

    const QByteArray newPassword = "changed while others waited";
    passwd.type(newPassword + '\r');
    QVERIFY(passwd.answer(repeatPrompt, newPassword));
    const TerminalOutcome changed = passwd.finish();
    QVERIFY2(verifySuccessLine(changed.outcome).startsWith("password changed: "),
             qPrintable(describe(changed)));

    const QByteArray otherId = vault.add(otherUri, newPassword);
    QCOMPARE(verifySuccessLine(
                 vault.runWithPassword("remove", {QString::fromUtf8(id)}, {}, newPassword)),
             "removed " + id);
    QCOMPARE(recordIds(vault.list(newPassword)), QStringList{QString::fromUtf8(otherId)});
}

void TestCliVault::lockHeldByAnotherProgram_data()
{
    QTest::addColumn<bool>("writesPid");
    QTest::newRow("its pid in the lock file") << true;
    QTest::newRow("the lock file empty") << false;
}

// Another program holds <vault>.lock as Storage.h documents it: every writer
// is refused and changes nothing, the lock file included; after the release
// the writers go through.
void TestCliVault::lockHeldByAnotherProgram()
{
    QFETCH(bool, writesPid);
    ScratchVault vault;
    if (!vault.init())
        return;
    const QByteArray id = vault.add(vaultAccountCases()[0].uri);
    const QString bodyPath = vault.filePath("body.txt");
    QVERIFY(writeBytes(bodyPath, "a note body\n"));

    const QByteArray pid = QByteArray::number(::getpid());
    ForeignLock lock(vault.lockPath(), writesPid ? pid + '\n' : QByteArray());
    QVERIFY(lock.isLocked());
    const Files before = vault.files();
    const QByteArray lockBefore = readBytes(vault.lockPath());
    const QByteArray holder =
        writesPid ? "is in use by process " + pid : "is in use by another process";
    const QString otherUri = vaultAccountCases()[1].uri;
    verifyOperationFailure(vault.runWithPassword("add", {"--wait", "0"}, otherUri.toUtf8() + '\n'),
                           vault.path(), holder);
    verifyOperationFailure(vault.runWithPassword("remove", {QString::fromUtf8(id)}), vault.path(),
                           holder);
    verifyOperationFailure(vault.runWithPassword("note", {"--title", "T", "--body-file", bodyPath}),
                           vault.path(), holder);
    verifyOperationFailure(vault.runWithPassword("passwd", {}, "another password\n"), vault.path(),
                           holder);
    verifyOperationFailure(
        vault.run("recover", {"--password-stdin"}, vault.phrase() + "\nanother password\n"),
        vault.path(), holder);
    verifySameFiles(vault.files(), before);
    QCOMPARE(readBytes(vault.lockPath()), lockBefore);
    QCOMPARE(recordIds(vault.list()), QStringList{QString::fromUtf8(id)});
    QCOMPARE(vault.run("info").exitCode, 0);

    lock.release();
    const QByteArray otherId = vault.add(otherUri);
    QCOMPARE(verifySuccessLine(vault.runWithPassword("remove", {QString::fromUtf8(id)})),
             "removed " + id);
    QCOMPARE(recordIds(vault.list()), QStringList{QString::fromUtf8(otherId)});
}

// add waiting for its password has not opened the vault yet: another writer
// goes through meanwhile, and the first then reads the vault with that
// change, so nothing is lost.
void TestCliVault::waitingForPasswordHoldsNoLock()
{
    ScratchVault vault;
    if (!vault.init())
        return;
    PseudoTerminal first;
    QVERIFY(first.start({"vault", "add", vault.path()}));
    QVERIFY(first.waitForHiddenPrompt(passwordPrompt));
    const QByteArray secondId = vault.add(vaultAccountCases()[1].uri);
    first.type(vaultPassword + '\r');
    QVERIFY(first.waitForHiddenPrompt(linkPrompt));
    first.type(vaultAccountCases()[0].uri.toUtf8() + '\r');
    const QByteArray firstId = verifySuccessLine(first.finish().outcome);
    QCOMPARE(recordIds(vault.list()),
             (QStringList{QString::fromUtf8(secondId), QString::fromUtf8(firstId)}));
}

void TestCliVault::changedOnDiskWhileWaiting_data()
{
    QTest::addColumn<QString>("command"); // passwd or recover: both open the vault, then ask
    QTest::addColumn<QString>("change");
    QTest::addColumn<QByteArray>("message");
    QTest::newRow("passwd, replaced") << "passwd"
                                      << "replace" << QByteArray("was replaced by another file");
    QTest::newRow("passwd, rewritten in place, size and time kept")
        << "passwd"
        << "rewrite" << QByteArray("was rewritten in place");
    QTest::newRow("passwd, grown") << "passwd"
                                   << "grow" << QByteArray("changed size");
    QTest::newRow("passwd, removed") << "passwd"
                                     << "remove" << QByteArray("was removed");
    QTest::newRow("recover, replaced") << "recover"
                                       << "replace" << QByteArray("was replaced by another file");
}

// Someone else changes the vault file (ignoring the lock, as a sync client or
// a restore from backup would) while passwd or recover has it open and waits
// for the new password: the save is refused, and what the other wrote stays.
void TestCliVault::changedOnDiskWhileWaiting()
{
    QFETCH(QString, command);
    QFETCH(QString, change);
    QFETCH(QByteArray, message);
    ScratchVault vault;
    if (!vault.init())
        return;
    const QByteArray older = vault.bytes();
    vault.add(vaultAccountCases()[0].uri);

    PseudoTerminal terminal;
    QVERIFY(terminal.start({"vault", command, vault.path()}));
    if (command == "passwd")
        QVERIFY(terminal.answer(passwordPrompt, vaultPassword));
    else
        QVERIFY(terminal.answer(phrasePrompt, vault.phrase()));
    QVERIFY(terminal.waitForHiddenPrompt(newPasswordPrompt));
    QCOMPARE(readBytes(vault.lockPath()), QByteArray::number(terminal.pid()) + '\n');

    const QByteArray path = QFile::encodeName(vault.path());
    if (change == "replace") {
        const QString replacement = vault.filePath("replacement");
        QVERIFY(writeBytes(replacement, older));
        QCOMPARE(::rename(QFile::encodeName(replacement).constData(), path.constData()), 0);
    } else if (change == "rewrite") {
        // Only the hash of the bytes can tell: same inode, size and mtime.
        struct stat was
        {};
        QCOMPARE(::stat(path.constData(), &was), 0);
        QByteArray bytes = vault.bytes();
        bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x01);
        const int file = ::open(path.constData(), O_WRONLY | O_CLOEXEC);
        QVERIFY(file >= 0);
        QCOMPARE(::pwrite(file, bytes.constData(), static_cast<std::size_t>(bytes.size()), 0),
                 ssize_t(bytes.size()));
        QCOMPARE(::close(file), 0);
        const timespec times[2] = {was.st_atim, was.st_mtim};
        QCOMPARE(::utimensat(AT_FDCWD, path.constData(), times, 0), 0);
        struct stat now
        {};
        QCOMPARE(::stat(path.constData(), &now), 0);
        QVERIFY(now.st_ino == was.st_ino && now.st_size == was.st_size &&
                now.st_mtim.tv_sec == was.st_mtim.tv_sec &&
                now.st_mtim.tv_nsec == was.st_mtim.tv_nsec);
    } else if (change == "grow") {
        QFile file(vault.path());
        QVERIFY(file.open(QIODevice::Append));
        QCOMPARE(file.write("appended"), qint64(8));
    } else {
        QVERIFY(QFile::remove(vault.path()));
    }
    const Files changed = vault.files();

    const QByteArray newPassword = "never saved after all";
    terminal.type(newPassword + '\r');
    QVERIFY(terminal.answer(repeatPrompt, newPassword));
    const TerminalOutcome ended = terminal.finish();
    verifyOperationFailure(ended.outcome, vault.path(), message);
    verifySameFiles(vault.files(), changed);
    verifyTerminalRestored(terminal);
}

// init waiting for the repeated password while a file appears at its path:
// the file is kept, init fails.
void TestCliVault::initWhileFileAppears()
{
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    const QString path = directory.filePath("vault.wwv");
    PseudoTerminal terminal;
    QVERIFY(terminal.start({"vault", "init", path, "--target-ms", "1"}));
    const QByteArray password = "a password for nothing";
    QVERIFY(terminal.answer(newPasswordPrompt, password));
    QVERIFY(terminal.waitForHiddenPrompt(repeatPrompt));
    QVERIFY(writeBytes(path, "someone else's file"));
    terminal.type(password + '\r');
    const TerminalOutcome ended = terminal.finish();
    verifyOperationFailure(ended.outcome, path, "already exists");
    verifySameFiles(filesIn(directory.path(), {}), {{"vault.wwv", "someone else's file"}});
}

// ---- a writer killed ------------------------------------------------------------

void TestCliVault::killedWhileAdding()
{
    // "vault add" SIGKILLed at a seeded random moment, round after round: in
    // even rounds anywhere in its run, in odd ones around the moment its save
    // moves the new file over the vault (timed from the creation of its temp
    // file). After every round the vault opens with the records it had or
    // with exactly the one added, never anything else; every backup is an
    // earlier state of the vault; and beside it lie only its backups, its
    // lock file and at most the temp file of a killed save, which the next
    // save removes. SIGKILL keeps the page cache: this tests the save
    // protocol, not a power cut.
#ifdef WATCHWORD_CLI_SANITIZED
    constexpr int rounds = 12; // each run takes several times longer
#else
    constexpr int rounds = 40;
#endif
    ScratchVault vault;
    if (!vault.init())
        return;
    const std::uint64_t seed = test::testSeed();
    std::mt19937_64 random(seed);
    SaveWatch watch(vault.directory(), vault.path());
    QVERIFY(watch.isValid());
    QTemporaryDir outputs;
    QVERIFY(outputs.isValid());
    // The password from a file: a pipe would be written only when the test
    // next waits on the process, after the kill.
    const QString passwordFile = outputs.filePath("password");
    QVERIFY(writeBytes(passwordFile, vaultPassword + '\n'));

    struct Kill
    {
        qint64 delay = 0;           // microseconds
        bool afterTempFile = false; // from the temp file's creation, else from the start
    };
    struct Run
    {
        bool killed = false;
        QByteArray id;                   // printed by a run that ended by itself
        qint64 runMicroseconds = 0;      // from the start to the end
        qint64 replaceMicroseconds = -1; // from the temp file to its move over the vault
    };
    // One "vault add" of the account of round, killed as kill says.
    auto add = [&](int round, std::optional<Kill> kill) {
        Run run;
        QProcess process;
        process.setProgram(cliPath);
        process.setArguments({"vault", "add", vault.path(), "--password-stdin"});
        const QString input = outputs.filePath("input");
        if (!writeBytes(input, vaultPassword + '\n' + roundUri(round).toUtf8() + '\n'))
            QTest::qFail("could not write the input file", __FILE__, __LINE__);
        process.setStandardInputFile(input);
        process.setStandardOutputFile(outputs.filePath("out"));
        process.setStandardErrorFile(outputs.filePath("err"));
        watch.clear();
        QElapsedTimer clock;
        clock.start();
        process.start();
        if (!process.waitForStarted(30000)) {
            QTest::qFail("could not start watchword-cli", __FILE__, __LINE__);
            return run;
        }
        if (!kill) {
            if (watch.waitFor(SaveWatch::Step::TempFileCreated, process, 30000)) {
                const qint64 created = clock.nsecsElapsed();
                // Without the move (a save that works otherwise), to the end.
                watch.waitFor(SaveWatch::Step::VaultReplaced, process, 30000);
                run.replaceMicroseconds = (clock.nsecsElapsed() - created) / 1000;
            }
        } else {
            if (kill->afterTempFile &&
                !watch.waitFor(SaveWatch::Step::TempFileCreated, process, 30000)) {
                QTest::qFail(qPrintable("round " + QString::number(round) +
                                        ": no save began; stderr: " +
                                        QString::fromUtf8(readBytes(outputs.filePath("err")))),
                             __FILE__, __LINE__);
            }
            std::this_thread::sleep_for(std::chrono::microseconds(kill->delay));
            process.kill();
        }
        // waitFor may have seen the end already.
        if (process.state() != QProcess::NotRunning && !process.waitForFinished(60000)) {
            process.kill();
            process.waitForFinished();
            QTest::qFail("watchword-cli did not finish within 60 s", __FILE__, __LINE__);
            return run;
        }
        run.runMicroseconds = clock.nsecsElapsed() / 1000;
        run.killed = process.exitStatus() == QProcess::CrashExit;
        if (!run.killed) {
            const Outcome outcome{process.exitCode(), readBytes(outputs.filePath("out")),
                                  readBytes(outputs.filePath("err"))};
            run.id = verifySuccessLine(outcome);
        }
        return run;
    };

    const QString vaultName = QFileInfo(vault.path()).fileName();
    // .0: the file a save replaced, until the rotation (or the next save,
    // after a kill) makes it .1.
    const QRegularExpression backupName(
        QStringLiteral("^%1\\.[0-5]$").arg(QRegularExpression::escape(vaultName)));
    QSet<QByteArray> states{sha256(vault.bytes())}; // every content the vault file has had
    QJsonArray records = vault.list();
    int killedBefore = 0;  // killed, the records as they were
    int killedAfter = 0;   // killed, the new record in place
    int finished = 0;      // ended by itself
    int tempFilesLeft = 0; // kills that left their save's temp file
    QSet<QString> temps;   // the temp files beside the vault after the last round
    // After a round: the records are the old ones or those plus the round's
    // account; the backups are earlier states; nothing else lies there.
    auto check = [&](int round, const Run& run, const QString& where) {
        const QJsonArray now = vault.list();
        if (QTest::currentTestFailed()) {
            qWarning("%s: the vault no longer opens", qPrintable(where));
            return;
        }
        bool added = false;
        if (now.size() == records.size() + 1) {
            QJsonArray kept = now;
            kept.removeLast();
            QJsonObject last = now.last().toObject();
            const QString id = last.take("id").toString();
            added = kept == records && !recordIds(records).contains(id) &&
                    recordIdPattern.match(id).hasMatch() &&
                    last == QJsonObject{{"kind", "account"},
                                        {"type", "totp"},
                                        {"issuer", "Round"},
                                        {"account", QStringLiteral("round-%1").arg(round)},
                                        {"tags", QJsonArray()}} &&
                    (run.killed || id == QString::fromUtf8(run.id));
        }
        QVERIFY2(added || (run.killed && now == records),
                 qPrintable(where +
                            QStringLiteral(": the vault holds neither the old records nor "
                                           "exactly the one added: ") +
                            jsonText(now)));
        if (!run.killed)
            ++finished;
        else if (added)
            ++killedAfter;
        else
            ++killedBefore;
        records = now;

        states.insert(sha256(vault.bytes()));
        const QSet<QString> before = std::exchange(temps, {});
        for (const auto& [name, bytes] : vault.files().asKeyValueRange()) {
            if (name == vaultName)
                continue;
            if (backupName.match(name).hasMatch())
                QVERIFY2(states.contains(sha256(bytes)),
                         qPrintable(where + QStringLiteral(": %1 is no earlier vault").arg(name)));
            else if (vault::VaultStorage::isTempFileName(vault.path().toStdString(),
                                                         name.toStdString()))
                temps.insert(name);
            else
                QFAIL(qPrintable(where + QStringLiteral(": a stray file %1").arg(name)));
        }
        QVERIFY2(temps.size() <= 1,
                 qPrintable(where + QStringLiteral(": %1 temp files").arg(temps.size())));
        tempFilesLeft += temps.isEmpty() || before.contains(*temps.begin()) ? 0 : 1;
        QVERIFY(QFile::exists(vault.lockPath()));
    };

    // Three runs to the end set the scale of the delays (their medians).
    QList<qint64> runTimes;
    QList<qint64> replaceTimes;
    for (int round = 0; round < 3; ++round) {
        const Run run = add(round, std::nullopt);
        check(round, run, QStringLiteral("run %1 to the end").arg(round));
        if (QTest::currentTestFailed())
            return;
        QVERIFY(run.replaceMicroseconds >= 0);
        runTimes << run.runMicroseconds;
        replaceTimes << run.replaceMicroseconds;
    }
    std::sort(runTimes.begin(), runTimes.end());
    std::sort(replaceTimes.begin(), replaceTimes.end());
    const qint64 runMicroseconds = runTimes[1];
    const qint64 replaceMicroseconds = std::max<qint64>(replaceTimes[1], 100);

    for (int round = 3; round < 3 + rounds; ++round) {
        Kill kill;
        kill.afterTempFile = round % 2 == 1;
        // Odd rounds: as likely before the new file is moved into place as after.
        const qint64 limit = kill.afterTempFile ? 2 * replaceMicroseconds : runMicroseconds;
        kill.delay = std::uniform_int_distribution<qint64>(0, limit)(random);
        const QString where = QStringLiteral("round %1 (seed %2, killed %3 us after its %4)")
                                  .arg(round)
                                  .arg(seed)
                                  .arg(kill.delay)
                                  .arg(kill.afterTempFile ? "temp file appeared" : "start");
        const Run run = add(round, kill);
        if (QTest::currentTestFailed())
            return;
        check(round, run, where);
        if (QTest::currentTestFailed())
            return;
    }

    // One more save goes through and removes any temp file left.
    const int last = 3 + rounds;
    check(last, add(last, std::nullopt), QStringLiteral("the last run"));
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(records.size(), finished + killedAfter);
    QVERIFY2(temps.isEmpty(), qPrintable(temps.values().join(' ') + " left after a save"));
    qInfo("%d rounds (a run %lld us, temp file to rename %lld us): %d killed before the new "
          "record was in place, %d after, %d ended first; %d kills left a temp file, removed "
          "by a later save",
          rounds, static_cast<long long>(runMicroseconds),
          static_cast<long long>(replaceMicroseconds), killedBefore, killedAfter, finished - 4,
          tempFilesLeft);
    QVERIFY(killedBefore + killedAfter > 0); // the kills really happened
}

QTEST_GUILESS_MAIN(TestCliVault)
#include "TestCliVault.moc"
