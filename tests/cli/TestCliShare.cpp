// watchword-cli share and receive as two (and three) people run them: two
// vaults made by vault init, each the other's contact; an account and a note
// sent as a file, as pasted text and as a QR code image, received once and
// then marked as already received; who sent it, as each vault knows them;
// and every refusal (not for you, changed, not a share, unknown sender, bad
// arguments), each leaving the receiving vault byte for byte as it was.
#include "CliTestSupport.h"
#include "common/TestSupport.h"

#include <QDir>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace watchword::test;

namespace {

const QByteArray password = "share test password";
const QString acmeUri =
    QStringLiteral("otpauth://totp/ACME:alice%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
                   "&issuer=ACME");

// A vault made by the CLI, as a person has it.
class Person
{
public:
    explicit Person(const QString& name) : m_path(m_directory.filePath(name + ".wwv"))
    {
        const Outcome made = runCli(
            {"vault", "init", m_path, "--target-ms", "1", "--password-stdin"}, password + '\n');
        if (made.exitCode != 0)
            QTest::qFail(qPrintable("vault init: " + describe(made)), __FILE__, __LINE__);
        const auto shown = runCli({"identity", "show", m_path, "--json"});
        m_identity = parseJsonObject(shown.out).value("identity").toString();
    }

    const QString& path() const { return m_path; }
    const QString& identity() const { return m_identity; }
    QString file(const QString& name) const { return m_directory.filePath(name); }
    QByteArray bytes() const { return readBytes(m_path); }

    // "<command...> FILE <arguments...> --password-stdin", the password then more.
    Outcome run(const QStringList& command, const QStringList& arguments = {},
                const QByteArray& more = {}) const
    {
        return runCli(command + QStringList{m_path} + arguments + QStringList{"--password-stdin"},
                      password + '\n' + more);
    }

    void addContact(const Person& other, const QString& name, bool verify) const
    {
        const Outcome added =
            run({"contacts", "add"}, {"--text", other.identity(), "--name", name});
        QVERIFY2(added.exitCode == 0, qPrintable(describe(added)));
        if (verify) {
            const Outcome verified = run({"contacts", "verify"}, {name});
            QVERIFY2(verified.exitCode == 0, qPrintable(describe(verified)));
        }
    }

    // The id of the record vault add/note printed.
    QString addAccount() const
    {
        const Outcome added = run({"vault", "add"}, {}, acmeUri.toUtf8() + '\n');
        return QString::fromUtf8(verifySuccessLine(added)).section(u' ', -1);
    }

    QString addNote(const QString& title, const QByteArray& body) const
    {
        const QString bodyPath = file(title + ".txt");
        writeBytes(bodyPath, body);
        const Outcome added = run({"vault", "note"}, {"--title", title, "--body-file", bodyPath});
        return QString::fromUtf8(verifySuccessLine(added)).section(u' ', -1);
    }

    QJsonArray records() const
    {
        const Outcome listed = run({"vault", "list"}, {"--json"});
        return parseJsonObject(verifySuccessLine(listed)).value("records").toArray();
    }

    QJsonObject receive(const QString& share, const QStringList& more = {}) const
    {
        const Outcome received = run({"receive"}, QStringList{share, "--json"} + more);
        return parseJsonObject(verifySuccessLine(received));
    }

private:
    QTemporaryDir m_directory;
    QString m_path;
    QString m_identity;
};

QStringList titles(const QJsonArray& records)
{
    QStringList out;
    for (const auto value : records) {
        const auto record = value.toObject();
        out << record.value("kind").toString() + ":" + record.value("title").toString() +
                   record.value("label").toString();
    }
    out.sort();
    return out;
}

// Exit 1, nothing on stdout, one line on stderr holding expected.
void verifyRefused(const Outcome& outcome, const QByteArray& expected)
{
    QVERIFY2(outcome.exitCode == 1, qPrintable(describe(outcome)));
    QVERIFY2(outcome.out.isEmpty(), qPrintable(describe(outcome)));
    QVERIFY2(outcome.err.count('\n') == 1 && outcome.err.contains(expected),
             qPrintable(describe(outcome)));
}

} // namespace

