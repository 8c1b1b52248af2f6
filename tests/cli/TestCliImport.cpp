// watchword-cli vault import, vault export and qr decode as a user runs
// them: real export files of other apps come in with a preview, duplicates
// are skipped on the second import, a dry run and every failure leave the
// vault file byte for byte as it was; what export writes, in each format,
// imports back into a new vault to the same accounts and codes.
#include "CliTestSupport.h"
#include "common/TestSupport.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QMap>
#include <QtTest>
#include <sys/stat.h>

using namespace watchword;
using namespace watchword::test;

namespace {

const QByteArray vaultPassword = "correct horse battery staple";
// A time at which to compare codes (EXPECTED.json's reference time).
const QString codeTime = QStringLiteral("1700000000");

QString importData(const QString& relative)
{
    return dataPath(QStringLiteral("import/") + relative);
}

// Every entry of directory (the vault, its backups, any temp file) with its
// bytes, but the lock file, which even a failed command may write its pid
// into.
QMap<QString, QByteArray> filesIn(const QString& directory)
{
    QMap<QString, QByteArray> files;
    const QDir dir(directory);
    for (const auto& name :
         dir.entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot))
        if (!name.endsWith(QLatin1String(".lock")))
            files.insert(name, readBytes(dir.filePath(name)));
    return files;
}

// A vault made by "vault init" in a directory of its own.
class Vault
{
public:
    Vault()
    {
        const Outcome made =
            runCli({"vault", "init", m_path, "--target-ms", "1", "--password-stdin"},
                   vaultPassword + '\n');
        if (made.exitCode != 0)
            QTest::qFail(qPrintable("vault init: " + describe(made)), __FILE__, __LINE__);
    }

    const QString& path() const { return m_path; }
    QString directory() const { return m_directory.path(); }
    QMap<QString, QByteArray> files() const { return filesIn(directory()); }

    // "vault import FILE --from format source <more> --password-stdin" with the
    // vault's password and then input on stdin.
    Outcome import(const QString& source, const QString& format, const QStringList& more = {},
                   const QByteArray& input = {}) const
    {
        return runCli(QStringList{"vault", "import", m_path, "--from", format, source} + more +
                          QStringList{"--password-stdin"},
                      vaultPassword + '\n' + input);
    }

    Outcome exportTo(const QString& out, const QString& format, const QStringList& more = {},
                     const QByteArray& input = {}) const
    {
        return runCli(QStringList{"vault", "export", m_path, "--to", format, out} + more +
                          QStringList{"--password-stdin"},
                      vaultPassword + '\n' + input);
    }

    // Every account as "issuer:account type code" at codeTime, in the
    // vault's order.
    QStringList codes() const
    {
        const Outcome outcome =
            runCli({"vault", "codes", m_path, "--at", codeTime, "--json", "--password-stdin"},
                   vaultPassword + '\n');
        const QJsonArray codes =
            parseJsonObject(verifySuccessLine(outcome)).value("codes").toArray();
        QStringList lines;
        for (const auto& value : codes) {
            const QJsonObject code = value.toObject();
            lines << code.value("issuer").toString() + ":" + code.value("account").toString() +
                         " " + code.value("type").toString() + " " + code.value("code").toString();
        }
        return lines;
    }

private:
    QTemporaryDir m_directory;
    QString m_path = m_directory.filePath("vault.wwv");
};

// The preview lines of an import's output, without the first ("source: ...")
// and the last ones (the count and what was done).
QList<QByteArray> previewRows(const QByteArray& out)
{
    QList<QByteArray> rows;
    for (const auto& line : out.split('\n'))
        if (line.startsWith("new ") || line.startsWith("duplicate ") ||
            line.startsWith("same name "))
            rows << line;
    return rows;
}

// issuer:name of the entries EXPECTED.json lists for file, in order.
QList<QByteArray> expectedLabels(const QString& file)
{
    QList<QByteArray> labels;
    const QJsonArray files =
        loadJson(QStringLiteral("import/EXPECTED.json")).value(QLatin1String("files")).toArray();
    for (const auto& value : files) {
        const QJsonObject entry = value.toObject();
        if (entry.value(QLatin1String("file")).toString() != file)
            continue;
        for (const auto& account : entry.value(QLatin1String("entries")).toArray())
            labels << (account.toObject().value(QLatin1String("issuer")).toString() + ":" +
                       account.toObject().value(QLatin1String("name")).toString())
                          .toUtf8();
    }
    if (labels.isEmpty())
        qFatal("EXPECTED.json lists no entries for %s", qPrintable(file));
    return labels;
}

} // namespace

