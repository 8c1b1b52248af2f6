// ChaCha20-Poly1305 (RFC 8439) against every case of the Wycheproof file,
// against OpenSSL one-shot contexts on random inputs (re-armed contexts must
// match), and on tampering and its error codes.
#include "base/SecureBuffer.h"
#include "common/TestSupport.h"
#include "crypto/ChaCha20Poly1305.h"
#include "crypto/OpenSslHandles.h"

#include <QtTest>
#include <openssl/evp.h>

using namespace watchword;
using namespace watchword::crypto;

namespace {

enum class Expectation { Valid, BadNonceSize, ModifiedTag };

// ChaCha20-Poly1305 from a context made, keyed and freed for this message.
Bytes oneShotSeal(ByteView key, ByteView nonce, ByteView aad, ByteView plaintext)
{
    const CipherContext context = newCipherContext();
    Bytes out(plaintext.size() + ChaCha20Poly1305::tagSize);
    int written = 0;
    int finalWritten = 0;
    if (!context ||
        EVP_EncryptInit_ex(context.get(), EVP_chacha20_poly1305(), nullptr, key.data(),
                           nonce.data()) != 1 ||
        (!aad.empty() && EVP_EncryptUpdate(context.get(), nullptr, &written, aad.data(),
                                           static_cast<int>(aad.size())) != 1) ||
        (!plaintext.empty() &&
         EVP_EncryptUpdate(context.get(), out.data(), &written, plaintext.data(),
                           static_cast<int>(plaintext.size())) != 1) ||
        EVP_EncryptFinal_ex(context.get(), out.data() + plaintext.size(), &finalWritten) != 1 ||
        EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_AEAD_GET_TAG, 16,
                            out.data() + plaintext.size()) != 1)
        qFatal("reference ChaCha20-Poly1305 failed");
    return out;
}

Bytes randomBytes(test::SeededRandom& random, std::size_t size)
{
    Bytes bytes(size);
    random.fill(bytes);
    return bytes;
}

Bytes concat(const QByteArray& a, const QByteArray& b)
{
    Bytes out(test::view(a).begin(), test::view(a).end());
    out.insert(out.end(), test::view(b).begin(), test::view(b).end());
    return out;
}

} // namespace

Q_DECLARE_METATYPE(Expectation)

class TestChaCha20Poly1305 : public QObject
{
    Q_OBJECT

private slots:
    void wycheproof_data();
    void wycheproof();
    void rearmedContextsMatchOneShot();
    void everyBitFlipIsRejected_data();
    void everyBitFlipIsRejected();
    void wrongNonceOrKeyIsRejected();
    void contextsRecoverAfterErrors();
    void rejectsBadSizes();
};

void TestChaCha20Poly1305::wycheproof_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QByteArray>("nonce");
    QTest::addColumn<QByteArray>("aad");
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QByteArray>("ciphertext");
    QTest::addColumn<QByteArray>("tag");
    QTest::addColumn<Expectation>("expectation");
    int counts[3] = {};
    for (const auto& c : test::wycheproofCases(QStringLiteral("chacha20_poly1305_test.json"))) {
        auto field = [&](const char* name) {
            return QByteArray::fromHex(c.test[QLatin1String(name)].toString().toLatin1());
        };
        Expectation expectation = Expectation::Valid;
        if (c.result == QLatin1String("invalid")) {
            // The two kinds of invalid case in the file, each with its own check.
            QCOMPARE(c.flags.size(), 1);
            if (c.flags.first() == QLatin1String("InvalidNonceSize"))
                expectation = Expectation::BadNonceSize;
            else if (c.flags.first() == QLatin1String("ModifiedTag"))
                expectation = Expectation::ModifiedTag;
            else
                QFAIL(qPrintable(QStringLiteral("unexpected flag ") + c.flags.first()));
        } else {
            QCOMPARE(c.result, QStringLiteral("valid"));
        }
        ++counts[static_cast<int>(expectation)];
        QTest::addRow("tc%d %s", c.tcId, qPrintable(c.test[QStringLiteral("comment")].toString()))
            << field("key") << field("iv") << field("aad") << field("msg") << field("ct")
            << field("tag") << expectation;
    }
    QCOMPARE(counts[0], 256);
    QCOMPARE(counts[1], 9);
    QCOMPARE(counts[2], 60);
}

