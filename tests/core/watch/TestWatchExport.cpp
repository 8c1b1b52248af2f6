// The watch export (watch/WatchExport.h) and its opener (watch/WatchOpener.h):
// the worked example of tests/data/watch (computed independently in Python),
// round trips with vault accounts of every kind, every single-byte flip of
// the sealed parts, truncation, versions, the PIN and round-count rules, and
// a count of the native primitives one open calls.
#include "common/TestSupport.h"
#include "vault/Records.h"
#include "watch/WatchExport.h"
#include "watch/WatchOpener.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace watchword;
using namespace watchword::watch;

Q_DECLARE_METATYPE(watchword::watch::WatchOpenError)

namespace {

QJsonObject vector()
{
    static const QJsonObject document = test::loadJson(QStringLiteral("watch/vectors.json"));
    return document;
}

QByteArray vectorHex(const char* name)
{
    return QByteArray::fromHex(vector()[QLatin1String(name)].toString().toLatin1());
}

std::string vectorPayload()
{
    return vector()[QStringLiteral("payload")].toString().toStdString();
}

WatchAccount account(otp::OtpKind kind, crypto::HashAlgorithm algorithm, int digits,
                     std::uint64_t periodOrCounter, std::string issuer, std::string name,
                     ByteView secret)
{
    WatchAccount a;
    a.issuer = std::move(issuer);
    a.accountName = std::move(name);
    a.secret = SecureBuffer(secret);
    a.parameters.kind = kind;
    a.parameters.algorithm = algorithm;
    a.parameters.digits = digits;
    if (kind == otp::OtpKind::Hotp)
        a.parameters.counter = periodOrCounter;
    else
        a.parameters.period = static_cast<std::uint32_t>(periodOrCounter);
    return a;
}

Bytes range(std::uint8_t first, std::uint8_t end)
{
    Bytes out;
    for (unsigned b = first; b < end; ++b)
        out.push_back(static_cast<std::uint8_t>(b));
    return out;
}

// The four accounts of the worked example, as generate_vectors.py lists them.
std::vector<WatchAccount> vectorAccounts()
{
    std::vector<WatchAccount> out;
    out.push_back(account(otp::OtpKind::Totp, crypto::HashAlgorithm::Sha1, 6, 30, "Example",
                          "alice@example.com", asBytes("12345678901234567890")));
    out.push_back(
        account(otp::OtpKind::Totp, crypto::HashAlgorithm::Sha512, 8, 60, "B\xc3\xa4nk", "bob",
                asBytes("1234567890123456789012345678901234567890123456789012345678901234")));
    out.push_back(account(otp::OtpKind::Hotp, crypto::HashAlgorithm::Sha256, 6, 42, "", "hotp-user",
                          range(1, 33)));
    out.push_back(account(otp::OtpKind::Steam, crypto::HashAlgorithm::Sha1, 5, 30, "Steam", "gamer",
                          range(0xa0, 0xb4)));
    return out;
}

ExportHeader vectorHeader()
{
    return {"fr255", 1767225600, 2000};
}

void compareAccounts(const std::vector<WatchAccount>& actual,
                     const std::vector<WatchAccount>& expected)
{
    QCOMPARE(actual.size(), expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i) {
        QCOMPARE(actual[i].issuer, expected[i].issuer);
        QCOMPARE(actual[i].accountName, expected[i].accountName);
        QVERIFY(actual[i].secret.view() == expected[i].secret.view());
        QVERIFY(actual[i].parameters == expected[i].parameters);
    }
}

// Counts the calls per primitive, passing them on to OpenSSL.
class CountingPrimitives final : public NativePrimitives
{
public:
    std::array<std::uint8_t, 20> sha1(ByteView data) override
    {
        ++sha1Calls;
        return m_inner.sha1(data);
    }
    std::array<std::uint8_t, 32> sha256(ByteView data) override
    {
        ++sha256Calls;
        return m_inner.sha256(data);
    }
    std::array<std::uint8_t, 32> hmacSha256(ByteView key, ByteView message) override
    {
        ++hmacCalls;
        return m_inner.hmacSha256(key, message);
    }
    bool aes256CbcDecrypt(ByteView key, ByteView iv, ByteView ciphertext,
                          std::span<std::uint8_t> out) override
    {
        ++aesCalls;
        return m_inner.aes256CbcDecrypt(key, iv, ciphertext, out);
    }

