#include "ClipboardService.h"
#include "Clock.h"
#include "VaultController.h"
#include "common/TestSupport.h"
#include "crypto/Random.h"
#include "encoding/Hex.h"
#include "keychain/Keychain.h"
#include "vault/Storage.h"
#include "vault/Vault.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace watchword;
using watchword::app::AccountListModel;
using watchword::app::ClipboardService;
using watchword::app::Clock;
using watchword::app::VaultController;

namespace {

// "pässword" in NFKD (a + combining diaeresis): what the vault derives from.
const QString nfcPassword = QString::fromUtf8("p\xc3\xa4ssword");
const QString nfdPassword = QString::fromUtf8("pa\xcc\x88ssword");

// RFC 6238's SHA-1 seed: at T = 59 its 8-digit code is 94287082.
const QByteArray rfcSecret = "12345678901234567890";

// Writes a vault with two accounts at path; returns the first account's id.
QByteArray writeVault(const QString& path)
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

    Fixture()
    {
        clock.setMilliseconds(59'000);
        controller = std::make_unique<VaultController>(path, &clock, &clipboard);
    }
};

// Unlocks with password and waits for the worker; its success.
bool unlockAndWait(VaultController& controller, const QString& password)
{
    QSignalSpy finished(&controller, &VaultController::unlockFinished);
    controller.unlock(password);
    return finished.wait(10'000) && finished.last().at(0).toBool();
}

} // namespace

class TestVaultController : public QObject
{
    Q_OBJECT

private slots:
    void missingFileIsTheFirstRun();
    void wrongPasswordThenRightOne();
    void eitherUnicodeFormUnlocks();
    void copyLockAndTheClipboard();
    void clockTicksTheCodes();
    void demoVault();
};

void TestVaultController::missingFileIsTheFirstRun()
{
    QTemporaryDir dir;
    Clock clock;
    ClipboardService clipboard;
    VaultController controller(dir.filePath(QStringLiteral("none.wwv")), &clock, &clipboard);
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
    QCOMPARE(controller.accounts()->rowCount(), 0);

    controller.unlock(nfcPassword);
    QVERIFY(finished.wait(10'000));
    QCOMPARE(finished.last().at(0).toBool(), true);
    QCOMPARE(controller.state(), VaultController::State::Unlocked);
    QVERIFY(controller.error().isEmpty());
    QCOMPARE(controller.progress(), 1.0);
    QCOMPARE(controller.accounts()->rowCount(), 2);
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
    QVERIFY(controller.copyCode(QString::fromLatin1(id)));
    QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("94287082"));
    QVERIFY(!controller.copyCode(QStringLiteral("00")));

    controller.lock();
    QCOMPARE(controller.state(), VaultController::State::Locked);
    QCOMPARE(controller.accounts()->rowCount(), 0);
    QVERIFY(QGuiApplication::clipboard()->text().isEmpty());
    QVERIFY(!controller.copyCode(QString::fromLatin1(id)));
}

void TestVaultController::clockTicksTheCodes()
{
    Fixture fixture;
    QVERIFY(unlockAndWait(*fixture.controller, nfcPassword));
    const auto* accounts = fixture.controller->accounts();
    const auto code = [accounts] {
        return accounts->data(accounts->index(0), AccountListModel::PlainCodeRole).toString();
    };
    QCOMPARE(code(), QStringLiteral("94287082"));
    fixture.clock.setMilliseconds(1'111'111'109'000);
    // RFC 6238: T = 1111111109 gives 07081804.
    QCOMPARE(code(), QStringLiteral("07081804"));
}

void TestVaultController::demoVault()
{
    Clock clock;
    clock.setMilliseconds(1'800'000'000'000);
    ClipboardService clipboard;
    auto controller = VaultController::makeDemo(&clock, &clipboard);
    QVERIFY(controller->demo());
    QSignalSpy finished(controller.get(), &VaultController::unlockFinished);
    QVERIFY(finished.wait(10'000));
    QCOMPARE(controller->state(), VaultController::State::Unlocked);
    const auto* accounts = controller->accounts();
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

QTEST_MAIN(TestVaultController)
#include "TestVaultController.moc"
