// The record envelope: known answers computed independently
// (tests/data/record), round trips, and rejection of every bit flip,
// truncation, wrong associated data and wrong key, each with its exact error.
#include "base/SecureBuffer.h"
#include "common/TestSupport.h"
#include "crypto/AesCbc.h"
#include "crypto/Hmac.h"
#include "crypto/Kdf.h"
#include "crypto/RecordSealer.h"

#include <QtTest>
#include <algorithm>

using namespace watchword;
using namespace watchword::crypto;

namespace {

// Hands out fixed bytes (the vectors' IV) and counts the calls.
class FixedRandom final : public RandomSource
{
public:
    explicit FixedRandom(Bytes bytes) : m_bytes(std::move(bytes)) {}
    void fill(std::span<std::uint8_t> out) override
    {
        ++m_calls;
        m_requested += out.size();
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = i < m_bytes.size() ? m_bytes[i] : 0;
    }
    int calls() const { return m_calls; }
    std::size_t requested() const { return m_requested; }

private:
    Bytes m_bytes;
    int m_calls = 0;
    std::size_t m_requested = 0;
};

// Counts the calls to another source.
class CountingRandom final : public RandomSource
{
public:
    explicit CountingRandom(RandomSource& inner) : m_inner(inner) {}
    void fill(std::span<std::uint8_t> out) override
    {
        ++m_calls;
        m_inner.fill(out);
    }
    int calls() const { return m_calls; }

private:
    RandomSource& m_inner;
    int m_calls = 0;
};

Bytes randomBytes(test::SeededRandom& random, std::size_t size)
{
    Bytes bytes(size);
    random.fill(bytes);
    return bytes;
}

RecordSealer makeSealer(ByteView masterKey)
{
    auto sealer = RecordSealer::create(masterKey);
    if (!sealer)
        qFatal("RecordSealer::create: %s", sealer.error().message.c_str());
    return std::move(sealer).value();
}

QByteArray hexField(const QJsonObject& object, const char* name)
{
    return QByteArray::fromHex(object[QLatin1String(name)].toString().toLatin1());
}

// What open() must say for a record cut to `length` bytes of a valid one.
RecordError truncationError(std::size_t length)
{
    if (length < RecordSealer::minimumSealedSize || (length - 48) % 16 != 0)
        return RecordError::Malformed;
    return RecordError::AuthenticationFailed;
}

} // namespace

class TestRecordSealer : public QObject
{
    Q_OBJECT

private slots:
    void knownAnswer_data();
    void knownAnswer();
    void knownAnswerLayers_data();
    void knownAnswerLayers();
    void corruptPaddingAfterGoodTag_data();
    void corruptPaddingAfterGoodTag();
    void roundTrip_data();
    void roundTrip();
    void everyBitFlipIsRejected_data();
    void everyBitFlipIsRejected();
    void truncationIsRejected();
    void wrongAssociatedDataIsRejected();
    void wrongKeyIsRejected();
    void sealsOfTheSamePlaintextDiffer();
    void oneRandomCallPerSeal();
    void rejectsBadMasterKey();
};

void TestRecordSealer::knownAnswer_data()
{
    QTest::addColumn<QByteArray>("masterKey");
    QTest::addColumn<QByteArray>("iv");
    QTest::addColumn<QByteArray>("associatedData");
    QTest::addColumn<QByteArray>("plaintext");
    QTest::addColumn<QString>("sealed");
    int rows = 0;
    for (const auto v :
         test::loadJson(QStringLiteral("record/vectors.json"))[QStringLiteral("vectors")]
             .toArray()) {
        const auto o = v.toObject();
        QTest::addRow("%s", qPrintable(o[QStringLiteral("comment")].toString()))
            << hexField(o, "master_key_hex") << hexField(o, "iv_hex")
            << hexField(o, "associated_data_hex") << hexField(o, "plaintext_hex")
            << o[QStringLiteral("sealed_hex")].toString();
        ++rows;
    }
    QCOMPARE(rows, 3);
}

