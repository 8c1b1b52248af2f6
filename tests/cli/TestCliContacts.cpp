// watchword-cli contacts as a user runs it, on the version 2 worked example's
// vault: identities added from text, a text file, another vault file and a
// QR code in a PNG image; listed (their texts and fingerprints computed
// independently, tests/data/share/identity_vectors.json) and never listed
// as accounts; found by name, fingerprint and id; renamed, verified and
// removed; and every refusal, each leaving the vault file byte for byte as
// it was.
#include "CliTestSupport.h"
#include "common/PngImage.h"
#include "common/TestSupport.h"
#include "qr/QrCode.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace watchword::test;

namespace {

QJsonObject vaultVector()
{
    return loadJson(QStringLiteral("vault/vectors_v2.json"));
}

// The example vault's password (already NFKD) as a line of standard input.
QByteArray passwordLine()
{
    return QByteArray::fromHex(
               vaultVector()[QStringLiteral("password_hex")].toString().toLatin1()) +
           '\n';
}

struct Identity
{
    QString text;
    QString key;
    QStringList words;
};

// The identity vectors: the example vault's own first, then the others.
QList<Identity> identities()
{
    const QString own = vaultVector()[QStringLiteral("sharing_public_key")].toString();
    QList<Identity> out;
    for (const auto value :
         loadJson(QStringLiteral("share/identity_vectors.json"))[QStringLiteral("vectors")]
             .toArray()) {
        const QJsonObject vector = value.toObject();
        Identity identity{vector[QStringLiteral("identity_text")].toString(),
                          vector[QStringLiteral("sharing_public_key")].toString(),
                          {}};
        for (const auto word : vector[QStringLiteral("fingerprint")].toArray())
            identity.words << word.toString();
        if (identity.key == own)
            out.prepend(identity);
        else
            out.append(identity);
    }
    return out;
}

// A grey PNG image of size × size pixels, each light unless dark(x, y).
template <typename Dark> QByteArray greyPng(int size, Dark&& dark)
{
    std::vector<std::uint8_t> pixels(std::size_t(size) * std::size_t(size), 0xff);
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x)
            if (dark(x, y))
                pixels[std::size_t(y) * std::size_t(size) + std::size_t(x)] = 0x00;
    return writePng(pixels, size, size, PNG_FORMAT_GRAY);
}

// text as a QR code (the core's encoder, libqrencode; the CLI reads it with
// ZXing): 4 pixels a module, the quiet zone around it.
QByteArray qrPng(const QByteArray& text)
{
    const auto matrix = watchword::qr::encodeQr(text.toStdString());
    if (!matrix)
        return {};
    constexpr int scale = 4;
    const int quiet = watchword::qr::quietZoneModules;
    return greyPng((matrix->size() + 2 * quiet) * scale, [&](int x, int y) {
        const int mx = x / scale - quiet;
        const int my = y / scale - quiet;
        return mx >= 0 && my >= 0 && mx < matrix->size() && my < matrix->size() &&
               matrix->dark(mx, my);
    });
}

// The contacts watchword-cli contacts list --json shows.
QJsonArray listedContacts(const QString& vault)
{
    const Outcome listed =
        runCli({"contacts", "list", vault, "--json", "--password-stdin"}, passwordLine());
    return parseJsonObject(verifySuccessLine(listed))[QStringLiteral("contacts")].toArray();
}

QJsonObject contactNamed(const QJsonArray& contacts, const QString& name)
{
    for (const auto value : contacts)
        if (value.toObject()[QStringLiteral("name")].toString() == name)
            return value.toObject();
    return {};
}

// Runs a contacts command on the vault with the password on stdin.
Outcome contacts(const QStringList& args, const QByteArray& input = passwordLine())
{
    return runCli(QStringList{"contacts"} + args + QStringList{"--password-stdin"}, input);
}

} // namespace

