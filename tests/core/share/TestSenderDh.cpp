// The sender DH against tests/data/share/vectors.json (computed independently,
// see its README), sender/recipient agreement on random keys, the binding of
// both public keys, and the ephemeral keys a recipient must refuse.
#include "common/TestSupport.h"
#include "crypto/CryptoState.h"
#include "share/SenderDh.h"

#include <QtTest>

using namespace watchword;
using namespace watchword::share;
using crypto::PublicKey;
using crypto::SecretKey;

namespace {

SecretKey secretKey(const QByteArray& bytes)
{
    auto key = SecretKey::fromBytes(test::view(bytes));
    if (!key)
        qFatal("bad secret key in test data: %s", key.error().message.c_str());
    return std::move(key).value();
}

} // namespace

class TestSenderDh : public QObject
{
    Q_OBJECT

private slots:
    void independentVectors_data();
    void independentVectors();
    void senderAndRecipientAgree();
    void noteKeyIsBoundToBothPublicKeys();
    void recipientRefusesBadEphemeralKeys_data();
    void recipientRefusesBadEphemeralKeys();
    void refusesWhenCryptoIsDisabled();
};

void TestSenderDh::independentVectors_data()
{
    QTest::addColumn<QByteArray>("recipientSecret");
    QTest::addColumn<QString>("recipientPublic");
    QTest::addColumn<QByteArray>("ephemeralSecret");
    QTest::addColumn<QString>("ephemeralPublic");
    QTest::addColumn<QString>("sharedX");
    QTest::addColumn<QString>("noteKey");
    const auto root = test::loadJson(QStringLiteral("share/vectors.json"));
    QCOMPARE(root[QStringLiteral("info")].toString().toStdString(), std::string(noteKeyLabel));
    int rows = 0;
    for (const auto value : root[QStringLiteral("vectors")].toArray()) {
        const auto v = value.toObject();
        const auto field = [&](const char* name) {
            return v[QLatin1String(name)].toString();
        };
        QTest::addRow("vector %d", ++rows)
            << QByteArray::fromHex(field("recipient_secret_key").toLatin1())
            << field("recipient_public_key")
            << QByteArray::fromHex(field("ephemeral_secret_key").toLatin1())
            << field("ephemeral_public_key") << field("shared_x") << field("note_key");
    }
    QCOMPARE(rows, 4);
}

void TestSenderDh::independentVectors()
{
    QFETCH(QByteArray, recipientSecret);
    QFETCH(QString, recipientPublic);
    QFETCH(QByteArray, ephemeralSecret);
    QFETCH(QString, ephemeralPublic);
    QFETCH(QString, sharedX);
    QFETCH(QString, noteKey);

    const SecretKey recipient = secretKey(recipientSecret);
    const PublicKey recipientKey = recipient.publicKey();
    QCOMPARE(test::toHex(recipientKey.compressed()), recipientPublic);
    const auto shared = crypto::ecdh(secretKey(ephemeralSecret), recipientKey);
    QVERIFY(shared.ok());
    QCOMPARE(test::toHex(*shared), sharedX);

    // The sender draws exactly the scripted ephemeral secret.
    test::ScriptedRandom random(ephemeralSecret);
    const auto sent = senderNoteKey(random, recipientKey);
    QVERIFY(sent.ok());
    QCOMPARE(random.remaining(), std::size_t{0});
    QCOMPARE(test::toHex(sent->ephemeralPublicKey), ephemeralPublic);
    QCOMPARE(sent->noteKey.size(), noteKeySize);
    QCOMPARE(test::toHex(sent->noteKey), noteKey);

    const auto received = recipientNoteKey(recipient, recipientKey, sent->ephemeralPublicKey);
    QVERIFY(received.ok());
    QCOMPARE(test::toHex(*received), noteKey);
}

void TestSenderDh::senderAndRecipientAgree()
{
    test::SeededRandom random(test::testSeed());
    for (int round = 0; round < 100; ++round) {
        const auto recipient = SecretKey::generate(random);
        const auto recipientKey = recipient.publicKey();
        const auto first = senderNoteKey(random, recipientKey);
        const auto second = senderNoteKey(random, recipientKey);
        QVERIFY(first.ok() && second.ok());
        const auto received = recipientNoteKey(recipient, recipientKey, first->ephemeralPublicKey);
        QVERIFY(received.ok());
        QCOMPARE(test::toHex(*received), test::toHex(first->noteKey));
        // Every note gets its own ephemeral key and so its own note key.
        QVERIFY(first->ephemeralPublicKey != second->ephemeralPublicKey);
        QVERIFY(test::toHex(first->noteKey) != test::toHex(second->noteKey));
    }
}