class TestCliImport : public QObject
{
    Q_OBJECT

private slots:
    void importsRealFiles_data();
    void importsRealFiles();
    void importsTheMigrationQrCode();
    void autoNamesTheFormat();
    void dryRunWritesNothing();
    void unsupportedEntriesNeedConsent();
    void failuresLeaveTheVaultUnchanged_data();
    void failuresLeaveTheVaultUnchanged();
    void badImportArguments_data();
    void badImportArguments();
    void exportImportsBack_data();
    void exportImportsBack();
    void exportToStdout();
    void exportRefusals_data();
    void exportRefusals();
    void exportNeverReplacesWithoutForce();
    void filePasswordsNormalizedOnlyForBackups();
    void qrDecode();
};

void TestCliImport::importsRealFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("format");
    QTest::addColumn<QByteArray>("password"); // the source's, or empty
    QTest::newRow("aegis encrypted") << "aegis/aegis_encrypted.json"
                                     << "aegis" << QByteArray("test");
    QTest::newRow("aegis plain") << "aegis/aegis_plain.json"
                                 << "aegis" << QByteArray();
    QTest::newRow("otpauth list") << "otpauth_list/plain.txt"
                                  << "otpauth" << QByteArray();
}

void TestCliImport::importsRealFiles()
{
    QFETCH(QString, file);
    QFETCH(QString, format);
    QFETCH(QByteArray, password);
    const Vault vault;
    const QList<QByteArray> labels = expectedLabels(file);
    const QByteArray input = password.isEmpty() ? QByteArray() : password + '\n';

    const Outcome first = vault.import(importData(file), format, {}, input);
    QVERIFY2(first.exitCode == 0 && first.err.isEmpty(), qPrintable(describe(first)));
    QVERIFY2(first.out.startsWith("source: "), qPrintable(describe(first)));
    const auto rows = previewRows(first.out);
    QCOMPARE(rows.size(), labels.size());
    for (qsizetype i = 0; i < rows.size(); ++i)
        QCOMPARE(rows[i], "new        " + labels[i]);
    QVERIFY2(first.out.contains('\n' + QByteArray::number(labels.size()) +
                                " accounts to add, 0 duplicates skipped\n"),
             qPrintable(describe(first)));
    QVERIFY2(first.out.endsWith("added " + QByteArray::number(labels.size()) + " accounts to " +
                                vault.path().toUtf8() + "\n"),
             qPrintable(describe(first)));
    const QStringList codes = vault.codes();
    QCOMPARE(codes.size(), labels.size());
    for (qsizetype i = 0; i < codes.size(); ++i)
        QVERIFY2(codes[i].toUtf8().startsWith(labels[i] + ' '), qPrintable(codes[i]));

    // Again: every account is a duplicate, nothing is written.
    const auto before = vault.files();
    const Outcome second = vault.import(importData(file), format, {}, input);
    QVERIFY2(second.exitCode == 0 && second.err.isEmpty(), qPrintable(describe(second)));
    for (const auto& row : previewRows(second.out))
        QVERIFY2(row.startsWith("duplicate  ") && row.contains("(already in the vault: "),
                 row.constData());
    QCOMPARE(previewRows(second.out).size(), labels.size());
    QVERIFY2(second.out.contains("\n0 accounts to add, " + QByteArray::number(labels.size()) +
                                 " duplicates skipped\nnothing to add"),
             qPrintable(describe(second)));
    QCOMPARE(vault.files(), before);
    QCOMPARE(vault.codes(), codes);

    // Unless duplicates are asked for.
    const Outcome third = vault.import(importData(file), format, {"--include-duplicates"}, input);
    QVERIFY2(third.exitCode == 0, qPrintable(describe(third)));
    QVERIFY2(third.out.contains(QByteArray::number(labels.size()) +
                                " accounts to add, 0 duplicates skipped"),
             qPrintable(describe(third)));
    QCOMPARE(vault.codes(), codes + codes);
}