class TestCliContacts : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void addsFromEverySource();
    void findsRenamesVerifiesRemoves();
    void refusalsLeaveTheFileAsItWas_data();
    void refusalsLeaveTheFileAsItWas();
    void help();

private:
    QTemporaryDir m_directory;
    QString m_vault;
    QList<Identity> m_identities;
    QByteArray m_withAliceAndBob; // the example vault with the contacts Alice and Bob
};

void TestCliContacts::initTestCase()
{
    init();
    QCOMPARE(contacts({"add", m_vault, "--text", m_identities[1].text, "--name", "Alice"}).exitCode,
             0);
    QCOMPARE(contacts({"add", m_vault, "--text", m_identities[2].text, "--name", "Bob"}).exitCode,
             0);
    m_withAliceAndBob = readBytes(m_vault);
    QVERIFY(!m_withAliceAndBob.isEmpty());
}

void TestCliContacts::init()
{
    QVERIFY(m_directory.isValid());
    // A fresh vault, and nothing else, for every test: no backups left over.
    QDir(m_directory.path()).removeRecursively();
    QVERIFY(QDir().mkpath(m_directory.path()));
    m_vault = m_directory.filePath(QStringLiteral("example.wwv"));
    QVERIFY(writeBytes(
        m_vault,
        QByteArray::fromHex(vaultVector()[QStringLiteral("file_hex")].toString().toLatin1())));
    m_identities = identities();
    QVERIFY(m_identities.size() >= 4);
}

