// HMAC-SHA1/256/512 with prepared keys against RFC 2202, RFC 4231 and the
// Wycheproof MAC files, plus OpenSSL's one-shot HMAC() on random inputs.
#include "common/TestSupport.h"
#include "crypto/Hmac.h"

#include <QtTest>
#include <openssl/evp.h>
#include <openssl/hmac.h>

using namespace watchword;
using namespace watchword::crypto;

Q_DECLARE_METATYPE(watchword::crypto::HashAlgorithm)

class TestHmac : public QObject
{
    Q_OBJECT

private slots:
    void rfc2202_data();
    void rfc2202();
    void rfc4231_data();
    void rfc4231();
    void wycheproof_data();
    void wycheproof();
    void matchesOpenSslOnRandomInputs_data();
    void matchesOpenSslOnRandomInputs();
    void verifyRejectsWrongLengthAndFlippedBits();
    void moveKeepsTheKey();
};

void TestHmac::rfc2202_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("mac");
    const auto root = test::loadJson(QStringLiteral("rfc/rfc2202_hmac_sha1.json"));
    int rows = 0;
    for (const auto v : root.value(QStringLiteral("vectors")).toArray()) {
        const auto o = v.toObject();
        const QByteArray key =
            QByteArray::fromHex(o[QStringLiteral("key_hex")].toString().toLatin1());
        const QByteArray data =
            QByteArray::fromHex(o[QStringLiteral("data_hex")].toString().toLatin1());
        QTest::addRow("case %d", o[QStringLiteral("test_case")].toInt())
            << key << data << o[QStringLiteral("mac_hex")].toString();
        ++rows;
    }
    QCOMPARE(rows, 7);
}

void TestHmac::rfc2202()
{
    QFETCH(QByteArray, key);
    QFETCH(QByteArray, data);
    QFETCH(QString, mac);
    const HmacKey prepared(HashAlgorithm::Sha1, test::view(key));
    QCOMPARE(test::toHex(prepared.compute(test::view(data))), mac);
}

void TestHmac::rfc4231_data()
{
    QTest::addColumn<HashAlgorithm>("algorithm");
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("mac");
    QTest::addColumn<int>("truncatedBits");
    const auto root = test::loadJson(QStringLiteral("rfc/rfc4231_hmac_sha2.json"));
    int rows = 0;
    for (const auto v : root.value(QStringLiteral("vectors")).toArray()) {
        const auto o = v.toObject();
        const QByteArray key =
            QByteArray::fromHex(o[QStringLiteral("key_hex")].toString().toLatin1());
        const QByteArray data =
            QByteArray::fromHex(o[QStringLiteral("data_hex")].toString().toLatin1());
        const int bits = o[QStringLiteral("truncated_to_bits")].toInt(0);
        const int tc = o[QStringLiteral("test_case")].toInt();
        QTest::addRow("case %d sha256", tc)
            << HashAlgorithm::Sha256 << key << data
            << o[QStringLiteral("hmac_sha256_hex")].toString() << bits;
        QTest::addRow("case %d sha512", tc)
            << HashAlgorithm::Sha512 << key << data
            << o[QStringLiteral("hmac_sha512_hex")].toString() << bits;
        rows += 2;
    }
    QCOMPARE(rows, 14);
}

void TestHmac::rfc4231()
{
    QFETCH(HashAlgorithm, algorithm);
    QFETCH(QByteArray, key);
    QFETCH(QByteArray, data);
    QFETCH(QString, mac);
    QFETCH(int, truncatedBits);
    const HmacKey prepared(algorithm, test::view(key));
    QString computed = test::toHex(prepared.compute(test::view(data)));
    if (truncatedBits > 0)
        computed.truncate(truncatedBits / 4);
    QCOMPARE(computed, mac);
}

void TestHmac::wycheproof_data()
{
    QTest::addColumn<HashAlgorithm>("algorithm");
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QByteArray>("tag");
    QTest::addColumn<bool>("valid");
    const std::pair<const char*, HashAlgorithm> files[] = {
        {"hmac_sha1_test.json", HashAlgorithm::Sha1},
        {"hmac_sha256_test.json", HashAlgorithm::Sha256},
        {"hmac_sha512_test.json", HashAlgorithm::Sha512},
    };
    for (const auto& [file, algorithm] : files) {
        for (const auto& c : test::wycheproofCases(QString::fromLatin1(file))) {
            // MAC tests have no "acceptable" results: each is exactly valid or invalid.
            QVERIFY(c.result == QLatin1String("valid") || c.result == QLatin1String("invalid"));
            auto field = [&](const char* name) {
                return QByteArray::fromHex(c.test[QLatin1String(name)].toString().toLatin1());
            };
            QTest::addRow("%s tc%d", file, c.tcId)
                << algorithm << field("key") << field("msg") << field("tag")
                << (c.result == QLatin1String("valid"));
        }
    }
}

