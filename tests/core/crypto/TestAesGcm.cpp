// AES-256-GCM against every 256-bit-key, 128-bit-tag case of the Wycheproof
// file (the only kind the importers meet), on tampering, and on its error
// codes.
#include "base/SecureBuffer.h"
#include "common/TestSupport.h"
#include "crypto/AesGcm.h"

#include <QtTest>

using namespace watchword;
using namespace watchword::crypto;

namespace {

// BadIvSize: an empty IV (invalid in the file) or one longer than the 128
// bytes OpenSSL 3 takes (the file's 257-byte IV is valid GCM, refused here).
enum class Expectation { Valid, BadIvSize, ModifiedTag };

Bytes concat(const QByteArray& a, const QByteArray& b)
{
    Bytes out(test::view(a).begin(), test::view(a).end());
    out.insert(out.end(), test::view(b).begin(), test::view(b).end());
    return out;
}

Bytes pattern(std::size_t size, std::uint8_t seed)
{
    Bytes bytes(size);
    for (std::size_t i = 0; i < size; ++i)
        bytes[i] = static_cast<std::uint8_t>(seed + i * 7);
    return bytes;
}

} // namespace

Q_DECLARE_METATYPE(Expectation)

class TestAesGcm : public QObject
{
    Q_OBJECT

private slots:
    void wycheproof_data();
    void wycheproof();
    void everyBitFlipIsRejected();
    void rejectsBadSizes();
};

void TestAesGcm::wycheproof_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QByteArray>("iv");
    QTest::addColumn<QByteArray>("aad");
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QByteArray>("ciphertext");
    QTest::addColumn<QByteArray>("tag");
    QTest::addColumn<Expectation>("expectation");
    int counts[3] = {};
    int outOfScope = 0;
    for (const auto& c : test::wycheproofCases(QStringLiteral("aes_gcm_test.json"))) {
        if (c.group[QStringLiteral("keySize")].toInt() != 256 ||
            c.group[QStringLiteral("tagSize")].toInt() != 128) {
            ++outOfScope;
            continue;
        }
        auto field = [&](const char* name) {
            return QByteArray::fromHex(c.test[QLatin1String(name)].toString().toLatin1());
        };
        const QByteArray iv = field("iv");
        Expectation expectation = Expectation::Valid;
        if (c.result == QLatin1String("invalid")) {
            QCOMPARE(c.flags.size(), 1);
            if (c.flags.first() == QLatin1String("ZeroLengthIv")) {
                QVERIFY(iv.isEmpty());
                expectation = Expectation::BadIvSize;
            } else if (c.flags.first() == QLatin1String("ModifiedTag")) {
                expectation = Expectation::ModifiedTag;
            } else {
                QFAIL(qPrintable(QStringLiteral("unexpected flag ") + c.flags.first()));
            }
        } else {
            QCOMPARE(c.result, QStringLiteral("valid"));
            if (static_cast<std::size_t>(iv.size()) > aesGcm::maximumIvSize)
                expectation = Expectation::BadIvSize;
        }
        ++counts[static_cast<int>(expectation)];
        QTest::addRow("tc%d %s", c.tcId, qPrintable(c.test[QStringLiteral("comment")].toString()))
            << field("key") << iv << field("aad") << field("msg") << field("ct") << field("tag")
            << expectation;
    }
    // 105 cases in scope: 75 valid, 27 with a modified tag, 2 with an empty
    // IV and 1 valid one with a 257-byte IV, refused.
    QCOMPARE(counts[static_cast<int>(Expectation::Valid)], 75);
    QCOMPARE(counts[static_cast<int>(Expectation::ModifiedTag)], 27);
    QCOMPARE(counts[static_cast<int>(Expectation::BadIvSize)], 3);
    QCOMPARE(outOfScope, 316 - 105);
}

