// What all importers share and the three text formats read without a
// password: format names, guessing the format of every test file, the size
// bounds, and the otpauth list, Google Authenticator transfer and Bitwarden
// importers' answers to damaged, odd and hostile input (each built in memory,
// most from the real test files).
#include "ImportTestSupport.h"
#include "common/TestSupport.h"
#include "encoding/Base32.h"
#include "interop/importers/Import.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <set>

using namespace watchword;
using namespace watchword::importers;
using test::readFile;

namespace {

ImportResult<Imported> import(Format format, const QByteArray& data)
{
    return importAccounts(format, test::view(data));
}

QString message(const ImportResult<Imported>& result)
{
    return result ? QString() : QString::fromStdString(result.error().message);
}

std::string base32(ByteView bytes)
{
    return std::string(encoding::toBase32(bytes, encoding::Base32Padding::Omit).view());
}

// A protobuf writer for the transfer payloads the tests build.
class Proto
{
public:
    Proto& varint(std::uint64_t field, std::uint64_t value)
    {
        key(field, 0);
        raw(value);
        return *this;
    }
    Proto& bytes(std::uint64_t field, const QByteArray& value)
    {
        key(field, 2);
        raw(static_cast<std::uint64_t>(value.size()));
        m_data += value;
        return *this;
    }
    Proto& message(std::uint64_t field, const Proto& value) { return bytes(field, value.m_data); }
    Proto& append(const QByteArray& raw)
    {
        m_data += raw;
        return *this;
    }
    const QByteArray& data() const { return m_data; }

private:
    void key(std::uint64_t field, std::uint64_t wireType) { raw(field << 3 | wireType); }
    void raw(std::uint64_t value)
    {
        do {
            const auto low = static_cast<char>(value & 0x7f);
            value >>= 7;
            m_data += static_cast<char>(low | (value ? 0x80 : 0));
        } while (value);
    }
    QByteArray m_data;
};

const QByteArray secret20 = QByteArrayLiteral("12345678901234567890");

Proto otpParameters(const QByteArray& name = "alice", const QByteArray& issuer = "Example",
                    int algorithm = 1, int digits = 1, int type = 2)
{
    Proto p;
    p.bytes(1, secret20).bytes(2, name).bytes(3, issuer);
    p.varint(4, static_cast<std::uint64_t>(algorithm));
    p.varint(5, static_cast<std::uint64_t>(digits));
    p.varint(6, static_cast<std::uint64_t>(type));
    return p;
}

QByteArray migrationUri(const Proto& payload)
{
    return "otpauth-migration://offline?data=" + payload.data().toBase64().toPercentEncoding();
}

Proto payloadOf(const Proto& entry, int batchSize = 1, int batchIndex = 0, int batchId = 7)
{
    Proto payload;
    payload.message(1, entry).varint(2, 1).varint(3, static_cast<std::uint64_t>(batchSize));
    payload.varint(4, static_cast<std::uint64_t>(batchIndex));
    payload.varint(5, static_cast<std::uint64_t>(static_cast<std::uint32_t>(batchId)));
    return payload;
}

} // namespace

class TestImportBasics : public QObject
{
    Q_OBJECT

private slots:
    void formatNames();
    void guessesEveryTestFile_data();
    void guessesEveryTestFile();
    void guessesNothingFromNoise();
    void emptyAndTooLarge();
    void tooManyAccounts();

    void otpauthListLines();
    void otpauthListErrors_data();
    void otpauthListErrors();

    void migrationFields();
    void migrationEnums_data();
    void migrationEnums();
    void migrationDamage_data();
    void migrationDamage();
    void migrationVersions();
    void unrecognisedFiles_data();
    void unrecognisedFiles();
    void bitwardenHandTypedSecrets();
    void migrationVersion2Files_data();
    void migrationVersion2Files();
    void migrationBatches();
    void migrationTruncations();

    void bitwardenNames();
    void bitwardenCsv();
    void bitwardenErrors_data();
    void bitwardenErrors();
};

void TestImportBasics::formatNames()
{
    std::set<std::string_view> names;
    std::set<std::string_view> titles;
    for (const Format format : allFormats) {
        const auto name = formatName(format);
        QVERIFY(!name.empty());
        QCOMPARE(formatNamed(name), std::optional<Format>(format));
        QVERIFY(names.insert(name).second);
        QVERIFY(!formatTitle(format).empty());
        QVERIFY(titles.insert(formatTitle(format)).second);
    }
    QCOMPARE(formatName(Format::TwoFas), std::string_view("2fas"));
    QCOMPARE(formatName(Format::GoogleMigration), std::string_view("google-migration"));
    QCOMPARE(formatName(Format::AuthenticatorPro), std::string_view("authenticator-pro"));
    QCOMPARE(formatNamed("Aegis"), std::optional<Format>()); // names are exact
    QCOMPARE(formatNamed(""), std::optional<Format>());
    QCOMPARE(formatNamed("aegis "), std::optional<Format>());
}

