// Authenticator Pro (backups and internal database) and Google
// Authenticator's database on what goes wrong: wrong passwords, damaged,
// truncated and mislabelled files, key-derivation costs no real backup asks
// for, databases without the app's table or with values the app never
// writes. Plus what the data-driven TestImporters does not see: categories
// as tags (in a plain backup, one sealed afresh the app's way, and a
// database), and which app a database is guessed to be from.
//
// The databases are built here with SQLite and serialised to bytes, as the
// importers read them.
#include "ImportTestSupport.h"
#include "common/TestSupport.h"
#include "crypto/AesGcm.h"
#include "interop/importers/Common.h"
#include "interop/importers/Import.h"

#include <QStringList>
#include <QtTest>
#include <sqlite3.h>

Q_DECLARE_METATYPE(watchword::importers::detail::Argon2Cost)

using namespace watchword;
using namespace watchword::importers;
using test::edited;
using test::readFile;
using test::truncated;

namespace {

const QString plainBackup = QStringLiteral("authenticator_pro/stratum_plain.json");
const QString currentBackup = QStringLiteral("authenticator_pro/stratum_encrypted.bin");
const QString legacyBackup = QStringLiteral("authenticator_pro/stratum_encrypted_legacy.bin");
const QString stratumDatabase = QStringLiteral("authenticator_pro/stratum_internal.db");
const QString googleDatabase = QStringLiteral("google_authenticator/google_authenticator.sqlite");

QByteArray flippedAt(const QByteArray& data, qsizetype at)
{
    QByteArray out = data;
    const qsizetype i = at < 0 ? out.size() + at : at;
    out[i] = static_cast<char>(out[i] ^ 1);
    return out;
}

// A database made of statements, as its file's bytes.
QByteArray database(const QStringList& statements)
{
    sqlite3* db = nullptr;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK)
        qFatal("sqlite3_open failed");
    for (const QString& statement : statements) {
        char* error = nullptr;
        if (sqlite3_exec(db, statement.toUtf8().constData(), nullptr, nullptr, &error) != SQLITE_OK)
            qFatal("%s: %s", qPrintable(statement), error);
    }
    sqlite3_int64 size = 0;
    unsigned char* bytes = sqlite3_serialize(db, "main", &size, 0);
    if (!bytes)
        qFatal("sqlite3_serialize failed");
    QByteArray out(reinterpret_cast<const char*>(bytes), static_cast<qsizetype>(size));
    sqlite3_free(bytes);
    sqlite3_close(db);
    return out;
}

// Authenticator Pro's tables, as its database declares them.
const QStringList stratumTables = {
    QStringLiteral("CREATE TABLE authenticator (type integer, icon varchar, issuer varchar(32), "
                   "username varchar(40), secret varchar primary key not null, pin varchar, "
                   "algorithm integer, digits integer, period integer, counter integer, "
                   "ranking integer)"),
    QStringLiteral("CREATE TABLE category (id varchar(8) primary key not null, name varchar(32), "
                   "ranking integer)"),
    QStringLiteral("CREATE TABLE authenticatorcategory (categoryId varchar, authenticatorSecret "
                   "varchar, ranking integer)"),
};

QByteArray stratumWith(const QStringList& inserts)
{
    return database(stratumTables + inserts);
}

const QString googleTable =
    QStringLiteral("CREATE TABLE accounts (_id INTEGER PRIMARY KEY, email TEXT NOT NULL, secret "
                   "TEXT NOT NULL, counter INTEGER DEFAULT 0, type INTEGER, provider INTEGER "
                   "DEFAULT 0, issuer TEXT DEFAULT NULL, original_name TEXT DEFAULT NULL)");

QByteArray googleWith(const QStringList& inserts)
{
    return database(QStringList{googleTable} + inserts);
}