void TestCliContacts::addsFromEverySource()
{
    // --text: the identity itself.
    const Identity& alice = m_identities[1];
    const Outcome added = contacts({"add", m_vault, "--text", alice.text, "--name", "Alice"});
    QVERIFY2(added.exitCode == 0, qPrintable(describe(added)));
    QVERIFY(added.err.isEmpty());
    const QStringList lines = QString::fromUtf8(added.out).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY(QRegularExpression(QStringLiteral("^added Alice: [0-9a-f]{32}$"))
                .match(lines[0])
                .hasMatch());
    QCOMPARE(lines[1], QStringLiteral("fingerprint: ") + alice.words.join(u' '));
    QVERIFY(lines[2].startsWith(QLatin1String("not verified")));

    // --from: a text file, with the line breaks and spaces of a message, in
    // capitals (as a QR code's alphanumeric mode carries it).
    const Identity& bob = m_identities[2];
    const QString bobFile = m_directory.filePath(QStringLiteral("bob.txt"));
    QVERIFY(writeBytes(bobFile, "\n  " + bob.text.toUpper().toLatin1() + "  \r\n"));
    QCOMPARE(contacts({"add", m_vault, "--from", bobFile, "--name", "Bob"}).exitCode, 0);

    // --qr: a PNG of its QR code.
    const Identity& carol = m_identities[3];
    const QString carolPng = m_directory.filePath(QStringLiteral("carol.png"));
    QVERIFY(writeBytes(carolPng, qrPng(carol.text.toLatin1())));
    const Outcome fromQr = contacts({"add", m_vault, "--qr", carolPng, "--name", "Carol Ann"});
    QVERIFY2(fromQr.exitCode == 0, qPrintable(describe(fromQr)));

    // --from: another vault file, whose header holds its identity.
    const QString other = m_directory.filePath(QStringLiteral("other.wwv"));
    QCOMPARE(runCli({"vault", "init", other, "--target-ms", "1", "--password-stdin"},
                    "correct horse battery staple\n")
                 .exitCode,
             0);
    const QJsonObject otherIdentity =
        parseJsonObject(verifySuccessLine(runCli({"identity", "show", other, "--json"})));
    const Outcome fromVault = contacts({"add", m_vault, "--from", other, "--name", "Olga"});
    QVERIFY2(fromVault.exitCode == 0, qPrintable(describe(fromVault)));

    // Listed as added, in the order added, none verified.
    const QJsonArray listed = listedContacts(m_vault);
    QCOMPARE(listed.size(), 4);
    const QStringList names = {"Alice", "Bob", "Carol Ann", "Olga"};
    const QList<Identity> expected = {
        alice, bob, carol,
        Identity{otherIdentity["identity"].toString(), otherIdentity["public_key"].toString(), {}}};
    for (int i = 0; i < 4; ++i) {
        const QJsonObject contact = listed[i].toObject();
        QCOMPARE(contact["name"].toString(), names[i]);
        QCOMPARE(contact["identity"].toString(), expected[i].text);
        QCOMPARE(contact["public_key"].toString(), expected[i].key);
        QCOMPARE(contact["verified"].toBool(), false);
        QVERIFY(QRegularExpression(QStringLiteral("^[0-9a-f]{32}$"))
                    .match(contact["id"].toString())
                    .hasMatch());
        QStringList words;
        for (const auto word : contact["fingerprint"].toArray())
            words << word.toString();
        QCOMPARE(words, i < 3 ? expected[i].words
                              : otherIdentity["fingerprint"].toVariant().toStringList());
    }
    QCOMPARE(lines[0].mid(QStringLiteral("added Alice: ").size()),
             listed[0].toObject()["id"].toString());

    // The text list: a line per contact, then its fingerprint and identity.
    const Outcome text = contacts({"list", m_vault});
    QCOMPARE(text.exitCode, 0);
    const QStringList textLines = QString::fromUtf8(text.out).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(textLines.size(), 12);
    QCOMPARE(textLines[0],
             listed[0].toObject()["id"].toString() + QStringLiteral("  not verified  Alice"));
    QCOMPARE(textLines[1], QStringLiteral("    fingerprint: ") + alice.words.join(u' '));
    QCOMPARE(textLines[2], QStringLiteral("    identity:    ") + alice.text);

    // Never accounts or notes: vault list, codes and export leave them out.
    const QJsonArray records = parseJsonObject(verifySuccessLine(runCli(
        {"vault", "list", m_vault, "--json", "--password-stdin"}, passwordLine())))["records"]
                                   .toArray();
    QCOMPARE(records.size(), 4); // the example's three accounts and note
    for (const auto record : records)
        QVERIFY(record.toObject()["kind"].toString() != QLatin1String("contact"));
    const QJsonArray codes = parseJsonObject(verifySuccessLine(
        runCli({"vault", "codes", m_vault, "--json", "--at", "1767225600", "--password-stdin"},
               passwordLine())))["codes"]
                                 .toArray();
    QCOMPARE(codes.size(), 3);
    const QString exported = m_directory.filePath(QStringLiteral("export.txt"));
    const Outcome exportedOut = runCli({"vault", "export", m_vault, "--to", "otpauth", exported,
                                        "--plaintext", "--password-stdin"},
                                       passwordLine());
    QCOMPARE(exportedOut.exitCode, 0);
    QCOMPARE(readBytes(exported).count('\n'), 3);
    // A contact's id is no account for the watch.
    const Outcome contactForExport =
        runCli({"vault", "export", m_vault, "--to", "otpauth", exported, "--plaintext", "--force",
                "--ids", listed[0].toObject()["id"].toString(), "--password-stdin"},
               passwordLine());
    QCOMPARE(contactForExport.exitCode, 1);
    QVERIFY(contactForExport.err.contains("no account with id"));
}

