// The record field encoding (vault/Records.h): round trips of every field,
// and every rule of the decoder and of validateRecord() with its error.
#include "common/TestSupport.h"
#include "crypto/Secp256k1.h"
#include "vault/Records.h"

#include <QtTest>

using namespace watchword;
using namespace watchword::vault;

namespace {

QByteArray fieldBytes(std::uint8_t tag, const QByteArray& value)
{
    QByteArray out;
    out.append(char(tag));
    const auto size = static_cast<quint32>(value.size());
    out.append(char(size >> 24))
        .append(char(size >> 16))
        .append(char(size >> 8))
        .append(char(size));
    return out + value;
}

QByteArray be(std::uint64_t value, int bytes)
{
    QByteArray out;
    for (int i = bytes - 1; i >= 0; --i)
        out.append(char((value >> (8 * i)) & 0xff));
    return out;
}

using FieldList = std::vector<std::pair<std::uint8_t, QByteArray>>;

// fields encoded, with the one of replaceTag replaced by replacement, or
// dropped.
QByteArray encodedWith(const FieldList& fields, std::uint8_t replaceTag,
                       const QByteArray& replacement, bool drop)
{
    QByteArray out;
    for (const auto& [tag, value] : fields) {
        if (tag == replaceTag && drop)
            continue;
        out += fieldBytes(tag, tag == replaceTag ? replacement : value);
    }
    return out;
}

// A valid TOTP account's fields, with one field replaced or dropped by tag.
QByteArray accountFields(std::uint8_t replaceTag = 0, const QByteArray& replacement = {},
                         bool drop = false)
{
    return encodedWith(
        {
            {field::issuer, "Issuer"},
            {field::secret, "0123456789"},
            {field::otpKind, be(1, 1)},
            {field::algorithm, be(1, 1)},
            {field::digits, be(6, 1)},
            {field::period, be(30, 4)},
            {field::created, be(100, 8)},
            {field::modified, be(200, 8)},
            {field::sortPosition, be(7, 4)},
        },
        replaceTag, replacement, drop);
}

// The sharing key of the "abandon ... about" phrase (docs/FORMAT.md section
// 11's worked example): a valid compressed point.
const QByteArray contactKey =
    QByteArray::fromHex("03ff42cfd942841e0cb79a15922820861dcc16216ae648a37d3659d3113d2514fc");

// A valid contact's fields, with one field replaced or dropped by tag.
QByteArray contactFields(std::uint8_t replaceTag = 0, const QByteArray& replacement = {},
                         bool drop = false)
{
    return encodedWith({{field::created, be(100, 8)},
                        {field::modified, be(200, 8)},
                        {field::sortPosition, be(7, 4)},
                        {field::contactName, "Alice"},
                        {field::publicKey, contactKey},
                        {field::verified, be(1, 1)}},
                       replaceTag, replacement, drop);
}
// Where in contactFields() the modified time (13 + 13 bytes) and the name
// (+ 9 + 10) end.
constexpr qsizetype afterContactModified = 26;
constexpr qsizetype afterContactName = 45;

// One device's count in field 0x11: device (8) || count (8).
QByteArray change(std::uint8_t firstByte, std::uint64_t count)
{
    return QByteArray(1, char(firstByte)) + QByteArray(7, '\x11') + be(count, 8);
}

// A valid note's fields, its changes (0x11) given, in their place.
QByteArray noteFieldsWithChanges(const QByteArray& changes)
{
    return fieldBytes(field::created, be(1, 8)) + fieldBytes(field::modified, be(1, 8)) +
           fieldBytes(field::sortPosition, be(1, 4)) + fieldBytes(field::changes, changes) +
           fieldBytes(field::title, "t") + fieldBytes(field::body, "b");
}

OtpAccount sampleAccount()
{
    OtpAccount account;
    account.issuer = "Ünïcødé";
    account.accountName = "alice";
    account.secret = SecureBuffer::fromString("12345678901234567890");
    account.tags = {"a", "b"};
    account.created = -5;
    account.modified = 7;
    account.lastUsed = 9;
    account.sortPosition = 3;
    return account;
}

// validateRecord and encodeFields both refuse record as InvalidRecord.
void verifyCannotBeStored(const Record& record)
{
    const auto valid = validateRecord(record);
    QVERIFY(!valid.ok());
    QCOMPARE(valid.error().code, VaultError::InvalidRecord);
    const auto encoded = encodeFields(record);
    QVERIFY(!encoded.ok());
    QCOMPARE(encoded.error().code, VaultError::InvalidRecord);
}

} // namespace

Q_DECLARE_METATYPE(watchword::vault::VaultError)

