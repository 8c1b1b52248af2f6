// Every file of tests/data/import against its expectations: each file
// EXPECTED.json lists imports (with its password) to exactly the entries it
// lists, apart from the adjustments its notes document (applied below, each
// with the note it follows); encrypted files say so, refuse to open without
// a password and with a wrong one. The Google Authenticator transfer URIs
// are checked against google_authenticator_migration/EXPECTED.json the same
// way.
#include "ImportTestSupport.h"
#include "common/TestSupport.h"
#include "encoding/Base32.h"
#include "interop/importers/Import.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QtTest>
#include <algorithm>

using namespace watchword;
using namespace watchword::importers;
using test::readFile;

namespace {

// What an entry should be; issuer/name unset when the file's notes leave
// them to the importer.
struct Expected
{
    QString type;
    std::optional<QString> issuer;
    std::optional<QString> name;
    Bytes secret;
    QString algorithm;
    int digits = 0;
    std::uint64_t periodOrCounter = 0;
};

Bytes base32(const QString& text)
{
    auto decoded = encoding::fromBase32(text.toStdString());
    if (!decoded)
        qFatal("bad Base32 in EXPECTED.json: %s", decoded.error().message.c_str());
    return Bytes(decoded->begin(), decoded->end());
}

Expected expectedEntry(const QJsonObject& entry)
{
    Expected out;
    out.type = entry[QStringLiteral("type")].toString();
    out.issuer = entry[QStringLiteral("issuer")].toString();
    out.name = entry[QStringLiteral("name")].toString();
    out.secret = base32(entry[QStringLiteral("secret")].toString());
    out.algorithm = entry[QStringLiteral("algo")].toString();
    out.digits = entry[QStringLiteral("digits")].toInt();
    const auto value = entry[out.type == QLatin1String("hotp") ? QStringLiteral("counter")
                                                               : QStringLiteral("period")];
    if (!value.isDouble())
        qFatal("EXPECTED.json: an entry without period/counter");
    out.periodOrCounter = static_cast<std::uint64_t>(value.toDouble());
    return out;
}

QString algorithmName(crypto::HashAlgorithm algorithm)
{
    switch (algorithm) {
    case crypto::HashAlgorithm::Sha1:
        return QStringLiteral("SHA1");
    case crypto::HashAlgorithm::Sha256:
        return QStringLiteral("SHA256");
    case crypto::HashAlgorithm::Sha512:
        return QStringLiteral("SHA512");
    }
    return {};
}

QString describe(const ImportedAccount& account)
{
    const auto& p = account.parameters;
    return QStringLiteral("%1 %2/%3 %4 %5 digits %6")
        .arg(QString::fromUtf8(otp::kindName(p.kind).data(),
                               static_cast<qsizetype>(otp::kindName(p.kind).size())),
             QString::fromStdString(account.issuer), QString::fromStdString(account.accountName),
             algorithmName(p.algorithm))
        .arg(p.digits)
        .arg(p.kind == otp::OtpKind::Hotp ? QStringLiteral("counter %1").arg(p.counter)
                                          : QStringLiteral("period %1").arg(p.period));
}

QString describe(const Expected& e)
{
    return QStringLiteral("%1 %2/%3 %4 %5 digits %6")
        .arg(e.type, e.issuer.value_or(QStringLiteral("(any)")),
             e.name.value_or(QStringLiteral("(any)")), e.algorithm)
        .arg(e.digits)
        .arg(e.type == QLatin1String("hotp") ? QStringLiteral("counter %1").arg(e.periodOrCounter)
                                             : QStringLiteral("period %1").arg(e.periodOrCounter));
}

bool matches(const ImportedAccount& account, const Expected& e)
{
    const auto& p = account.parameters;
    const QString type = QString::fromLatin1(otp::kindName(p.kind).data(),
                                             static_cast<qsizetype>(otp::kindName(p.kind).size()));
    if (type != e.type || algorithmName(p.algorithm) != e.algorithm || p.digits != e.digits)
        return false;
    if (p.kind == otp::OtpKind::Hotp ? p.counter != e.periodOrCounter
                                     : p.period != e.periodOrCounter)
        return false;
    if (e.issuer && QString::fromStdString(account.issuer) != *e.issuer)
        return false;
    if (e.name && QString::fromStdString(account.accountName) != *e.name)
        return false;
    return std::equal(account.secret.begin(), account.secret.end(), e.secret.begin(),
                      e.secret.end());
}

// Every expected entry matched by a distinct imported one, and nothing
// more: the same entries, in whatever order the format keeps them.
void compareEntries(const std::vector<ImportedAccount>& accounts,
                    const std::vector<Expected>& expected)
{
    QStringList got;
    for (const auto& account : accounts)
        got << describe(account);
    QCOMPARE(accounts.size(), expected.size());
    std::vector<bool> used(accounts.size(), false);
    for (const auto& e : expected) {
        bool found = false;
        for (std::size_t i = 0; i < accounts.size() && !found; ++i)
            if (!used[i] && matches(accounts[i], e))
                used[i] = found = true;
        QVERIFY2(found, qPrintable(QStringLiteral("expected %1 (secret included) among:\n  %2")
                                       .arg(describe(e), got.join(QStringLiteral("\n  ")))));
    }
}

// The adjustments the notes of EXPECTED.json document, where the raw value
// stored in the file is not what the source app shows.
void adjust(const QString& file, Expected& e)
{
    // bitwarden: "steam://<secret> carries only the secret (issuer/name
    // empty here ...)": the importer names such an entry after the item,
    // which TestImportBasics checks; here only the code parameters count.
    if (file.startsWith(QLatin1String("bitwarden/")) && e.issuer->isEmpty() && e.name->isEmpty()) {
        e.issuer.reset();
        e.name.reset();
    }
    // andotp_encrypted_old.bin: "label is \"<issuer> - <issuer>:<name>\"
    // ... Aegis splits on \" - \"": the issuer is the part before " - ",
    // and the rest, a Key Uri Format label repeating that issuer, gives the
    // account name after the colon.
    if (file == QLatin1String("andotp/andotp_encrypted_old.bin") && e.issuer->isEmpty()) {
        const QString label = *e.name;
        const qsizetype dash = label.indexOf(QLatin1String(" - "));
        if (dash > 0) {
            const QString issuer = label.left(dash);
            QString rest = label.mid(dash + 3);
            if (rest.startsWith(issuer + QLatin1Char(':')))
                rest = rest.mid(issuer.size() + 1);
            e.issuer = issuer;
            e.name = rest;
        }
    }
}

ByteView view(const QByteArray& bytes)
{
    return test::view(bytes);
}

} // namespace