void TestCliImport::importsTheMigrationQrCode()
{
    const Vault vault;
    const QString png = importData("google_authenticator_migration/test_googleauth_export.png");
    QTemporaryDir scratch;
    const QString uris = scratch.filePath("uris.txt");
    const Outcome decoded = runCli({"qr", "decode", png}, {}, uris);
    QCOMPARE(decoded.exitCode, 0);
    const Outcome imported = vault.import(uris, "google-migration");
    QVERIFY2(imported.exitCode == 0, qPrintable(describe(imported)));
    QCOMPARE(previewRows(imported.out), (QList<QByteArray>{"new        Test1:test1@example1.com",
                                                           "new        Test2:test2@example2.com",
                                                           "new        Test3:test3@example3.com"}));
    QCOMPARE(vault.codes().size(), 3);

    // The migration URI's second account again, among new ones, and twice.
    const QByteArray list = "otpauth://totp/Fresh:one?secret=GEZDGNBVGY3TQOJQ&issuer=Fresh\n"
                            "otpauth://totp/Test2:test2%40example2.com?secret=JBSWY3DPEHPK3PXQ"
                            "&issuer=Test2\n"
                            "otpauth://totp/Again:one?secret=GEZDGNBVGY3TQOJQ&issuer=Again\n";
    QVERIFY(writeBytes(scratch.filePath("list.txt"), list));
    const Outcome mixed = vault.import(scratch.filePath("list.txt"), "otpauth");
    QVERIFY2(mixed.exitCode == 0, qPrintable(describe(mixed)));
    const auto rows = previewRows(mixed.out);
    QCOMPARE(rows.size(), 3);
    QCOMPARE(rows[0], "new        Fresh:one");
    QVERIFY2(rows[1].startsWith("duplicate  Test2:test2@example2.com  (already in the vault: "),
             rows[1].constData());
    QCOMPARE(rows[2], "duplicate  Again:one  (duplicate of entry 1)");
    QVERIFY(mixed.out.contains("\n1 account to add, 2 duplicates skipped\n"));
    QCOMPARE(vault.codes().size(), 4);
}

void TestCliImport::autoNamesTheFormat()
{
    const Vault vault;
    const Outcome outcome = vault.import(importData("aegis/aegis_plain.json"), "auto");
    QVERIFY2(outcome.exitCode == 0, qPrintable(describe(outcome)));
    QVERIFY2(outcome.out.startsWith("source: Aegis (aegis)\n"), qPrintable(describe(outcome)));
    const Outcome list = vault.import(importData("otpauth_list/plain.txt"), "auto");
    QVERIFY2(list.out.startsWith("source: otpauth:// URI list (otpauth)\n"),
             qPrintable(describe(list)));
}

void TestCliImport::dryRunWritesNothing()
{
    const Vault vault;
    const auto before = vault.files();
    const Outcome outcome =
        vault.import(importData("aegis/aegis_encrypted.json"), "aegis", {"--dry-run"}, "test\n");
    QVERIFY2(outcome.exitCode == 0 && outcome.err.isEmpty(), qPrintable(describe(outcome)));
    QCOMPARE(previewRows(outcome.out).size(), 7);
    QVERIFY2(outcome.out.endsWith("7 accounts to add, 0 duplicates skipped\ndry run: " +
                                  vault.path().toUtf8() + " was not changed\n"),
             qPrintable(describe(outcome)));
    QCOMPARE(vault.files(), before);
    QVERIFY(vault.codes().isEmpty());
}