// The plain backup with its first authenticator's field key set to value
// (the JSON text of it).
QByteArray plainWith(const QByteArray& key, const QByteArray& from, const QByteArray& to)
{
    return edited(plainBackup, "\"" + key + "\":" + from, "\"" + key + "\":" + to);
}

const QByteArray password = "test";

// What the app writes when it encrypts a backup: the current layout.
QByteArray sealCurrent(const QByteArray& plaintext)
{
    const QByteArray salt(16, '\x5a');
    const QByteArray iv(12, '\x21');
    auto key = detail::argon2id("test", test::view(password), test::view(salt),
                                {.iterations = 3, .memoryKiB = 64 * 1024, .parallelism = 4}, 32);
    if (!key)
        qFatal("argon2id: %s", key.error().message.c_str());
    auto sealed = crypto::aesGcm::encrypt(*key, test::view(iv), {}, test::view(plaintext));
    if (!sealed)
        qFatal("AES-GCM: %s", sealed.error().message.c_str());
    return QByteArray("AUTHENTICATORPRO") + salt + iv +
           QByteArray(reinterpret_cast<const char*>(sealed->data()),
                      static_cast<qsizetype>(sealed->size()));
}

QStringList tagsOf(const ImportedAccount& account)
{
    QStringList out;
    for (const auto& tag : account.tags)
        out << QString::fromStdString(tag);
    return out;
}

// The accounts' "issuer: tags" lines, in order.
QStringList issuersAndTags(const Imported& imported)
{
    QStringList out;
    for (const auto& account : imported.accounts)
        out << QString::fromStdString(account.issuer) + QStringLiteral(": ") +
                   tagsOf(account).join(QLatin1Char(','));
    return out;
}

} // namespace

class TestImportDatabases : public QObject
{
    Q_OBJECT

private slots:
    void errors_data();
    void errors();
    void argon2Bounds_data();
    void argon2Bounds();
    void plainCategoriesBecomeTags();
    void sealedBackupWithCategories();
    void databaseCategoriesBecomeTags();
    void googleLabels();
    void guessesDatabases();
    void entryErrorsNameTheEntry();
};

