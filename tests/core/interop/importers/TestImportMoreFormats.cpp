// The formats added for migrating users beyond the first ones: their real
// files are in EXPECTED.json (TestImporters); here, what those files do not
// show: damaged and hostile variants, each refused with the documented code,
// and the quirks of each app.
#include "ImportTestSupport.h"
#include "common/TestSupport.h"
#include "interop/importers/Import.h"

#include <QtTest>

using namespace watchword;
using namespace watchword::importers;
using test::edited;
using test::readFile;

namespace {

const QString protonPlain = QStringLiteral("proton_authenticator/stratum_protonauthenticator.json");
const QString lastPassAndroid = QStringLiteral("lastpass/proton_lastpass.json");
const QString lastPassGroups = QStringLiteral("lastpass/stratum_lastpass.json");
const QString enteSealed = QStringLiteral("ente/proton_encrypted.lowcomplexity.txt");
const QString keePassCsv = QStringLiteral("keepass/keepassxc_stratum_aes256.aeskdf.csv");
const QString keePassXml = QStringLiteral("keepass/keepassxc_stratum_aes256.aeskdf.xml");
const QString steamMaFile = QStringLiteral("steam/steamguard-cli_sda_1234.maFile");
const QString steamApp = QStringLiteral("steam/aegis_steam.json");
const QString winAuthZip = QStringLiteral("winauth/stratum_winauth.zip");
const QString protonSealed =
    QStringLiteral("proton_authenticator/ente_proton_authenticator_backup_encrypted_1231246.json");

} // namespace

class TestImportMoreFormats : public QObject
{
    Q_OBJECT

private slots:
    void errors_data();
    void errors();
    void protonNamesAndNotes();
    void lastPassFoldersAndSecrets();
    void enteCodeDisplayAndQuirks();
    void keePassGroupsAndRecycleBin();
    void keePassFieldForms();
    void steamFilesAndRefusals();
    void winAuthArchives();
};

