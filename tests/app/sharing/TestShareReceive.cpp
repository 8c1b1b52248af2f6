// "Share…" and "Receive a share…" on two real vault files of two people:
// a note and an account sealed by one, written as a file, as text and as a
// QR code's text, and opened by the other, who sees who sent it and what
// it holds, adds it, and sees it marked as received when it comes again.
// Every refusal: nothing chosen, not for this vault, damaged, not a share,
// from someone unknown; the files are untouched by each. Locking forgets
// what was opened. A share dropped on the import goes to receiving.
#include "app/AppVaultFixture.h"
#include "app/interop/ImportController.h"
#include "app/sharing/ContactBook.h"
#include "app/sharing/ReceiveController.h"
#include "app/sharing/ShareController.h"
#include "app/vault/RecordIds.h"
#include "app/vault/RecordViews.h"
#include "app/vault/SharingIdentity.h"
#include "crypto/Random.h"
#include "share/Envelope.h"
#include "vault/Contacts.h"
#include "vault/Exchange.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

using namespace watchword;
using app::ContactBook;
using app::ReceiveController;
using app::ShareController;

namespace {

// The vault on disk, unlocked afresh.
std::optional<vault::Vault> onDisk(const test::VaultFixture& fixture)
{
    const auto bytes = test::readBytes(fixture.path);
    const auto password = test::fixturePassword.toUtf8();
    auto opened = vault::Vault::unlockWithPassword(test::view(bytes), test::view(password));
    if (!opened)
        return std::nullopt;
    return std::move(*opened);
}

std::size_t recordsOnDisk(const test::VaultFixture& fixture)
{
    const auto vault = onDisk(fixture);
    return vault ? vault->recordCount() : 0;
}

bool savedWith(const test::VaultFixture& fixture, std::size_t records)
{
    return QTest::qWaitFor(
        [&] { return !fixture.controller->saving() && recordsOnDisk(fixture) == records; }, 10000);
}

// One person: a vault of two accounts, unlocked, with a contact book.
struct Person
{
    test::VaultFixture fixture;
    ContactBook contacts;

    explicit Person(std::uint64_t seed) : fixture(seed), contacts(*fixture.controller)
    {
        if (!fixture.unlock())
            qFatal("unlock");
    }
    QString identity() const { return fixture.controller->identity()->text(); }
    // Adds other as a contact named name, verified or not; its record id.
    QString know(const Person& other, const QString& name, bool verified)
    {
        const QString id = contacts.add(other.identity(), name);
        if (id.isEmpty() || !contacts.setVerified(id, verified))
            qFatal("contact: %s", qPrintable(contacts.error()));
        if (!savedWith(fixture, fixture.controller->vault()->recordCount()))
            qFatal("save");
        return id;
    }
    QString addNote(const char* title, const char* body)
    {
        vault::SecureNote note;
        note.title = title;
        note.body = SecureBuffer(asBytes(body));
        vault::Vault* vault = fixture.controller->editableVault();
        auto id = vault->add(std::move(note), crypto::systemRandom());
        if (!id)
            qFatal("note");
        fixture.controller->requestSave();
        if (!savedWith(fixture, vault->recordCount()))
            qFatal("save");
        return QString::fromLatin1(app::hexId(*id));
    }
    QStringList accountIds() const
    {
        QStringList ids;
        for (const auto* account : app::recordsOf<vault::OtpAccount>(*fixture.controller))
            ids << QString::fromLatin1(app::hexId(account->id));
        return ids;
    }
};

// Alice, who has Bob as a verified contact, and Bob (who does not know
// Alice yet); a sharer on Alice's vault.
struct AliceAndBob
{
    Person alice{test::testSeed()};
    Person bob{test::testSeed() + 7};
    QString bobId = alice.know(bob, QStringLiteral("Bob"), true);
    ShareController sharer;

    AliceAndBob() { sharer.setVault(alice.fixture.controller.get()); }
    // Alice's first account sealed to Bob.
    bool sealFirstAccount() { return sharer.seal({alice.accountIds().front()}, {bobId}); }
};

QVariantMap recordAt(const ReceiveController& receiver, int index)
{
    return receiver.records().at(index).toMap();
}

} // namespace

