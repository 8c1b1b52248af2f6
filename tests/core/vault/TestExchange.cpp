// Records shared between two vaults (vault/Exchange.h): what travels and what
// stays, how the sender is named, duplicates and a share received twice,
// what the receiver adds and keeps across a save, and the refusals.
#include "common/TestSupport.h"
#include "keychain/Keychain.h"
#include "share/Envelope.h"
#include "share/Identity.h"
#include "vault/Contacts.h"
#include "vault/Exchange.h"

#include <QtTest>

using namespace watchword;
using namespace watchword::vault;

Q_DECLARE_METATYPE(watchword::share::EnvelopeError)

namespace {

const QByteArray password = QByteArrayLiteral("correct horse battery staple");
const Calibration quick{minimumPasswordIterations, 1000, 9'400'000};

keychain::Keychain keychainOf(const char* phrase)
{
    auto restored = keychain::Keychain::restore(phrase);
    if (!restored)
        qFatal("keychain restore failed: %s", restored.error().message.c_str());
    return std::move(*restored);
}

const keychain::Keychain& aliceKeychain()
{
    static const auto keychain = keychainOf(
        "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
        "about");
    return keychain;
}

const keychain::Keychain& bobKeychain()
{
    static const auto keychain =
        keychainOf("legal winner thank year wave sausage worth useful legal winner thank yellow");
    return keychain;
}

const keychain::Keychain& carolKeychain()
{
    static const auto keychain = keychainOf(
        "letter advice cage absurd amount doctor acoustic avoid letter advice cage above");
    return keychain;
}

Vault newVault(const keychain::Keychain& keychain, crypto::RandomSource& random)
{
    auto vault = Vault::create(test::view(password), keychain, quick, random, 1767225600);
    if (!vault)
        qFatal("create failed: %s", vault.error().message.c_str());
    return std::move(*vault);
}

OtpAccount acmeAccount()
{
    OtpAccount account;
    account.issuer = "ACME";
    account.accountName = "alice@example.com";
    account.secret = SecureBuffer::fromString("12345678901234567890");
    account.parameters = otp::OtpParameters{};
    account.tags = {"work"};
    account.note = "the hardware token is in the drawer";
    account.created = 1000;
    account.modified = 2000;
    account.lastUsed = 3000;
    account.sortPosition = 7;
    return account;
}

SecureNote doorNote()
{
    SecureNote note;
    note.title = "Door code";
    note.body = SecureBuffer::fromString("Front door: 4711#, garage 0815*, alarm off: 2580.");
    note.created = 1000;
    note.modified = 2000;
    return note;
}

RecordId addTo(Vault& vault, Record record, crypto::RandomSource& random)
{
    auto id = vault.add(std::move(record), random);
    if (!id)
        qFatal("add failed: %s", id.error().message.c_str());
    return *id;
}

RecordId contactIn(Vault& vault, const keychain::Keychain& of, const char* name, bool verified,
                   crypto::RandomSource& random)
{
    auto id = addContact(vault, of.sharingKey().publicKey, name, 1767225600, random);
    if (!id)
        qFatal("addContact failed: %s", id.error().message.c_str());
    if (verified && !setContactVerified(vault, *id, true, 1767225600))
        qFatal("setContactVerified failed");
    return *id;
}

std::vector<crypto::PublicKey> to(std::initializer_list<const keychain::Keychain*> people)
{
    std::vector<crypto::PublicKey> keys;
    for (const auto* person : people)
        keys.push_back(person->sharingKey().publicKey);
    return keys;
}

std::string bodyOf(const SecureNote& note)
{
    return std::string(note.body.view());
}

} // namespace

class TestExchange : public QObject
{
    Q_OBJECT

private slots:
    void accountAndNoteTravelBetweenVaults();
    void whatStaysWithTheSender();
    void senderIsNamedByContacts();
    void duplicatesAndAShareReceivedTwice();
    void receivedRecordsSurviveASave();
    void onlyListedVaultsOpen();
    void brokenFieldsAreMalformed();
    void refusals();
};

