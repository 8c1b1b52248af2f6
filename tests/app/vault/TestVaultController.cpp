#include "app/codes/AccountDraft.h"
#include "app/codes/AccountStore.h"
#include "app/codes/Clock.h"
#include "app/desktop/ClipboardService.h"
#include "app/notes/NoteDraft.h"
#include "app/notes/NoteStore.h"
#include "app/vault/AccountCopies.h"
#include "app/vault/Passwords.h"
#include "app/vault/RecoveryPhrase.h"
#include "app/vault/UndoHistory.h"
#include "app/vault/VaultController.h"
#include "common/TestSupport.h"
#include "crypto/Random.h"
#include "encoding/Hex.h"
#include "keychain/Keychain.h"
#include "vault/Storage.h"
#include "vault/Vault.h"
#include "vault/VaultFile.h"

#include <QClipboard>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace watchword;
using watchword::app::AccountDraft;
using watchword::app::AccountListModel;
using watchword::app::AccountStore;
using watchword::app::ClipboardService;
using watchword::app::Clock;
using watchword::app::NoteDraft;
using watchword::app::NoteStore;
using watchword::app::Passwords;
using watchword::app::RecoveryPhrase;
using watchword::app::VaultController;

namespace {

// "pässword" in NFKD (a + combining diaeresis): what the vault derives from.
const QString nfcPassword = QString::fromUtf8("p\xc3\xa4ssword");
const QString nfdPassword = QString::fromUtf8("pa\xcc\x88ssword");

// RFC 6238's SHA-1 seed: at T = 59 its 8-digit code is 94287082.
const QByteArray rfcSecret = "12345678901234567890";

// The keychain writeVault() makes the vault with: the same every call.
keychain::Keychain fixtureKeychain()
{
    test::SeededRandom random(test::testSeed());
    auto keychain = keychain::Keychain::create(random, 24);
    if (!keychain)
        qFatal("keychain");
    return std::move(*keychain);
}

QString phraseOf(const keychain::Keychain& keychain)
{
    return QString::fromUtf8(reinterpret_cast<const char*>(keychain.mnemonic().data()),
                             qsizetype(keychain.mnemonic().size()));
}

// Writes a vault with two accounts (and, withContact, the contact "Bob") at
// path; returns the first account's id.
QByteArray writeVault(const QString& path, bool withContact = false)
{
    test::SeededRandom random(test::testSeed());
    auto keychain = keychain::Keychain::create(random, 24);
    if (!keychain)
        qFatal("keychain");
    const QByteArray password = nfdPassword.toUtf8();
    auto created =
        vault::Vault::create(test::view(password), *keychain,
                             {vault::minimumPasswordIterations, 1000, 9'000'000}, random, 1);
    if (!created)
        qFatal("vault: %s", created.error().message.c_str());
    vault::RecordId first{};
    for (int i = 0; i < 2; ++i) {
        vault::OtpAccount account;
        account.issuer = i == 0 ? "RFC 6238" : "Other";
        account.accountName = "alice";
        account.secret = SecureBuffer(test::view(rfcSecret));
        account.parameters.digits = 8;
        auto id = created->add(std::move(account), random);
        if (!id)
            qFatal("add");
        if (i == 0)
            first = *id;
    }
    if (withContact) {
        vault::Contact bob;
        bob.name = "Bob";
        bob.publicKey = keychain->recoveryKey().publicKey.compressed();
        bob.sortPosition = 2;
        if (!created->add(std::move(bob), random))
            qFatal("add contact");
    }
    auto bytes = created->serialize(random, 2);
    if (!bytes)
        qFatal("serialize");
    auto storage = vault::VaultStorage::create(path.toStdString(), *bytes, crypto::systemRandom());
    if (!storage)
        qFatal("storage: %s", storage.error().message.c_str());
    return QByteArray::fromStdString(encoding::toHex(first));
}

// A vault file with two accounts in a temporary directory and a controller
// for it, the clock at T = 59.
struct Fixture
{
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("v.wwv"));
    QByteArray firstId = writeVault(path);
    Clock clock;
    ClipboardService clipboard;
    std::unique_ptr<VaultController> controller;
    std::unique_ptr<AccountStore> accounts;
    std::unique_ptr<NoteStore> notes;