class TestImporters : public QObject
{
    Q_OBJECT

private slots:
    void expectedFiles_data();
    void expectedFiles();
    void migrationFiles_data();
    void migrationFiles();
    void migrationErrors_data();
    void migrationErrors();
};

void TestImporters::expectedFiles_data()
{
    QTest::addColumn<QJsonObject>("file");
    const QJsonObject expected = test::loadJson(QStringLiteral("import/EXPECTED.json"));
    const QJsonArray files = expected[QStringLiteral("files")].toArray();
    QVERIFY(!files.isEmpty());
    QCOMPARE(files.size(), expected[QStringLiteral("counts")][QStringLiteral("files")].toInt());
    for (const auto& value : files) {
        const QJsonObject file = value.toObject();
        QTest::newRow(qPrintable(file[QStringLiteral("file")].toString())) << file;
    }
}

void TestImporters::expectedFiles()
{
    QFETCH(QJsonObject, file);
    const QString path = file[QStringLiteral("file")].toString();
    const QByteArray data = readFile(path);
    const auto format = test::formatOfTestFile(path);

    const bool encrypted = file[QStringLiteral("encrypted")].toBool();
    const std::string password = file[QStringLiteral("password")].toString().toStdString();
    std::optional<ByteView> given;
    if (encrypted)
        given = asBytes(password);
    const auto result = importAccounts(format, view(data), given);
    QVERIFY2(result.ok(), result ? "" : result.error().message.c_str());
    QCOMPARE(result->format, format);

    const QJsonArray entries = file[QStringLiteral("entries")].toArray();
    QCOMPARE(entries.size(), file[QStringLiteral("entry_count")].toInt());
    std::vector<Expected> expected;
    for (const auto& entry : entries) {
        expected.push_back(expectedEntry(entry.toObject()));
        adjust(path, expected.back());
    }
    compareEntries(result->accounts, expected);
    for (const auto& warning : result->warnings)
        qInfo("%s: warning: %s", qPrintable(path), warning.c_str());

    QCOMPARE(isEncrypted(format, view(data)), encrypted);
    if (encrypted) {
        const auto without = importAccounts(format, view(data));
        QVERIFY(!without);
        QCOMPARE(without.error().code, ImportError::PasswordRequired);
        // An old andOTP backup starts with a random nonce, which read as the
        // current layout's iteration count is out of bounds: a wrong password
        // is reported as that count's error (FORMAT.md section 9, andOTP).
        const auto wrong = importAccounts(format, view(data), asBytes(password + "x"));
        QVERIFY(!wrong);
        QCOMPARE(wrong.error().code, path == QLatin1String("andotp/andotp_encrypted_old.bin")
                                         ? ImportError::Unsupported
                                         : ImportError::WrongPassword);
    } else {
        // A password given for a plain file changes nothing.
        const auto ignored = importAccounts(format, view(data), asBytes("unused"));
        QVERIFY(ignored.ok());
        QCOMPARE(ignored->accounts.size(), result->accounts.size());
    }
}

