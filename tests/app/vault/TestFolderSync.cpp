// The app keeping its vault one with a file that another device changes
// (app/vault/FolderSync.h): a save that finds the file changed merges it
// and writes both sides' changes; a file another device wrote that holds
// everything is taken and not written back; a copy saved under a password
// changed elsewhere waits for that password.
#include "app/AppVaultFixture.h"
#include "app/vault/FolderSync.h"
#include "app/vault/VaultController.h"
#include "crypto/Random.h"
#include "vault/Vault.h"

#include <QSignalSpy>
#include <QtTest>
#include <functional>

using namespace watchword;
using namespace watchword::app;

namespace {

constexpr vault::DeviceId laptop = {0x1a, 0x97, 0x09, 0, 0, 0, 0, 2};

vault::OtpAccount anAccount(const char* issuer)
{
    vault::OtpAccount account;
    account.issuer = issuer;
    account.accountName = "alice";
    account.secret = SecureBuffer(asBytes("12345678901234567890"));
    account.created = account.modified = 10;
    return account;
}

// Another device opens the file with password, edits it and saves it as a
// writer does (under the lock, atomically).
bool onTheLaptop(const QString& path, const QByteArray& password,
                 const std::function<bool(vault::Vault&)>& edit)
{
    auto storage = vault::VaultStorage::openLocked(path.toStdString(), crypto::systemRandom(),
                                                   std::chrono::seconds(5));
    if (!storage)
        return false;
    auto other = vault::Vault::unlockWithPassword(storage->contents(), test::view(password));
    if (!other)
        return false;
    other->setDevice(laptop);
    if (!edit(*other))
        return false;
    auto bytes = other->serialize(crypto::systemRandom(), 20);
    return bytes && storage->save(*bytes);
}

std::optional<vault::Vault> readBack(const QString& path, const QByteArray& password)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray bytes = file.readAll();
    auto vault = vault::Vault::unlockWithPassword(test::view(bytes), test::view(password));
    if (!vault)
        return std::nullopt;
    return std::move(*vault);
}

bool holds(const vault::Vault& vault, const std::string& issuer)
{
    for (std::size_t i = 0; i < vault.recordCount(); ++i)
        if (const auto* account = std::get_if<vault::OtpAccount>(&vault.record(i));
            account && account->issuer == issuer)
            return true;
    return false;
}

