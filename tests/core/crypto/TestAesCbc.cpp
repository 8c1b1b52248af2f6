// AES-CBC with PKCS#7 against every case of the Wycheproof AES-CBC-PKCS5 file
// (all three key sizes), against OpenSSL one-shot contexts on random inputs
// (to show that re-arming a prepared context with a new IV is right), and on
// its error codes.
#include "base/SecureBuffer.h"
#include "common/TestSupport.h"
#include "crypto/AesCbc.h"
#include "crypto/OpenSslHandles.h"

#include <QtTest>
#include <algorithm>
#include <openssl/evp.h>

using namespace watchword;
using namespace watchword::crypto;

Q_DECLARE_METATYPE(watchword::crypto::AesCbcError)

namespace {

// AES-CBC from a context made, keyed and freed for this one message: the
// reference the prepared contexts are compared with. padding=false encrypts
// whole blocks as they are, to build ciphertexts with chosen (bad) padding.
Bytes oneShotEncrypt(ByteView key, ByteView iv, ByteView plaintext, bool padding = true)
{
    const EVP_CIPHER* cipher = key.size() == 16   ? EVP_aes_128_cbc()
                               : key.size() == 24 ? EVP_aes_192_cbc()
                                                  : EVP_aes_256_cbc();
    const CipherContext context = newCipherContext();
    Bytes out(plaintext.size() + AesCbc::blockSize);
    int written = 0;
    int finalWritten = 0;
    if (!context ||
        EVP_EncryptInit_ex(context.get(), cipher, nullptr, key.data(), iv.data()) != 1 ||
        EVP_CIPHER_CTX_set_padding(context.get(), padding ? 1 : 0) != 1 ||
        EVP_EncryptUpdate(context.get(), out.data(), &written, plaintext.data(),
                          static_cast<int>(plaintext.size())) != 1 ||
        EVP_EncryptFinal_ex(context.get(), out.data() + written, &finalWritten) != 1)
        qFatal("reference AES-CBC encryption failed");
    out.resize(static_cast<std::size_t>(written + finalWritten));
    return out;
}

Bytes randomBytes(test::SeededRandom& random, std::size_t size)
{
    Bytes bytes(size);
    random.fill(bytes);
    return bytes;
}

} // namespace

class TestAesCbc : public QObject
{
    Q_OBJECT

private slots:
    void wycheproof_data();
    void wycheproof();
    void rearmedContextsMatchOneShot_data();
    void rearmedContextsMatchOneShot();
    void paddingByteIsCheckedExactly_data();
    void paddingByteIsCheckedExactly();
    void contextsRecoverAfterErrors();
    void rejectsBadSizes();
    void moveKeepsTheKey();
};

void TestAesCbc::wycheproof_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QByteArray>("iv");
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QByteArray>("ciphertext");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<AesCbcError>("expectedError");
    int valid = 0;
    int invalid = 0;
    for (const auto& c : test::wycheproofCases(QStringLiteral("aes_cbc_pkcs5_test.json"))) {
        auto field = [&](const char* name) {
            return QByteArray::fromHex(c.test[QLatin1String(name)].toString().toLatin1());
        };
        // The file has only valid and invalid cases; each invalid one is
        // either an empty ciphertext or one with wrong padding.
        QVERIFY(c.result == QLatin1String("valid") || c.result == QLatin1String("invalid"));
        const bool isValid = c.result == QLatin1String("valid");
        AesCbcError expected = AesCbcError::BackendFailure;
        if (!isValid) {
            QCOMPARE(c.flags.size(), 1);
            if (c.flags.first() == QLatin1String("NoPadding"))
                expected = AesCbcError::BadCiphertextLength;
            else if (c.flags.first() == QLatin1String("BadPadding"))
                expected = AesCbcError::BadPadding;
            else
                QFAIL(qPrintable(QStringLiteral("unexpected flag ") + c.flags.first()));
        }
        QTest::addRow("AES-%d tc%d %s", c.group[QStringLiteral("keySize")].toInt(), c.tcId,
                      qPrintable(c.test[QStringLiteral("comment")].toString()))
            << field("key") << field("iv") << field("msg") << field("ct") << isValid << expected;
        ++(isValid ? valid : invalid);
    }
    QCOMPARE(valid, 72);
    QCOMPARE(invalid, 144);
}