void TestCliContacts::findsRenamesVerifiesRemoves()
{
    const Identity& alice = m_identities[1];
    const Identity& bob = m_identities[2];
    QCOMPARE(contacts({"add", m_vault, "--text", alice.text, "--name", "Alice"}).exitCode, 0);
    QCOMPARE(contacts({"add", m_vault, "--text", bob.text, "--name", "Bob"}).exitCode, 0);
    const QString aliceId = contactNamed(listedContacts(m_vault), "Alice")["id"].toString();

    // Verified by name in another case: the fingerprint to compare is printed.
    const Outcome verified = contacts({"verify", m_vault, "aLiCe"});
    QCOMPARE(verified.exitCode, 0);
    QCOMPARE(verified.out, ("fingerprint of Alice: " + alice.words.join(u' ') +
                            "\nAlice is now marked verified\n")
                               .toUtf8());
    QCOMPARE(contactNamed(listedContacts(m_vault), "Alice")["verified"].toBool(), true);
    QCOMPARE(contactNamed(listedContacts(m_vault), "Bob")["verified"].toBool(), false);
    // Again: nothing to change, nothing written.
    const QByteArray before = readBytes(m_vault);
    const Outcome again = contacts({"verify", m_vault, "Alice"});
    QCOMPARE(again.exitCode, 0);
    QVERIFY(again.out.endsWith("Alice was already marked verified\n"));
    QCOMPARE(readBytes(m_vault), before);
    // --not, naming Alice by her fingerprint words.
    const Outcome unverified = contacts({"verify", m_vault, alice.words.join(u' '), "--not"});
    QCOMPARE(unverified.exitCode, 0);
    QVERIFY(unverified.out.endsWith("Alice is now marked not verified\n"));
    QCOMPARE(contactNamed(listedContacts(m_vault), "Alice")["verified"].toBool(), false);

    // Renamed by the start of her id.
    const Outcome renamed = contacts({"rename", m_vault, aliceId.left(6), "Alice Liddell"});
    QCOMPARE(renamed.exitCode, 0);
    QCOMPARE(renamed.out, QByteArray("renamed Alice to Alice Liddell\n"));
    const QJsonObject liddell = contactNamed(listedContacts(m_vault), "Alice Liddell");
    QCOMPARE(liddell["id"].toString(), aliceId);
    QCOMPARE(liddell["identity"].toString(), alice.text);

    // Removed; Bob stays.
    const Outcome removed = contacts({"remove", m_vault, "alice liddell"});
    QCOMPARE(removed.exitCode, 0);
    QCOMPARE(removed.out, ("removed Alice Liddell: " + aliceId + "\n").toUtf8());
    const QJsonArray left = listedContacts(m_vault);
    QCOMPARE(left.size(), 1);
    QCOMPARE(left[0].toObject()["name"].toString(), QStringLiteral("Bob"));
    // The example's records are all still there.
    QCOMPARE(
        parseJsonObject(verifySuccessLine(runCli(
            {"vault", "list", m_vault, "--json", "--password-stdin"}, passwordLine())))["records"]
            .toArray()
            .size(),
        4);
}