    int sha1Calls = 0;
    int sha256Calls = 0;
    int hmacCalls = 0;
    int aesCalls = 0;

private:
    OpenSslPrimitives m_inner;
};

// The payload as a JSON object, edited by a test and written back.
QJsonObject payloadObject()
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(vectorPayload())).object();
}

std::string text(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact).toStdString();
}

// text with its one "from" replaced by "to"; a "from" it does not hold stops
// the run (the case would test nothing).
std::string replaced(std::string text, std::string_view from, std::string_view to)
{
    const auto at = text.find(from);
    if (at == std::string::npos || text.find(from, at + 1) != std::string::npos)
        qFatal("the payload does not hold %s exactly once", std::string(from).c_str());
    return text.replace(at, from.size(), to);
}

WatchOpenError openError(const std::string& payload, std::string_view pin = "482916")
{
    OpenSslPrimitives primitives;
    auto opened = openExport(payload, pin, primitives);
    if (opened)
        qFatal("the altered payload opened");
    return opened.error().code;
}

} // namespace

class TestWatchExport : public QObject
{
    Q_OBJECT

private slots:
    void workedExampleIsReproducedByteForByte()
    {
        const auto accounts = vectorAccounts();
        const auto expected = vector()[QStringLiteral("accounts")].toArray();
        QCOMPARE(expected.size(), qsizetype(accounts.size()));
        for (std::size_t i = 0; i < accounts.size(); ++i) {
            auto encoded = encodeAccount(accounts[i]);
            QVERIFY(encoded.ok());
            QCOMPARE(test::toHex(*encoded),
                     expected[qsizetype(i)].toObject()[QStringLiteral("plaintext_hex")].toString());
        }
        const auto salt = vectorHex("salt_hex");
        QCOMPARE(test::toHex(slotAssociatedData(vectorHeader(), test::view(salt), 4)),
                 vector()[QStringLiteral("slot_ad_hex")].toString());

        test::ScriptedRandom random(vectorHex("random_hex"));
        auto payload = writeExport(vectorHeader(), "482916", accounts, random);
        QVERIFY2(payload.ok(), payload.ok() ? "" : payload.error().message.c_str());
        QCOMPARE(QString::fromStdString(*payload), vector()[QStringLiteral("payload")].toString());
        QCOMPARE(random.remaining(), std::size_t{0});
        QCOMPARE(qsizetype(payload->size()), vector()[QStringLiteral("payload_size")].toInt());
    }

    void workedExampleOpensWithNativePrimitives()
    {
        OpenSslPrimitives primitives;
        auto opened = openExport(vectorPayload(), "482916", primitives);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        QCOMPARE(opened->header.deviceId, std::string("fr255"));
        QCOMPARE(opened->header.created, std::int64_t{1767225600});
        QCOMPARE(opened->header.iterations, std::uint32_t{2000});
        compareAccounts(opened->accounts, vectorAccounts());
    }

    void inspectReadsTheHeaderWithoutThePin()
    {
        auto summary = inspectExport(vectorPayload());
        QVERIFY2(summary.ok(), summary.ok() ? "" : summary.error().message.c_str());
        QCOMPARE(summary->header.deviceId, std::string("fr255"));
        QCOMPARE(summary->header.created, std::int64_t{1767225600});
        QCOMPARE(summary->header.iterations, std::uint32_t{2000});
        QCOMPARE(summary->accounts, vectorAccounts().size());
        // The same checks of form as opening: a cut payload is malformed.
        const auto cut = inspectExport(vectorPayload().substr(0, 40));
        QVERIFY(!cut.ok());
        QCOMPARE(cut.error().code, WatchOpenError::Malformed);
    }

