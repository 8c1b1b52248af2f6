// secp256k1 keys, the SubjectPublicKeyInfo parser and ECDH against both
// Wycheproof ECDH files, plus hand-made encodings and randomized agreement.
//
// Decisions on Wycheproof's "acceptable" cases (each row asserts one outcome):
//   CompressedPublic  accepted: a compressed SEC 1 point is a valid encoding.
//   InvalidAsn        rejected: the parser takes strict DER only, so an
//                     alternative BER encoding of the same key never parses.
//   UnnamedCurve      rejected: explicit curve parameters are refused, even
//                     when they describe secp256k1; only the OID names it.
#include "common/TestSupport.h"
#include "crypto/CryptoState.h"
#include "crypto/Secp256k1.h"

#include <QtTest>
#include <map>

using namespace watchword;
using namespace watchword::crypto;

Q_DECLARE_METATYPE(watchword::crypto::Secp256k1Error)

namespace {

// The group order n (SEC 2 section 2.4.1).
const QString groupOrder =
    QStringLiteral("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
// The generator G, uncompressed and compressed.
const QString generatorX =
    QStringLiteral("79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798");
const QString generatorY =
    QStringLiteral("483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8");

QByteArray fromHex(const QString& text)
{
    return QByteArray::fromHex(text.toLatin1());
}

// A Wycheproof private key as 32 big-endian bytes: the files drop leading
// zeros or add one (DER INTEGER style).
QByteArray scalar32(QByteArray bytes)
{
    while (bytes.size() > 32 && bytes.front() == '\0')
        bytes.remove(0, 1);
    if (bytes.size() > 32)
        qFatal("private key longer than 32 bytes in test data");
    return QByteArray(32 - bytes.size(), '\0') + bytes;
}

// Minimal DER tag-length-value, for building SubjectPublicKeyInfo variants.
QByteArray tlv(char tag, const QByteArray& content)
{
    QByteArray out(1, tag);
    const auto size = content.size();
    if (size < 0x80) {
        out.append(static_cast<char>(size));
    } else if (size < 0x100) {
        out.append('\x81').append(static_cast<char>(size));
    } else {
        out.append('\x82')
            .append(static_cast<char>(size >> 8))
            .append(static_cast<char>(size & 0xff));
    }
    return out + content;
}

const QByteArray idEcPublicKeyOid = tlv(0x06, fromHex(QStringLiteral("2a8648ce3d0201")));
const QByteArray secp256k1Oid = tlv(0x06, fromHex(QStringLiteral("2b8104000a")));

QByteArray spki(const QByteArray& algorithm, const QByteArray& point)
{
    return tlv(0x30, tlv(0x30, algorithm) + tlv(0x03, QByteArray(1, '\0') + point));
}

// The outcome this implementation decides for a Wycheproof case.
bool expectShared(const test::WycheproofCase& c, QString& decision)
{
    if (c.result == QLatin1String("valid")) {
        decision = QStringLiteral("valid");
        return true;
    }
    if (c.result == QLatin1String("invalid")) {
        decision = QStringLiteral("invalid");
        return false;
    }
    if (c.flags.contains(QLatin1String("CompressedPublic"))) {
        decision = QStringLiteral("acceptable CompressedPublic: accepted");
        return true;
    }
    if (c.flags.contains(QLatin1String("InvalidAsn"))) {
        decision = QStringLiteral("acceptable InvalidAsn: rejected");
        return false;
    }
    if (c.flags.contains(QLatin1String("UnnamedCurve"))) {
        decision = QStringLiteral("acceptable UnnamedCurve: rejected");
        return false;
    }
    qFatal("tc%d: acceptable case with flags %s has no decision", c.tcId,
           qPrintable(c.flags.join(QLatin1Char(','))));
}

} // namespace

class TestSecp256k1 : public QObject
{
    Q_OBJECT

private slots:
    void wycheproofSpki_data();
    void wycheproofSpki();
    void wycheproofWebCrypto_data();
    void wycheproofWebCrypto();
    void secretKeyValidation_data();
    void secretKeyValidation();
    void generateRetriesInvalidScalars();
    void sec1Encodings_data();
    void sec1Encodings();
    void spkiStrictness_data();
    void spkiStrictness();
    void publicKeyRoundTrip();
    void ecdhAgreesOnRandomKeys();
    void ecdhRefusesWhenCryptoIsDisabled();
    void bip340Vectors_data();
    void bip340Vectors();
    void schnorrSignsWithEitherParity();
    void schnorrRefusesWhenCryptoIsDisabled();
};

void TestSecp256k1::wycheproofSpki_data()
{
    QTest::addColumn<QByteArray>("publicDer");
    QTest::addColumn<QByteArray>("privateKey");
    QTest::addColumn<QString>("shared");
    QTest::addColumn<bool>("accepted");
    std::map<QString, int> decisions;
    for (const auto& c : test::wycheproofCases(QStringLiteral("ecdh_secp256k1_test.json"))) {
        QString decision;
        const bool accepted = expectShared(c, decision);
        ++decisions[decision];
        QTest::addRow("tc%d %s", c.tcId, qPrintable(c.flags.join(QLatin1Char(','))))
            << fromHex(c.test[QStringLiteral("public")].toString())
            << scalar32(fromHex(c.test[QStringLiteral("private")].toString()))
            << c.test[QStringLiteral("shared")].toString() << accepted;
    }
    // The decisions above, counted: a new version of the file must be looked at.
    QCOMPARE(decisions.size(), std::size_t{5});
    QCOMPARE(decisions[QStringLiteral("valid")], 473);
    QCOMPARE(decisions[QStringLiteral("invalid")], 49);
    QCOMPARE(decisions[QStringLiteral("acceptable CompressedPublic: accepted")], 1);
    QCOMPARE(decisions[QStringLiteral("acceptable InvalidAsn: rejected")], 222);
    QCOMPARE(decisions[QStringLiteral("acceptable UnnamedCurve: rejected")], 7);
}

void TestSecp256k1::wycheproofSpki()
{
    QFETCH(QByteArray, publicDer);
    QFETCH(QByteArray, privateKey);
    QFETCH(QString, shared);
    QFETCH(bool, accepted);
    const auto secretKey = SecretKey::fromBytes(test::view(privateKey));
    QVERIFY2(secretKey.ok(), "every Wycheproof private key is in [1, n-1]");
    const auto publicKey = PublicKey::fromSubjectPublicKeyInfo(test::view(publicDer));
    QCOMPARE(publicKey.ok(), accepted);
    if (!accepted) {
        QVERIFY(publicKey.error().code != Secp256k1Error::CryptoDisabled);
        QVERIFY(!publicKey.error().message.empty());
        return;
    }
    const auto secret = ecdh(*secretKey, *publicKey);
    QVERIFY(secret.ok());
    QCOMPARE(test::toHex(*secret), shared);
}

void TestSecp256k1::wycheproofWebCrypto_data()
{
    QTest::addColumn<QString>("curve");
    QTest::addColumn<QByteArray>("point");
    QTest::addColumn<QByteArray>("privateKey");
    QTest::addColumn<QString>("shared");
    QTest::addColumn<bool>("accepted");
    int valid = 0;
    int invalid = 0;
    const auto base64url = [](const QJsonValue& value) {
        return QByteArray::fromBase64(value.toString().toLatin1(), QByteArray::Base64UrlEncoding);
    };
    for (const auto& c :
         test::wycheproofCases(QStringLiteral("ecdh_secp256k1_webcrypto_test.json"))) {
        // This file has no acceptable cases; should one appear, decide it here.
        QVERIFY2(c.result != QLatin1String("acceptable"), qPrintable(QString::number(c.tcId)));
        const bool accepted = c.result == QLatin1String("valid");
        (accepted ? valid : invalid)++;
        const auto publicJwk = c.test[QStringLiteral("public")].toObject();
        const auto privateJwk = c.test[QStringLiteral("private")].toObject();
        // The raw SEC 1 point of the JWK (RFC 7518 section 6.2.1): 04 || x || y.
        const QByteArray point = QByteArray(1, '\x04') + base64url(publicJwk[QStringLiteral("x")]) +
                                 base64url(publicJwk[QStringLiteral("y")]);
        QTest::addRow("tc%d %s", c.tcId, qPrintable(c.flags.join(QLatin1Char(','))))
            << publicJwk[QStringLiteral("crv")].toString() << point
            << scalar32(base64url(privateJwk[QStringLiteral("d")]))
            << c.test[QStringLiteral("shared")].toString() << accepted;
    }
    QCOMPARE(valid, 473);
    QCOMPARE(invalid, 23);
}

void TestSecp256k1::wycheproofWebCrypto()
{
    QFETCH(QString, curve);
    QFETCH(QByteArray, point);
    QFETCH(QByteArray, privateKey);
    QFETCH(QString, shared);
    QFETCH(bool, accepted);
    const auto secretKey = SecretKey::fromBytes(test::view(privateKey));
    QVERIFY(secretKey.ok());
    // A JWK names its curve; a key for another one ("P-256", "P-384", ...) is
    // refused by that name, as any JWK importer must (RFC 8812 section 3.1
    // names secp256k1 "secp256k1"; WebCrypto and Wycheproof say "P-256K").
    // Tc 490 is such a case whose point happens to lie on secp256k1 too.
    if (curve != QLatin1String("P-256K")) {
        QVERIFY(!accepted);
        return;
    }
    const auto publicKey = PublicKey::fromSec1(test::view(point));
    QCOMPARE(publicKey.ok(), accepted);
    if (!accepted) {
        QCOMPARE(publicKey.error().code, Secp256k1Error::InvalidPublicKey);
        return;
    }
    const auto secret = ecdh(*secretKey, *publicKey);
    QVERIFY(secret.ok());
    QCOMPARE(test::toHex(*secret), shared);
}

void TestSecp256k1::secretKeyValidation_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<bool>("valid");
    const QByteArray order = fromHex(groupOrder);
    QByteArray orderMinusOne = order;
    orderMinusOne[31] = static_cast<char>(orderMinusOne[31] - 1);
    QByteArray orderPlusOne = order;
    orderPlusOne[31] = static_cast<char>(orderPlusOne[31] + 1);
    QTest::newRow("one") << QByteArray(31, '\0') + QByteArray(1, '\x01') << true;
    QTest::newRow("n - 1") << orderMinusOne << true;
    QTest::newRow("zero") << QByteArray(32, '\0') << false;
    QTest::newRow("n") << order << false;
    QTest::newRow("n + 1") << orderPlusOne << false;
    QTest::newRow("2^256 - 1") << QByteArray(32, '\xff') << false;
    QTest::newRow("31 bytes") << QByteArray(31, '\x01') << false;
    QTest::newRow("33 bytes") << QByteArray(33, '\x01') << false;
    QTest::newRow("empty") << QByteArray() << false;
}