// A real 2FAS backup with an HOTP entry and a SHA384 one: the preview lists
// the SHA384 entry as "cannot import" with its reason; the import adds
// nothing without --skip-unsupported (exit 2), a dry run says what the flag
// would do, and with the flag the other account is added.
void TestCliImport::unsupportedEntriesNeedConsent()
{
    const Vault vault;
    const QString source =
        importData("2fas/proton_decrypted_with_hotp_and_unsupported_algorithms.2fas");
    const QByteArray cannot = "cannot import  2fas: entry 2 (Itemname: Optional info): "
                              "unsupported algorithm \"SHA384\" (Watchword computes SHA1, "
                              "SHA256 and SHA512)\n";
    const auto before = vault.files();

    const Outcome refused = vault.import(source, "auto");
    QVERIFY2(refused.exitCode == 2, qPrintable(describe(refused)));
    QVERIFY2(refused.out.contains("new        cncnncncn\n" + cannot +
                                  "1 account to add, 0 duplicates skipped, 1 entry that cannot "
                                  "be imported\n"),
             qPrintable(describe(refused)));
    QVERIFY2(refused.err ==
                 "watchword-cli: " + source.toUtf8() +
                     ": 1 entry cannot be imported (listed above), so nothing was added; "
                     "--skip-unsupported adds the rest (1 account)\n",
             qPrintable(describe(refused)));
    QCOMPARE(vault.files(), before);

    const Outcome dry = vault.import(source, "2fas", {"--dry-run"});
    QVERIFY2(dry.exitCode == 0 && dry.out.contains(cannot) &&
                 dry.out.contains("only with --skip-unsupported"),
             qPrintable(describe(dry)));
    QCOMPARE(vault.files(), before);

    const Outcome added = vault.import(source, "2fas", {"--skip-unsupported"});
    QVERIFY2(added.exitCode == 0 && added.out.contains(cannot) && added.err.isEmpty(),
             qPrintable(describe(added)));
    QVERIFY2(added.out.endsWith("added 1 account to " + vault.path().toUtf8() + "\n"),
             qPrintable(describe(added)));
    const QStringList codes = vault.codes();
    QCOMPARE(codes.size(), 1);
    QVERIFY2(codes[0].startsWith(QLatin1String("cncnncncn: hotp ")), qPrintable(codes[0]));
}

void TestCliImport::failuresLeaveTheVaultUnchanged_data()
{
    QTest::addColumn<QString>("source"); // under import/, or a name in a scratch directory
    QTest::addColumn<QString>("format");
    QTest::addColumn<QByteArray>("input"); // after the vault's password
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QByteArray>("expected"); // in the message
    QTest::newRow("wrong source password")
        << "aegis/aegis_encrypted.json"
        << "aegis" << QByteArray("not the password\n") << 1 << QByteArray("password is wrong");
    QTest::newRow("no source password")
        << "aegis/aegis_encrypted.json"
        << "aegis" << QByteArray() << 2 << QByteArray("standard input ends before");
    QTest::newRow("another format") << "aegis/aegis_plain.json"
                                    << "2fas" << QByteArray() << 2 << QByteArray("2fas");
    QTest::newRow("damaged") << "DAMAGED"
                             << "aegis" << QByteArray() << 2 << QByteArray("aegis");
    QTest::newRow("not an export") << "google_authenticator_migration/test_export_wrong_content.txt"
                                   << "auto" << QByteArray() << 2 << QByteArray("--from");
    // Other apps' exports this version does not read: none is taken for an
    // andOTP backup (with a password asked), each is named.
    QTest::newRow("empty zip") << "winauth/stratum_winauth.invalid.zip"
                               << "auto" << QByteArray() << 2
                               << QByteArray("not a format this version reads (a ZIP archive); "
                                             "it is none of otpauth, google-migration");
    QTest::newRow("Authenticator Plus database")
        << "authenticator_plus/stratum_authplus.db"
        << "auto" << QByteArray() << 2
        << QByteArray("not a format this version reads (binary data, perhaps encrypted)");
    QTest::newRow("missing") << "MISSING"
                             << "aegis" << QByteArray() << 2 << QByteArray("cannot open");
    // The real encrypted andOTP backup with its iteration count (the first
    // 4 bytes) set to 2^32 - 1: refused before any key work, as input the
    // build does not read, not as a wrong password.
    QTest::newRow("andotp iterations out of bounds")
        << "ANDOTP_ITERATIONS"
        << "andotp" << QByteArray("test\n") << 2
        << QByteArray("andotp: the PBKDF2 iteration count (the first 4 bytes) is 4294967295, "
                      "outside the allowed 1 to 10000000");
}