void TestImportMoreFormats::errors_data()
{
    test::addImportErrorColumns();
    const QByteArray none;
    const QByteArray password("1231246");
    const auto proton = Format::ProtonAuthenticator;

    QTest::newRow("proton: version 2")
        << proton << edited(protonPlain, "\"version\": 1", "\"version\": 2") << none
        << ImportError::UnsupportedVersion;
    QTest::newRow("proton: no entries")
        << proton << QByteArray(R"({"version": 1})") << none << ImportError::Malformed;
    QTest::newRow("proton: content not an object")
        << proton << QByteArray(R"({"version": 1, "entries": [{"content": 3}]})") << none
        << ImportError::Malformed;
    QTest::newRow("proton: uri not otpauth")
        << proton << QByteArray(R"({"version": 1, "entries": [{"content":
             {"uri": "https://example.com", "entry_type": "Totp", "name": "a"}}]})")
        << none << ImportError::Malformed;
    QTest::newRow("proton: sealed, no password")
        << proton << readFile(protonSealed) << none << ImportError::PasswordRequired;
    QTest::newRow("proton: sealed, wrong password")
        << proton << readFile(protonSealed) << QByteArray("1231247") << ImportError::WrongPassword;
    QTest::newRow("proton: sealed, version 2")
        << proton << edited(protonSealed, "\"version\":1", "\"version\":2") << password
        << ImportError::UnsupportedVersion;
    QTest::newRow("proton: sealed, salt of 4 bytes")
        << proton << edited(protonSealed, "vNtIiEoQj5sUZuxE741QcQ==", "AAAAAA==") << password
        << ImportError::Malformed;
    QTest::newRow("proton: sealed, content too short")
        << proton
        << QByteArray(R"({"version":1,"salt":"vNtIiEoQj5sUZuxE741QcQ==","content":"AAAA"})")
        << password << ImportError::Malformed;
    QTest::newRow("proton: sealed, content not Base64")
        << proton << QByteArray(R"({"version":1,"salt":"vNtIiEoQj5sUZuxE741QcQ==","content":"!!"})")
        << password << ImportError::Malformed;
    QTest::newRow("proton: unknown entry type")
        << proton << edited(protonPlain, "\"entry_type\": \"Steam\"", "\"entry_type\": \"Yandex\"")
        << none << ImportError::InvalidEntry;

    const auto lastPass = Format::LastPass;
    QTest::newRow("lastpass: no accounts")
        << lastPass << QByteArray(R"({"version": 3, "folders": []})") << none
        << ImportError::Malformed;
    QTest::newRow("lastpass: folders not an array")
        << lastPass << edited(lastPassGroups, "\"folders\": [", "\"folders\": 1, \"x\": [") << none
        << ImportError::Malformed;
    QTest::newRow("lastpass: MD5")
        << lastPass << edited(lastPassAndroid, "\"algorithm\": \"SHA1\"", "\"algorithm\": \"MD5\"")
        << none << ImportError::InvalidEntry;
    QTest::newRow("lastpass: time step 0")
        << lastPass << edited(lastPassAndroid, "\"timeStep\": 30", "\"timeStep\": 0") << none
        << ImportError::InvalidEntry;
    QTest::newRow("lastpass: digits as text")
        << lastPass << edited(lastPassAndroid, "\"digits\": 6", "\"digits\": \"6\"") << none
        << ImportError::Malformed;
    QTest::newRow("lastpass: secret not Base32")
        << lastPass << edited(lastPassAndroid, "BDKSIEHWBDBBDBDZBZJ", "BDKSIEHWBDBBDBDZBZ1") << none
        << ImportError::InvalidEntry;

    const auto ente = Format::Ente;
    const QByteArray entePassword("password");
    QTest::newRow("ente: sealed, no password")
        << ente << readFile(enteSealed) << none << ImportError::PasswordRequired;
    QTest::newRow("ente: sealed, wrong password")
        << ente << readFile(enteSealed) << QByteArray("passwore") << ImportError::WrongPassword;
    QTest::newRow("ente: sealed, version 2")
        << ente << edited(enteSealed, "\"version\": 1", "\"version\": 2") << entePassword
        << ImportError::UnsupportedVersion;
    QTest::newRow("ente: memLimit over the bound")
        << ente << edited(enteSealed, "\"memLimit\": 10240", "\"memLimit\": 4294967296")
        << entePassword << ImportError::Unsupported;
    QTest::newRow("ente: memLimit under Argon2's least")
        << ente << edited(enteSealed, "\"memLimit\": 10240", "\"memLimit\": 1024") << entePassword
        << ImportError::Malformed;
    QTest::newRow("ente: opsLimit 0")
        << ente << edited(enteSealed, "\"opsLimit\": 1", "\"opsLimit\": 0") << entePassword
        << ImportError::Malformed;
    QTest::newRow("ente: opsLimit a billion")
        << ente << edited(enteSealed, "\"opsLimit\": 1", "\"opsLimit\": 1000000000") << entePassword
        << ImportError::Unsupported;
    QTest::newRow("ente: header of 18 bytes")
        << ente
        << edited(enteSealed, "viQCkSzJtM4Vqb2MyYl/yODEs1tHrCyn", "viQCkSzJtM4Vqb2MyYl/yODE")
        << entePassword << ImportError::Malformed;
    QTest::newRow("ente: data not Base64")
        << ente << edited(enteSealed, "\"encryptedData\": \"", "\"encryptedData\": \"!")
        << entePassword << ImportError::Malformed;
    QTest::newRow("ente: a line that is not a URI")
        << ente << QByteArray("otpauth://totp/a?secret=JBSWY3DPEHPK3PXP\nhello\n") << none
        << ImportError::Malformed;
    QTest::newRow("ente: nothing") << ente << QByteArray("\n\n") << none << ImportError::Malformed;

    const auto keePass = Format::KeePass;
    QTest::newRow("keepass: CSV without a TOTP column")
        << keePass << edited(keePassCsv, "\"TOTP\",", "\"OTP\",") << none << ImportError::Malformed;
    QTest::newRow("keepass: CSV row of 9 fields")
        << keePass << edited(keePassCsv, "\"0\",\"2025-02-08T20:08:45Z\",", "") << none
        << ImportError::Malformed;
    QTest::newRow("keepass: CSV quote not closed")
        << keePass << QByteArray("\"Group\",\"Title\",\"Username\",\"TOTP\"\n\"Root,\"a\n") << none
        << ImportError::Malformed;
    QTest::newRow("keepass: CSV, no entry with a TOTP")
        << keePass
        << QByteArray("\"Group\",\"Title\",\"Username\",\"TOTP\"\n\"Root\",\"a\",\"b\",\"\"\n")
        << none << ImportError::Malformed;
    QTest::newRow("keepass: CSV otpauth with MD5")
        << keePass << edited(keePassCsv, "&algorithm=SHA512", "&algorithm=MD5") << none
        << ImportError::InvalidEntry;
    QTest::newRow("keepass: XML of another root")
        << keePass << QByteArray("<?xml version=\"1.0\"?><KeePassFileX/>") << none
        << ImportError::Malformed;
    QTest::newRow("keepass: XML without Root")
        << keePass << QByteArray("<KeePassFile><Meta/></KeePassFile>") << none
        << ImportError::Malformed;
    QTest::newRow("keepass: XML with a DOCTYPE")
        << keePass
        << edited(keePassXml, "<KeePassFile>", "<!DOCTYPE x [<!ENTITY a \"b\">]><KeePassFile>")
        << none << ImportError::Malformed;
    QTest::newRow("keepass: XML cut short")
        << keePass << readFile(keePassXml).left(5000) << none << ImportError::Malformed;
    QTest::newRow("keepass: otp encrypted by the inner stream")
        << keePass
        << edited(keePassXml, "<Key>otp</Key>\n\t\t\t\t\t<Value ProtectInMemory=\"True\">",
                  "<Key>otp</Key>\n\t\t\t\t\t<Value Protected=\"True\">")
        << none << ImportError::Malformed;
    QTest::newRow("keepass: otp a bare secret")
        << keePass << edited(keePassXml, "otpauth://totp/Long:Period?secret=", "JGRMXBLP?secret=")
        << none << ImportError::InvalidEntry;

    const auto steam = Format::Steam;
    QTest::newRow("steam: no shared_secret")
        << steam << edited(steamMaFile, "\"shared_secret\"", "\"sharedsecret\"") << none
        << ImportError::Malformed;
    QTest::newRow("steam: shared_secret not Base64")
        << steam << edited(steamMaFile, "zvIayp3JPvtvX/QGHq", "zvIayp3JPvtvX/QG!q") << none
        << ImportError::InvalidEntry;
    QTest::newRow("steam: shared_secret empty")
        << steam << edited(steamMaFile, "zvIayp3JPvtvX/QGHqsqKBk/44s=", "") << none
        << ImportError::InvalidEntry;
    QTest::newRow("steam: shared_secret a number")
        << steam << edited(steamMaFile, "\"zvIayp3JPvtvX/QGHqsqKBk/44s=\"", "7") << none
        << ImportError::InvalidEntry;
    QTest::newRow("steam: accounts empty")
        << steam << QByteArray(R"({"accounts": {}})") << none << ImportError::Malformed;
    QTest::newRow("steam: accounts an array")
        << steam << QByteArray(R"({"accounts": [1]})") << none << ImportError::Malformed;
    QTest::newRow("steam: an account not an object")
        << steam << edited(steamApp, "{\"abcdefg\":{", "{\"abcdefg\":3,\"x\":{") << none
        << ImportError::Malformed;
    QTest::newRow("steam: JSON cut short")
        << steam << readFile(steamMaFile).left(100) << none << ImportError::Malformed;
    QTest::newRow("steam: SDA manifest")
        << steam << readFile(QStringLiteral("steam/sda_encrypted/manifest.json")) << none
        << ImportError::Unsupported;
    QTest::newRow("steam: encrypted maFile")
        << steam << readFile(QStringLiteral("steam/sda_encrypted/1234.maFile")) << none
        << ImportError::Unsupported;

    const auto winAuth = Format::WinAuth;
    const QByteArray winAuthPassword("test");
    QTest::newRow("winauth: no password")
        << winAuth << readFile(winAuthZip) << none << ImportError::PasswordRequired;
    QTest::newRow("winauth: wrong password")
        << winAuth << readFile(winAuthZip) << QByteArray("tset") << ImportError::WrongPassword;
    QTest::newRow("winauth: password with a NUL")
        << winAuth << readFile(winAuthZip) << QByteArray("test\0x", 6)
        << ImportError::WrongPassword;
    QTest::newRow("winauth: empty archive")
        << winAuth << readFile(QStringLiteral("winauth/stratum_winauth.invalid.zip")) << none
        << ImportError::Malformed;
    QTest::newRow("winauth: two files")
        << winAuth << readFile(QStringLiteral("winauth/made_two_files.zip")) << none
        << ImportError::Malformed;
    QTest::newRow("winauth: archive cut short")
        << winAuth << readFile(winAuthZip).left(150) << winAuthPassword << ImportError::Malformed;
    QTest::newRow("winauth: ciphertext changed") << winAuth << [] {
        QByteArray data = readFile(winAuthZip);
        data[80] = char(data[80] ^ 0x01); // in the deflated text
        return data;
    }() << winAuthPassword << ImportError::WrongPassword;
    const auto raivo = Format::Raivo;
    const QString raivoJson = QStringLiteral("raivo/made_raivo-otp-export.json");
    const QByteArray raivoPassword("raivo-test");
    QTest::newRow("raivo: no password")
        << raivo << readFile(QStringLiteral("raivo/made_raivo-otp-export-zipcrypto.zip")) << none
        << ImportError::PasswordRequired;
    QTest::newRow("raivo: wrong password")
        << raivo << readFile(QStringLiteral("raivo/made_raivo-otp-export-zipcrypto.zip"))
        << QByteArray("raivo-tset") << ImportError::WrongPassword;
    QTest::newRow("raivo: WinZip AES-2, which libzip 1.7 cannot verify")
        << raivo << readFile(QStringLiteral("raivo/made_raivo-otp-export-aes2.zip"))
        << raivoPassword << ImportError::Unsupported;
    QTest::newRow("raivo: AES-2 with a wrong password")
        << raivo << readFile(QStringLiteral("raivo/made_raivo-otp-export-aes2.zip"))
        << QByteArray("raivo-tset") << ImportError::WrongPassword;
    QTest::newRow("raivo: an archive without its JSON")
        << raivo << readFile(winAuthZip) << winAuthPassword << ImportError::Malformed;
    QTest::newRow("raivo: kind MOTP")
        << raivo << edited(raivoJson, "\"kind\":\"HOTP\"", "\"kind\":\"MOTP\"") << none
        << ImportError::InvalidEntry;
    QTest::newRow("raivo: digits not a number")
        << raivo << edited(raivoJson, "\"digits\":\"8\"", "\"digits\":\"8x\"") << none
        << ImportError::Malformed;
    QTest::newRow("raivo: an object, not an array")
        << raivo << QByteArray(R"({"issuer": "a"})") << none << ImportError::Malformed;
    QTest::newRow("winauth: text not a URI")
        << winAuth << QByteArray("hello\n") << none << ImportError::Malformed;
}