void TestCliContacts::refusalsLeaveTheFileAsItWas_data()
{
    // {arguments after "contacts", with FILE for the vault}, stdin ("" for the
    // password), exit code, what stderr says.
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("says");
    const QList<Identity> ids = identities();
    const QString alice = ids[1].text;
    // One letter changed (q and p are both in the alphabet).
    QString damaged = alice;
    const int at = int(damaged.size()) - 10;
    damaged[at] = damaged[at] == u'q' ? u'p' : u'q';
    QString wrongPrefix = alice;
    wrongPrefix.replace(QLatin1String("watchword-id:"), QLatin1String("watchword-ix:"));
    const QString addAlice = "add|FILE|--text|" + alice + "|--name|";

    QTest::newRow("damaged identity")
        << QStringList{"add", "FILE", "--text", damaged, "--name", "X"} << QByteArray() << 2
        << "damaged";
    QTest::newRow("wrong prefix") << QStringList{"add",       "FILE",   "--text",
                                                 wrongPrefix, "--name", "X"}
                                  << QByteArray() << 2 << "not a Watchword identity";
    QTest::newRow("only the Bech32m part")
        << QStringList{"add", "FILE", "--text", alice.mid(13), "--name", "X"} << QByteArray() << 2
        << "not a Watchword identity";
    QTest::newRow("own identity") << QStringList{"add",       "FILE",   "--text",
                                                 ids[0].text, "--name", "Me"}
                                  << QByteArray() << 1 << "that is your own identity";
    QTest::newRow("own vault file") << QStringList{"add", "FILE", "--from", "FILE", "--name", "Me"}
                                    << QByteArray() << 1 << "that is your own identity";
    QTest::newRow("duplicate key")
        << (addAlice + "Other").split(u'|') << QByteArray() << 1 << "already a contact: Alice";
    QTest::newRow("duplicate name")
        << QStringList{"add", "FILE", "--text", ids[3].text, "--name", "ALICE"} << QByteArray() << 1
        << "already named \"Alice\"";
    QTest::newRow("rename to a name taken")
        << QStringList{"rename", "FILE", "Bob", "alice"} << QByteArray() << 1 << "already named";
    QTest::newRow("unknown contact to verify")
        << QStringList{"verify", "FILE", "Zed"} << QByteArray() << 1 << "no contact";
    QTest::newRow("unknown contact to rename")
        << QStringList{"rename", "FILE", "Zed", "Zoe"} << QByteArray() << 1 << "no contact";
    QTest::newRow("unknown contact to remove")
        << QStringList{"remove", "FILE", "Zed"} << QByteArray() << 1 << "no contact";
    QTest::newRow("id prefix too short")
        << QStringList{"remove", "FILE", "abc"} << QByteArray() << 1 << "no contact";
    QTest::newRow("wrong password")
        << (addAlice + "Ann").split(u'|') << QByteArray("wrong\n") << 1 << "wrong password";
    QTest::newRow("wrong password to remove")
        << QStringList{"remove", "FILE", "Alice"} << QByteArray("wrong\n") << 1 << "wrong password";
    QTest::newRow("no source") << QStringList{"add", "FILE", "--name", "X"} << QByteArray() << 2
                               << "one of --text";
    QTest::newRow("two sources") << QStringList{"add",  "FILE",  "--text", alice,
                                                "--qr", "x.png", "--name", "X"}
                                 << QByteArray() << 2 << "one of --text";
    QTest::newRow("no name") << QStringList{"add", "FILE", "--text", ids[3].text} << QByteArray()
                             << 2 << "--name";
    QTest::newRow("empty name") << QStringList{"add",       "FILE",   "--text",
                                               ids[3].text, "--name", "\u200b"}
                                << QByteArray() << 2 << "must not be empty";
    QTest::newRow("257-byte name")
        << QStringList{"add", "FILE", "--text", ids[3].text, "--name", QString(257, u'n')}
        << QByteArray() << 2 << "at most 256 bytes";
    QTest::newRow("a vault without an identity")
        << QStringList{"add", "FILE", "--from", "V1", "--name", "Old"} << QByteArray() << 2
        << "no sharing identity yet";
    QTest::newRow("a file of other text")
        << QStringList{"add", "FILE", "--from", "TEXT", "--name", "X"} << QByteArray() << 2
        << "not a Watchword identity";
    QTest::newRow("a missing file")
        << QStringList{"add", "FILE", "--from", "MISSING", "--name", "X"} << QByteArray() << 2
        << "missing";
    QTest::newRow("a PNG without a code")
        << QStringList{"add", "FILE", "--qr", "BLANK", "--name", "X"} << QByteArray() << 2 << "";
    QTest::newRow("a QR code of other text")
        << QStringList{"add", "FILE", "--qr", "HELLO", "--name", "X"} << QByteArray() << 2
        << "not a Watchword identity";
    QTest::newRow("not a PNG") << QStringList{"add", "FILE", "--qr", "TEXT", "--name", "X"}
                               << QByteArray() << 2 << "not a PNG";
    QTest::newRow("stdin for both") << QStringList{"add", "FILE", "--from", "-", "--name", "X"}
                                    << QByteArray() << 2 << "cannot come from it too";
    QTest::newRow("empty CONTACT")
        << QStringList{"verify", "FILE", ""} << QByteArray() << 2 << "CONTACT is empty";
    QTest::newRow("empty NEW-NAME")
        << QStringList{"rename", "FILE", "Alice", ""} << QByteArray() << 2 << "must not be empty";
    QTest::newRow("NEW-NAME missing")
        << QStringList{"rename", "FILE", "Alice"} << QByteArray() << 2 << "takes FILE, CONTACT";
    QTest::newRow("unknown option")
        << QStringList{"list", "FILE", "--qr", "x"} << QByteArray() << 2 << "--qr";
    QTest::newRow("unknown subcommand")
        << QStringList{"trust", "FILE"} << QByteArray() << 2 << "unknown contacts subcommand";
    QTest::newRow("password on the command line")
        << QStringList{"list", "FILE", "--password", "x"} << QByteArray() << 2 << "--password";
}