class TestVaultRecords : public QObject
{
    Q_OBJECT

private slots:
    // One account, named the same wherever it is shown: the app's title and
    // the CLI's label, each from the core.
    void namesAnAccount_data()
    {
        QTest::addColumn<QString>("issuer");
        QTest::addColumn<QString>("account");
        QTest::addColumn<QString>("title");
        QTest::addColumn<QString>("label");
        QTest::newRow("both") << "ACME"
                              << "alice"
                              << "ACME (alice)"
                              << "ACME:alice";
        QTest::newRow("issuer only") << "ACME"
                                     << ""
                                     << "ACME"
                                     << "ACME";
        QTest::newRow("account only") << ""
                                      << "alice"
                                      << "alice"
                                      << "alice";
        QTest::newRow("neither") << ""
                                 << ""
                                 << ""
                                 << "";
        QTest::newRow("non-ASCII")
            << QString::fromUtf8("Z\xc3\xbcrich Bank") << QString::fromUtf8("\xc3\xa5sa")
            << QString::fromUtf8("Z\xc3\xbcrich Bank (\xc3\xa5sa)")
            << QString::fromUtf8("Z\xc3\xbcrich Bank:\xc3\xa5sa");
    }
    void namesAnAccount()
    {
        QFETCH(QString, issuer);
        QFETCH(QString, account);
        QFETCH(QString, title);
        QFETCH(QString, label);
        QCOMPARE(QString::fromStdString(
                     vault::displayTitle(issuer.toStdString(), account.toStdString())),
                 title);
        QCOMPARE(
            QString::fromStdString(vault::labelText(issuer.toStdString(), account.toStdString())),
            label);
    }
    void decodeRejects_data();
    void decodeRejects();
    void validateRejects_data();
    void validateRejects();
    void hotpRoundTrip();
    void receivedFromRoundTrip();
    void knownEncoding();
    void contactDecodeRejects_data();
    void contactDecodeRejects();
    void contactValidateRejects_data();
    void contactValidateRejects();
    void contactRoundTrip_data();
    void contactRoundTrip();
    void contactKnownEncoding();
    void changesDecodeRejects_data();
    void changesDecodeRejects();
    void changesRoundTrip();
    void changesValidateRejects();
    void tombstoneKnownEncoding();
    void tombstoneDecodeRejects_data();
    void tombstoneDecodeRejects();
};

void TestVaultRecords::decodeRejects_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QByteArray>("fields");
    const int account = 1;
    const int note = 2;
    QTest::newRow("unknown tag 0x12") << account << accountFields() + fieldBytes(0x12, "x");
    const QByteArray envelopeId(16, '\x5a');
    QTest::newRow("received from: 48 bytes")
        << account
        << accountFields() + fieldBytes(field::receivedFrom, envelopeId + contactKey.left(32));
    QTest::newRow("received from: 50 bytes")
        << account
        << accountFields() + fieldBytes(field::receivedFrom, envelopeId + contactKey + "x");
    QTest::newRow("received from: not a point")
        << account
        << accountFields() + fieldBytes(field::receivedFrom, envelopeId + QByteArray(1, '\x02') +
                                                                 QByteArray(32, '\xff'));
    QTest::newRow("received from: uncompressed prefix")
        << account
        << accountFields() + fieldBytes(field::receivedFrom,
                                        envelopeId + QByteArray(1, '\x04') + contactKey.mid(1));
    QTest::newRow("received from in a contact")
        << 3
        << contactFields().left(afterContactModified) + fieldBytes(0x0f, be(7, 4)) +
               fieldBytes(field::receivedFrom, envelopeId + contactKey) +
               contactFields().mid(afterContactModified + 9);
    QTest::newRow("note tag in an account")
        << account << accountFields() + fieldBytes(field::title, "t");
    QTest::newRow("account tag in a note")
        << note << fieldBytes(field::issuer, "x") + fieldBytes(field::created, be(1, 8));
    QTest::newRow("out of order") << account
                                  << fieldBytes(field::secret, "k") +
                                         fieldBytes(field::issuer, "x");
    QTest::newRow("issuer twice") << account << fieldBytes(field::issuer, "x") + accountFields();
    QTest::newRow("field header cut") << account << accountFields() + QByteArray("\x0f\x00", 2);
    QTest::newRow("length past the end") << account << accountFields().chopped(1);
    QTest::newRow("secret missing") << account << accountFields(field::secret, {}, true);
    QTest::newRow("secret empty") << account << accountFields(field::secret, "");
    QTest::newRow("secret 1025 bytes")
        << account << accountFields(field::secret, QByteArray(1025, 'k'));
    QTest::newRow("OTP kind 4") << account << accountFields(field::otpKind, be(4, 1));
    QTest::newRow("OTP kind 2 bytes") << account << accountFields(field::otpKind, be(1, 2));
    QTest::newRow("algorithm 0") << account << accountFields(field::algorithm, be(0, 1));
    QTest::newRow("digits 5 for TOTP") << account << accountFields(field::digits, be(5, 1));
    QTest::newRow("digits 11") << account << accountFields(field::digits, be(11, 1));
    QTest::newRow("period missing") << account << accountFields(field::period, {}, true);
    QTest::newRow("period zero") << account << accountFields(field::period, be(0, 4));
    QTest::newRow("period 8 bytes") << account << accountFields(field::period, be(30, 8));
    QTest::newRow("HOTP with a period") << account << accountFields(field::otpKind, be(2, 1));
    QTest::newRow("created missing") << account << accountFields(field::created, {}, true);
    QTest::newRow("sort position missing")
        << account << accountFields(field::sortPosition, {}, true);
    QTest::newRow("issuer not UTF-8") << account << accountFields(field::issuer, "\xc3\x28");
    QTest::newRow("issuer overlong UTF-8") << account << accountFields(field::issuer, "\xc0\xaf");
    QTest::newRow("issuer surrogate") << account << accountFields(field::issuer, "\xed\xa0\x80");
    QTest::newRow("issuer with NUL")
        << account << accountFields(field::issuer, QByteArray("a\0b", 3));
    QTest::newRow("duplicate tag label")
        << note
        << fieldBytes(field::tag, "x") + fieldBytes(field::tag, "x") +
               fieldBytes(field::created, be(1, 8)) + fieldBytes(field::modified, be(1, 8)) +
               fieldBytes(field::sortPosition, be(1, 4)) + fieldBytes(field::title, "t") +
               fieldBytes(field::body, "b");
    QTest::newRow("note without body")
        << note
        << fieldBytes(field::created, be(1, 8)) + fieldBytes(field::modified, be(1, 8)) +
               fieldBytes(field::sortPosition, be(1, 4)) + fieldBytes(field::title, "t");
    QTest::newRow("note body not UTF-8")
        << note
        << fieldBytes(field::created, be(1, 8)) + fieldBytes(field::modified, be(1, 8)) +
               fieldBytes(field::sortPosition, be(1, 4)) + fieldBytes(field::title, "t") +
               fieldBytes(field::body, "\xff");
}