void TestImportMoreFormats::errors()
{
    test::verifyImportError();
}

// The account's name is the one the app shows (content.name), over the
// URI's label; a label with a colon and nothing before it, and an issuer
// of punctuation, stay as the app has them; the note comes along; an
// unknown entry type is named and, with consent, left out.
void TestImportMoreFormats::protonNamesAndNotes()
{
    const auto ente = importAccounts(
        Format::ProtonAuthenticator,
        test::view(readFile(QStringLiteral("proton_authenticator/"
                                           "ente_proton_authenticator_backup.json"))));
    QVERIFY2(ente.ok(), ente ? "" : ente.error().message.c_str());
    QCOMPARE(ente->accounts[1].issuer, std::string("/e/"));
    QCOMPARE(ente->accounts[1].accountName, std::string(":cool@ente.com"));

    const QByteArray renamed = R"({"version": 1, "entries": [{"id": "1", "content": {
        "uri": "otpauth://totp/Example:old?secret=JBSWY3DPEHPK3PXP&issuer=Example",
        "entry_type": "Totp", "name": "new name"}, "note": "recovery codes in the safe"}]})";
    const auto result = importAccounts(Format::ProtonAuthenticator, test::view(renamed));
    QVERIFY2(result.ok(), result ? "" : result.error().message.c_str());
    QCOMPARE(result->accounts[0].issuer, std::string("Example"));
    QCOMPARE(result->accounts[0].accountName, std::string("new name"));
    QCOMPARE(result->accounts[0].note, std::string("recovery codes in the safe"));

    const QByteArray yandex =
        edited(protonPlain, "\"entry_type\": \"Steam\"", "\"entry_type\": \"Yandex\"");
    const auto partial = importAccounts(Format::ProtonAuthenticator, test::view(yandex),
                                        std::nullopt, UnreadableEntries::Skip);
    QVERIFY2(partial.ok(), partial ? "" : partial.error().message.c_str());
    QCOMPARE(partial->accounts.size(), std::size_t(6));
    QCOMPARE(partial->skipped.size(), std::size_t(1));
    QCOMPARE(partial->skipped[0].reason,
             std::string("proton-authenticator: entry 7 (Steam): unknown entry type \"Yandex\""));
}