void TestCliContacts::refusalsLeaveTheFileAsItWas()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, input);
    QFETCH(int, exitCode);
    QFETCH(QString, says);
    QVERIFY(writeBytes(m_vault, m_withAliceAndBob));
    const QString v1 = m_directory.filePath(QStringLiteral("old.wwv"));
    QVERIFY(writeBytes(v1, QByteArray::fromHex(loadJson(QStringLiteral(
                               "vault/vectors.json"))[QStringLiteral("file_hex")]
                                                   .toString()
                                                   .toLatin1())));
    const QString text = m_directory.filePath(QStringLiteral("text.txt"));
    QVERIFY(writeBytes(text, "hello, this is not an identity\n"));
    const QString blank = m_directory.filePath(QStringLiteral("blank.png"));
    QVERIFY(writeBytes(blank, greyPng(64, [](int, int) { return false; })));
    const QString hello = m_directory.filePath(QStringLiteral("hello.png"));
    QVERIFY(writeBytes(hello, qrPng("hello")));
    const QHash<QString, QString> paths = {
        {"FILE", m_vault}, {"V1", v1},       {"TEXT", text},
        {"BLANK", blank},  {"HELLO", hello}, {"MISSING", m_directory.filePath("missing.txt")}};
    for (auto& arg : args)
        arg = paths.value(arg, arg);
    const QByteArray before = readBytes(m_vault);
    // The files but the lock file, which a command that would write makes
    // (and leaves) to keep other writers out.
    const QDir directory(m_directory.path());
    const auto files = [&] {
        QStringList names = directory.entryList(QDir::Files, QDir::Name);
        names.removeAll(QStringLiteral("example.wwv.lock"));
        return names;
    };
    const QStringList filesBefore = files();

    const Outcome outcome = runCli(QStringList{"contacts"} + args + QStringList{"--password-stdin"},
                                   input.isEmpty() ? passwordLine() : input);
    QVERIFY2(outcome.exitCode == exitCode, qPrintable(describe(outcome)));
    QVERIFY2(outcome.out.isEmpty(), qPrintable(describe(outcome)));
    QVERIFY2(outcome.err.startsWith("watchword-cli: ") && outcome.err.count('\n') == 1,
             qPrintable(describe(outcome)));
    QVERIFY2(QString::fromUtf8(outcome.err).contains(says), qPrintable(describe(outcome)));
    // Not a byte of the vault changed, and no backup was made.
    QCOMPARE(readBytes(m_vault), before);
    QCOMPARE(files(), filesBefore);
}

void TestCliContacts::help()
{
    const Outcome help = runCli({"contacts", "--help"});
    QCOMPARE(help.exitCode, 0);
    for (const char* subcommand : {"contacts add", "contacts list", "contacts rename",
                                   "contacts remove", "contacts verify", "Exit status"})
        QVERIFY2(help.out.contains(subcommand), subcommand);
    const Outcome top = runCli({"--help"});
    QVERIFY(top.out.contains("\n  contacts   "));
    const Outcome vaultHelp = runCli({"vault", "--help"});
    QVERIFY(vaultHelp.out.contains("contacts list"));
    verifyUsageError(runCli({"contacts"}));
}

QTEST_GUILESS_MAIN(TestCliContacts)
#include "TestCliContacts.moc"