void TestVaultRecords::decodeRejects()
{
    QFETCH(int, kind);
    QFETCH(QByteArray, fields);
    const auto decoded =
        decodeFields(static_cast<RecordKind>(kind), RecordId{}, 1, test::view(fields));
    QVERIFY(!decoded.ok());
    QCOMPARE(decoded.error().code, VaultError::Malformed);
    QVERIFY(!decoded.error().message.empty());
}

void TestVaultRecords::validateRejects_data()
{
    QTest::addColumn<int>("variant");
    const char* names[] = {"empty secret",        "secret 1025 bytes", "digits 11",
                           "Steam with SHA-256",  "issuer not UTF-8",  "note with NUL",
                           "empty tag",           "tag 257 bytes",     "duplicate tags",
                           "note title not UTF-8"};
    for (int i = 0; i < 10; ++i)
        QTest::newRow(names[i]) << i;
}

void TestVaultRecords::validateRejects()
{
    QFETCH(int, variant);
    auto account = sampleAccount();
    SecureNote note;
    note.title = "t";
    bool useNote = false;
    switch (variant) {
    case 0:
        account.secret = SecureBuffer();
        break;
    case 1:
        account.secret = SecureBuffer(1025);
        break;
    case 2:
        account.parameters.digits = 11;
        break;
    case 3:
        account.parameters = otp::OtpParameters::steam();
        account.parameters.algorithm = crypto::HashAlgorithm::Sha256;
        break;
    case 4:
        account.issuer = std::string(1, char(0xc3));
        break;
    case 5:
        account.note = std::string("a\0b", 3);
        break;
    case 6:
        account.tags = {""};
        break;
    case 7:
        account.tags = {std::string(257, 't')};
        break;
    case 8:
        account.tags = {"x", "y", "x"};
        break;
    case 9:
        note.title = std::string{char(0xe2), char(0x82)};
        useNote = true;
        break;
    }
    verifyCannotBeStored(useNote ? Record(std::move(note)) : Record(std::move(account)));
}

