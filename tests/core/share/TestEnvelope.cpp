// Share envelopes (docs/FORMAT.md section 12): the independent vectors of
// tests/data/share/envelope_vectors.json byte for byte, each refusal of
// section 12.4 in its order, every bit flip and truncation, the recipient
// list bound in, a sender that did not sign, and the text carriers.
#include "common/TestSupport.h"
#include "crypto/CryptoState.h"
#include "crypto/Hash.h"
#include "share/Envelope.h"

#include <QJsonArray>
#include <QtTest>

using namespace watchword;
using namespace watchword::share;
using crypto::PublicKey;
using crypto::SecretKey;

Q_DECLARE_METATYPE(watchword::share::EnvelopeError)

namespace {

keychain::KeyPair keyPair(const SecretKey& secret)
{
    auto copy = SecretKey::fromBytes(secret.bytes());
    return {std::move(copy).value(), secret.publicKey()};
}

keychain::KeyPair keyPairFromHex(const QString& hex)
{
    auto key = SecretKey::fromBytes(test::hex(hex));
    if (!key)
        qFatal("bad secret key in test data: %s", key.error().message.c_str());
    return keyPair(*key);
}

keychain::KeyPair randomKeyPair(crypto::RandomSource& random)
{
    return keyPair(SecretKey::generate(random));
}

SharedRecord sharedRecord(std::uint8_t kind, ByteView fields)
{
    return {kind, SecureBuffer(fields)};
}

QString hexOf(const SecureBuffer& bytes)
{
    return test::toHex(bytes.span());
}

// A note's fields (section 6.4), enough for envelopes that carry one.
SecureBuffer noteFields(std::string_view title, std::string_view body)
{
    Bytes out;
    const auto field = [&](std::uint8_t tag, ByteView value) {
        out.push_back(tag);
        for (int shift = 24; shift >= 0; shift -= 8)
            out.push_back(static_cast<std::uint8_t>(value.size() >> shift));
        out.insert(out.end(), value.begin(), value.end());
    };
    const std::array<std::uint8_t, 8> time{0, 0, 0, 0, 0x69, 0x55, 0xb9, 0x00};
    const std::array<std::uint8_t, 4> position{};
    field(0x0c, time);
    field(0x0d, time);
    field(0x0f, position);
    field(0x21, asBytes(title));
    field(0x22, asBytes(body));
    return SecureBuffer(ByteView(out));
}

Bytes sealTo(crypto::RandomSource& random, const keychain::KeyPair& sender,
             std::initializer_list<const keychain::KeyPair*> recipients)
{
    std::vector<PublicKey> keys;
    for (const auto* recipient : recipients)
        keys.push_back(recipient->publicKey);
    std::vector<SharedRecord> records;
    records.push_back(
        sharedRecord(sharedNoteKind, noteFields("Door code", "4711 then the bell twice")));
    auto sealed = sealEnvelope(random, sender, keys, records, 1767225600);
    if (!sealed)
        qFatal("sealing failed: %s", sealed.error().message.c_str());
    return std::move(*sealed);
}

EnvelopeError errorNamed(const QString& name)
{
    static const std::map<QString, EnvelopeError> names{
        {QStringLiteral("TooLarge"), EnvelopeError::TooLarge},
        {QStringLiteral("NotAnEnvelope"), EnvelopeError::NotAnEnvelope},
        {QStringLiteral("UnsupportedVersion"), EnvelopeError::UnsupportedVersion},
        {QStringLiteral("Malformed"), EnvelopeError::Malformed},
        {QStringLiteral("NotForMe"), EnvelopeError::NotForMe},
        {QStringLiteral("Tampered"), EnvelopeError::Tampered},
        {QStringLiteral("ForgedSender"), EnvelopeError::ForgedSender},
    };
    const auto found = names.find(name);
    if (found == names.end())
        qFatal("unknown outcome in test data: %s", qPrintable(name));
    return found->second;
}

// Four people with keys from the test's seed: alice sends, bob and carol
// receive, mallory attacks.
struct People
{
    test::SeededRandom random{test::testSeed()};
    keychain::KeyPair alice = randomKeyPair(random);
    keychain::KeyPair bob = randomKeyPair(random);
    keychain::KeyPair carol = randomKeyPair(random);
    keychain::KeyPair mallory = randomKeyPair(random);
};

// The size field of a one-recipient envelope, 12.1.
constexpr std::size_t lengthAt(std::size_t recipients)
{
    return 66 + recipientEntrySize * recipients + 12;
}

} // namespace