// LastPass folders become tags (not the default "Other accounts" one); a
// hand-typed secret of 19 symbols keeps its whole bytes (expected bytes
// computed outside); the names are the user's, else the original ones.
void TestImportMoreFormats::lastPassFoldersAndSecrets()
{
    const auto groups = importAccounts(Format::LastPass, test::view(readFile(lastPassGroups)));
    QVERIFY2(groups.ok(), groups ? "" : groups.error().message.c_str());
    QCOMPARE(groups->accounts.size(), std::size_t(6));
    QCOMPARE(groups->accounts[0].tags, std::vector<std::string>{"Favorites"});
    QCOMPARE(groups->accounts[2].tags, std::vector<std::string>{"Group"});
    QVERIFY(groups->accounts[4].tags.empty());

    const auto android = importAccounts(Format::LastPass, test::view(readFile(lastPassAndroid)));
    QVERIFY2(android.ok(), android ? "" : android.error().message.c_str());
    const auto& first = android->accounts[0];
    QCOMPARE(QByteArray(reinterpret_cast<const char*>(first.secret.data()),
                        qsizetype(first.secret.size()))
                 .toHex(),
             QByteArray("08d52410f608c21184790e"));
    QCOMPARE(first.issuer, std::string("issuer"));
    QCOMPARE(first.accountName, std::string("account name default"));
    // The user cleared the name: the original one is kept.
    QCOMPARE(android->accounts[1].accountName, std::string("sha256"));
    QCOMPARE(guessFormats(test::view(readFile(lastPassAndroid))),
             std::vector<Format>{Format::LastPass});
}