bool waitForSaves(VaultController& controller)
{
    QSignalSpy saving(&controller, &VaultController::savingChanged);
    while (controller.saving())
        if (!saving.wait(10'000))
            return false;
    return true;
}

// The app adds an account and saves; true once a save has written it.
bool addInTheApp(test::VaultFixture& fixture, const char* issuer)
{
    auto* vault = fixture.controller->editableVault();
    if (vault == nullptr || !vault->add(anAccount(issuer), crypto::systemRandom()))
        return false;
    QSignalSpy saved(fixture.controller.get(), &VaultController::saved);
    fixture.controller->requestSave();
    return saved.wait(10'000) && waitForSaves(*fixture.controller);
}

} // namespace

class TestFolderSync : public QObject
{
    Q_OBJECT

private slots:
    void aSaveMergesWhatAnotherDeviceWrote();
    void aFileThatHoldsEverythingIsNotWrittenBack();
    void aPasswordChangedElsewhereIsAskedFor();
};

void TestFolderSync::aSaveMergesWhatAnotherDeviceWrote()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    const QByteArray password = test::fixturePassword.toUtf8();
    QSignalSpy merged(fixture.controller->sync(), &FolderSync::merged);
    // The laptop adds an account; at once, before the app has looked at the
    // folder, the app adds one too and saves.
    QVERIFY(onTheLaptop(fixture.path, password, [](vault::Vault& vault) {
        return vault.add(anAccount("On the laptop"), crypto::systemRandom()).ok();
    }));
    QVERIFY(addInTheApp(fixture, "In the app"));
    // The save merged the laptop's change instead of failing or writing
    // over it: both accounts are in the file and in the app.
    auto written = readBack(fixture.path, password);
    QVERIFY(written);
    QVERIFY(holds(*written, "On the laptop"));
    QVERIFY(holds(*written, "In the app"));
    QVERIFY(holds(*written, "First"));
    QVERIFY(holds(*fixture.controller->vault(), "On the laptop"));
    QVERIFY(fixture.controller->error().isEmpty());
    QCOMPARE(merged.count(), 1);
    QCOMPARE(merged.first().at(0).toString(), QStringLiteral("1 account added on another device."));
}

void TestFolderSync::aFileThatHoldsEverythingIsNotWrittenBack()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    const QByteArray password = test::fixturePassword.toUtf8();
    QSignalSpy merged(fixture.controller->sync(), &FolderSync::merged);
    QVERIFY(onTheLaptop(fixture.path, password, [](vault::Vault& vault) {
        // Added as a writer adds: after the others (a shared position would
        // be the merge's to move, and so to write back).
        auto account = anAccount("On the laptop");
        account.sortPosition = vault::nextSortPosition(vault);
        return vault.add(std::move(account), crypto::systemRandom()).ok();
    }));
    const QByteArray laptopFile = fixture.fileBytes();
    // The watcher (or the next look) finds the change and merges it.
    QVERIFY(merged.wait(15'000));
    QVERIFY(holds(*fixture.controller->vault(), "On the laptop"));
    QVERIFY(waitForSaves(*fixture.controller));
    // The app had nothing the laptop's file lacks: it writes nothing back,
    // so two machines do not answer each other's saves.
    QTest::qWait(1500);
    QCOMPARE(fixture.fileBytes(), laptopFile);
    // A change of its own afterwards is written over the laptop's file.
    QVERIFY(addInTheApp(fixture, "In the app"));
    auto written = readBack(fixture.path, password);
    QVERIFY(written);
    QVERIFY(holds(*written, "On the laptop") && holds(*written, "In the app"));
}

void TestFolderSync::aPasswordChangedElsewhereIsAskedFor()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    const QByteArray password = test::fixturePassword.toUtf8();
    const QByteArray laptopPassword = "the laptop's new password";
    auto* sync = fixture.controller->sync();
    QSignalSpy wanted(sync, &FolderSync::passwordWantedChanged);
    QVERIFY(onTheLaptop(fixture.path, password, [&](vault::Vault& vault) {
        return vault
                   .changePassword(test::view(laptopPassword),
                                   {vault::minimumPasswordIterations, 100, 0},
                                   crypto::systemRandom())
                   .ok() &&
               vault.add(anAccount("After the change"), crypto::systemRandom()).ok();
    }));
    QVERIFY(wanted.wait(15'000));
    QCOMPARE(sync->passwordWantedFor(), QStringLiteral("v.wwv"));
    // Until it is given, a save does not write over the laptop's file.
    const QByteArray laptopFile = fixture.fileBytes();
    fixture.controller->requestSave();
    QVERIFY(waitForSaves(*fixture.controller));
    QCOMPARE(fixture.fileBytes(), laptopFile);

    QSignalSpy error(sync, &FolderSync::passwordErrorChanged);
    sync->providePassword(QStringLiteral("not it"));
    QVERIFY(error.wait(15'000));
    QCOMPARE(sync->passwordError(),
             QStringLiteral("That is not the password this copy was saved with."));
    QSignalSpy merged(sync, &FolderSync::merged);
    sync->providePassword(QString::fromUtf8(laptopPassword));
    QVERIFY(merged.wait(15'000));
    QVERIFY(merged.first().at(0).toString().contains(
        QStringLiteral("The password set on the other device now opens this vault.")));
    QVERIFY(sync->passwordWantedFor().isEmpty());
    QVERIFY(holds(*fixture.controller->vault(), "After the change"));
    QVERIFY(QTest::qWaitFor(
        [&] {
            auto written = readBack(fixture.path, laptopPassword);
            return written && holds(*written, "After the change") && holds(*written, "First");
        },
        15'000));
    QVERIFY(!readBack(fixture.path, password));
}

QTEST_MAIN(TestFolderSync)
#include "TestFolderSync.moc"