void TestImportDatabases::errors_data()
{
    test::addImportErrorColumns();
    const auto row = [](const char* name, Format format, const QByteArray& data,
                        const QByteArray& pass, ImportError expected) {
        QTest::newRow(name) << format << data << pass << expected;
    };
    const auto pro = Format::AuthenticatorPro;
    const auto google = Format::GoogleAuthenticatorDb;
    const QByteArray none; // null: no password given
    const QByteArray current = readFile(currentBackup);
    const QByteArray legacy = readFile(legacyBackup);

    // Encrypted, current layout (Argon2id + AES-GCM).
    row("current: no password", pro, current, none, ImportError::PasswordRequired);
    row("current: wrong password", pro, current, "Test", ImportError::WrongPassword);
    row("current: empty password", pro, current, "", ImportError::WrongPassword);
    // AES-GCM cannot tell a damaged file from a wrong password.
    row("current: damaged ciphertext", pro, flippedAt(current, 60), password,
        ImportError::WrongPassword);
    row("current: damaged salt", pro, flippedAt(current, 16), password, ImportError::WrongPassword);
    row("current: damaged tag", pro, flippedAt(current, -1), password, ImportError::WrongPassword);
    row("current: truncated", pro, truncated(currentBackup), password, ImportError::WrongPassword);
    row("current: header only", pro, current.left(16 + 16 + 12), password, ImportError::Malformed);
    row("current: magic only", pro, QByteArray("AUTHENTICATORPRO"), password,
        ImportError::Malformed);

    // Encrypted, legacy layout (PBKDF2 + AES-CBC).
    row("legacy: no password", pro, legacy, none, ImportError::PasswordRequired);
    row("legacy: wrong password", pro, legacy, "Test", ImportError::WrongPassword);
    row("legacy: damaged last block", pro, flippedAt(legacy, -1), password,
        ImportError::WrongPassword);
    row("legacy: damaged first block", pro, flippedAt(legacy, 16 + 20 + 16), password,
        ImportError::WrongPassword);
    row("legacy: cut mid-block", pro, legacy.left(legacy.size() - 5), password,
        ImportError::Malformed);
    row("legacy: header only", pro, legacy.left(16 + 20 + 16), password, ImportError::Malformed);

    // Wrong magic: neither layout, so read as JSON, which it is not.
    row("wrong magic", pro, edited(current, "AUTHENTICATORPRO", "AUTHENTICATORPRX"), password,
        ImportError::Malformed);
    row("lower-case magic", pro, edited(current, "AUTHENTICATORPRO", "authenticatorpro"), password,
        ImportError::Malformed);

    // Plain JSON.
    row("plain: not JSON", pro, truncated(plainBackup), none, ImportError::Malformed);
    row("plain: no Authenticators", pro, edited(plainBackup, "\"Authenticators\"", "\"Others\""),
        none, ImportError::Malformed);
    row("plain: Authenticators not an array", pro,
        QByteArray("{\"Authenticators\": {\"Type\": 2}}"), none, ImportError::Malformed);
    row("plain: an entry not an object", pro, QByteArray("{\"Authenticators\": [7]}"), none,
        ImportError::Malformed);
    row("plain: Type a string", pro, plainWith("Type", "2", "\"2\""), none, ImportError::Malformed);
    row("plain: mOTP", pro, plainWith("Type", "2", "3"), none, ImportError::InvalidEntry);
    row("plain: Yandex", pro, plainWith("Type", "2", "5"), none, ImportError::InvalidEntry);
    row("plain: unknown type", pro, plainWith("Type", "2", "9"), none, ImportError::InvalidEntry);
    row("plain: unknown algorithm", pro, plainWith("Algorithm", "0", "3"), none,
        ImportError::InvalidEntry);
    row("plain: zero digits", pro, plainWith("Digits", "6", "0"), none, ImportError::InvalidEntry);
    row("plain: negative period", pro, plainWith("Period", "30", "-30"), none,
        ImportError::InvalidEntry);
    row("plain: secret not Base32", pro,
        plainWith("Secret", "\"4SJHB4GSD43FZBAI7C2HLRJGPQ\"", "\"1SJHB4GSD43FZBAI7C2HLRJGPQ\""),
        none, ImportError::InvalidEntry);
    row("plain: no secret", pro, plainWith("Secret", "\"4SJHB4GSD43FZBAI7C2HLRJGPQ\"", "null"),
        none, ImportError::InvalidEntry);
    row("plain: Categories not an array", pro,
        edited(plainBackup, "\"Categories\":[]", "\"Categories\":7"), none, ImportError::Malformed);

    // Authenticator Pro's database.
    const QByteArray stratum = readFile(stratumDatabase);
    row("db: truncated", pro, truncated(stratumDatabase), none, ImportError::Malformed);
    row("db: header only", pro, stratum.left(100), none, ImportError::Malformed);
    row("db: schema page overwritten", pro,
        stratum.left(100) + QByteArray(4096 - 100, '\xa5') + stratum.mid(4096), none,
        ImportError::Malformed);
    row("db: wrong magic", pro, edited(stratum, "SQLite format 3", "SQLite format 4"), none,
        ImportError::Malformed);
    row("db: Google's database", pro, readFile(googleDatabase), none, ImportError::Malformed);
    row("db: an authenticator view, not a table", pro,
        database({QStringLiteral("CREATE TABLE t (type, secret)"),
                  QStringLiteral("CREATE VIEW authenticator AS SELECT * FROM t")}),
        none, ImportError::Malformed);
    row("db: no secret column", pro,
        database({QStringLiteral("CREATE TABLE authenticator (type integer, issuer varchar)")}),
        none, ImportError::Malformed);
    row("db: mOTP", pro,
        stratumWith({QStringLiteral("INSERT INTO authenticator (type, issuer, username, secret, "
                                    "pin) VALUES (3, 'Deno', 'Mason', 'abcdef0123', '1234')")}),
        none, ImportError::InvalidEntry);
    row("db: type as text", pro,
        stratumWith({QStringLiteral("INSERT INTO authenticator (type, issuer, secret) VALUES "
                                    "('two', 'Deno', '4SJHB4GSD43FZBAI7C2HLRJGPQ')")}),
        none, ImportError::InvalidEntry);
    row("db: secret not Base32", pro,
        stratumWith({QStringLiteral("INSERT INTO authenticator (type, issuer, secret) VALUES "
                                    "(2, 'Deno', '1SJHB4GSD43FZBAI7C2HLRJGPQ')")}),
        none, ImportError::InvalidEntry);
    row("db: empty file", pro, QByteArray(), none, ImportError::Malformed);

    // Google Authenticator's database.
    const QByteArray googleFile = readFile(googleDatabase);
    row("google: truncated", google, truncated(googleDatabase), none, ImportError::Malformed);
    row("google: not a database", google, readFile(plainBackup), none, ImportError::Malformed);
    row("google: Authenticator Pro's database", google, stratum, none, ImportError::Malformed);
    row("google: no accounts table", google,
        database({QStringLiteral("CREATE TABLE android_metadata (locale TEXT)")}), none,
        ImportError::Malformed);
    row("google: no secret column", google,
        database({QStringLiteral("CREATE TABLE accounts (_id INTEGER PRIMARY KEY, email TEXT)")}),
        none, ImportError::Malformed);
    row("google: unknown type", google,
        googleWith({QStringLiteral("INSERT INTO accounts (email, secret, type) VALUES "
                                   "('Deno:Mason', '4SJHB4GSD43FZBAI7C2HLRJGPQ', 2)")}),
        none, ImportError::InvalidEntry);
    row("google: secret not Base32", google,
        googleWith({QStringLiteral("INSERT INTO accounts (email, secret, type) VALUES "
                                   "('Deno:Mason', 'not base32!', 0)")}),
        none, ImportError::InvalidEntry);
    row("google: empty secret", google,
        googleWith({QStringLiteral(
            "INSERT INTO accounts (email, secret, type) VALUES ('Deno:Mason', '', 0)")}),
        none, ImportError::InvalidEntry);
    row("google: negative counter", google,
        googleWith({QStringLiteral("INSERT INTO accounts (email, secret, counter, type) VALUES "
                                   "('Deno:Mason', '4SJHB4GSD43FZBAI7C2HLRJGPQ', -1, 1)")}),
        none, ImportError::InvalidEntry);
    row("google: pages cut off", google, googleFile.left(googleFile.size() - 4096), none,
        ImportError::Malformed);
}