namespace {

// A migration payload's OtpParameters as an entry, with the importer's
// rule for names: Google writes "Issuer:account" as the name when it has
// the issuer too, and the prefix that repeats the issuer is dropped.
Expected migrationEntry(const QJsonObject& p)
{
    Expected out;
    const int type = p[QStringLiteral("type")].toInt();
    out.type = type == 1 ? QStringLiteral("hotp") : QStringLiteral("totp");
    out.issuer = p[QStringLiteral("issuer")].toString();
    QString name = p[QStringLiteral("name")].toString();
    if (!out.issuer->isEmpty() && name.startsWith(*out.issuer + QLatin1Char(':')))
        name = name.mid(out.issuer->size() + 1).trimmed();
    out.name = name;
    out.secret = base32(p[QStringLiteral("secret_b32")].toString());
    const int algorithm = p[QStringLiteral("algorithm")].toInt();
    out.algorithm = algorithm == 2   ? QStringLiteral("SHA256")
                    : algorithm == 3 ? QStringLiteral("SHA512")
                                     : QStringLiteral("SHA1");
    out.digits = p[QStringLiteral("digits")].toInt() == 2 ? 8 : 6;
    out.periodOrCounter =
        type == 1 ? static_cast<std::uint64_t>(p[QStringLiteral("counter")].toDouble()) : 30;
    return out;
}

QJsonObject migrationExpected()
{
    static const QJsonObject document =
        test::loadJson(QStringLiteral("import/google_authenticator_migration/EXPECTED.json"));
    return document[QStringLiteral("files")].toObject();
}

} // namespace

void TestImporters::migrationFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QJsonArray>("payloads");
    const QJsonObject files = migrationExpected();
    for (auto it = files.begin(); it != files.end(); ++it) {
        const QJsonObject file = it.value().toObject();
        if (!it.key().endsWith(QLatin1String(".txt")))
            continue; // QR code images: decoding them is the app's part
        QJsonArray payloads;
        for (const auto& uri : file[QStringLiteral("uris")].toArray())
            payloads.append(uri.toObject()[QStringLiteral("payload")]);
        if (file.contains(QStringLiteral("payload")))
            payloads.append(file[QStringLiteral("payload")]);
        if (!payloads.isEmpty())
            QTest::newRow(qPrintable(it.key())) << it.key() << payloads;
    }
}

void TestImporters::migrationFiles()
{
    QFETCH(QString, file);
    QFETCH(QJsonArray, payloads);
    const QByteArray data = readFile(QStringLiteral("google_authenticator_migration/") + file);
    QCOMPARE(guessFormats(view(data)).front(), Format::GoogleMigration);
    const auto result = importAccounts(Format::GoogleMigration, view(data));
    QVERIFY2(result.ok(), result ? "" : result.error().message.c_str());
    std::vector<Expected> expected;
    for (const auto& payload : payloads)
        for (const auto& entry : payload.toObject()[QStringLiteral("otp_parameters")].toArray())
            expected.push_back(migrationEntry(entry.toObject()));
    compareEntries(result->accounts, expected);
    // Every payload here is a whole transfer (batch_size 1).
    QVERIFY(result->warnings.empty());
}

void TestImporters::migrationErrors_data()
{
    QTest::addColumn<QString>("file");
    const QJsonObject files = migrationExpected();
    for (auto it = files.begin(); it != files.end(); ++it)
        if (it.value().toObject().contains(QStringLiteral("expect")) &&
            it.key().endsWith(QLatin1String(".txt")))
            QTest::newRow(qPrintable(it.key())) << it.key();
}

void TestImporters::migrationErrors()
{
    QFETCH(QString, file);
    const QByteArray data = readFile(QStringLiteral("google_authenticator_migration/") + file);
    const auto result = importAccounts(Format::GoogleMigration, view(data));
    QVERIFY(!result);
    QCOMPARE(result.error().code, ImportError::Malformed);
    QVERIFY(!result.error().message.empty());
}

QTEST_GUILESS_MAIN(TestImporters)
#include "TestImporters.moc"