void TestCliImport::failuresLeaveTheVaultUnchanged()
{
    QFETCH(QString, source);
    QFETCH(QString, format);
    QFETCH(QByteArray, input);
    QFETCH(int, exitCode);
    QFETCH(QByteArray, expected);
    const Vault vault;
    QVERIFY2(vault.import(importData("otpauth_list/plain.txt"), "otpauth").exitCode == 0,
             "first import");
    QTemporaryDir scratch;
    QString path = importData(source);
    if (source == "DAMAGED") {
        const QByteArray whole = readBytes(importData("aegis/aegis_plain.json"));
        path = scratch.filePath("damaged.json");
        QVERIFY(writeBytes(path, whole.left(whole.size() / 2)));
    } else if (source == "MISSING") {
        path = scratch.filePath("missing.json");
    } else if (source == "ANDOTP_ITERATIONS") {
        QByteArray backup = readBytes(importData("andotp/andotp_encrypted.bin"));
        QVERIFY(backup.size() > 4);
        backup.replace(0, 4, QByteArray(4, '\xff'));
        path = scratch.filePath("iterations.bin");
        QVERIFY(writeBytes(path, backup));
    }
    const auto before = vault.files();
    const QStringList codes = vault.codes();
    const Outcome outcome = vault.import(path, format, {}, input);
    QVERIFY2(outcome.exitCode == exitCode, qPrintable(describe(outcome)));
    QVERIFY2(outcome.out.isEmpty(), qPrintable(describe(outcome)));
    QVERIFY2(outcome.err.startsWith("watchword-cli: ") && outcome.err.count('\n') == 1,
             qPrintable(describe(outcome)));
    QVERIFY2(outcome.err.contains(expected), qPrintable(describe(outcome)));
    QCOMPARE(vault.files(), before);
    QCOMPARE(vault.codes(), codes);

    // The wrong password of the vault itself.
    const Outcome wrongVault = runCli({"vault", "import", vault.path(), "--from", "aegis",
                                       importData("aegis/aegis_plain.json"), "--password-stdin"},
                                      "wrong\n");
    QVERIFY2(wrongVault.exitCode == 1 && wrongVault.out.isEmpty(),
             qPrintable(describe(wrongVault)));
    QVERIFY2(wrongVault.err.contains("password"), qPrintable(describe(wrongVault)));
    QCOMPARE(vault.files(), before);
}

void TestCliImport::badImportArguments_data()
{
    QTest::addColumn<QStringList>("args"); // FILE: the vault
    QTest::addColumn<QByteArray>("expected");
    const QString source = importData("otpauth_list/plain.txt");
    QTest::newRow("no --from") << QStringList{"vault", "import", "FILE", source}
                               << QByteArray("needs --from FORMAT");
    QTest::newRow("unknown format")
        << QStringList{"vault", "import", "FILE", "--from", "winauth-xml", source}
        << QByteArray("'winauth-xml' is not a format");
    QTest::newRow("no source") << QStringList{"vault", "import", "FILE", "--from", "otpauth"}
                               << QByteArray("takes FILE and SOURCE");
    QTest::newRow("stdin twice") << QStringList{"vault",           "import",  "FILE",
                                                "--from",          "otpauth", "-",
                                                "--password-stdin"}
                                 << QByteArray("cannot come from it too");
}

void TestCliImport::badImportArguments()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, expected);
    const Vault vault;
    const auto before = vault.files();
    args.replaceInStrings(QStringLiteral("FILE"), vault.path());
    const Outcome outcome = runCli(args, vaultPassword + '\n');
    verifyUsageError(outcome);
    QVERIFY2(outcome.err.contains(expected), qPrintable(describe(outcome)));
    QCOMPARE(vault.files(), before);
}

void TestCliImport::exportImportsBack_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("importFormat");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QByteArray>("password"); // of the file; empty for plaintext formats
    QTest::newRow("watchword-backup")
        << "watchword-backup"
        << "watchword-backup" << QStringList{"--target-ms", "1"} << QByteArray("b4ckup");
    QTest::newRow("aegis-encrypted") << "aegis-encrypted"
                                     << "aegis" << QStringList{} << QByteArray("ph0ne");
    QTest::newRow("aegis") << "aegis"
                           << "aegis" << QStringList{"--plaintext"} << QByteArray();
    QTest::newRow("otpauth") << "otpauth"
                             << "otpauth" << QStringList{"--plaintext"} << QByteArray();
    QTest::newRow("google-migration")
        << "google-migration"
        << "google-migration" << QStringList{"--plaintext"} << QByteArray();
    QTest::newRow("2fas") << "2fas"
                          << "2fas" << QStringList{"--plaintext"} << QByteArray();
    QTest::newRow("ente") << "ente"
                          << "ente" << QStringList{"--plaintext"} << QByteArray();
}

