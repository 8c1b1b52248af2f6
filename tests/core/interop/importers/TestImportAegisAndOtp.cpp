// The Aegis and andOTP importers on what goes wrong: each case takes a real
// file of tests/data/import, changes it in memory (or seals a changed
// database the way the app would), and expects one error code and no
// accounts. Plus what the data-driven TestImporters does not see: Aegis
// groups as tags (database versions 2 and 3), slots the password does not
// open, andOTP tags, and the two andOTP encrypted layouts built afresh.
#include "ImportTestSupport.h"
#include "common/TestSupport.h"
#include "crypto/AesGcm.h"
#include "crypto/Hash.h"
#include "crypto/Kdf.h"
#include "interop/importers/Import.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace watchword;
using namespace watchword::importers;
using test::edited;
using test::readFile;
using test::truncated;

namespace {

QByteArray flippedAt(const QString& relative, qsizetype at)
{
    QByteArray data = readFile(relative);
    data[at < 0 ? data.size() + at : at] =
        static_cast<char>(data[at < 0 ? data.size() + at : at] ^ 1);
    return data;
}

QByteArray bytes(ByteView view)
{
    return QByteArray(reinterpret_cast<const char*>(view.data()),
                      static_cast<qsizetype>(view.size()));
}

QByteArray pattern(int size, int seed)
{
    QByteArray out(size, '\0');
    for (int i = 0; i < size; ++i)
        out[i] = static_cast<char>(seed + 13 * i);
    return out;
}

QByteArray seal(const QByteArray& key, const QByteArray& nonce, const QByteArray& plaintext)
{
    auto sealed =
        crypto::aesGcm::encrypt(test::view(key), test::view(nonce), {}, test::view(plaintext));
    if (!sealed)
        qFatal("AES-GCM: %s", sealed.error().message.c_str());
    return bytes(*sealed);
}

const QByteArray masterKey = pattern(32, 7);

// A password slot as Aegis writes it, wrapping masterKey under password.
// Cheap scrypt parameters keep the test fast; the importer takes them from
// the slot.
QJsonObject passwordSlot(const QByteArray& password, int seed, int n = 1024)
{
    const QByteArray salt = pattern(32, seed);
    const QByteArray nonce = pattern(12, seed + 1);
    auto derived =
        crypto::scrypt(test::view(password), test::view(salt), std::uint64_t(n), 8, 1, 32);
    if (!derived)
        qFatal("scrypt: %s", derived.error().message.c_str());
    const QByteArray wrapped = seal(bytes(*derived), nonce, masterKey);
    return QJsonObject{
        {"type", 1},
        {"uuid", "00000000-0000-4000-8000-000000000000"},
        {"key", QString::fromLatin1(wrapped.left(32).toHex())},
        {"key_params", QJsonObject{{"nonce", QString::fromLatin1(nonce.toHex())},
                                   {"tag", QString::fromLatin1(wrapped.mid(32).toHex())}}},
        {"n", n},
        {"r", 8},
        {"p", 1},
        {"salt", QString::fromLatin1(salt.toHex())}};
}

// A password slot that says it costs scrypt N = 2^15, r = 8, p = 128 (work
// 2^25, 32 MiB): the most one slot may ask. Never derived here: its key was
// wrapped with passwordSlot's cheap parameters, so it would not open.
QJsonObject costlySlot(int seed)
{
    QJsonObject slot = passwordSlot("pw", seed);
    slot[QStringLiteral("n")] = 32768;
    slot[QStringLiteral("p")] = 128;
    return slot;
}

// An encrypted Aegis vault holding database (the decrypted "db" text),
// with the given slots.
QByteArray sealedAegis(const QByteArray& database, const QJsonArray& slotList)
{
    const QByteArray nonce = pattern(12, 99);
    const QByteArray sealed = seal(masterKey, nonce, database);
    const QJsonObject root{
        {"version", 1},
        {"header",
         QJsonObject{
             {"slots", slotList},
             {"params", QJsonObject{{"nonce", QString::fromLatin1(nonce.toHex())},
                                    {"tag", QString::fromLatin1(sealed.right(16).toHex())}}}}},
        {"db", QString::fromLatin1(sealed.left(sealed.size() - 16).toBase64())}};
    return QJsonDocument(root).toJson();
}

// The plain vault's database object, as the encrypted one holds it.
QJsonObject plainDatabase(const QString& relative)
{
    return QJsonDocument::fromJson(readFile(relative))[QStringLiteral("db")].toObject();
}

QByteArray compact(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QByteArray sealedAndOtp(const QByteArray& plaintext, const QByteArray& password,
                        std::uint32_t iterations)
{
    const QByteArray salt = pattern(12, 3);
    const QByteArray nonce = pattern(12, 4);
    SecureBuffer key(32);
    if (!crypto::pbkdf2(crypto::HashAlgorithm::Sha1, test::view(password), test::view(salt),
                        iterations, key.span()))
        qFatal("PBKDF2 failed");
    QByteArray out(4, '\0');
    for (int i = 0; i < 4; ++i)
        out[i] = static_cast<char>(iterations >> (24 - 8 * i));
    return out + salt + nonce + seal(bytes(key), nonce, plaintext);
}

QByteArray sealedOldAndOtp(const QByteArray& plaintext, const QByteArray& password)
{
    const QByteArray nonce = pattern(12, 5);
    const auto key = crypto::sha256(test::view(password));
    return nonce + seal(bytes(key), nonce, plaintext);
}

const QString aegisPlain = QStringLiteral("aegis/aegis_plain.json");
const QString aegisGrouped = QStringLiteral("aegis/aegis_plain_grouped_v2.json");
const QString aegisEncrypted = QStringLiteral("aegis/aegis_encrypted.json");
const QString andOtpPlain = QStringLiteral("andotp/andotp_plain.json");
const QString andOtpEncrypted = QStringLiteral("andotp/andotp_encrypted.bin");
const QString andOtpOld = QStringLiteral("andotp/andotp_encrypted_old.bin");
const QString twoFasPlain = QStringLiteral("2fas/2fas_authenticator_plain_v3.2fas");

// The real encrypted andOTP backup with its iteration count (the first 4
// bytes, big-endian) replaced: nothing else changes.
QByteArray andOtpWithIterations(std::uint32_t iterations)
{
    QByteArray data = readFile(andOtpEncrypted);
    for (int i = 0; i < 4; ++i)
        data[i] = static_cast<char>(iterations >> (24 - 8 * i));
    return data;
}

std::vector<std::string> tagsOf(const Imported& imported, const std::string& issuer)
{
    for (const auto& account : imported.accounts)
        if (account.issuer == issuer)
            return account.tags;
    qFatal("no account %s", issuer.c_str());
}

} // namespace

class TestImportAegisAndOtp : public QObject
{
    Q_OBJECT

private slots:
    void errors_data();
    void errors();
    void kdfBounds_data();
    void kdfBounds();
    void aegisSlotsCheckedBeforeAnyDerivation();
    void aegisBudgetPerImport_data();
    void aegisBudgetPerImport();
    void aegisExportsOfEveryShapeImport();
    void aegisGroupsAsTags();
    void aegisSlots();
    void aegisUnsupportedEntryTypes();
    void andOtpLayouts();
    void andOtpTags();
    void encryptedIsTold();
};

void TestImportAegisAndOtp::errors_data()
{
    test::addImportErrorColumns();

    const QByteArray none;
    const QByteArray test("test");
    const QByteArray secret("\"4SJHB4GSD43FZBAI7C2HLRJGPQ\"");
    const QByteArray paddedSecret("\"4SJHB4GSD43FZBAI7C2HLRJGPQ======\"");

    // Aegis, plain
    QTest::newRow("aegis: empty") << Format::Aegis << QByteArray("") << none
                                  << ImportError::Malformed;
    QTest::newRow("aegis: truncated")
        << Format::Aegis << truncated(aegisPlain) << none << ImportError::Malformed;
    QTest::newRow("aegis: not UTF-8") << Format::Aegis
                                      << edited(aegisPlain, "Deno",
                                                "D\xff"
                                                "no")
                                      << none << ImportError::Malformed;
    QTest::newRow("aegis: array") << Format::Aegis << QByteArray("[]") << none
                                  << ImportError::Malformed;
    QTest::newRow("aegis: andOTP file")
        << Format::Aegis << readFile(andOtpPlain) << none << ImportError::Malformed;
    QTest::newRow("aegis: 2FAS file")
        << Format::Aegis << readFile(twoFasPlain) << none << ImportError::Malformed;
    QTest::newRow("aegis: andOTP binary")
        << Format::Aegis << readFile(andOtpEncrypted) << test << ImportError::Malformed;
    QTest::newRow("aegis: vault version 2")
        << Format::Aegis << edited(aegisPlain, "\"version\": 1", "\"version\": 2") << none
        << ImportError::UnsupportedVersion;
    QTest::newRow("aegis: version as text")
        << Format::Aegis << edited(aegisPlain, "\"version\": 1", "\"version\": \"1\"") << none
        << ImportError::Malformed;
    QTest::newRow("aegis: db version 4")
        << Format::Aegis
        << edited(aegisPlain, "\"version\": 1,\n        \"entries\"",
                  "\"version\": 4,\n        \"entries\"")
        << none << ImportError::UnsupportedVersion;
    QTest::newRow("aegis: db version 0")
        << Format::Aegis
        << edited(aegisPlain, "\"version\": 1,\n        \"entries\"",
                  "\"version\": 0,\n        \"entries\"")
        << none << ImportError::UnsupportedVersion;
    QTest::newRow("aegis: entries not an array")
        << Format::Aegis << edited(aegisPlain, "\"entries\": [", "\"entries\": {\"x\": [") << none
        << ImportError::Malformed;
    QTest::newRow("aegis: header slots a string")
        << Format::Aegis << edited(aegisPlain, "\"slots\": null", "\"slots\": \"x\"") << none
        << ImportError::Malformed;
    QTest::newRow("aegis: bad secret")
        << Format::Aegis << edited(aegisPlain, secret, "\"4SJHB4GSD43FZ!AI7C2HLRJGPQ\"") << none
        << ImportError::InvalidEntry;
    QTest::newRow("aegis: empty secret")
        << Format::Aegis << edited(aegisPlain, secret, "\"\"") << none << ImportError::InvalidEntry;
    QTest::newRow("aegis: no info") << Format::Aegis << edited(aegisPlain, "\"info\"", "\"inf\"")
                                    << none << ImportError::InvalidEntry;
    QTest::newRow("aegis: MD5") << Format::Aegis
                                << edited(aegisPlain, "\"algo\": \"SHA1\"", "\"algo\": \"MD5\"")
                                << none << ImportError::InvalidEntry;
    QTest::newRow("aegis: 4 digits")
        << Format::Aegis << edited(aegisPlain, "\"digits\": 6", "\"digits\": 4") << none
        << ImportError::InvalidEntry;
    QTest::newRow("aegis: negative digits")
        << Format::Aegis << edited(aegisPlain, "\"digits\": 6", "\"digits\": -6") << none
        << ImportError::Malformed;
    QTest::newRow("aegis: period 0")
        << Format::Aegis << edited(aegisPlain, "\"period\": 30", "\"period\": 0") << none
        << ImportError::InvalidEntry;
    QTest::newRow("aegis: steam with 6 digits")
        << Format::Aegis << edited(aegisPlain, "\"digits\": 5", "\"digits\": 6") << none
        << ImportError::InvalidEntry;
    QTest::newRow("aegis: unknown type")
        << Format::Aegis << edited(aegisPlain, "\"type\": \"totp\"", "\"type\": \"xotp\"") << none
        << ImportError::InvalidEntry;
    QTest::newRow("aegis: name not a string")
        << Format::Aegis << edited(aegisPlain, "\"name\": \"Mason\"", "\"name\": 5") << none
        << ImportError::Malformed;

    // Aegis, encrypted
    QTest::newRow("aegis: no password")
        << Format::Aegis << readFile(aegisEncrypted) << none << ImportError::PasswordRequired;
    QTest::newRow("aegis: wrong password") << Format::Aegis << readFile(aegisEncrypted)
                                           << QByteArray("tesT") << ImportError::WrongPassword;
    QTest::newRow("aegis: empty password") << Format::Aegis << readFile(aegisEncrypted)
                                           << QByteArray("") << ImportError::WrongPassword;
    QTest::newRow("aegis: truncated encrypted")
        << Format::Aegis << truncated(aegisEncrypted) << test << ImportError::Malformed;
    // The slot opens, so the password is right: a database that does not
    // verify is damage, not a wrong password.
    QTest::newRow("aegis: database altered")
        << Format::Aegis << edited(aegisEncrypted, "\"db\": \"R", "\"db\": \"S") << test
        << ImportError::Malformed;
    QTest::newRow("aegis: database tag altered")
        << Format::Aegis
        << edited(aegisEncrypted, "\"5db2470edf2d12f82a89ae7f48ccd50c\"",
                  "\"5db2470edf2d12f82a89ae7f48ccd50d\"")
        << test << ImportError::Malformed;
    QTest::newRow("aegis: database not Base64")
        << Format::Aegis << edited(aegisEncrypted, "\"db\": \"R", "\"db\": \"!") << test
        << ImportError::Malformed;
    // A wrapped key that does not verify cannot be told from a wrong password.
    QTest::newRow("aegis: slot key altered")
        << Format::Aegis << edited(aegisEncrypted, "\"key\": \"49", "\"key\": \"48") << test
        << ImportError::WrongPassword;
    QTest::newRow("aegis: slot key short")
        << Format::Aegis << edited(aegisEncrypted, "\"key\": \"491d", "\"key\": \"") << test
        << ImportError::Malformed;
    QTest::newRow("aegis: slot nonce not hex")
        << Format::Aegis << edited(aegisEncrypted, "\"nonce\": \"e9", "\"nonce\": \"x9") << test
        << ImportError::Malformed;
    QTest::newRow("aegis: scrypt N not a power of two")
        << Format::Aegis << edited(aegisEncrypted, "\"n\": 32768", "\"n\": 32767") << test
        << ImportError::Malformed;
    QTest::newRow("aegis: scrypt N over the memory bound")
        << Format::Aegis << edited(aegisEncrypted, "\"n\": 32768", "\"n\": 2097152") << test
        << ImportError::Unsupported;
    QTest::newRow("aegis: scrypt p over 32 bits")
        << Format::Aegis << edited(aegisEncrypted, "\"p\": 1", "\"p\": 4294967296") << test
        << ImportError::Malformed;
    QTest::newRow("aegis: scrypt work over the bound")
        << Format::Aegis << edited(aegisEncrypted, "\"p\": 1", "\"p\": 1024") << test
        << ImportError::Unsupported;
    QTest::newRow("aegis: scrypt r over 32 bits")
        << Format::Aegis << edited(aegisEncrypted, "\"r\": 8", "\"r\": 4294967296") << test
        << ImportError::Malformed;
    QTest::newRow("aegis: biometric slot only")
        << Format::Aegis << edited(aegisEncrypted, "\"type\": 1", "\"type\": 2") << test
        << ImportError::Unsupported;
    QTest::newRow("aegis: no slots")
        << Format::Aegis << sealedAegis(compact(plainDatabase(aegisPlain)), QJsonArray{}) << test
        << ImportError::Unsupported;
    QTest::newRow("aegis: decrypted db version 4")
        << Format::Aegis
        << sealedAegis(compact(QJsonObject{{"version", 4}, {"entries", QJsonArray{}}}),
                       QJsonArray{passwordSlot(test, 1)})
        << test << ImportError::UnsupportedVersion;
    QTest::newRow("aegis: decrypted db not JSON")
        << Format::Aegis
        << sealedAegis("{\"version\": 1, \"entr", QJsonArray{passwordSlot(test, 1)}) << test
        << ImportError::Malformed;
    QTest::newRow("aegis: decrypted entry with bad secret")
        << Format::Aegis
        << sealedAegis(edited(compact(plainDatabase(aegisPlain)), secret, "\"1\""),
                       QJsonArray{passwordSlot(test, 1)})
        << test << ImportError::InvalidEntry;

    // andOTP, plain
    QTest::newRow("andotp: empty")
        << Format::AndOtp << QByteArray("") << none << ImportError::Malformed;
    QTest::newRow("andotp: truncated")
        << Format::AndOtp << truncated(andOtpPlain) << none << ImportError::Malformed;
    QTest::newRow("andotp: object")
        << Format::AndOtp << QByteArray(" [ {\"x\": ") << none << ImportError::Malformed;
    QTest::newRow("andotp: 2FAS file")
        << Format::AndOtp << readFile(twoFasPlain) << none << ImportError::Malformed;
    QTest::newRow("andotp: entry not an object")
        << Format::AndOtp << QByteArray("[1]") << none << ImportError::Malformed;
    QTest::newRow("andotp: Aegis file")
        << Format::AndOtp << readFile(aegisPlain) << test << ImportError::Malformed;
    QTest::newRow("andotp: Aegis file, no password")
        << Format::AndOtp << readFile(aegisPlain) << none << ImportError::Malformed;
    QTest::newRow("andotp: bad secret")
        << Format::AndOtp << edited(andOtpPlain, paddedSecret, "\"4SJHB4GSD43FZ!AI7C2HLRJGPQ\"")
        << none << ImportError::InvalidEntry;
    QTest::newRow("andotp: no secret")
        << Format::AndOtp << edited(andOtpPlain, "\"secret\"", "\"secreT\"") << none
        << ImportError::InvalidEntry;
    QTest::newRow("andotp: MOTP") << Format::AndOtp
                                  << edited(andOtpPlain, "\"type\":\"TOTP\"", "\"type\":\"MOTP\"")
                                  << none << ImportError::InvalidEntry;
    QTest::newRow("andotp: MD5") << Format::AndOtp
                                 << edited(andOtpPlain, "\"algorithm\":\"SHA1\"",
                                           "\"algorithm\":\"MD5\"")
                                 << none << ImportError::InvalidEntry;
    QTest::newRow("andotp: 11 digits")
        << Format::AndOtp << edited(andOtpPlain, "\"digits\":6", "\"digits\":11") << none
        << ImportError::InvalidEntry;
    QTest::newRow("andotp: digits as text")
        << Format::AndOtp << edited(andOtpPlain, "\"digits\":6", "\"digits\":\"6\"") << none
        << ImportError::Malformed;
    QTest::newRow("andotp: tags not an array")
        << Format::AndOtp << edited(andOtpPlain, "\"tags\":[]", "\"tags\":\"x\"") << none
        << ImportError::Malformed;

    // andOTP, encrypted
    QTest::newRow("andotp: no password")
        << Format::AndOtp << readFile(andOtpEncrypted) << none << ImportError::PasswordRequired;
    QTest::newRow("andotp: wrong password") << Format::AndOtp << readFile(andOtpEncrypted)
                                            << QByteArray("tesT") << ImportError::WrongPassword;
    // An old backup starts with a random nonce: read as the current layout's
    // iteration count (here 2,167,135,785) it is out of bounds, so a wrong
    // password is reported as that count's error, which says the password
    // does not open the file as an old backup either (FORMAT.md section 9).
    QTest::newRow("andotp old: wrong password")
        << Format::AndOtp << readFile(andOtpOld) << QByteArray("tesT") << ImportError::Unsupported;
    // GCM cannot tell damage from a wrong password: both fail the tag.
    QTest::newRow("andotp: truncated encrypted")
        << Format::AndOtp << truncated(andOtpEncrypted) << test << ImportError::WrongPassword;
    QTest::newRow("andotp: ciphertext altered")
        << Format::AndOtp << flippedAt(andOtpEncrypted, 40) << test << ImportError::WrongPassword;
    QTest::newRow("andotp: tag altered")
        << Format::AndOtp << flippedAt(andOtpEncrypted, -1) << test << ImportError::WrongPassword;
    QTest::newRow("andotp: iterations altered")
        << Format::AndOtp << flippedAt(andOtpEncrypted, 3) << test << ImportError::WrongPassword;
    QTest::newRow("andotp: shorter than nonce and tag")
        << Format::AndOtp << pattern(27, 1) << test << ImportError::Malformed;
    QTest::newRow("andotp: decrypted not JSON")
        << Format::AndOtp << sealedAndOtp("[{\"secret\": ", test, 1000) << test
        << ImportError::Malformed;
    QTest::newRow("andotp: decrypted not UTF-8")
        << Format::AndOtp << sealedAndOtp("[\"\xff\"]", test, 1000) << test
        << ImportError::Malformed;
    QTest::newRow("andotp: decrypted entry with bad secret")
        << Format::AndOtp << sealedAndOtp(edited(andOtpPlain, paddedSecret, "\"0\""), test, 1000)
        << test << ImportError::InvalidEntry;
    QTest::newRow("andotp old: decrypted entry with bad secret")
        << Format::AndOtp << sealedOldAndOtp(edited(andOtpPlain, paddedSecret, "\"0\""), test)
        << test << ImportError::InvalidEntry;
    // Over the iteration bound the current layout is not tried; nor does the
    // old one open: the count is the error, not the password.
    QTest::newRow("andotp: 2^31 iterations")
        << Format::AndOtp
        << edited(sealedAndOtp(readFile(andOtpPlain), test, 1000), QByteArray("\0\0\x03\xe8", 4),
                  QByteArray("\x80\0\x03\xe8", 4))
        << test << ImportError::Unsupported;
}

void TestImportAegisAndOtp::errors()
{
    QFETCH(Format, format);
    // The message names the format.
    test::verifyImportError(format == Format::Aegis ? "aegis: " : "andotp: ");
}

// Key-derivation parameters out of docs/FORMAT.md section 9's bounds, each
// in a real file with that one parameter changed: refused before any key is
// derived, with the documented code and a message naming the parameter, the
// value and the range. The password is the file's own, so a derivation would
// have answered otherwise (WrongPassword, or the accounts).
void TestImportAegisAndOtp::kdfBounds_data()
{
    QTest::addColumn<Format>("format");
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<ImportError>("expected");
    QTest::addColumn<QList<QByteArray>>("named"); // in the message

    using Named = QList<QByteArray>;
    const QByteArray count = "the PBKDF2 iteration count (the first 4 bytes) is ";
    QTest::newRow("andotp: 2^32 - 1 iterations")
        << Format::AndOtp << andOtpWithIterations(0xffffffffU) << ImportError::Unsupported
        << Named{count + "4294967295, outside the allowed 1 to 10000000",
                 "the password does not open it"};
    QTest::newRow("andotp: 10,000,001 iterations")
        << Format::AndOtp << andOtpWithIterations(10'000'001) << ImportError::Unsupported
        << Named{count + "10000001, outside the allowed 1 to 10000000"};
    QTest::newRow("andotp: no iterations")
        << Format::AndOtp << andOtpWithIterations(0) << ImportError::Malformed
        << Named{count + "0, outside the allowed 1 to 10000000"};

    const QByteArray slot = "aegis: header.slots[0].";
    QTest::newRow("aegis: scrypt N not a power of two")
        << Format::Aegis << edited(aegisEncrypted, "\"n\": 32768", "\"n\": 32767")
        << ImportError::Malformed << Named{slot + "scrypt cost N = 32767 is not a power of two"};
    QTest::newRow("aegis: scrypt N of 1")
        << Format::Aegis << edited(aegisEncrypted, "\"n\": 32768", "\"n\": 1")
        << ImportError::Malformed << Named{slot + "scrypt cost N = 1 is not a power of two"};
    QTest::newRow("aegis: scrypt r of 0")
        << Format::Aegis << edited(aegisEncrypted, "\"r\": 8", "\"r\": 0") << ImportError::Malformed
        << Named{slot + "scrypt block size r = 0"};
    QTest::newRow("aegis: scrypt p of 0")
        << Format::Aegis << edited(aegisEncrypted, "\"p\": 1", "\"p\": 0") << ImportError::Malformed
        << Named{"parallelism p = 0"};
    QTest::newRow("aegis: scrypt p over 32 bits")
        << Format::Aegis << edited(aegisEncrypted, "\"p\": 1", "\"p\": 4294967296")
        << ImportError::Malformed << Named{slot + "p is 4294967296, outside the allowed 1 to"};
    QTest::newRow("aegis: scrypt memory over 1 GiB")
        << Format::Aegis << edited(aegisEncrypted, "\"n\": 32768", "\"n\": 2097152")
        << ImportError::Unsupported
        << Named{slot + "scrypt parameters N = 2097152, r = 8", "1 GiB"};
    QTest::newRow("aegis: scrypt work over 2^25")
        << Format::Aegis << edited(aegisEncrypted, "\"p\": 1", "\"p\": 129")
        << ImportError::Unsupported
        << Named{"aegis: header.slots[0]: scrypt work N*r*p is 33816576, over the 33554432 "
                 "(2^25) this build spends on one import"};
    // The salt's 64 hex digits cut to fewer.
    const auto withSaltDigits = [](qsizetype digits) {
        QByteArray data = readFile(aegisEncrypted);
        const QByteArray key = "\"salt\": \"";
        return data.remove(data.indexOf(key) + key.size(), 64 - digits);
    };
    QTest::newRow("aegis: empty salt")
        << Format::Aegis << withSaltDigits(0) << ImportError::Malformed
        << Named{slot + "salt is 0 bytes, outside the allowed 16 to 1024"};
    QTest::newRow("aegis: salt of 8 bytes")
        << Format::Aegis << withSaltDigits(16) << ImportError::Malformed
        << Named{slot + "salt is 8 bytes, outside the allowed 16 to 1024"};
}

void TestImportAegisAndOtp::kdfBounds()
{
    QFETCH(Format, format);
    QFETCH(QByteArray, data);
    QFETCH(ImportError, expected);
    QFETCH(QList<QByteArray>, named);
    const auto result = importAccounts(format, test::view(data), asBytes("test"));
    QVERIFY2(!result.ok(), "imported");
    QVERIFY2(result.error().code == expected, result.error().message.c_str());
    for (const QByteArray& part : named)
        QVERIFY2(result.error().message.find(part.toStdString()) != std::string::npos,
                 result.error().message.c_str());
}

// Every password slot is checked before the first is tried: a slot out of
// bounds is refused even when an earlier one opens with the password.
void TestImportAegisAndOtp::aegisSlotsCheckedBeforeAnyDerivation()
{
    const QByteArray database = compact(plainDatabase(aegisPlain));
    const QJsonObject opens = passwordSlot("pw", 1);
    const auto refused = [&](QJsonObject second) {
        const QByteArray vault = sealedAegis(database, QJsonArray{opens, second});
        return importAccounts(Format::Aegis, test::view(vault), asBytes("pw"));
    };
    // The first slot alone opens.
    const auto alone = importAccounts(
        Format::Aegis, test::view(sealedAegis(database, QJsonArray{opens})), asBytes("pw"));
    QVERIFY2(alone.ok(), alone ? "" : alone.error().message.c_str());

    QJsonObject badN = passwordSlot("other", 2);
    badN[QStringLiteral("n")] = 1000;
    const auto notPowerOfTwo = refused(badN);
    QVERIFY(!notPowerOfTwo.ok());
    QCOMPARE(notPowerOfTwo.error().code, ImportError::Malformed);
    QVERIFY2(notPowerOfTwo.error().message.starts_with("aegis: header.slots[1].scrypt cost N"),
             notPowerOfTwo.error().message.c_str());

    QJsonObject shortSalt = passwordSlot("other", 3);
    shortSalt[QStringLiteral("salt")] = QStringLiteral("00");
    const auto salt = refused(shortSalt);
    QVERIFY(!salt.ok());
    QCOMPARE(salt.error().code, ImportError::Malformed);
    QVERIFY2(salt.error().message.starts_with("aegis: header.slots[1].salt is 1 byte,"),
             salt.error().message.c_str());
}

// The key-derivation work of one import is bounded, not that of each slot
// (FORMAT.md section 9): at most 4 password slots and 2^25 of scrypt work
// N*r*p in all, checked over every slot before any key is derived. In each
// row the password "pw" opens the first slot, so deriving would import the
// accounts; or (the reviewer's case) every slot would run scrypt at the most
// a slot may ask, for minutes, to answer WrongPassword. The refusal names
// what was too costly.
void TestImportAegisAndOtp::aegisBudgetPerImport_data()
{
    QTest::addColumn<QJsonArray>("slotList");
    QTest::addColumn<QByteArray>("named");
    const QByteArray count = "aegis: the number of password slots is ";
    QJsonArray sixteen;
    QJsonArray sixteenCostly;
    QJsonArray five;
    for (int i = 0; i < 16; ++i) {
        sixteen.append(passwordSlot("pw", 2 * i));
        sixteenCostly.append(costlySlot(2 * i));
        if (i < 5)
            five.append(passwordSlot("pw", 2 * i));
    }
    QTest::newRow("16 password slots, the first opens")
        << sixteen << count + "16, outside the allowed 1 to 4";
    QTest::newRow("16 password slots, each at the most a slot may ask")
        << sixteenCostly << count + "16, outside the allowed 1 to 4";
    QTest::newRow("5 password slots") << five << count + "5, outside the allowed 1 to 4";
    QTest::newRow("the first opens, the second at the most a slot may ask")
        << QJsonArray{passwordSlot("pw", 1), costlySlot(3)}
        << QByteArray("aegis: the password slots' scrypt work N*r*p, summed up to "
                      "header.slots[1], is 33562624, over the 33554432 (2^25) this build spends "
                      "on one import; no key was derived");
    QJsonObject biometric = costlySlot(5);
    biometric[QStringLiteral("type")] = 2;
    QTest::newRow("two at the most a slot may ask, biometric slots not counted")
        << QJsonArray{biometric, costlySlot(7), biometric, costlySlot(9)}
        << QByteArray("summed up to header.slots[3], is 67108864, over the 33554432");
}

void TestImportAegisAndOtp::aegisBudgetPerImport()
{
    QFETCH(QJsonArray, slotList);
    QFETCH(QByteArray, named);
    const QByteArray vault = sealedAegis(compact(plainDatabase(aegisPlain)), slotList);
    const auto result = importAccounts(Format::Aegis, test::view(vault), asBytes("pw"));
    QVERIFY2(!result.ok(), "imported");
    QVERIFY2(result.error().code == ImportError::Unsupported, result.error().message.c_str());
    QVERIFY2(result.error().message.find(named.toStdString()) != std::string::npos,
             result.error().message.c_str());
}

// What Aegis writes still imports: one password slot at its parameters
// (N = 2^15, r = 8, p = 1), a second for a separate backup password,
// biometric slots beside them (passed over), and up to 4 password slots.
void TestImportAegisAndOtp::aegisExportsOfEveryShapeImport()
{
    const QByteArray database = compact(plainDatabase(aegisPlain));
    QJsonObject biometric = passwordSlot("other", 40);
    biometric[QStringLiteral("type")] = 2;
    const QJsonObject main = passwordSlot("main", 42, 32768);
    const QJsonObject backup = passwordSlot("backup", 44, 32768);
    const QByteArray twoPasswords = sealedAegis(database, QJsonArray{biometric, main, backup});
    const QByteArray four = sealedAegis(
        database, QJsonArray{passwordSlot("a", 46, 32768), biometric, passwordSlot("b", 48, 32768),
                             biometric, passwordSlot("c", 50, 32768), main});
    for (const auto& [vault, password] :
         {std::pair{twoPasswords, "main"}, std::pair{twoPasswords, "backup"},
          std::pair{four, "main"}}) {
        const auto result = importAccounts(Format::Aegis, test::view(vault), asBytes(password));
        QVERIFY2(result.ok(), result ? "" : result.error().message.c_str());
        QCOMPARE(result->accounts.size(), std::size_t{7});
    }
}

// Version 2 names each entry's group; version 3 lists groups by uuid. Both
// become the same tags (Aegis's VaultTest.testGroupConversion: group1 on
// Deno and Airbnb, group2 on Issuu, the other four ungrouped).
void TestImportAegisAndOtp::aegisGroupsAsTags()
{
    const auto v2 = importAccounts(Format::Aegis, test::view(readFile(aegisGrouped)));
    QVERIFY2(v2.ok(), v2 ? "" : v2.error().message.c_str());

    QJsonObject db = plainDatabase(aegisGrouped);
    const QString uuid1 = QStringLiteral("6b4c9a4e-0000-4000-8000-000000000001");
    const QString uuid2 = QStringLiteral("6b4c9a4e-0000-4000-8000-000000000002");
    QJsonArray entries;
    for (const auto value : db[QStringLiteral("entries")].toArray()) {
        QJsonObject entry = value.toObject();
        const QString group = entry.take(QStringLiteral("group")).toString();
        QJsonArray groups;
        if (group == QLatin1String("group1"))
            groups = {uuid1};
        else if (group == QLatin1String("group2"))
            groups = {uuid2, QStringLiteral("a group no longer listed")};
        entry[QStringLiteral("groups")] = groups;
        entries.append(entry);
    }
    db[QStringLiteral("version")] = 3;
    db[QStringLiteral("entries")] = entries;
    db[QStringLiteral("groups")] = QJsonArray{QJsonObject{{"uuid", uuid1}, {"name", "group1"}},
                                              QJsonObject{{"uuid", uuid2}, {"name", "group2"}}};
    const QByteArray v3Plain =
        QJsonDocument(
            QJsonObject{{"version", 1},
                        {"header", QJsonObject{{"slots", QJsonValue()}, {"params", QJsonValue()}}},
                        {"db", db}})
            .toJson();
    const auto v3 = importAccounts(Format::Aegis, test::view(v3Plain));
    QVERIFY2(v3.ok(), v3 ? "" : v3.error().message.c_str());
    const auto v3Sealed = importAccounts(
        Format::Aegis, test::view(sealedAegis(compact(db), QJsonArray{passwordSlot("pw", 1)})),
        asBytes("pw"));
    QVERIFY2(v3Sealed.ok(), v3Sealed ? "" : v3Sealed.error().message.c_str());

    using Tags = std::vector<std::string>;
    for (const Imported* imported : {&*v2, &*v3, &*v3Sealed}) {
        QCOMPARE(imported->accounts.size(), std::size_t{7});
        QCOMPARE(tagsOf(*imported, "Deno"), Tags{"group1"});
        QCOMPARE(tagsOf(*imported, "Airbnb"), Tags{"group1"});
        QCOMPARE(tagsOf(*imported, "Issuu"), Tags{"group2"});
        for (const char* issuer : {"SPDX", "Air Canada", "WWE", "Boeing"})
            QVERIFY(tagsOf(*imported, issuer).empty());
    }
    // Version 1 has no groups: a stray "group" field is not read.
    const auto v1 = importAccounts(
        Format::Aegis, test::view(edited(aegisGrouped, "\"version\": 2", "\"version\": 1")));
    QVERIFY2(v1.ok(), v1 ? "" : v1.error().message.c_str());
    for (const auto& account : v1->accounts)
        QVERIFY(account.tags.empty());
}

// Every password slot is tried; biometric and raw-key slots are passed over.
void TestImportAegisAndOtp::aegisSlots()
{
    const QByteArray database = compact(plainDatabase(aegisPlain));
    QJsonObject biometric = passwordSlot("other", 2);
    biometric[QStringLiteral("type")] = 2;
    QJsonObject raw = passwordSlot("other", 3);
    raw[QStringLiteral("type")] = 0;
    const QByteArray vault = sealedAegis(
        database, QJsonArray{biometric, raw, passwordSlot("first", 4), passwordSlot("second", 5)});
    for (const char* password : {"first", "second"}) {
        const auto result = importAccounts(Format::Aegis, test::view(vault), asBytes(password));
        QVERIFY2(result.ok(), result ? "" : result.error().message.c_str());
        QCOMPARE(result->accounts.size(), std::size_t{7});
        QCOMPARE(result->format, Format::Aegis);
    }
    for (const char* password : {"other", "firs", ""}) {
        const auto result = importAccounts(Format::Aegis, test::view(vault), asBytes(password));
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, ImportError::WrongPassword);
    }
    // The real file, for the record: its one slot opens with "test".
    const auto real =
        importAccounts(Format::Aegis, test::view(readFile(aegisEncrypted)), asBytes("test"));
    QVERIFY2(real.ok(), real ? "" : real.error().message.c_str());
    QCOMPARE(real->accounts.size(), std::size_t{7});
    QCOMPARE(real->accounts[0].issuer, std::string("Deno"));
}

