// The 2FAS, FreeOTP+ and FreeOTP importers on what goes wrong: each case
// takes a real file of tests/data/import, changes it in memory, and expects
// one error code (and no accounts). Plus the choices these importers make
// that the data-driven TestImporters does not see: the order FreeOTP's
// "tokenOrder" gives, 2FAS groups as tags, FreeOTP's counters.
#include "ImportTestSupport.h"
#include "common/TestSupport.h"
#include "encoding/Base32.h"
#include "interop/importers/Import.h"

#include <QFile>
#include <QtTest>

using namespace watchword;
using namespace watchword::importers;
using test::edited;
using test::readFile;
using test::truncated;

namespace {

const QString twoFasPlain = QStringLiteral("2fas/2fas_authenticator_plain_v3.2fas");
const QString twoFasV4 = QStringLiteral("2fas/2fas_authenticator_plain_v4.2fas");
const QString twoFasEncrypted = QStringLiteral("2fas/2fas_authenticator_encrypted_v3.2fas");
const QString plusJson = QStringLiteral("freeotp_plus/freeotp_plus.json");
const QString plusXml = QStringLiteral("freeotp_plus/freeotp_plus_internal.xml");
const QString freeOtpXml = QStringLiteral("freeotp/freeotp.xml");
const QString freeOtpBackup = QStringLiteral("freeotp/freeotp_v2_null_algo.xml");

// The real FreeOTP 2 backup with "from" replaced by "to" in its master key,
// a Java string whose 2-byte length is corrected to match: nothing else
// changes.
QByteArray editedMasterKey(const QByteArray& from, const QByteArray& to)
{
    QByteArray data = readFile(freeOtpBackup);
    const qsizetype start = data.indexOf("{\"mAlgorithm\"");
    if (start < 3 || data[start - 3] != 't')
        qFatal("the backup's master key is not where it was");
    const int length = (static_cast<unsigned char>(data[start - 2]) << 8) |
                       static_cast<unsigned char>(data[start - 1]);
    const qsizetype at = data.indexOf(from, start);
    if (at < 0 || at + from.size() > start + length)
        qFatal("the master key does not contain %s", from.constData());
    data.replace(at, from.size(), to);
    const auto newLength = length + to.size() - from.size();
    data[start - 2] = static_cast<char>(newLength >> 8);
    data[start - 1] = static_cast<char>(newLength);
    return data;
}

// The real encrypted 2FAS backup with the salt or the IV of
// "servicesEncrypted" (ciphertext:salt:IV, Base64) cut to its first
// bytes: nothing else changes.
QByteArray twoFasCut(int part, int bytes)
{
    QByteArray data = readFile(twoFasEncrypted);
    const qsizetype key = data.indexOf("\"servicesEncrypted\"");
    const qsizetype open = data.indexOf('"', data.indexOf(':', key)) + 1;
    const qsizetype end = data.indexOf('"', open);
    QList<QByteArray> parts = data.mid(open, end - open).split(':');
    parts[part] = QByteArray::fromBase64(parts[part]).left(bytes).toBase64();
    return data.replace(open, end - open, parts.join(':'));
}

} // namespace

class TestImportFreeOtpTwoFas : public QObject
{
    Q_OBJECT

private slots:
    void errors_data();
    void errors();
    void kdfBounds_data();
    void kdfBounds();
    void freeOtpOrderAndCounters();
    void freeOtpNegativeCounter();
    void twoFasGroupsAndSteam();
    void twoFasHandTypedSecrets_data();
    void twoFasHandTypedSecrets();
    void twoFasPartialImport();
};

