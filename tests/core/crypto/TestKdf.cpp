// PBKDF2 and HKDF against RFC 6070, RFC 7914, RFC 5869 and the Wycheproof
// PBKDF2/HKDF files, plus OpenSSL's PKCS5_PBKDF2_HMAC on random inputs.
#include "base/SecureBuffer.h"
#include "common/TestSupport.h"
#include "crypto/Kdf.h"

#include <QtTest>
#include <openssl/evp.h>

using namespace watchword;
using namespace watchword::crypto;

Q_DECLARE_METATYPE(watchword::crypto::HashAlgorithm)

class TestKdf : public QObject
{
    Q_OBJECT

private slots:
    void pbkdf2Rfc_data();
    void pbkdf2Rfc();
    void pbkdf2Wycheproof_data();
    void pbkdf2Wycheproof();
    void pbkdf2MatchesOpenSsl_data();
    void pbkdf2MatchesOpenSsl();
    void pbkdf2RejectsBadParameters();
    void hkdfRfc5869_data();
    void hkdfRfc5869();
    void hkdfWycheproof_data();
    void hkdfWycheproof();
    void hkdfRejectsBadLengths();
};

void TestKdf::pbkdf2Rfc_data()
{
    QTest::addColumn<HashAlgorithm>("algorithm");
    QTest::addColumn<QByteArray>("password");
    QTest::addColumn<QByteArray>("salt");
    QTest::addColumn<uint>("iterations");
    QTest::addColumn<QString>("dk");
    const std::pair<const char*, HashAlgorithm> files[] = {
        {"rfc/rfc6070_pbkdf2_hmac_sha1.json", HashAlgorithm::Sha1},
        {"rfc/rfc7914_pbkdf2_hmac_sha256.json", HashAlgorithm::Sha256},
    };
    int rows = 0;
    for (const auto& [file, algorithm] : files) {
        for (const auto v :
             test::loadJson(QString::fromLatin1(file))[QStringLiteral("vectors")].toArray()) {
            const auto o = v.toObject();
            // RFC 6070 case 6 has NUL bytes: prefer the hex fields where present.
            auto bytes = [&](const QString& name) {
                const auto hexValue = o[name + QStringLiteral("_hex")];
                return hexValue.isString() ? QByteArray::fromHex(hexValue.toString().toLatin1())
                                           : o[name].toString().toUtf8();
            };
            QTest::addRow("%s case %d", file, o[QStringLiteral("test_case")].toInt())
                << algorithm << bytes(QStringLiteral("password")) << bytes(QStringLiteral("salt"))
                << uint(o[QStringLiteral("iterations")].toInteger())
                << o[QStringLiteral("dk_hex")].toString();
            ++rows;
        }
    }
    QCOMPARE(rows, 8);
}

void TestKdf::pbkdf2Rfc()
{
    QFETCH(HashAlgorithm, algorithm);
    QFETCH(QByteArray, password);
    QFETCH(QByteArray, salt);
    QFETCH(uint, iterations);
    QFETCH(QString, dk);
    SecureBuffer out(static_cast<std::size_t>(dk.size() / 2));
    QVERIFY(pbkdf2(algorithm, test::view(password), test::view(salt), iterations, out.span()).ok());
    QCOMPARE(test::toHex(out), dk);
}

void TestKdf::pbkdf2Wycheproof_data()
{
    QTest::addColumn<HashAlgorithm>("algorithm");
    QTest::addColumn<QByteArray>("password");
    QTest::addColumn<QByteArray>("salt");
    QTest::addColumn<uint>("iterations");
    QTest::addColumn<QString>("dk");
    const std::pair<const char*, HashAlgorithm> files[] = {
        {"pbkdf2_hmacsha1_test.json", HashAlgorithm::Sha1},
        {"pbkdf2_hmacsha256_test.json", HashAlgorithm::Sha256},
        {"pbkdf2_hmacsha512_test.json", HashAlgorithm::Sha512},
    };
    for (const auto& [file, algorithm] : files) {
        for (const auto& c : test::wycheproofCases(QString::fromLatin1(file))) {
            // These files hold only valid cases: the derived key must match.
            QCOMPARE(c.result, QStringLiteral("valid"));
            auto field = [&](const char* name) {
                return QByteArray::fromHex(c.test[QLatin1String(name)].toString().toLatin1());
            };
            QTest::addRow("%s tc%d", file, c.tcId)
                << algorithm << field("password") << field("salt")
                << uint(c.test[QStringLiteral("iterationCount")].toInteger())
                << c.test[QStringLiteral("dk")].toString();
        }
    }
}

void TestKdf::pbkdf2Wycheproof()
{
    pbkdf2Rfc();
}

void TestKdf::pbkdf2MatchesOpenSsl_data()
{
    QTest::addColumn<HashAlgorithm>("algorithm");
    QTest::newRow("sha1") << HashAlgorithm::Sha1;
    QTest::newRow("sha256") << HashAlgorithm::Sha256;
    QTest::newRow("sha512") << HashAlgorithm::Sha512;
}

void TestKdf::pbkdf2MatchesOpenSsl()
{
    QFETCH(HashAlgorithm, algorithm);
    test::SeededRandom random(test::testSeed());
    for (int round = 0; round < 200; ++round) {
        Bytes password(random.engine()() % 200);
        Bytes salt(random.engine()() % 100);
        random.fill(password);
        random.fill(salt);
        const auto iterations = static_cast<std::uint32_t>(1 + random.engine()() % 50);
        const std::size_t length = 1 + random.engine()() % 200;
        Bytes expected(length);
        QCOMPARE(PKCS5_PBKDF2_HMAC(reinterpret_cast<const char*>(password.data()),
                                   static_cast<int>(password.size()), salt.data(),
                                   static_cast<int>(salt.size()), static_cast<int>(iterations),
                                   watchword::crypto::openSslDigest(algorithm),
                                   static_cast<int>(length), expected.data()),
                 1);
        SecureBuffer out(length);
        QVERIFY(pbkdf2(algorithm, password, salt, iterations, out.span()).ok());
        QCOMPARE(test::toHex(out), test::toHex(expected));
    }
}