// motp and yandex need a PIN and codes Watchword does not compute: the
// import fails, naming the entry and the type, instead of dropping it.
void TestImportAegisAndOtp::aegisUnsupportedEntryTypes()
{
    for (const char* type : {"motp", "yandex"}) {
        const QByteArray data =
            edited(aegisPlain, "\"type\": \"hotp\"", QByteArray("\"type\": \"") + type + "\"");
        const auto result = importAccounts(Format::Aegis, test::view(data));
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, ImportError::InvalidEntry);
        const std::string& message = result.error().message;
        QVERIFY2(message.find("entry 4 (Issuu: James)") != std::string::npos, message.c_str());
        QVERIFY2(message.find(std::string("\"") + type + "\"") != std::string::npos,
                 message.c_str());
    }
}

// Both encrypted layouts, made here, import what the plain file holds; the
// old one splits its "<issuer> - <issuer>:<name>" labels.
void TestImportAegisAndOtp::andOtpLayouts()
{
    const QByteArray plainData = readFile(andOtpPlain);
    const auto plain = importAccounts(Format::AndOtp, test::view(plainData));
    QVERIFY2(plain.ok(), plain ? "" : plain.error().message.c_str());
    QCOMPARE(plain->accounts.size(), std::size_t{7});

    const auto current =
        importAccounts(Format::AndOtp, test::view(sealedAndOtp(plainData, "pw", 1)), asBytes("pw"));
    QVERIFY2(current.ok(), current ? "" : current.error().message.c_str());
    const auto old =
        importAccounts(Format::AndOtp, test::view(sealedOldAndOtp(plainData, "pw")), asBytes("pw"));
    QVERIFY2(old.ok(), old ? "" : old.error().message.c_str());
    for (const Imported* imported : {&*current, &*old}) {
        QCOMPARE(imported->accounts.size(), plain->accounts.size());
        for (std::size_t i = 0; i < plain->accounts.size(); ++i) {
            QCOMPARE(imported->accounts[i].issuer, plain->accounts[i].issuer);
            QCOMPARE(imported->accounts[i].accountName, plain->accounts[i].accountName);
            QVERIFY(imported->accounts[i].parameters == plain->accounts[i].parameters);
            QCOMPARE(test::toHex(imported->accounts[i].secret),
                     test::toHex(plain->accounts[i].secret));
        }
    }

    const QByteArray oldLabels(
        "[{\"secret\":\"GEZDGNBV\",\"label\":\"Deno - Deno:Mason\",\"type\":\"TOTP\"},"
        "{\"secret\":\"GEZDGNBV\",\"label\":\"A - B:C\",\"type\":\"TOTP\"},"
        "{\"secret\":\"GEZDGNBV\",\"label\":\"no dash\",\"type\":\"TOTP\"},"
        "{\"secret\":\"GEZDGNBV\",\"label\":\"X - \",\"type\":\"TOTP\"}]");
    const auto split =
        importAccounts(Format::AndOtp, test::view(sealedOldAndOtp(oldLabels, "pw")), asBytes("pw"));
    QVERIFY2(split.ok(), split ? "" : split.error().message.c_str());
    const std::pair<std::string, std::string> expected[] = {
        {"Deno", "Mason"}, {"A", "B:C"}, {"", "no dash"}, {"X", ""}};
    QCOMPARE(split->accounts.size(), std::size(expected));
    for (std::size_t i = 0; i < std::size(expected); ++i) {
        QCOMPARE(split->accounts[i].issuer, expected[i].first);
        QCOMPARE(split->accounts[i].accountName, expected[i].second);
    }
    // An entry with an "issuer" field keeps its label whole.
    const auto kept = importAccounts(
        Format::AndOtp,
        asBytes("[{\"secret\":\"GEZDGNBV\",\"issuer\":\"\",\"label\":\"Deno - Deno:Mason\"}]"));
    QVERIFY2(kept.ok(), kept ? "" : kept.error().message.c_str());
    QCOMPARE(kept->accounts[0].issuer, std::string());
    QCOMPARE(kept->accounts[0].accountName, std::string("Deno - Deno:Mason"));
}