void TestImportFreeOtpTwoFas::errors_data()
{
    test::addImportErrorColumns();

    const QByteArray none;
    const QByteArray test("test");

    // 2FAS
    QTest::newRow("2fas: empty") << Format::TwoFas << QByteArray("") << none
                                 << ImportError::Malformed;
    QTest::newRow("2fas: truncated")
        << Format::TwoFas << truncated(twoFasPlain) << none << ImportError::Malformed;
    QTest::newRow("2fas: not an object")
        << Format::TwoFas << QByteArray("[]") << none << ImportError::Malformed;
    QTest::newRow("2fas: FreeOTP+ file")
        << Format::TwoFas << readFile(plusJson) << none << ImportError::Malformed;
    QTest::newRow("2fas: FreeOTP XML")
        << Format::TwoFas << readFile(freeOtpXml) << none << ImportError::Malformed;
    QTest::newRow("2fas: no schema version")
        << Format::TwoFas << edited(twoFasPlain, "\"schemaVersion\"", "\"schemaVersio\"") << none
        << ImportError::Malformed;
    QTest::newRow("2fas: schema 5")
        << Format::TwoFas << edited(twoFasPlain, "\"schemaVersion\": 3", "\"schemaVersion\": 5")
        << none << ImportError::UnsupportedVersion;
    QTest::newRow("2fas: schema 0")
        << Format::TwoFas << edited(twoFasPlain, "\"schemaVersion\": 3", "\"schemaVersion\": 0")
        << none << ImportError::UnsupportedVersion;
    QTest::newRow("2fas: services not an array")
        << Format::TwoFas << edited(twoFasV4, "\"services\":[", "\"services\":{\"x\":[") << none
        << ImportError::Malformed;
    QTest::newRow("2fas: bad secret")
        << Format::TwoFas
        << edited(twoFasPlain, "\"4SJHB4GSD43FZBAI7C2HLRJGPQ\"", "\"4SJHB4GSD43FZ!AI7C2HLRJGPQ\"")
        << none << ImportError::InvalidEntry;
    QTest::newRow("2fas: empty secret")
        << Format::TwoFas << edited(twoFasPlain, "\"4SJHB4GSD43FZBAI7C2HLRJGPQ\"", "\"\"") << none
        << ImportError::InvalidEntry;
    QTest::newRow("2fas: unknown token type")
        << Format::TwoFas
        << edited(twoFasPlain, "\"tokenType\": \"TOTP\"", "\"tokenType\": \"YAOTP\"") << none
        << ImportError::InvalidEntry;
    QTest::newRow("2fas: MD5") << Format::TwoFas
                               << edited(twoFasPlain, "\"algorithm\": \"SHA1\"",
                                         "\"algorithm\": \"MD5\"")
                               << none << ImportError::InvalidEntry;
    QTest::newRow("2fas: 4 digits")
        << Format::TwoFas << edited(twoFasPlain, "\"digits\": 6", "\"digits\": 4") << none
        << ImportError::InvalidEntry;
    QTest::newRow("2fas: digits as text")
        << Format::TwoFas << edited(twoFasPlain, "\"digits\": 6", "\"digits\": \"6\"") << none
        << ImportError::Malformed;
    QTest::newRow("2fas: encrypted, no password")
        << Format::TwoFas << readFile(twoFasEncrypted) << none << ImportError::PasswordRequired;
    QTest::newRow("2fas: encrypted, wrong password")
        << Format::TwoFas << readFile(twoFasEncrypted) << QByteArray("tesT")
        << ImportError::WrongPassword;
    QTest::newRow("2fas: encrypted, empty password")
        << Format::TwoFas << readFile(twoFasEncrypted) << QByteArray("")
        << ImportError::WrongPassword;
    QTest::newRow("2fas: encrypted, no IV") << Format::TwoFas << [] {
        QByteArray data = readFile(twoFasEncrypted);
        const qsizetype key = data.indexOf("\"servicesEncrypted\"");
        const qsizetype open = data.indexOf('"', data.indexOf(':', key));
        const qsizetype end = data.indexOf('"', open + 1);
        const qsizetype colon = data.lastIndexOf(':', end);
        return data.remove(colon, end - colon);
    }() << test << ImportError::Malformed;
    QTest::newRow("2fas: encrypted, not Base64")
        << Format::TwoFas
        << edited(twoFasEncrypted, "\"servicesEncrypted\": \"", "\"servicesEncrypted\": \"*")
        << test << ImportError::Malformed;
    QTest::newRow("2fas: encrypted, truncated")
        << Format::TwoFas << truncated(twoFasEncrypted) << test << ImportError::Malformed;

    // FreeOTP+
    QTest::newRow("freeotp+: empty")
        << Format::FreeOtpPlus << QByteArray("") << none << ImportError::Malformed;
    QTest::newRow("freeotp+: truncated JSON")
        << Format::FreeOtpPlus << truncated(plusJson) << none << ImportError::Malformed;
    QTest::newRow("freeotp+: truncated XML")
        << Format::FreeOtpPlus << truncated(plusXml) << none << ImportError::Malformed;
    QTest::newRow("freeotp+: 2FAS file")
        << Format::FreeOtpPlus << readFile(twoFasPlain) << none << ImportError::Malformed;
    QTest::newRow("freeotp+: no tokens")
        << Format::FreeOtpPlus << edited(plusJson, "\"tokens\"", "\"tokenz\"") << none
        << ImportError::Malformed;
    QTest::newRow("freeotp+: secret byte out of range")
        << Format::FreeOtpPlus << edited(plusJson, "\"secret\":[-19,", "\"secret\":[200,") << none
        << ImportError::InvalidEntry;
    QTest::newRow("freeotp+: empty secret")
        << Format::FreeOtpPlus
        << edited(plusJson, "\"secret\":[-19,64,-59,-18,-5,-20,-50,34,6,-79,93,117,-63,24,42,118]",
                  "\"secret\":[]")
        << none << ImportError::InvalidEntry;
    QTest::newRow("freeotp+: MD5")
        << Format::FreeOtpPlus << edited(plusJson, "\"algo\":\"SHA512\"", "\"algo\":\"MD5\"")
        << none << ImportError::InvalidEntry;
    QTest::newRow("freeotp+: unknown type")
        << Format::FreeOtpPlus << edited(plusJson, "\"type\":\"HOTP\"", "\"type\":\"MOTP\"") << none
        << ImportError::InvalidEntry;
    QTest::newRow("freeotp+: XML secret out of range")
        << Format::FreeOtpPlus << edited(plusXml, "[-19,", "[-129,") << none
        << ImportError::InvalidEntry;
    QTest::newRow("freeotp+: XML token not JSON")
        << Format::FreeOtpPlus << edited(plusXml, "{&quot;algo", "{algo") << none
        << ImportError::Malformed;
    QTest::newRow("freeotp+: XML with a DOCTYPE")
        << Format::FreeOtpPlus
        << edited(plusXml, "<map>",
                  "<!DOCTYPE map [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><map>")
        << none << ImportError::Malformed;
    QTest::newRow("freeotp+: XML not a map")
        << Format::FreeOtpPlus << QByteArray("<?xml version='1.0'?><map><string>x</map>") << none
        << ImportError::Malformed;

    // FreeOTP
    QTest::newRow("freeotp: empty")
        << Format::FreeOtp << QByteArray("") << none << ImportError::Malformed;
    QTest::newRow("freeotp: truncated XML")
        << Format::FreeOtp << truncated(freeOtpXml) << none << ImportError::Malformed;
    QTest::newRow("freeotp: JSON")
        << Format::FreeOtp << readFile(plusJson) << none << ImportError::Malformed;
    QTest::newRow("freeotp: XML bad secret")
        << Format::FreeOtp << edited(freeOtpXml, "[-19,", "[1.5,") << none
        << ImportError::InvalidEntry;
    QTest::newRow("freeotp: XML 3 digits")
        << Format::FreeOtp << edited(freeOtpXml, "&quot;digits&quot;:8", "&quot;digits&quot;:3")
        << none << ImportError::InvalidEntry;
    QTest::newRow("freeotp: backup, no password")
        << Format::FreeOtp << readFile(freeOtpBackup) << none << ImportError::PasswordRequired;
    QTest::newRow("freeotp: backup, wrong password")
        << Format::FreeOtp << readFile(freeOtpBackup) << QByteArray("tset")
        << ImportError::WrongPassword;
    QTest::newRow("freeotp: backup, truncated")
        << Format::FreeOtp << truncated(freeOtpBackup) << test << ImportError::Malformed;
    QTest::newRow("freeotp: backup, trailing byte")
        << Format::FreeOtp << readFile(freeOtpBackup) + '\0' << test << ImportError::Malformed;
    QTest::newRow("freeotp: backup, not a HashMap")
        << Format::FreeOtp << edited(freeOtpBackup, "java.util.HashMap", "java.util.HashSet")
        << test << ImportError::Malformed;
    QTest::newRow("freeotp: backup, secret altered")
        << Format::FreeOtp << edited(freeOtpBackup, "mCipherText\\\":[-92", "mCipherText\\\":[-93")
        << test << ImportError::Malformed;
    QTest::newRow("freeotp: backup, master key altered")
        << Format::FreeOtp << edited(freeOtpBackup, "mCipherText\":[-46", "mCipherText\":[-47")
        << test << ImportError::WrongPassword;
    QTest::newRow("freeotp: backup, unknown KDF")
        << Format::FreeOtp << edited(freeOtpBackup, "PBKDF2withHmacSHA512", "PBKDF2withHmacMD5xxx")
        << test << ImportError::Unsupported;
    QTest::newRow("freeotp: backup, token JSON damaged")
        << Format::FreeOtp << edited(freeOtpBackup, "{\"issuerExt\"", "[\"issuerExt\"") << test
        << ImportError::Malformed;
}