void TestAesCbc::wycheproof()
{
    QFETCH(QByteArray, key);
    QFETCH(QByteArray, iv);
    QFETCH(QByteArray, message);
    QFETCH(QByteArray, ciphertext);
    QFETCH(bool, valid);
    QFETCH(AesCbcError, expectedError);

    auto cipher = AesCbc::create(test::view(key));
    QVERIFY(cipher.ok());
    QCOMPARE(cipher->keySize(), static_cast<std::size_t>(key.size()));
    if (valid) {
        const auto encrypted = cipher->encrypt(test::view(iv), test::view(message));
        QVERIFY(encrypted.ok());
        QCOMPARE(test::toHex(*encrypted), test::toHex(test::view(ciphertext)));
        const auto decrypted = cipher->decrypt(test::view(iv), test::view(ciphertext));
        QVERIFY(decrypted.ok());
        QCOMPARE(test::toHex(*decrypted), test::toHex(test::view(message)));
    } else {
        const auto decrypted = cipher->decrypt(test::view(iv), test::view(ciphertext));
        QVERIFY(!decrypted.ok());
        QCOMPARE(decrypted.error().code, expectedError);
        QVERIFY(!decrypted.error().message.empty());
    }
}

void TestAesCbc::rearmedContextsMatchOneShot_data()
{
    QTest::addColumn<int>("keySize");
    QTest::newRow("AES-128") << 16;
    QTest::newRow("AES-192") << 24;
    QTest::newRow("AES-256") << 32;
}

void TestAesCbc::rearmedContextsMatchOneShot()
{
    QFETCH(int, keySize);
    test::SeededRandom random(test::testSeed());
    const Bytes key = randomBytes(random, static_cast<std::size_t>(keySize));
    auto cipher = AesCbc::create(key);
    QVERIFY(cipher.ok());
    // One prepared object, many messages: every one must equal what a context
    // keyed for that message alone produces, and decrypt back.
    for (int round = 0; round < 500; ++round) {
        const Bytes iv = randomBytes(random, AesCbc::ivSize);
        const Bytes plaintext = randomBytes(random, random.engine()() % 200);
        const Bytes expected = oneShotEncrypt(key, iv, plaintext);
        QCOMPARE(expected.size(), AesCbc::ciphertextSize(plaintext.size()));
        const auto encrypted = cipher->encrypt(iv, plaintext);
        QVERIFY(encrypted.ok());
        QCOMPARE(test::toHex(*encrypted), test::toHex(expected));
        const auto decrypted = cipher->decrypt(iv, expected);
        QVERIFY(decrypted.ok());
        QCOMPARE(test::toHex(*decrypted), test::toHex(plaintext));
        // Into a caller's larger buffer: the plaintext, then wiped bytes.
        Bytes out = randomBytes(random, expected.size() + 9);
        const auto length = cipher->decrypt(iv, expected, out);
        QVERIFY(length.ok());
        QCOMPARE(test::toHex(ByteView(out).first(*length)), test::toHex(plaintext));
        QVERIFY(std::all_of(out.begin() + static_cast<std::ptrdiff_t>(*length), out.end(),
                            [](std::uint8_t b) { return b == 0; }));
    }
    Bytes tooSmall(15);
    QCOMPARE(cipher->decrypt(Bytes(16, 0), Bytes(16, 0), tooSmall).error().code,
             AesCbcError::BadOutputSize);
}

void TestAesCbc::paddingByteIsCheckedExactly_data()
{
    // The decrypted last block is (16 - n) bytes of 0xAA then n bytes of
    // value `last`, with n = min(last, 16) (n = 1 for last = 0). PKCS#7 holds
    // exactly for last in 1..16.
    QTest::addColumn<int>("last");
    for (int last = 0; last < 256; ++last)
        QTest::addRow("last byte %02x", last) << last;
}

void TestAesCbc::paddingByteIsCheckedExactly()
{
    QFETCH(int, last);
    const int padLength = std::clamp(last, 1, 16);
    Bytes block(AesCbc::blockSize, 0xAA);
    std::fill(block.end() - padLength, block.end(), static_cast<std::uint8_t>(last));
    Bytes twoBlocks(AesCbc::blockSize, 0x55);
    twoBlocks.insert(twoBlocks.end(), block.begin(), block.end());

    const Bytes key(32, 0x42);
    const Bytes iv(16, 0x24);
    const Bytes ciphertext = oneShotEncrypt(key, iv, twoBlocks, false);
    QCOMPARE(ciphertext.size(), std::size_t{32});
    auto cipher = AesCbc::create(key);
    QVERIFY(cipher.ok());
    const auto decrypted = cipher->decrypt(iv, ciphertext);
    if (last >= 1 && last <= 16) {
        QVERIFY(decrypted.ok());
        QCOMPARE(decrypted->size(), static_cast<std::size_t>(32 - last));
        QCOMPARE(test::toHex(*decrypted),
                 test::toHex(ByteView(twoBlocks).first(static_cast<std::size_t>(32 - last))));
    } else {
        QVERIFY(!decrypted.ok());
        QCOMPARE(decrypted.error().code, AesCbcError::BadPadding);
    }
    // A block whose last byte says n but one of the n bytes differs.
    if (last >= 2 && last <= 16) {
        Bytes broken = twoBlocks;
        broken[32 - static_cast<std::size_t>(last)] ^= 0x01;
        const auto rejected = cipher->decrypt(iv, oneShotEncrypt(key, iv, broken, false));
        QVERIFY(!rejected.ok());
        QCOMPARE(rejected.error().code, AesCbcError::BadPadding);
    }
}