    void openCallsOnlyWatchPrimitives()
    {
        CountingPrimitives primitives;
        auto opened = openExport(vectorPayload(), "482916", primitives);
        QVERIFY(opened.ok());
        // PBKDF2: one HMAC per round; HKDF: one extract and two expands per
        // key (slot, then records); one tag per envelope (slot + 4 accounts).
        QCOMPARE(primitives.hmacCalls, 2000 + 3 + 1 + 3 + 4);
        QCOMPARE(primitives.aesCalls, 1 + 4);
        QCOMPARE(primitives.sha1Calls, 0);
        QCOMPARE(primitives.sha256Calls, 0);
    }

    void openerDependsOnItsPrimitives()
    {
        // A watch whose HMAC differs cannot open: the opener has no other path.
        class WrongHmac final : public NativePrimitives
        {
        public:
            std::array<std::uint8_t, 20> sha1(ByteView data) override { return m.sha1(data); }
            std::array<std::uint8_t, 32> sha256(ByteView data) override { return m.sha256(data); }
            std::array<std::uint8_t, 32> hmacSha256(ByteView key, ByteView message) override
            {
                auto out = m.hmacSha256(key, message);
                out[0] ^= 1;
                return out;
            }
            bool aes256CbcDecrypt(ByteView key, ByteView iv, ByteView c,
                                  std::span<std::uint8_t> out) override
            {
                return m.aes256CbcDecrypt(key, iv, c, out);
            }
            OpenSslPrimitives m;
        } wrong;
        auto opened = openExport(vectorPayload(), "482916", wrong);
        QVERIFY(!opened.ok());
        QCOMPARE(opened.error().code, WatchOpenError::WrongPin);
    }

    void roundTripWithVaultAccounts()
    {
        std::vector<vault::OtpAccount> vaultAccounts;
        const auto add = [&](otp::OtpParameters parameters, const char* issuer, const char* name,
                             std::size_t secretSize) {
            vault::OtpAccount a;
            a.issuer = issuer;
            a.accountName = name;
            a.secret = SecureBuffer(secretSize);
            for (std::size_t i = 0; i < secretSize; ++i)
                a.secret[i] = static_cast<std::uint8_t>(i * 7 + secretSize);
            a.parameters = parameters;
            a.tags = {"work", "private-tag-text"};
            a.note = "a note that must stay on the desktop";
            a.created = 1700000000;
            vaultAccounts.push_back(std::move(a));
        };
        add({otp::OtpKind::Totp, crypto::HashAlgorithm::Sha1, 6, 30, 0}, "GitHub", "alice", 20);
        add({otp::OtpKind::Totp, crypto::HashAlgorithm::Sha256, 8, 30, 0}, "AWS", "root", 32);
        add({otp::OtpKind::Totp, crypto::HashAlgorithm::Sha512, 8, 60, 0}, "Bank", "bob", 64);
        add({otp::OtpKind::Hotp, crypto::HashAlgorithm::Sha1, 6, 30, 123456789012ULL}, "VPN",
            "carol", 20);
        add(otp::OtpParameters::steam(), "Steam", "gamer", 20);

        std::vector<WatchAccount> accounts;
        for (const auto& a : vaultAccounts) {
            accounts.push_back(watchAccountFrom(a));
            // Only the watch's fields: 11 fixed bytes and three texts.
            auto encoded = encodeAccount(accounts.back());
            QVERIFY(encoded.ok());
            QCOMPARE(encoded->size(),
                     11 + 6 + a.issuer.size() + a.accountName.size() + a.secret.size());
            QVERIFY(encoded->view().find("private-tag-text") == std::string_view::npos);
            QVERIFY(encoded->view().find("stay on the desktop") == std::string_view::npos);
        }

        test::SeededRandom random(test::testSeed());
        auto payload = writeExport({"fenix7", 1767225600, 3000}, "000000000000", accounts, random);
        QVERIFY(payload.ok());
        OpenSslPrimitives primitives;
        auto opened = openExport(*payload, "000000000000", primitives);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        QCOMPARE(opened->header.deviceId, std::string("fenix7"));
        QCOMPARE(opened->header.iterations, std::uint32_t{3000});
        compareAccounts(opened->accounts, accounts);
        // The secrets are sealed: none appears in the payload, in any form.
        for (const auto& a : accounts)
            QVERIFY(payload->find(test::toHex(a.secret.span()).toStdString()) == std::string::npos);

        // A second export of the same accounts shares no salt, key or IV.
        auto again = writeExport({"fenix7", 1767225600, 3000}, "000000000000", accounts, random);
        QVERIFY(again.ok());
        QVERIFY(*again != *payload);
    }