void TestImportBasics::guessesEveryTestFile_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QList<int>>("first"); // the formats that may come first; none: no guess
    const auto f = [](Format format) {
        return QList<int>{static_cast<int>(format)};
    };
    // FreeOTP 1.x and FreeOTP+ keep the same SharedPreferences file: either
    // may come first (both read it alike).
    const QList<int> preferences = {static_cast<int>(Format::FreeOtp),
                                    static_cast<int>(Format::FreeOtpPlus)};
    const QJsonObject expected = test::loadJson(QStringLiteral("import/EXPECTED.json"));
    for (const auto& value : expected[QStringLiteral("files")].toArray()) {
        const QString file = value.toObject()[QStringLiteral("file")].toString();
        QList<int> first;
        if (file.endsWith(QLatin1String(".sqlite")))
            first = f(Format::GoogleAuthenticatorDb);
        else if (file.endsWith(QLatin1String(".xml")) &&
                 file.startsWith(QLatin1String("freeotp")) && !file.contains(QLatin1String("_v2_")))
            first = preferences;
        else if (file == QLatin1String("ente/stratum_ente.unencrypted.txt") ||
                 file == QLatin1String("winauth/stratum_winauth.txt"))
            // An Ente export without codeDisplay, and WinAuth's text
            // export, are otpauth lists too.
            first = {static_cast<int>(Format::OtpauthList), static_cast<int>(Format::Ente),
                     static_cast<int>(Format::WinAuth)};
        else
            first = f(test::formatOfTestFile(file));
        QTest::newRow(qPrintable(file)) << file << first;
    }
    for (const char* file : {"example_export.txt", "test_plus_problem_export.txt"})
        QTest::newRow(file) << QStringLiteral("google_authenticator_migration/") + file
                            << f(Format::GoogleMigration);
    QTest::newRow("wrong content")
        << "google_authenticator_migration/test_export_wrong_content.txt" << QList<int>{};
    QTest::newRow("wrong prefix") << "google_authenticator_migration/test_export_wrong_prefix.txt"
                                  << QList<int>{};
}

void TestImportBasics::guessesEveryTestFile()
{
    QFETCH(QString, file);
    QFETCH(QList<int>, first);
    const auto guessed = guessFormats(test::view(readFile(file)));
    if (first.isEmpty()) {
        QVERIFY(guessed.empty());
        return;
    }
    QVERIFY(!guessed.empty());
    QVERIFY2(first.contains(static_cast<int>(guessed.front())), formatName(guessed.front()).data());
    // Guesses are distinct.
    QCOMPARE(std::set<Format>(guessed.begin(), guessed.end()).size(), guessed.size());
}

void TestImportBasics::guessesNothingFromNoise()
{
    QVERIFY(guessFormats({}).empty());
    QVERIFY(guessFormats(asBytes("hello")).empty());
    QVERIFY(guessFormats(asBytes("{}")).empty());
    QVERIFY(guessFormats(asBytes("[1, 2]")).empty());
    QVERIFY(guessFormats(asBytes("{\"version\": 1")).empty()); // broken JSON
    QVERIFY(guessFormats(asBytes("<html></html>")).empty());
    // Short binary is too short even for andOTP's old backup.
    QVERIFY(guessFormats(asBytes("\x01\x02\xff")).empty());
}

void TestImportBasics::emptyAndTooLarge()
{
    QByteArray tooLarge(static_cast<qsizetype>(maximumImportBytes) + 1, 'a');
    for (const Format format : allFormats) {
        const auto empty = import(format, {});
        QVERIFY(!empty);
        QCOMPARE(empty.error().code, ImportError::Malformed);
        const auto large = import(format, tooLarge);
        QVERIFY(!large);
        QCOMPARE(large.error().code, ImportError::TooLarge);
        QVERIFY(guessFormats(test::view(tooLarge)).empty());
    }
}

void TestImportBasics::tooManyAccounts()
{
    QByteArray lines;
    const QByteArray line = "otpauth://totp/a?secret=GEZDGNBVGY3TQOJQ\n";
    for (std::size_t i = 0; i < maximumImportedAccounts; ++i)
        lines += line;
    const auto most = import(Format::OtpauthList, lines);
    QVERIFY2(most.ok(), qPrintable(message(most)));
    QCOMPARE(most->accounts.size(), maximumImportedAccounts);
    lines += line;
    const auto over = import(Format::OtpauthList, lines);
    QVERIFY(!over);
    QCOMPARE(over.error().code, ImportError::TooLarge);
}