void TestCliImport::exportImportsBack()
{
    QFETCH(QString, format);
    QFETCH(QString, importFormat);
    QFETCH(QStringList, options);
    QFETCH(QByteArray, password);
    const Vault source;
    QVERIFY(source.import(importData("aegis/aegis_plain.json"), "aegis").exitCode == 0);
    const QStringList codes = source.codes();
    QCOMPARE(codes.size(), 7);

    QTemporaryDir scratch;
    const QString out = scratch.filePath("exported");
    const QByteArray input = password.isEmpty() ? QByteArray() : password + '\n';
    const Outcome exported = source.exportTo(out, format, options, input);
    QVERIFY2(exported.exitCode == 0, qPrintable(describe(exported)));
    const qsizetype warnings = exported.err.count("watchword-cli: warning: ");
    const QByteArray written = out.toUtf8() + " (" + format.toUtf8() + ")";
    QCOMPARE(exported.out, warnings == 0 ? "exported 7 accounts to " + written + "\n"
                                         : "exported to " + written + " from 7 accounts, with " +
                                               QByteArray::number(warnings) +
                                               " warnings on stderr (accounts changed or left "
                                               "out)\n");
    struct stat status
    {};
    QCOMPARE(::stat(QFile::encodeName(out).constData(), &status), 0);
    QCOMPARE(status.st_mode & 0777u, 0600u);
    const QByteArray bytes = readBytes(out);
    if (!password.isEmpty())
        QVERIFY(!bytes.contains("Deno") && !bytes.contains("4SJHB4GSD43FZBAI7C2HLRJGPQ"));

    const Vault target;
    const Outcome imported = target.import(out, importFormat, {}, input);
    QVERIFY2(imported.exitCode == 0, qPrintable(describe(imported)));
    const QStringList back = target.codes();
    // What the format could not hold was left out, one warning each.
    QCOMPARE(exported.err.count('\n'), warnings);
    QCOMPARE(back.size() + warnings, codes.size());
    if (format != QLatin1String("google-migration"))
        QCOMPARE(warnings, 0);
    else
        QCOMPARE(back.size(), 3); // 7 digits, 50 s and Steam do not fit a transfer
    qsizetype at = 0;
    for (const auto& line : back) {
        // Same accounts, same codes, in the same order.
        const qsizetype found = codes.indexOf(line, at);
        QVERIFY2(found >= 0, qPrintable(line + " not among " + codes.join(", ")));
        at = found + 1;
    }
}

void TestCliImport::exportToStdout()
{
    const Vault vault;
    QVERIFY(vault.import(importData("otpauth_list/plain.txt"), "otpauth").exitCode == 0);
    const Outcome outcome = vault.exportTo("-", "otpauth", {"--plaintext"});
    QVERIFY2(outcome.exitCode == 0 && outcome.err.isEmpty(), qPrintable(describe(outcome)));
    const QList<QByteArray> lines = outcome.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 7);
    for (const auto& line : lines)
        QVERIFY2(line.startsWith("otpauth://"), line.constData());

    // Only the chosen accounts, in the order given.
    const Outcome listed =
        runCli({"vault", "list", vault.path(), "--json", "--password-stdin"}, vaultPassword + '\n');
    const QJsonArray records =
        parseJsonObject(verifySuccessLine(listed)).value("records").toArray();
    QCOMPARE(records.size(), 7);
    const QString third = records[2].toObject().value("id").toString();
    const QString first = records[0].toObject().value("id").toString();
    const Outcome chosen =
        vault.exportTo("-", "otpauth", {"--plaintext", "--ids", third + "," + first});
    QVERIFY2(chosen.exitCode == 0, qPrintable(describe(chosen)));
    QCOMPARE(chosen.out.trimmed().split('\n'), (QList<QByteArray>{lines[2], lines[0]}));
}

