// The vault's contacts (vault/Contacts.h): adding with the writers' rules
// (docs/FORMAT.md section 6.4: one contact per key; names distinct without
// regard to ASCII case; never the vault's own identity), finding by name,
// fingerprint words and id prefix, renaming and marking verified.
#include "common/TestSupport.h"
#include "keychain/Keychain.h"
#include "share/Identity.h"
#include "vault/Contacts.h"
#include "vault/Vault.h"

#include <QtTest>

using namespace watchword;
using namespace watchword::vault;

Q_DECLARE_METATYPE(watchword::vault::ContactError)

namespace {

keychain::Keychain keychainOf(const char* phrase)
{
    auto restored = keychain::Keychain::restore(phrase);
    if (!restored)
        qFatal("keychain restore failed: %s", restored.error().message.c_str());
    return std::move(*restored);
}

// The vault's own phrase, and two other people's.
const char* const ownPhrase = "legal winner thank year wave sausage worth useful legal winner "
                              "thank yellow";
const char* const alicePhrase = "abandon abandon abandon abandon abandon abandon abandon abandon "
                                "abandon abandon abandon about";
const char* const bobPhrase = "zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong";

crypto::PublicKey sharingKeyOf(const char* phrase)
{
    return keychainOf(phrase).sharingKey().publicKey;
}

const Calibration calibration{minimumPasswordIterations, 1000, 1'000'000};

Vault newVault(crypto::RandomSource& random)
{
    auto vault =
        Vault::create(asBytes("a password"), keychainOf(ownPhrase), calibration, random, 1);
    if (!vault)
        qFatal("vault create failed: %s", vault.error().message.c_str());
    return std::move(*vault);
}

QString idHex(const RecordId& id)
{
    return test::toHex(ByteView(id.data(), id.size()));
}

} // namespace

class TestContacts : public QObject
{
    Q_OBJECT

private slots:
    void addsAContact();
    void addRefuses_data();
    void addRefuses();
    void names_data();
    void names();
    void finds_data();
    void finds();
    void ambiguousIdPrefix();
    void renames();
    void marksVerified();
    void identityInAFile();
};

void TestContacts::addsAContact()
{
    test::SeededRandom random(test::testSeed());
    auto vault = newVault(random);
    SecureNote note;
    note.title = "a note";
    note.sortPosition = 4;
    QVERIFY(vault.add(std::move(note), random).ok());
    // The name is neutralised as every label: the override goes.
    const auto id = addContact(vault, sharingKeyOf(alicePhrase), "Ali\u202ece", 1767225600, random);
    QVERIFY2(id.ok(), id.ok() ? "" : id.error().message.c_str());
    const auto* contact = std::get_if<Contact>(vault.find(*id));
    QVERIFY(contact != nullptr);
    QCOMPARE(contact->name, std::string("Alice"));
    QCOMPARE(contact->publicKey, sharingKeyOf(alicePhrase).compressed());
    QVERIFY(!contact->verified);
    QCOMPARE(contact->created, std::int64_t{1767225600});
    QCOMPARE(contact->modified, std::int64_t{1767225600});
    QCOMPARE(contact->sortPosition, 5u); // after the note
    QCOMPARE(contact->version, std::uint64_t{1});
    QVERIFY(publicKeyOf(*contact) == sharingKeyOf(alicePhrase));
    const auto contacts = contactsOf(vault);
    QCOMPARE(contacts.size(), std::size_t{1});
    QCOMPARE(contacts.front(), contact);
}