    void wrongPinIsRefused()
    {
        QCOMPARE(openError(vectorPayload(), "482917"), WatchOpenError::WrongPin);
        QCOMPARE(openError(vectorPayload(), "4829160"), WatchOpenError::WrongPin);
        QCOMPARE(openError(vectorPayload(), "123"), WatchOpenError::BadPin);
        QCOMPARE(openError(vectorPayload(), "48291a"), WatchOpenError::BadPin);
    }

    void everySealedByteFlipIsRefused()
    {
        // The slot's wrapped key: any flip fails the slot tag.
        const auto original = payloadObject();
        const auto slot = original[QStringLiteral("slot")].toObject();
        const auto key = QByteArray::fromHex(slot[QStringLiteral("key")].toString().toLatin1());
        QCOMPARE(key.size(), 96);
        for (qsizetype i = 0; i < key.size(); ++i) {
            auto flipped = key;
            flipped[i] = char(flipped[i] ^ 0x01);
            auto editedSlot = slot;
            editedSlot[QStringLiteral("key")] = QString::fromLatin1(flipped.toHex());
            auto edited = original;
            edited[QStringLiteral("slot")] = editedSlot;
            QCOMPARE(openError(text(edited)), WatchOpenError::WrongPin);
        }
        // Each account envelope: any flip fails that account's tag.
        const auto accounts = original[QStringLiteral("accounts")].toArray();
        for (qsizetype a = 0; a < accounts.size(); ++a) {
            const auto sealed = QByteArray::fromHex(accounts[a].toString().toLatin1());
            for (qsizetype i = 0; i < sealed.size(); ++i) {
                auto flipped = sealed;
                flipped[i] = char(flipped[i] ^ 0x80);
                auto editedAccounts = accounts;
                editedAccounts[a] = QString::fromLatin1(flipped.toHex());
                auto edited = original;
                edited[QStringLiteral("accounts")] = editedAccounts;
                QCOMPARE(openError(text(edited)), WatchOpenError::RecordTampered);
            }
        }
    }

    void headerAndOrderAreBound()
    {
        const auto original = payloadObject();
        // The slot's tag covers the header, the salt and the account count.
        auto edited = original;
        edited[QStringLiteral("device")] = QStringLiteral("fr265");
        QCOMPARE(openError(text(edited)), WatchOpenError::WrongPin);
        edited = original;
        edited[QStringLiteral("created")] = 1767225601;
        QCOMPARE(openError(text(edited)), WatchOpenError::WrongPin);
        auto slot = original[QStringLiteral("slot")].toObject();
        slot[QStringLiteral("iterations")] = 2001;
        edited = original;
        edited[QStringLiteral("slot")] = slot;
        QCOMPARE(openError(text(edited)), WatchOpenError::WrongPin);
        slot = original[QStringLiteral("slot")].toObject();
        auto salt = slot[QStringLiteral("salt")].toString();
        salt[0] = salt[0] == QLatin1Char('3') ? QLatin1Char('4') : QLatin1Char('3');
        slot[QStringLiteral("salt")] = salt;
        edited = original;
        edited[QStringLiteral("slot")] = slot;
        QCOMPARE(openError(text(edited)), WatchOpenError::WrongPin);
        // Dropping an account changes the count the slot covers.
        auto accounts = original[QStringLiteral("accounts")].toArray();
        accounts.removeLast();
        edited = original;
        edited[QStringLiteral("accounts")] = accounts;
        QCOMPARE(openError(text(edited)), WatchOpenError::WrongPin);
        // Swapping two accounts breaks their position in the associated data.
        accounts = original[QStringLiteral("accounts")].toArray();
        const auto first = accounts[0];
        accounts[0] = accounts[1];
        accounts[1] = first;
        edited = original;
        edited[QStringLiteral("accounts")] = accounts;
        QCOMPARE(openError(text(edited)), WatchOpenError::RecordTampered);
    }