class TestEnvelope : public QObject
{
    Q_OBJECT

private slots:
    void independentVectors_data();
    void independentVectors();
    void independentTamperCases_data();
    void independentTamperCases();
    void independentOtherCases_data();
    void independentOtherCases();
    void independentCarrierCases_data();
    void independentCarrierCases();
    void independentMalformedPayloads_data();
    void independentMalformedPayloads();
    void everyRecipientOpensAndNobodyElse();
    void everyBitFlipIsRefused();
    void everyTruncationIsRefused();
    void swappedRecipientEntriesAreTampered();
    void senderWhoDidNotSignIsForged();
    void resignedByAnotherKeyIsForged();
    void refusalsInOrder();
    void sealingRefusesBadContents();
    void textCarriers();
    void qrTextHasALimit();
    void refusesWhenCryptoIsDisabled();
};

void TestEnvelope::independentVectors_data()
{
    QTest::addColumn<QJsonObject>("vector");
    const auto root = test::loadJson(QStringLiteral("share/envelope_vectors.json"));
    int rows = 0;
    for (const auto value : root[QStringLiteral("vectors")].toArray()) {
        const auto v = value.toObject();
        QTest::addRow("%s", qPrintable(v[QStringLiteral("name")].toString(
                                QStringLiteral("vector %1").arg(rows + 1))))
            << v;
        ++rows;
    }
    QVERIFY(rows >= 3);
}

// The sealer, given the vector's random bytes in the order Envelope.h names,
// writes the vector's envelope byte for byte; every recipient opens it to the
// vector's records; the carriers give the vector's texts.
void TestEnvelope::independentVectors()
{
    QFETCH(QJsonObject, vector);
    const auto text = [&](const QJsonObject& object, const char* name) {
        return object[QLatin1String(name)].toString();
    };
    const auto sender = keyPairFromHex(text(vector, "sender_secret_key"));
    QCOMPARE(test::toHex(sender.publicKey.compressed()), text(vector, "sender_public_key"));

    QByteArray scripted = QByteArray::fromHex(text(vector, "envelope_id").toLatin1()) +
                          QByteArray::fromHex(text(vector, "content_key").toLatin1());
    std::vector<PublicKey> recipientKeys;
    std::vector<keychain::KeyPair> recipients;
    for (const auto value : vector[QStringLiteral("recipients")].toArray()) {
        const auto r = value.toObject();
        recipients.push_back(keyPairFromHex(text(r, "secret_key")));
        QCOMPARE(test::toHex(recipients.back().publicKey.compressed()), text(r, "public_key"));
        recipientKeys.push_back(recipients.back().publicKey);
        scripted += QByteArray::fromHex(text(r, "ephemeral_secret_key").toLatin1());
    }
    scripted += QByteArray::fromHex(text(vector, "payload_nonce").toLatin1()) +
                QByteArray::fromHex(text(vector, "aux_rand").toLatin1());
    std::vector<SharedRecord> records;
    for (const auto value : vector[QStringLiteral("records")].toArray()) {
        const auto r = value.toObject();
        records.push_back(sharedRecord(static_cast<std::uint8_t>(r[QStringLiteral("kind")].toInt()),
                                       test::hex(text(r, "fields_hex"))));
    }

    test::ScriptedRandom random(scripted);
    const auto created = static_cast<std::int64_t>(vector[QStringLiteral("created")].toDouble());
    const auto sealed = sealEnvelope(random, sender, recipientKeys, records, created);
    QVERIFY2(sealed.ok(), sealed.ok() ? "" : sealed.error().message.c_str());
    QCOMPARE(random.remaining(), std::size_t{0});
    QCOMPARE(test::toHex(*sealed), text(vector, "envelope"));

    for (const auto& recipient : recipients) {
        const auto opened = openEnvelope(*sealed, recipient);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        QCOMPARE(test::toHex(opened->sender), text(vector, "sender_public_key"));
        QCOMPARE(test::toHex(opened->id), text(vector, "envelope_id"));
        QCOMPARE(opened->created, created);
        QCOMPARE(opened->recipients.size(), recipients.size());
        QCOMPARE(opened->records.size(), records.size());
        for (std::size_t i = 0; i < records.size(); ++i) {
            QCOMPARE(opened->records[i].kind, records[i].kind);
            QCOMPARE(hexOf(opened->records[i].fields), hexOf(records[i].fields));
        }
    }

    QCOMPARE(QString::fromStdString(armourEnvelope(*sealed)), text(vector, "armoured"));
    const auto qr = envelopeQrText(*sealed);
    QVERIFY(qr.ok());
    QCOMPARE(QString::fromStdString(*qr), text(vector, "qr_text"));
    for (const auto& carried : {armourEnvelope(*sealed), *qr}) {
        const auto back = envelopeFromText(carried);
        QVERIFY(back.ok());
        QCOMPARE(*back, *sealed);
    }
}