void TestExchange::accountAndNoteTravelBetweenVaults()
{
    test::SeededRandom random(test::testSeed());
    auto alice = newVault(aliceKeychain(), random);
    auto bob = newVault(bobKeychain(), random);
    const RecordId ids[] = {addTo(alice, acmeAccount(), random), addTo(alice, doorNote(), random)};

    const auto sealed = shareRecords(alice, ids, to({&bobKeychain()}), 1767312000, random);
    QVERIFY2(sealed.ok(), sealed.ok() ? "" : sealed.error().message.c_str());
    const auto received = openShare(bob, *sealed);
    QVERIFY2(received.ok(), received.ok() ? "" : received.error().message.c_str());
    QCOMPARE(received->sender, aliceKeychain().sharingKey().publicKey.compressed());
    QCOMPARE(received->senderStatus, SenderStatus::Unknown);
    QCOMPARE(received->senderFingerprint,
             std::string("quit problem truck delay exchange maze fence essay"));
    QCOMPARE(received->created, std::int64_t{1767312000});
    QCOMPARE(received->otherRecipients, std::size_t{0});
    QVERIFY(!received->alreadyReceived);
    QCOMPARE(received->records.size(), std::size_t{2});

    const auto& account = std::get<OtpAccount>(received->records[0].record);
    QCOMPARE(account.issuer, std::string("ACME"));
    QCOMPARE(account.accountName, std::string("alice@example.com"));
    QCOMPARE(account.secret.view(), std::string_view("12345678901234567890"));
    QVERIFY(account.parameters == otp::OtpParameters{});
    QCOMPARE(account.tags, std::vector<std::string>{"work"});
    QCOMPARE(account.note, std::string("the hardware token is in the drawer"));
    const auto& note = std::get<SecureNote>(received->records[1].record);
    QCOMPARE(note.title, std::string("Door code"));
    QCOMPARE(bodyOf(note), std::string("Front door: 4711#, garage 0815*, alarm off: 2580."));
    for (const auto& record : received->records)
        QVERIFY(!record.duplicateOf);

    const std::size_t all[] = {0, 1};
    const auto added = addReceived(bob, *received, all, 1767398400, random);
    QVERIFY(added.ok());
    QCOMPARE(added->size(), std::size_t{2});
    const auto* stored = std::get_if<OtpAccount>(bob.find(added->front()));
    QVERIFY(stored);
    QCOMPARE(stored->issuer, std::string("ACME"));
    QCOMPARE(stored->created, std::int64_t{1767398400});
    QCOMPARE(stored->modified, std::int64_t{1767398400});
    QVERIFY(!stored->lastUsed);
    QCOMPARE(stored->version, std::uint64_t{1});
    QVERIFY(stored->receivedFrom);
    QCOMPARE(stored->receivedFrom->envelopeId, received->envelopeId);
    QCOMPARE(stored->receivedFrom->sender, received->sender);
    const auto* storedNote = std::get_if<SecureNote>(bob.find(added->back()));
    QVERIFY(storedNote);
    QVERIFY(storedNote->sortPosition > stored->sortPosition);
}

// The sender's list place, last use and where a record came from stay home.
void TestExchange::whatStaysWithTheSender()
{
    test::SeededRandom random(test::testSeed());
    auto alice = newVault(aliceKeychain(), random);
    auto bob = newVault(bobKeychain(), random);
    const RecordId id = addTo(alice, acmeAccount(), random);
    auto account = std::get<OtpAccount>(cloneRecord(*alice.find(id)));
    account.lastUsed = 5000;
    account.receivedFrom =
        ReceivedFrom{{1, 2, 3}, carolKeychain().sharingKey().publicKey.compressed()};
    QVERIFY(alice.update(std::move(account)).ok());

    const auto sealed = shareRecords(alice, std::span(&id, 1), to({&bobKeychain()}), 0, random);
    QVERIFY(sealed.ok());
    const auto opened = share::openEnvelope(*sealed, bobKeychain().sharingKey());
    QVERIFY(opened.ok());
    const auto decoded =
        decodeFields(RecordKind::OtpAccount, RecordId{}, 0, opened->records.front().fields);
    QVERIFY(decoded.ok());
    const auto& travelled = std::get<OtpAccount>(*decoded);
    QVERIFY(!travelled.lastUsed);
    QVERIFY(!travelled.receivedFrom);
    QCOMPARE(travelled.sortPosition, std::uint32_t{0});
    QCOMPARE(travelled.created, std::int64_t{1000});
}