void TestCliImport::exportRefusals_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<bool>("toStdout");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("otpauth without --plaintext")
        << "otpauth" << QStringList{} << false << QByteArray("every secret in clear");
    QTest::newRow("aegis without --plaintext")
        << "aegis" << QStringList{} << false << QByteArray("--plaintext");
    QTest::newRow("migration to stdout without --plaintext")
        << "google-migration" << QStringList{} << true << QByteArray("--plaintext");
    QTest::newRow("encrypted to stdout")
        << "aegis-encrypted" << QStringList{} << true << QByteArray("only for the plaintext");
    QTest::newRow("--plaintext for an encrypted format")
        << "watchword-backup" << QStringList{"--plaintext"} << false << QByteArray("encrypted");
    QTest::newRow("unknown format")
        << "csv" << QStringList{} << false << QByteArray("'csv' is not a format");
    QTest::newRow("--target-ms for aegis") << "aegis-encrypted" << QStringList{"--target-ms", "5"}
                                           << false << QByteArray("only watchword-backup");
    QTest::newRow("bad id") << "watchword-backup" << QStringList{"--ids", "abc"} << false
                            << QByteArray("'abc' is not a record id");
}

void TestCliImport::exportRefusals()
{
    QFETCH(QString, format);
    QFETCH(QStringList, options);
    QFETCH(bool, toStdout);
    QFETCH(QByteArray, expected);
    const Vault vault;
    QVERIFY(vault.import(importData("otpauth_list/plain.txt"), "otpauth").exitCode == 0);
    QTemporaryDir scratch;
    const QString out = toStdout ? QStringLiteral("-") : scratch.filePath("out");
    const Outcome outcome = vault.exportTo(out, format, options, "pw\n");
    verifyUsageError(outcome);
    QVERIFY2(outcome.err.contains(expected), qPrintable(describe(outcome)));
    QVERIFY(!QFileInfo::exists(scratch.filePath("out")));
}