void TestVaultRecords::hotpRoundTrip()
{
    auto account = sampleAccount();
    account.parameters = {otp::OtpKind::Hotp, crypto::HashAlgorithm::Sha512, 10, 30,
                          0xfedcba9876543210ULL};
    account.tags.push_back(std::string(256, 'z'));
    account.lastUsed.reset();
    const auto encoded = encodeFields(Record(account.clone()));
    QVERIFY(encoded.ok());
    RecordId id{};
    id[0] = 0x42;
    const auto decoded = decodeFields(RecordKind::OtpAccount, id, 9, *encoded);
    QVERIFY2(decoded.ok(), decoded.ok() ? "" : decoded.error().message.c_str());
    const auto& back = std::get<OtpAccount>(*decoded);
    QCOMPARE(back.id, id);
    QCOMPARE(back.version, std::uint64_t{9});
    QVERIFY(back.parameters == account.parameters);
    QCOMPARE(back.issuer, account.issuer);
    QCOMPARE(back.accountName, account.accountName);
    QCOMPARE(test::toHex(back.secret), test::toHex(account.secret));
    QCOMPARE(back.tags, account.tags);
    QCOMPARE(back.created, std::int64_t{-5});
    QVERIFY(!back.lastUsed.has_value());
    QCOMPARE(back.sortPosition, 3u);
    QVERIFY(!back.receivedFrom);
}

// Field 0x10 after the sort position, in an account and in a note, read
// back as written; a sender that is not a point cannot be stored.
void TestVaultRecords::receivedFromRoundTrip()
{
    ReceivedFrom from;
    from.envelopeId.fill(0xa5);
    std::copy(contactKey.begin(), contactKey.end(), from.sender.begin());
    auto account = sampleAccount();
    account.receivedFrom = from;
    SecureNote note;
    note.title = "t";
    note.body = SecureBuffer::fromString("b");
    note.receivedFrom = from;
    for (const Record& record : {Record(std::move(account)), Record(std::move(note))}) {
        const auto encoded = encodeFields(record);
        QVERIFY(encoded.ok());
        const auto kind = kindOf(record);
        const auto decoded = decodeFields(kind, RecordId{}, 1, *encoded);
        QVERIFY2(decoded.ok(), decoded.ok() ? "" : decoded.error().message.c_str());
        const auto back = std::visit(
            [](const auto& r) -> std::optional<ReceivedFrom> {
                if constexpr (std::is_same_v<std::decay_t<decltype(r)>, Contact>)
                    return std::nullopt;
                else
                    return r.receivedFrom;
            },
            *decoded);
        QCOMPARE(back, std::optional<ReceivedFrom>(from));
        // The field's bytes: tag, length 49, id, key.
        const auto at = std::search(encoded->begin(), encoded->end(), from.envelopeId.begin(),
                                    from.envelopeId.end());
        QVERIFY(at != encoded->end());
        QCOMPARE(*(at - 5), field::receivedFrom);
        QCOMPARE(*(at - 1), std::uint8_t{49});
    }
    auto bad = sampleAccount();
    bad.receivedFrom = from;
    bad.receivedFrom->sender[0] = 0x04;
    verifyCannotBeStored(Record(std::move(bad)));
}

void TestVaultRecords::knownEncoding()
{
    // Written by hand from the table in docs/FORMAT.md section 6.4.
    SecureNote note;
    note.title = "T";
    note.body = SecureBuffer::fromString("B");
    note.tags = {"x"};
    note.created = 1;
    note.modified = -1;
    note.sortPosition = 2;
    const auto encoded = encodeFields(Record(std::move(note)));
    QVERIFY(encoded.ok());
    QCOMPARE(test::toHex(*encoded), QStringLiteral("090000000178"
                                                   "0c000000080000000000000001"
                                                   "0d00000008ffffffffffffffff"
                                                   "0f0000000400000002"
                                                   "210000000154"
                                                   "220000000142"));
}