void TestImportFreeOtpTwoFas::errors()
{
    test::verifyImportError();
}

// Key-derivation parameters out of docs/FORMAT.md section 9's bounds, each
// in a real file with that one parameter changed: refused before any key is
// derived, with the documented code and a message naming the parameter, the
// value and the range. The password is the file's own, so a derivation would
// have answered otherwise.
void TestImportFreeOtpTwoFas::kdfBounds_data()
{
    QTest::addColumn<Format>("format");
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<ImportError>("expected");
    QTest::addColumn<QByteArray>("named"); // in the message

    const QByteArray iterations = "\"mIterations\":100000";
    QTest::newRow("freeotp: no iterations")
        << Format::FreeOtp << editedMasterKey(iterations, "\"mIterations\":0")
        << ImportError::Malformed
        << QByteArray("freeotp: masterKey.mIterations is 0, outside the allowed 1 to 10000000");
    QTest::newRow("freeotp: 10,000,001 iterations")
        << Format::FreeOtp << editedMasterKey(iterations, "\"mIterations\":10000001")
        << ImportError::Unsupported
        << QByteArray("freeotp: masterKey.mIterations is 10000001, outside the allowed 1 to "
                      "10000000");
    QTest::newRow("freeotp: 2^32 - 1 iterations")
        << Format::FreeOtp << editedMasterKey(iterations, "\"mIterations\":4294967295")
        << ImportError::Unsupported
        << QByteArray("freeotp: masterKey.mIterations is 4294967295, outside the allowed 1 to "
                      "10000000");
    QTest::newRow("freeotp: negative iterations")
        << Format::FreeOtp << editedMasterKey(iterations, "\"mIterations\":-1")
        << ImportError::Malformed << QByteArray("\"mIterations\" is not a count");
    QTest::newRow("freeotp: empty salt")
        << Format::FreeOtp <<
        [] {
            const QByteArray data = readFile(freeOtpBackup);
            const qsizetype at = data.indexOf("\"mSalt\":[");
            const QByteArray salt = data.mid(at, data.indexOf(']', at) + 1 - at);
            return editedMasterKey(salt, "\"mSalt\":[]");
        }()
        << ImportError::Malformed
        << QByteArray("freeotp: masterKey.mSalt is 0 bytes, outside the allowed 16 to 1024");

    QTest::newRow("2fas: salt of 4 bytes")
        << Format::TwoFas << twoFasCut(1, 4) << ImportError::Malformed
        << QByteArray("2fas: the salt of \"servicesEncrypted\" is 4 bytes, outside the allowed "
                      "16 to 1024");
    QTest::newRow("2fas: empty IV")
        << Format::TwoFas << twoFasCut(2, 0) << ImportError::Malformed
        << QByteArray("2fas: the IV of \"servicesEncrypted\" is 0 bytes, outside the allowed 1 "
                      "to 128");
}