void TestEnvelope::independentTamperCases_data()
{
    QTest::addColumn<QString>("envelope");
    QTest::addColumn<QString>("recipientSecret");
    QTest::addColumn<int>("offset");
    QTest::addColumn<int>("bit");
    QTest::addColumn<QString>("expected");
    const auto root = test::loadJson(QStringLiteral("share/envelope_vectors.json"));
    int rows = 0;
    for (const auto value : root[QStringLiteral("vectors")].toArray()) {
        const auto v = value.toObject();
        const auto cases = v[QStringLiteral("tamper_cases")].toArray();
        if (cases.isEmpty())
            continue;
        const auto recipients = v[QStringLiteral("recipients")].toArray();
        for (const auto c : cases) {
            const auto t = c.toObject();
            const int offset = t[QStringLiteral("offset")].toInt();
            const int bit = t[QStringLiteral("bit")].toInt();
            const auto reader = recipients[t[QStringLiteral("opened_by_recipient")].toInt()]
                                    .toObject()[QStringLiteral("secret_key")]
                                    .toString();
            QTest::addRow("%s offset %d bit %d", qPrintable(v[QStringLiteral("name")].toString()),
                          offset, bit)
                << v[QStringLiteral("envelope")].toString() << reader << offset << bit
                << t[QStringLiteral("expected")].toString();
            ++rows;
        }
    }
    QVERIFY(rows >= 10);
}

// The outcome the independent reader gives each flipped bit is the one
// section 12.4 names, and this reader's too.
void TestEnvelope::independentTamperCases()
{
    QFETCH(QString, envelope);
    QFETCH(QString, recipientSecret);
    QFETCH(int, offset);
    QFETCH(int, bit);
    QFETCH(QString, expected);
    auto bytes = test::hex(envelope);
    QVERIFY(offset >= 0 && static_cast<std::size_t>(offset) < bytes.size());
    bytes[offset] ^= static_cast<std::uint8_t>(1u << bit);
    const auto opened = openEnvelope(bytes, keyPairFromHex(recipientSecret));
    QVERIFY(!opened.ok());
    QCOMPARE(opened.error().code, errorNamed(expected));
}

namespace {

QJsonObject firstVector()
{
    return test::loadJson(QStringLiteral("share/envelope_vectors.json"))[QStringLiteral("vectors")]
        .toArray()
        .first()
        .toObject();
}

QString firstRecipientSecret(const QJsonObject& vector)
{
    return vector[QStringLiteral("recipients")]
        .toArray()
        .first()
        .toObject()[QStringLiteral("secret_key")]
        .toString();
}

} // namespace