void TestAesCbc::contextsRecoverAfterErrors()
{
    test::SeededRandom random(test::testSeed());
    const Bytes key = randomBytes(random, 32);
    auto cipher = AesCbc::create(key);
    QVERIFY(cipher.ok());
    const Bytes badPadding = oneShotEncrypt(key, Bytes(16, 1), Bytes(32, 0), false);
    for (int round = 0; round < 100; ++round) {
        // A failure of each kind, then a message that must come out right.
        QCOMPARE(cipher->decrypt(Bytes(16, 1), badPadding).error().code, AesCbcError::BadPadding);
        QCOMPARE(cipher->decrypt(Bytes(15, 1), badPadding).error().code, AesCbcError::BadIvSize);
        QCOMPARE(cipher->decrypt(Bytes(16, 1), ByteView(badPadding).first(17)).error().code,
                 AesCbcError::BadCiphertextLength);
        QCOMPARE(cipher->encrypt(Bytes(17, 1), Bytes(3, 0)).error().code, AesCbcError::BadIvSize);
        const Bytes iv = randomBytes(random, 16);
        const Bytes plaintext = randomBytes(random, random.engine()() % 100);
        const auto encrypted = cipher->encrypt(iv, plaintext);
        QVERIFY(encrypted.ok());
        QCOMPARE(test::toHex(*encrypted), test::toHex(oneShotEncrypt(key, iv, plaintext)));
        const auto decrypted = cipher->decrypt(iv, *encrypted);
        QVERIFY(decrypted.ok());
        QCOMPARE(test::toHex(*decrypted), test::toHex(plaintext));
    }
}

void TestAesCbc::rejectsBadSizes()
{
    for (const std::size_t size : {0, 1, 8, 15, 17, 20, 23, 25, 31, 33, 48, 64}) {
        const auto cipher = AesCbc::create(Bytes(size, 7));
        QVERIFY2(!cipher.ok(), qPrintable(QString::number(size)));
        QCOMPARE(cipher.error().code, AesCbcError::BadKeySize);
    }
    auto cipher = AesCbc::create(Bytes(32, 7));
    QVERIFY(cipher.ok());
    for (const std::size_t size : {0, 1, 12, 15, 17, 32}) {
        QCOMPARE(cipher->encrypt(Bytes(size, 0), Bytes(5, 0)).error().code, AesCbcError::BadIvSize);
        QCOMPARE(cipher->decrypt(Bytes(size, 0), Bytes(16, 0)).error().code,
                 AesCbcError::BadIvSize);
    }
    for (const std::size_t size : {0, 1, 15, 17, 31, 33, 47}) {
        QCOMPARE(cipher->decrypt(Bytes(16, 0), Bytes(size, 0)).error().code,
                 AesCbcError::BadCiphertextLength);
    }
    // encrypt() into a caller's buffer: exactly ciphertextSize() bytes.
    QCOMPARE(AesCbc::ciphertextSize(0), std::size_t{16});
    QCOMPARE(AesCbc::ciphertextSize(15), std::size_t{16});
    QCOMPARE(AesCbc::ciphertextSize(16), std::size_t{32});
    for (const std::size_t size : {0, 15, 17, 32}) {
        Bytes out(size);
        QCOMPARE(cipher->encrypt(Bytes(16, 0), Bytes(5, 0), out).error().code,
                 AesCbcError::BadOutputSize);
    }
    Bytes out(16);
    QVERIFY(cipher->encrypt(Bytes(16, 0), Bytes(5, 0), out).ok());
    QCOMPARE(test::toHex(out),
             test::toHex(oneShotEncrypt(Bytes(32, 7), Bytes(16, 0), Bytes(5, 0))));
}

void TestAesCbc::moveKeepsTheKey()
{
    const Bytes key(32, 0x11);
    const Bytes iv(16, 0x22);
    const Bytes plaintext(40, 0x33);
    auto created = AesCbc::create(key);
    QVERIFY(created.ok());
    AesCbc moved = std::move(created).value();
    const auto encrypted = moved.encrypt(iv, plaintext);
    QVERIFY(encrypted.ok());
    QCOMPARE(test::toHex(*encrypted), test::toHex(oneShotEncrypt(key, iv, plaintext)));
    auto other = AesCbc::create(Bytes(16, 0x44));
    QVERIFY(other.ok());
    *other = std::move(moved);
    QCOMPARE(other->keySize(), std::size_t{32});
    const auto decrypted = other->decrypt(iv, *encrypted);
    QVERIFY(decrypted.ok());
    QCOMPARE(test::toHex(*decrypted), test::toHex(plaintext));
}

QTEST_APPLESS_MAIN(TestAesCbc)
#include "TestAesCbc.moc"