void TestImportDatabases::errors()
{
    test::verifyImportError();
}

void TestImportDatabases::argon2Bounds_data()
{
    QTest::addColumn<detail::Argon2Cost>("cost");
    QTest::addColumn<int>("saltSize");
    QTest::addColumn<ImportError>("expected");
    QTest::newRow("4 GiB") << detail::Argon2Cost{3, 4u * 1024 * 1024, 4} << 16
                           << ImportError::Unsupported;
    QTest::newRow("just over the memory bound")
        << detail::Argon2Cost{1, detail::maximumArgon2MemoryKiB + 1, 1} << 16
        << ImportError::Unsupported;
    QTest::newRow("a billion passes")
        << detail::Argon2Cost{1'000'000'000, 64 * 1024, 4} << 16 << ImportError::Unsupported;
    QTest::newRow("a thousand lanes")
        << detail::Argon2Cost{3, 64 * 1024, 1000} << 16 << ImportError::Unsupported;
    QTest::newRow("no passes") << detail::Argon2Cost{0, 64 * 1024, 4} << 16
                               << ImportError::Malformed;
    QTest::newRow("no lanes") << detail::Argon2Cost{3, 64, 0} << 16 << ImportError::Malformed;
    QTest::newRow("salt of 4 bytes") << detail::Argon2Cost{1, 64, 1} << 4 << ImportError::Malformed;
}

void TestImportDatabases::argon2Bounds()
{
    QFETCH(detail::Argon2Cost, cost);
    QFETCH(int, saltSize);
    QFETCH(ImportError, expected);
    const QByteArray salt(saltSize, 's');
    const auto key =
        detail::argon2id("authenticator-pro", test::view(password), test::view(salt), cost, 32);
    QVERIFY(!key);
    QCOMPARE(key.error().code, expected);
    QVERIFY2(key.error().message.starts_with("authenticator-pro: "), key.error().message.c_str());
}

void TestImportDatabases::plainCategoriesBecomeTags()
{
    const QByteArray data =
        edited(edited(plainBackup, "\"Categories\":[]",
                      "\"Categories\":[{\"Id\":\"a1\",\"Name\":\"Work\",\"Ranking\":0},"
                      "{\"Id\":\"b2\",\"Name\":\"Home\",\"Ranking\":1}]"),
               "\"AuthenticatorCategories\":[]",
               "\"AuthenticatorCategories\":["
               "{\"CategoryId\":\"a1\",\"AuthenticatorSecret\":\"4SJHB4GSD43FZBAI7C2HLRJGPQ\"},"
               "{\"CategoryId\":\"b2\",\"AuthenticatorSecret\":\"4SJHB4GSD43FZBAI7C2HLRJGPQ\"},"
               "{\"CategoryId\":\"b2\",\"AuthenticatorSecret\":\"JRZCL47CMXVOQMNPZR2F7J4RGI\"},"
               "{\"CategoryId\":\"gone\",\"AuthenticatorSecret\":\"5OM4WOOGPLQEF6UGN3CPEOOLWU\"}]");
    const auto result = importAccounts(Format::AuthenticatorPro, test::view(data));
    QVERIFY2(result.ok(), result ? "" : result.error().message.c_str());
    QCOMPARE(issuersAndTags(*result),
             QStringList({"Deno: Work,Home", "SPDX: ", "Airbnb: ", "Issuu: ", "Air Canada: ",
                          "WWE: ", "Boeing: Home"}));
}

void TestImportDatabases::sealedBackupWithCategories()
{
    const QByteArray json =
        "{\"Authenticators\":[{\"Type\":2,\"Issuer\":\"Deno\",\"Username\":\"Mason\","
        "\"Secret\":\"4SJHB4GSD43FZBAI7C2HLRJGPQ\",\"Algorithm\":1,\"Digits\":8,\"Period\":60,"
        "\"Counter\":0,\"CopyCount\":4}],"
        "\"Categories\":[{\"Id\":\"c\",\"Name\":\"Servers\"}],"
        "\"AuthenticatorCategories\":[{\"CategoryId\":\"c\","
        "\"AuthenticatorSecret\":\"4SJHB4GSD43FZBAI7C2HLRJGPQ\"}],\"CustomIcons\":[]}";
    const QByteArray sealed = sealCurrent(json);
    QVERIFY(isEncrypted(Format::AuthenticatorPro, test::view(sealed)));
    const auto result =
        importAccounts(Format::AuthenticatorPro, test::view(sealed), test::view(password));
    QVERIFY2(result.ok(), result ? "" : result.error().message.c_str());
    QCOMPARE(result->accounts.size(), std::size_t{1});
    const auto& account = result->accounts.front();
    QCOMPARE(account.accountName, std::string("Mason"));
    QCOMPARE(account.parameters.algorithm, crypto::HashAlgorithm::Sha256);
    QCOMPARE(account.parameters.digits, 8);
    QCOMPARE(account.parameters.period, 60u);
    QCOMPARE(tagsOf(account), QStringList{"Servers"});

    // Sealed right but not the backup's JSON: the password was right, so
    // the file is what is wrong.
    const auto notJson = importAccounts(Format::AuthenticatorPro,
                                        test::view(sealCurrent("not json")), test::view(password));
    QVERIFY(!notJson);
    QCOMPARE(notJson.error().code, ImportError::Malformed);
}

void TestImportDatabases::databaseCategoriesBecomeTags()
{
    const QByteArray data = stratumWith({
        QStringLiteral("INSERT INTO authenticator (type, issuer, username, secret, algorithm, "
                       "digits, period, counter) VALUES "
                       "(2, 'Deno', 'Mason', '4SJHB4GSD43FZBAI7C2HLRJGPQ', 0, 6, 30, 0), "
                       "(1, 'Issuu', 'James', 'YOOMIXWS5GN6RTBPUFFWKTW5M4', 2, 8, 30, 7), "
                       "(4, 'Boeing', 'Sophia', 'JRZCL47CMXVOQMNPZR2F7J4RGI', 0, 5, 30, 0)"),
        QStringLiteral("INSERT INTO category (id, name) VALUES ('w', 'Work'), ('p', 'Play')"),
        QStringLiteral("INSERT INTO authenticatorcategory (categoryId, authenticatorSecret) "
                       "VALUES ('w', '4SJHB4GSD43FZBAI7C2HLRJGPQ'), "
                       "('p', 'JRZCL47CMXVOQMNPZR2F7J4RGI'), ('w', 'JRZCL47CMXVOQMNPZR2F7J4RGI')"),
    });
    const auto result = importAccounts(Format::AuthenticatorPro, test::view(data));
    QVERIFY2(result.ok(), result ? "" : result.error().message.c_str());
    QCOMPARE(issuersAndTags(*result), QStringList({"Deno: Work", "Issuu: ", "Boeing: Play,Work"}));
    const auto& hotp = result->accounts[1];
    QCOMPARE(hotp.parameters.kind, otp::OtpKind::Hotp);
    QCOMPARE(hotp.parameters.algorithm, crypto::HashAlgorithm::Sha512);
    QCOMPARE(hotp.parameters.digits, 8);
    QCOMPARE(hotp.parameters.counter, std::uint64_t{7});
    QCOMPARE(result->accounts[2].parameters.kind, otp::OtpKind::Steam);

    // An old database without the category tables imports without tags.
    const QByteArray old =
        database({stratumTables.front(),
                  QStringLiteral("INSERT INTO authenticator (type, issuer, secret) VALUES "
                                 "(2, 'Deno', '4SJHB4GSD43FZBAI7C2HLRJGPQ')")});
    const auto oldResult = importAccounts(Format::AuthenticatorPro, test::view(old));
    QVERIFY2(oldResult.ok(), oldResult ? "" : oldResult.error().message.c_str());
    QCOMPARE(issuersAndTags(*oldResult), QStringList{"Deno: "});

    // No rows: nothing to import, which is no error.
    const auto empty = importAccounts(Format::AuthenticatorPro, test::view(stratumWith({})));
    QVERIFY2(empty.ok(), empty ? "" : empty.error().message.c_str());
    QVERIFY(empty->accounts.empty());
}

void TestImportDatabases::googleLabels()
{
    // With an issuer column, the label's prefix that repeats it is dropped;
    // without one (old databases), "<issuer>:<name>" gives both.
    const QByteArray data = googleWith(
        {QStringLiteral("INSERT INTO accounts (email, secret, counter, type, issuer) VALUES "
                        "('Deno:Mason', '4SJH B4GS D43F ZBAI 7C2H LRJG PQ', 0, 0, 'Deno'), "
                        "('mason@example.org', '4sjhb4gsd43fzbai7c2hlrjgpq', 0, NULL, 'Deno'), "
                        "('Issuu: James', 'YOOMIXWS5GN6RTBPUFFWKTW5M4', 42, 1, NULL), "
                        "('plain', 'YOOMIXWS5GN6RTBPUFFWKTW5M4', 0, 0, '')")});
    const auto result = importAccounts(Format::GoogleAuthenticatorDb, test::view(data));
    QVERIFY2(result.ok(), result ? "" : result.error().message.c_str());
    QCOMPARE(result->format, Format::GoogleAuthenticatorDb);
    QStringList labels;
    for (const auto& account : result->accounts)
        labels << QString::fromStdString(account.issuer) + QLatin1Char('|') +
                      QString::fromStdString(account.accountName);
    QCOMPARE(labels,
             QStringList({"Deno|Mason", "Deno|mason@example.org", "Issuu|James", "|plain"}));
    QCOMPARE(result->accounts[2].parameters.kind, otp::OtpKind::Hotp);
    QCOMPARE(result->accounts[2].parameters.counter, std::uint64_t{42});
    // Spaces and lower case in the secret are what the app tolerates too.
    QCOMPARE(result->accounts[0].secret.size(), std::size_t{16});
    QVERIFY(std::equal(result->accounts[0].secret.begin(), result->accounts[0].secret.end(),
                       result->accounts[1].secret.begin(), result->accounts[1].secret.end()));
}

void TestImportDatabases::guessesDatabases()
{
    const auto guess = [](const QByteArray& data) {
        return guessFormats(test::view(data));
    };
    QCOMPARE(guess(readFile(stratumDatabase)), std::vector<Format>{Format::AuthenticatorPro});
    QCOMPARE(guess(readFile(googleDatabase)), std::vector<Format>{Format::GoogleAuthenticatorDb});
    // A database with both apps' tables could be either.
    QCOMPARE(guess(database({stratumTables.front(), googleTable})),
             std::vector<Format>({Format::AuthenticatorPro, Format::GoogleAuthenticatorDb}));
    QVERIFY(guess(database({QStringLiteral("CREATE TABLE other (x)")})).empty());
    QVERIFY(guess(truncated(googleDatabase)).empty());
    QVERIFY(guess(QByteArray("SQLite format 3\0", 16)).empty());
    QCOMPARE(guess(readFile(currentBackup)), std::vector<Format>{Format::AuthenticatorPro});
    QCOMPARE(guess(readFile(legacyBackup)), std::vector<Format>{Format::AuthenticatorPro});
    QVERIFY(!isEncrypted(Format::GoogleAuthenticatorDb, test::view(readFile(googleDatabase))));
    QVERIFY(!isEncrypted(Format::AuthenticatorPro, test::view(readFile(stratumDatabase))));
}

void TestImportDatabases::entryErrorsNameTheEntry()
{
    const auto pro =
        importAccounts(Format::AuthenticatorPro, test::view(plainWith("Type", "2", "5")));
    QVERIFY(!pro);
    QCOMPARE(QString::fromStdString(pro.error().message).left(55),
             QStringLiteral("authenticator-pro: entry 1 (Deno: Mason): Authenticator"));
    QVERIFY(QString::fromStdString(pro.error().message).contains(QLatin1String("Yandex")));

    const auto google = importAccounts(
        Format::GoogleAuthenticatorDb,
        test::view(googleWith({QStringLiteral(
            "INSERT INTO accounts (email, secret, type, issuer) VALUES "
            "('Deno:Mason', '4SJHB4GSD43FZBAI7C2HLRJGPQ', 0, 'Deno'), "
            "('  Air Canada  :Benjamin', 'KUVJJOM753IHTNDSZVCNKL7GII', 7, NULL)")})));
    QVERIFY(!google);
    QCOMPARE(
        google.error().message,
        std::string("google-authenticator-db: entry 2 (Air Canada: Benjamin): unknown type 7"));
}

QTEST_GUILESS_MAIN(TestImportDatabases)
#include "TestImportDatabases.moc"