void TestChaCha20Poly1305::wycheproof()
{
    QFETCH(QByteArray, key);
    QFETCH(QByteArray, nonce);
    QFETCH(QByteArray, aad);
    QFETCH(QByteArray, message);
    QFETCH(QByteArray, ciphertext);
    QFETCH(QByteArray, tag);
    QFETCH(Expectation, expectation);

    auto aead = ChaCha20Poly1305::create(test::view(key));
    QVERIFY(aead.ok());
    const Bytes sealed = concat(ciphertext, tag);
    switch (expectation) {
    case Expectation::Valid: {
        const auto encrypted =
            aead->encrypt(test::view(nonce), test::view(aad), test::view(message));
        QVERIFY(encrypted.ok());
        QCOMPARE(test::toHex(*encrypted), test::toHex(sealed));
        const auto decrypted = aead->decrypt(test::view(nonce), test::view(aad), sealed);
        QVERIFY(decrypted.ok());
        QCOMPARE(test::toHex(*decrypted), test::toHex(test::view(message)));
        break;
    }
    case Expectation::BadNonceSize: {
        QVERIFY(nonce.size() != 12);
        const auto encrypted =
            aead->encrypt(test::view(nonce), test::view(aad), test::view(message));
        QVERIFY(!encrypted.ok());
        QCOMPARE(encrypted.error().code, ChaCha20Poly1305Error::BadNonceSize);
        const auto decrypted = aead->decrypt(test::view(nonce), test::view(aad), sealed);
        QVERIFY(!decrypted.ok());
        QCOMPARE(decrypted.error().code, ChaCha20Poly1305Error::BadNonceSize);
        break;
    }
    case Expectation::ModifiedTag: {
        const auto decrypted = aead->decrypt(test::view(nonce), test::view(aad), sealed);
        QVERIFY(!decrypted.ok());
        QCOMPARE(decrypted.error().code, ChaCha20Poly1305Error::AuthenticationFailed);
        // The file's message and ciphertext are the genuine pair: only the tag was modified.
        const auto genuine = aead->encrypt(test::view(nonce), test::view(aad), test::view(message));
        QVERIFY(genuine.ok());
        QCOMPARE(test::toHex(ByteView(*genuine).first(genuine->size() - 16)),
                 test::toHex(test::view(ciphertext)));
        QVERIFY(test::toHex(ByteView(*genuine).last(16)) != test::toHex(test::view(tag)));
        break;
    }
    }
}

void TestChaCha20Poly1305::rearmedContextsMatchOneShot()
{
    test::SeededRandom random(test::testSeed());
    const Bytes key = randomBytes(random, 32);
    auto aead = ChaCha20Poly1305::create(key);
    QVERIFY(aead.ok());
    for (int round = 0; round < 500; ++round) {
        const Bytes nonce = randomBytes(random, 12);
        const Bytes aad = randomBytes(random, random.engine()() % 40);
        // Around the 49-byte reference note, and across 64-byte keystream blocks.
        const Bytes plaintext = randomBytes(random, random.engine()() % 200);
        const Bytes expected = oneShotSeal(key, nonce, aad, plaintext);
        const auto encrypted = aead->encrypt(nonce, aad, plaintext);
        QVERIFY(encrypted.ok());
        QCOMPARE(test::toHex(*encrypted), test::toHex(expected));
        const auto decrypted = aead->decrypt(nonce, aad, expected);
        QVERIFY(decrypted.ok());
        QCOMPARE(test::toHex(*decrypted), test::toHex(plaintext));
    }
}

void TestChaCha20Poly1305::everyBitFlipIsRejected_data()
{
    QTest::addColumn<int>("length");
    QTest::addColumn<int>("aadLength");
    QTest::newRow("empty note, no AAD") << 0 << 0;
    QTest::newRow("49-byte note, 33-byte AAD") << 49 << 33;
    QTest::newRow("64-byte note, no AAD") << 64 << 0;
}