void TestRecordSealer::knownAnswer()
{
    QFETCH(QByteArray, masterKey);
    QFETCH(QByteArray, iv);
    QFETCH(QByteArray, associatedData);
    QFETCH(QByteArray, plaintext);
    QFETCH(QString, sealed);
    RecordSealer sealer = makeSealer(test::view(masterKey));
    FixedRandom random(Bytes(test::view(iv).begin(), test::view(iv).end()));
    const auto result = sealer.seal(test::view(associatedData), test::view(plaintext), random);
    QVERIFY(result.ok());
    QCOMPARE(test::toHex(*result), sealed);
    QCOMPARE(result->size(), RecordSealer::sealedSize(static_cast<std::size_t>(plaintext.size())));
    const auto opened = sealer.open(test::view(associatedData), test::hex(sealed));
    QVERIFY(opened.ok());
    QCOMPARE(test::toHex(*opened), test::toHex(test::view(plaintext)));
}

void TestRecordSealer::knownAnswerLayers_data()
{
    knownAnswer_data();
}

// The same vectors one layer at a time, so a failure names the layer: the
// HKDF labels, the cipher, the bytes the MAC covers, the tag.
void TestRecordSealer::knownAnswerLayers()
{
    const QString name = QString::fromUtf8(QTest::currentDataTag());
    QJsonObject o;
    for (const auto v :
         test::loadJson(QStringLiteral("record/vectors.json"))[QStringLiteral("vectors")].toArray())
        if (v.toObject()[QStringLiteral("comment")].toString() == name)
            o = v.toObject();
    QVERIFY(!o.isEmpty());
    const QByteArray masterKey = hexField(o, "master_key_hex");

    SecureBuffer encryptionKey(32);
    SecureBuffer authenticationKey(32);
    QVERIFY(hkdf(HashAlgorithm::Sha256, test::view(masterKey), {},
                 asBytes(RecordSealer::encryptionKeyInfo), encryptionKey.span())
                .ok());
    QVERIFY(hkdf(HashAlgorithm::Sha256, test::view(masterKey), {},
                 asBytes(RecordSealer::authenticationKeyInfo), authenticationKey.span())
                .ok());
    QCOMPARE(test::toHex(encryptionKey), o[QStringLiteral("encryption_key_hex")].toString());
    QCOMPARE(test::toHex(authenticationKey),
             o[QStringLiteral("authentication_key_hex")].toString());

    auto cipher = AesCbc::create(encryptionKey);
    QVERIFY(cipher.ok());
    const auto ciphertext = cipher->encrypt(test::view(hexField(o, "iv_hex")),
                                            test::view(hexField(o, "plaintext_hex")));
    QVERIFY(ciphertext.ok());
    QCOMPARE(test::toHex(*ciphertext), o[QStringLiteral("ciphertext_hex")].toString());

    // The MAC input is the version byte, be64(len AD), AD, IV, ciphertext.
    const QByteArray associatedData = hexField(o, "associated_data_hex");
    QByteArray macInput(1, '\x01');
    for (int shift = 56; shift >= 0; shift -= 8)
        macInput.append(
            static_cast<char>((static_cast<quint64>(associatedData.size()) >> shift) & 0xff));
    macInput += associatedData + hexField(o, "iv_hex") + hexField(o, "ciphertext_hex");
    QCOMPARE(test::toHex(test::view(macInput)), o[QStringLiteral("mac_input_hex")].toString());
    const HmacKey macKey(HashAlgorithm::Sha256, authenticationKey);
    QCOMPARE(test::toHex(macKey.compute(test::view(macInput))),
             o[QStringLiteral("tag_hex")].toString());
}