void TestImportBasics::otpauthListLines()
{
    // Blank lines, spaces, CRLF and a byte order mark come from pasting.
    const QByteArray text = "\xEF\xBB\xBF\r\n  otpauth://totp/A:a?secret=GEZDGNBVGY3TQOJQ  \r\n\n"
                            "\totpauth://hotp/b?secret=GEZDGNBVGY3TQOJQ&counter=7\r\n   \n";
    const auto result = import(Format::OtpauthList, text);
    QVERIFY2(result.ok(), qPrintable(message(result)));
    QCOMPARE(result->format, Format::OtpauthList);
    QCOMPARE(result->accounts.size(), std::size_t(2));
    QCOMPARE(result->accounts[0].issuer, std::string("A"));
    QCOMPARE(result->accounts[0].accountName, std::string("a"));
    QCOMPARE(result->accounts[1].parameters.kind, otp::OtpKind::Hotp);
    QCOMPARE(result->accounts[1].parameters.counter, std::uint64_t(7));
    QCOMPARE(result->accounts[1].secret.view(), std::string_view("1234567890"));
}

void TestImportBasics::otpauthListErrors_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<ImportError>("code");
    QTest::addColumn<QString>("where"); // in the message

    const QByteArray plain = readFile(QStringLiteral("otpauth_list/plain.txt"));
    const QByteArray good = "otpauth://totp/A:a?secret=GEZDGNBVGY3TQOJQ\n";
    QTest::newRow("blank only") << QByteArray(" \n\r\n\t") << ImportError::Malformed << "otpauth";
    QTest::newRow("not a URI") << (good + "hello\n") << ImportError::Malformed << "line 2";
    // No app writes comments into these lists: '#' is not special.
    QTest::newRow("comment") << (good + "# a comment\n") << ImportError::Malformed << "line 2";
    QTest::newRow("migration URI")
        << (good + "otpauth-migration://offline?data=AA==\n") << ImportError::Malformed << "line 2";
    QTest::newRow("bad secret") << (good + "\n" + "otpauth://totp/B:b?secret=1\n")
                                << ImportError::InvalidEntry << "line 3";
    QTest::newRow("md5") << QByteArray(
                                "otpauth://totp/B:b?secret=GEZDGNBVGY3TQOJQ&algorithm=MD5\n" + good)
                         << ImportError::InvalidEntry << "line 1";
    QTest::newRow("no secret") << QByteArray("otpauth://totp/B:b?issuer=B")
                               << ImportError::InvalidEntry << "line 1";
    QTest::newRow("not UTF-8") << QByteArray("otpauth://totp/\xff?secret=GEZDGNBVGY3TQOJQ")
                               << ImportError::Malformed << "UTF-8";
    QTest::newRow("a damaged line of plain.txt")
        << QByteArray(plain).replace("secret=YOOMIX", "secret=YOO!IX") << ImportError::InvalidEntry
        << "line 4";
    QTest::newRow("aegis file") << readFile(QStringLiteral("aegis/aegis_plain.json"))
                                << ImportError::Malformed << "line 1";
    QTest::newRow("binary") << readFile(QStringLiteral("andotp/andotp_encrypted.bin"))
                            << ImportError::Malformed << "UTF-8";
}

void TestImportBasics::otpauthListErrors()
{
    QFETCH(QByteArray, text);
    QFETCH(ImportError, code);
    QFETCH(QString, where);
    const auto result = import(Format::OtpauthList, text);
    QVERIFY(!result);
    QCOMPARE(result.error().code, code);
    QVERIFY2(message(result).contains(where), qPrintable(message(result)));
    // The secret of a bad line is never in the message.
    QVERIFY(!message(result).contains(QLatin1String("GEZDGNBVGY3TQOJQ")));
}