void TestContacts::addRefuses_data()
{
    QTest::addColumn<QByteArray>("phrase");
    QTest::addColumn<QString>("name");
    QTest::addColumn<ContactError>("error");
    QTest::addColumn<QString>("message");
    QTest::newRow("own identity") << QByteArray(ownPhrase) << "Me" << ContactError::OwnIdentity
                                  << "that is your own identity";
    QTest::newRow("the same key") << QByteArray(alicePhrase) << "Another name"
                                  << ContactError::AlreadyAContact << "already a contact: Alice";
    QTest::newRow("the same name")
        << QByteArray(bobPhrase) << "Alice" << ContactError::NameTaken << "already named \"Alice\"";
    QTest::newRow("the same name in another case")
        << QByteArray(bobPhrase) << "aLICE" << ContactError::NameTaken << "already named";
    QTest::newRow("the same name after neutralising")
        << QByteArray(bobPhrase) << "Al\u200bice" << ContactError::NameTaken << "already named";
    QTest::newRow("empty name") << QByteArray(bobPhrase) << "" << ContactError::InvalidName
                                << "must not be empty";
    QTest::newRow("invisible name") << QByteArray(bobPhrase) << "\u202e\u200b"
                                    << ContactError::InvalidName << "must not be empty";
    QTest::newRow("257-byte name") << QByteArray(bobPhrase) << QString(257, u'b')
                                   << ContactError::InvalidName << "at most 256 bytes";
}

void TestContacts::addRefuses()
{
    QFETCH(QByteArray, phrase);
    QFETCH(QString, name);
    QFETCH(ContactError, error);
    QFETCH(QString, message);
    test::SeededRandom random(test::testSeed());
    auto vault = newVault(random);
    QVERIFY(addContact(vault, sharingKeyOf(alicePhrase), "Alice", 1, random).ok());
    const auto added =
        addContact(vault, sharingKeyOf(phrase.constData()), name.toStdString(), 2, random);
    QVERIFY(!added.ok());
    QCOMPARE(added.error().code, error);
    QVERIFY2(QString::fromStdString(added.error().message).contains(message),
             added.error().message.c_str());
    QCOMPARE(vault.recordCount(), std::size_t{1});
}

void TestContacts::names_data()
{
    QTest::addColumn<QByteArray>("typed");
    QTest::addColumn<QByteArray>("kept"); // empty: refused
    QTest::newRow("plain") << QByteArray("Bob") << QByteArray("Bob");
    QTest::newRow("a tab becomes a space") << QByteArray("Bob\tB") << QByteArray("Bob B");
    QTest::newRow("256 bytes") << QByteArray(256, 'x') << QByteArray(256, 'x');
    QTest::newRow("256 bytes once neutralised")
        << QByteArray(256, 'x') + "\xe2\x80\x8b" << QByteArray(256, 'x');
    QTest::newRow("257 bytes") << QByteArray(257, 'x') << QByteArray();
    QTest::newRow("not UTF-8") << QByteArray("B\xff") << QByteArray();
    QTest::newRow("empty") << QByteArray() << QByteArray();
}

void TestContacts::names()
{
    QFETCH(QByteArray, typed);
    QFETCH(QByteArray, kept);
    const auto name = contactName(typed.toStdString());
    QCOMPARE(name.ok(), !kept.isEmpty());
    if (name.ok())
        QCOMPARE(QByteArray::fromStdString(*name), kept);
    else
        QCOMPARE(name.error().code, ContactError::InvalidName);
}

void TestContacts::finds_data()
{
    QTest::addColumn<QString>("which");
    QTest::addColumn<QString>("found"); // the name, or empty: NotFound
    const QString aliceWords =
        QString::fromStdString(share::identityFingerprintText(sharingKeyOf(alicePhrase)));
    QTest::newRow("name") << "Bob"
                          << "Bob";
    QTest::newRow("name in another case") << "bOB"
                                          << "Bob";
    QTest::newRow("name with a space") << "Carol Ann"
                                       << "Carol Ann";
    QTest::newRow("name, not a prefix of it") << "Bo"
                                              << "";
    QTest::newRow("fingerprint words") << aliceWords << "Alice";
    QTest::newRow("fingerprint words in capitals, spaced")
        << "  " + aliceWords.toUpper().replace(u' ', QStringLiteral(" \t ")) + "\n"
        << "Alice";
    QTest::newRow("seven fingerprint words") << aliceWords.section(u' ', 0, 6) << "";
    QTest::newRow("whole id") << "id:32"
                              << "Alice";
    QTest::newRow("id prefix of 4") << "id:4"
                                    << "Alice";
    QTest::newRow("id prefix in capitals") << "ID:6"
                                           << "Alice";
    QTest::newRow("id prefix of 3") << "id:3"
                                    << "";
    QTest::newRow("nothing") << "Dave"
                             << "";
    QTest::newRow("empty") << ""
                           << "";
}