class TestShareReceive : public QObject
{
    Q_OBJECT

private slots:
    void accountAndNoteFromOnePersonToAnother();
    void sharingRefusals();
    void receivingRefusals();
    void unknownSenderAddedAsContact();
    void lockForgetsTheShare();
    void importHandsASharedFileOn();
    void demoShareForTheScreenshots();
    void aFailedSaveAddsNothing();
};

void TestShareReceive::accountAndNoteFromOnePersonToAnother()
{
    AliceAndBob people;
    people.bob.know(people.alice, QStringLiteral("Alice"), true);
    const QString noteId = people.alice.addNote("Door code", "4711, then the key under the mat");

    people.sharer.refresh();
    // The accounts in list order, then the note; no contact.
    QCOMPARE(people.sharer.records().size(), 3);
    QCOMPARE(people.sharer.records().at(0).toMap().value("title").toString(),
             QStringLiteral("First (alice)"));
    QCOMPARE(people.sharer.records().at(2).toMap().value("kind").toString(),
             QStringLiteral("note"));
    QCOMPARE(people.sharer.records().at(2).toMap().value("recordId").toString(), noteId);

    const QString account = people.alice.accountIds().front();
    QVERIFY(people.sharer.problem({}, {people.bobId}).contains(QStringLiteral("account or note")));
    QVERIFY(people.sharer.problem({account}, {}).contains(QStringLiteral("person")));
    QCOMPARE(people.sharer.problem({account, noteId}, {people.bobId}), QString());
    QVERIFY2(people.sharer.seal({account, noteId}, {people.bobId}),
             qPrintable(people.sharer.error()));
    QVERIFY(people.sharer.sealed());
    QVERIFY(people.sharer.summary().contains(QStringLiteral("2 records for Bob")));
    QVERIFY(people.sharer.text().startsWith(QString::fromLatin1(share::armourBegin.data())));
    QVERIFY(people.sharer.qrText().startsWith(QStringLiteral("watchword-share:")));
    QVERIFY(people.sharer.qrProblem().isEmpty());
    QVERIFY(people.sharer.suggestedFileName().endsWith(QStringLiteral(".wwshare")));

    // The file: written, never over another without consent.
    QTemporaryDir dir;
    const QUrl file = QUrl::fromLocalFile(dir.filePath(QStringLiteral("to-bob.wwshare")));
    QSignalSpy saved(&people.sharer, &ShareController::saved);
    QVERIFY(people.sharer.saveTo(file, false));
    QCOMPARE(saved.size(), 1);
    QCOMPARE(test::readBytes(file.toLocalFile()), people.sharer.envelope());
    QVERIFY(people.sharer.fileExists(file));
    const QByteArray first = people.sharer.envelope();
    // The same envelope as text and as a QR code's text.
    const QString text = people.sharer.text();
    const QString qrText = people.sharer.qrText();
    QVERIFY(people.sharer.seal({account}, {people.bobId}));
    QVERIFY(people.sharer.envelope() != first);
    QVERIFY(!people.sharer.saveTo(file, false));
    QVERIFY(people.sharer.error().contains(QStringLiteral("exists")));
    QCOMPARE(test::readBytes(file.toLocalFile()), first);

    // Bob opens the file: from Alice, verified; both records new and ticked.
    ReceiveController receiver;
    receiver.setVault(people.bob.fixture.controller.get());
    QVERIFY2(receiver.openFile(file), qPrintable(receiver.error()));
    QVERIFY(receiver.opened());
    QCOMPARE(receiver.sender(), ReceiveController::Sender::VerifiedContact);
    QCOMPARE(receiver.senderName(), QStringLiteral("Alice"));
    QVERIFY(receiver.senderText().contains(QStringLiteral("Alice, a contact you have verified")));
    QCOMPARE(receiver.senderIdentity(), people.alice.identity());
    QVERIFY(!receiver.alreadyReceived());
    QCOMPARE(receiver.records().size(), 2);
    QCOMPARE(recordAt(receiver, 0).value("title").toString(), QStringLiteral("First (alice)"));
    QCOMPARE(recordAt(receiver, 0).value("detail").toString(),
             QStringLiteral("TOTP, 6 digits, every 30 s"));
    QCOMPARE(recordAt(receiver, 1).value("kind").toString(), QStringLiteral("note"));
    QCOMPARE(recordAt(receiver, 1).value("title").toString(), QStringLiteral("Door code"));
    QCOMPARE(receiver.checkedCount(), 2);

    // Only the note, then added and saved.
    receiver.setChecked(0, false);
    QCOMPARE(receiver.checkedCount(), 1);
    QSignalSpy finished(&receiver, &ReceiveController::finished);
    QVERIFY(receiver.addChecked(false));
    QVERIFY(finished.wait(10000) || finished.size() == 1);
    QCOMPARE(finished.first().first().toString(), QStringLiteral("Added 1 record from Alice."));
    QVERIFY(!receiver.opened());
    QVERIFY(savedWith(people.bob.fixture, 4)); // two accounts, Alice, the note
    const auto bobs = onDisk(people.bob.fixture);
    QVERIFY(bobs.has_value());
    bool noteThere = false;
    for (std::size_t i = 0; i < bobs->recordCount(); ++i)
        if (const auto* note = std::get_if<vault::SecureNote>(&bobs->record(i)))
            noteThere = note->title == "Door code" &&
                        note->body.view() == std::string_view("4711, then the key under the mat") &&
                        note->receivedFrom.has_value();
    QVERIFY(noteThere);

    // The same envelope pasted as text: already received, the note a
    // duplicate, nothing ticked; the account added now.
    QVERIFY2(receiver.openText(QStringLiteral("Hi Bob, here it is:\n\n") + text +
                               QStringLiteral("\nCheers")),
             qPrintable(receiver.error()));
    QVERIFY(receiver.alreadyReceived());
    QCOMPARE(receiver.checkedCount(), 0);
    QCOMPARE(recordAt(receiver, 1).value("duplicate").toBool(), true);
    QVERIFY(recordAt(receiver, 1)
                .value("duplicateText")
                .toString()
                .contains(QStringLiteral("Door code")));
    QCOMPARE(recordAt(receiver, 0).value("duplicate").toBool(), false);
    QVERIFY(!receiver.addChecked(false));
    QVERIFY(receiver.error().contains(QStringLiteral("Tick at least one")));
    receiver.setChecked(0, true);
    QVERIFY(receiver.addChecked(false));
    QVERIFY(finished.wait(10000) || finished.size() == 2);
    QVERIFY(savedWith(people.bob.fixture, 5));
    // The account makes Alice's codes.
    const auto aliceAccounts = people.alice.fixture.copies();
    const auto bobAccounts = people.bob.fixture.copies();
    QCOMPARE(bobAccounts.size(), std::size_t(3));
    const auto& received = bobAccounts.back();
    const auto& original = aliceAccounts.front();
    QVERIFY(vault::sameCodes(received.secret.span(), received.parameters, original.secret.span(),
                             original.parameters));

    // And as the QR code's text, among other codes a screen shows.
    QVERIFY(
        receiver.openQrTexts({QStringLiteral("otpauth://totp/x?secret=JBSWY3DPEHPK3PXP"), qrText}));
    QVERIFY(receiver.alreadyReceived());
    QCOMPARE(recordAt(receiver, 0).value("duplicate").toBool(), true);
}