void TestImportBasics::migrationFields()
{
    // Every field, an unknown field of each wire type (skipped), the name's
    // repeated issuer prefix dropped, '+' in the Base64 kept literally.
    Proto entry = otpParameters("Example: alice@example.com", "Example", 3, 2, 1);
    entry.varint(7, 42);
    entry.varint(99, 5).bytes(100, "ignored");
    entry.append(QByteArray("\x6d\x01\x02\x03\x04", 5));                 // field 13, fixed32
    entry.append(QByteArray("\x71\x01\x02\x03\x04\x05\x06\x07\x08", 9)); // field 14, fixed64
    Proto payload = payloadOf(entry);
    const QByteArray uri = "otpauth-migration://offline?data=" + payload.data().toBase64();
    const auto result = import(Format::GoogleMigration, uri);
    QVERIFY2(result.ok(), qPrintable(message(result)));
    QCOMPARE(result->accounts.size(), std::size_t(1));
    const auto& account = result->accounts[0];
    QCOMPARE(account.issuer, std::string("Example"));
    QCOMPARE(account.accountName, std::string("alice@example.com"));
    QCOMPARE(account.secret.view(), std::string_view(secret20.constData()));
    QCOMPARE(account.parameters.kind, otp::OtpKind::Hotp);
    QCOMPARE(account.parameters.algorithm, crypto::HashAlgorithm::Sha512);
    QCOMPARE(account.parameters.digits, 8);
    QCOMPARE(account.parameters.counter, std::uint64_t(42));

    // A name with a colon but no issuer is left whole; an unrelated prefix
    // too.
    for (const auto& [name, issuer] : {std::pair{"a:b", ""}, std::pair{"Other:b", "Example"}}) {
        const auto kept =
            import(Format::GoogleMigration, migrationUri(payloadOf(otpParameters(name, issuer))));
        QVERIFY2(kept.ok(), qPrintable(message(kept)));
        QCOMPARE(kept->accounts[0].accountName, std::string(name));
        QCOMPARE(kept->accounts[0].issuer, std::string(issuer));
    }

    // Missing '=' padding and an upper-case scheme are read.
    QByteArray unpadded =
        "OTPAUTH-MIGRATION://offline?data=" +
        payloadOf(otpParameters("ab"))
            .data()
            .toBase64(QByteArray::Base64Encoding | QByteArray::OmitTrailingEquals);
    const auto lenient = import(Format::GoogleMigration, unpadded);
    QVERIFY2(lenient.ok(), qPrintable(message(lenient)));
}

void TestImportBasics::migrationEnums_data()
{
    QTest::addColumn<int>("algorithm");
    QTest::addColumn<int>("digits");
    QTest::addColumn<int>("type");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<int>("resultDigits");
    QTest::addColumn<int>("resultKind");
    const int totp = static_cast<int>(otp::OtpKind::Totp);
    const int hotp = static_cast<int>(otp::OtpKind::Hotp);
    QTest::newRow("all unspecified: SHA1, 6, TOTP") << 0 << 0 << 0 << true << 6 << totp;
    QTest::newRow("SHA256 8 HOTP") << 2 << 2 << 1 << true << 8 << hotp;
    QTest::newRow("MD5") << 4 << 1 << 2 << false << 0 << 0;
    QTest::newRow("algorithm 5") << 5 << 1 << 2 << false << 0 << 0;
    QTest::newRow("digits 3") << 1 << 3 << 2 << false << 0 << 0;
    QTest::newRow("type 3") << 1 << 1 << 3 << false << 0 << 0;
}

void TestImportBasics::migrationEnums()
{
    QFETCH(int, algorithm);
    QFETCH(int, digits);
    QFETCH(int, type);
    QFETCH(bool, valid);
    const auto result =
        import(Format::GoogleMigration,
               migrationUri(payloadOf(otpParameters("a", "B", algorithm, digits, type))));
    if (!valid) {
        QVERIFY(!result);
        QCOMPARE(result.error().code, ImportError::InvalidEntry);
        QVERIFY2(message(result).contains(QLatin1String("entry 1 (B: a)")),
                 qPrintable(message(result)));
        return;
    }
    QFETCH(int, resultDigits);
    QFETCH(int, resultKind);
    QVERIFY2(result.ok(), qPrintable(message(result)));
    QCOMPARE(result->accounts[0].parameters.digits, resultDigits);
    QCOMPARE(static_cast<int>(result->accounts[0].parameters.kind), resultKind);
    QCOMPARE(result->accounts[0].parameters.period, std::uint32_t(30));
}

void TestImportBasics::migrationDamage_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<ImportError>("code");

    const QByteArray prefix = "otpauth-migration://offline?data=";
    auto encoded = [&](const QByteArray& payload) {
        return prefix + payload.toBase64();
    };
    const QByteArray good = payloadOf(otpParameters()).data();
    QTest::newRow("no data") << QByteArray("otpauth-migration://offline?x=1")
                             << ImportError::Malformed;
    QTest::newRow("empty data") << QByteArray("otpauth-migration://offline?data=")
                                << ImportError::Malformed;
    QTest::newRow("twice data") << (encoded(good) + "&data=" + good.toBase64())
                                << ImportError::Malformed;
    QTest::newRow("not base64") << (prefix + "ab!d") << ImportError::Malformed;
    QTest::newRow("broken escape") << (prefix + "ab%2") << ImportError::Malformed;
    QTest::newRow("truncated") << encoded(good.left(good.size() - 3)) << ImportError::Malformed;
    QTest::newRow("entry length past the end")
        << encoded(QByteArray("\x0a\x7f") + good) << ImportError::Malformed;
    QTest::newRow("varint of 11 bytes")
        << encoded(QByteArray("\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"))
        << ImportError::Malformed;
    QTest::newRow("varint over 64 bits")
        << encoded(QByteArray("\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02"))
        << ImportError::Malformed;
    QTest::newRow("group wire type")
        << encoded(QByteArray("\x0b") + good) << ImportError::Malformed;
    QTest::newRow("field 0") << encoded(QByteArray("\x00\x01", 2) + good) << ImportError::Malformed;
    QTest::newRow("no entry") << encoded(Proto().varint(2, 1).data()) << ImportError::Malformed;
    QTest::newRow("empty secret") << encoded(payloadOf(Proto().bytes(2, "a").varint(6, 2)).data())
                                  << ImportError::InvalidEntry;
    QTest::newRow("other scheme") << QByteArray("otpauth://totp/a?secret=GEZDGNBVGY3TQOJQ")
                                  << ImportError::Malformed;
    QTest::newRow("second line bad") << (encoded(good) + "\nhello") << ImportError::Malformed;
    QTest::newRow("comments only") << QByteArray("# nothing\n\n") << ImportError::Malformed;
}