void TestSecp256k1::secretKeyValidation()
{
    QFETCH(QByteArray, bytes);
    QFETCH(bool, valid);
    const auto fromView = SecretKey::fromBytes(test::view(bytes));
    QCOMPARE(fromView.ok(), valid);
    const auto fromBuffer = SecretKey::fromBytes(SecureBuffer(test::view(bytes)));
    QCOMPARE(fromBuffer.ok(), valid);
    if (valid) {
        QCOMPARE(test::toHex(fromView->bytes()), test::toHex(test::view(bytes)));
        QCOMPARE(test::toHex(fromBuffer->bytes()), test::toHex(test::view(bytes)));
    } else {
        QCOMPARE(fromView.error().code, Secp256k1Error::InvalidSecretKey);
        QCOMPARE(fromBuffer.error().code, Secp256k1Error::InvalidSecretKey);
    }
}

void TestSecp256k1::generateRetriesInvalidScalars()
{
    // Zero, then n, then 2^256 - 1 are refused; the fourth draw (1) is taken.
    const QByteArray one = QByteArray(31, '\0') + QByteArray(1, '\x01');
    test::ScriptedRandom random(QByteArray(32, '\0') + fromHex(groupOrder) +
                                QByteArray(32, '\xff') + one);
    const auto key = SecretKey::generate(random);
    QCOMPARE(random.remaining(), std::size_t{0});
    QCOMPARE(test::toHex(key.bytes()), test::toHex(test::view(one)));
    // 1 * G = G.
    QCOMPARE(test::toHex(key.publicKey().compressed()), QStringLiteral("02") + generatorX);
    QCOMPARE(test::toHex(key.publicKey().uncompressed()),
             QStringLiteral("04") + generatorX + generatorY);
}