void TestContacts::finds()
{
    QFETCH(QString, which);
    QFETCH(QString, found);
    test::SeededRandom random(test::testSeed());
    auto vault = newVault(random);
    OtpAccount account;
    account.issuer = "Bob";
    account.secret = SecureBuffer::fromString("0123456789");
    QVERIFY(vault.add(std::move(account), random).ok());
    const auto alice = addContact(vault, sharingKeyOf(alicePhrase), "Alice", 1, random);
    QVERIFY(alice.ok());
    QVERIFY(addContact(vault, sharingKeyOf(bobPhrase), "Bob", 1, random).ok());
    QVERIFY(addContact(vault, keychainOf(ownPhrase).recoveryKey().publicKey, "Carol Ann", 1, random)
                .ok());
    // "id:N" and "ID:N": the first N hex digits of Alice's id.
    if (which.startsWith(QLatin1String("id:"), Qt::CaseInsensitive)) {
        const QString hex = idHex(*alice).left(which.mid(3).toInt());
        which = which.startsWith(QLatin1String("ID")) ? hex.toUpper() : hex;
    }
    const auto contact = findContact(vault, which.toStdString());
    if (found.isEmpty()) {
        QVERIFY(!contact.ok());
        QCOMPARE(contact.error().code, ContactError::NotFound);
        return;
    }
    QVERIFY2(contact.ok(), contact.ok() ? "" : contact.error().message.c_str());
    QCOMPARE(QString::fromStdString((*contact)->name), found);
}

void TestContacts::ambiguousIdPrefix()
{
    test::SeededRandom random(test::testSeed());
    auto vault = newVault(random);
    // Two ids that share their first five hex digits.
    test::ScriptedRandom ids(QByteArray::fromHex("abcde000000000000000000000000001"
                                                 "abcdef00000000000000000000000002"));
    QVERIFY(addContact(vault, sharingKeyOf(alicePhrase), "Alice", 1, ids).ok());
    QVERIFY(addContact(vault, sharingKeyOf(bobPhrase), "Bob", 1, ids).ok());
    const auto both = findContact(vault, "abcde");
    QVERIFY(!both.ok());
    QCOMPARE(both.error().code, ContactError::Ambiguous);
    QVERIFY(QString::fromStdString(both.error().message).contains(QLatin1String("2 contacts")));
    const auto bob = findContact(vault, "ABCDEF");
    QVERIFY(bob.ok());
    QCOMPARE((*bob)->name, std::string("Bob"));
}

void TestContacts::renames()
{
    test::SeededRandom random(test::testSeed());
    auto vault = newVault(random);
    const auto alice = addContact(vault, sharingKeyOf(alicePhrase), "Alice", 1, random);
    QVERIFY(alice.ok());
    QVERIFY(addContact(vault, sharingKeyOf(bobPhrase), "Bob", 1, random).ok());
    const auto contact = [&] {
        return std::get<Contact>(*vault.find(*alice));
    };

    QVERIFY(renameContact(vault, *alice, "Alice B.", 5).ok());
    QCOMPARE(contact().name, std::string("Alice B."));
    QCOMPARE(contact().modified, std::int64_t{5});
    QCOMPARE(contact().created, std::int64_t{1});
    // Its own name in another case is its own.
    QVERIFY(renameContact(vault, *alice, "ALICE b.", 6).ok());
    QCOMPARE(contact().name, std::string("ALICE b."));
    const auto taken = renameContact(vault, *alice, "bob", 7);
    QVERIFY(!taken.ok());
    QCOMPARE(taken.error().code, ContactError::NameTaken);
    const auto empty = renameContact(vault, *alice, "\u200b", 7);
    QVERIFY(!empty.ok());
    QCOMPARE(empty.error().code, ContactError::InvalidName);
    QVERIFY(renameContact(vault, *alice, "\n", 7).ok()); // a line break becomes a space: a name
    QCOMPARE(contact().modified, std::int64_t{7});
    const auto missing = renameContact(vault, RecordId{}, "Zed", 8);
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().code, ContactError::NotFound);
    QCOMPARE(contact().name, std::string(" "));
}