void TestImportBasics::migrationDamage()
{
    QFETCH(QByteArray, text);
    QFETCH(ImportError, code);
    const auto result = import(Format::GoogleMigration, text);
    QVERIFY(!result);
    QCOMPARE(result.error().code, code);
    QVERIFY(!result.error().message.empty());
}

// Google Authenticator 7.x writes version 2, entries with a field 8 of its
// own, no batch id: read as version 1 is. A later version is read by the
// same fields, with a warning saying so; the version is never a reason to
// refuse accounts whose fields read.
void TestImportBasics::migrationVersions()
{
    Proto entry = otpParameters("alice@example.com", "Example", 2, 2, 2);
    entry.varint(8, 1).bytes(9, "unknown");
    const auto payload = [&](std::uint64_t version) {
        return Proto().message(1, entry).varint(2, version).varint(3, 1).varint(4, 0);
    };
    for (const std::uint64_t version : {0u, 1u, 2u}) {
        const auto result = import(Format::GoogleMigration, migrationUri(payload(version)));
        QVERIFY2(result.ok(), qPrintable(message(result)));
        QCOMPARE(result->accounts.size(), std::size_t(1));
        QCOMPARE(result->accounts[0].issuer, std::string("Example"));
        QCOMPARE(result->accounts[0].accountName, std::string("alice@example.com"));
        QCOMPARE(result->accounts[0].parameters.algorithm, crypto::HashAlgorithm::Sha256);
        QCOMPARE(result->accounts[0].parameters.digits, 8);
        QVERIFY(result->warnings.empty());
    }
    // Version 7 on two lines: read, one warning naming it.
    const QByteArray seven = migrationUri(payload(7));
    const auto newer = import(Format::GoogleMigration, seven + "\n" + seven);
    QVERIFY2(newer.ok(), qPrintable(message(newer)));
    QCOMPARE(newer->accounts.size(), std::size_t(2));
    QCOMPARE(newer->warnings.size(), std::size_t(1));
    QVERIFY2(QString::fromStdString(newer->warnings[0]).contains(QLatin1String("version 7")),
             newer->warnings[0].c_str());
}

// Real transfers of Google Authenticator 7.x (version 2, field 8 in most
// entries, no batch id), as EXPECTED.json has them from an independent
// decoder: every entry, every field.
void TestImportBasics::migrationVersion2Files_data()
{
    QTest::addColumn<QString>("file");
    const QJsonObject files =
        QJsonDocument::fromJson(
            readFile(QStringLiteral("google_authenticator_migration/version2/EXPECTED.json")))
            .object()
            .value(QLatin1String("files"))
            .toObject();
    QVERIFY(files.size() >= 6);
    for (const QString& file : files.keys())
        QTest::newRow(qPrintable(file)) << file;
}