void TestSecp256k1::sec1Encodings_data()
{
    QTest::addColumn<QByteArray>("encoded");
    QTest::addColumn<bool>("valid");
    const QByteArray x = fromHex(generatorX);
    const QByteArray y = fromHex(generatorY); // even, so G compresses to 02
    const QByteArray p =
        fromHex(QStringLiteral("fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f"));
    QTest::newRow("compressed G") << QByteArray(1, '\x02') + x << true;
    QTest::newRow("compressed -G") << QByteArray(1, '\x03') + x << true;
    QTest::newRow("uncompressed G") << QByteArray(1, '\x04') + x + y << true;
    QTest::newRow("hybrid 06 G (X9.62, not SEC 1)") << QByteArray(1, '\x06') + x + y << false;
    QTest::newRow("hybrid 07 G") << QByteArray(1, '\x07') + x + y << false;
    QTest::newRow("04 prefix on 33 bytes") << QByteArray(1, '\x04') + x << false;
    QTest::newRow("02 prefix on 65 bytes") << QByteArray(1, '\x02') + x + y << false;
    QTest::newRow("00 prefix, infinity") << QByteArray(1, '\0') << false;
    QTest::newRow("x without prefix") << x << false;
    QTest::newRow("64 bytes, no prefix") << x + y << false;
    QTest::newRow("empty") << QByteArray() << false;
    QTest::newRow("x = p") << QByteArray(1, '\x02') + p << false;
    QTest::newRow("x = 0 (no such point)") << QByteArray(1, '\x02') + QByteArray(32, '\0') << false;
    QByteArray wrongY = y;
    wrongY[31] = static_cast<char>(wrongY[31] ^ 1);
    QTest::newRow("y off the curve") << QByteArray(1, '\x04') + x + wrongY << false;
}