// Ente's codeDisplay gives tags and a note; a trashed code is left out with
// a warning; "null" values are unset; an hotp URI without a counter counts
// from 0; a secret whose last Base32 group has 1, 3 or 6 symbols is read
// without them (expected bytes computed outside).
void TestImportMoreFormats::enteCodeDisplayAndQuirks()
{
    const auto plain =
        importAccounts(Format::Ente, test::view(readFile(QStringLiteral("ente/proton_plain.txt"))));
    QVERIFY2(plain.ok(), plain ? "" : plain.error().message.c_str());
    QCOMPARE(plain->accounts[1].note, std::string("a note"));

    const auto steam = importAccounts(
        Format::Ente,
        test::view(readFile(QStringLiteral("ente/proton_plain_with_steam_and_hotp.txt"))));
    QVERIFY2(steam.ok(), steam ? "" : steam.error().message.c_str());
    QCOMPARE(steam->accounts[0].tags, std::vector<std::string>{"tag1"});
    QCOMPARE(steam->accounts[0].parameters, otp::OtpParameters::steam());
    // DJDJDJHDJDHFHHFHF: 17 symbols, read as its first 16.
    QCOMPARE(QByteArray(reinterpret_cast<const char*>(steam->accounts[0].secret.data()),
                        qsizetype(steam->accounts[0].secret.size()))
                 .toHex(),
             QByteArray("1a4691a4e348ce539ca7"));

    const auto trashed = importAccounts(
        Format::Ente, test::view(readFile(QStringLiteral("ente/proton_plain_with_hotp.txt"))));
    QVERIFY2(trashed.ok(), trashed ? "" : trashed.error().message.c_str());
    QCOMPARE(trashed->accounts.size(), std::size_t(5));
    QCOMPARE(trashed->warnings.size(), std::size_t(1));
    QCOMPARE(
        trashed->warnings[0],
        std::string("ente: entry 3 (code1 ente: jdjdbfbdbdbdb): in Ente's trash; not imported"));
    QCOMPARE(trashed->accounts[2].parameters.kind, otp::OtpKind::Hotp);
    QCOMPARE(trashed->accounts[2].parameters.counter, std::uint64_t(0));

    const auto nulls = importAccounts(
        Format::Ente, test::view(QByteArray("otpauth://totp/Example:alice?secret=JBSWY3DPEHPK3PXP"
                                            "&algorithm=null&digits=null&period=null")));
    QVERIFY2(nulls.ok(), nulls ? "" : nulls.error().message.c_str());
    QCOMPARE(nulls->accounts[0].parameters, otp::OtpParameters{});
}

// Groups below the root become one tag ("Group A/Group B"), in the CSV and
// the XML alike; entries in the recycle bin are left out, and a file that
// has nothing else says so.
void TestImportMoreFormats::keePassGroupsAndRecycleBin()
{
    for (const QString& extension : {QStringLiteral("csv"), QStringLiteral("xml")}) {
        const auto groups = importAccounts(
            Format::KeePass,
            test::view(readFile(QStringLiteral("keepass/keepassxc_stratum_groups.") + extension)));
        QVERIFY2(groups.ok(), groups ? "" : groups.error().message.c_str());
        QCOMPARE(groups->accounts.size(), std::size_t(7));
        QVERIFY(groups->accounts[0].tags.empty());
        QCOMPARE(groups->accounts[1].tags, std::vector<std::string>{"Group A"});
        QCOMPARE(groups->accounts[3].tags, std::vector<std::string>{"Group A/Group B"});
        QCOMPARE(guessFormats(test::view(
                     readFile(QStringLiteral("keepass/keepassxc_stratum_groups.") + extension))),
                 std::vector<Format>{Format::KeePass});

        const auto recycled = importAccounts(
            Format::KeePass,
            test::view(
                readFile(QStringLiteral("keepass/keepassxc_stratum_recyclebin.") + extension)));
        QVERIFY(!recycled.ok());
        QCOMPARE(recycled.error().code, ImportError::Malformed);
        QVERIFY2(recycled.error().message.find("recycle bin (7)") != std::string::npos,
                 recycled.error().message.c_str());
    }

    // A database itself is named, with what to do, and no password asked.
    const QByteArray kdbx = QByteArray::fromHex("03d9a29a67fb4bb5") + QByteArray(300, '\x11');
    QVERIFY(guessFormats(test::view(kdbx)).empty());
    QVERIFY(std::string(describeUnrecognised(test::view(kdbx))).starts_with("a KeePass database"));
}