void TestHmac::wycheproof()
{
    QFETCH(HashAlgorithm, algorithm);
    QFETCH(QByteArray, key);
    QFETCH(QByteArray, message);
    QFETCH(QByteArray, tag);
    QFETCH(bool, valid);
    const HmacKey prepared(algorithm, test::view(key));
    const SecureBuffer mac = prepared.compute(test::view(message));
    // Truncated tags are compared on their prefix, as the file's tagSize says.
    QVERIFY(tag.size() <= static_cast<qsizetype>(mac.size()));
    const bool matches = constantTimeEqual(
        ByteView(mac.data(), static_cast<std::size_t>(tag.size())), test::view(tag));
    QCOMPARE(matches, valid);
    if (tag.size() == static_cast<qsizetype>(mac.size()))
        QCOMPARE(prepared.verify(test::view(message), test::view(tag)), valid);
}

void TestHmac::matchesOpenSslOnRandomInputs_data()
{
    QTest::addColumn<HashAlgorithm>("algorithm");
    QTest::newRow("sha1") << HashAlgorithm::Sha1;
    QTest::newRow("sha256") << HashAlgorithm::Sha256;
    QTest::newRow("sha512") << HashAlgorithm::Sha512;
}

void TestHmac::matchesOpenSslOnRandomInputs()
{
    QFETCH(HashAlgorithm, algorithm);
    const EVP_MD* md = openSslDigest(algorithm);
    test::SeededRandom random(test::testSeed());
    // Every key and message length around the block and padding boundaries.
    for (std::size_t keyLength : {0, 1, 20, 63, 64, 65, 127, 128, 129, 300}) {
        Bytes key(keyLength);
        random.fill(key);
        const HmacKey prepared(algorithm, key);
        for (std::size_t length = 0; length <= 300; ++length) {
            Bytes message(length);
            random.fill(message);
            unsigned char expected[EVP_MAX_MD_SIZE];
            unsigned int expectedLength = 0;
            // OpenSSL 3 refuses a null key pointer even with length zero.
            static const unsigned char noKey[1] = {0};
            QVERIFY(HMAC(md, key.empty() ? noKey : key.data(), static_cast<int>(key.size()),
                         message.data(), message.size(), expected, &expectedLength) != nullptr);
            const SecureBuffer mac = prepared.compute(message);
            QCOMPARE(mac.size(), std::size_t{expectedLength});
            if (!constantTimeEqual(mac.span(), ByteView(expected, expectedLength)))
                QFAIL(qPrintable(
                    QStringLiteral("key length %1, message length %2").arg(keyLength).arg(length)));
        }
    }
}

void TestHmac::verifyRejectsWrongLengthAndFlippedBits()
{
    const Bytes key = test::hex(QStringLiteral("000102030405060708090a0b0c0d0e0f"));
    const HmacKey prepared(HashAlgorithm::Sha256, key);
    const ByteView message = asBytes("message");
    SecureBuffer tag = prepared.compute(message);
    QVERIFY(prepared.verify(message, tag));
    QVERIFY(!prepared.verify(message, ByteView(tag.data(), tag.size() - 1)));
    QVERIFY(!prepared.verify(message, {}));
    for (std::size_t bit = 0; bit < tag.size() * 8; ++bit) {
        tag[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
        QVERIFY(!prepared.verify(message, tag));
        tag[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    }
}

void TestHmac::moveKeepsTheKey()
{
    const ByteView message = asBytes("abc");
    HmacKey original(HashAlgorithm::Sha512, asBytes("key"));
    const SecureBuffer before = original.compute(message);
    HmacKey moved(std::move(original));
    QVERIFY(constantTimeEqual(moved.compute(message).span(), before.span()));
    HmacKey assigned(HashAlgorithm::Sha1, {});
    assigned = std::move(moved);
    QCOMPARE(assigned.algorithm(), HashAlgorithm::Sha512);
    QVERIFY(constantTimeEqual(assigned.compute(message).span(), before.span()));
}

QTEST_APPLESS_MAIN(TestHmac)
#include "TestHmac.moc"