void TestSecp256k1::sec1Encodings()
{
    QFETCH(QByteArray, encoded);
    QFETCH(bool, valid);
    const auto key = PublicKey::fromSec1(test::view(encoded));
    QCOMPARE(key.ok(), valid);
    if (valid) {
        // A valid encoding serializes back to itself in its own form.
        const auto again = encoded.size() == 33 ? test::toHex(key->compressed())
                                                : test::toHex(key->uncompressed());
        QCOMPARE(again, test::toHex(test::view(encoded)));
    } else {
        QCOMPARE(key.error().code, Secp256k1Error::InvalidPublicKey);
    }
}

void TestSecp256k1::spkiStrictness_data()
{
    QTest::addColumn<QByteArray>("der");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<Secp256k1Error>("error");
    const QByteArray point = fromHex(QStringLiteral("04") + generatorX + generatorY);
    const QByteArray compressedPoint = fromHex(QStringLiteral("02") + generatorX);
    const QByteArray algorithm = idEcPublicKeyOid + secp256k1Oid;
    const QByteArray canonical = spki(algorithm, point);
    QCOMPARE(canonical.toHex(),
             QByteArray("3056301006072a8648ce3d020106052b8104000a034200") + point.toHex());
    const auto ok = Secp256k1Error::CryptoDisabled; // unused for valid rows
    QTest::newRow("canonical, uncompressed") << canonical << true << ok;
    QTest::newRow("canonical, compressed") << spki(algorithm, compressedPoint) << true << ok;

    const auto malformed = Secp256k1Error::MalformedDer;
    QTest::newRow("trailing byte") << canonical + QByteArray(1, '\0') << false << malformed;
    QTest::newRow("truncated") << canonical.left(canonical.size() - 1) << false << malformed;
    QTest::newRow("empty") << QByteArray() << false << malformed;
    QTest::newRow("outer tag SET")
        << QByteArray(1, '\x31') + canonical.mid(1) << false << malformed;
    QTest::newRow("outer length long form 81 56")
        << QByteArray("\x30\x81\x56", 3) + canonical.mid(2) << false << malformed;
    QTest::newRow("outer length 82 00 56")
        << QByteArray("\x30\x82\x00\x56", 4) + canonical.mid(2) << false << malformed;
    QTest::newRow("indefinite length")
        << QByteArray("\x30\x80", 2) + canonical.mid(2) + QByteArray(2, '\0') << false << malformed;
    const QByteArray bitString = tlv(0x03, QByteArray(1, '\0') + point);
    QTest::newRow("BIT STRING length long form")
        << tlv(0x30, tlv(0x30, algorithm) + QByteArray("\x03\x81\x42", 3) + bitString.mid(2))
        << false << malformed;
    QTest::newRow("one unused bit")
        << tlv(0x30, tlv(0x30, algorithm) + tlv(0x03, QByteArray(1, '\x01') + point)) << false
        << malformed;
    QTest::newRow("empty BIT STRING")
        << tlv(0x30, tlv(0x30, algorithm) + tlv(0x03, {})) << false << malformed;
    QTest::newRow("OCTET STRING for BIT STRING")
        << tlv(0x30, tlv(0x30, algorithm) + tlv(0x04, QByteArray(1, '\0') + point)) << false
        << malformed;
    QTest::newRow("element after BIT STRING")
        << tlv(0x30, tlv(0x30, algorithm) + bitString + tlv(0x05, {})) << false << malformed;
    QTest::newRow("element after curve OID")
        << tlv(0x30, tlv(0x30, algorithm + tlv(0x05, {})) + bitString) << false << malformed;

    QTest::newRow("rsaEncryption")
        << spki(tlv(0x06, fromHex(QStringLiteral("2a864886f70d010101"))) + tlv(0x05, {}), point)
        << false << Secp256k1Error::UnsupportedAlgorithm;
    const auto curve = Secp256k1Error::UnsupportedCurve;
    QTest::newRow("prime256v1 OID with a secp256k1 point")
        << spki(idEcPublicKeyOid + tlv(0x06, fromHex(QStringLiteral("2a8648ce3d030107"))), point)
        << false << curve;
    QTest::newRow("NULL parameters")
        << spki(idEcPublicKeyOid + tlv(0x05, {}), point) << false << curve;
    QTest::newRow("absent parameters") << spki(idEcPublicKeyOid, point) << false << curve;
    QTest::newRow("explicit parameters")
        << spki(idEcPublicKeyOid + tlv(0x30, tlv(0x02, "\x01")), point) << false << curve;

    const auto invalidKey = Secp256k1Error::InvalidPublicKey;
    QByteArray hybrid = point;
    hybrid[0] = '\x06';
    QTest::newRow("hybrid point") << spki(algorithm, hybrid) << false << invalidKey;
    QByteArray offCurve = point;
    offCurve[64] = static_cast<char>(offCurve[64] ^ 1);
    QTest::newRow("point off the curve") << spki(algorithm, offCurve) << false << invalidKey;
}