class TestCliShare : public QObject
{
    Q_OBJECT

private slots:
    void fileTextAndQrCodeBetweenTwoVaults();
    void whoSentItAsEachVaultKnowsThem();
    void refusalsLeaveTheVaultAsItWas();
    void badArguments();
};

void TestCliShare::fileTextAndQrCodeBetweenTwoVaults()
{
    Person alice(QStringLiteral("alice"));
    Person bob(QStringLiteral("bob"));
    QVERIFY(!QTest::currentTestFailed());
    alice.addContact(bob, QStringLiteral("Bob"), true);
    bob.addContact(alice, QStringLiteral("Alice"), true);
    const QString account = alice.addAccount();
    const QString note = alice.addNote(QStringLiteral("Door code"), "4711 then the bell twice");
    QVERIFY(!QTest::currentTestFailed());

    // A file.
    const QString shareFile = alice.file(QStringLiteral("for-bob.wwshare"));
    const Outcome shared = alice.run({"share"}, {"--to", "Bob", "--record", account, "--record",
                                                 note.left(8), "--out", shareFile});
    QCOMPARE(verifySuccessLine(shared), ("shared 2 records with Bob: " + shareFile + " (" +
                                         QString::number(readBytes(shareFile).size()) + " bytes)")
                                            .toUtf8());
    QVERIFY(readBytes(shareFile).startsWith("WWSHARE\x01"));

    const QByteArray before = bob.bytes();
    const QJsonObject preview = bob.receive(shareFile, {"--dry-run"});
    QCOMPARE(bob.bytes(), before);
    QCOMPARE(preview.value("sender").toObject().value("status").toString(), "verified");
    QCOMPARE(preview.value("sender").toObject().value("name").toString(), "Alice");
    QCOMPARE(preview.value("records").toArray().size(), 2);
    QCOMPARE(preview.value("added").toArray().size(), 0);
    QCOMPARE(preview.value("dry_run").toBool(), true);

    const QJsonObject received = bob.receive(shareFile);
    QCOMPARE(received.value("added").toArray().size(), 2);
    QCOMPARE(received.value("already_received").toBool(), false);
    QCOMPARE(titles(bob.records()), titles(alice.records()));

    // The same share again: already received, nothing added, both duplicates.
    const QJsonObject again = bob.receive(shareFile);
    QCOMPARE(again.value("already_received").toBool(), true);
    QCOMPARE(again.value("added").toArray().size(), 0);
    for (const auto record : again.value("records").toArray())
        QVERIFY(record.toObject().value("duplicate_of").isString());
    QCOMPARE(bob.records().size(), 2);

    // Pasted text: a new note, armoured on stdout, with words around it.
    const QString second = alice.addNote(QStringLiteral("Wi-Fi"), "correct horse");
    const Outcome asText = alice.run({"share"}, {"--to", "Bob", "--record", second, "--text"});
    QCOMPARE(asText.exitCode, 0);
    QVERIFY(asText.out.startsWith("-----BEGIN WATCHWORD SHARE-----\n"));
    QVERIFY(asText.out.endsWith("-----END WATCHWORD SHARE-----\n"));
    QVERIFY(asText.err.contains("shared 1 record with Bob"));
    const QString pasted = bob.file(QStringLiteral("message.txt"));
    writeBytes(pasted, "Hi Bob, here it is:\r\n\r\n" + asText.out + "\r\nAlice\r\n");
    QCOMPARE(bob.receive(pasted).value("added").toArray().size(), 1);

    // A QR code image.
    const QString third = alice.addNote(QStringLiteral("Locker"), "31-07-15");
    const QString qrDirectory = alice.file(QStringLiteral("qr"));
    const Outcome asQr =
        alice.run({"share"}, {"--to", "Bob", "--record", third, "--qr", qrDirectory});
    const QString png = QDir(qrDirectory).filePath(QStringLiteral("share.png"));
    QVERIFY2(verifySuccessLine(asQr).startsWith("shared 1 record with Bob: " + png.toUtf8()),
             qPrintable(describe(asQr)));
    QVERIFY(readBytes(png).startsWith("\x89PNG"));
    QCOMPARE(bob.receive(png).value("added").toArray().size(), 1);
    QCOMPARE(titles(bob.records()), titles(alice.records()));
}