void TestImportAegisAndOtp::andOtpTags()
{
    const QByteArray data =
        edited(andOtpPlain, "\"tags\":[]", "\"tags\":[\"work\", \"\", \"2FA\", \"work\"]");
    const auto result = importAccounts(Format::AndOtp, test::view(data));
    QVERIFY2(result.ok(), result ? "" : result.error().message.c_str());
    QCOMPARE(result->accounts[0].tags, (std::vector<std::string>{"work", "2FA"}));
    QVERIFY(result->accounts[1].tags.empty());
}

void TestImportAegisAndOtp::encryptedIsTold()
{
    QVERIFY(!isEncrypted(Format::Aegis, test::view(readFile(aegisPlain))));
    QVERIFY(!isEncrypted(Format::Aegis, test::view(readFile(aegisGrouped))));
    QVERIFY(isEncrypted(Format::Aegis, test::view(readFile(aegisEncrypted))));
    QVERIFY(!isEncrypted(Format::Aegis, test::view(readFile(andOtpEncrypted))));
    QVERIFY(!isEncrypted(Format::Aegis, {}));
    QVERIFY(!isEncrypted(Format::AndOtp, test::view(readFile(andOtpPlain))));
    QVERIFY(!isEncrypted(Format::AndOtp, asBytes("  \n[]")));
    QVERIFY(isEncrypted(Format::AndOtp, test::view(readFile(andOtpEncrypted))));
    QVERIFY(isEncrypted(Format::AndOtp, test::view(readFile(andOtpOld))));
    QVERIFY(!isEncrypted(Format::AndOtp, {}));
}

QTEST_APPLESS_MAIN(TestImportAegisAndOtp)
#include "TestImportAegisAndOtp.moc"