void TestSenderDh::noteKeyIsBoundToBothPublicKeys()
{
    test::SeededRandom random(test::testSeed());
    const auto recipient = SecretKey::generate(random);
    const auto recipientKey = recipient.publicKey();
    const auto sent = senderNoteKey(random, recipientKey);
    QVERIFY(sent.ok());

    // The negated ephemeral point (prefix 02 <-> 03) has the same ECDH x, but
    // the salt differs, so the key does too.
    auto flipped = sent->ephemeralPublicKey;
    flipped[0] ^= 0x01;
    const auto fromFlipped = recipientNoteKey(recipient, recipientKey, flipped);
    QVERIFY(fromFlipped.ok());
    QVERIFY(test::toHex(*fromFlipped) != test::toHex(sent->noteKey));

    // Another recipient derives something else.
    const auto stranger = SecretKey::generate(random);
    const auto strangers =
        recipientNoteKey(stranger, stranger.publicKey(), sent->ephemeralPublicKey);
    QVERIFY(strangers.ok());
    QVERIFY(test::toHex(*strangers) != test::toHex(sent->noteKey));

    // The right secret with another public key in the salt derives something else.
    const auto mismatched =
        recipientNoteKey(recipient, stranger.publicKey(), sent->ephemeralPublicKey);
    QVERIFY(mismatched.ok());
    QVERIFY(test::toHex(*mismatched) != test::toHex(sent->noteKey));
}

void TestSenderDh::recipientRefusesBadEphemeralKeys_data()
{
    QTest::addColumn<QByteArray>("ephemeral");
    const QByteArray x =
        QByteArray::fromHex("79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798");
    const QByteArray y =
        QByteArray::fromHex("483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8");
    QTest::newRow("uncompressed G (65 bytes)") << QByteArray(1, '\x04') + x + y;
    QTest::newRow("prefix 04 on 33 bytes") << QByteArray(1, '\x04') + x;
    QTest::newRow("prefix 00") << QByteArray(1, '\0') + x;
    QTest::newRow("x = 0, not on the curve") << QByteArray(1, '\x02') + QByteArray(32, '\0');
    QTest::newRow("x = p")
        << QByteArray(1, '\x02') +
               QByteArray::fromHex(
                   "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f");
    QTest::newRow("32 bytes") << x;
    QTest::newRow("34 bytes") << QByteArray(1, '\x02') + x + QByteArray(1, '\0');
    QTest::newRow("empty") << QByteArray();
}

void TestSenderDh::recipientRefusesBadEphemeralKeys()
{
    QFETCH(QByteArray, ephemeral);
    test::SeededRandom random(test::testSeed());
    const auto recipient = SecretKey::generate(random);
    const auto received = recipientNoteKey(recipient, recipient.publicKey(), test::view(ephemeral));
    QVERIFY(!received.ok());
    QCOMPARE(received.error().code, ShareError::InvalidEphemeralKey);
    QVERIFY(received.error().message.find("ephemeral") != std::string::npos);
}

void TestSenderDh::refusesWhenCryptoIsDisabled()
{
    test::SeededRandom random(test::testSeed());
    const auto recipient = SecretKey::generate(random);
    const auto recipientKey = recipient.publicKey();
    const auto sent = senderNoteKey(random, recipientKey);
    QVERIFY(sent.ok());
    crypto::disable("self-test failed: ECDH (simulated)");
    const auto refusedSend = senderNoteKey(random, recipientKey);
    const auto refusedReceive = recipientNoteKey(recipient, recipientKey, sent->ephemeralPublicKey);
    crypto::testing::reenable();
    QVERIFY(!refusedSend.ok() && !refusedReceive.ok());
    QCOMPARE(refusedSend.error().code, ShareError::CryptoDisabled);
    QCOMPARE(refusedReceive.error().code, ShareError::CryptoDisabled);
    QVERIFY(refusedSend.error().message.find("ECDH (simulated)") != std::string::npos);
    QVERIFY(recipientNoteKey(recipient, recipientKey, sent->ephemeralPublicKey).ok());
}

QTEST_APPLESS_MAIN(TestSenderDh)
#include "TestSenderDh.moc"