void TestImportFreeOtpTwoFas::kdfBounds()
{
    QFETCH(Format, format);
    QFETCH(QByteArray, data);
    QFETCH(ImportError, expected);
    QFETCH(QByteArray, named);
    const auto result = importAccounts(format, test::view(data), asBytes("test"));
    QVERIFY2(!result.ok(), "imported");
    QVERIFY2(result.error().code == expected, result.error().message.c_str());
    QVERIFY2(result.error().message.find(named.toStdString()) != std::string::npos,
             result.error().message.c_str());
}

// FreeOTP+'s SharedPreferences list tokens as a HashMap left them;
// "tokenOrder" is the order the app showed. The stored HOTP counters are
// imported as they are: FreeOTP shows the code for the stored counter next.
void TestImportFreeOtpTwoFas::freeOtpOrderAndCounters()
{
    const QByteArray data = readFile(plusXml);
    const auto result = importAccounts(Format::FreeOtpPlus, test::view(data));
    QVERIFY2(result.ok(), result ? "" : result.error().message.c_str());
    QStringList order;
    for (const auto& account : result->accounts)
        order << QString::fromStdString(account.issuer);
    QCOMPARE(order, QStringList({"WWE", "Air Canada", "Issuu", "Airbnb", "SPDX", "Deno"}));
    QCOMPARE(result->accounts[0].parameters.counter, std::uint64_t{10299});
    QCOMPARE(result->accounts[2].parameters.counter, std::uint64_t{0});
    QVERIFY(result->warnings.empty());
}