void TestShareReceive::sharingRefusals()
{
    AliceAndBob people;
    const QString account = people.alice.accountIds().front();
    const auto before = test::readBytes(people.alice.fixture.path);

    // A contact is not shared; an id the vault does not hold; someone who
    // is no longer a contact.
    QVERIFY(!people.sharer.seal({people.bobId}, {people.bobId}));
    QVERIFY(people.sharer.error().contains(QStringLiteral("only accounts and notes")));
    QVERIFY(
        !people.sharer.seal({QStringLiteral("00112233445566778899aabbccddeeff")}, {people.bobId}));
    QVERIFY(people.sharer.error().contains(QStringLiteral("no longer in the vault")));
    QVERIFY(!people.sharer.seal({account}, {account}));
    QVERIFY(people.sharer.error().contains(QStringLiteral("no longer among your contacts")));
    QVERIFY(!people.sharer.seal({account}, {}));
    QVERIFY(!people.sharer.sealed());
    // Nothing to save before a share is made.
    QTemporaryDir dir;
    QVERIFY(!people.sharer.saveTo(QUrl::fromLocalFile(dir.filePath(QStringLiteral("x.wwshare"))),
                                  false));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("x.wwshare"))));
    // A file it cannot write: the error names it, and the share stays made.
    QVERIFY(people.sharer.seal({account}, {people.bobId}));
    QVERIFY(!people.sharer.saveTo(
        QUrl::fromLocalFile(dir.filePath(QStringLiteral("no/such/x.wwshare"))), false));
    QVERIFY2(people.sharer.error().contains(QStringLiteral("no/such")),
             qPrintable(people.sharer.error()));
    QVERIFY(people.sharer.sealed());
    // Never over the vault itself or one of its backups, even when asked.
    for (const QString& own : {people.alice.fixture.path, people.alice.fixture.path + ".1"}) {
        QVERIFY(!people.sharer.saveTo(QUrl::fromLocalFile(own), true));
        QVERIFY2(people.sharer.error().contains(QStringLiteral("your vault")),
                 qPrintable(people.sharer.error()));
    }
    // Sharing changes nothing in the vault.
    QCOMPARE(test::readBytes(people.alice.fixture.path), before);
    // Locked: nothing to share.
    people.alice.fixture.controller->lock();
    QVERIFY(!people.sharer.sealed());
    QVERIFY(people.sharer.problem({account}, {people.bobId}).contains(QStringLiteral("Unlock")));
}