    void truncatedPayloadIsMalformed()
    {
        const auto payload = vectorPayload();
        for (std::size_t length = 0; length < payload.size(); ++length)
            QCOMPARE(openError(payload.substr(0, length)), WatchOpenError::Malformed);
        // A sealed field cut short (an odd number of hex digits, or a partial block).
        auto edited = payloadObject();
        auto accounts = edited[QStringLiteral("accounts")].toArray();
        accounts[3] = accounts[3].toString().chopped(1);
        edited[QStringLiteral("accounts")] = accounts;
        QCOMPARE(openError(text(edited)), WatchOpenError::Malformed);
        accounts[3] = accounts[3].toString().chopped(3);
        edited[QStringLiteral("accounts")] = accounts;
        QCOMPARE(openError(text(edited)), WatchOpenError::Malformed);
        auto slot = edited[QStringLiteral("slot")].toObject();
        slot[QStringLiteral("key")] = slot[QStringLiteral("key")].toString().chopped(32);
        edited = payloadObject();
        edited[QStringLiteral("slot")] = slot;
        QCOMPARE(openError(text(edited)), WatchOpenError::Malformed);
    }

    void otherVersionsAreNamed()
    {
        auto edited = payloadObject();
        edited[QStringLiteral("version")] = 2;
        QCOMPARE(openError(text(edited)), WatchOpenError::UnsupportedVersion);
        edited[QStringLiteral("version")] = QStringLiteral("1");
        QCOMPARE(openError(text(edited)), WatchOpenError::UnsupportedVersion);
        edited = payloadObject();
        edited[QStringLiteral("format")] = QStringLiteral("watchword-vault");
        QCOMPARE(openError(text(edited)), WatchOpenError::UnsupportedVersion);
        // A KDF this version does not know is named as such, not as damage.
        auto slot = payloadObject()[QStringLiteral("slot")].toObject();
        slot[QStringLiteral("kdf")] = QStringLiteral("argon2id");
        edited = payloadObject();
        edited[QStringLiteral("slot")] = slot;
        QCOMPARE(openError(text(edited)), WatchOpenError::UnsupportedVersion);
        const auto summary = inspectExport(text(edited));
        QVERIFY(!summary.ok());
        QCOMPARE(QString::fromStdString(summary.error().message),
                 QStringLiteral("the slot's KDF \"argon2id\" is not supported (only "
                                "\"pbkdf2-hmac-sha256\")"));
        // Any version but the integer 1, written as such.
        QCOMPARE(openError(replaced(vectorPayload(), "\"version\":1,", "\"version\":1.0,")),
                 WatchOpenError::UnsupportedVersion);
    }

    // Integers are digits only (section 8.5): 2000.0 and 2e3 are not counts,
    // and a kdf that is not a string is damage.
    void integersAreDigitsOnly()
    {
        const auto payload = vectorPayload();
        QCOMPARE(openError(replaced(payload, "\"iterations\":2000,", "\"iterations\":2000.0,")),
                 WatchOpenError::Malformed);
        QCOMPARE(openError(replaced(payload, "\"iterations\":2000,", "\"iterations\":2e3,")),
                 WatchOpenError::Malformed);
        QCOMPARE(
            openError(replaced(payload, "\"created\":1767225600,", "\"created\":1767225600.0,")),
            WatchOpenError::Malformed);
        QCOMPARE(openError(replaced(payload, "\"kdf\":\"pbkdf2-hmac-sha256\"", "\"kdf\":1")),
                 WatchOpenError::Malformed);
    }