void TestCliShare::whoSentItAsEachVaultKnowsThem()
{
    Person alice(QStringLiteral("alice"));
    Person bob(QStringLiteral("bob"));
    Person carol(QStringLiteral("carol"));
    QVERIFY(!QTest::currentTestFailed());
    bob.addContact(alice, QStringLiteral("Alice"), false);
    const QString note = carol.addNote(QStringLiteral("Hello"), "from Carol");
    const QString fromAlice = alice.file(QStringLiteral("a.wwshare"));
    const QString aliceNote = alice.addNote(QStringLiteral("Hi"), "from Alice");
    // To someone not (yet) a contact, by identity text: allowed, and said.
    const Outcome toText =
        alice.run({"share"}, {"--to", bob.identity(), "--record", aliceNote, "--out", fromAlice});
    QCOMPARE(toText.exitCode, 0);
    QVERIFY2(toText.err.contains("is not one of your contacts"), qPrintable(describe(toText)));

    // An unverified contact: added, and shown as not verified.
    const QJsonObject unverified = bob.receive(fromAlice);
    QCOMPARE(unverified.value("sender").toObject().value("status").toString(), "not_verified");
    QCOMPARE(unverified.value("added").toArray().size(), 1);
    const Outcome asText = bob.run({"receive"}, {fromAlice, "--dry-run"});
    QVERIFY2(asText.out.contains("from Alice (a contact you have NOT verified"),
             qPrintable(describe(asText)));

    // Someone unknown: shown, not added without --accept-unknown.
    const QString fromCarol = carol.file(QStringLiteral("c.wwshare"));
    QCOMPARE(carol.run({"share"}, {"--to", bob.identity(), "--record", note, "--out", fromCarol})
                 .exitCode,
             0);
    const QByteArray before = bob.bytes();
    const Outcome refused = bob.run({"receive"}, {fromCarol});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.out.contains("from someone who is not one of your contacts"),
             qPrintable(describe(refused)));
    QVERIFY2(refused.err.contains("--accept-unknown"), qPrintable(describe(refused)));
    QCOMPARE(bob.bytes(), before);
    const QJsonObject accepted = bob.receive(fromCarol, {"--accept-unknown"});
    QCOMPARE(accepted.value("sender").toObject().value("status").toString(), "unknown");
    QCOMPARE(accepted.value("sender").toObject().value("fingerprint").toString().count(u' '), 7);
    QCOMPARE(accepted.value("added").toArray().size(), 1);
}