void TestShareReceive::receivingRefusals()
{
    AliceAndBob people;
    Person carol(test::testSeed() + 11);
    people.bob.know(people.alice, QStringLiteral("Alice"), false);
    QVERIFY(people.sealFirstAccount());
    const QString text = people.sharer.text();

    const auto refused = [](Person& person, const std::function<bool(ReceiveController&)>& open,
                            const QString& expected) {
        ReceiveController receiver;
        receiver.setVault(person.fixture.controller.get());
        const auto before = test::readBytes(person.fixture.path);
        const bool opened = open(receiver);
        if (opened || receiver.opened() || !receiver.error().contains(expected))
            qWarning("opened %d, error: %s", opened, qPrintable(receiver.error()));
        return !opened && !receiver.opened() && receiver.error().contains(expected) &&
               test::readBytes(person.fixture.path) == before;
    };
    // Not for Carol, nor for Alice who sealed it.
    QVERIFY(refused(
        carol, [&](auto& r) { return r.openText(text); }, QStringLiteral("not for")));
    QVERIFY(refused(
        people.alice, [&](auto& r) { return r.openText(text); }, QStringLiteral("not for")));
    // A changed letter in the middle of the Base64.
    QString damaged = text;
    const int at = damaged.indexOf(QLatin1Char('\n')) + 40;
    damaged[at] = damaged[at] == QLatin1Char('A') ? QLatin1Char('B') : QLatin1Char('A');
    QVERIFY(refused(
        people.bob, [&](auto& r) { return r.openText(damaged); },
        QStringLiteral("cannot be opened")));
    QVERIFY(refused(
        people.bob, [&](auto& r) { return r.openText(QStringLiteral("hello")); },
        QStringLiteral("not a Watchword share")));
    QVERIFY(refused(
        people.bob, [&](auto& r) { return r.openQrTexts({}); }, QStringLiteral("No QR code")));
    QVERIFY(refused(
        people.bob,
        [&](auto& r) {
            r.readFailed(QStringLiteral("The screen cannot be captured here."));
            return false;
        },
        QStringLiteral("The screen cannot be captured here.")));
    QVERIFY(refused(
        people.bob,
        [&](auto& r) { return r.openQrTexts({QStringLiteral("otpauth://totp/x?secret=JBSW")}); },
        QStringLiteral("not a Watchword share")));
    QVERIFY(refused(
        people.bob,
        [&](auto& r) {
            return r.openFile(QUrl::fromLocalFile(QStringLiteral("/no/such.wwshare")));
        },
        QStringLiteral("/no/such.wwshare")));
    QTemporaryDir dir;
    const QString empty = dir.filePath(QStringLiteral("empty.wwshare"));
    QFile(empty).open(QIODevice::WriteOnly);
    QVERIFY(refused(
        people.bob, [&](auto& r) { return r.openFile(QUrl::fromLocalFile(empty)); },
        QStringLiteral("empty.wwshare")));

    // From a contact not verified: opened, said so with the words to compare.
    ReceiveController receiver;
    receiver.setVault(people.bob.fixture.controller.get());
    QVERIFY(receiver.openText(text));
    QCOMPARE(receiver.sender(), ReceiveController::Sender::UnverifiedContact);
    QVERIFY(receiver.senderText().contains(QStringLiteral("not verified")));
    QVERIFY(
        receiver.senderText().contains(people.alice.fixture.controller->identity()->fingerprint()));
}