    void parsingIsStrict()
    {
        const auto payload = vectorPayload();
        QCOMPARE(openError(payload + "x"), WatchOpenError::Malformed);
        QCOMPARE(openError(payload + "{}"), WatchOpenError::Malformed);
        QCOMPARE(openError("/* c */" + payload), WatchOpenError::Malformed);
        auto duplicate = payload;
        duplicate.insert(1, "\"device\":\"fr55\",");
        QCOMPARE(openError(duplicate), WatchOpenError::Malformed);
        auto edited = payloadObject();
        edited[QStringLiteral("notes")] = QStringLiteral("unknown keys are refused");
        QCOMPARE(openError(text(edited)), WatchOpenError::Malformed);
        edited = payloadObject();
        edited[QStringLiteral("created")] = QStringLiteral("1767225600");
        QCOMPARE(openError(text(edited)), WatchOpenError::Malformed);
        edited = payloadObject();
        edited[QStringLiteral("accounts")] = QJsonArray();
        QCOMPARE(openError(text(edited)), WatchOpenError::Malformed);
        auto slot = edited[QStringLiteral("slot")].toObject();
        slot[QStringLiteral("iterations")] = 1999;
        edited = payloadObject();
        edited[QStringLiteral("slot")] = slot;
        QCOMPARE(openError(text(edited)), WatchOpenError::BadIterations);
    }

    void roundCountsOutsideTheBoundsAreRefused()
    {
        const auto accounts = vectorAccounts();
        test::SeededRandom random(test::testSeed());
        auto low = writeExport({"fr55", 0, minimumIterations - 1}, "1234", accounts, random);
        QVERIFY(!low.ok());
        QCOMPARE(low.error().code, WatchExportError::IterationsTooLow);
        auto zero = writeExport({"fr55", 0, 0}, "1234", accounts, random);
        QVERIFY(!zero.ok());
        QCOMPARE(zero.error().code, WatchExportError::IterationsTooLow);
        auto high = writeExport({"fr55", 0, maximumIterations + 1}, "1234", accounts, random);
        QVERIFY(!high.ok());
        QCOMPARE(high.error().code, WatchExportError::IterationsTooHigh);
        QVERIFY(writeExport({"fr55", 0, minimumIterations}, "1234", accounts, random).ok());
    }

    void pinAndInputRules()
    {
        QVERIFY(checkPin("1234").ok());
        QVERIFY(checkPin("123456789012").ok());
        QVERIFY(!checkPin("123").ok());
        QVERIFY(!checkPin("1234567890123").ok());
        QVERIFY(!checkPin("12 4").ok());
        QVERIFY(!checkPin("١٢٣٤").ok()); // Arabic-Indic digits: not on the watch's keypad
        const auto accounts = vectorAccounts();
        test::SeededRandom random(test::testSeed());
        auto badPin = writeExport(vectorHeader(), "12a4", accounts, random);
        QVERIFY(!badPin.ok());
        QCOMPARE(badPin.error().code, WatchExportError::BadPin);
        auto badDevice = writeExport({"FR 255", 0, 2000}, "1234", accounts, random);
        QVERIFY(!badDevice.ok());
        QCOMPARE(badDevice.error().code, WatchExportError::BadDeviceId);
        auto none = writeExport(vectorHeader(), "1234", {}, random);
        QVERIFY(!none.ok());
        QCOMPARE(none.error().code, WatchExportError::NoAccounts);
        std::vector<WatchAccount> invalid;
        invalid.push_back(account(otp::OtpKind::Steam, crypto::HashAlgorithm::Sha256, 5, 30,
                                  "Steam", "x", range(1, 21)));
        auto refused = writeExport(vectorHeader(), "1234", invalid, random);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, WatchExportError::InvalidAccount);
    }
};

QTEST_APPLESS_MAIN(TestWatchExport)
#include "TestWatchExport.moc"