// Every way a contact's fields (docs/FORMAT.md section 6.4, kind 3) can
// break the format: Malformed, with the tag at fault named.
void TestVaultRecords::contactDecodeRejects_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QByteArray>("fields");
    QTest::addColumn<QString>("tag");
    const int account = 1;
    const int note = 2;
    const int contact = 3;
    const QByteArray uncompressed = [] {
        const auto key = crypto::PublicKey::fromSec1(test::view(contactKey));
        const auto bytes = key.value().uncompressed();
        return QByteArray(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size()));
    }();
    QTest::newRow("name missing") << contact << contactFields(field::contactName, {}, true)
                                  << "0x31";
    QTest::newRow("empty name") << contact << contactFields(field::contactName, "") << "0x31";
    QTest::newRow("257-byte name")
        << contact << contactFields(field::contactName, QByteArray(257, 'n')) << "0x31";
    QTest::newRow("name not UTF-8")
        << contact << contactFields(field::contactName, "\xc3\x28") << "0x31";
    QTest::newRow("name with NUL")
        << contact << contactFields(field::contactName, QByteArray("a\0b", 3)) << "0x31";
    QTest::newRow("name twice") << contact
                                << contactFields().insert(afterContactName,
                                                          fieldBytes(field::contactName, "B"))
                                << "0x31";
    QTest::newRow("key missing") << contact << contactFields(field::publicKey, {}, true) << "0x32";
    QTest::newRow("key prefix 04")
        << contact << contactFields(field::publicKey, QByteArray(1, '\x04') + contactKey.mid(1))
        << "0x32";
    QTest::newRow("key prefix 00")
        << contact << contactFields(field::publicKey, QByteArray(1, '\x00') + contactKey.mid(1))
        << "0x32";
    QTest::newRow("key not on the curve")
        << contact << contactFields(field::publicKey, QByteArray(1, '\x02') + QByteArray(32, '\0'))
        << "0x32";
    QTest::newRow("32-byte key") << contact << contactFields(field::publicKey, contactKey.left(32))
                                 << "0x32";
    QTest::newRow("34-byte key") << contact << contactFields(field::publicKey, contactKey + '\x01')
                                 << "0x32";
    QTest::newRow("65-byte uncompressed key")
        << contact << contactFields(field::publicKey, uncompressed) << "0x32";
    QTest::newRow("verified missing")
        << contact << contactFields(field::verified, {}, true) << "0x33";
    QTest::newRow("verified 2") << contact << contactFields(field::verified, be(2, 1)) << "0x33";
    QTest::newRow("verified 255") << contact << contactFields(field::verified, be(255, 1))
                                  << "0x33";
    QTest::newRow("verified 2 bytes")
        << contact << contactFields(field::verified, be(1, 2)) << "0x33";
    QTest::newRow("created missing")
        << contact << contactFields(field::created, {}, true) << "0x0c";
    QTest::newRow("modified missing")
        << contact << contactFields(field::modified, {}, true) << "0x0d";
    QTest::newRow("sort position missing")
        << contact << contactFields(field::sortPosition, {}, true) << "0x0f";
    QTest::newRow("created 4 bytes")
        << contact << contactFields(field::created, be(1, 4)) << "0x0c";
    QTest::newRow("issuer in a contact")
        << contact << fieldBytes(field::issuer, "x") + contactFields() << "0x01";
    QTest::newRow("tag 0x09 in a contact")
        << contact << fieldBytes(field::tag, "t") + contactFields() << "0x09";
    QTest::newRow("last used in a contact")
        << contact
        << contactFields().insert(afterContactModified, fieldBytes(field::lastUsed, be(1, 8)))
        << "0x0e";
    QTest::newRow("title in a contact")
        << contact << contactFields() + fieldBytes(field::title, "t") << "0x21";
    QTest::newRow("unknown tag 0x34")
        << contact << contactFields() + fieldBytes(0x34, "x") << "0x34";
    QTest::newRow("out of order") << contact
                                  << fieldBytes(field::contactName, "A") +
                                         fieldBytes(field::created, be(1, 8))
                                  << "0x0c";
    QTest::newRow("name in an account")
        << account << accountFields() + fieldBytes(field::contactName, "x") << "0x31";
    QTest::newRow("key in a note")
        << note
        << fieldBytes(field::created, be(1, 8)) + fieldBytes(field::modified, be(1, 8)) +
               fieldBytes(field::sortPosition, be(1, 4)) + fieldBytes(field::title, "t") +
               fieldBytes(field::body, "b") + fieldBytes(field::publicKey, contactKey)
        << "0x32";
}

void TestVaultRecords::contactDecodeRejects()
{
    QFETCH(int, kind);
    QFETCH(QByteArray, fields);
    QFETCH(QString, tag);
    const auto decoded =
        decodeFields(static_cast<RecordKind>(kind), RecordId{}, 1, test::view(fields));
    QVERIFY(!decoded.ok());
    QCOMPARE(decoded.error().code, VaultError::Malformed);
    const QString message = QString::fromStdString(decoded.error().message);
    QVERIFY2(message.contains(QStringLiteral("field ") + tag), qPrintable(message));
    // The valid fields these rows break decode.
    QVERIFY(decodeFields(RecordKind::Contact, RecordId{}, 1, test::view(contactFields())).ok());
}

void TestVaultRecords::contactValidateRejects_data()
{
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<QByteArray>("key");
    QTest::newRow("empty name") << QByteArray() << contactKey;
    QTest::newRow("257-byte name") << QByteArray(257, 'n') << contactKey;
    QTest::newRow("name not UTF-8") << QByteArray("\xe2\x82") << contactKey;
    QTest::newRow("name with NUL") << QByteArray("a\0b", 3) << contactKey;
    QTest::newRow("no key") << QByteArray("Alice") << QByteArray(33, '\0');
    QTest::newRow("key prefix 04")
        << QByteArray("Alice") << QByteArray(1, '\x04') + contactKey.mid(1);
    QTest::newRow("key not on the curve")
        << QByteArray("Alice") << QByteArray(1, '\x03') + QByteArray(32, '\0');
}

void TestVaultRecords::contactValidateRejects()
{
    QFETCH(QByteArray, name);
    QFETCH(QByteArray, key);
    Contact contact;
    contact.name = name.toStdString();
    std::copy(key.begin(), key.end(), contact.publicKey.begin());
    verifyCannotBeStored(Record(contact));
}