// The other places KeePass and its plugins keep a one-time password, as
// their documentation gives them: KeePass 2.47's TimeOtp-* and HmacOtp-*,
// KeePassXC's old TOTP Seed + TOTP Settings (Steam's "S"), KeeOtp's
// settings; an entry's history is not read; a recycle bin beside accounts
// gives a warning.
void TestImportMoreFormats::keePassFieldForms()
{
    const auto field = [](const char* key, const char* value) {
        return QByteArray("<String><Key>") + key + "</Key><Value>" + value + "</Value></String>";
    };
    const QByteArray xml =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><KeePassFile><Meta>"
        "<RecycleBinEnabled>True</RecycleBinEnabled><RecycleBinUUID>bin</RecycleBinUUID></Meta>"
        "<Root><Group><UUID>root</UUID><Name>Database</Name>"
        "<Entry>" +
        field("Title", "Kp") + field("UserName", "alice") +
        field("TimeOtp-Secret-Base32", "JBSWY3DPEHPK3PXP") + field("TimeOtp-Length", "8") +
        field("TimeOtp-Period", "60") + field("TimeOtp-Algorithm", "HMAC-SHA-256") +
        "<History><Entry>" + field("Title", "Old") + field("otp", "otpauth://totp/x?secret=AAAA") +
        "</Entry></History></Entry>"
        "<Entry>" +
        field("Title", "Counter") + field("HmacOtp-Secret-Hex", "3132333435") +
        field("HmacOtp-Counter", "5") +
        "</Entry>"
        "<Entry>" +
        field("Title", "Valve") + field("TOTP Seed", "JBSWY3DPEHPK3PXP") +
        field("TOTP Settings", "30;S") +
        "</Entry>"
        "<Entry>" +
        field("Title", "Legacy") + field("TOTP Seed", "JBSWY3DPEHPK3PXP") +
        field("TOTP Settings", "45;7") +
        "</Entry>"
        "<Entry>" +
        field("Title", "KeeOtp") +
        field("otp", "key=JBSWY3DPEHPK3PXP&amp;size=8&amp;step=45&amp;otpHashMode=Sha512") +
        "</Entry>"
        "<Group><UUID>bin</UUID><Name>Recycle Bin</Name><Entry>" +
        field("Title", "Gone") + field("otp", "otpauth://totp/Gone?secret=JBSWY3DPEHPK3PXP") +
        "</Entry></Group>"
        "</Group></Root></KeePassFile>";
    const auto result = importAccounts(Format::KeePass, test::view(xml));
    QVERIFY2(result.ok(), result ? "" : result.error().message.c_str());
    const auto& accounts = result->accounts;
    QCOMPARE(accounts.size(), std::size_t(5));
    QCOMPARE(accounts[0].issuer, std::string("Kp"));
    QCOMPARE(accounts[0].accountName, std::string("alice"));
    QCOMPARE(accounts[0].parameters,
             (otp::OtpParameters{otp::OtpKind::Totp, crypto::HashAlgorithm::Sha256, 8, 60, 0}));
    QCOMPARE(accounts[1].parameters,
             (otp::OtpParameters{otp::OtpKind::Hotp, crypto::HashAlgorithm::Sha1, 6, 30, 5}));
    QCOMPARE(QByteArray(reinterpret_cast<const char*>(accounts[1].secret.data()),
                        qsizetype(accounts[1].secret.size())),
             QByteArray("12345"));
    QCOMPARE(accounts[2].parameters, otp::OtpParameters::steam());
    QCOMPARE(accounts[3].parameters,
             (otp::OtpParameters{otp::OtpKind::Totp, crypto::HashAlgorithm::Sha1, 7, 45, 0}));
    QCOMPARE(accounts[4].parameters,
             (otp::OtpParameters{otp::OtpKind::Totp, crypto::HashAlgorithm::Sha512, 8, 45, 0}));
    QCOMPARE(result->warnings, std::vector<std::string>{
                                   "1 entry with a one-time password in the recycle bin left out"});

    // A bad value is named with its entry, and with consent left out.
    QByteArray bad = xml;
    bad.replace("<Value>8</Value>", "<Value>eight</Value>");
    const auto partial =
        importAccounts(Format::KeePass, test::view(bad), std::nullopt, UnreadableEntries::Skip);
    QVERIFY2(partial.ok(), partial ? "" : partial.error().message.c_str());
    QCOMPARE(partial->accounts.size(), std::size_t(4));
    QCOMPARE(partial->skipped.size(), std::size_t(1));
    QCOMPARE(partial->skipped[0].reason,
             std::string("keepass: entry 1 (Kp: alice): \"TimeOtp-Length\" is not a number: "
                         "\"eight\""));
}