void TestExchange::senderIsNamedByContacts()
{
    test::SeededRandom random(test::testSeed());
    auto alice = newVault(aliceKeychain(), random);
    auto bob = newVault(bobKeychain(), random);
    const RecordId id = addTo(alice, doorNote(), random);
    const auto sealed =
        shareRecords(alice, std::span(&id, 1), to({&bobKeychain(), &aliceKeychain()}), 0, random);
    QVERIFY(sealed.ok());

    const auto contact = contactIn(bob, aliceKeychain(), "Alice", false, random);
    auto received = openShare(bob, *sealed);
    QVERIFY(received.ok());
    QCOMPARE(received->senderStatus, SenderStatus::UnverifiedContact);
    QCOMPARE(received->senderName, std::string("Alice"));
    QCOMPARE(received->contact, std::optional<RecordId>(contact));
    QCOMPARE(received->otherRecipients, std::size_t{1});

    QVERIFY(setContactVerified(bob, contact, true, 0).ok());
    received = openShare(bob, *sealed);
    QCOMPARE(received->senderStatus, SenderStatus::VerifiedContact);

    // Alice listed herself: she reads what she sent, from herself.
    const auto own = openShare(alice, *sealed);
    QVERIFY(own.ok());
    QCOMPARE(own->senderStatus, SenderStatus::Yourself);
    QVERIFY(own->records.front().duplicateOf);
    QCOMPARE(*own->records.front().duplicateOf, id);
}

void TestExchange::duplicatesAndAShareReceivedTwice()
{
    test::SeededRandom random(test::testSeed());
    auto alice = newVault(aliceKeychain(), random);
    auto bob = newVault(bobKeychain(), random);
    const RecordId ids[] = {addTo(alice, acmeAccount(), random), addTo(alice, doorNote(), random)};
    // Bob has the account already, under another name: the same secret and
    // settings make the same codes.
    auto renamed = acmeAccount();
    renamed.issuer = "Acme Corp";
    renamed.accountName = "work";
    const RecordId bobsCopy = addTo(bob, std::move(renamed), random);

    const auto sealed = shareRecords(alice, ids, to({&bobKeychain()}), 0, random);
    QVERIFY(sealed.ok());
    auto received = openShare(bob, *sealed);
    QVERIFY(received.ok());
    QCOMPARE(received->records[0].duplicateOf, std::optional<RecordId>(bobsCopy));
    QVERIFY(!received->records[1].duplicateOf);

    const std::size_t noteOnly[] = {1};
    const auto added = addReceived(bob, *received, noteOnly, 0, random);
    QVERIFY(added.ok());

    received = openShare(bob, *sealed);
    QVERIFY(received.ok());
    QVERIFY(received->alreadyReceived);
    QCOMPARE(received->records[1].duplicateOf, std::optional<RecordId>(added->front()));

    // Another digit count is another account; a note with another body is
    // another note.
    auto eightDigits = acmeAccount();
    eightDigits.parameters.digits = 8;
    auto edited = doorNote();
    edited.body = SecureBuffer::fromString("Front door: 1234#");
    const RecordId others[] = {addTo(alice, std::move(eightDigits), random),
                               addTo(alice, std::move(edited), random)};
    const auto second = shareRecords(alice, others, to({&bobKeychain()}), 0, random);
    QVERIFY(second.ok());
    received = openShare(bob, *second);
    QVERIFY(received.ok());
    QVERIFY(!received->alreadyReceived);
    QVERIFY(!received->records[0].duplicateOf);
    QVERIFY(!received->records[1].duplicateOf);
}

void TestExchange::receivedRecordsSurviveASave()
{
    test::SeededRandom random(test::testSeed());
    auto alice = newVault(aliceKeychain(), random);
    auto bob = newVault(bobKeychain(), random);
    const RecordId id = addTo(alice, doorNote(), random);
    const auto sealed = shareRecords(alice, std::span(&id, 1), to({&bobKeychain()}), 0, random);
    QVERIFY(sealed.ok());
    const auto received = openShare(bob, *sealed);
    QVERIFY(received.ok());
    const std::size_t first[] = {0};
    QVERIFY(addReceived(bob, *received, first, 0, random).ok());

    const auto file = bob.serialize(random, 1767398400);
    QVERIFY(file.ok());
    const auto reopened = Vault::unlockWithPassword(*file, test::view(password));
    QVERIFY(reopened.ok());
    const auto again = openShare(*reopened, *sealed);
    QVERIFY(again.ok());
    QVERIFY(again->alreadyReceived);
    const auto* note = std::get_if<SecureNote>(reopened->find(*again->records[0].duplicateOf));
    QVERIFY(note && note->receivedFrom);
    QCOMPARE(note->receivedFrom->sender, aliceKeychain().sharingKey().publicKey.compressed());
}