void TestRecordSealer::corruptPaddingAfterGoodTag_data()
{
    QTest::addColumn<QByteArray>("masterKey");
    QTest::addColumn<QByteArray>("associatedData");
    QTest::addColumn<QByteArray>("sealed");
    int rows = 0;
    for (const auto v :
         test::loadJson(QStringLiteral("record/vectors.json"))[QStringLiteral("corrupt")]
             .toArray()) {
        const auto o = v.toObject();
        QTest::addRow("%s", qPrintable(o[QStringLiteral("comment")].toString()))
            << hexField(o, "master_key_hex") << hexField(o, "associated_data_hex")
            << hexField(o, "sealed_hex");
        ++rows;
    }
    QCOMPARE(rows, 4);
}

void TestRecordSealer::corruptPaddingAfterGoodTag()
{
    QFETCH(QByteArray, masterKey);
    QFETCH(QByteArray, associatedData);
    QFETCH(QByteArray, sealed);
    RecordSealer sealer = makeSealer(test::view(masterKey));
    const auto opened = sealer.open(test::view(associatedData), test::view(sealed));
    QVERIFY(!opened.ok());
    QCOMPARE(opened.error().code, RecordError::Corrupt);
    // The same bytes with a flipped tag bit never reach the padding check.
    QByteArray forged = sealed;
    forged[forged.size() - 1] = static_cast<char>(forged.back() ^ 1);
    QCOMPARE(sealer.open(test::view(associatedData), test::view(forged)).error().code,
             RecordError::AuthenticationFailed);
}

void TestRecordSealer::roundTrip_data()
{
    QTest::addColumn<int>("length");
    for (int length = 0; length <= 100; ++length)
        QTest::addRow("%d bytes", length) << length;
    for (const int length : {255, 256, 4095, 4096, 65537, 1 << 20})
        QTest::addRow("%d bytes", length) << length;
}

void TestRecordSealer::roundTrip()
{
    QFETCH(int, length);
    test::SeededRandom random(test::testSeed() + static_cast<std::uint64_t>(length));
    const Bytes masterKey = randomBytes(random, 32);
    RecordSealer sealer = makeSealer(masterKey);
    const Bytes associatedData = randomBytes(random, random.engine()() % 40);
    const Bytes plaintext = randomBytes(random, static_cast<std::size_t>(length));
    const auto sealed = sealer.seal(associatedData, plaintext, random);
    QVERIFY(sealed.ok());
    QCOMPARE(sealed->size(), RecordSealer::sealedSize(plaintext.size()));
    QCOMPARE(sealed->size(), 16 + (plaintext.size() / 16 + 1) * 16 + 32);
    // The plaintext does not appear in the envelope (it is encrypted).
    if (plaintext.size() >= 16)
        QVERIFY(std::search(sealed->begin(), sealed->end(), plaintext.begin(),
                            plaintext.begin() + 16) == sealed->end());
    const auto opened = sealer.open(associatedData, *sealed);
    QVERIFY(opened.ok());
    QCOMPARE(opened->size(), plaintext.size());
    QVERIFY(std::equal(opened->begin(), opened->end(), plaintext.begin(), plaintext.end()));
    // A second sealer from the same master key opens it too: nothing depends
    // on state beyond the derived keys.
    RecordSealer again = makeSealer(masterKey);
    const auto reopened = again.open(associatedData, *sealed);
    QVERIFY(reopened.ok());
    QVERIFY(std::equal(reopened->begin(), reopened->end(), plaintext.begin(), plaintext.end()));
}

void TestRecordSealer::everyBitFlipIsRejected_data()
{
    QTest::addColumn<int>("length");
    QTest::addColumn<int>("associatedDataLength");
    QTest::newRow("empty record, no AD") << 0 << 0;
    QTest::newRow("15 bytes, 12-byte AD") << 15 << 12;
    QTest::newRow("16 bytes, 1-byte AD") << 16 << 1;
    QTest::newRow("64 bytes, 24-byte AD") << 64 << 24;
}