void TestSecp256k1::spkiStrictness()
{
    QFETCH(QByteArray, der);
    QFETCH(bool, valid);
    QFETCH(Secp256k1Error, error);
    const auto key = PublicKey::fromSubjectPublicKeyInfo(test::view(der));
    QCOMPARE(key.ok(), valid);
    if (valid)
        QCOMPARE(test::toHex(key->compressed()), QStringLiteral("02") + generatorX);
    else
        QCOMPARE(key.error().code, error);
}

void TestSecp256k1::publicKeyRoundTrip()
{
    test::SeededRandom random(test::testSeed());
    for (int round = 0; round < 100; ++round) {
        const auto secretKey = SecretKey::generate(random);
        const PublicKey publicKey = secretKey.publicKey();
        const auto compressed = publicKey.compressed();
        const auto uncompressed = publicKey.uncompressed();
        QVERIFY(compressed[0] == 0x02 || compressed[0] == 0x03);
        QCOMPARE(uncompressed[0], std::uint8_t{0x04});
        // Same x; the compressed prefix is y's parity.
        QVERIFY(std::equal(compressed.begin() + 1, compressed.end(), uncompressed.begin() + 1));
        QCOMPARE(compressed[0], std::uint8_t(0x02 | (uncompressed[64] & 1)));

        const auto fromCompressed = PublicKey::fromSec1(compressed);
        const auto fromUncompressed = PublicKey::fromSec1(uncompressed);
        QVERIFY(fromCompressed.ok() && fromUncompressed.ok());
        QVERIFY(*fromCompressed == publicKey);
        QVERIFY(*fromUncompressed == publicKey);
        QCOMPARE(test::toHex(fromCompressed->uncompressed()), test::toHex(uncompressed));
        QCOMPARE(test::toHex(fromUncompressed->compressed()), test::toHex(compressed));

        const QByteArray algorithm = idEcPublicKeyOid + secp256k1Oid;
        const auto viaSpki = PublicKey::fromSubjectPublicKeyInfo(test::view(
            spki(algorithm, QByteArray(reinterpret_cast<const char*>(uncompressed.data()), 65))));
        QVERIFY(viaSpki.ok());
        QVERIFY(*viaSpki == publicKey);

        // Another key is another point.
        QVERIFY(!(SecretKey::generate(random).publicKey() == publicKey));
    }
}