void TestExchange::onlyListedVaultsOpen()
{
    test::SeededRandom random(test::testSeed());
    auto alice = newVault(aliceKeychain(), random);
    auto carol = newVault(carolKeychain(), random);
    const RecordId id = addTo(alice, doorNote(), random);
    const auto sealed = shareRecords(alice, std::span(&id, 1), to({&bobKeychain()}), 0, random);
    QVERIFY(sealed.ok());
    for (const Vault* reader : {&alice, &carol}) {
        const auto refused = openShare(*reader, *sealed);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, share::EnvelopeError::NotForMe);
    }
}

// Fields that break section 6.4, sealed and signed by a faulty writer.
void TestExchange::brokenFieldsAreMalformed()
{
    test::SeededRandom random(test::testSeed());
    auto bob = newVault(bobKeychain(), random);
    const auto good = encodeFields(Record(doorNote())).value();
    const Bytes withoutBody(good.begin(), good.end() - 5 - 49); // 0x22 is last
    std::vector<share::SharedRecord> records;
    records.push_back({share::sharedAccountKind, SecureBuffer(ByteView(good))});
    records.push_back({share::sharedNoteKind, SecureBuffer(ByteView(withoutBody))});
    const auto bobKey = to({&bobKeychain()});
    for (std::size_t broken = 0; broken < 2; ++broken) {
        std::vector<share::SharedRecord> one;
        one.push_back({records[broken].kind, records[broken].fields.clone()});
        const auto sealed =
            share::sealEnvelope(random, aliceKeychain().sharingKey(), bobKey, one, 0);
        QVERIFY(sealed.ok());
        const auto refused = openShare(bob, *sealed);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, share::EnvelopeError::Malformed);
        QVERIFY(refused.error().message.find("record 1") != std::string::npos);
    }
}

void TestExchange::refusals()
{
    test::SeededRandom random(test::testSeed());
    auto alice = newVault(aliceKeychain(), random);
    auto bob = newVault(bobKeychain(), random);
    const RecordId note = addTo(alice, doorNote(), random);
    const auto contact = contactIn(alice, bobKeychain(), "Bob", true, random);
    const auto bobKey = to({&bobKeychain()});

    const RecordId unknown{};
    const auto code = [&](const RecordId& id) {
        const auto sealed = shareRecords(alice, std::span(&id, 1), bobKey, 0, random);
        return sealed.ok() ? std::optional<share::EnvelopeError>{} : sealed.error().code;
    };
    QCOMPARE(code(unknown), share::EnvelopeError::InvalidContents);
    QCOMPARE(code(contact), share::EnvelopeError::InvalidContents);
    QCOMPARE(code(note), std::optional<share::EnvelopeError>{});

    // A version 1 vault has no sharing identity until its phrase is used.
    const auto v1 = test::loadJson(QStringLiteral("vault/vectors.json"));
    const auto old =
        Vault::unlockWithPassword(test::hex(v1[QStringLiteral("file_hex")].toString()),
                                  test::hex(v1[QStringLiteral("password_hex")].toString()));
    QVERIFY(old.ok());
    QVERIFY(!old->sharingKey());
    const auto noIdentity = shareRecords(*old, {}, bobKey, 0, random);
    QVERIFY(!noIdentity.ok());
    QCOMPARE(noIdentity.error().code, share::EnvelopeError::NoIdentity);
    const auto sealed = shareRecords(alice, std::span(&note, 1), bobKey, 0, random);
    QVERIFY(sealed.ok());
    const auto cannotOpen = openShare(*old, *sealed);
    QVERIFY(!cannotOpen.ok());
    QCOMPARE(cannotOpen.error().code, share::EnvelopeError::NoIdentity);

    const auto received = openShare(bob, *sealed);
    QVERIFY(received.ok());
    const std::size_t outOfRange[] = {1};
    const std::size_t twice[] = {0, 0};
    QCOMPARE(addReceived(bob, *received, outOfRange, 0, random).error().code,
             VaultError::InvalidRecord);
    QCOMPARE(addReceived(bob, *received, twice, 0, random).error().code, VaultError::InvalidRecord);
    QCOMPARE(bob.recordCount(), std::size_t{0});
}

QTEST_APPLESS_MAIN(TestExchange)
#include "TestExchange.moc"