void TestEnvelope::independentOtherCases_data()
{
    QTest::addColumn<QByteArray>("envelope");
    QTest::addColumn<QString>("readerSecret");
    QTest::addColumn<QString>("expected");
    const auto v = firstVector();
    const auto original = QByteArray::fromHex(v[QStringLiteral("envelope")].toString().toLatin1());
    for (const auto value : v[QStringLiteral("other_cases")].toArray()) {
        const auto c = value.toObject();
        QByteArray bytes;
        if (c.contains(QStringLiteral("envelope"))) {
            bytes = QByteArray::fromHex(c[QStringLiteral("envelope")].toString().toLatin1());
        } else {
            // "envelope || zero bytes, N bytes"
            const auto construct = c[QStringLiteral("construct")].toString();
            const auto size = construct.section(QLatin1Char(' '), -2, -2).toLongLong();
            QVERIFY(construct.startsWith(QLatin1String("envelope || zero bytes")) && size > 0);
            bytes = original + QByteArray(size - original.size(), '\0');
        }
        const bool outsider =
            c[QStringLiteral("opened_with")].toString() == QLatin1String("outsider");
        QTest::addRow("%s", qPrintable(c[QStringLiteral("description")].toString()))
            << bytes
            << (outsider ? v[QStringLiteral("outsider_secret_key")].toString()
                         : firstRecipientSecret(v))
            << c[QStringLiteral("expected")].toString();
    }
}

void TestEnvelope::independentOtherCases()
{
    QFETCH(QByteArray, envelope);
    QFETCH(QString, readerSecret);
    QFETCH(QString, expected);
    const auto opened = openEnvelope(test::view(envelope), keyPairFromHex(readerSecret));
    QVERIFY(!opened.ok());
    QCOMPARE(opened.error().code, errorNamed(expected));
}

void TestEnvelope::independentCarrierCases_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<QString>("envelope");
    const auto v = firstVector();
    for (const auto value : v[QStringLiteral("carrier_cases")].toArray()) {
        const auto c = value.toObject();
        QTest::addRow("%s (%s)", qPrintable(c[QStringLiteral("description")].toString()),
                      qPrintable(c[QStringLiteral("reader")].toString()))
            << c[QStringLiteral("text")].toString() << c[QStringLiteral("expected")].toString()
            << v[QStringLiteral("envelope")].toString();
    }
}

// One reader serves pasted text and QR codes alike: it takes either form.
void TestEnvelope::independentCarrierCases()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QFETCH(QString, envelope);
    const auto read = envelopeFromText(text.toStdString());
    if (expected == QLatin1String("envelope")) {
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().message.c_str());
        QCOMPARE(test::toHex(*read), envelope);
    } else {
        QVERIFY(!read.ok());
        QCOMPARE(read.error().code, errorNamed(expected));
    }
}

void TestEnvelope::independentMalformedPayloads_data()
{
    QTest::addColumn<QString>("envelope");
    QTest::addColumn<QString>("readerSecret");
    QTest::addColumn<bool>("fieldsOnly");
    const auto v = firstVector();
    for (const auto value : v[QStringLiteral("malformed_payload_cases")].toArray()) {
        const auto c = value.toObject();
        const auto description = c[QStringLiteral("description")].toString();
        QCOMPARE(c[QStringLiteral("expected")].toString(), QStringLiteral("Malformed"));
        QTest::addRow("%s", qPrintable(description))
            << c[QStringLiteral("envelope")].toString() << firstRecipientSecret(v)
            << description.endsWith(QLatin1String("section 6.4"));
    }
}

// Sealed and signed properly around a plaintext that is not a record list:
// step 9. Broken section 6.4 fields inside a sound list are opaque here;
// the vault refuses them when it decodes the records (TestExchange).
void TestEnvelope::independentMalformedPayloads()
{
    QFETCH(QString, envelope);
    QFETCH(QString, readerSecret);
    QFETCH(bool, fieldsOnly);
    const auto opened = openEnvelope(test::hex(envelope), keyPairFromHex(readerSecret));
    if (fieldsOnly) {
        QVERIFY(opened.ok());
        return;
    }
    QVERIFY(!opened.ok());
    QCOMPARE(opened.error().code, EnvelopeError::Malformed);
}