void TestChaCha20Poly1305::everyBitFlipIsRejected()
{
    QFETCH(int, length);
    QFETCH(int, aadLength);
    test::SeededRandom random(test::testSeed());
    auto aead = ChaCha20Poly1305::create(randomBytes(random, 32));
    QVERIFY(aead.ok());
    const Bytes nonce = randomBytes(random, 12);
    Bytes aad = randomBytes(random, static_cast<std::size_t>(aadLength));
    const Bytes plaintext = randomBytes(random, static_cast<std::size_t>(length));
    auto sealedResult = aead->encrypt(nonce, aad, plaintext);
    QVERIFY(sealedResult.ok());
    Bytes sealed = *sealedResult;
    QCOMPARE(sealed.size(), plaintext.size() + 16);
    QVERIFY(aead->decrypt(nonce, aad, sealed).ok());
    for (std::size_t bit = 0; bit < sealed.size() * 8; ++bit) {
        sealed[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
        const auto opened = aead->decrypt(nonce, aad, sealed);
        QVERIFY2(!opened.ok(), qPrintable(QStringLiteral("bit %1").arg(bit)));
        QCOMPARE(opened.error().code, ChaCha20Poly1305Error::AuthenticationFailed);
        sealed[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    }
    for (std::size_t bit = 0; bit < aad.size() * 8; ++bit) {
        aad[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
        const auto opened = aead->decrypt(nonce, aad, sealed);
        QVERIFY2(!opened.ok(), qPrintable(QStringLiteral("AAD bit %1").arg(bit)));
        QCOMPARE(opened.error().code, ChaCha20Poly1305Error::AuthenticationFailed);
        aad[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    }
    // Untouched again, it opens.
    const auto opened = aead->decrypt(nonce, aad, sealed);
    QVERIFY(opened.ok());
    QCOMPARE(test::toHex(*opened), test::toHex(plaintext));
}

void TestChaCha20Poly1305::wrongNonceOrKeyIsRejected()
{
    test::SeededRandom random(test::testSeed());
    const Bytes key = randomBytes(random, 32);
    auto aead = ChaCha20Poly1305::create(key);
    QVERIFY(aead.ok());
    const Bytes nonce = randomBytes(random, 12);
    const Bytes plaintext = randomBytes(random, 49);
    const auto sealed = aead->encrypt(nonce, {}, plaintext);
    QVERIFY(sealed.ok());
    for (std::size_t bit = 0; bit < 96; ++bit) {
        Bytes otherNonce = nonce;
        otherNonce[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
        QCOMPARE(aead->decrypt(otherNonce, {}, *sealed).error().code,
                 ChaCha20Poly1305Error::AuthenticationFailed);
    }
    Bytes otherKey = key;
    otherKey[31] ^= 0x80;
    auto other = ChaCha20Poly1305::create(otherKey);
    QVERIFY(other.ok());
    QCOMPARE(other->decrypt(nonce, {}, *sealed).error().code,
             ChaCha20Poly1305Error::AuthenticationFailed);
    // Associated data that was not there, or is missing.
    QCOMPARE(aead->decrypt(nonce, Bytes(1, 0), *sealed).error().code,
             ChaCha20Poly1305Error::AuthenticationFailed);
    const auto withAad = aead->encrypt(nonce, Bytes(1, 0), plaintext);
    QVERIFY(withAad.ok());
    QCOMPARE(aead->decrypt(nonce, {}, *withAad).error().code,
             ChaCha20Poly1305Error::AuthenticationFailed);
}

void TestChaCha20Poly1305::contextsRecoverAfterErrors()
{
    test::SeededRandom random(test::testSeed());
    const Bytes key = randomBytes(random, 32);
    auto aead = ChaCha20Poly1305::create(key);
    QVERIFY(aead.ok());
    for (int round = 0; round < 100; ++round) {
        const Bytes nonce = randomBytes(random, 12);
        const Bytes aad = randomBytes(random, random.engine()() % 20);
        const Bytes plaintext = randomBytes(random, random.engine()() % 100);
        Bytes forged = oneShotSeal(key, nonce, aad, plaintext);
        forged.back() ^= 1;
        QCOMPARE(aead->decrypt(nonce, aad, forged).error().code,
                 ChaCha20Poly1305Error::AuthenticationFailed);
        QCOMPARE(aead->decrypt(Bytes(8, 0), aad, forged).error().code,
                 ChaCha20Poly1305Error::BadNonceSize);
        QCOMPARE(aead->encrypt(Bytes(16, 0), aad, plaintext).error().code,
                 ChaCha20Poly1305Error::BadNonceSize);
        const auto encrypted = aead->encrypt(nonce, aad, plaintext);
        QVERIFY(encrypted.ok());
        QCOMPARE(test::toHex(*encrypted), test::toHex(oneShotSeal(key, nonce, aad, plaintext)));
        const auto decrypted = aead->decrypt(nonce, aad, *encrypted);
        QVERIFY(decrypted.ok());
        QCOMPARE(test::toHex(*decrypted), test::toHex(plaintext));
    }
}

void TestChaCha20Poly1305::rejectsBadSizes()
{
    for (const std::size_t size : {0, 1, 16, 24, 31, 33, 64}) {
        const auto aead = ChaCha20Poly1305::create(Bytes(size, 9));
        QVERIFY2(!aead.ok(), qPrintable(QString::number(size)));
        QCOMPARE(aead.error().code, ChaCha20Poly1305Error::BadKeySize);
    }
    auto aead = ChaCha20Poly1305::create(Bytes(32, 9));
    QVERIFY(aead.ok());
    for (const std::size_t size : {0, 8, 11, 13, 16, 24}) {
        QCOMPARE(aead->encrypt(Bytes(size, 0), {}, Bytes(49, 0)).error().code,
                 ChaCha20Poly1305Error::BadNonceSize);
        QCOMPARE(aead->decrypt(Bytes(size, 0), {}, Bytes(65, 0)).error().code,
                 ChaCha20Poly1305Error::BadNonceSize);
    }
    for (std::size_t size = 0; size < 16; ++size) {
        const auto opened = aead->decrypt(Bytes(12, 0), {}, Bytes(size, 0));
        QVERIFY(!opened.ok());
        QCOMPARE(opened.error().code, ChaCha20Poly1305Error::TooShort);
    }
    // Exactly a tag is a well-formed (empty) message: rejected only by the tag check.
    QCOMPARE(aead->decrypt(Bytes(12, 0), {}, Bytes(16, 0)).error().code,
             ChaCha20Poly1305Error::AuthenticationFailed);
}

QTEST_APPLESS_MAIN(TestChaCha20Poly1305)
#include "TestChaCha20Poly1305.moc"