void TestVaultRecords::contactRoundTrip_data()
{
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<bool>("verified");
    QTest::newRow("one byte, not verified") << QByteArray("A") << false;
    QTest::newRow("UTF-8, verified") << QByteArray("\xc3\x85sa \xf0\x9f\x94\x91") << true;
    QTest::newRow("256 bytes") << QByteArray(256, 'z') << true;
}

void TestVaultRecords::contactRoundTrip()
{
    QFETCH(QByteArray, name);
    QFETCH(bool, verified);
    Contact contact;
    contact.name = name.toStdString();
    std::copy(contactKey.begin(), contactKey.end(), contact.publicKey.begin());
    contact.verified = verified;
    contact.created = -7;
    contact.modified = 1767225600;
    contact.sortPosition = 0xffffffffu;
    const auto encoded = encodeFields(Record(contact));
    QVERIFY2(encoded.ok(), encoded.ok() ? "" : encoded.error().message.c_str());
    RecordId id{};
    id[15] = 0x77;
    const auto decoded = decodeFields(RecordKind::Contact, id, 4, *encoded);
    QVERIFY2(decoded.ok(), decoded.ok() ? "" : decoded.error().message.c_str());
    QCOMPARE(kindOf(*decoded), RecordKind::Contact);
    const auto& back = std::get<Contact>(*decoded);
    QCOMPARE(back.id, id);
    QCOMPARE(back.version, std::uint64_t{4});
    QCOMPARE(back.name, contact.name);
    QCOMPARE(back.publicKey, contact.publicKey);
    QCOMPARE(back.verified, verified);
    QCOMPARE(back.created, std::int64_t{-7});
    QCOMPARE(back.modified, std::int64_t{1767225600});
    QCOMPARE(back.sortPosition, 0xffffffffu);
    // Cloned and compared field by field: the same record.
    const Record copy = cloneRecord(*decoded);
    QCOMPARE(std::get<Contact>(copy).name, contact.name);
}

void TestVaultRecords::contactKnownEncoding()
{
    // Written by hand from the table in docs/FORMAT.md section 6.4.
    Contact contact;
    contact.name = "Bo";
    std::copy(contactKey.begin(), contactKey.end(), contact.publicKey.begin());
    contact.verified = true;
    contact.created = 1;
    contact.modified = 2;
    contact.sortPosition = 3;
    const auto encoded = encodeFields(Record(contact));
    QVERIFY(encoded.ok());
    QCOMPARE(test::toHex(*encoded), QStringLiteral("0c000000080000000000000001"
                                                   "0d000000080000000000000002"
                                                   "0f0000000400000003"
                                                   "3100000002426f"
                                                   "3200000021") +
                                        QString::fromLatin1(contactKey.toHex()) +
                                        QStringLiteral("330000000101"));
    QCOMPARE(encoded->size(), std::size_t{13 + 13 + 9 + 7 + 38 + 6});
}

// Field 0x11, the changes (docs/FORMAT.md sections 6.4 and 13): in every
// kind, n x (device (8) || count (8)), 1 <= n <= 255, devices ascending and
// distinct, counts at least 1. Anything else is Malformed, naming the field.
void TestVaultRecords::changesDecodeRejects_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QByteArray>("fields");
    QTest::addColumn<QString>("message");
    const int account = 1;
    const int note = 2;
    const int contact = 3;
    const auto inAccount = [](const QByteArray& changes) {
        return accountFields() + fieldBytes(field::changes, changes);
    };
    const QString size = QStringLiteral("record field 0x11: must be a non-zero multiple of 16 "
                                        "bytes, not %1");
    const QString order = QStringLiteral("record field 0x11: devices out of order or repeated");
    QTest::newRow("empty") << account << inAccount({}) << size.arg(0);
    QTest::newRow("1 byte") << account << inAccount("x") << size.arg(1);
    QTest::newRow("15 bytes") << account << inAccount(change(1, 1).chopped(1)) << size.arg(15);
    QTest::newRow("17 bytes") << account << inAccount(change(1, 1) + 'x') << size.arg(17);
    QTest::newRow("33 bytes") << account << inAccount(change(1, 1) + change(2, 1) + 'x')
                              << size.arg(33);
    QTest::newRow("a zero count") << account << inAccount(change(1, 1) + change(2, 0))
                                  << QStringLiteral("record field 0x11: a device with no changes");
    QTest::newRow("devices out of order")
        << account << inAccount(change(2, 1) + change(1, 1)) << order;
    QTest::newRow("a device twice") << account << inAccount(change(1, 1) + change(1, 2)) << order;
    QByteArray many;
    for (int i = 0; i < 256; ++i)
        many += QByteArray(6, '\0') + be(std::uint64_t(i), 2) + be(1, 8);
    QTest::newRow("256 devices") << account << inAccount(many)
                                 << QStringLiteral("record field 0x11: names 256 devices, more "
                                                   "than 255");
    QTest::newRow("the field twice")
        << account << inAccount(change(1, 1)) + fieldBytes(field::changes, change(2, 1))
        << QStringLiteral("record field 0x11: is out of order or repeated");
    QTest::newRow("in a note, a zero count")
        << note << noteFieldsWithChanges(change(1, 0))
        << QStringLiteral("record field 0x11: a device with no changes");
    QTest::newRow("in a note, after the title")
        << note
        << fieldBytes(field::created, be(1, 8)) + fieldBytes(field::modified, be(1, 8)) +
               fieldBytes(field::sortPosition, be(1, 4)) + fieldBytes(field::title, "t") +
               fieldBytes(field::changes, change(1, 1)) + fieldBytes(field::body, "b")
        << QStringLiteral("record field 0x11: is out of order or repeated");
    QTest::newRow("in a contact, devices out of order")
        << contact
        << contactFields().insert(afterContactModified + 9,
                                  fieldBytes(field::changes, change(9, 1) + change(3, 1)))
        << order;
}

