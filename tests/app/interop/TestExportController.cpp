#include "app/AppVaultFixture.h"
#include "app/interop/ExportController.h"
#include "encoding/Hex.h"
#include "interop/exporters/Export.h"
#include "interop/importers/Import.h"

#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QUrl>
#include <QtTest>
#include <algorithm>

using namespace watchword;
using watchword::app::ExportController;

namespace {

const QString filePassword = QStringLiteral("export password");

// The import format each export format reads back as.
importers::Format readBackAs(exporters::ExportFormat format)
{
    switch (format) {
    case exporters::ExportFormat::WatchwordBackup:
        return importers::Format::WatchwordBackup;
    case exporters::ExportFormat::Aegis:
    case exporters::ExportFormat::AegisEncrypted:
        return importers::Format::Aegis;
    case exporters::ExportFormat::OtpauthList:
        return importers::Format::OtpauthList;
    case exporters::ExportFormat::GoogleMigration:
        return importers::Format::GoogleMigration;
    case exporters::ExportFormat::TwoFas:
        return importers::Format::TwoFas;
    case exporters::ExportFormat::Ente:
        return importers::Format::Ente;
    }
    return importers::Format::OtpauthList;
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestExportController : public QObject
{
    Q_OBJECT

private slots:
    void eachFormatReadsBackToTheSameAccounts();
    void aPlaintextFormatNeedsTheAcknowledgement();
    void anExistingFileIsReplacedOnlyWhenConfirmed();
    void theChosenAccountsOnly();
    void aBackupPasswordIsNormalisedAsTheVaultsIs();
};

void TestExportController::eachFormatReadsBackToTheSameAccounts()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    const auto accounts = fixture.copies();
    QCOMPARE(accounts.size(), std::size_t(2));
    ExportController exporter;
    exporter.setVault(fixture.controller.get());
    QCOMPARE(exporter.formatTitles().size(), int(exporters::allExportFormats.size()));
    for (int i = 0; i < int(exporters::allExportFormats.size()); ++i) {
        const auto format = exporters::allExportFormats[std::size_t(i)];
        exporter.setFormatIndex(i);
        QCOMPARE(exporter.needsPassword(), exporters::exportNeedsPassword(format));
        const QString path = fixture.dir.filePath(QStringLiteral("out-%1").arg(i));
        QSignalSpy finished(&exporter, &ExportController::finished);
        QVERIFY2(exporter.exportTo(QUrl::fromLocalFile(path), {}, filePassword, filePassword, true,
                                   false),
                 qPrintable(exporter.error()));
        QVERIFY(finished.wait(30'000));
        QVERIFY2(finished.last().at(0).toBool(), qPrintable(exporter.error()));
        QCOMPARE(QFileInfo(path).permissions(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                    QFileDevice::ReadUser | QFileDevice::WriteUser);

        const QByteArray bytes = readAll(path);
        const QByteArray password = filePassword.toUtf8();
        std::optional<ByteView> typed;
        if (exporters::exportNeedsPassword(format))
            typed = test::view(password);
        auto read = importers::importAccounts(readBackAs(format), test::view(bytes), typed);
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().message.c_str());
        QCOMPARE(read->accounts.size(), accounts.size());
        for (std::size_t a = 0; a < accounts.size(); ++a) {
            const auto& back = read->accounts[a];
            QCOMPARE(back.issuer, accounts[a].issuer);
            QCOMPARE(back.accountName, accounts[a].accountName);
            QVERIFY(std::equal(back.secret.span().begin(), back.secret.span().end(),
                               accounts[a].secret.span().begin(), accounts[a].secret.span().end()));
            QCOMPARE(back.parameters.digits, accounts[a].parameters.digits);
            QCOMPARE(back.parameters.period, accounts[a].parameters.period);
        }
    }
}

void TestExportController::aPlaintextFormatNeedsTheAcknowledgement()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    ExportController exporter;
    exporter.setVault(fixture.controller.get());
    const auto at =
        std::find(exporters::allExportFormats.begin(), exporters::allExportFormats.end(),
                  exporters::ExportFormat::OtpauthList);
    exporter.setFormatIndex(int(at - exporters::allExportFormats.begin()));
    QVERIFY(exporter.plaintext());
    QVERIFY(!exporter.needsPassword());
    const QString path = fixture.dir.filePath(QStringLiteral("plain.txt"));
    QVERIFY(!exporter.problem({}, {}, {}, false).isEmpty());
    QVERIFY(!exporter.exportTo(QUrl::fromLocalFile(path), {}, {}, {}, false, false));
    QVERIFY2(exporter.error().contains(QStringLiteral("every secret")),
             qPrintable(exporter.error()));
    QVERIFY(!exporter.busy());
    QVERIFY(!QFileInfo::exists(path));
    // An encrypted one asks for two equal passwords instead.
    exporter.setFormatIndex(0);
    QVERIFY(exporter.needsPassword());
    QVERIFY(!exporter.plaintext());
    QVERIFY(!exporter.exportTo(QUrl::fromLocalFile(path), {}, filePassword, QStringLiteral("typo"),
                               true, false));
    QVERIFY(exporter.error().contains(QStringLiteral("differ")));
    QVERIFY(!QFileInfo::exists(path));
}

void TestExportController::anExistingFileIsReplacedOnlyWhenConfirmed()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    ExportController exporter;
    exporter.setVault(fixture.controller.get());
    exporter.setFormatIndex(1); // Aegis, plain
    const QString path = fixture.dir.filePath(QStringLiteral("kept.json"));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("keep me");
    }
    QVERIFY(exporter.fileExists(QUrl::fromLocalFile(path)));
    QVERIFY(!exporter.exportTo(QUrl::fromLocalFile(path), {}, {}, {}, true, false));
    QVERIFY(exporter.error().contains(QStringLiteral("already exists")));
    QCOMPARE(readAll(path), QByteArray("keep me"));
    QSignalSpy finished(&exporter, &ExportController::finished);
    QVERIFY(exporter.exportTo(QUrl::fromLocalFile(path), {}, {}, {}, true, true));
    QVERIFY(finished.wait(30'000));
    QVERIFY(finished.last().at(0).toBool());
    QVERIFY(readAll(path).startsWith('{'));
}

void TestExportController::theChosenAccountsOnly()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    const auto accounts = fixture.copies();
    const QString second = QString::fromStdString(encoding::toHex(accounts[1].id));
    ExportController exporter;
    exporter.setVault(fixture.controller.get());
    exporter.setFormatIndex(1);
    const QString path = fixture.dir.filePath(QStringLiteral("one.json"));
    QSignalSpy finished(&exporter, &ExportController::finished);
    QVERIFY(exporter.exportTo(QUrl::fromLocalFile(path), {second}, {}, {}, true, false));
    QVERIFY(finished.wait(30'000));
    const QByteArray bytes = readAll(path);
    auto read = importers::importAccounts(importers::Format::Aegis, test::view(bytes));
    QVERIFY(read.ok());
    QCOMPARE(read->accounts.size(), std::size_t(1));
    QCOMPARE(read->accounts[0].issuer, std::string("Second"));
}

// docs/FORMAT.md section 10: a backup's key comes from the NFKD form of the
// typed password, so "Ångström" typed precomposed opens with the decomposed
// bytes and not with the precomposed ones.
void TestExportController::aBackupPasswordIsNormalisedAsTheVaultsIs()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    ExportController exporter;
    exporter.setVault(fixture.controller.get());
    exporter.setFormatIndex(0);
    QCOMPARE(exporters::allExportFormats[0], exporters::ExportFormat::WatchwordBackup);
    const QString typed = QStringLiteral("\u00c5ngstr\u00f6m backup");
    const QString path = fixture.dir.filePath(QStringLiteral("backup.wwb"));
    QSignalSpy finished(&exporter, &ExportController::finished);
    QVERIFY2(exporter.exportTo(QUrl::fromLocalFile(path), {}, typed, typed, true, false),
             qPrintable(exporter.error()));
    QVERIFY(finished.wait(30'000));
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(exporter.error()));
    const QByteArray bytes = readAll(path);
    const QByteArray decomposed = typed.normalized(QString::NormalizationForm_KD).toUtf8();
    const QByteArray precomposed = typed.toUtf8();
    QVERIFY(decomposed != precomposed);
    auto opened = importers::importAccounts(importers::Format::WatchwordBackup, test::view(bytes),
                                            test::view(decomposed));
    QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
    auto refused = importers::importAccounts(importers::Format::WatchwordBackup, test::view(bytes),
                                             test::view(precomposed));
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().code, importers::ImportError::WrongPassword);
}

QTEST_MAIN(TestExportController)
#include "TestExportController.moc"