void TestRecordSealer::everyBitFlipIsRejected()
{
    QFETCH(int, length);
    QFETCH(int, associatedDataLength);
    test::SeededRandom random(test::testSeed());
    RecordSealer sealer = makeSealer(randomBytes(random, 32));
    Bytes associatedData = randomBytes(random, static_cast<std::size_t>(associatedDataLength));
    const Bytes plaintext = randomBytes(random, static_cast<std::size_t>(length));
    auto sealedResult = sealer.seal(associatedData, plaintext, random);
    QVERIFY(sealedResult.ok());
    Bytes sealed = *sealedResult;
    QVERIFY(sealer.open(associatedData, sealed).ok());
    // IV, ciphertext and tag: every bit.
    for (std::size_t bit = 0; bit < sealed.size() * 8; ++bit) {
        sealed[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
        const auto opened = sealer.open(associatedData, sealed);
        QVERIFY2(!opened.ok(), qPrintable(QStringLiteral("bit %1 of the record").arg(bit)));
        QCOMPARE(opened.error().code, RecordError::AuthenticationFailed);
        sealed[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    }
    for (std::size_t bit = 0; bit < associatedData.size() * 8; ++bit) {
        associatedData[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
        const auto opened = sealer.open(associatedData, sealed);
        QVERIFY2(!opened.ok(), qPrintable(QStringLiteral("bit %1 of the AD").arg(bit)));
        QCOMPARE(opened.error().code, RecordError::AuthenticationFailed);
        associatedData[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    }
    const auto opened = sealer.open(associatedData, sealed);
    QVERIFY(opened.ok());
    QVERIFY(std::equal(opened->begin(), opened->end(), plaintext.begin(), plaintext.end()));
}

void TestRecordSealer::truncationIsRejected()
{
    test::SeededRandom random(test::testSeed());
    RecordSealer sealer = makeSealer(randomBytes(random, 32));
    const Bytes associatedData = randomBytes(random, 10);
    const auto sealed = sealer.seal(associatedData, randomBytes(random, 70), random);
    QVERIFY(sealed.ok());
    QCOMPARE(sealed->size(), std::size_t{16 + 80 + 32});
    int authenticationRejections = 0;
    for (std::size_t length = 0; length < sealed->size(); ++length) {
        const ByteView front = ByteView(*sealed).first(length); // the end cut off
        const ByteView back = ByteView(*sealed).last(length);   // the start cut off
        for (const ByteView cut : {front, back}) {
            const auto opened = sealer.open(associatedData, cut);
            QVERIFY2(!opened.ok(), qPrintable(QStringLiteral("%1 bytes").arg(length)));
            QCOMPARE(opened.error().code, truncationError(length));
            if (opened.error().code == RecordError::AuthenticationFailed)
                ++authenticationRejections;
        }
    }
    // 64, 80, 96 and 112 bytes are well-formed lengths: the tag rejects them.
    QCOMPARE(authenticationRejections, 8);
    // Longer is no better: a block too many, or a stray byte.
    Bytes longer = *sealed;
    longer.insert(longer.end(), 16, 0);
    QCOMPARE(sealer.open(associatedData, longer).error().code, RecordError::AuthenticationFailed);
    longer.resize(sealed->size() + 1);
    QCOMPARE(sealer.open(associatedData, longer).error().code, RecordError::Malformed);
}

void TestRecordSealer::wrongAssociatedDataIsRejected()
{
    test::SeededRandom random(test::testSeed());
    RecordSealer sealer = makeSealer(randomBytes(random, 32));
    const Bytes plaintext = randomBytes(random, 49);
    const auto sealed = sealer.seal(asBytes("record:42 version:3"), plaintext, random);
    QVERIFY(sealed.ok());
    QVERIFY(sealer.open(asBytes("record:42 version:3"), *sealed).ok());
    for (const char* other :
         {"", "record:42 version:2", "record:43 version:3", "record:42 version:3 ",
          "record:42 version:", "record:42 version:30"}) {
        const auto opened = sealer.open(asBytes(other), *sealed);
        QVERIFY2(!opened.ok(), other);
        QCOMPARE(opened.error().code, RecordError::AuthenticationFailed);
    }
}

void TestRecordSealer::wrongKeyIsRejected()
{
    test::SeededRandom random(test::testSeed());
    Bytes masterKey = randomBytes(random, 32);
    RecordSealer sealer = makeSealer(masterKey);
    const auto sealed = sealer.seal(asBytes("id"), randomBytes(random, 33), random);
    QVERIFY(sealed.ok());
    for (std::size_t bit = 0; bit < 256; bit += 37) {
        Bytes otherKey = masterKey;
        otherKey[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
        RecordSealer other = makeSealer(otherKey);
        QCOMPARE(other.open(asBytes("id"), *sealed).error().code,
                 RecordError::AuthenticationFailed);
    }
}

void TestRecordSealer::sealsOfTheSamePlaintextDiffer()
{
    test::SeededRandom random(test::testSeed());
    RecordSealer sealer = makeSealer(randomBytes(random, 32));
    const Bytes plaintext = randomBytes(random, 49);
    // With the product's source: fresh IVs from the kernel. Every envelope
    // differs from every earlier one in its IV, its first ciphertext block
    // and its tag.
    QList<QString> ivs, firstBlocks, tags;
    for (int i = 0; i < 50; ++i) {
        const auto sealed = sealer.seal(asBytes("id"), plaintext, systemRandom());
        QVERIFY(sealed.ok());
        const QString iv = test::toHex(ByteView(*sealed).first(16));
        const QString firstBlock = test::toHex(ByteView(*sealed).subspan(16, 16));
        const QString tag = test::toHex(ByteView(*sealed).last(32));
        QVERIFY(!ivs.contains(iv));
        QVERIFY(!firstBlocks.contains(firstBlock));
        QVERIFY(!tags.contains(tag));
        ivs << iv;
        firstBlocks << firstBlock;
        tags << tag;
        const auto opened = sealer.open(asBytes("id"), *sealed);
        QVERIFY(opened.ok());
        QCOMPARE(test::toHex(*opened), test::toHex(plaintext));
    }
}

void TestRecordSealer::oneRandomCallPerSeal()
{
    test::SeededRandom seeded(test::testSeed());
    RecordSealer sealer = makeSealer(randomBytes(seeded, 32));
    for (const std::size_t length : {0, 1, 49, 1000}) {
        CountingRandom counting(seeded);
        const auto sealed = sealer.seal({}, randomBytes(seeded, length), counting);
        QVERIFY(sealed.ok());
        QCOMPARE(counting.calls(), 1);
    }
    // The one call asks for exactly the IV, and the IV is what it returned.
    FixedRandom fixed(Bytes(16, 0x5a));
    const auto sealed = sealer.seal({}, Bytes(3, 1), fixed);
    QVERIFY(sealed.ok());
    QCOMPARE(fixed.calls(), 1);
    QCOMPARE(fixed.requested(), std::size_t{16});
    QCOMPARE(test::toHex(ByteView(*sealed).first(16)), test::toHex(Bytes(16, 0x5a)));
}

void TestRecordSealer::rejectsBadMasterKey()
{
    for (const std::size_t size : {0, 1, 16, 24, 31, 33, 64}) {
        const auto sealer = RecordSealer::create(Bytes(size, 3));
        QVERIFY2(!sealer.ok(), qPrintable(QString::number(size)));
        QCOMPARE(sealer.error().code, RecordError::BadMasterKeySize);
        QVERIFY(!sealer.error().message.empty());
    }
}

QTEST_APPLESS_MAIN(TestRecordSealer)
#include "TestRecordSealer.moc"