void TestImportBasics::migrationVersion2Files()
{
    QFETCH(QString, file);
    const QJsonArray expected =
        QJsonDocument::fromJson(
            readFile(QStringLiteral("google_authenticator_migration/version2/EXPECTED.json")))
            .object()
            .value(QLatin1String("files"))
            .toObject()
            .value(file)
            .toArray();
    const QByteArray data = readFile("google_authenticator_migration/version2/" + file);
    QCOMPARE(guessFormats(test::view(data)).front(), Format::GoogleMigration);
    const auto result = importAccounts(Format::GoogleMigration, test::view(data));
    QVERIFY2(result.ok(), qPrintable(message(result)));
    QCOMPARE(result->accounts.size(), std::size_t(expected.size()));
    for (qsizetype i = 0; i < expected.size(); ++i) {
        const QJsonObject entry = expected[i].toObject();
        const auto& account = result->accounts[std::size_t(i)];
        QCOMPARE(QString::fromStdString(account.issuer), entry[QLatin1String("issuer")].toString());
        QCOMPARE(QString::fromStdString(account.accountName),
                 entry[QLatin1String("name")].toString());
        QCOMPARE(
            QString::fromLatin1(
                encoding::toBase32(account.secret.span(), encoding::Base32Padding::Omit).view()),
            entry[QLatin1String("secret")].toString());
        const QString algorithm = entry[QLatin1String("algorithm")].toString();
        QCOMPARE(account.parameters.algorithm, algorithm == QLatin1String("SHA256")
                                                   ? crypto::HashAlgorithm::Sha256
                                                   : crypto::HashAlgorithm::Sha1);
        QCOMPARE(account.parameters.digits, entry[QLatin1String("digits")].toInt());
        const bool hotp = entry[QLatin1String("type")].toString() == QLatin1String("hotp");
        QCOMPARE(account.parameters.kind, hotp ? otp::OtpKind::Hotp : otp::OtpKind::Totp);
        QCOMPARE(account.parameters.counter,
                 hotp ? std::uint64_t(entry[QLatin1String("counter")].toInt()) : 0u);
        QCOMPARE(account.parameters.period, std::uint32_t(30));
    }
    // One QR code of a batch of several: the others are missing, and said so.
    const bool partOfBatch = file.contains(QLatin1String("_of"));
    QCOMPARE(result->warnings.size(), std::size_t(partOfBatch ? 1 : 0));
}

// Bitwarden decodes a secret whose last Base32 group has 1, 3 or 6 symbols
// by dropping the bits after the last whole byte: a bare secret, a steam://
// one and an otpauth URI's alike. (Expected bytes computed outside.) An
// otpauth list, whose writer is unknown, keeps RFC 4648 and names the entry.
void TestImportBasics::bitwardenHandTypedSecrets()
{
    const QByteArray json = R"({"encrypted": false, "items": [
        {"type": 1, "name": "Bare", "login": {"username": "u", "totp": "JDJSKDKDKDKDKDKDK"}},
        {"type": 1, "name": "Uri", "login": {"totp":
            "otpauth://totp/Example:alice?secret=BDKSIEHWBDBBDBDZBZJ&issuer=Example"}}]})";
    const auto result = import(Format::Bitwarden, json);
    QVERIFY2(result.ok(), qPrintable(message(result)));
    QCOMPARE(result->accounts.size(), std::size_t(2));
    const auto hex = [](const SecureBuffer& secret) {
        return QByteArray(reinterpret_cast<const char*>(secret.data()), qsizetype(secret.size()))
            .toHex();
    };
    QCOMPARE(hex(result->accounts[0].secret), QByteArray("48d3250d4350d4350d43"));
    QCOMPARE(hex(result->accounts[1].secret), QByteArray("08d52410f608c21184790e"));

    const auto strict =
        import(Format::OtpauthList, "otpauth://totp/Example:alice?secret=BDKSIEHWBDBBDBDZBZJ");
    QVERIFY(!strict);
    QCOMPARE(strict.error().code, ImportError::InvalidEntry);
    QVERIFY2(message(strict).startsWith(QLatin1String("otpauth: entry 1 (Example: alice): ")),
             qPrintable(message(strict)));
    QVERIFY2(message(strict).contains(QLatin1String("3 symbol(s)")), qPrintable(message(strict)));
}

// Files of apps this version does not read, which an earlier guess took for
// an andOTP backup (and asked its password): guessed as nothing, and said
// what they are.
void TestImportBasics::unrecognisedFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("what");
    QTest::newRow("empty zip") << "winauth/stratum_winauth.invalid.zip"
                               << "a ZIP archive";
    QTest::newRow("Authenticator Plus database (SQLCipher)")
        << "authenticator_plus/stratum_authplus.db"
        << "binary data, perhaps encrypted";
    QTest::newRow("PNG with no transfer") << "google_authenticator_migration/qr_but_without_otp.png"
                                          << "an image";
}

void TestImportBasics::unrecognisedFiles()
{
    QFETCH(QString, file);
    QFETCH(QString, what);
    const QByteArray data = readFile(file);
    QVERIFY(guessFormats(test::view(data)).empty());
    QCOMPARE(QString::fromLatin1(describeUnrecognised(test::view(data))), what);
    // andOTP's backups are still guessed: the current layout by its
    // iteration count, the old one by a size no database has.
    for (const char* andOtp : {"andotp/andotp_encrypted.bin", "andotp/andotp_encrypted_old.bin"})
        QCOMPARE(guessFormats(test::view(readFile(QString::fromLatin1(andOtp)))),
                 std::vector<Format>{Format::AndOtp});
}