void TestEnvelope::everyRecipientOpensAndNobodyElse()
{
    People people;
    auto& [random, alice, bob, carol, mallory] = people;
    const auto sealed = sealTo(random, alice, {&bob, &carol});
    for (const auto* reader : {&bob, &carol}) {
        const auto opened = openEnvelope(sealed, *reader);
        QVERIFY(opened.ok());
        QCOMPARE(opened->sender, alice.publicKey.compressed());
        QCOMPARE(opened->recipients.size(), std::size_t{2});
        QCOMPARE(opened->records.front().fields.view(),
                 noteFields("Door code", "4711 then the bell twice").view());
    }
    // Neither the sender (no self in the list) nor anyone else.
    for (const auto* reader : {&alice, &mallory}) {
        const auto refused = openEnvelope(sealed, *reader);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, EnvelopeError::NotForMe);
        QVERIFY(refused.error().message.find("2 other people") != std::string::npos);
    }
    // Bob's key pair with Carol's public key in it: his entry is not hers.
    const keychain::KeyPair mixed{SecretKey::fromBytes(bob.secretKey.bytes()).value(),
                                  carol.publicKey};
    const auto wrongKey = openEnvelope(sealed, mixed);
    QVERIFY(!wrongKey.ok());
    QCOMPARE(wrongKey.error().code, EnvelopeError::Tampered);
}

// No bit of an envelope can change without a refusal, and a change in
// the content or the header never opens as something else.
void TestEnvelope::everyBitFlipIsRefused()
{
    People people;
    auto& [random, alice, bob, carol, mallory] = people;
    const auto sealed = sealTo(random, alice, {&bob});
    std::map<EnvelopeError, int> outcomes;
    for (std::size_t i = 0; i < sealed.size(); ++i)
        for (int bit = 0; bit < 8; ++bit) {
            auto changed = sealed;
            changed[i] ^= static_cast<std::uint8_t>(1u << bit);
            const auto opened = openEnvelope(changed, bob);
            if (opened.ok())
                QFAIL(qPrintable(QStringLiteral("byte %1 bit %2 opened").arg(i).arg(bit)));
            ++outcomes[opened.error().code];
        }
    // Signature bits are forgeries; content and header bits are tampering;
    // the magic and the count are structure.
    QCOMPARE(outcomes[EnvelopeError::ForgedSender], 64 * 8);
    QVERIFY(outcomes[EnvelopeError::Tampered] > 0);
    QVERIFY(outcomes[EnvelopeError::NotAnEnvelope] == 7 * 8);
    QVERIFY(outcomes[EnvelopeError::UnsupportedVersion] == 8);
}

void TestEnvelope::everyTruncationIsRefused()
{
    People people;
    auto& [random, alice, bob, carol, mallory] = people;
    const auto sealed = sealTo(random, alice, {&bob});
    for (std::size_t size = 0; size < sealed.size(); ++size) {
        const auto opened = openEnvelope(ByteView(sealed).first(size), bob);
        QVERIFY(!opened.ok());
        QVERIFY2(size < 8 ? opened.error().code == EnvelopeError::NotAnEnvelope
                          : opened.error().code == EnvelopeError::Malformed,
                 qPrintable(QStringLiteral("%1 bytes: %2")
                                .arg(size)
                                .arg(QString::fromStdString(opened.error().message))));
    }
    auto longer = sealed;
    longer.push_back(0);
    const auto opened = openEnvelope(longer, bob);
    QVERIFY(!opened.ok());
    QCOMPARE(opened.error().code, EnvelopeError::Malformed);
}

// The recipient list is in the payload's associated data: swapping two
// entries leaves each wrapped key intact and fails the content.
void TestEnvelope::swappedRecipientEntriesAreTampered()
{
    People people;
    auto& [random, alice, bob, carol, mallory] = people;
    const auto sealed = sealTo(random, alice, {&bob, &carol});
    auto swapped = sealed;
    std::swap_ranges(swapped.begin() + 66, swapped.begin() + 66 + recipientEntrySize,
                     swapped.begin() + 66 + recipientEntrySize);
    for (const auto* reader : {&bob, &carol}) {
        const auto opened = openEnvelope(swapped, *reader);
        QVERIFY(!opened.ok());
        QCOMPARE(opened.error().code, EnvelopeError::Tampered);
    }
    // Dropping Carol's entry (and fixing the count) fails for Bob too.
    Bytes dropped(sealed.begin(), sealed.begin() + 66 + recipientEntrySize);
    dropped[65] = 1;
    dropped.insert(dropped.end(), sealed.begin() + 66 + 2 * recipientEntrySize, sealed.end());
    const auto opened = openEnvelope(dropped, bob);
    QVERIFY(!opened.ok());
    QCOMPARE(opened.error().code, EnvelopeError::Tampered);
}