void TestContacts::marksVerified()
{
    test::SeededRandom random(test::testSeed());
    auto vault = newVault(random);
    OtpAccount account;
    account.secret = SecureBuffer::fromString("0123456789");
    const auto accountId = vault.add(std::move(account), random);
    QVERIFY(accountId.ok());
    const auto alice = addContact(vault, sharingKeyOf(alicePhrase), "Alice", 1, random);
    QVERIFY(alice.ok());
    const auto verified = setContactVerified(vault, *alice, true, 9);
    QVERIFY(verified.ok());
    QVERIFY(*verified);
    const auto& contact = std::get<Contact>(*vault.find(*alice));
    QVERIFY(contact.verified);
    QCOMPARE(contact.modified, std::int64_t{9});
    QCOMPARE(contact.version, std::uint64_t{2});
    // Already so: nothing changes.
    const auto again = setContactVerified(vault, *alice, true, 10);
    QVERIFY(again.ok());
    QVERIFY(!*again);
    QCOMPARE(std::get<Contact>(*vault.find(*alice)).version, std::uint64_t{2});
    const auto unverified = setContactVerified(vault, *alice, false, 11);
    QVERIFY(unverified.ok() && *unverified);
    QVERIFY(!std::get<Contact>(*vault.find(*alice)).verified);
    // An account is no contact.
    const auto notAContact = setContactVerified(vault, *accountId, true, 12);
    QVERIFY(!notAContact.ok());
    QCOMPARE(notAContact.error().code, ContactError::NotFound);
}

// What someone hands over to become a contact: their vault file (its
// header's identity, no password), or a text file holding their identity.
void TestContacts::identityInAFile()
{
    test::SeededRandom random(test::testSeed());
    Vault vault = newVault(random);
    const auto file = vault.serialize(random, 2);
    QVERIFY(file.ok());
    const auto own = identityInFile(*file);
    QVERIFY2(own.ok(), own.ok() ? "" : own.error().c_str());
    QVERIFY(*own == sharingKeyOf(ownPhrase));

    const std::string text = "\n  " + share::identityText(sharingKeyOf(alicePhrase)) + "\r\n";
    const auto fromText = identityInFile(asBytes(text));
    QVERIFY(fromText.ok());
    QVERIFY(*fromText == sharingKeyOf(alicePhrase));

    const auto refused = [](ByteView bytes, const char* expected) {
        const auto key = identityInFile(bytes);
        if (key.ok() || key.error().find(expected) == std::string::npos)
            qWarning("%s", key.ok() ? "opened" : key.error().c_str());
        return !key.ok() && key.error().find(expected) != std::string::npos;
    };
    // A vault file cut inside its header; a version 1 vault (no identity
    // until its phrase is checked); a damaged identity; something else.
    QVERIFY(refused(ByteView(file->data(), 20), "truncated"));
    const auto v1 = test::loadJson(QStringLiteral("vault/vectors.json"));
    QVERIFY(
        refused(test::hex(v1[QStringLiteral("file_hex")].toString()), "no sharing identity yet"));
    std::string damaged = text;
    damaged[30] = damaged[30] == 'q' ? 'p' : 'q';
    QVERIFY(refused(asBytes(damaged), "damaged"));
    QVERIFY(refused(asBytes("hello"), "not a Watchword identity"));
    QVERIFY(refused({}, "not a Watchword identity"));
}

QTEST_APPLESS_MAIN(TestContacts)
#include "TestContacts.moc"