void TestVaultRecords::changesDecodeRejects()
{
    QFETCH(int, kind);
    QFETCH(QByteArray, fields);
    QFETCH(QString, message);
    const auto decoded =
        decodeFields(static_cast<RecordKind>(kind), RecordId{}, 1, test::view(fields));
    QVERIFY(!decoded.ok());
    QCOMPARE(decoded.error().code, VaultError::Malformed);
    QCOMPARE(QString::fromStdString(decoded.error().message), message);
}

// The changes of an account, a note and a contact read back as written,
// the field in its place by tag; without changes there is no field 0x11.
void TestVaultRecords::changesRoundTrip()
{
    const Changes changes = {
        {{0x01, 0, 0, 0, 0, 0, 0, 0}, 3},
        {{0x5c, 0xa1, 0xab, 0x1e, 0x00, 0xc0, 0xff, 0xee}, 1},
        {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 0xffffffffffffffffULL}};
    auto account = sampleAccount();
    account.changes = changes;
    SecureNote note;
    note.title = "t";
    note.body = SecureBuffer::fromString("b");
    note.changes = changes;
    Contact contact;
    contact.name = "Alice";
    std::copy(contactKey.begin(), contactKey.end(), contact.publicKey.begin());
    contact.changes = changes;
    const QByteArray changesField =
        fieldBytes(field::changes, QByteArray::fromHex("0100000000000000"
                                                       "0000000000000003"
                                                       "5ca1ab1e00c0ffee"
                                                       "0000000000000001"
                                                       "ffffffffffffffff"
                                                       "ffffffffffffffff"));
    for (const Record& record :
         {Record(account.clone()), Record(note.clone()), Record(contact.clone())}) {
        const auto encoded = encodeFields(record);
        QVERIFY2(encoded.ok(), encoded.ok() ? "" : encoded.error().message.c_str());
        const QByteArray bytes(reinterpret_cast<const char*>(encoded->data()),
                               qsizetype(encoded->size()));
        QVERIFY(bytes.contains(changesField));
        const auto decoded = decodeFields(kindOf(record), RecordId{}, 1, *encoded);
        QVERIFY2(decoded.ok(), decoded.ok() ? "" : decoded.error().message.c_str());
        QCOMPARE(changesOf(*decoded), changes);
        // Without changes, no field 0x11: the fields are those of a record
        // of version 2.
        auto bare = cloneRecord(record);
        std::visit([](auto& r) { r.changes.clear(); }, bare);
        const auto plain = encodeFields(bare);
        QVERIFY(plain.ok());
        QCOMPARE(plain->size() + std::size_t(changesField.size()), encoded->size());
        const auto back = decodeFields(kindOf(record), RecordId{}, 1, *plain);
        QVERIFY(back.ok());
        QVERIFY(changesOf(*back).empty());
    }
    // In a note, 0x11 comes after the sort position and before the title.
    const auto encodedNote = encodeFields(Record(note.clone()));
    QVERIFY(encodedNote.ok());
    QCOMPARE(test::toHex(*encodedNote),
             QString::fromLatin1((fieldBytes(field::created, be(0, 8)) +
                                  fieldBytes(field::modified, be(0, 8)) +
                                  fieldBytes(field::sortPosition, be(0, 4)) + changesField +
                                  fieldBytes(field::title, "t") + fieldBytes(field::body, "b"))
                                     .toHex()));
}