void TestSecp256k1::ecdhAgreesOnRandomKeys()
{
    test::SeededRandom random(test::testSeed());
    for (int round = 0; round < 100; ++round) {
        const auto alice = SecretKey::generate(random);
        const auto bob = SecretKey::generate(random);
        const auto aliceShared = ecdh(alice, bob.publicKey());
        const auto bobShared = ecdh(bob, alice.publicKey());
        QVERIFY(aliceShared.ok() && bobShared.ok());
        QCOMPARE(aliceShared->size(), ecdhSecretSize);
        QCOMPARE(test::toHex(*aliceShared), test::toHex(*bobShared));
        // The span overload writes the same bytes.
        std::array<std::uint8_t, ecdhSecretSize> onStack{};
        QVERIFY(ecdh(alice, bob.publicKey(), onStack).ok());
        QCOMPARE(test::toHex(onStack), test::toHex(*aliceShared));
    }
    // The secret is the x-coordinate of a * B: with a = 1 it is B's x.
    const QByteArray one = QByteArray(31, '\0') + QByteArray(1, '\x01');
    const auto unit = SecretKey::fromBytes(test::view(one));
    const auto other = SecretKey::generate(random);
    const auto shared = ecdh(*unit, other.publicKey());
    QVERIFY(shared.ok());
    const auto compressed = other.publicKey().compressed();
    QCOMPARE(test::toHex(*shared), test::toHex(ByteView(compressed).subspan(1)));
}

void TestSecp256k1::ecdhRefusesWhenCryptoIsDisabled()
{
    test::SeededRandom random(test::testSeed());
    const auto alice = SecretKey::generate(random);
    const auto bob = SecretKey::generate(random).publicKey();
    disable(QStringLiteral("self-test failed: secp256k1 (simulated)").toStdString());
    const auto refused = ecdh(alice, bob);
    std::array<std::uint8_t, ecdhSecretSize> out{};
    const auto refusedSpan = ecdh(alice, bob, out);
    testing::reenable();
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().code, Secp256k1Error::CryptoDisabled);
    QVERIFY(refused.error().message.find("secp256k1 (simulated)") != std::string::npos);
    QVERIFY(!refusedSpan.ok());
    QCOMPARE(refusedSpan.error().code, Secp256k1Error::CryptoDisabled);
    QVERIFY(ecdh(alice, bob).ok());
}

// BIP-340's own test vectors (tests/data/bip340, copied as published):
// every row with a secret key is signed and must give the published
// signature; every row is verified against its x-only key lifted to the
// even-y point (BIP-340's lift_x), and a key that does not lift is a row
// that must not verify.
void TestSecp256k1::bip340Vectors_data()
{
    QTest::addColumn<QByteArray>("secretKey");
    QTest::addColumn<QByteArray>("publicX");
    QTest::addColumn<QByteArray>("aux");
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QByteArray>("signature");
    QTest::addColumn<bool>("valid");
    const auto csv = test::readBytes(test::dataPath(QStringLiteral("bip340/test-vectors.csv")));
    const auto lines = csv.split('\n');
    QCOMPARE(lines.first(),
             QByteArray("index,secret key,public key,aux_rand,message,signature,verification "
                        "result,comment"));
    int rows = 0;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        if (lines[i].isEmpty())
            continue;
        const auto cells = lines[i].split(',');
        QVERIFY(cells.size() >= 7);
        QTest::addRow("vector %s", cells[0].constData())
            << QByteArray::fromHex(cells[1]) << QByteArray::fromHex(cells[2])
            << QByteArray::fromHex(cells[3]) << QByteArray::fromHex(cells[4])
            << QByteArray::fromHex(cells[5]) << (cells[6] == "TRUE");
        ++rows;
    }
    QCOMPARE(rows, 15);
}