void TestCliImport::exportNeverReplacesWithoutForce()
{
    const Vault vault;
    QVERIFY(vault.import(importData("otpauth_list/plain.txt"), "otpauth").exitCode == 0);
    QTemporaryDir scratch;
    const QString out = scratch.filePath("backup.wwb");
    QVERIFY(writeBytes(out, "keep me\n"));
    const Outcome refused =
        vault.exportTo(out, "watchword-backup", {"--target-ms", "1"}, "b4ckup\n");
    QVERIFY2(refused.exitCode == 1 && refused.out.isEmpty(), qPrintable(describe(refused)));
    QVERIFY2(refused.err.contains("--force"), qPrintable(describe(refused)));
    QCOMPARE(readBytes(out), QByteArray("keep me\n"));
    QCOMPARE(QDir(scratch.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);

    // A wrong vault password, with --force: nothing is written either.
    const Outcome wrong = runCli({"vault", "export", vault.path(), "--to", "otpauth", out,
                                  "--plaintext", "--force", "--password-stdin"},
                                 "wrong\n");
    QCOMPARE(wrong.exitCode, 1);
    QCOMPARE(readBytes(out), QByteArray("keep me\n"));

    const Outcome replaced =
        vault.exportTo(out, "watchword-backup", {"--target-ms", "1", "--force"}, "b4ckup\n");
    QVERIFY2(replaced.exitCode == 0, qPrintable(describe(replaced)));
    QVERIFY(readBytes(out) != "keep me\n");
    QCOMPARE(QDir(scratch.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
    const Vault target;
    const Outcome back = target.import(out, "watchword-backup", {}, "b4ckup\n");
    QVERIFY2(back.exitCode == 0, qPrintable(describe(back)));
    QCOMPARE(target.codes(), vault.codes());
}

void TestCliImport::filePasswordsNormalizedOnlyForBackups()
{
    const Vault vault;
    QVERIFY(vault.import(importData("otpauth_list/plain.txt"), "otpauth").exitCode == 0);
    // "Ångström" composed (NFC) and decomposed (NFD): the same text.
    const QByteArray composed = "\xc3\x85ngstr\xc3\xb6m";
    const QByteArray decomposed = "A\xcc\x8angstro\xcc\x88m";
    QTemporaryDir scratch;

    // A Watchword backup takes the text, however it was typed (NFKD, as the vault).
    const QString backup = scratch.filePath("backup.wwb");
    QVERIFY(vault.exportTo(backup, "watchword-backup", {"--target-ms", "1"}, composed + '\n')
                .exitCode == 0);
    const Vault fromBackup;
    const Outcome backupBack = fromBackup.import(backup, "watchword-backup", {}, decomposed + '\n');
    QVERIFY2(backupBack.exitCode == 0, qPrintable(describe(backupBack)));
    QCOMPARE(fromBackup.codes(), vault.codes());

    // Aegis takes the bytes as typed, as the Aegis app does.
    const QString aegis = scratch.filePath("aegis.json");
    QVERIFY(vault.exportTo(aegis, "aegis-encrypted", {}, composed + '\n').exitCode == 0);
    const Vault fromAegis;
    const Outcome otherForm = fromAegis.import(aegis, "aegis", {}, decomposed + '\n');
    QVERIFY2(otherForm.exitCode == 1, qPrintable(describe(otherForm)));
    const Outcome sameForm = fromAegis.import(aegis, "aegis", {}, composed + '\n');
    QVERIFY2(sameForm.exitCode == 0, qPrintable(describe(sameForm)));
    QCOMPARE(fromAegis.codes(), vault.codes());
}

void TestCliImport::qrDecode()
{
    const QJsonObject files =
        loadJson(QStringLiteral("import/google_authenticator_migration/EXPECTED.json"))
            .value(QLatin1String("files"))
            .toObject();
    const QByteArray uri = files.value(QLatin1String("test_googleauth_export.png"))
                               .toObject()
                               .value(QLatin1String("qr_payload"))
                               .toString()
                               .toUtf8();
    const Outcome migration = runCli(
        {"qr", "decode", importData("google_authenticator_migration/test_googleauth_export.png")});
    QCOMPARE(verifySuccessLine(migration), uri);

    const QByteArray text = files.value(QLatin1String("qr_but_without_otp.png"))
                                .toObject()
                                .value(QLatin1String("qr_payload"))
                                .toString()
                                .toUtf8();
    const QString plain = importData("google_authenticator_migration/qr_but_without_otp.png");
    QCOMPARE(verifySuccessLine(runCli({"qr", "decode", plain})), text);
    // From stdin.
    QCOMPARE(verifySuccessLine(runCli({"qr", "decode", "-"}, readBytes(plain))), text);

    // A PNG without a code: the application's icon.
    const QString icon = QStringLiteral(WATCHWORD_ICON_PNG);
    QVERIFY(QFileInfo::exists(icon));
    const Outcome none = runCli({"qr", "decode", icon});
    QVERIFY2(none.exitCode == 1 && none.out.isEmpty(), qPrintable(describe(none)));
    QVERIFY2(none.err.contains("No QR code found"), qPrintable(describe(none)));

    const Outcome notPng = runCli({"qr", "decode", importData("EXPECTED.json")});
    verifyUsageError(notPng);
    QVERIFY2(notPng.err.contains("not a PNG"), qPrintable(describe(notPng)));
    QTemporaryDir scratch;
    const QByteArray whole = readBytes(plain);
    QVERIFY(writeBytes(scratch.filePath("cut.png"), whole.left(whole.size() / 2)));
    verifyUsageError(runCli({"qr", "decode", scratch.filePath("cut.png")}));
    verifyUsageError(runCli({"qr", "decode", scratch.filePath("missing.png")}));
    verifyUsageError(runCli({"qr", "decode"}));
    verifyUsageError(runCli({"qr", "encode", plain}));
    const Outcome help = runCli({"qr", "--help"});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.startsWith("usage: watchword-cli qr decode IMAGE"));

    // The command list names them.
    const Outcome top = runCli({"--help"});
    QVERIFY(top.out.contains("\n  qr         read the QR codes of a PNG image (decode)\n"));
    QVERIFY(top.out.contains("remove, passwd, recover, import, export)"));
}

QTEST_GUILESS_MAIN(TestCliImport)
#include "TestCliImport.moc"