void TestImportBasics::migrationBatches()
{
    const QByteArray first = migrationUri(payloadOf(otpParameters("one"), 3, 0, -5));
    const QByteArray second = migrationUri(payloadOf(otpParameters("two"), 3, 1, -5));
    const QByteArray third = migrationUri(payloadOf(otpParameters("three"), 3, 2, -5));

    const auto whole = import(Format::GoogleMigration, third + "\n" + first + "\n" + second);
    QVERIFY2(whole.ok(), qPrintable(message(whole)));
    QCOMPARE(whole->accounts.size(), std::size_t(3));
    QVERIFY(whole->warnings.empty());

    const auto partial = import(Format::GoogleMigration, first + "\n" + third + "\n" + first);
    QVERIFY2(partial.ok(), qPrintable(message(partial)));
    QCOMPARE(partial->accounts.size(), std::size_t(2)); // the repeated code read once
    QCOMPARE(partial->warnings.size(), std::size_t(2));
    QVERIFY(QString::fromStdString(partial->warnings[0]).contains(QLatin1String("given twice")));
    QVERIFY2(QString::fromStdString(partial->warnings[1]).contains(QLatin1String("2 of the 3")),
             partial->warnings[1].c_str());

    const auto outside =
        import(Format::GoogleMigration, migrationUri(payloadOf(otpParameters(), 2, 2, 1)));
    QVERIFY(!outside);
    QCOMPARE(outside.error().code, ImportError::Malformed);
}

void TestImportBasics::migrationTruncations()
{
    // Every prefix of a real payload: an error or a result, never a crash
    // (the sanitizer build checks the reads).
    const QByteArray text =
        readFile(QStringLiteral("google_authenticator_migration/test_plus_problem_export.txt"));
    const QByteArray payload = QByteArray::fromBase64(
        QByteArray::fromPercentEncoding(text.mid(text.indexOf("data=") + 5).trimmed()));
    QVERIFY(payload.size() > 100);
    int failures = 0;
    for (qsizetype length = 0; length < payload.size(); ++length) {
        const auto result = import(Format::GoogleMigration,
                                   "otpauth-migration://offline?data=" +
                                       payload.left(length).toBase64().toPercentEncoding());
        failures += result ? 0 : 1;
    }
    QVERIFY(failures > payload.size() / 2);
}

void TestImportBasics::bitwardenNames()
{
    const auto result =
        import(Format::Bitwarden, readFile(QStringLiteral("bitwarden/bitwarden.json")));
    QVERIFY2(result.ok(), qPrintable(message(result)));
    QCOMPARE(result->accounts.size(), std::size_t(4));
    // The URIs' labels name their accounts, not the item names ("Test 1").
    QCOMPARE(result->accounts[0].issuer, std::string("Deno"));
    QCOMPARE(result->accounts[0].accountName, std::string("Mason"));
    // steam://<secret> has no label: the item names it.
    QCOMPARE(result->accounts[3].issuer, std::string("Test Steam"));
    QCOMPARE(result->accounts[3].accountName, std::string());
    QCOMPARE(result->accounts[3].parameters, otp::OtpParameters::steam());

    // A bare secret is TOTP with the defaults; the item and user name label
    // it; its folder becomes a tag; items without TOTP are passed over.
    const QByteArray json = R"({"encrypted": false,
        "folders": [{"id": "f1", "name": "Work"}],
        "items": [
          {"type": 2, "name": "a secure note", "notes": "x"},
          {"type": 1, "name": "no totp", "login": {"username": "u", "totp": null}},
          {"type": 1, "name": "Example", "folderId": "f1",
           "login": {"username": "alice", "totp": " gezd gnbv gy3t qojq "}}]})";
    const auto bare = import(Format::Bitwarden, json);
    QVERIFY2(bare.ok(), qPrintable(message(bare)));
    QCOMPARE(bare->accounts.size(), std::size_t(1));
    const auto& account = bare->accounts[0];
    QCOMPARE(account.issuer, std::string("Example"));
    QCOMPARE(account.accountName, std::string("alice"));
    QCOMPARE(account.parameters, otp::OtpParameters{});
    QCOMPARE(account.secret.view(), std::string_view("1234567890"));
    QCOMPARE(account.tags, std::vector<std::string>{"Work"});
}