void TestCliShare::refusalsLeaveTheVaultAsItWas()
{
    Person alice(QStringLiteral("alice"));
    Person bob(QStringLiteral("bob"));
    QVERIFY(!QTest::currentTestFailed());
    alice.addContact(bob, QStringLiteral("Bob"), true);
    bob.addContact(alice, QStringLiteral("Alice"), true);
    const QString note = alice.addNote(QStringLiteral("Door code"), "4711");
    const QString shareFile = alice.file(QStringLiteral("s.wwshare"));
    QCOMPARE(alice.run({"share"}, {"--to", "Bob", "--record", note, "--out", shareFile}).exitCode,
             0);
    const QByteArray envelope = readBytes(shareFile);
    const QByteArray aliceBefore = alice.bytes();
    const QByteArray bobBefore = bob.bytes();

    // Not for Alice: she sent it to Bob alone.
    verifyRefused(alice.run({"receive"}, {shareFile}), "not for you");
    // One byte changed in the sealed contents.
    QByteArray changed = envelope;
    changed[envelope.size() - 80] = char(changed[envelope.size() - 80] ^ 0x01);
    const QString changedFile = bob.file(QStringLiteral("changed.wwshare"));
    writeBytes(changedFile, changed);
    verifyRefused(bob.run({"receive"}, {changedFile}), "changed after it was sealed");
    // The signature damaged.
    QByteArray unsigned_ = envelope;
    unsigned_[envelope.size() - 1] = char(unsigned_[envelope.size() - 1] ^ 0x01);
    const QString forged = bob.file(QStringLiteral("forged.wwshare"));
    writeBytes(forged, unsigned_);
    verifyRefused(bob.run({"receive"}, {forged}), "not signed by the sender it names");
    // A later version.
    QByteArray later = envelope;
    later[7] = 2;
    const QString laterFile = bob.file(QStringLiteral("later.wwshare"));
    writeBytes(laterFile, later);
    verifyRefused(bob.run({"receive"}, {laterFile}), "version 2");
    QCOMPARE(alice.bytes(), aliceBefore);
    QCOMPARE(bob.bytes(), bobBefore);

    // Not a share at all, and a cut-off one: bad input.
    const QString text = bob.file(QStringLiteral("hello.txt"));
    writeBytes(text, "hello");
    verifyUsageError(bob.run({"receive"}, {text}));
    const QString cut = bob.file(QStringLiteral("cut.txt"));
    writeBytes(cut, "-----BEGIN WATCHWORD SHARE-----\nV1dTSEFSRQ");
    verifyUsageError(bob.run({"receive"}, {cut}));
    verifyUsageError(bob.run({"receive"}, {bob.file(QStringLiteral("missing.wwshare"))}));
    const QString brokenPng = bob.file(QStringLiteral("broken.png"));
    writeBytes(brokenPng, QByteArray("\x89PNG\r\n\x1a\n", 8) + QByteArray(40, 'x'));
    const Outcome png = bob.run({"receive"}, {brokenPng});
    verifyUsageError(png);
    QVERIFY2(png.err.contains("PNG"), qPrintable(describe(png)));
    QCOMPARE(bob.bytes(), bobBefore);

    // A wrong password: nothing opened, nothing changed.
    const Outcome wrong =
        runCli({"receive", bob.path(), shareFile, "--password-stdin"}, "not the password\n");
    QCOMPARE(wrong.exitCode, 1);
    QCOMPARE(bob.bytes(), bobBefore);
}

void TestCliShare::badArguments()
{
    Person alice(QStringLiteral("alice"));
    Person bob(QStringLiteral("bob"));
    QVERIFY(!QTest::currentTestFailed());
    alice.addContact(bob, QStringLiteral("Bob"), false);
    const QString note = alice.addNote(QStringLiteral("Door code"), "4711");
    const QString existing = alice.file(QStringLiteral("Door code.txt"));
    verifyUsageError(alice.run({"share"}, {"--record", note}));
    verifyUsageError(alice.run({"share"}, {"--to", "Bob"}));
    verifyUsageError(alice.run({"share"}, {"--to", "Bob", "--record", note, "--out", existing}));
    verifyUsageError(
        alice.run({"share"}, {"--to", "Bob", "--record", note, "--text", "--qr", "dir"}));
    verifyUsageError(alice.run({"share"}, {"--to", "Bob", "--record", note, "--record", note}));
    verifyRefused(alice.run({"share"}, {"--to", "Nobody", "--record", note}), "Nobody");
    verifyRefused(alice.run({"share"}, {"--to", "Bob", "--record", "0123456789abcdef"}),
                  "no account or note");
    verifyRefused(alice.run({"share"}, {"--to", "watchword-id:ww1qqqqqqqqqq", "--record", note}),
                  "--to");
    verifyUsageError(runCli({"receive", alice.path(), "-", "--password-stdin"}, "x\n"));
    verifyUsageError(runCli({"receive", alice.path()}));
    verifyUsageError(runCli({"share"}));
    // Help says what each does.
    const Outcome help = runCli({"share", "--help"});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains("--to CONTACT"));
    QVERIFY(runCli({"receive", "--help"}).out.contains("--accept-unknown"));
}

QTEST_GUILESS_MAIN(TestCliShare)
#include "TestCliShare.moc"