QTEST_GUILESS_MAIN(TestImportMoreFormats)
// The Steam app's file with several accounts reads them all, in order; an
// encrypted .maFile and a folder's manifest are named for what they are,
// with the way out, whether picked with --from or guessed; Steam's own
// otpauth URIs (issuer Steam, no digits) are Steam Guard accounts in any
// URI list, as the apps that write them mean.
void TestImportMoreFormats::steamFilesAndRefusals()
{
    const QByteArray two =
        R"({"accounts": {"1": {"shared_secret": "zvIayp3JPvtvX/QGHqsqKBk/44s=",
        "account_name": "first"}, "2": {"shared_secret": "kSJa7hfbr8IvReG9/1Ax13BhTJA=",
        "account_name": "second"}}})";
    const auto both = importAccounts(Format::Steam, test::view(two));
    QVERIFY2(both.ok(), both ? "" : both.error().message.c_str());
    QCOMPARE(both->accounts.size(), std::size_t(2));
    QCOMPARE(both->accounts[1].accountName, std::string("second"));
    QCOMPARE(both->accounts[1].parameters, otp::OtpParameters::steam());
    QCOMPARE(guessFormats(test::view(two)), std::vector<Format>{Format::Steam});

    const QByteArray sealed = readFile(QStringLiteral("steam/sda_encrypted/1234.maFile"));
    QVERIFY(guessFormats(test::view(sealed)).empty());
    QVERIFY(std::string(describeUnrecognised(test::view(sealed)))
                .find("encrypted Steam Desktop Authenticator .maFile") != std::string::npos);
    const QByteArray manifest = readFile(QStringLiteral("steam/sda_encrypted/manifest.json"));
    QCOMPARE(guessFormats(test::view(manifest)), std::vector<Format>{Format::Steam});
    // Without the files beside it, a manifest says how to import.
    const auto refused = importAccounts(Format::Steam, test::view(manifest));
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error().message.find("from its folder") != std::string::npos,
             refused.error().message.c_str());
    QVERIFY(isEncrypted(Format::Steam, test::view(manifest)));
    QVERIFY(!isEncrypted(Format::Steam, test::view(readFile(steamMaFile))));

    // From its folder: every account it names, decrypted with the password.
    const auto folder = [](const char* name) {
        return companionFilesBeside(
            test::dataPath(QStringLiteral("import/steam/%1/manifest.json").arg(QLatin1String(name)))
                .toStdString());
    };
    const QByteArray password("password");
    for (const char* sealedFolder : {"sda_encrypted", "cli_v1_encrypted"}) {
        const QByteArray list =
            readFile(QStringLiteral("steam/%1/manifest.json").arg(QLatin1String(sealedFolder)));
        const auto none = importAccounts(Format::Steam, test::view(list), std::nullopt,
                                         UnreadableEntries::Refuse, folder(sealedFolder));
        QVERIFY(!none.ok());
        QCOMPARE(none.error().code, ImportError::PasswordRequired);
        const auto wrong =
            importAccounts(Format::Steam, test::view(list), test::view(QByteArray("drowssap")),
                           UnreadableEntries::Refuse, folder(sealedFolder));
        QVERIFY(!wrong.ok());
        QCOMPARE(wrong.error().code, ImportError::WrongPassword);
        const auto opened = importAccounts(Format::Steam, test::view(list), test::view(password),
                                           UnreadableEntries::Refuse, folder(sealedFolder));
        QVERIFY2(opened.ok(), opened ? "" : opened.error().message.c_str());
        QCOMPARE(opened->accounts.size(), std::size_t(1));
        QCOMPARE(opened->accounts[0].accountName, std::string("example"));
        // The same key as the plain .maFile of the same account.
        const auto plain = importAccounts(Format::Steam, test::view(readFile(steamMaFile)));
        QVERIFY(plain.ok());
        QVERIFY(opened->accounts[0].secret.view() == plain->accounts[0].secret.view());
    }
    const auto pair = importAccounts(
        Format::Steam, test::view(readFile(QStringLiteral("steam/sda_2_accounts/manifest.json"))),
        std::nullopt, UnreadableEntries::Refuse, folder("sda_2_accounts"));
    QVERIFY2(pair.ok(), pair ? "" : pair.error().message.c_str());
    QCOMPARE(pair->accounts.size(), std::size_t(2));
    QCOMPARE(pair->accounts[1].accountName, std::string("example2"));
    // A file it names that is not there, or a name that is a path.
    const QByteArray missing = R"({"encrypted":false,"entries":[{"encryption_iv":null,
        "encryption_salt":null,"filename":"9999.maFile","steamid":9999}]})";
    const auto absent = importAccounts(Format::Steam, test::view(missing), std::nullopt,
                                       UnreadableEntries::Refuse, folder("sda_2_accounts"));
    QVERIFY(!absent.ok());
    QVERIFY2(absent.error().message.find("\"9999.maFile\", which the manifest names, is not "
                                         "beside it") != std::string::npos,
             absent.error().message.c_str());
    QByteArray escaping = missing;
    escaping.replace("9999.maFile", "../sda_encrypted/1234.maFile");
    const auto outside = importAccounts(Format::Steam, test::view(escaping), std::nullopt,
                                        UnreadableEntries::Refuse, folder("sda_2_accounts"));
    QVERIFY(!outside.ok());
    QCOMPARE(outside.error().code, ImportError::Malformed);
    // steamguard-cli's own manifest is not taken for Proton Authenticator's
    // export, which also has "version" and "entries".
    const QByteArray cliManifest = R"({"version":1,"entries":[{"filename":"1234.maFile",
        "steam_id":1234,"account_name":"example","encryption":null}]})";
    QCOMPARE(guessFormats(test::view(cliManifest)), std::vector<Format>{Format::Steam});

    const QByteArray uris = "otpauth://totp/Steam:gaben?secret=JBSWY3DPEHPK3PXP&issuer=Steam\n"
                            "otpauth://totp/Steam:six?secret=JBSWY3DPEHPK3PXP&digits=6\n"
                            "otpauth://totp/Valve:flag?secret=JBSWY3DPEHPK3PXP&steam\n"
                            "otpauth://totp/Steamy:no?secret=JBSWY3DPEHPK3PXP\n";
    const auto listed = importAccounts(Format::OtpauthList, test::view(uris));
    QVERIFY2(listed.ok(), listed ? "" : listed.error().message.c_str());
    QCOMPARE(listed->accounts[0].parameters, otp::OtpParameters::steam());
    QCOMPARE(listed->accounts[1].parameters.kind, otp::OtpKind::Totp);
    QCOMPARE(listed->accounts[1].parameters.digits, 6);
    QCOMPARE(listed->accounts[2].parameters, otp::OtpParameters::steam());
    QCOMPARE(listed->accounts[3].parameters.kind, otp::OtpKind::Totp);
}