// Mallory seals in Alice's name: she knows K (she made it), so the content
// opens, but the signature is hers, not Alice's.
void TestEnvelope::senderWhoDidNotSignIsForged()
{
    People people;
    auto& [random, alice, bob, carol, mallory] = people;
    const keychain::KeyPair posing{SecretKey::fromBytes(mallory.secretKey.bytes()).value(),
                                   alice.publicKey};
    const auto forged = sealTo(random, posing, {&bob});
    const auto opened = openEnvelope(forged, bob);
    QVERIFY(!opened.ok());
    QCOMPARE(opened.error().code, EnvelopeError::ForgedSender);
}

// A signature over the same bytes by another key, in place of Alice's.
void TestEnvelope::resignedByAnotherKeyIsForged()
{
    People people;
    auto& [random, alice, bob, carol, mallory] = people;
    auto sealed = sealTo(random, alice, {&bob});
    Bytes message(envelopeSignatureLabel.begin(), envelopeSignatureLabel.end());
    message.insert(message.end(), sealed.begin(), sealed.end() - envelopeSignatureSize);
    const auto digest = crypto::sha256(message);
    std::array<std::uint8_t, 32> aux{};
    const auto signature = crypto::schnorrSign(mallory.secretKey, digest, aux);
    QVERIFY(signature.ok());
    std::copy(signature->begin(), signature->end(), sealed.end() - envelopeSignatureSize);
    const auto opened = openEnvelope(sealed, bob);
    QVERIFY(!opened.ok());
    QCOMPARE(opened.error().code, EnvelopeError::ForgedSender);
}

// Section 12.4's steps, each with an envelope that fails it alone.
void TestEnvelope::refusalsInOrder()
{
    People people;
    auto& [random, alice, bob, carol, mallory] = people;
    const auto sealed = sealTo(random, alice, {&bob});
    const auto refusal = [&](const Bytes& bytes) {
        const auto opened = openEnvelope(bytes, bob);
        return opened.ok() ? std::optional<EnvelopeError>{} : opened.error().code;
    };

    QCOMPARE(refusal(Bytes(maximumEnvelopeSize + 1, 'W')), EnvelopeError::TooLarge);
    QCOMPARE(refusal(Bytes{'W', 'W', 'S', 'H', 'A', 'R', 'E'}), EnvelopeError::NotAnEnvelope);
    auto version = sealed;
    version[7] = 2;
    QCOMPARE(refusal(version), EnvelopeError::UnsupportedVersion);
    QVERIFY(openEnvelope(version, bob).error().message.find("version 2") != std::string::npos);
    // Too large is checked before anything else, even the magic.
    auto huge = sealed;
    huge.resize(maximumEnvelopeSize + 1);
    huge[0] = 'X';
    QCOMPARE(refusal(huge), EnvelopeError::TooLarge);

    auto noRecipients = sealed;
    noRecipients[65] = 0;
    QCOMPARE(refusal(noRecipients), EnvelopeError::Malformed);
    auto tooMany = sealed;
    tooMany[65] = 17;
    QCOMPARE(refusal(tooMany), EnvelopeError::Malformed);
    auto length = sealed;
    ++length[lengthAt(1) + 3];
    QCOMPARE(refusal(length), EnvelopeError::Malformed);
    auto badSender = sealed;
    badSender[32] = 0x04;
    QCOMPARE(refusal(badSender), EnvelopeError::Malformed);
    auto badEphemeral = sealed;
    badEphemeral[66 + 33] = 0x05;
    QCOMPARE(refusal(badEphemeral), EnvelopeError::Malformed);
    // Bob named twice: structure, before anything is opened.
    Bytes twice(sealed.begin(), sealed.begin() + 66 + recipientEntrySize);
    twice[65] = 2;
    twice.insert(twice.end(), sealed.begin() + 66, sealed.end());
    QCOMPARE(refusal(twice), EnvelopeError::Malformed);

    // Fields are opaque here: a record with none opens, and decoding them
    // (section 6.4) is the vault's refusal to make (TestExchange).
    std::vector<PublicKey> to{bob.publicKey};
    std::vector<SharedRecord> empty;
    empty.push_back(sharedRecord(sharedNoteKind, {}));
    auto emptyFields = sealEnvelope(random, alice, to, empty, 0);
    QVERIFY(emptyFields.ok());
    QVERIFY(openEnvelope(*emptyFields, bob).ok());
}