// A URI with counter=0 leaves FreeOTP+ a stored -1, which it feeds to
// HMAC as the 64-bit two's complement: the import keeps those bits.
void TestImportFreeOtpTwoFas::freeOtpNegativeCounter()
{
    const QByteArray data =
        edited(plusJson, "\"counter\":0,\"digits\":6", "\"counter\":-1,\"digits\":6");
    const auto result = importAccounts(Format::FreeOtpPlus, test::view(data));
    QVERIFY2(result.ok(), result ? "" : result.error().message.c_str());
    QCOMPARE(result->accounts[2].issuer, std::string("Issuu"));
    QCOMPARE(result->accounts[2].parameters.counter, ~std::uint64_t{0});
    QCOMPARE(result->warnings.size(), std::size_t{1});
}

void TestImportFreeOtpTwoFas::twoFasGroupsAndSteam()
{
    QByteArray data = edited(twoFasV4, "\"groups\":[]",
                             "\"groups\":[{\"id\":\"g1\",\"name\":\"Work\"},"
                             "{\"id\":\"g2\",\"name\":\"Unused\"}]");
    data.replace("\"name\":\"Deno\",", "\"name\":\"Deno\",\"groupId\":\"g1\",");
    const auto result = importAccounts(Format::TwoFas, test::view(data));
    QVERIFY2(result.ok(), result ? "" : result.error().message.c_str());
    QCOMPARE(result->accounts.size(), std::size_t{5});
    QCOMPARE(result->accounts[0].issuer, std::string("Deno"));
    QCOMPARE(result->accounts[0].tags, std::vector<std::string>{"Work"});
    QVERIFY(result->accounts[1].tags.empty());
    QCOMPARE(result->accounts[4].parameters, otp::OtpParameters::steam());
    QCOMPARE(result->accounts[4].accountName, std::string("Sophia"));
}

// Secrets typed by hand into 2FAS, whose last Base32 group has 1, 3 or 6
// symbols: decoded as the app that wrote the backup does ("appOrigin").
// The expected bytes were computed bit by bit outside Watchword: Android
// drops the bits after the last whole byte, iOS fills them with zeros.
void TestImportFreeOtpTwoFas::twoFasHandTypedSecrets_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("accounts");
    QTest::addColumn<QString>("issuer");
    QTest::addColumn<QByteArray>("secretHex");
    QTest::newRow("iOS, 17 symbols") << "2fas/proton_decrypted_ios.2fas" << 2 << "Code1 2FAS"
                                     << QByteArray("48d2308c23184610dc3708");
    QTest::newRow("iOS, 19 symbols") << "2fas/proton_decrypted_ios.2fas" << 2 << "Code2 2FAS"
                                     << QByteArray("48d23a64373c8e30dc373842");
    QTest::newRow("Android, 11 symbols") << "2fas/proton_decrypted_with_manual_entries.2fas" << 12
                                         << "Manual" << QByteArray("3ca4919cf73d");
    QTest::newRow("Android, 17 symbols") << "2fas/proton_decrypted_with_hotp_missing_period.2fas"
                                         << 4 << "Item1" << QByteArray("3152338d2348d236a469");
    QTest::newRow("Android, 17 symbols, SHA512")
        << "2fas/proton_decrypted_with_hotp_missing_period.2fas" << 4 << "Item512"
        << QByteArray("3ddd738d2308d2549527");
}