void TestAesGcm::wycheproof()
{
    QFETCH(QByteArray, key);
    QFETCH(QByteArray, iv);
    QFETCH(QByteArray, aad);
    QFETCH(QByteArray, message);
    QFETCH(QByteArray, ciphertext);
    QFETCH(QByteArray, tag);
    QFETCH(Expectation, expectation);

    const Bytes sealed = concat(ciphertext, tag);
    const ByteView k = test::view(key);
    const ByteView n = test::view(iv);
    const ByteView a = test::view(aad);
    switch (expectation) {
    case Expectation::Valid: {
        const auto encrypted = aesGcm::encrypt(k, n, a, test::view(message));
        QVERIFY(encrypted.ok());
        QCOMPARE(test::toHex(*encrypted), test::toHex(sealed));
        const auto decrypted = aesGcm::decrypt(k, n, a, sealed);
        QVERIFY(decrypted.ok());
        QCOMPARE(test::toHex(*decrypted), test::toHex(test::view(message)));
        const auto apart = aesGcm::decrypt(k, n, a, test::view(ciphertext), test::view(tag));
        QVERIFY(apart.ok());
        QCOMPARE(test::toHex(*apart), test::toHex(test::view(message)));
        break;
    }
    case Expectation::BadIvSize: {
        const auto encrypted = aesGcm::encrypt(k, n, a, test::view(message));
        QVERIFY(!encrypted.ok());
        QCOMPARE(encrypted.error().code, AesGcmError::BadIvSize);
        const auto decrypted = aesGcm::decrypt(k, n, a, sealed);
        QVERIFY(!decrypted.ok());
        QCOMPARE(decrypted.error().code, AesGcmError::BadIvSize);
        break;
    }
    case Expectation::ModifiedTag: {
        const auto decrypted = aesGcm::decrypt(k, n, a, sealed);
        QVERIFY(!decrypted.ok());
        QCOMPARE(decrypted.error().code, AesGcmError::AuthenticationFailed);
        const auto apart = aesGcm::decrypt(k, n, a, test::view(ciphertext), test::view(tag));
        QVERIFY(!apart.ok());
        QCOMPARE(apart.error().code, AesGcmError::AuthenticationFailed);
        // Only the tag was modified: the genuine encryption has the same ciphertext.
        const auto genuine = aesGcm::encrypt(k, n, a, test::view(message));
        QVERIFY(genuine.ok());
        QCOMPARE(test::toHex(ByteView(*genuine).first(genuine->size() - 16)),
                 test::toHex(test::view(ciphertext)));
        QVERIFY(test::toHex(ByteView(*genuine).last(16)) != test::toHex(test::view(tag)));
        break;
    }
    }
}

void TestAesGcm::everyBitFlipIsRejected()
{
    const Bytes key = pattern(32, 1);
    const Bytes iv = pattern(12, 2);
    Bytes aad = pattern(9, 3);
    const Bytes plaintext = pattern(37, 4);
    auto sealed = aesGcm::encrypt(key, iv, aad, plaintext);
    QVERIFY(sealed.ok());
    QCOMPARE(sealed->size(), plaintext.size() + aesGcm::tagSize);
    for (std::size_t bit = 0; bit < sealed->size() * 8; ++bit) {
        Bytes altered = *sealed;
        altered[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
        const auto opened = aesGcm::decrypt(key, iv, aad, altered);
        QVERIFY(!opened.ok());
        QCOMPARE(opened.error().code, AesGcmError::AuthenticationFailed);
    }
    for (std::size_t bit = 0; bit < aad.size() * 8; ++bit) {
        aad[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
        const auto opened = aesGcm::decrypt(key, iv, aad, *sealed);
        QVERIFY(!opened.ok());
        QCOMPARE(opened.error().code, AesGcmError::AuthenticationFailed);
        aad[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    }
    Bytes otherKey = key;
    otherKey[31] ^= 0x80;
    QCOMPARE(aesGcm::decrypt(otherKey, iv, aad, *sealed).error().code,
             AesGcmError::AuthenticationFailed);
    const auto opened = aesGcm::decrypt(key, iv, aad, *sealed);
    QVERIFY(opened.ok());
    QCOMPARE(test::toHex(*opened), test::toHex(plaintext));
}

void TestAesGcm::rejectsBadSizes()
{
    const Bytes iv = pattern(12, 2);
    const Bytes plaintext = pattern(5, 4);
    for (const std::size_t keySize : {0, 16, 24, 31, 33}) {
        const Bytes key = pattern(keySize, 1);
        QCOMPARE(aesGcm::encrypt(key, iv, {}, plaintext).error().code, AesGcmError::BadKeySize);
        QCOMPARE(aesGcm::decrypt(key, iv, {}, pattern(20, 5)).error().code,
                 AesGcmError::BadKeySize);
    }
    const Bytes key = pattern(32, 1);
    QCOMPARE(aesGcm::encrypt(key, {}, {}, plaintext).error().code, AesGcmError::BadIvSize);
    QCOMPARE(aesGcm::encrypt(key, pattern(129, 2), {}, plaintext).error().code,
             AesGcmError::BadIvSize);
    QVERIFY(aesGcm::encrypt(key, pattern(128, 2), {}, plaintext).ok());
    QVERIFY(aesGcm::encrypt(key, pattern(1, 2), {}, plaintext).ok());
    QCOMPARE(aesGcm::decrypt(key, iv, {}, pattern(15, 5)).error().code, AesGcmError::TooShort);
    QCOMPARE(aesGcm::decrypt(key, iv, {}, {}).error().code, AesGcmError::TooShort);
    for (const std::size_t tagSize : {0, 12, 15, 17})
        QCOMPARE(aesGcm::decrypt(key, iv, {}, plaintext, pattern(tagSize, 6)).error().code,
                 AesGcmError::BadTagSize);
    // The empty message still carries a tag, and opens to nothing.
    const auto sealed = aesGcm::encrypt(key, iv, {}, {});
    QVERIFY(sealed.ok());
    QCOMPARE(sealed->size(), aesGcm::tagSize);
    const auto opened = aesGcm::decrypt(key, iv, {}, *sealed);
    QVERIFY(opened.ok());
    QCOMPARE(opened->size(), std::size_t{0});
}

QTEST_APPLESS_MAIN(TestAesGcm)
#include "TestAesGcm.moc"