// A record whose changes break the rules cannot be stored.
void TestVaultRecords::changesValidateRejects()
{
    const DeviceId a = {1, 0, 0, 0, 0, 0, 0, 0};
    const DeviceId b = {2, 0, 0, 0, 0, 0, 0, 0};
    for (const Changes& changes :
         {Changes{{b, 1}, {a, 1}}, Changes{{a, 1}, {a, 2}}, Changes{{a, 0}}}) {
        auto account = sampleAccount();
        account.changes = changes;
        verifyCannotBeStored(Record(std::move(account)));
    }
    Changes tooMany;
    for (std::size_t i = 0; i <= maximumChangeDevices; ++i)
        tooMany.push_back({DeviceId{0, 0, 0, 0, 0, 0, std::uint8_t(i >> 8), std::uint8_t(i)}, 1});
    SecureNote note;
    note.title = "t";
    note.changes = tooMany;
    verifyCannotBeStored(Record(std::move(note)));
}

void TestVaultRecords::tombstoneKnownEncoding()
{
    // Written by hand from docs/FORMAT.md sections 6.4 and 13: the time of
    // deletion (0x0d) and the changes (0x11), nothing else. (The version 3
    // worked example's tombstone.)
    Tombstone tombstone;
    tombstone.id[0] = 0x89;
    tombstone.version = 2;
    tombstone.deleted = 1767229200;
    tombstone.changes = {{{0x5c, 0xa1, 0xab, 0x1e, 0x00, 0xc0, 0xff, 0xee}, 2}};
    const auto encoded = encodeTombstone(tombstone);
    QVERIFY(encoded.ok());
    QCOMPARE(test::toHex(*encoded), QStringLiteral("0d00000008000000006955c710"
                                                   "1100000010"
                                                   "5ca1ab1e00c0ffee0000000000000002"));
    const auto decoded = decodeTombstone(tombstone.id, 2, *encoded);
    QVERIFY2(decoded.ok(), decoded.ok() ? "" : decoded.error().message.c_str());
    QVERIFY(*decoded == tombstone);
    // A tombstone's changes are required, and keep the rules.
    for (const Changes& changes :
         {Changes{}, Changes{{{2, 0, 0, 0, 0, 0, 0, 0}, 1}, {{1, 0, 0, 0, 0, 0, 0, 0}, 1}}}) {
        auto bad = tombstone;
        bad.changes = changes;
        const auto refused = encodeTombstone(bad);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, VaultError::InvalidRecord);
    }
}

// A tombstone's fields (kind 4): 0x0d and 0x11, both required, nothing
// else. Anything else is Malformed, naming the field.
void TestVaultRecords::tombstoneDecodeRejects_data()
{
    QTest::addColumn<QByteArray>("fields");
    QTest::addColumn<QString>("tag");
    const QByteArray deleted = fieldBytes(field::modified, be(1767229200, 8));
    const QByteArray changes = fieldBytes(field::changes, change(1, 2));
    QTest::newRow("empty") << QByteArray() << "0x0d";
    QTest::newRow("time missing") << changes << "0x0d";
    QTest::newRow("changes missing") << deleted << "0x11";
    QTest::newRow("time 4 bytes") << fieldBytes(field::modified, be(1, 4)) + changes << "0x0d";
    QTest::newRow("changes empty") << deleted + fieldBytes(field::changes, {}) << "0x11";
    QTest::newRow("a zero count") << deleted + fieldBytes(field::changes, change(1, 0)) << "0x11";
    QTest::newRow("changes before the time") << changes + deleted << "0x0d";
    QTest::newRow("time twice") << deleted + deleted + changes << "0x0d";
    QTest::newRow("created") << fieldBytes(field::created, be(1, 8)) + deleted + changes << "0x0c";
    QTest::newRow("issuer") << fieldBytes(field::issuer, "x") + deleted + changes << "0x01";
    QTest::newRow("sort position")
        << deleted + fieldBytes(field::sortPosition, be(1, 4)) + changes << "0x0f";
    QTest::newRow("title") << deleted + changes + fieldBytes(field::title, "t") << "0x21";
    QTest::newRow("contact name") << deleted + changes + fieldBytes(field::contactName, "A")
                                  << "0x31";
}

void TestVaultRecords::tombstoneDecodeRejects()
{
    QFETCH(QByteArray, fields);
    QFETCH(QString, tag);
    const auto decoded = decodeTombstone(RecordId{}, 2, test::view(fields));
    QVERIFY(!decoded.ok());
    QCOMPARE(decoded.error().code, VaultError::Malformed);
    const QString message = QString::fromStdString(decoded.error().message);
    QVERIFY2(message.contains(QStringLiteral("field ") + tag), qPrintable(message));
    // Records are read by kind: decodeFields reads no tombstone.
    QVERIFY(!decodeFields(RecordKind::Tombstone, RecordId{}, 2, test::view(fields)).ok());
}

QTEST_APPLESS_MAIN(TestVaultRecords)
#include "TestVaultRecords.moc"