void TestEnvelope::sealingRefusesBadContents()
{
    People people;
    auto& [random, alice, bob, carol, mallory] = people;
    const auto note = sharedRecord(sharedNoteKind, noteFields("t", "b"));
    const auto seal = [&](std::vector<PublicKey> to, std::vector<SharedRecord> records) {
        auto sealed = sealEnvelope(random, alice, to, records, 0);
        return sealed.ok() ? std::optional<EnvelopeError>{} : sealed.error().code;
    };
    std::vector<SharedRecord> one;
    one.push_back(sharedRecord(note.kind, note.fields));
    QCOMPARE(seal({}, std::move(one)), EnvelopeError::InvalidContents);
    std::vector<PublicKey> seventeen;
    for (int i = 0; i < 17; ++i)
        seventeen.push_back(SecretKey::generate(random).publicKey());
    const auto oneNote = [&] {
        std::vector<SharedRecord> records;
        records.push_back(sharedRecord(note.kind, note.fields));
        return records;
    };
    QCOMPARE(seal(seventeen, oneNote()), EnvelopeError::InvalidContents);
    seventeen.pop_back();
    QCOMPARE(seal(seventeen, oneNote()), std::optional<EnvelopeError>{});
    QCOMPARE(seal({bob.publicKey, bob.publicKey}, oneNote()), EnvelopeError::InvalidContents);
    QCOMPARE(seal({bob.publicKey}, {}), EnvelopeError::InvalidContents);
    std::vector<SharedRecord> contact;
    contact.push_back(sharedRecord(3, note.fields));
    QCOMPARE(seal({bob.publicKey}, std::move(contact)), EnvelopeError::InvalidContents);
    std::vector<SharedRecord> many;
    for (int i = 0; i < 257; ++i)
        many.push_back(sharedRecord(note.kind, note.fields));
    QCOMPARE(seal({bob.publicKey}, std::move(many)), EnvelopeError::InvalidContents);
    std::vector<SharedRecord> huge;
    huge.push_back(sharedRecord(sharedNoteKind, Bytes(maximumEnvelopeSize, 'x')));
    QCOMPARE(seal({bob.publicKey}, std::move(huge)), EnvelopeError::TooLarge);
    // The largest that fits is sealed, and opens.
    std::vector<SharedRecord> largest;
    largest.push_back(sharedRecord(
        sharedNoteKind,
        Bytes(maximumEnvelopeSize - envelopeFixedSize - recipientEntrySize - 16 - 2 - 5, 'x')));
    const auto sealed =
        sealEnvelope(random, alice, std::vector<PublicKey>{bob.publicKey}, largest, 0);
    QVERIFY(sealed.ok());
    QCOMPARE(sealed->size(), maximumEnvelopeSize);
    QVERIFY(openEnvelope(*sealed, bob).ok());
}