void TestShareReceive::unknownSenderAddedAsContact()
{
    AliceAndBob people;
    QVERIFY(people.sealFirstAccount());

    ReceiveController receiver;
    receiver.setVault(people.bob.fixture.controller.get());
    QVERIFY(receiver.openText(people.sharer.text()));
    QCOMPARE(receiver.sender(), ReceiveController::Sender::Unknown);
    QCOMPARE(receiver.senderFingerprint(),
             people.alice.fixture.controller->identity()->fingerprint());
    QVERIFY(receiver.senderText().contains(receiver.senderFingerprint()));
    // Not added from someone unknown unless the person says they know them.
    const auto before = test::readBytes(people.bob.fixture.path);
    QVERIFY(!receiver.addChecked(false));
    QVERIFY(receiver.error().contains(QStringLiteral("not one of your contacts")));
    QCOMPARE(test::readBytes(people.bob.fixture.path), before);
    // Added as a contact: the same share now names them; the ticks stay.
    receiver.setChecked(0, false);
    QVERIFY(!people.bob.contacts.add(receiver.senderIdentity(), QStringLiteral("Alice")).isEmpty());
    QVERIFY(receiver.reopen());
    QCOMPARE(receiver.sender(), ReceiveController::Sender::UnverifiedContact);
    QCOMPARE(receiver.senderName(), QStringLiteral("Alice"));
    QCOMPARE(receiver.checkedCount(), 0);
    receiver.setChecked(0, true);
    QSignalSpy finished(&receiver, &ReceiveController::finished);
    QVERIFY(receiver.addChecked(false));
    QVERIFY(finished.wait(10000) || finished.size() == 1);
    QVERIFY(savedWith(people.bob.fixture, 4));

    // Another unknown sender, added because the person knows them.
    Person carol(test::testSeed() + 11);
    const QString bobForCarol = carol.know(people.bob, QStringLiteral("Bob"), true);
    ShareController carolSharer;
    carolSharer.setVault(carol.fixture.controller.get());
    QVERIFY(carolSharer.seal({carol.accountIds().back()}, {bobForCarol}));
    QVERIFY(receiver.openText(carolSharer.text()));
    QCOMPARE(receiver.sender(), ReceiveController::Sender::Unknown);
    QVERIFY(receiver.addChecked(true));
    QVERIFY(finished.wait(10000) || finished.size() == 2);
    QCOMPARE(finished.last().first().toString(),
             QStringLiteral("Added 1 record from someone who is not a contact."));
    QVERIFY(savedWith(people.bob.fixture, 5));
}

void TestShareReceive::lockForgetsTheShare()
{
    AliceAndBob people;
    people.sharer.refresh();
    QVERIFY(people.sealFirstAccount());
    ReceiveController receiver;
    receiver.setVault(people.bob.fixture.controller.get());
    const QString text = people.sharer.text();
    QVERIFY(receiver.openText(text));
    QVERIFY(!receiver.records().isEmpty());
    QCOMPARE(receiver.checks().size(), receiver.records().size());

    people.alice.fixture.controller->lock();
    QVERIFY(!people.sharer.sealed());
    QVERIFY(people.sharer.records().isEmpty());
    QVERIFY(people.sharer.text().isEmpty());
    people.bob.fixture.controller->lock();
    QVERIFY(!receiver.opened());
    QVERIFY(receiver.records().isEmpty());
    QVERIFY(receiver.checks().isEmpty());
    QVERIFY(!receiver.reopen());
    // Locked: the same share cannot be opened.
    QVERIFY(!receiver.openText(text));
    QVERIFY2(receiver.error().contains(QStringLiteral("Unlock")), qPrintable(receiver.error()));
}