    Fixture()
    {
        clock.setMilliseconds(59'000);
        controller = std::make_unique<VaultController>(path);
        accounts = std::make_unique<AccountStore>(*controller, clock, clipboard);
        notes = std::make_unique<NoteStore>(*controller);
    }
};

// A note as the editor makes it: its id, or "" if refused.
QString addNote(NoteStore& notes, const QString& title, const QString& body,
                const QString& tags = {})
{
    NoteDraft draft;
    draft.setTitle(title);
    draft.setBody(body);
    draft.setTagsText(tags);
    return notes.add(&draft);
}

bool updateNote(NoteStore& notes, const QString& id, const QString& title, const QString& body)
{
    NoteDraft draft;
    if (!notes.edit(id, &draft))
        return false;
    draft.setTitle(title);
    draft.setBody(body);
    return notes.update(&draft);
}

// Unlocks with password and waits for the worker; its success.
bool unlockAndWait(VaultController& controller, const QString& password)
{
    QSignalSpy finished(&controller, &VaultController::unlockFinished);
    controller.unlock(password);
    return finished.wait(10'000) && finished.last().at(0).toBool();
}

// The vault file at path as another reader sees it, opened with password.
std::optional<vault::Vault> readBack(const QString& path, const QString& password)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray bytes = file.readAll();
    const QByteArray secret = password.normalized(QString::NormalizationForm_KD).toUtf8();
    auto vault = vault::Vault::unlockWithPassword(test::view(bytes), test::view(secret));
    if (!vault)
        return std::nullopt;
    return std::move(*vault);
}

// The account of vault whose issuer is issuer, or null.
const vault::OtpAccount* accountNamed(const vault::Vault& vault, const std::string& issuer)
{
    for (std::size_t i = 0; i < vault.recordCount(); ++i)
        if (const auto* account = std::get_if<vault::OtpAccount>(&vault.record(i));
            account && account->issuer == issuer)
            return account;
    return nullptr;
}

std::size_t accountCount(const vault::Vault& vault)
{
    std::size_t count = 0;
    for (std::size_t i = 0; i < vault.recordCount(); ++i)
        count += std::holds_alternative<vault::OtpAccount>(vault.record(i)) ? 1 : 0;
    return count;
}

// Waits until the controller has written the file (every queued save).
bool waitForSaves(VaultController& controller)
{
    if (!controller.saving())
        return true;
    QSignalSpy saving(&controller, &VaultController::savingChanged);
    while (controller.saving())
        if (!saving.wait(10'000))
            return false;
    return true;
}

// The row of the account model with that record id, or -1.
int rowOf(const AccountListModel& accounts, const QString& id)
{
    for (int i = 0; i < accounts.rowCount(); ++i)
        if (accounts.data(accounts.index(i), AccountListModel::IdRole).toString() == id)
            return i;
    return -1;
}

QVariant roleOf(const AccountListModel& accounts, const QString& id, int role)
{
    return accounts.data(accounts.index(rowOf(accounts, id)), role);
}

const QString strongPassword = QStringLiteral("orbit velvet lantern quarry");

} // namespace

class TestVaultController : public QObject
{
    Q_OBJECT

private slots:
    void noteSearch_data();
    void noteSearch();
    void missingFileIsTheFirstRun();
    void wrongPasswordThenRightOne();
    void eitherUnicodeFormUnlocks();
    void copyLockAndTheClipboard();
    void clockTicksTheCodes();
    void demoVault();
    void createFlow();
    void addEditRemoveUndo();
    void hotpAdvanceIsSaved();
    void moveAccountKeepsTheOrder();
    void notes();
    void contactsAreNeitherAccountsNorNotes();
    void changePassword();
    void newRecoveryPhrase();
    void recoverWithThePhrase();
    void recentlyUsedIsWrittenOnLock();
    void aSaveThatFailsLeavesTheFile();
    void lockWaitsForAPasswordChange();
};

void TestVaultController::missingFileIsTheFirstRun()
{
    QTemporaryDir dir;
    Clock clock;
    ClipboardService clipboard;
    VaultController controller(dir.filePath(QStringLiteral("none.wwv")));
    QCOMPARE(controller.state(), VaultController::State::Missing);
    controller.unlock(nfcPassword); // nothing to unlock
    QCOMPARE(controller.state(), VaultController::State::Missing);
}

void TestVaultController::wrongPasswordThenRightOne()
{
    Fixture fixture;
    VaultController& controller = *fixture.controller;
    QCOMPARE(controller.state(), VaultController::State::Locked);

    QSignalSpy finished(&controller, &VaultController::unlockFinished);
    QSignalSpy states(&controller, &VaultController::stateChanged);
    controller.unlock(QStringLiteral("not it"));
    QCOMPARE(controller.state(), VaultController::State::Unlocking); // the GUI thread goes on
    QVERIFY(finished.wait(10'000));
    QCOMPARE(finished.last().at(0).toBool(), false);
    QCOMPARE(controller.state(), VaultController::State::Locked);
    QVERIFY2(controller.error().contains(QStringLiteral("wrong password")),
             qPrintable(controller.error()));
    QCOMPARE(fixture.accounts->model()->rowCount(), 0);

    controller.unlock(nfcPassword);
    QVERIFY(finished.wait(10'000));
    QCOMPARE(finished.last().at(0).toBool(), true);
    QCOMPARE(controller.state(), VaultController::State::Unlocked);
    QVERIFY(controller.error().isEmpty());
    QCOMPARE(controller.progress(), 1.0);
    QCOMPARE(fixture.accounts->model()->rowCount(), 2);
    QCOMPARE(states.count(), 4); // Unlocking, Locked, Unlocking, Unlocked
    // An empty password never reaches the worker.
    controller.lock();
    controller.unlock(QString());
    QCOMPARE(controller.state(), VaultController::State::Locked);
    QVERIFY(!controller.error().isEmpty());
}

void TestVaultController::eitherUnicodeFormUnlocks()
{
    Fixture fixture;
    for (const QString& typed : {nfcPassword, nfdPassword}) {
        QVERIFY(unlockAndWait(*fixture.controller, typed));
        fixture.controller->lock();
    }
}

void TestVaultController::copyLockAndTheClipboard()
{
    Fixture fixture;
    VaultController& controller = *fixture.controller;
    const QByteArray& id = fixture.firstId;
    QVERIFY(unlockAndWait(controller, nfcPassword));
    QVERIFY(fixture.accounts->copyCode(QString::fromLatin1(id)));
    QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("94287082"));
    QVERIFY(!fixture.accounts->copyCode(QStringLiteral("00")));

    controller.lock();
    QCOMPARE(controller.state(), VaultController::State::Locked);
    QCOMPARE(fixture.accounts->model()->rowCount(), 0);
    QVERIFY(QGuiApplication::clipboard()->text().isEmpty());
    QVERIFY(!fixture.accounts->copyCode(QString::fromLatin1(id)));
}

void TestVaultController::clockTicksTheCodes()
{
    Fixture fixture;
    QVERIFY(unlockAndWait(*fixture.controller, nfcPassword));
    const auto* accounts = fixture.accounts->model();
    const auto code = [accounts] {
        return accounts->data(accounts->index(0), AccountListModel::PlainCodeRole).toString();
    };
    QCOMPARE(code(), QStringLiteral("94287082"));
    fixture.clock.setMilliseconds(1'111'111'109'000);
    // RFC 6238: T = 1111111109 gives 07081804.
    QCOMPARE(code(), QStringLiteral("07081804"));
}

// The notes' search: title, tags and body, case and accents aside.
void TestVaultController::noteSearch_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<bool>("found");
    QTest::newRow("empty finds all") << QString() << true;
    QTest::newRow("title") << QStringLiteral("TRIP") << true;
    QTest::newRow("tag") << QStringLiteral("travel") << true;
    QTest::newRow("body") << QStringLiteral("room 12") << true;
    QTest::newRow("no accent finds the accented") << QStringLiteral("zurich") << true;
    QTest::newRow("accented finds the accented") << QStringLiteral("Z\u00fcrich") << true;
    QTest::newRow("decomposed form") << QStringLiteral("zu\u0308rich") << true;
    QTest::newRow("elsewhere") << QStringLiteral("geneva") << false;
}

void TestVaultController::noteSearch()
{
    QFETCH(QString, query);
    QFETCH(bool, found);
    auto controller = VaultController::makeDemo();
    NoteStore notes(*controller);
    QSignalSpy finished(controller.get(), &VaultController::unlockFinished);
    QVERIFY(finished.wait(10'000));
    const QString id =
        addNote(notes, QStringLiteral("Conference trip"),
                QStringLiteral("Hotel near Z\u00fcrich HB, room 12"), QStringLiteral("Travel"));
    QVERIFY(!id.isEmpty());
    QCOMPARE(notes.matches(id.toLatin1(), query), found);
    QVERIFY(!notes.matches("00", QStringLiteral("trip")));
}

void TestVaultController::demoVault()
{
    Clock clock;
    clock.setMilliseconds(1'800'000'000'000);
    ClipboardService clipboard;
    auto controller = VaultController::makeDemo();
    AccountStore store(*controller, clock, clipboard);
    QVERIFY(controller->demo());
    QSignalSpy finished(controller.get(), &VaultController::unlockFinished);
    QVERIFY(finished.wait(10'000));
    QCOMPARE(controller->state(), VaultController::State::Unlocked);
    const auto* accounts = store.model();
    QCOMPARE(accounts->rowCount(), 7);
    QStringList kinds;
    for (int i = 0; i < accounts->rowCount(); ++i)
        kinds << accounts->data(accounts->index(i), AccountListModel::KindRole).toString();
    QVERIFY(kinds.contains(QStringLiteral("steam")) && kinds.contains(QStringLiteral("hotp")));
    controller->lock();
    QCOMPARE(controller->state(), VaultController::State::Locked);
    controller->unlock(QStringLiteral("demo"));
    QVERIFY(finished.wait(10'000));
    QCOMPARE(controller->state(), VaultController::State::Unlocked);
    QCOMPARE(accounts->rowCount(), 7);
}

void TestVaultController::createFlow()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sub/new.wwv"));
    Clock clock;
    ClipboardService clipboard;
    VaultController controller(path);
    controller.setUnlockTargetMilliseconds(100);
    QCOMPARE(controller.state(), VaultController::State::Missing);

    QVERIFY(!controller.phrase()->beginCreate(strongPassword, strongPassword + QLatin1Char('x')));
    QVERIFY(controller.error().contains(QStringLiteral("not the same")));
    QVERIFY(!controller.phrase()->beginCreate(QStringLiteral("password1"),
                                              QStringLiteral("password1")));
    QVERIFY(controller.error().contains(QStringLiteral("too easy")));

    QSignalSpy phrase(controller.phrase(), &RecoveryPhrase::recoveryPhraseChanged);
    QVERIFY(controller.phrase()->beginCreate(strongPassword, strongPassword));
    QVERIFY(phrase.wait(10'000));
    const QStringList words = controller.phrase()->recoveryWords();
    QCOMPARE(words.size(), 24);
    const QList<int> positions = controller.phrase()->confirmPositions();
    QCOMPARE(positions.size(), RecoveryPhrase::confirmWordCount);
    for (qsizetype i = 0; i < positions.size(); ++i) {
        QVERIFY(positions[i] >= 1 && positions[i] <= 24);
        QVERIFY(i == 0 || positions[i] > positions[i - 1]);
    }
    QVERIFY(!QFileInfo::exists(path)); // nothing is written before the confirmation

    // A wrong word names its position; nothing is created.
    QStringList answer;
    for (const int p : positions)
        answer << words[p - 1];
    QStringList wrong = answer;
    wrong[1] = words[positions[1] - 1] == QStringLiteral("zoo") ? QStringLiteral("abandon")
                                                                : QStringLiteral("zoo");
    QVERIFY(!controller.phrase()->confirmRecoveryPhrase(wrong));
    QVERIFY(controller.error().contains(QString::number(positions[1])));
    QCOMPARE(controller.state(), VaultController::State::Missing);

    // Right (in any case, with spaces): the vault is created and opened.
    answer[0] = QLatin1Char(' ') + answer[0].toUpper() + QLatin1Char(' ');
    QSignalSpy finished(&controller, &VaultController::unlockFinished);
    QSignalSpy saved(&controller, &VaultController::saved);
    QVERIFY(controller.phrase()->confirmRecoveryPhrase(answer));
    QCOMPARE(controller.state(), VaultController::State::Unlocking);
    QVERIFY(finished.wait(20'000));
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(controller.error()));
    QCOMPARE(controller.state(), VaultController::State::Unlocked);
    QVERIFY(controller.phrase()->recoveryWords().isEmpty());
    QCOMPARE(saved.count(), 1);
    QCOMPARE(QFile(path).permissions() & (QFile::ReadGroup | QFile::ReadOther),
             QFileDevice::Permissions());

    // Another reader opens it with the password and with the phrase.
    QVERIFY(readBack(path, strongPassword).has_value());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    const auto restored = keychain::Keychain::restore(words.join(QLatin1Char(' ')).toStdString());
    QVERIFY(restored.ok());
    QVERIFY(vault::Vault::unlockWithRecovery(test::view(bytes), *restored).ok());
    const auto header = vault::decodeHeader(test::view(bytes));
    QVERIFY(header.ok());
    QCOMPARE(header->passwordSlot.targetMilliseconds, 100u);
    QVERIFY(header->passwordSlot.iterations >= vault::minimumPasswordIterations);
}

void TestVaultController::addEditRemoveUndo()
{
    Fixture fixture;
    VaultController& controller = *fixture.controller;
    QVERIFY(unlockAndWait(controller, nfcPassword));
    const auto& accounts = *fixture.accounts->model();

    AccountDraft draft;
    QVERIFY(draft.loadUri(QStringLiteral(
        "otpauth://totp/"
        "Example:bob?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Example&digits=8")));
    QVERIFY(fixture.accounts->add(&draft));
    QCOMPARE(accounts.rowCount(), 3);
    QVERIFY(waitForSaves(controller));
    auto file = readBack(fixture.path, nfcPassword);
    QVERIFY(file.has_value());
    const auto* added = accountNamed(*file, "Example");
    QVERIFY(added != nullptr);
    QCOMPARE(added->accountName, std::string("bob"));
    QCOMPARE(added->sortPosition, 1u); // after the two stored (both at position 0)
    const QString id = QString::fromStdString(encoding::toHex(added->id));
    QCOMPARE(roleOf(accounts, id, AccountListModel::PlainCodeRole).toString(),
             QStringLiteral("94287082")); // RFC 6238 at T = 59

    // Edit: a draft filled from the stored account, renamed.
    std::unique_ptr<AccountDraft> edit(fixture.accounts->draftFor(id));
    QVERIFY(edit != nullptr);
    QCOMPARE(edit->recordId(), id);
    QCOMPARE(edit->issuer(), QStringLiteral("Example"));
    edit->setIssuer(QStringLiteral("Renamed"));
    QVERIFY(fixture.accounts->update(edit.get()));
    QCOMPARE(roleOf(accounts, id, AccountListModel::IssuerRole).toString(),
             QStringLiteral("Renamed"));
    QVERIFY(waitForSaves(controller));
    file = readBack(fixture.path, nfcPassword);
    QVERIFY(file && accountNamed(*file, "Renamed") && !accountNamed(*file, "Example"));
    QCOMPARE(accountNamed(*file, "Renamed")->created, added->created); // checked just above
    // An invalid draft changes nothing.
    edit->setSecret(QStringLiteral("not base32 !"));
    QVERIFY(!fixture.accounts->update(edit.get()));
    QVERIFY(!controller.error().isEmpty());

    // Delete, then undo.
    QVERIFY(!controller.history()->canUndo());
    QVERIFY(fixture.accounts->remove(id));
    QCOMPARE(accounts.rowCount(), 2);
    QVERIFY(controller.history()->canUndo());
    QVERIFY(controller.history()->undoText().contains(QStringLiteral("Renamed (bob)")));
    QVERIFY(waitForSaves(controller));
    file = readBack(fixture.path, nfcPassword);
    QVERIFY(file && !accountNamed(*file, "Renamed"));
    QVERIFY(!controller.history()->undo().isEmpty());
    QVERIFY(!controller.history()->canUndo());
    QCOMPARE(accounts.rowCount(), 3);
    QVERIFY(waitForSaves(controller));
    file = readBack(fixture.path, nfcPassword);
    QVERIFY(file.has_value());
    const auto* back = accountNamed(*file, "Renamed");
    QVERIFY(back != nullptr);
    QCOMPARE(back->sortPosition, 1u);
    QCOMPARE(test::toHex(back->secret.span()), test::toHex(test::view(rfcSecret)));
    QVERIFY(!fixture.accounts->remove(QStringLiteral("00")));

    // The undo list dies with the lock.
    QVERIFY(fixture.accounts->remove(QString::fromLatin1(fixture.firstId)));
    QVERIFY(controller.history()->canUndo());
    controller.lock();
    QVERIFY(!controller.history()->canUndo());
}

void TestVaultController::hotpAdvanceIsSaved()
{
    Fixture fixture;
    VaultController& controller = *fixture.controller;
    QVERIFY(unlockAndWait(controller, nfcPassword));
    AccountDraft draft;
    // RFC 4226 appendix D: counter 0 gives 755224, counter 1 gives 287082.
    QVERIFY(draft.loadUri(QStringLiteral(
        "otpauth://hotp/Token:bob?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&counter=0")));
    QVERIFY(fixture.accounts->add(&draft));
    const auto& accounts = *fixture.accounts->model();
    QString id;
    for (int i = 0; i < accounts.rowCount(); ++i)
        if (accounts.data(accounts.index(i), AccountListModel::KindRole).toString() ==
            QStringLiteral("hotp"))
            id = accounts.data(accounts.index(i), AccountListModel::IdRole).toString();
    QVERIFY(!id.isEmpty());
    QCOMPARE(roleOf(accounts, id, AccountListModel::PlainCodeRole).toString(),
             QStringLiteral("755224"));
    QVERIFY(fixture.accounts->advanceCounter(id));
    QCOMPARE(roleOf(accounts, id, AccountListModel::PlainCodeRole).toString(),
             QStringLiteral("287082"));
    QVERIFY(waitForSaves(controller));
    const auto file = readBack(fixture.path, nfcPassword);
    QVERIFY(file.has_value());
    const auto* token = accountNamed(*file, "Token");
    QVERIFY(token != nullptr);
    QCOMPARE(token->parameters.counter, 1u);
    // A TOTP account has no counter to advance.
    QVERIFY(!fixture.accounts->advanceCounter(QString::fromLatin1(fixture.firstId)));
}

void TestVaultController::moveAccountKeepsTheOrder()
{
    Fixture fixture;
    VaultController& controller = *fixture.controller;
    QVERIFY(unlockAndWait(controller, nfcPassword));
    AccountDraft draft;
    QVERIFY(draft.loadUri(
        QStringLiteral("otpauth://totp/Third:x?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")));
    QVERIFY(fixture.accounts->add(&draft));
    const auto& accounts = *fixture.accounts->model();
    // Stored order: the two fixture accounts share position 0 (ties by row),
    // Third is at 1. Move Third to the top.
    QString third;
    for (int i = 0; i < accounts.rowCount(); ++i)
        if (accounts.data(accounts.index(i), AccountListModel::IssuerRole).toString() ==
            QStringLiteral("Third"))
            third = accounts.data(accounts.index(i), AccountListModel::IdRole).toString();
    QVERIFY(!third.isEmpty());
    QVERIFY(fixture.accounts->move(third, 0));
    QCOMPARE(roleOf(accounts, third, AccountListModel::SortPositionRole).toUInt(), 0u);
    QVERIFY(!fixture.accounts->move(third, 3)); // out of range
    QVERIFY(waitForSaves(controller));
    const auto file = readBack(fixture.path, nfcPassword);
    QVERIFY(file.has_value());
    std::vector<std::pair<std::uint32_t, std::string>> order;
    for (std::size_t i = 0; i < file->recordCount(); ++i) {
        const auto& account = std::get<vault::OtpAccount>(file->record(i));
        order.emplace_back(account.sortPosition, account.issuer);
    }
    std::sort(order.begin(), order.end());
    QCOMPARE(order.size(), std::size_t(3));
    QCOMPARE(order[0], std::make_pair(0u, std::string("Third")));
    QCOMPARE(order[1].first, 1u);
    QCOMPARE(order[2].first, 2u);
}

void TestVaultController::notes()
{
    Fixture fixture;
    VaultController& controller = *fixture.controller;
    QVERIFY(unlockAndWait(controller, nfcPassword));
    const auto& notes = *fixture.notes->model();
    QCOMPARE(notes.rowCount(), 0);
    QVERIFY(addNote(*fixture.notes, QStringLiteral("  "), QStringLiteral("body")).isEmpty());
    // Typed decomposed, with a superscript: stored composed (NFC) and
    // otherwise as typed; compatibility mapping would turn "²" into "2".
    const QString id =
        addNote(*fixture.notes, QStringLiteral("Wi-Fi"),
                QString::fromUtf8("pa\xcc\x88ssword x\xc2\xb2"), QStringLiteral("home"));
    QVERIFY(!id.isEmpty());
    QCOMPARE(notes.rowCount(), 1);
    QCOMPARE(notes.data(notes.index(0), app::NoteListModel::TitleRole).toString(),
             QStringLiteral("Wi-Fi"));
    // The body is not in the model, only revealed on request.
    for (const int role : notes.roleNames().keys())
        QVERIFY(!notes.data(notes.index(0), role).toString().contains(QStringLiteral("ssword")));
    QCOMPARE(fixture.notes->reveal(id), QString::fromUtf8("p\xc3\xa4ssword x\xc2\xb2")); // NFC
    QVERIFY(addNote(*fixture.notes, QStringLiteral("Alarm code"), QStringLiteral("4711")).size());
    QCOMPARE(notes.data(notes.index(0), app::NoteListModel::TitleRole).toString(),
             QStringLiteral("Alarm code")); // sorted by title
    QVERIFY(updateNote(*fixture.notes, id, QStringLiteral("Wi-Fi (home)"), QStringLiteral("new")));
    QCOMPARE(fixture.notes->reveal(id), QStringLiteral("new"));
    QVERIFY(waitForSaves(controller));
    auto file = readBack(fixture.path, nfcPassword);
    QVERIFY(file.has_value());
    QCOMPARE(file->recordCount(), std::size_t(4));
    QVERIFY(fixture.notes->remove(id));
    QCOMPARE(notes.rowCount(), 1);
    QVERIFY(controller.history()->undoText().contains(QStringLiteral("Wi-Fi (home)")));
    QVERIFY(!controller.history()->undo().isEmpty());
    QCOMPARE(notes.rowCount(), 2);
    QVERIFY(waitForSaves(controller));
    file = readBack(fixture.path, nfcPassword);
    QVERIFY(file.has_value());
    bool found = false;
    for (std::size_t i = 0; i < file->recordCount(); ++i)
        if (const auto* note = std::get_if<vault::SecureNote>(&file->record(i));
            note && note->title == "Wi-Fi (home)")
            found = test::toHex(note->body.span()) == test::toHex(test::view(QByteArray("new")));
    QVERIFY(found);
    controller.lock();
    QCOMPARE(notes.rowCount(), 0);
    QVERIFY(fixture.notes->reveal(id).isEmpty());
}

// The app has no contacts page yet: a vault's contacts show as no account
// and no note, are not exported, and its saves keep them as they were.
void TestVaultController::contactsAreNeitherAccountsNorNotes()
{
    Fixture fixture;
    QVERIFY(QFile::remove(fixture.path));
    writeVault(fixture.path, true);
    VaultController& controller = *fixture.controller;
    QVERIFY(unlockAndWait(controller, nfcPassword));
    QCOMPARE(fixture.accounts->model()->rowCount(), 2);
    QCOMPARE(fixture.notes->model()->rowCount(), 0);
    const auto copies = app::accountCopies(controller, {});
    QVERIFY(copies.ok());
    QCOMPARE(copies->size(), std::size_t(2));
    QVERIFY(!addNote(*fixture.notes, QStringLiteral("Door"), QStringLiteral("1234")).isEmpty());
    QCOMPARE(fixture.notes->model()->rowCount(), 1);
    QVERIFY(waitForSaves(controller));
    const auto file = readBack(fixture.path, nfcPassword);
    QVERIFY(file.has_value());
    QCOMPARE(file->recordCount(), std::size_t(4));
    QCOMPARE(accountCount(*file), std::size_t(2));
    int contacts = 0;
    for (std::size_t i = 0; i < file->recordCount(); ++i)
        if (const auto* contact = std::get_if<vault::Contact>(&file->record(i))) {
            QCOMPARE(contact->name, std::string("Bob"));
            QCOMPARE(contact->version, std::uint64_t(1));
            ++contacts;
        }
    QCOMPARE(contacts, 1);
}

void TestVaultController::changePassword()
{
    Fixture fixture;
    VaultController& controller = *fixture.controller;
    controller.setUnlockTargetMilliseconds(100);
    QVERIFY(unlockAndWait(controller, nfcPassword));
    QSignalSpy finished(controller.passwords(), &Passwords::finished);
    // Refused at once: the two new ones differ.
    QVERIFY(!controller.passwords()->change(nfcPassword, strongPassword, QStringLiteral("other")));
    QCOMPARE(finished.count(), 0);
    // Refused by the worker: the current one is wrong.
    QVERIFY(
        controller.passwords()->change(QStringLiteral("wrong"), strongPassword, strongPassword));
    QVERIFY(controller.busy());
    QVERIFY(finished.wait(20'000));
    QCOMPARE(finished.last().at(0).toBool(), false);
    QVERIFY(controller.error().contains(QStringLiteral("current password is wrong")));
    QVERIFY(!controller.busy());
    QVERIFY(readBack(fixture.path, nfcPassword).has_value());

    QVERIFY(controller.passwords()->change(nfcPassword, strongPassword, strongPassword));
    QVERIFY(finished.wait(20'000));
    QCOMPARE(finished.last().at(0).toBool(), true);
    QVERIFY(waitForSaves(controller));
    QVERIFY(!readBack(fixture.path, nfcPassword).has_value());
    QVERIFY(readBack(fixture.path, strongPassword).has_value());
    // The phrase still opens it (the recovery slot wraps the new key).
    QFile file(fixture.path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(vault::Vault::unlockWithRecovery(test::view(file.readAll()), fixtureKeychain()).ok());
    // Edits go on with the new key.
    QVERIFY(fixture.accounts->remove(QString::fromLatin1(fixture.firstId)));
    QVERIFY(waitForSaves(controller));
    QCOMPARE(accountCount(*readBack(fixture.path, strongPassword)), std::size_t(1));
}

void TestVaultController::newRecoveryPhrase()
{
    Fixture fixture;
    VaultController& controller = *fixture.controller;
    QVERIFY(unlockAndWait(controller, nfcPassword));
    QSignalSpy finished(controller.phrase(), &RecoveryPhrase::replaced);
    QSignalSpy phrase(controller.phrase(), &RecoveryPhrase::recoveryPhraseChanged);
    QVERIFY(controller.phrase()->beginNewRecoveryPhrase(QStringLiteral("wrong")));
    QVERIFY(finished.wait(20'000));
    QCOMPARE(finished.last().at(0).toBool(), false);
    QVERIFY(controller.phrase()->recoveryWords().isEmpty());

    QVERIFY(controller.phrase()->beginNewRecoveryPhrase(nfcPassword));
    QVERIFY(phrase.wait(20'000));
    const QStringList words = controller.phrase()->recoveryWords();
    QCOMPARE(words.size(), 24);
    QStringList answer;
    for (const int p : controller.phrase()->confirmPositions())
        answer << words[p - 1];
    QVERIFY(controller.phrase()->confirmRecoveryPhrase(answer));
    QCOMPARE(finished.last().at(0).toBool(), true);
    QVERIFY(waitForSaves(controller));
    QFile file(fixture.path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    const auto restored = keychain::Keychain::restore(words.join(QLatin1Char(' ')).toStdString());
    QVERIFY(restored.ok());
    QVERIFY(vault::Vault::unlockWithRecovery(test::view(bytes), *restored).ok());
    const auto old = vault::Vault::unlockWithRecovery(test::view(bytes), fixtureKeychain());
    QVERIFY(!old.ok());
    QCOMPARE(old.error().code, vault::VaultError::WrongRecoveryPhrase);
    QVERIFY(readBack(fixture.path, nfcPassword).has_value());
}

void TestVaultController::recoverWithThePhrase()
{
    Fixture fixture;
    VaultController& controller = *fixture.controller;
    controller.setUnlockTargetMilliseconds(100);
    QSignalSpy finished(&controller, &VaultController::unlockFinished);
    // Not a valid phrase: the checksum fails.
    controller.recover(QStringLiteral("abandon abandon abandon"), strongPassword, strongPassword);
    QVERIFY(finished.wait(20'000));
    QCOMPARE(finished.last().at(0).toBool(), false);
    QCOMPARE(controller.state(), VaultController::State::Locked);
    QVERIFY(!controller.error().isEmpty());
    // Another valid phrase: refused, the file untouched.
    test::SeededRandom other(test::testSeed() + 7);
    const auto stranger = keychain::Keychain::create(other, 24);
    QVERIFY(stranger.ok());
    controller.recover(phraseOf(*stranger), strongPassword, strongPassword);
    QVERIFY(finished.wait(20'000));
    QCOMPARE(finished.last().at(0).toBool(), false);
    QVERIFY(controller.error().contains(QStringLiteral("wrong recovery phrase")));
    QVERIFY(readBack(fixture.path, nfcPassword).has_value());

    controller.recover(phraseOf(fixtureKeychain()), strongPassword, strongPassword);
    QVERIFY(finished.wait(20'000));
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(controller.error()));
    QCOMPARE(controller.state(), VaultController::State::Unlocked);
    QCOMPARE(fixture.accounts->model()->rowCount(), 2);
    QVERIFY(!readBack(fixture.path, nfcPassword).has_value());
    QVERIFY(readBack(fixture.path, strongPassword).has_value());
    // The previous file is the newest backup.
    QVERIFY(readBack(fixture.path + QStringLiteral(".1"), nfcPassword).has_value());
}

void TestVaultController::recentlyUsedIsWrittenOnLock()
{
    Fixture fixture;
    VaultController& controller = *fixture.controller;
    QVERIFY(unlockAndWait(controller, nfcPassword));
    QFile before(fixture.path);
    QVERIFY(before.open(QIODevice::ReadOnly));
    const QByteArray original = before.readAll();
    before.close();
    const QString id = QString::fromLatin1(fixture.firstId);
    QVERIFY(fixture.accounts->copyCode(id));
    const qint64 used =
        roleOf(*fixture.accounts->model(), id, AccountListModel::LastUsedRole).toLongLong();
    QVERIFY(std::abs(used - QDateTime::currentSecsSinceEpoch()) < 60);
    // A copy alone writes nothing (no backup rotation per click)...
    QVERIFY(!controller.saving());
    QFile still(fixture.path);
    QVERIFY(still.open(QIODevice::ReadOnly));
    QCOMPARE(still.readAll(), original);
    // ...locking does.
    QSignalSpy saved(&controller, &VaultController::saved);
    controller.lock();
    QVERIFY(saved.wait(10'000));
    const auto file = readBack(fixture.path, nfcPassword);
    QVERIFY(file.has_value());
    const auto* account = accountNamed(*file, "RFC 6238");
    QVERIFY(account != nullptr);
    QCOMPARE(account->lastUsed.value_or(0), used);
}

void TestVaultController::aSaveThatFailsLeavesTheFile()
{
    Fixture fixture;
    VaultController& controller = *fixture.controller;
    QVERIFY(unlockAndWait(controller, nfcPassword));
    // Someone else writes the file after we opened it.
    {
        test::SeededRandom random(test::testSeed() + 3);
        const auto keychain = keychain::Keychain::create(random, 24);
        auto other = vault::Vault::create(test::view(QByteArray("other")), *keychain,
                                          {vault::minimumPasswordIterations, 1000, 0}, random, 5);
        QVERIFY(other.ok());
        const auto bytes = other->serialize(random, 6);
        QVERIFY(bytes.ok());
        QFile file(fixture.path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(reinterpret_cast<const char*>(bytes->data()), qint64(bytes->size()));
    }
    QFile written(fixture.path);
    QVERIFY(written.open(QIODevice::ReadOnly));
    const QByteArray theirs = written.readAll();
    written.close();

    QSignalSpy failed(&controller, &VaultController::saveFailed);
    QVERIFY(fixture.accounts->remove(QString::fromLatin1(fixture.firstId)));
    QVERIFY(failed.wait(10'000));
    QVERIFY2(controller.error().contains(QStringLiteral("not saved")),
             qPrintable(controller.error()));
    QVERIFY(controller.error().contains(QStringLiteral("changed")));
    QVERIFY(waitForSaves(controller));
    QVERIFY(written.open(QIODevice::ReadOnly));
    QCOMPARE(written.readAll(), theirs);
}

void TestVaultController::lockWaitsForAPasswordChange()
{
    Fixture fixture;
    VaultController& controller = *fixture.controller;
    controller.setUnlockTargetMilliseconds(100);
    QVERIFY(unlockAndWait(controller, nfcPassword));
    QSignalSpy finished(controller.passwords(), &Passwords::finished);
    QVERIFY(controller.passwords()->change(nfcPassword, strongPassword, strongPassword));
    controller.lock(); // the worker holds the vault: the lock waits for it
    QCOMPARE(controller.state(), VaultController::State::Unlocked);
    QVERIFY(finished.wait(20'000));
    QTRY_COMPARE(controller.state(), VaultController::State::Locked);
    QCOMPARE(fixture.accounts->model()->rowCount(), 0);
    QVERIFY(waitForSaves(controller));
    QVERIFY(readBack(fixture.path, strongPassword).has_value());
}

QTEST_MAIN(TestVaultController)
#include "TestVaultController.moc"