void TestImportBasics::bitwardenCsv()
{
    const auto result =
        import(Format::Bitwarden, readFile(QStringLiteral("bitwarden/bitwarden.csv")));
    QVERIFY2(result.ok(), qPrintable(message(result)));
    QCOMPARE(result->accounts.size(), std::size_t(4));
    QCOMPARE(result->accounts[3].issuer, std::string("Test 4"));

    // RFC 4180: quoted fields with ',', '""' and a line break; CRLF; rows
    // without TOTP passed over; columns found by name in any order.
    const QByteArray csv = "login_totp,name,notes,login_username,folder\r\n"
                           ",nothing,,,\r\n"
                           "GEZDGNBVGY3TQOJQ,\"Big, \"\"Bank\"\"\",\"two\nlines\",bob,\"\"\r\n"
                           "\"otpauth://totp/x?secret=GEZDGNBVGY3TQOJQ\",Site,,carol,Home\r\n";
    const auto quoted = import(Format::Bitwarden, csv);
    QVERIFY2(quoted.ok(), qPrintable(message(quoted)));
    QCOMPARE(quoted->accounts.size(), std::size_t(2));
    QCOMPARE(quoted->accounts[0].issuer, std::string("Big, \"Bank\""));
    QCOMPARE(quoted->accounts[0].accountName, std::string("bob"));
    QVERIFY(quoted->accounts[0].tags.empty());
    // The URI has a label but no issuer: the item's name is the issuer.
    QCOMPARE(quoted->accounts[1].issuer, std::string("Site"));
    QCOMPARE(quoted->accounts[1].accountName, std::string("x"));
    QCOMPARE(quoted->accounts[1].tags, std::vector<std::string>{"Home"});
}

void TestImportBasics::bitwardenErrors_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<ImportError>("code");
    const QByteArray json = readFile(QStringLiteral("bitwarden/bitwarden.json"));
    const QByteArray csv = readFile(QStringLiteral("bitwarden/bitwarden.csv"));
    QTest::newRow("encrypted export")
        << QByteArray(R"({"encrypted": true, "passwordProtected": true, "salt": "x", "data": "y"})")
        << ImportError::Unsupported;
    QTest::newRow("encrypted not a bool")
        << QByteArray(json).replace("\"encrypted\": false", "\"encrypted\": 0")
        << ImportError::Malformed;
    QTest::newRow("no encrypted field")
        << QByteArray(json).replace("\"encrypted\"", "\"other\"") << ImportError::Malformed;
    QTest::newRow("items not an array")
        << QByteArray(R"({"encrypted": false, "items": {}})") << ImportError::Malformed;
    QTest::newRow("item not an object")
        << QByteArray(R"({"encrypted": false, "items": [1]})") << ImportError::Malformed;
    QTest::newRow("no totp at all")
        << QByteArray(R"({"encrypted": false, "items": []})") << ImportError::Malformed;
    QTest::newRow("truncated json") << json.left(json.size() / 2) << ImportError::Malformed;
    QTest::newRow("bad secret") << QByteArray(json).replace("steam://JRZCL47", "steam://JRZ!L47")
                                << ImportError::InvalidEntry;
    QTest::newRow("bad uri") << QByteArray(json).replace("digits=7", "digits=70")
                             << ImportError::InvalidEntry;
    QTest::newRow("control character in name")
        << QByteArray(R"({"encrypted": false, "items": [{"name": "a\u0001b",
                      "login": {"totp": "GEZDGNBVGY3TQOJQ"}}]})")
        << ImportError::InvalidEntry;
    QTest::newRow("secret over 1024 bytes")
        << (R"({"encrypted": false, "items": [{"name": "a", "login": {"totp": ")" +
            QByteArray(base32(Bytes(1025, 1)).c_str()) + "\"}}]}")
        << ImportError::InvalidEntry;
    QTest::newRow("csv without login_totp")
        << QByteArray(csv).replace("login_totp", "login_otp") << ImportError::Malformed;
    QTest::newRow("csv short row") << (csv + "\n,,login,Test 5\n") << ImportError::Malformed;
    QTest::newRow("csv open quote") << (csv + "\n,,\"login,,,,,,,\n") << ImportError::Malformed;
    QTest::newRow("csv text after quote")
        << (csv + "\n,,\"login\"x,,,,,,,\n") << ImportError::Malformed;
    QTest::newRow("csv bad secret") << QByteArray(csv).replace("steam://JRZCL47", "steam://1RZCL47")
                                    << ImportError::InvalidEntry;
    QTest::newRow("2fas file") << readFile(QStringLiteral("2fas/2fas_authenticator_plain.2fas"))
                               << ImportError::Malformed;
    QTest::newRow("otpauth list") << readFile(QStringLiteral("otpauth_list/plain.txt"))
                                  << ImportError::Malformed;
}

void TestImportBasics::bitwardenErrors()
{
    QFETCH(QByteArray, text);
    QFETCH(ImportError, code);
    const auto result = import(Format::Bitwarden, text);
    QVERIFY2(!result, "imported");
    QCOMPARE(result.error().code, code);
    QVERIFY2(!message(result).contains(QLatin1String("JRZCL47")), qPrintable(message(result)));
}

QTEST_GUILESS_MAIN(TestImportBasics)
#include "TestImportBasics.moc"