// WinAuth's archive: guessed by its one .txt, encrypted or not; a wrong
// password is always WrongPassword, also the 1 in 256 that pass the
// traditional encryption's check byte and decrypt to noise (caught by the
// inflate or the CRC), never an import of noise or a "damaged" file.
void TestImportMoreFormats::winAuthArchives()
{
    const QByteArray sealed = readFile(winAuthZip);
    QCOMPARE(guessFormats(test::view(sealed)), std::vector<Format>{Format::WinAuth});
    QVERIFY(isEncrypted(Format::WinAuth, test::view(sealed)));
    const QByteArray open = readFile(QStringLiteral("winauth/made_unencrypted.zip"));
    QCOMPARE(guessFormats(test::view(open)), std::vector<Format>{Format::WinAuth});
    QVERIFY(!isEncrypted(Format::WinAuth, test::view(open)));
    const auto plain = importAccounts(Format::WinAuth, test::view(open));
    QVERIFY2(plain.ok(), plain ? "" : plain.error().message.c_str());
    QCOMPARE(plain->accounts.size(), std::size_t(1));
    QCOMPARE(plain->accounts[0].accountName, std::string("Authenticator"));
    // Authenticator Plus's archive is the same: its Accounts.txt is read.
    QCOMPARE(guessFormats(
                 test::view(readFile(QStringLiteral("authenticator_plus/authenticator_plus.zip")))),
             std::vector<Format>{Format::WinAuth});

    int passedCheckByte = 0;
    for (int i = 0; i < 1024; ++i) {
        const QByteArray wrong = "wrong " + QByteArray::number(i);
        const auto result = importAccounts(Format::WinAuth, test::view(sealed), test::view(wrong));
        QVERIFY2(!result.ok(), wrong.constData());
        QVERIFY2(result.error().code == ImportError::WrongPassword, result.error().message.c_str());
        if (result.error().message.find("or the archive is damaged") != std::string::npos)
            ++passedCheckByte;
    }
    // About 4 of the 1024 pass the check byte; the loop saw the path.
    QVERIFY(passedCheckByte > 0);
}

#include "TestImportMoreFormats.moc"