void TestEnvelope::textCarriers()
{
    People people;
    auto& [random, alice, bob, carol, mallory] = people;
    const auto sealed = sealTo(random, alice, {&bob});
    const auto armoured = armourEnvelope(sealed);
    QVERIFY(armoured.starts_with(std::string(armourBegin) + "\n"));
    QVERIFY(armoured.ends_with(std::string(armourEnd) + "\n"));
    for (const auto& line : QString::fromStdString(armoured).split(QLatin1Char('\n')))
        QVERIFY(line.size() <= 64 || line.startsWith(QLatin1String("-----")));

    // Pasted from a message: words around it, CRLF, indentation.
    auto pasted = QString::fromStdString(armoured);
    pasted.replace(QLatin1String("\n"), QLatin1String("\r\n  "));
    pasted = QStringLiteral("Here it is:\r\n\r\n  ") + pasted + QStringLiteral("\r\nBye");
    const auto fromPaste = envelopeFromText(pasted.toStdString());
    QVERIFY(fromPaste.ok());
    QCOMPARE(*fromPaste, sealed);

    const auto refusal = [](std::string_view text) {
        const auto read = envelopeFromText(text);
        return read.ok() ? std::optional<EnvelopeError>{} : read.error().code;
    };
    QCOMPARE(refusal("hello"), EnvelopeError::NotAnEnvelope);
    QCOMPARE(refusal(""), EnvelopeError::NotAnEnvelope);
    QCOMPARE(refusal(armoured.substr(0, armoured.size() / 2)), EnvelopeError::Malformed);
    auto changed = armoured;
    changed[armourBegin.size() + 5] = '*';
    QCOMPARE(refusal(changed), EnvelopeError::Malformed);
    auto dropped = armoured;
    dropped.erase(armourBegin.size() + 5, 1);
    QCOMPARE(refusal(dropped), EnvelopeError::Malformed);
    QCOMPARE(refusal(std::string(maximumEnvelopeTextSize + 1, ' ')), EnvelopeError::TooLarge);
    // A changed Base64 letter that still decodes is the envelope's to refuse.
    auto letter = armoured;
    auto& at = letter[armourBegin.size() + 40];
    at = at == 'A' ? 'B' : 'A';
    const auto decoded = envelopeFromText(letter);
    QVERIFY(decoded.ok());
    QVERIFY(!openEnvelope(*decoded, bob).ok());

    // Data: the binary envelope as it is, or text.
    QCOMPARE(envelopeFromData(sealed).value(), sealed);
    QCOMPARE(envelopeFromData(asBytes(armoured)).value(), sealed);
    const auto notShare = envelopeFromData(asBytes("PK\x03\x04 a zip"));
    QVERIFY(!notShare.ok());
    QCOMPARE(notShare.error().code, EnvelopeError::NotAnEnvelope);
}

void TestEnvelope::qrTextHasALimit()
{
    People people;
    auto& [random, alice, bob, carol, mallory] = people;
    const std::size_t fixed = envelopeFixedSize + recipientEntrySize + 16 + 2 + 5;
    for (const std::size_t size : {std::size_t{1734}, std::size_t{1735}}) {
        std::vector<SharedRecord> records;
        records.push_back(sharedRecord(sharedNoteKind, Bytes(size - fixed, 'x')));
        const auto sealed =
            sealEnvelope(random, alice, std::vector<PublicKey>{bob.publicKey}, records, 0);
        QVERIFY(sealed.ok());
        QCOMPARE(sealed->size(), size);
        const auto qr = envelopeQrText(*sealed);
        QCOMPARE(qr.ok(), size == 1734);
        if (qr.ok()) {
            QVERIFY(qr->size() <= qrCapacity);
            QVERIFY(qr->starts_with(qrTextPrefix));
            QCOMPARE(envelopeFromText(*qr).value(), *sealed);
        } else {
            QCOMPARE(qr.error().code, EnvelopeError::TooLargeForQr);
        }
    }
}

void TestEnvelope::refusesWhenCryptoIsDisabled()
{
    People people;
    auto& [random, alice, bob, carol, mallory] = people;
    const auto sealed = sealTo(random, alice, {&bob});
    crypto::disable("self-test failed: share (simulated)");
    std::vector<SharedRecord> records;
    records.push_back(sharedRecord(sharedNoteKind, noteFields("t", "b")));
    const auto refusedSeal =
        sealEnvelope(random, alice, std::vector<PublicKey>{bob.publicKey}, records, 0);
    const auto refusedOpen = openEnvelope(sealed, bob);
    crypto::testing::reenable();
    QVERIFY(!refusedSeal.ok());
    QCOMPARE(refusedSeal.error().code, EnvelopeError::CryptoDisabled);
    QVERIFY(!refusedOpen.ok());
    QCOMPARE(refusedOpen.error().code, EnvelopeError::CryptoDisabled);
    QVERIFY(openEnvelope(sealed, bob).ok());
}

QTEST_APPLESS_MAIN(TestEnvelope)
#include "TestEnvelope.moc"