void TestKdf::pbkdf2RejectsBadParameters()
{
    SecureBuffer out(32);
    const auto zero = pbkdf2(HashAlgorithm::Sha256, asBytes("p"), asBytes("s"), 0, out.span());
    QVERIFY(!zero.ok());
    QCOMPARE(zero.error().code, KdfError::ZeroIterations);
    const auto empty = pbkdf2(HashAlgorithm::Sha256, asBytes("p"), asBytes("s"), 1, {});
    QVERIFY(!empty.ok());
    QCOMPARE(empty.error().code, KdfError::EmptyOutput);
}

void TestKdf::hkdfRfc5869_data()
{
    QTest::addColumn<HashAlgorithm>("algorithm");
    QTest::addColumn<QByteArray>("ikm");
    QTest::addColumn<QByteArray>("salt");
    QTest::addColumn<QByteArray>("info");
    QTest::addColumn<QString>("prk");
    QTest::addColumn<QString>("okm");
    int rows = 0;
    for (const auto v :
         test::loadJson(QStringLiteral("rfc/rfc5869_hkdf.json"))[QStringLiteral("vectors")]
             .toArray()) {
        const auto o = v.toObject();
        auto field = [&](const char* name) {
            return QByteArray::fromHex(o[QLatin1String(name)].toString().toLatin1());
        };
        const auto algorithm = parseHashName(o[QStringLiteral("hash")].toString().toStdString());
        QVERIFY(algorithm.has_value());
        QTest::addRow("case %d", o[QStringLiteral("test_case")].toInt())
            << *algorithm << field("ikm_hex") << field("salt_hex") << field("info_hex")
            << o[QStringLiteral("prk_hex")].toString() << o[QStringLiteral("okm_hex")].toString();
        ++rows;
    }
    QCOMPARE(rows, 7);
}

void TestKdf::hkdfRfc5869()
{
    QFETCH(HashAlgorithm, algorithm);
    QFETCH(QByteArray, ikm);
    QFETCH(QByteArray, salt);
    QFETCH(QByteArray, info);
    QFETCH(QString, prk);
    QFETCH(QString, okm);
    SecureBuffer extracted(digestSize(algorithm));
    hkdfExtract(algorithm, test::view(salt), test::view(ikm), extracted.span());
    QCOMPARE(test::toHex(extracted), prk);
    SecureBuffer out(static_cast<std::size_t>(okm.size() / 2));
    QVERIFY(hkdf(algorithm, test::view(ikm), test::view(salt), test::view(info), out.span()).ok());
    QCOMPARE(test::toHex(out), okm);
}

void TestKdf::hkdfWycheproof_data()
{
    QTest::addColumn<HashAlgorithm>("algorithm");
    QTest::addColumn<QByteArray>("ikm");
    QTest::addColumn<QByteArray>("salt");
    QTest::addColumn<QByteArray>("info");
    QTest::addColumn<int>("size");
    QTest::addColumn<QString>("okm");
    QTest::addColumn<bool>("valid");
    const std::pair<const char*, HashAlgorithm> files[] = {
        {"hkdf_sha256_test.json", HashAlgorithm::Sha256},
        {"hkdf_sha512_test.json", HashAlgorithm::Sha512},
    };
    for (const auto& [file, algorithm] : files) {
        for (const auto& c : test::wycheproofCases(QString::fromLatin1(file))) {
            QVERIFY(c.result == QLatin1String("valid") || c.result == QLatin1String("invalid"));
            auto field = [&](const char* name) {
                return QByteArray::fromHex(c.test[QLatin1String(name)].toString().toLatin1());
            };
            QTest::addRow("%s tc%d", file, c.tcId)
                << algorithm << field("ikm") << field("salt") << field("info")
                << c.test[QStringLiteral("size")].toInt()
                << c.test[QStringLiteral("okm")].toString() << (c.result == QLatin1String("valid"));
        }
    }
}

void TestKdf::hkdfWycheproof()
{
    QFETCH(HashAlgorithm, algorithm);
    QFETCH(QByteArray, ikm);
    QFETCH(QByteArray, salt);
    QFETCH(QByteArray, info);
    QFETCH(int, size);
    QFETCH(QString, okm);
    QFETCH(bool, valid);
    SecureBuffer out(static_cast<std::size_t>(size));
    const auto result =
        hkdf(algorithm, test::view(ikm), test::view(salt), test::view(info), out.span());
    QCOMPARE(result.ok(), valid);
    if (valid)
        QCOMPARE(test::toHex(out), okm);
    else
        QCOMPARE(result.error().code,
                 KdfError::OutputTooLong); // the invalid cases ask for too much
}

void TestKdf::hkdfRejectsBadLengths()
{
    SecureBuffer prk(32);
    SecureBuffer maximal(255 * 32);
    QVERIFY(hkdfExpand(HashAlgorithm::Sha256, prk, {}, maximal.span()).ok());
    SecureBuffer tooLong(255 * 32 + 1);
    QCOMPARE(hkdfExpand(HashAlgorithm::Sha256, prk, {}, tooLong.span()).error().code,
             KdfError::OutputTooLong);
    QCOMPARE(hkdfExpand(HashAlgorithm::Sha256, prk, {}, {}).error().code, KdfError::EmptyOutput);
}

QTEST_APPLESS_MAIN(TestKdf)
#include "TestKdf.moc"
