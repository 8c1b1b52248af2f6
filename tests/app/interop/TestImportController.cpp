#include "app/AppVaultFixture.h"
#include "app/interop/ImportController.h"
#include "app/interop/ImportPreviewModel.h"

#include <QFile>
#include <QSignalSpy>
#include <QThreadPool>
#include <QUrl>
#include <QtTest>

using namespace watchword;
using watchword::app::ImportController;
using watchword::app::ImportPreviewModel;
using watchword::app::VaultController;

namespace {

// Waits while the controller reads or adds.
bool waitIdle(ImportController& import)
{
    if (!import.busy())
        return true;
    QSignalSpy busy(&import, &ImportController::busyChanged);
    while (import.busy())
        if (!busy.wait(30'000))
            return false;
    return true;
}

QVariant cell(ImportPreviewModel& preview, int row, int role)
{
    return preview.data(preview.index(row), role);
}

// Opens a test file, reads it with password and waits for the preview.
bool previewOf(ImportController& import, const QString& file, const QString& password = {})
{
    if (!import.openFile(QUrl::fromLocalFile(test::importData(file))))
        return false;
    import.read(password);
    return waitIdle(import) && import.stage() == ImportController::Stage::Preview;
}

// Adds the ticked rows and waits for the vault's answer.
bool addAndWait(ImportController& import)
{
    QSignalSpy finished(&import, &ImportController::finished);
    if (!import.addChecked())
        return false;
    return (finished.count() > 0 || finished.wait(20'000)) && waitIdle(import);
}

} // namespace

class TestImportController : public QObject
{
    Q_OBJECT

private slots:
    void aSecondImportMarksEveryAccountADuplicate();
    void onlyTheTickedAccountsAreAdded();
    void aWrongPasswordIsSaidAndAddsNothing();
    void aFailedSaveLeavesTheVaultAsItWas();
    void aScannedTransferCodeGoesToThePreview();
    void lockingDropsThePreview();
    void stoppingAReadDropsItsAnswer();
    void theSourceOffersEveryFormatGuessedFirst();
};

void TestImportController::aSecondImportMarksEveryAccountADuplicate()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    ImportController import;
    import.setVault(fixture.controller.get());
    QVERIFY2(previewOf(import, QStringLiteral("aegis/aegis_plain.json")),
             qPrintable(import.error()));
    QCOMPARE(import.source()->formatTitles().value(import.source()->formatIndex()),
             QStringLiteral("Aegis"));
    auto* preview = import.preview();
    QVERIFY(preview->count() > 0);
    for (int row = 0; row < preview->count(); ++row) {
        QCOMPARE(cell(*preview, row, ImportPreviewModel::MatchRole).toString(),
                 QStringLiteral("new"));
        QVERIFY(cell(*preview, row, ImportPreviewModel::CheckedRole).toBool());
    }
    const int rows = preview->count();
    QVERIFY(addAndWait(import));
    QCOMPARE(fixture.accountCount(), std::size_t(2 + rows));

    QVERIFY(previewOf(import, QStringLiteral("aegis/aegis_plain.json")));
    QCOMPARE(preview->count(), rows);
    for (int row = 0; row < rows; ++row) {
        QCOMPARE(cell(*preview, row, ImportPreviewModel::MatchRole).toString(),
                 QStringLiteral("duplicate"));
        QVERIFY(!cell(*preview, row, ImportPreviewModel::CheckedRole).toBool());
        QCOMPARE(cell(*preview, row, ImportPreviewModel::MatchTextRole).toString(),
                 QStringLiteral("Already in the vault"));
    }
    QCOMPARE(preview->checkedCount(), 0);
    QVERIFY(!import.addChecked()); // nothing ticked, nothing added
    QCOMPARE(fixture.accountCount(), std::size_t(2 + rows));
}

void TestImportController::onlyTheTickedAccountsAreAdded()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    ImportController import;
    import.setVault(fixture.controller.get());
    QVERIFY(previewOf(import, QStringLiteral("aegis/aegis_plain.json")));
    auto* preview = import.preview();
    QVERIFY(preview->count() >= 3);
    preview->setAllChecked(false);
    preview->setChecked(0, true);
    preview->setData(preview->index(2), true, ImportPreviewModel::CheckedRole);
    QCOMPARE(preview->checkedCount(), 2);
    const QStringList wanted = {cell(*preview, 0, ImportPreviewModel::IssuerRole).toString(),
                                cell(*preview, 2, ImportPreviewModel::IssuerRole).toString()};
    QVERIFY(addAndWait(import));
    QCOMPARE(import.stage(), ImportController::Stage::Empty);

    const auto accounts = fixture.copies();
    QStringList issuers;
    for (const auto& account : accounts)
        issuers << QString::fromStdString(account.issuer);
    QCOMPARE(issuers, (QStringList{QStringLiteral("First"), QStringLiteral("Second")} + wanted));
    // In the file as well: another reader sees the same four.
    QFile file(fixture.path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    const QByteArray password = test::fixturePassword.toUtf8();
    auto reread = vault::Vault::unlockWithPassword(test::view(bytes), test::view(password));
    QVERIFY(reread.ok());
    QCOMPARE(reread->recordCount(), std::size_t(4));
}

void TestImportController::aWrongPasswordIsSaidAndAddsNothing()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    const QByteArray before = fixture.fileBytes();
    ImportController import;
    import.setVault(fixture.controller.get());
    QVERIFY(import.openFile(QUrl::fromLocalFile(test::importData("aegis/aegis_encrypted.json"))));
    QVERIFY(import.source()->needsPassword());
    import.read(QStringLiteral("not the password"));
    QVERIFY(waitIdle(import));
    QVERIFY2(import.error().startsWith(QStringLiteral("Wrong password")),
             qPrintable(import.error()));
    QCOMPARE(import.stage(), ImportController::Stage::Source);
    QCOMPARE(import.preview()->count(), 0);
    import.read({});
    QVERIFY(waitIdle(import));
    QVERIFY2(import.error().contains(QStringLiteral("encrypted")), qPrintable(import.error()));
    QCOMPARE(fixture.accountCount(), std::size_t(2));
    QCOMPARE(fixture.fileBytes(), before);
    // The right one opens it.
    import.read(QStringLiteral("test"));
    QVERIFY(waitIdle(import));
    QCOMPARE(import.stage(), ImportController::Stage::Preview);
    QVERIFY(import.error().isEmpty());
    QVERIFY(import.preview()->count() > 0);
}

void TestImportController::aFailedSaveLeavesTheVaultAsItWas()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    ImportController import;
    import.setVault(fixture.controller.get());
    QVERIFY(previewOf(import, QStringLiteral("otpauth_list/plain.txt")));
    QVERIFY(import.preview()->checkedCount() > 0);
    fixture.replaceFileBehindOurBack();
    const QByteArray theirs = fixture.fileBytes();

    QSignalSpy finished(&import, &ImportController::finished);
    QVERIFY(import.addChecked());
    QVERIFY(waitIdle(import));
    QCOMPARE(finished.count(), 0);
    QVERIFY2(import.error().startsWith(QStringLiteral("Nothing was imported")),
             qPrintable(import.error()));
    // Memory as before: two accounts in the vault and in the list.
    QCOMPARE(fixture.accountCount(), std::size_t(2));
    QCOMPARE(fixture.accounts->model()->rowCount(), 2);
    QVERIFY(!fixture.controller->busy());
    QCOMPARE(fixture.fileBytes(), theirs);
    // The preview stays, for another try.
    QCOMPARE(import.stage(), ImportController::Stage::Preview);
}

void TestImportController::aScannedTransferCodeGoesToThePreview()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    QFile file(test::importData("google_authenticator_migration/example_export.txt"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QString uri;
    for (const QByteArray& line : file.readAll().split('\n'))
        if (line.startsWith("otpauth-migration://")) {
            uri = QString::fromLatin1(line.trimmed());
            break;
        }
    QVERIFY(!uri.isEmpty());
    ImportController import;
    import.setVault(fixture.controller.get());
    QVERIFY(import.openText(uri, QStringLiteral("Scanned QR code")));
    QVERIFY(waitIdle(import));
    QCOMPARE(import.stage(), ImportController::Stage::Preview);
    QCOMPARE(import.source()->formatTitles().value(import.source()->formatIndex()),
             QString::fromUtf8(importers::formatTitle(importers::Format::GoogleMigration)));
    QVERIFY(import.preview()->count() > 0);
    QCOMPARE(cell(*import.preview(), 0, ImportPreviewModel::IssuerRole).toString(),
             QStringLiteral("raspberrypi"));
}

void TestImportController::lockingDropsThePreview()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    ImportController import;
    import.setVault(fixture.controller.get());
    QVERIFY(previewOf(import, QStringLiteral("aegis/aegis_plain.json")));
    fixture.controller->lock();
    QCOMPARE(import.stage(), ImportController::Stage::Empty);
    QCOMPARE(import.preview()->count(), 0);
    QVERIFY(!import.addChecked());
}

void TestImportController::stoppingAReadDropsItsAnswer()
{
    // Stop while the file's key is derived: the dialog is free at once, the
    // answer that comes later is dropped, and the file can be read again.
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    ImportController import;
    import.setVault(fixture.controller.get());
    QVERIFY(import.openFile(QUrl::fromLocalFile(test::importData("aegis/aegis_encrypted.json"))));
    QSignalSpy previews(import.preview(), &ImportPreviewModel::countChanged);
    import.read(QStringLiteral("test"));
    QVERIFY(import.busy());
    import.stopReading();
    QVERIFY(!import.busy());
    QCOMPARE(import.error(), QStringLiteral("Stopped reading the file."));
    // The stopped read's answer arrives (the derivation runs to its end) and
    // changes nothing.
    QVERIFY(QThreadPool::globalInstance()->waitForDone(60'000));
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    QCOMPARE(import.stage(), ImportController::Stage::Source);
    QCOMPARE(import.error(), QStringLiteral("Stopped reading the file."));
    QVERIFY(!import.busy());
    // The file is still chosen: read again.
    import.read(QStringLiteral("not the password"));
    QVERIFY(waitIdle(import));
    QVERIFY2(import.error().startsWith(QStringLiteral("Wrong password")),
             qPrintable(import.error()));
    QCOMPARE(previews.count(), 0);
}

void TestImportController::theSourceOffersEveryFormatGuessedFirst()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    ImportController import;
    import.setVault(fixture.controller.get());
    // The dialog's first words name every format an import reads.
    const QString known = import.source()->knownFormats();
    for (const auto format : importers::allFormats)
        QVERIFY2(known.contains(QString::fromUtf8(importers::formatTitle(format))),
                 qPrintable(known));

    // Content nothing recognises: every format offered, none guessed, and
    // the error says what the file seems to be; choosing a format clears it.
    QVERIFY(import.openData(QByteArrayLiteral("{\"hello\": 1}"), QStringLiteral("odd.json")));
    auto* source = import.source();
    QCOMPARE(source->name(), QStringLiteral("odd.json"));
    QCOMPARE(source->guessedCount(), 0);
    QCOMPARE(source->formatTitles().size(), int(importers::allFormats.size()));
    QVERIFY2(import.error().contains(QStringLiteral("JSON")), qPrintable(import.error()));
    source->setFormatIndex(2);
    QCOMPARE(source->formatIndex(), 2);
    QVERIFY(import.error().isEmpty());

    // An Aegis export: Aegis guessed and chosen, listed once.
    QVERIFY(import.openFile(QUrl::fromLocalFile(test::importData("aegis/aegis_plain.json"))));
    QVERIFY(source->guessedCount() >= 1);
    QCOMPARE(source->formatTitles().value(0), QStringLiteral("Aegis"));
    QCOMPARE(source->formatTitles().count(QStringLiteral("Aegis")), 1);
    QCOMPARE(source->formatTitles().size(), int(importers::allFormats.size()));

    // Reset forgets it all.
    import.reset();
    QVERIFY(source->name().isEmpty());
    QVERIFY(source->formatTitles().isEmpty());
    QVERIFY(!source->loaded());
}

QTEST_MAIN(TestImportController)
#include "TestImportController.moc"