void TestSecp256k1::bip340Vectors()
{
    QFETCH(QByteArray, secretKey);
    QFETCH(QByteArray, publicX);
    QFETCH(QByteArray, aux);
    QFETCH(QByteArray, message);
    QFETCH(QByteArray, signature);
    QFETCH(bool, valid);
    QCOMPARE(message.size(), qsizetype{32});
    QCOMPARE(signature.size(), qsizetype{64});
    const auto messageView = std::span<const std::uint8_t, 32>(test::view(message).first<32>());
    SchnorrSignature expected;
    std::copy_n(test::view(signature).begin(), expected.size(), expected.begin());

    if (!secretKey.isEmpty()) {
        auto key = SecretKey::fromBytes(test::view(secretKey));
        QVERIFY(key.ok());
        QCOMPARE(test::toHex(key->publicKey().compressed()).mid(2),
                 QString::fromLatin1(publicX.toHex()));
        const auto made = schnorrSign(
            *key, messageView, std::span<const std::uint8_t, 32>(test::view(aux).first<32>()));
        QVERIFY(made.ok());
        QCOMPARE(test::toHex(*made), QString::fromLatin1(signature.toHex()));
    }

    auto lifted = PublicKey::fromSec1(test::view(QByteArray(1, '\x02') + publicX));
    if (!lifted) {
        QVERIFY(!valid);
        return;
    }
    const auto verified = schnorrVerify(*lifted, messageView, expected);
    QVERIFY(verified.ok());
    QCOMPARE(*verified, valid);
}

// A key whose point has an odd y signs as its negation (BIP-340); the
// signature verifies against either parity of the same x, and not against
// another key or another message.
void TestSecp256k1::schnorrSignsWithEitherParity()
{
    test::SeededRandom random(test::testSeed());
    int parities[2] = {0, 0};
    for (int round = 0; round < 16; ++round) {
        const auto key = SecretKey::generate(random);
        const auto point = key.publicKey();
        const auto compressed = point.compressed();
        ++parities[compressed[0] == 0x03 ? 1 : 0];
        std::array<std::uint8_t, 32> message{};
        std::array<std::uint8_t, 32> aux{};
        random.fill(message);
        random.fill(aux);
        const auto signature = schnorrSign(key, message, aux);
        QVERIFY(signature.ok());
        QCOMPARE(schnorrVerify(point, message, *signature).value(), true);
        auto flipped = compressed;
        flipped[0] ^= 0x01; // 02 <-> 03: the same x
        QCOMPARE(schnorrVerify(PublicKey::fromSec1(flipped).value(), message, *signature).value(),
                 true);
        const auto other = SecretKey::generate(random).publicKey();
        QCOMPARE(schnorrVerify(other, message, *signature).value(), false);
        message[round] ^= 0x80;
        QCOMPARE(schnorrVerify(point, message, *signature).value(), false);
    }
    // 16 draws with both parities: a chance of 2^-15 to fail on a good seed.
    QVERIFY(parities[0] > 0 && parities[1] > 0);
}

void TestSecp256k1::schnorrRefusesWhenCryptoIsDisabled()
{
    test::SeededRandom random(test::testSeed());
    const auto key = SecretKey::generate(random);
    const std::array<std::uint8_t, 32> message{};
    const auto signature = schnorrSign(key, message, message);
    QVERIFY(signature.ok());
    disable("self-test failed: secp256k1 (simulated)");
    const auto refusedSign = schnorrSign(key, message, message);
    const auto refusedVerify = schnorrVerify(key.publicKey(), message, *signature);
    testing::reenable();
    QVERIFY(!refusedSign.ok());
    QCOMPARE(refusedSign.error().code, Secp256k1Error::CryptoDisabled);
    QVERIFY(!refusedVerify.ok());
    QCOMPARE(refusedVerify.error().code, Secp256k1Error::CryptoDisabled);
}

QTEST_APPLESS_MAIN(TestSecp256k1)
#include "TestSecp256k1.moc"