void TestImportFreeOtpTwoFas::twoFasHandTypedSecrets()
{
    QFETCH(QString, file);
    QFETCH(int, accounts);
    QFETCH(QString, issuer);
    QFETCH(QByteArray, secretHex);
    const auto result = importAccounts(Format::TwoFas, test::view(readFile(file)));
    QVERIFY2(result.ok(), result ? "" : result.error().message.c_str());
    QCOMPARE(int(result->accounts.size()), accounts);
    const auto it = std::find_if(
        result->accounts.begin(), result->accounts.end(),
        [&](const ImportedAccount& account) { return account.issuer == issuer.toStdString(); });
    QVERIFY(it != result->accounts.end());
    QCOMPARE(
        QByteArray(reinterpret_cast<const char*>(it->secret.data()), qsizetype(it->secret.size()))
            .toHex(),
        secretHex);
}

// An entry 2FAS has but Watchword cannot compute (SHA384): the import names
// it (entry, issuer, name, value) and refuses, or, asked to, leaves it out
// and reads the rest.
void TestImportFreeOtpTwoFas::twoFasPartialImport()
{
    const QByteArray data =
        readFile(QStringLiteral("2fas/proton_decrypted_with_hotp_and_unsupported_algorithms.2fas"));
    const auto refused = importAccounts(Format::TwoFas, test::view(data));
    QVERIFY(!refused);
    QCOMPARE(refused.error().code, ImportError::InvalidEntry);
    QCOMPARE(refused.error().message,
             std::string("2fas: entry 2 (Itemname: Optional info): unsupported algorithm "
                         "\"SHA384\" (Watchword computes SHA1, SHA256 and SHA512)"));

    const auto partial =
        importAccounts(Format::TwoFas, test::view(data), std::nullopt, UnreadableEntries::Skip);
    QVERIFY2(partial.ok(), partial ? "" : partial.error().message.c_str());
    QCOMPARE(partial->accounts.size(), std::size_t(1));
    QCOMPARE(partial->accounts[0].issuer, std::string("cncnncncn"));
    QCOMPARE(partial->accounts[0].parameters.kind, otp::OtpKind::Hotp);
    QCOMPARE(partial->skipped.size(), std::size_t(1));
    QCOMPARE(partial->skipped[0].entry, std::size_t(1));
    QCOMPARE(partial->skipped[0].reason, refused.error().message);
    QCOMPARE(partial->skipped[0].name, std::string("Itemname: Optional info"));
    QCOMPARE(partial->skipped[0].why,
             std::string("unsupported algorithm \"SHA384\" (Watchword computes SHA1, SHA256 "
                         "and SHA512)"));

    // The encrypted backup of the same app, with its password.
    const QByteArray encrypted = readFile(QStringLiteral("2fas/proton_encrypted.2fas"));
    QVERIFY(isEncrypted(Format::TwoFas, test::view(encrypted)));
    const auto opened =
        importAccounts(Format::TwoFas, test::view(encrypted), test::view(QByteArray("test")));
    QVERIFY2(opened.ok(), opened ? "" : opened.error().message.c_str());
    QCOMPARE(opened->accounts.size(), std::size_t(2));
    QCOMPARE(opened->accounts[0].secret.view(),
             std::string_view(encoding::fromBase32("MYSECRET")->view()));
    QCOMPARE(opened->accounts[1].parameters, otp::OtpParameters::steam());
}

QTEST_GUILESS_MAIN(TestImportFreeOtpTwoFas)
#include "TestImportFreeOtpTwoFas.moc"