void TestShareReceive::importHandsASharedFileOn()
{
    AliceAndBob people;
    QVERIFY(people.sealFirstAccount());

    app::ImportController importer;
    importer.setVault(people.bob.fixture.controller.get());
    QSignalSpy found(&importer, &app::ImportController::shareFound);
    for (const QByteArray& data : {people.sharer.envelope(), people.sharer.text().toUtf8()}) {
        QVERIFY(importer.openData(data, QStringLiteral("from-alice.wwshare")));
        QCOMPARE(importer.stage(), app::ImportController::Stage::Empty);
    }
    QCOMPARE(found.size(), 2);
    QCOMPARE(found.first().at(0).toByteArray(), people.sharer.envelope());
    QCOMPARE(found.last().at(0).toByteArray(), people.sharer.envelope());
    ReceiveController receiver;
    receiver.setVault(people.bob.fixture.controller.get());
    QVERIFY(receiver.openData(found.first().at(0).toByteArray(), found.first().at(1).toString()));
    // Another app's export is still an import.
    QVERIFY(importer.openData(QByteArray("otpauth://totp/x?secret=JBSWY3DPEHPK3PXP"),
                              QStringLiteral("links.txt")));
    QCOMPARE(found.size(), 2);
    QCOMPARE(importer.stage(), app::ImportController::Stage::Source);
}

// The demo's share (the documentation's screenshot): from the demo's
// verified contact Alice, its first account a duplicate; only in the demo.
void TestShareReceive::demoShareForTheScreenshots()
{
    auto demo = app::VaultController::makeDemo();
    QSignalSpy unlocked(demo.get(), &app::VaultController::unlockFinished);
    QVERIFY(unlocked.wait(10'000));
    ReceiveController receiver;
    receiver.setVault(demo.get());
    QVERIFY2(receiver.openDemoSample(), qPrintable(receiver.error()));
    QCOMPARE(receiver.sender(), ReceiveController::Sender::VerifiedContact);
    QCOMPARE(receiver.senderName(), QStringLiteral("Alice"));
    QCOMPARE(receiver.records().size(), 3);
    QCOMPARE(recordAt(receiver, 0).value("duplicate").toBool(), true);
    QCOMPARE(recordAt(receiver, 1).value("duplicate").toBool(), false);
    QCOMPARE(recordAt(receiver, 2).value("kind").toString(), QStringLiteral("note"));
    QCOMPARE(receiver.checkedCount(), 2);

    Person someone(test::testSeed());
    ReceiveController notDemo;
    notDemo.setVault(someone.fixture.controller.get());
    QVERIFY(!notDemo.openDemoSample());
}

// The vault file changed behind the app's back: the save is refused, the
// records come out of memory again, the preview stays to try again, and
// nothing else can be opened while the save runs.
void TestShareReceive::aFailedSaveAddsNothing()
{
    AliceAndBob people;
    people.bob.know(people.alice, QStringLiteral("Alice"), true);
    QVERIFY(people.sealFirstAccount());
    ReceiveController receiver;
    receiver.setVault(people.bob.fixture.controller.get());
    QVERIFY(receiver.openText(people.sharer.text()));
    const std::size_t before = people.bob.fixture.controller->vault()->recordCount();
    people.bob.fixture.replaceFileBehindOurBack();
    const auto replaced = test::readBytes(people.bob.fixture.path);
    QSignalSpy finished(&receiver, &ReceiveController::finished);
    QVERIFY(receiver.addChecked(false));
    QVERIFY(receiver.busy());
    QVERIFY(!receiver.openText(people.sharer.text()));
    QVERIFY(receiver.error().contains(QStringLiteral("Wait until")));
    QVERIFY(receiver.opened());
    QVERIFY(QTest::qWaitFor([&] { return !receiver.busy(); }, 10000));
    QCOMPARE(finished.size(), 0);
    QVERIFY2(receiver.error().startsWith(QStringLiteral("Nothing was added: ")),
             qPrintable(receiver.error()));
    QVERIFY(receiver.opened());
    QCOMPARE(people.bob.fixture.controller->vault()->recordCount(), before);
    QCOMPARE(test::readBytes(people.bob.fixture.path), replaced);
}

QTEST_GUILESS_MAIN(TestShareReceive)
#include "TestShareReceive.moc"
