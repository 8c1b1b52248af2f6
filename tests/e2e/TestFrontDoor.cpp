// The app through its front door: the real window, driven by keys and
// clicks only, on a temporary vault and settings; any warning fails.
#include "FrontDoor.h"
#include "app/codes/AccountListModel.h"
#include "app/codes/AccountStore.h"
#include "app/desktop/AppSettings.h"
#include "app/desktop/ClipboardService.h"
#include "app/interop/QrCodeItem.h"
#include "app/interop/QrReader.h"
#include "app/notes/NoteStore.h"
#include "app/vault/RecordIds.h"
#include "app/vault/RecoveryPhrase.h"
#include "app/vault/VaultController.h"
#include "common/FakeFileChooser.h"
#include "common/PrivateBus.h"
#include "common/QrImage.h"
#include "common/TestSupport.h"
#include "encoding/Base32.h"
#include "keychain/Keychain.h"
#include "share/Identity.h"
#include "vault/Contacts.h"
#include "vault/Vault.h"

#include <QClipboard>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QQuickItem>
#include <QQuickStyle>
#include <QQuickWindow>
#include <QRegularExpression>
#include <QSettings>
#include <QtTest>
#include <cstdio>
#include <functional>
#include <optional>

using watchword::app::VaultController;
using watchword::e2e::FrontDoor;

namespace {

const QString githubLink =
    QStringLiteral("otpauth://totp/GitHub:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=GitHub");
const QString gitlabLink = QStringLiteral(
    "otpauth://totp/GitLab:bob@example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=GitLab");
const QString mastodonLink = QStringLiteral(
    "otpauth://totp/Mastodon:carol?secret=KRSXG5CTMVRXEZLUKN2XAZLSOQ&issuer=Mastodon");

QString clipboardText()
{
    return QGuiApplication::clipboard()->text();
}

bool isCode(const QString& text)
{
    static const QRegularExpression digits(QStringLiteral("^[0-9]{6,8}$"));
    return digits.match(text).hasMatch();
}

struct Copied
{
    QString copied;
    QString expected;
};

// A code changes every 30 s, so a code copied just before a period ends and
// the code read back just after it are two different, both right, codes.
// `copy` and `readExpected` run within one period, starting 2 s after its
// boundary (again in the next if a boundary fell between them); nothing
// when nothing reached the clipboard.
template <typename Copy, typename Read>
std::optional<Copied> copyWithinOnePeriod(Copy copy, Read readExpected)
{
    constexpr qint64 period = 30;
    for (int attempt = 0; attempt < 3; ++attempt) {
        // Away from a boundary: the app refreshes what it shows on a timer,
        // so for a moment after a boundary (longer on a loaded machine) a
        // label may still show the last period's code while a copy takes
        // the new one. From 2 s after a boundary to 4 s before the next.
        const auto awayFromBoundary = [] {
            const qint64 into = QDateTime::currentMSecsSinceEpoch() % (period * 1000);
            return into >= 2000 && into <= (period - 4) * 1000;
        };
        if (!FrontDoor::waitFor(awayFromBoundary, int(period + 2) * 1000))
            return std::nullopt;
        const qint64 step = QDateTime::currentSecsSinceEpoch() / period;
        QGuiApplication::clipboard()->clear();
        copy();
        if (!FrontDoor::waitFor([] { return isCode(clipboardText()); }))
            return std::nullopt;
        Copied result{clipboardText(), readExpected()};
        if (QDateTime::currentSecsSinceEpoch() / period == step)
            return result;
    }
    return std::nullopt;
}

} // namespace

class TestFrontDoor : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<watchword::e2e::WarningTrap> m_trap;
    std::unique_ptr<FrontDoor> m_app;
    // The session bus the app sees: the test's own, with no desktop portal
    // on it unless a scenario puts its fake there (so every other scenario
    // goes the way of a desktop without one: the app's own picker).
    std::unique_ptr<watchword::test::PrivateBus> m_bus;

    // Starts the app on a copy of the shared vault (or on none: first run).
    FrontDoor& open(bool withVault = true)
    {
        m_app =
            std::make_unique<FrontDoor>(withVault ? watchword::e2e::sharedVault().file : QString());
        if (!m_app->start())
            qFatal("the app's window did not show");
        return *m_app;
    }

    // Types the password into the focused field and presses Enter; waits
    // for the vault to open.
    bool unlock(FrontDoor& app, const QString& password = FrontDoor::password())
    {
        app.type(password);
        app.key(Qt::Key_Return);
        return FrontDoor::waitFor(
            [&] { return app.shell().vault()->state() == VaultController::State::Unlocked; });
    }

    // Ctrl+L, and the vault is locked.
    bool lockByKeyboard(FrontDoor& app)
    {
        app.key(Qt::Key_L, Qt::ControlModifier);
        return FrontDoor::waitFor(
            [&] { return app.shell().vault()->state() == VaultController::State::Locked; });
    }

    // Alt+2 (the notes), then Ctrl+N: the editor of a new note, its title
    // field focused.
    bool newNoteByKeyboard(FrontDoor& app)
    {
        app.key(Qt::Key_2, Qt::AltModifier);
        if (!FrontDoor::waitFor([&] { return app.byName(QStringLiteral("notesPage")) != nullptr; }))
            return false;
        app.key(Qt::Key_N, Qt::ControlModifier);
        return FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("titleField")) != nullptr; });
    }

    // Waits until the item named objectName shows text.
    static bool showsIn(FrontDoor& app, const QString& objectName, const QString& text)
    {
        return FrontDoor::waitFor([&] { return app.read(objectName, "text").toString() == text; });
    }

    // Ctrl+N, the link typed into the link field and Enter (the form fills
    // in), then Save.
    bool addByLink(FrontDoor& app, const QString& link)
    {
        const int before = app.shell().accounts()->model()->rowCount();
        app.key(Qt::Key_N, Qt::ControlModifier);
        if (!FrontDoor::waitFor([&] { return app.byName(QStringLiteral("uriField")) != nullptr; }))
            return false;
        app.click(app.byName(QStringLiteral("uriField")));
        app.type(link);
        app.key(Qt::Key_Return);
        app.click(app.byName(QStringLiteral("saveButton")));
        return FrontDoor::waitFor(
            [&] { return app.shell().accounts()->model()->rowCount() == before + 1; });
    }

    // Opens the drop-down called name and clicks the choice text in its list.
    bool choose(FrontDoor& app, const QString& name, const QString& text)
    {
        QQuickItem* box = app.byName(name);
        if (box == nullptr)
            return false;
        app.click(box);
        QQuickItem* choice = nullptr;
        if (!FrontDoor::waitFor([&] {
                for (QQuickItem* item : app.textsContaining(text)) {
                    if (item->property("text").toString() == text &&
                        item->inherits("QQuickItemDelegate"))
                        choice = item;
                }
                return choice != nullptr;
            }))
            return false;
        app.click(choice);
        return FrontDoor::waitFor([&] { return box->property("currentText").toString() == text; });
    }

    // The menu's Import…, then the dialog's file picker, which lists name.
    bool openImportPicker(FrontDoor& app, const QString& name)
    {
        app.click(app.byName(QStringLiteral("appMenuButton")));
        app.click(app.byName(QStringLiteral("importItem")));
        if (!FrontDoor::waitFor(
                [&] { return app.byName(QStringLiteral("chooseFileButton")) != nullptr; }))
            return false;
        app.click(app.byName(QStringLiteral("chooseFileButton")));
        return FrontDoor::waitFor([&] { return app.byText(name) != nullptr; });
    }

    // In the open picker: name chosen by a click and Enter, then "Read the
    // file" in the import dialog.
    bool readChosenFile(FrontDoor& app, const QString& name)
    {
        app.click(app.byText(name));
        app.key(Qt::Key_Return);
        if (!FrontDoor::waitFor(
                [&] { return app.byName(QStringLiteral("readButton")) != nullptr; }))
            return false;
        app.click(app.byName(QStringLiteral("readButton")));
        return true;
    }

    // In the open file picker: the name typed over the suggested one, Enter.
    void saveAs(FrontDoor& app, const QString& name)
    {
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("pickerName")) != nullptr; }));
        QQuickItem* field = app.byName(QStringLiteral("pickerName"));
        QVERIFY(field->hasActiveFocus());
        app.key(Qt::Key_A, Qt::ControlModifier);
        app.type(name);
        app.key(Qt::Key_Return);
    }

private slots:
    void initTestCase()
    {
        QQuickStyle::setStyle(QStringLiteral("Basic"));
        QStandardPaths::setTestModeEnabled(true);
        m_bus = std::make_unique<watchword::test::PrivateBus>();
        QVERIFY2(!m_bus->address().isEmpty(), qPrintable(m_bus->error()));
        qputenv("DBUS_SESSION_BUS_ADDRESS", m_bus->address().toUtf8());
        QVERIFY(!watchword::e2e::sharedVault().phrase.isEmpty());
        m_trap = std::make_unique<watchword::e2e::WarningTrap>();
    }

    void cleanup()
    {
        // What the window showed when a test failed, for the log's reader.
        if (QTest::currentTestFailed() && m_app && m_app->window() != nullptr) {
            const QString shot = QDir::temp().filePath(
                QStringLiteral("frontdoor-%1.png").arg(QTest::currentTestFunction()));
            if (m_app->window()->grabWindow().save(shot))
                qInfo("the window at the failure: %s", qPrintable(shot));
        }
        m_app.reset();
        const QStringList warnings = watchword::e2e::WarningTrap::take();
        if (!warnings.isEmpty())
            QFAIL(qPrintable(QStringLiteral("warnings printed:\n") +
                             warnings.join(QLatin1Char('\n'))));
    }

    void cleanupTestCase()
    {
        m_trap.reset();
        m_bus.reset();
    }

    // --- First run: a new vault made through the window.
    void createVault()
    {
        FrontDoor& app = open(false);
        QCOMPARE(app.shell().vault()->state(), VaultController::State::Missing);
        QVERIFY(app.showsText(QStringLiteral("Create your vault")));
        app.settle(300);
        QCOMPARE(app.overlaps(), QStringList());
        const QString password = QStringLiteral("lantern orbit velvet canyon");
        app.type(password);
        app.key(Qt::Key_Return);
        app.type(password);
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byText(QStringLiteral("I have written them down")) != nullptr; },
            30000));
        const QStringList words = app.shell().vault()->phrase()->recoveryWords();
        QCOMPARE(words.size(), 24);
        app.click(app.byText(QStringLiteral("I have written them down")));
        for (const int position : app.shell().vault()->phrase()->confirmPositions()) {
            app.type(words.at(position - 1));
            app.key(Qt::Key_Return);
        }
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.shell().vault()->state() == VaultController::State::Unlocked; },
            30000));
        QVERIFY(QFile::exists(app.vaultPath()));
        QVERIFY(app.showsText(QStringLiteral("No accounts yet")));
    }

    // --- First run with a vault from elsewhere: chosen in the picker, copied
    // in as this app's vault, opened with its own password.
    void firstRunUsesAnExistingVaultFile()
    {
        FrontDoor& app = open(false);
        VaultController* vault = app.shell().vault();
        QVERIFY(QFile::copy(watchword::e2e::sharedVault().file,
                            QDir(app.home()).filePath(QStringLiteral("backup.wwv"))));
        QVERIFY(QFile::copy(watchword::e2e::sharedVault().file,
                            QDir(app.home()).filePath(QStringLiteral("notes.txt"))));
        QFile notVault(QDir(app.home()).filePath(QStringLiteral("notes.txt")));
        QVERIFY(notVault.open(QIODevice::WriteOnly | QIODevice::Truncate));
        notVault.write("shopping list\n");
        notVault.close();
        // Not a vault: refused, named, nothing written.
        app.click(app.byName(QStringLiteral("adoptVaultButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("pickerList")) != nullptr; }));
        app.click(app.byName(QStringLiteral("pickerFilter")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byText(QStringLiteral("All files (*)")) != nullptr; }));
        app.click(app.byText(QStringLiteral("All files (*)")));
        QVERIFY(
            FrontDoor::waitFor([&] { return app.byText(QStringLiteral("notes.txt")) != nullptr; }));
        app.click(app.byText(QStringLiteral("notes.txt")));
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.showsText(QStringLiteral("notes.txt is not a Watchword vault")); }));
        QCOMPARE(vault->state(), VaultController::State::Missing);
        QVERIFY(!QFile::exists(app.vaultPath()));
        // The vault file: copied in, then unlocked.
        app.click(app.byName(QStringLiteral("adoptVaultButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byText(QStringLiteral("backup.wwv")) != nullptr; }));
        app.click(app.byText(QStringLiteral("backup.wwv")));
        app.key(Qt::Key_Return);
        QVERIFY(
            FrontDoor::waitFor([&] { return vault->state() == VaultController::State::Locked; }));
        QVERIFY(QFile::exists(app.vaultPath()));
        QVERIFY(unlock(app));
    }

    // --- Adding: a link typed into the add dialog, then copying its code by
    // a click, Enter and Ctrl+C: the clipboard holds the code and the row
    // says "Copied".
    void addByLinkAndCopy()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        QVERIFY(addByLink(app, githubLink));
        QVERIFY(addByLink(app, gitlabLink));
        QVERIFY(FrontDoor::waitFor([&] { return app.showsText(QStringLiteral("GitLab")); }));
        // Both known issuers show their icons, not a letter.
        QVERIFY(app.byName(QStringLiteral("issuerIcon")) != nullptr);
        QCOMPARE(app.byText(QStringLiteral("G")), nullptr); // no lettered icon

        QGuiApplication::clipboard()->clear();
        QQuickItem* row = app.textsContaining(QStringLiteral("GitLab")).constFirst();
        app.click(row);
        QVERIFY(FrontDoor::waitFor([] { return isCode(clipboardText()); }));
        QVERIFY(app.showsText(QStringLiteral("Copied")));

        QGuiApplication::clipboard()->clear();
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor([] { return isCode(clipboardText()); }));
        QVERIFY(app.showsText(QStringLiteral("Copied")));

        QGuiApplication::clipboard()->clear();
        app.key(Qt::Key_C, Qt::ControlModifier);
        QVERIFY(FrontDoor::waitFor([] { return isCode(clipboardText()); }));
        QVERIFY(app.showsText(QStringLiteral("Copied")));
    }

    // --- A link handed over by another launch (`watchword otpauth://…`, the
    // desktop's link handler, through the app's navigator): while the vault
    // is locked it waits; once unlocked, the add dialog shows it filled in,
    // and Save adds it. (Coming to the front cannot be seen offscreen, where
    // the window is always active: TestNavigator checks that it is asked.)
    void linkFromAnotherLaunchWaitsForTheUnlock()
    {
        FrontDoor& app = open();
        app.shell().openAddDialog(gitlabLink);
        FrontDoor::settle(200);
        QCOMPARE(app.byName(QStringLiteral("accountEditor")), nullptr);
        QVERIFY(unlock(app));
        const int existing = app.shell().accounts()->model()->rowCount();
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("issuerField")) != nullptr; }));
        QCOMPARE(app.read(QStringLiteral("issuerField"), "text").toString(),
                 QStringLiteral("GitLab"));
        QCOMPARE(app.read(QStringLiteral("accountField"), "text").toString(),
                 QStringLiteral("bob@example.com"));
        app.click(app.byName(QStringLiteral("saveButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.shell().accounts()->model()->rowCount() == existing + 1; }));
        QVERIFY(FrontDoor::waitFor([&] { return app.showsText(QStringLiteral("GitLab")); }));
    }

    // --- Locking by Ctrl+L, then unlocking by typing at once (the password
    // field has the focus); a wrong password says so and keeps the vault
    // locked.
    void lockAndUnlockByKeyboard()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        QVERIFY(lockByKeyboard(app));
        app.settle(100);
        app.type(QStringLiteral("not the password"));
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor(
            [&] {
                return app.shell().vault()->state() == VaultController::State::Locked &&
                       !app.shell().vault()->error().isEmpty();
            },
            20000));
        QVERIFY(app.showsText(app.shell().vault()->error()));
        QVERIFY(unlock(app));
    }

    // --- Export: every format to a new file (the name typed in the
    // picker, which opens in the home folder and says "Save"), then again
    // onto the same file, replaced after the question.
    void exportEveryFormatToNewAndExistingFiles()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        QVERIFY(addByLink(app, githubLink));
        const QStringList formats{QStringLiteral("Watchword backup"),
                                  QStringLiteral("Aegis (plain)"),
                                  QStringLiteral("Aegis (encrypted)"),
                                  QStringLiteral("otpauth:// URI list"),
                                  QStringLiteral("Google Authenticator transfer"),
                                  QStringLiteral("2FAS (plain)"),
                                  QStringLiteral("Ente Auth (plain)")};
        int number = 0;
        for (const QString& format : formats) {
            for (const bool again : {false, true}) {
                ++number;
                app.click(app.byName(QStringLiteral("appMenuButton")));
                app.click(app.byName(QStringLiteral("exportItem")));
                QVERIFY(FrontDoor::waitFor(
                    [&] { return app.byName(QStringLiteral("formatBox")) != nullptr; }));
                QVERIFY2(choose(app, QStringLiteral("formatBox"), format), qPrintable(format));
                if (QQuickItem* password = app.byName(QStringLiteral("passwordField"))) {
                    app.click(password);
                    app.type(QStringLiteral("export pass phrase"));
                    app.click(app.byName(QStringLiteral("repeatField")));
                    app.type(QStringLiteral("export pass phrase"));
                }
                if (QQuickItem* acknowledge = app.byName(QStringLiteral("acknowledge")))
                    app.click(acknowledge);
                app.click(app.byName(QStringLiteral("exportButton")));
                QVERIFY(FrontDoor::waitFor(
                    [&] { return app.byName(QStringLiteral("pickerName")) != nullptr; }));
                QCOMPARE(app.read(QStringLiteral("pickerFolder"), "text").toString(),
                         QStringLiteral("~"));
                QVERIFY(app.byText(QStringLiteral("Save")) != nullptr);
                const QString name = QStringLiteral("export-%1.out").arg((number + 1) / 2);
                const QString path = QDir(app.home()).filePath(name);
                const QDateTime before = QFileInfo(path).lastModified();
                saveAs(app, name);
                if (again) {
                    QVERIFY(FrontDoor::waitFor([&] {
                        return app.showsText(QStringLiteral("Replace it with this export?"));
                    }));
                    QTest::qWait(1100); // a later modification time
                    app.click(app.byText(QStringLiteral("Yes")));
                }
                QVERIFY2(FrontDoor::waitFor(
                             [&] {
                                 return QFileInfo(path).size() > 0 &&
                                        QFileInfo(path).lastModified() != before &&
                                        app.byName(QStringLiteral("resultLabel")) != nullptr;
                             },
                             30000),
                         qPrintable(format));
                app.click(app.byName(QStringLiteral("closeButton")));
            }
        }
    }

    // --- The desktop's file chooser (the portal's, here a fake on the
    // test's bus): an export saved to the file chosen there, cancel leaving
    // the dialog as it was, the file imported back through it; with the
    // setting off, the app's own picker again.
    void exportAndImportThroughTheDesktopChooser()
    {
        watchword::test::FakeFileChooser portal(m_bus->connect(QStringLiteral("portal")));
        QVERIFY(portal.registered());
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        QVERIFY(addByLink(app, githubLink));
        QVERIFY(addByLink(app, gitlabLink));
        const QString path = QDir(app.home()).filePath(QStringLiteral("chosen on the desktop.txt"));
        portal.uris = {QUrl::fromLocalFile(path).toString()};

        const auto startExport = [&] {
            app.click(app.byName(QStringLiteral("appMenuButton")));
            app.click(app.byName(QStringLiteral("exportItem")));
            QVERIFY(FrontDoor::waitFor(
                [&] { return app.byName(QStringLiteral("formatBox")) != nullptr; }));
            QVERIFY(
                choose(app, QStringLiteral("formatBox"), QStringLiteral("otpauth:// URI list")));
            app.click(app.byName(QStringLiteral("acknowledge")));
            app.click(app.byName(QStringLiteral("exportButton")));
        };
        // Cancelled in the desktop's chooser: nothing written, the dialog
        // still there, no picker of the app's own.
        portal.response = 1;
        startExport();
        QVERIFY(FrontDoor::waitFor([&] { return portal.calls == 1; }));
        QCOMPARE(portal.method, QStringLiteral("SaveFile"));
        QVERIFY(portal.options.value(QStringLiteral("modal")).toBool());
        QVERIFY(!portal.options.value(QStringLiteral("current_name")).toString().isEmpty());
        QCOMPARE(
            QString::fromUtf8(
                portal.options.value(QStringLiteral("current_folder")).toByteArray().chopped(1)),
            app.home());
        app.settle(200);
        QVERIFY(app.byName(QStringLiteral("pickerName")) == nullptr);
        QVERIFY(app.byName(QStringLiteral("exportButton")) != nullptr);
        QVERIFY(!QFile::exists(path));
        // Chosen: the export is written there.
        portal.response = 0;
        app.click(app.byName(QStringLiteral("exportButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("resultLabel")) != nullptr; }, 30000));
        QCOMPARE(portal.calls, 2);
        QFile written(path);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray links = written.readAll();
        QVERIFY(links.contains("otpauth://totp/GitHub"));
        QVERIFY(links.contains("otpauth://totp/GitLab"));
        app.click(app.byName(QStringLiteral("closeButton")));
        // Again onto the same file: the desktop's chooser asked before
        // replacing it, so the app does not ask a second time.
        const QDateTime before = QFileInfo(path).lastModified();
        QTest::qWait(1100); // a later modification time
        startExport();
        QVERIFY(FrontDoor::waitFor(
            [&] {
                return QFileInfo(path).lastModified() != before &&
                       app.byName(QStringLiteral("resultLabel")) != nullptr;
            },
            30000));
        QCOMPARE(portal.calls, 3);
        QVERIFY(app.byName(QStringLiteral("replaceDialog")) == nullptr);
        app.click(app.byName(QStringLiteral("closeButton")));

        // Imported back through the desktop's chooser: both are duplicates.
        app.click(app.byName(QStringLiteral("appMenuButton")));
        app.click(app.byName(QStringLiteral("importItem")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("chooseFileButton")) != nullptr; }));
        app.click(app.byName(QStringLiteral("chooseFileButton")));
        QVERIFY(FrontDoor::waitFor([&] { return portal.calls == 4; }));
        QCOMPARE(portal.method, QStringLiteral("OpenFile"));
        QVERIFY(!portal.options.value(QStringLiteral("filters")).toList().isEmpty());
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("readButton")) != nullptr; }));
        app.click(app.byName(QStringLiteral("readButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] {
                return app.read(QStringLiteral("previewSummary"), "text")
                    .toString()
                    .contains(QStringLiteral("2 accounts in the file, 0 ticked"));
            },
            30000));
        QCOMPARE(app.textsContaining(QStringLiteral("Already in the vault")).size(), 2);
        app.key(Qt::Key_Escape);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("chooseFileButton")) == nullptr; }));
        QCOMPARE(app.shell().accounts()->model()->rowCount(), 2);

        // The setting off: the app's own picker, the desktop's not asked.
        app.key(Qt::Key_3, Qt::AltModifier);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("desktopFileChooserSwitch")) != nullptr; }));
        app.click(app.byName(QStringLiteral("desktopFileChooserSwitch")));
        QVERIFY(!app.shell().settings()->desktopFileChooser());
        app.key(Qt::Key_1, Qt::AltModifier);
        startExport();
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("pickerName")) != nullptr; }));
        QCOMPARE(portal.calls, 4);
        app.key(Qt::Key_Escape);
    }

    // --- Import: another app's export chosen in the picker (among forty
    // other files, in the home folder), read, previewed and added.
    // A vault file of format version 1 (the worked example of
    // tests/data/vault/vectors.json): unlocked with its password, it is
    // written as version 2 at once, its records the same, the old file kept
    // as the first backup.
    void versionOneVaultIsWrittenAsVersionTwo()
    {
        QFile vectors(QStringLiteral(WATCHWORD_TEST_DATA_DIR "/vault/vectors.json"));
        QVERIFY(vectors.open(QIODevice::ReadOnly));
        const QJsonObject example = QJsonDocument::fromJson(vectors.readAll()).object();
        const QByteArray original =
            QByteArray::fromHex(example[QStringLiteral("file_hex")].toString().toLatin1());
        const QString password = QString::fromUtf8(
            QByteArray::fromHex(example[QStringLiteral("password_hex")].toString().toLatin1()));
        QTemporaryDir source;
        QVERIFY(source.isValid());
        const QString file = source.filePath(QStringLiteral("old.wwv"));
        QVERIFY(watchword::test::writeBytes(file, original));

        m_app = std::make_unique<FrontDoor>(file);
        QVERIFY(m_app->start());
        FrontDoor& app = *m_app;
        QVERIFY(unlock(app, password));
        const auto versionOnDisk = [&] {
            QFile written(app.vaultPath());
            if (!written.open(QIODevice::ReadOnly))
                return 0;
            const QByteArray bytes = written.readAll();
            const auto info = watchword::vault::decodeHeader(
                watchword::ByteView(reinterpret_cast<const std::uint8_t*>(bytes.constData()),
                                    std::size_t(bytes.size())));
            return info ? int(info->version) : 0;
        };
        QVERIFY(FrontDoor::waitFor(
            [&] { return versionOnDisk() == int(watchword::vault::formatVersion); }, 20000));
        // The same three accounts (and the note) on screen, the old file the
        // first backup, byte for byte.
        QCOMPARE(app.shell().accounts()->model()->rowCount(), 3);
        QVERIFY(app.showsText(QStringLiteral("Example")));
        QFile backup(app.vaultPath() + QStringLiteral(".1"));
        QVERIFY(backup.open(QIODevice::ReadOnly));
        QCOMPARE(backup.readAll(), original);
        // Locked and unlocked again with the same password.
        QVERIFY(lockByKeyboard(app));
        QVERIFY(unlock(app, password));
        QCOMPARE(app.shell().accounts()->model()->rowCount(), 3);

        // No sharing identity yet; checking the phrase in Settings gives it
        // one (and keeps the recovery key, so the fingerprint stays).
        const QString phrase = example[QStringLiteral("recovery_mnemonic")].toString();
        const auto keychain = watchword::keychain::Keychain::restore(phrase.toStdString());
        QVERIFY(keychain.ok());
        const QString expected = QString::fromStdString(
            watchword::share::identityText(keychain->sharingKey().publicKey));
        app.key(Qt::Key_3, Qt::AltModifier);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.showsText(QStringLiteral("has no sharing identity yet")); }));
        QVERIFY(app.byName(QStringLiteral("identityText")) == nullptr);
        app.click(app.byName(QStringLiteral("checkPhraseButton")));
        QVERIFY(FrontDoor::waitFor([&] {
            const QQuickItem* field = app.byName(QStringLiteral("checkPhraseField"));
            return field != nullptr && field->hasActiveFocus();
        }));
        app.type(phrase);
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("phraseCheckLabel")) != nullptr; }));
        const QString answer = app.read(QStringLiteral("phraseCheckLabel"), "text").toString();
        QVERIFY2(answer.startsWith(QStringLiteral("This phrase opens the vault (recovery key DA30 "
                                                  "2939 EB46 62CC DCEB).")) &&
                     answer.contains(QStringLiteral("sharing identity")),
                 qPrintable(answer));
        app.key(Qt::Key_Escape);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("identityText")) != nullptr; }));
        QCOMPARE(app.read(QStringLiteral("identityText"), "text").toString(), expected);
        QVERIFY(app.read(QStringLiteral("identityFingerprintLabel"), "text")
                    .toString()
                    .startsWith(QStringLiteral("Fingerprint: ")));
        app.click(app.byName(QStringLiteral("copyIdentityButton")));
        QVERIFY(
            FrontDoor::waitFor([&] { return QGuiApplication::clipboard()->text() == expected; }));
        // As a QR code: shown at once (it is public), and it reads back as
        // the identity text.
        app.click(app.byName(QStringLiteral("identityQrButton")));
        QVERIFY(FrontDoor::waitFor([&] {
            const QQuickItem* code = app.byName(QStringLiteral("qrCode"));
            return code != nullptr && code->isVisible() && code->property("revealed").toBool();
        }));
        auto* code =
            qobject_cast<watchword::app::QrCodeItem*>(app.byName(QStringLiteral("qrCode")));
        QVERIFY(code != nullptr);
        QCOMPARE(code->count(), 1);
        const auto scanned = watchword::app::decodeQrCodes(code->currentImage(code->scale()));
        QCOMPARE(scanned.texts, QStringList{expected});
        // And as the window draws it.
        QVERIFY(FrontDoor::waitFor([&] {
            return watchword::app::decodeQrCodes(app.window()->grabWindow()).texts ==
                   QStringList{expected};
        }));
        const QString words = app.read(QStringLiteral("identityFingerprintLabel"), "text")
                                  .toString()
                                  .mid(QStringLiteral("Fingerprint: ").size());
        QVERIFY(app.showsText(QStringLiteral("by another channel: ") + words));
        app.key(Qt::Key_Escape);
        QVERIFY(FrontDoor::waitFor([&] { return !code->isVisible(); }));
        // Saved: the file holds the identity, the recovery key unchanged.
        const auto header = [&] {
            QFile written(app.vaultPath());
            written.open(QIODevice::ReadOnly);
            const QByteArray bytes = written.readAll();
            return watchword::vault::decodeHeader(
                watchword::ByteView(reinterpret_cast<const std::uint8_t*>(bytes.constData()),
                                    std::size_t(bytes.size())));
        };
        QVERIFY(FrontDoor::waitFor([&] {
            const auto info = header();
            return info && info->sharingPublicKey.has_value();
        }));
        QCOMPARE(watchword::vault::recoveryKeyFingerprint(*header()),
                 std::string("DA30 2939 EB46 62CC DCEB"));
    }

    void importAnAegisExport()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        const QDir home(app.home());
        QVERIFY(
            QFile::copy(QStringLiteral(WATCHWORD_TEST_DATA_DIR "/import/aegis/aegis_plain.json"),
                        home.filePath(QStringLiteral("aegis-export.json"))));
        for (int i = 0; i < 40; ++i) {
            QFile other(
                home.filePath(QStringLiteral("z-list-%1.txt").arg(i, 2, 10, QLatin1Char('0'))));
            QVERIFY(other.open(QIODevice::WriteOnly));
        }
        QVERIFY(openImportPicker(app, QStringLiteral("aegis-export.json")));
        // The dialog's first words name every app it reads, the latest too.
        const QString formats = app.read(QStringLiteral("formatsLabel"), "text").toString();
        for (const char* title : {"Aegis", "KeePassXC", "Steam Guard", "Raivo OTP"})
            QVERIFY2(formats.contains(QLatin1String(title)), qPrintable(formats));
        QCOMPARE(app.read(QStringLiteral("pickerFolder"), "text").toString(), QStringLiteral("~"));
        // The wheel scrolls the list in a picker opened from a dialog: down
        // to the last file, then back up.
        QQuickItem* list = app.byName(QStringLiteral("pickerList"));
        QCOMPARE(list->property("contentY").toDouble(), list->property("originY").toDouble());
        // However far one turn carries it (the flick it starts runs on the
        // real clock), a few turns reach the end: the outcome does not hang
        // on the machine's speed.
        const auto turnUntil = [&](int notches, const char* end) {
            for (int turn = 0; turn < 10; ++turn) {
                app.wheel(list, notches);
                if (FrontDoor::waitFor([&] { return list->property(end).toBool(); }, 2000))
                    return true;
            }
            return false;
        };
        QVERIFY(turnUntil(-30, "atYEnd"));
        QVERIFY(turnUntil(30, "atYBeginning"));
        QVERIFY(readChosenFile(app, QStringLiteral("aegis-export.json")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byText(QStringLiteral("Add 7 accounts")) != nullptr; }, 30000));
        QVERIFY(app.read(QStringLiteral("previewSummary"), "text")
                    .toString()
                    .contains(QStringLiteral("7 accounts")));
        app.click(app.byText(QStringLiteral("Add 7 accounts")));
        QVERIFY(FrontDoor::waitFor([&] { return app.shell().accounts()->model()->rowCount() == 7; },
                                   30000));
        QVERIFY(
            FrontDoor::waitFor([&] { return app.byName(QStringLiteral("notice")) != nullptr; }));
    }

    // --- Import of a file with an entry Watchword cannot compute (a real
    // 2FAS backup with a SHA384 account): the preview lists it as "Cannot
    // import" with the reason, unticked and not tickable, and adds the rest.
    void importLeavesOutWhatCannotBeImported()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        const QDir home(app.home());
        QVERIFY(QFile::copy(
            QStringLiteral(
                WATCHWORD_TEST_DATA_DIR
                "/import/2fas/proton_decrypted_with_hotp_and_unsupported_algorithms.2fas"),
            home.filePath(QStringLiteral("twofas.2fas"))));
        QVERIFY(openImportPicker(app, QStringLiteral("twofas.2fas")));
        QVERIFY(readChosenFile(app, QStringLiteral("twofas.2fas")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byText(QStringLiteral("Add 1 account")) != nullptr; }, 30000));
        QCOMPARE(app.read(QStringLiteral("previewSummary"), "text").toString(),
                 QStringLiteral("1 account in the file, 1 ticked, 1 entry that cannot be "
                                "imported (left out)"));
        QCOMPARE(app.read(QStringLiteral("mark1"), "text").toString(),
                 QStringLiteral("Cannot import: unsupported algorithm \"SHA384\" (Watchword "
                                "computes SHA1, SHA256 and SHA512)"));
        QVERIFY(app.byText(QStringLiteral("Itemname: Optional info")) != nullptr);
        // Its box cannot be ticked, by a click or by "Tick all".
        QQuickItem* tick = app.byName(QStringLiteral("tick1"));
        QVERIFY(tick && !tick->isEnabled());
        app.click(tick);
        app.click(app.byText(QStringLiteral("Tick all")));
        QVERIFY(!tick->property("checked").toBool());
        QVERIFY(app.byText(QStringLiteral("Add 1 account")) != nullptr);
        app.click(app.byText(QStringLiteral("Add 1 account")));
        QVERIFY(FrontDoor::waitFor([&] { return app.shell().accounts()->model()->rowCount() == 1; },
                                   30000));
        QVERIFY(FrontDoor::waitFor([&] {
            return app.byText(QStringLiteral("Imported 1 account. 1 entry that cannot be imported "
                                             "was left out.")) != nullptr;
        }));
    }

    // --- Import of a password manager's export (KeePassXC's XML, as
    // keepassxc-cli writes it): recognised without being named, only the
    // entries with a one-time password previewed, groups as tags.
    void importAKeePassXcExport()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        const QDir home(app.home());
        QVERIFY(QFile::copy(
            QStringLiteral(WATCHWORD_TEST_DATA_DIR "/import/keepass/keepassxc_stratum_groups.xml"),
            home.filePath(QStringLiteral("passwords.xml"))));
        QVERIFY(openImportPicker(app, QStringLiteral("passwords.xml")));
        QVERIFY(readChosenFile(app, QStringLiteral("passwords.xml")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byText(QStringLiteral("Add 7 accounts")) != nullptr; }, 30000));
        QVERIFY(app.byText(QStringLiteral("Steam")) != nullptr);
        app.click(app.byText(QStringLiteral("Add 7 accounts")));
        QVERIFY(FrontDoor::waitFor([&] { return app.shell().accounts()->model()->rowCount() == 7; },
                                   30000));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byText(QStringLiteral("Group A/Group B")) != nullptr; }));
    }

    // --- Import of Steam secrets from an encrypted Steam Desktop
    // Authenticator folder: its .maFile alone is refused with the way out and
    // nothing added; its manifest.json asks the password, reads the .maFile
    // beside it and makes a Steam Guard account.
    void importASteamMaFile()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        const QDir home(app.home());
        for (const QString& name : {QStringLiteral("1234.maFile"), QStringLiteral("manifest.json")})
            QVERIFY(QFile::copy(
                QStringLiteral(WATCHWORD_TEST_DATA_DIR "/import/steam/sda_encrypted/") + name,
                home.filePath(name)));
        QVERIFY(openImportPicker(app, QStringLiteral("1234.maFile")));
        app.click(app.byText(QStringLiteral("1234.maFile")));
        app.key(Qt::Key_Return);
        // Said what it seems to be as soon as it is chosen, and again when
        // read as a .maFile all the same.
        QVERIFY(FrontDoor::waitFor([&] {
            return app.showsText(QStringLiteral("not in a format Watchword recognises (Base64 "
                                                "text, perhaps an encrypted Steam Desktop"));
        }));
        QVERIFY(choose(app, QStringLiteral("formatBox"), QStringLiteral("Steam Guard (.maFile)")));
        app.click(app.byName(QStringLiteral("readButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.showsText(QStringLiteral("import that manifest.json")); }, 30000));
        QCOMPARE(app.shell().accounts()->model()->rowCount(), 0);
        // Another file, from the same dialog.
        app.click(app.byName(QStringLiteral("chooseFileButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byText(QStringLiteral("manifest.json")) != nullptr; }));
        app.click(app.byText(QStringLiteral("manifest.json")));
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("passwordField")) != nullptr; }));
        app.click(app.byName(QStringLiteral("passwordField")));
        app.type(QStringLiteral("password"));
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byText(QStringLiteral("Add 1 account")) != nullptr; }, 30000));
        app.click(app.byText(QStringLiteral("Add 1 account")));
        QVERIFY(FrontDoor::waitFor([&] { return app.shell().accounts()->model()->rowCount() == 1; },
                                   30000));
        using watchword::app::AccountListModel;
        const QModelIndex first = app.shell().accounts()->model()->index(0, 0);
        QCOMPARE(first.data(AccountListModel::KindRole).toString(), QStringLiteral("steam"));
        // On screen: a Guard code of 5 symbols, not 6 digits.
        const QString code = first.data(AccountListModel::PlainCodeRole).toString();
        QCOMPARE(code.size(), 5);
        QVERIFY(app.showsText(first.data(AccountListModel::CodeRole).toString()));
    }

    // --- Import of Authenticator Plus's password-protected ZIP (WinAuth's
    // kind): recognised, its password asked; a wrong one said so and
    // nothing added, the right one previews its seven accounts, Steam's
    // among them as a Steam Guard account.
    void importAPasswordProtectedZip()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        QVERIFY(QFile::copy(QStringLiteral(WATCHWORD_TEST_DATA_DIR
                                           "/import/authenticator_plus/authenticator_plus.zip"),
                            QDir(app.home()).filePath(QStringLiteral("backup.zip"))));
        QVERIFY(openImportPicker(app, QStringLiteral("backup.zip")));
        app.click(app.byText(QStringLiteral("backup.zip")));
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("passwordField")) != nullptr; }));
        QCOMPARE(app.read(QStringLiteral("formatBox"), "currentText").toString(),
                 QStringLiteral("WinAuth / Authenticator Plus"));
        app.click(app.byName(QStringLiteral("passwordField")));
        app.type(QStringLiteral("testtest"));
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.showsText(QStringLiteral("password is wrong")); }, 30000));
        QCOMPARE(app.shell().accounts()->model()->rowCount(), 0);
        app.click(app.byName(QStringLiteral("passwordField")));
        app.type(QStringLiteral("testtesttest"));
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byText(QStringLiteral("Add 7 accounts")) != nullptr; }, 30000));
        app.click(app.byText(QStringLiteral("Add 7 accounts")));
        QVERIFY(FrontDoor::waitFor([&] { return app.shell().accounts()->model()->rowCount() == 7; },
                                   30000));
        using watchword::app::AccountListModel;
        int steam = 0;
        for (int row = 0; row < app.shell().accounts()->model()->rowCount(); ++row)
            if (app.shell()
                    .accounts()
                    ->model()
                    ->index(row, 0)
                    .data(AccountListModel::KindRole)
                    .toString() == QStringLiteral("steam"))
                ++steam;
        QCOMPARE(steam, 1);
    }

    // --- Import of Raivo OTP's JSON (what its archive holds): recognised
    // by its fields, every value a string, HOTP's counter kept.
    void importRaivoJson()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        QVERIFY(QFile::copy(
            QStringLiteral(WATCHWORD_TEST_DATA_DIR "/import/raivo/made_raivo-otp-export.json"),
            QDir(app.home()).filePath(QStringLiteral("raivo-otp-export.json"))));
        QVERIFY(openImportPicker(app, QStringLiteral("raivo-otp-export.json")));
        QVERIFY(readChosenFile(app, QStringLiteral("raivo-otp-export.json")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byText(QStringLiteral("Add 4 accounts")) != nullptr; }, 30000));
        QVERIFY(app.byText(QStringLiteral("HOTP")) != nullptr);
        app.click(app.byText(QStringLiteral("Add 4 accounts")));
        QVERIFY(FrontDoor::waitFor([&] { return app.shell().accounts()->model()->rowCount() == 4; },
                                   30000));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byText(QStringLiteral("Example Bank")) != nullptr; }));
    }

    // --- Watch: an export made under a PIN, saved to a new file through the
    // picker, then opened from that file and unlocked with the PIN typed on
    // the watch.
    void watchExportSavedAndOpened()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        QVERIFY(addByLink(app, githubLink));
        app.key(Qt::Key_5, Qt::AltModifier);
        QVERIFY(
            FrontDoor::waitFor([&] { return app.byName(QStringLiteral("watchPage")) != nullptr; }));
        QObject* exportFile =
            qvariant_cast<QObject*>(app.read(QStringLiteral("watchPage"), "exportFile"));
        QObject* watch = qvariant_cast<QObject*>(app.read(QStringLiteral("watchPage"), "watch"));
        app.click(app.byText(QStringLiteral("All")));
        app.click(app.byName(QStringLiteral("pinField")));
        app.type(QStringLiteral("482916"));
        app.click(app.byName(QStringLiteral("repeatField")));
        app.type(QStringLiteral("482916"));
        app.click(app.byName(QStringLiteral("createExportButton")));
        QVERIFY(FrontDoor::waitFor([&] { return exportFile->property("loaded").toBool(); }));
        // What is said of the export names the watch it was made for, and
        // follows when another watch is chosen.
        const QString madeFor = app.read(QStringLiteral("devicePicker"), "currentText").toString();
        QVERIFY(app.showsText(QStringLiteral("for %1.").arg(madeFor)));
        QVERIFY(!app.showsText(QStringLiteral("made for another watch")));
        const QString other = madeFor == QStringLiteral("fenix 7") ? QStringLiteral("Venu 3")
                                                                   : QStringLiteral("fenix 7");
        QVERIFY(choose(app, QStringLiteral("devicePicker"), other));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.showsText(QStringLiteral("made for another watch")); }));
        QVERIFY(app.showsText(QStringLiteral("for %1.").arg(madeFor)));
        QVERIFY(choose(app, QStringLiteral("devicePicker"), madeFor));
        QVERIFY(FrontDoor::waitFor(
            [&] { return !app.showsText(QStringLiteral("made for another watch")); }));

        app.click(app.byText(QStringLiteral("Save export\u2026")));
        saveAs(app, QStringLiteral("watch.json"));
        const QString path = QDir(app.home()).filePath(QStringLiteral("watch.json"));
        QVERIFY(FrontDoor::waitFor([&] { return QFileInfo(path).size() > 0; }));

        app.click(app.byText(QStringLiteral("Open export\u2026")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byText(QStringLiteral("watch.json")) != nullptr; }));
        app.click(app.byText(QStringLiteral("watch.json")));
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("pickerList")) == nullptr; }));
        // The watch has the keys once the file is open.
        app.type(QStringLiteral("482916"));
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor([&] { return watch->property("openedAccounts").toInt() == 1; },
                                   30000));
    }

    // --- Recovery: one mistyped word is refused; the phrase and both
    // passwords stay as typed, the error goes with the fix, and the vault
    // opens with the new password.
    void recoverWithOneTypoThenFixed()
    {
        FrontDoor& app = open();
        VaultController* vault = app.shell().vault();
        app.click(app.byText(QStringLiteral("Forgot the password? Use the recovery phrase")));
        QStringList words = watchword::e2e::sharedVault().phrase.split(QLatin1Char(' '));
        const QString last = words.takeLast();
        const QString typo = words.join(QLatin1Char(' ')) + QStringLiteral(" zzzz");
        app.type(typo);
        const QString password = QStringLiteral("new lantern orbit velvet");
        app.click(app.byName(QStringLiteral("recoveryNewPassword")));
        app.type(password);
        app.click(app.byName(QStringLiteral("recoveryRepeat")));
        app.type(password);
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor([&] { return !vault->error().isEmpty(); }, 30000));
        QCOMPARE(vault->state(), VaultController::State::Locked);
        QVERIFY(app.showsText(vault->error()));
        QCOMPARE(app.read(QStringLiteral("recoveryPhraseField"), "text").toString(), typo);
        QCOMPARE(app.read(QStringLiteral("recoveryNewPassword"), "text").toString(), password);
        QCOMPARE(app.read(QStringLiteral("recoveryRepeat"), "text").toString(), password);

        app.click(app.byName(QStringLiteral("recoveryPhraseField")));
        app.key(Qt::Key_End, Qt::ControlModifier);
        for (int i = 0; i < 4; ++i)
            app.key(Qt::Key_Backspace);
        app.type(last);
        QVERIFY(vault->error().isEmpty());
        app.click(app.byName(QStringLiteral("recoveryRepeat")));
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor(
            [&] { return vault->state() == VaultController::State::Unlocked; }, 30000));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.showsText(QStringLiteral("Recovered with your recovery phrase")); }));
        QVERIFY(lockByKeyboard(app));
        QVERIFY(unlock(app, password));
    }

    // --- Deleting by keyboard and taking it back with Ctrl+Z: Delete acts
    // on the highlighted row from the search field, the undo bar says what
    // went, Ctrl+Z brings it back.
    void deleteAndUndoByKeyboard()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        QVERIFY(addByLink(app, githubLink));
        QVERIFY(addByLink(app, gitlabLink));
        app.key(Qt::Key_F, Qt::ControlModifier);
        app.key(Qt::Key_Delete);
        QVERIFY(
            FrontDoor::waitFor([&] { return app.shell().accounts()->model()->rowCount() == 1; }));
        QVERIFY(app.byName(QStringLiteral("undoBar")) != nullptr);
        app.key(Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(
            FrontDoor::waitFor([&] { return app.shell().accounts()->model()->rowCount() == 2; }));
        QVERIFY(app.showsText(QStringLiteral("GitHub")));
        QVERIFY(app.showsText(QStringLiteral("GitLab")));
    }

    // --- Changing the password in Settings: a wrong current password keeps
    // all three fields; fixed, the change is confirmed on the page and the
    // new password opens the vault.
    void changePasswordAfterAMistake()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        app.key(Qt::Key_3, Qt::AltModifier);
        app.click(app.byName(QStringLiteral("changePasswordButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("currentPasswordField")) != nullptr; }));
        const QString password = QStringLiteral("violet harbour summit quill");
        app.type(QStringLiteral("wrong guess"));
        app.key(Qt::Key_Return);
        app.type(password);
        app.key(Qt::Key_Return);
        app.type(password);
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("passwordProblemLabel")) != nullptr; }, 30000));
        QCOMPARE(app.read(QStringLiteral("currentPasswordField"), "text").toString(),
                 QStringLiteral("wrong guess"));
        QCOMPARE(app.read(QStringLiteral("newPasswordField"), "text").toString(), password);
        QCOMPARE(app.read(QStringLiteral("repeatPasswordField"), "text").toString(), password);

        app.click(app.byName(QStringLiteral("currentPasswordField")));
        app.key(Qt::Key_A, Qt::ControlModifier);
        app.type(FrontDoor::password());
        app.click(app.byName(QStringLiteral("repeatPasswordField")));
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("vaultDoneLabel")) != nullptr; }, 30000));
        QVERIFY(lockByKeyboard(app));
        QVERIFY(unlock(app, password));
    }

    // --- A new order keeps the highlight on the same account: Enter then
    // copies that account's code, not the one now in its old row.
    void sortChangeKeepsTheHighlightedAccount()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        QVERIFY(addByLink(app, mastodonLink));
        QVERIFY(addByLink(app, githubLink));
        QVERIFY(addByLink(app, gitlabLink));
        // My order: Mastodon, GitHub, GitLab. Highlight GitLab (the last).
        app.click(app.textsContaining(QStringLiteral("GitLab")).constFirst());
        QCOMPARE(app.read(QStringLiteral("codesList"), "currentIndex").toInt(), 2);
        QVERIFY(choose(app, QStringLiteral("orderBox"), QStringLiteral("By name")));
        // By name: GitHub, GitLab, Mastodon.
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.read(QStringLiteral("codesList"), "currentIndex").toInt() == 1; }));
        // Ctrl+F, then Enter in the search field: copies the highlighted row.
        app.key(Qt::Key_F, Qt::ControlModifier);
        const auto* accounts = app.shell().accounts()->model();
        const auto gitlabCode = [accounts] {
            using watchword::app::AccountListModel;
            for (int row = 0; row < accounts->rowCount(); ++row) {
                const QModelIndex index = accounts->index(row, 0);
                if (index.data(AccountListModel::IssuerRole).toString() == QStringLiteral("GitLab"))
                    return index.data(AccountListModel::PlainCodeRole).toString();
            }
            return QString();
        };
        const std::optional<Copied> copied =
            copyWithinOnePeriod([&] { app.key(Qt::Key_Return); }, gitlabCode);
        QVERIFY(copied);
        QCOMPARE(copied->copied, copied->expected);
    }

    // --- Notes: written, edited under a new title, deleted and brought
    // back with Ctrl+Z: the restored note (under a new id) is the one shown,
    // its tags as saved (trimmed, each once) and its text as typed.
    void noteEditedDeletedAndBroughtBack()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        QVERIFY(newNoteByKeyboard(app));
        app.type(QStringLiteral("Alarm"));
        app.key(Qt::Key_Return);
        app.type(QStringLiteral("home, , home"));
        app.key(Qt::Key_Return);
        app.type(QStringLiteral("4711"));
        app.key(Qt::Key_S, Qt::ControlModifier);
        QVERIFY(showsIn(app, QStringLiteral("noteHeading"), QStringLiteral("Alarm")));
        QCOMPARE(app.shell().notes()->model()->rowCount(), 1);

        app.click(app.byName(QStringLiteral("editButton")));
        QVERIFY(showsIn(app, QStringLiteral("tagsField"), QStringLiteral("home")));
        app.click(app.byName(QStringLiteral("titleField")));
        app.key(Qt::Key_A, Qt::ControlModifier);
        app.type(QStringLiteral("House alarm"));
        app.key(Qt::Key_S, Qt::ControlModifier);
        QVERIFY(showsIn(app, QStringLiteral("noteHeading"), QStringLiteral("House alarm")));

        app.click(app.byName(QStringLiteral("deleteButton")));
        QVERIFY(FrontDoor::waitFor([&] { return app.shell().notes()->model()->rowCount() == 0; }));
        QVERIFY(app.showsText(QStringLiteral("Deleted note House alarm")));
        app.key(Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(showsIn(app, QStringLiteral("noteHeading"), QStringLiteral("House alarm")));
        QCOMPARE(app.shell().notes()->model()->rowCount(), 1);
        app.click(app.byName(QStringLiteral("revealButton")));
        QVERIFY(showsIn(app, QStringLiteral("noteBody"), QStringLiteral("4711")));
    }

    // --- Sharing between two people, each with their own vault, through
    // the window. Alice adds Bob as a contact from his vault file, shares an account (from its
    // row's menu) as text and as a QR code, and a note (from the note's
    // page) as a file; her own app cannot open what she sealed to Bob.
    // Bob pastes the text: from someone unknown, shown by fingerprint; he
    // adds Alice as a contact there, then the account. He opens the file
    // (from Alice now, not verified) and adds the note; the QR code, read
    // from an image of Alice's window, is the share already received. His
    // file then holds Alice's account (the same codes), her note and her
    // as a contact.
    // Another device (a sync engine bringing its save, a conflict copy left
    // beside the file, a password changed there) changes the vault file
    // while the app has it open: each change shows up in the window without
    // a question, the file ends holding everything, and what cannot be
    // merged is named and left alone.
    void anotherDeviceChangesTheVaultFile()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        const QString path = app.vaultPath();
        const QString folder = QFileInfo(path).absolutePath();
        const QByteArray laptopPassword = "laptop password, changed on the laptop";
        // The laptop opens the file as it is on disk, changes it and writes
        // target the way a sync engine puts a file in place (by rename).
        const auto onTheLaptop = [&](const QString& target, const QByteArray& password,
                                     const std::function<void(watchword::vault::Vault&)>& edit) {
            const QByteArray bytes = watchword::test::readBytes(path);
            auto laptop = watchword::vault::Vault::unlockWithPassword(
                watchword::test::view(bytes), watchword::asBytes(password.toStdString()));
            if (!laptop)
                return false;
            laptop->setDevice({0x1a, 0x97, 0x09, 0, 0, 0, 0, 1});
            edit(*laptop);
            auto written = laptop->serialize(watchword::crypto::systemRandom(),
                                             QDateTime::currentSecsSinceEpoch());
            if (!written)
                return false;
            const QString temp = folder + QStringLiteral("/.incoming.tmp");
            return watchword::test::writeBytes(
                       temp, QByteArray(reinterpret_cast<const char*>(written->data()),
                                        qsizetype(written->size()))) &&
                   std::rename(QFile::encodeName(temp).constData(),
                               QFile::encodeName(target).constData()) == 0;
        };
        const auto anAccount = [](const char* issuer) {
            watchword::vault::OtpAccount account;
            account.issuer = issuer;
            account.accountName = "alice";
            account.secret = watchword::SecureBuffer(watchword::asBytes("12345678901234567890"));
            account.created = account.modified = QDateTime::currentSecsSinceEpoch();
            return account;
        };
        const auto fileHolds = [&](const QByteArray& password, const std::string& title) {
            const QByteArray bytes = watchword::test::readBytes(path);
            auto vault = watchword::vault::Vault::unlockWithPassword(
                watchword::test::view(bytes), watchword::asBytes(password.toStdString()));
            if (!vault)
                return false;
            for (std::size_t i = 0; i < vault->recordCount(); ++i)
                if (watchword::app::recordTitle(vault->record(i)).toStdString().starts_with(title))
                    return true;
            return false;
        };
        // What a visible label says, or "" while it is not on screen.
        const auto textOf = [&](const char* name) {
            const QQuickItem* item = app.byName(QString::fromLatin1(name));
            return item != nullptr ? item->property("text").toString() : QString();
        };
        const auto noticeSays = [&](const QString& text) {
            return FrontDoor::waitFor([&] { return textOf("noticeText") == text; }, 20000);
        };
        // Clicks a field until it has the keyboard focus (the banner above
        // it may still be moving the page down).
        const auto focusField = [&](const char* name) {
            return FrontDoor::waitFor([&] {
                QQuickItem* field = app.byName(QString::fromLatin1(name));
                if (field == nullptr)
                    return false;
                if (!field->hasActiveFocus())
                    app.click(field);
                return field->hasActiveFocus();
            });
        };

        // 1. The laptop's save arrives: its account is in the list.
        QVERIFY(onTheLaptop(path, FrontDoor::password().toUtf8(), [&](auto& vault) {
            QVERIFY(vault.add(anAccount("Laptop Bank"), watchword::crypto::systemRandom()));
        }));
        QVERIFY(noticeSays(QStringLiteral("1 account added on another device.")));
        QVERIFY(FrontDoor::waitFor([&] { return app.showsText(QStringLiteral("Laptop Bank")); }));

        // 2. A conflict copy beside the file: merged, written, moved aside.
        const QString copyName = QStringLiteral("vault.sync-conflict-20261207-101500-ABCDEF7.wwv");
        QVERIFY(onTheLaptop(
            folder + QLatin1Char('/') + copyName, FrontDoor::password().toUtf8(), [&](auto& vault) {
                watchword::vault::SecureNote note;
                note.title = "Written on the laptop";
                note.body = watchword::SecureBuffer(watchword::asBytes("text"));
                note.created = note.modified = 1;
                QVERIFY(vault.add(std::move(note), watchword::crypto::systemRandom()));
            }));
        QVERIFY(noticeSays(QStringLiteral("1 note added on another device.")));
        QVERIFY(FrontDoor::waitFor(
            [&] {
                return QFile::exists(folder + QStringLiteral("/.watchword-merged/") + copyName) &&
                       !QFile::exists(folder + QLatin1Char('/') + copyName);
            },
            20000));
        QVERIFY(FrontDoor::waitFor(
            [&] { return fileHolds(FrontDoor::password().toUtf8(), "Written on the laptop"); }));

        // 3. The laptop changed the password: the window asks for it once.
        QVERIFY(onTheLaptop(path, FrontDoor::password().toUtf8(), [&](auto& vault) {
            QVERIFY(
                vault.changePassword(watchword::asBytes(laptopPassword.toStdString()),
                                     {watchword::vault::minimumPasswordIterations, 1000, 1'000'000},
                                     watchword::crypto::systemRandom()));
            QVERIFY(vault.add(anAccount("After the change"), watchword::crypto::systemRandom()));
        }));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("syncPasswordField")) != nullptr; }, 20000));
        QVERIFY(focusField("syncPasswordField"));
        app.type(QStringLiteral("not it"));
        app.click(app.byName(QStringLiteral("syncMergeButton")));
        QVERIFY(FrontDoor::waitFor([&] {
            return textOf("syncPasswordError") ==
                   QStringLiteral("That is not the password this copy was saved with.");
        }));
        QVERIFY(focusField("syncPasswordField"));
        app.type(QString::fromUtf8(laptopPassword));
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.showsText(QStringLiteral("After the change")); }, 20000));
        QVERIFY(app.byName(QStringLiteral("syncPassword")) == nullptr);
        QVERIFY(FrontDoor::waitFor([&] { return fileHolds(laptopPassword, "After the change"); },
                                   20000));
        QVERIFY(fileHolds(laptopPassword, "Laptop Bank"));

        // 4. A conflict copy of another vault: named, left where it is.
        const QString foreign =
            folder + QStringLiteral("/vault (conflicted copy 2026-12-07 101500).wwv");
        {
            auto keychain = watchword::keychain::Keychain::restore(
                "abandon abandon abandon abandon abandon abandon abandon abandon abandon "
                "abandon abandon about");
            QVERIFY(keychain.ok());
            auto another = watchword::vault::Vault::create(
                watchword::asBytes("another vault's password"), *keychain,
                {watchword::vault::minimumPasswordIterations, 1000, 1'000'000},
                watchword::crypto::systemRandom(), 1);
            QVERIFY(another.ok());
            auto bytes = another->serialize(watchword::crypto::systemRandom(), 2);
            QVERIFY(bytes.ok());
            QVERIFY(watchword::test::writeBytes(
                foreign, QByteArray(reinterpret_cast<const char*>(bytes->data()),
                                    qsizetype(bytes->size()))));
        }
        QVERIFY(FrontDoor::waitFor(
            [&] { return textOf("syncProblemText").contains(QStringLiteral("cannot be merged")); },
            20000));
        QVERIFY(QFile::exists(foreign));
        QVERIFY(fileHolds(laptopPassword, "After the change"));
    }

    void twoPeopleShareThroughTheWindow()
    {
        namespace ww = watchword;
        const auto& bobsVault = ww::e2e::otherPersonsVault();
        QVERIFY(!bobsVault.file.isEmpty());
        const auto bobsKeychain = ww::keychain::Keychain::restore(bobsVault.phrase.toStdString());
        QVERIFY(bobsKeychain.ok());
        const QString bobsIdentity =
            QString::fromStdString(ww::share::identityText(bobsKeychain->sharingKey().publicKey));

        // Alice: Bob as a verified contact (read from the vault file he
        // gave her: its identity needs no password), an account and a note.
        auto aliceDoor = std::make_unique<FrontDoor>(ww::e2e::sharedVault().file);
        FrontDoor& alice = *aliceDoor;
        QVERIFY(
            QFile::copy(bobsVault.file, QDir(alice.home()).filePath(QStringLiteral("bob.wwv"))));
        QVERIFY(alice.start());
        QVERIFY(unlock(alice));
        alice.key(Qt::Key_6, Qt::AltModifier);
        QVERIFY(FrontDoor::waitFor(
            [&] { return alice.byName(QStringLiteral("contactFileButton")) != nullptr; }));
        alice.click(alice.byName(QStringLiteral("contactFileButton")));
        QVERIFY(
            FrontDoor::waitFor([&] { return alice.byText(QStringLiteral("bob.wwv")) != nullptr; }));
        alice.click(alice.byText(QStringLiteral("bob.wwv")));
        alice.key(Qt::Key_Return);
        QVERIFY(showsIn(alice, QStringLiteral("contactIdentityField"), bobsIdentity));
        QVERIFY(FrontDoor::waitFor([&] {
            const QQuickItem* name = alice.byName(QStringLiteral("contactNameField"));
            return name != nullptr && name->hasActiveFocus();
        }));
        alice.type(QStringLiteral("Bob"));
        alice.key(Qt::Key_Return);
        QVERIFY(showsIn(alice, QStringLiteral("contactName"), QStringLiteral("Bob")));
        alice.click(alice.byName(QStringLiteral("verifyContactButton")));
        QVERIFY(showsIn(alice, QStringLiteral("contactVerified"), QStringLiteral("Verified")));
        alice.key(Qt::Key_1, Qt::AltModifier);
        QVERIFY(addByLink(alice, QStringLiteral("otpauth://totp/Forge:alice?secret="
                                                "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Forge")));
        QVERIFY(newNoteByKeyboard(alice));
        alice.type(QStringLiteral("Wi-Fi"));
        alice.click(alice.byName(QStringLiteral("bodyEditor")));
        alice.type(QStringLiteral("guest / correct-pony-42"));
        alice.key(Qt::Key_S, Qt::ControlModifier);
        QVERIFY(showsIn(alice, QStringLiteral("noteHeading"), QStringLiteral("Wi-Fi")));

        // The note, from its page, as a file.
        alice.click(alice.byName(QStringLiteral("shareNoteButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return alice.byName(QStringLiteral("recipient-Bob")) != nullptr; }));
        QVERIFY(alice.read(QStringLiteral("shareRecord-Wi-Fi"), "checked").toBool());
        QVERIFY(!alice.read(QStringLiteral("makeShareButton"), "enabled").toBool());
        QVERIFY(showsIn(alice, QStringLiteral("shareProblem"),
                        QStringLiteral("Tick at least one person.")));
        alice.click(alice.byName(QStringLiteral("recipient-Bob")));
        alice.click(alice.byName(QStringLiteral("makeShareButton")));
        QVERIFY(FrontDoor::waitFor([&] {
            return alice.read(QStringLiteral("shareSummary"), "text")
                .toString()
                .startsWith(QStringLiteral("1 record for Bob"));
        }));
        alice.click(alice.byName(QStringLiteral("saveShareButton")));
        saveAs(alice, QStringLiteral("wifi-for-bob"));
        const QString noteFile =
            QDir(alice.home()).filePath(QStringLiteral("wifi-for-bob.wwshare"));
        QVERIFY(FrontDoor::waitFor([&] { return QFileInfo::exists(noteFile); }));
        QVERIFY(showsIn(alice, QStringLiteral("shareResult"),
                        QStringLiteral("Saved the share to wifi-for-bob.wwshare. Send it to the "
                                       "people it is for by any channel: only they can open it.")));
        alice.click(alice.byName(QStringLiteral("closeShareButton")));

        // The account, from its row's menu, as text and as a QR code.
        alice.key(Qt::Key_1, Qt::AltModifier);
        QVERIFY(FrontDoor::waitFor(
            [&] { return alice.byName(QStringLiteral("menuButton")) != nullptr; }));
        alice.click(alice.byName(QStringLiteral("menuButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return alice.byName(QStringLiteral("shareAccountItem")) != nullptr; }));
        alice.click(alice.byName(QStringLiteral("shareAccountItem")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return alice.byName(QStringLiteral("recipient-Bob")) != nullptr; }));
        QVERIFY(alice.read(QStringLiteral("shareRecord-Forge (alice)"), "checked").toBool());
        QVERIFY(!alice.read(QStringLiteral("shareRecord-Wi-Fi"), "checked").toBool());
        alice.click(alice.byName(QStringLiteral("recipient-Bob")));
        alice.click(alice.byName(QStringLiteral("makeShareButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return alice.byName(QStringLiteral("copyShareButton")) != nullptr; }));
        alice.click(alice.byName(QStringLiteral("copyShareButton")));
        QVERIFY(FrontDoor::waitFor([&] {
            return QGuiApplication::clipboard()->text().startsWith(
                QStringLiteral("-----BEGIN WATCHWORD SHARE-----\n"));
        }));
        const QString sharedText = QGuiApplication::clipboard()->text();
        alice.click(alice.byName(QStringLiteral("qrShareButton")));
        QImage qrShot;
        QVERIFY(FrontDoor::waitFor([&] {
            qrShot = alice.window()->grabWindow();
            const auto scanned = ww::app::decodeQrCodes(qrShot).texts;
            return scanned.size() == 1 && scanned.front().startsWith("watchword-share:");
        }));
        alice.key(Qt::Key_Escape); // the QR code
        alice.click(alice.byName(QStringLiteral("closeShareButton")));

        // Alice cannot open what she sealed to Bob.
        alice.click(alice.byName(QStringLiteral("appMenuButton")));
        alice.click(alice.byName(QStringLiteral("receiveItem")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return alice.byName(QStringLiteral("sharePasteArea")) != nullptr; }));
        alice.click(alice.byName(QStringLiteral("sharePasteArea")));
        alice.key(Qt::Key_V, Qt::ControlModifier);
        alice.click(alice.byName(QStringLiteral("openPastedButton")));
        QVERIFY(FrontDoor::waitFor([&] {
            return alice.read(QStringLiteral("receiveError"), "text")
                .toString()
                .contains(QStringLiteral("not for"));
        }));
        QVERIFY(alice.byName(QStringLiteral("receivedList")) == nullptr);
        alice.click(alice.byName(QStringLiteral("closeReceiveButton")));
        const QByteArray noteShare = ww::test::readBytes(noteFile);
        QVERIFY(noteShare.startsWith("WWSHARE"));
        alice.stop();

        // Bob, on his own vault, with the file and a picture of the code.
        m_app = std::make_unique<FrontDoor>(bobsVault.file);
        FrontDoor& bob = *m_app;
        QFile copy(QDir(bob.home()).filePath(QStringLiteral("wifi.wwshare")));
        QVERIFY(copy.open(QIODevice::WriteOnly) && copy.write(noteShare) == noteShare.size());
        copy.close();
        QVERIFY(qrShot.save(QDir(bob.home()).filePath(QStringLiteral("code.png"))));
        QVERIFY(bob.start());
        QVERIFY(unlock(bob));

        // The text, pasted: from someone unknown until Bob names them.
        bob.click(bob.byName(QStringLiteral("appMenuButton")));
        bob.click(bob.byName(QStringLiteral("receiveItem")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return bob.byName(QStringLiteral("sharePasteArea")) != nullptr; }));
        QCOMPARE(QGuiApplication::clipboard()->text(), sharedText);
        bob.click(bob.byName(QStringLiteral("sharePasteArea")));
        bob.key(Qt::Key_V, Qt::ControlModifier);
        bob.click(bob.byName(QStringLiteral("openPastedButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return bob.byName(QStringLiteral("senderLabel")) != nullptr; }));
        const QString unknownText = bob.read(QStringLiteral("senderLabel"), "text").toString();
        QVERIFY2(unknownText.startsWith(QStringLiteral("From someone who is not one of your "
                                                       "contacts. Their fingerprint: ")),
                 qPrintable(unknownText));
        QCOMPARE(bob.read(QStringLiteral("received-Forge (alice)"), "checked").toBool(), true);
        QVERIFY(!bob.read(QStringLiteral("addReceivedButton"), "enabled").toBool());
        bob.click(bob.byName(QStringLiteral("senderNameField")));
        bob.type(QStringLiteral("Alice"));
        bob.click(bob.byName(QStringLiteral("addSenderButton")));
        QVERIFY(FrontDoor::waitFor([&] {
            return bob.read(QStringLiteral("senderLabel"), "text")
                .toString()
                .startsWith(QStringLiteral("From Alice, a contact you have not verified"));
        }));
        QVERIFY(bob.read(QStringLiteral("senderLabel"), "text")
                    .toString()
                    .endsWith(unknownText.section(QStringLiteral("fingerprint: "), 1)
                                  .section(QLatin1Char('.'), 0, 0)));
        QCOMPARE(bob.read(QStringLiteral("addReceivedButton"), "text").toString(),
                 QStringLiteral("Add 1 record"));
        bob.click(bob.byName(QStringLiteral("addReceivedButton")));
        QVERIFY(showsIn(bob, QStringLiteral("noticeText"),
                        QStringLiteral("Added 1 record from Alice.")));
        QCOMPARE(bob.shell().accounts()->model()->rowCount(), 1);

        // The file: from Alice, the note.
        bob.click(bob.byName(QStringLiteral("appMenuButton")));
        bob.click(bob.byName(QStringLiteral("receiveItem")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return bob.byName(QStringLiteral("openShareFileButton")) != nullptr; }));
        bob.click(bob.byName(QStringLiteral("openShareFileButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return bob.byText(QStringLiteral("wifi.wwshare")) != nullptr; }));
        bob.click(bob.byText(QStringLiteral("wifi.wwshare")));
        bob.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor([&] {
            return bob.byName(QStringLiteral("received-Wi-Fi")) != nullptr &&
                   bob.read(QStringLiteral("senderLabel"), "text")
                       .toString()
                       .startsWith(QStringLiteral("From Alice, a contact you have not verified"));
        }));
        bob.click(bob.byName(QStringLiteral("addReceivedButton")));
        QVERIFY(showsIn(bob, QStringLiteral("noticeText"),
                        QStringLiteral("Added 1 record from Alice.")));

        // The QR code, read from the picture: already received.
        bob.click(bob.byName(QStringLiteral("appMenuButton")));
        bob.click(bob.byName(QStringLiteral("receiveItem")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return bob.byName(QStringLiteral("shareQrImageButton")) != nullptr; }));
        bob.click(bob.byName(QStringLiteral("shareQrImageButton")));
        QVERIFY(
            FrontDoor::waitFor([&] { return bob.byText(QStringLiteral("code.png")) != nullptr; }));
        bob.click(bob.byText(QStringLiteral("code.png")));
        bob.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor(
            [&] { return bob.byName(QStringLiteral("alreadyReceivedLabel")) != nullptr; }));
        QCOMPARE(bob.read(QStringLiteral("received-Forge (alice)"), "checked").toBool(), false);
        QVERIFY(
            bob.showsText(QStringLiteral("Already in the vault as \u201cForge (alice)\u201d.")));
        bob.click(bob.byName(QStringLiteral("closeReceiveButton")));

        // In Bob's file: Alice's account (her codes), her note, her as a contact.
        const auto bobsFile = [&] {
            const auto bytes = ww::test::readBytes(bob.vaultPath());
            const QByteArray password = FrontDoor::password().toUtf8();
            return ww::vault::Vault::unlockWithPassword(ww::test::view(bytes),
                                                        ww::test::view(password));
        };
        QVERIFY(FrontDoor::waitFor([&] {
            const auto opened = bobsFile();
            return opened && opened->recordCount() == 3;
        }));
        const auto opened = bobsFile();
        bool account = false, note = false;
        for (std::size_t i = 0; i < opened->recordCount(); ++i) {
            if (const auto* a = std::get_if<ww::vault::OtpAccount>(&opened->record(i)))
                account = a->issuer == "Forge" && a->receivedFrom.has_value() &&
                          ww::encoding::toBase32(a->secret.span()).view() ==
                              "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
            if (const auto* n = std::get_if<ww::vault::SecureNote>(&opened->record(i)))
                note = n->title == "Wi-Fi" && n->body.view() == "guest / correct-pony-42";
        }
        QVERIFY(account);
        QVERIFY(note);
        const auto contacts = ww::vault::contactsOf(*opened);
        QCOMPARE(contacts.size(), std::size_t(1));
        QCOMPARE(contacts.front()->name, std::string("Alice"));
        QVERIFY(!contacts.front()->verified);

        // Bob compares the words and marks Alice verified; the share now
        // says so. He sends the note back, chosen from the menu's Share.
        bob.key(Qt::Key_6, Qt::AltModifier);
        QVERIFY(FrontDoor::waitFor(
            [&] { return bob.byName(QStringLiteral("verifyContactButton")) != nullptr; }));
        bob.click(bob.byName(QStringLiteral("verifyContactButton")));
        QVERIFY(showsIn(bob, QStringLiteral("contactVerified"), QStringLiteral("Verified")));
        bob.click(bob.byName(QStringLiteral("appMenuButton")));
        bob.click(bob.byName(QStringLiteral("receiveItem")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return bob.byName(QStringLiteral("sharePasteArea")) != nullptr; }));
        bob.click(bob.byName(QStringLiteral("sharePasteArea")));
        bob.key(Qt::Key_V, Qt::ControlModifier);
        bob.click(bob.byName(QStringLiteral("openPastedButton")));
        QVERIFY(showsIn(bob, QStringLiteral("senderLabel"),
                        QStringLiteral("From Alice, a contact you have verified.")));
        bob.click(bob.byName(QStringLiteral("closeReceiveButton")));
        bob.click(bob.byName(QStringLiteral("appMenuButton")));
        bob.click(bob.byName(QStringLiteral("shareItem")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return bob.byName(QStringLiteral("recipient-Alice")) != nullptr; }));
        bob.click(bob.byName(QStringLiteral("shareRecord-Wi-Fi")));
        bob.click(bob.byName(QStringLiteral("recipient-Alice")));
        QVERIFY(bob.byName(QStringLiteral("unverifiedWarning")) == nullptr);
        bob.click(bob.byName(QStringLiteral("makeShareButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return bob.byName(QStringLiteral("copyShareButton")) != nullptr; }));
        bob.click(bob.byName(QStringLiteral("copyShareButton")));
        QVERIFY(FrontDoor::waitFor([&] {
            const QString text = QGuiApplication::clipboard()->text();
            return text.startsWith(QStringLiteral("-----BEGIN WATCHWORD SHARE-----")) &&
                   text != sharedText;
        }));
        bob.click(bob.byName(QStringLiteral("closeShareButton")));
        bob.stop();

        // Alice pastes it: from Bob, verified; the note is one she has.
        m_app = std::make_unique<FrontDoor>(alice.vaultPath());
        FrontDoor& aliceAgain = *m_app;
        QVERIFY(aliceAgain.start());
        QVERIFY(unlock(aliceAgain));
        aliceAgain.click(aliceAgain.byName(QStringLiteral("appMenuButton")));
        aliceAgain.click(aliceAgain.byName(QStringLiteral("receiveItem")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return aliceAgain.byName(QStringLiteral("sharePasteArea")) != nullptr; }));
        aliceAgain.click(aliceAgain.byName(QStringLiteral("sharePasteArea")));
        aliceAgain.key(Qt::Key_V, Qt::ControlModifier);
        aliceAgain.click(aliceAgain.byName(QStringLiteral("openPastedButton")));
        QVERIFY(showsIn(aliceAgain, QStringLiteral("senderLabel"),
                        QStringLiteral("From Bob, a contact you have verified.")));
        QVERIFY(aliceAgain.showsText(QStringLiteral("Already in the vault as \u201cWi-Fi\u201d.")));
        QCOMPARE(aliceAgain.read(QStringLiteral("received-Wi-Fi"), "checked").toBool(), false);
        // Locking closes the dialogs and forgets what they held.
        QVERIFY(lockByKeyboard(aliceAgain));
        QVERIFY(FrontDoor::waitFor(
            [&] { return aliceAgain.byName(QStringLiteral("receivedList")) == nullptr; }));
        QVERIFY(unlock(aliceAgain));
        aliceAgain.click(aliceAgain.byName(QStringLiteral("appMenuButton")));
        aliceAgain.click(aliceAgain.byName(QStringLiteral("shareItem")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return aliceAgain.byName(QStringLiteral("recipient-Bob")) != nullptr; }));
        QVERIFY(lockByKeyboard(aliceAgain));
        QVERIFY(FrontDoor::waitFor(
            [&] { return aliceAgain.byName(QStringLiteral("recipient-Bob")) == nullptr; }));
        QVERIFY(aliceAgain.byName(QStringLiteral("sharePasteArea")) == nullptr);
    }

    // --- Contacts: an identity pasted and named, verified, renamed, removed
    // and brought back with Ctrl+Z, each change in the file; a damaged
    // identity refused with the core's sentence; the page gone on lock.
    void contactsAddedVerifiedRenamedAndRemoved()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        app.key(Qt::Key_6, Qt::AltModifier);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("contactIdentityField")) != nullptr; }));
        QVERIFY(app.byName(QStringLiteral("noContactsLabel")) != nullptr);
        const auto keychain = watchword::keychain::Keychain::restore(
            "legal winner thank year wave sausage worth useful legal winner thank yellow");
        QVERIFY(keychain.ok());
        const QString identity = QString::fromStdString(
            watchword::share::identityText(keychain->sharingKey().publicKey));
        const QString words = QString::fromStdString(
            watchword::share::identityFingerprintText(keychain->sharingKey().publicKey));

        // One letter changed: refused, nothing added.
        QString damaged = identity;
        damaged[30] = damaged[30] == QLatin1Char('q') ? QLatin1Char('p') : QLatin1Char('q');
        app.click(app.byName(QStringLiteral("contactIdentityField")));
        app.type(damaged);
        app.key(Qt::Key_Return);
        app.type(QStringLiteral("Bob"));
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor([&] {
            return app.read(QStringLiteral("contactError"), "text")
                .toString()
                .startsWith(QStringLiteral("the identity text is damaged"));
        }));
        QCOMPARE(app.read(QStringLiteral("contactsList"), "count").toInt(), 0);

        app.click(app.byName(QStringLiteral("contactIdentityField")));
        app.key(Qt::Key_A, Qt::ControlModifier);
        app.type(identity);
        app.click(app.byName(QStringLiteral("addContactButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.read(QStringLiteral("contactsList"), "count").toInt() == 1; }));
        QVERIFY(app.byName(QStringLiteral("contactError")) == nullptr); // shown only when set
        QVERIFY(app.byName(QStringLiteral("noContactsLabel")) == nullptr);
        QVERIFY(showsIn(app, QStringLiteral("contactName"), QStringLiteral("Bob")));
        QVERIFY(showsIn(app, QStringLiteral("contactVerified"), QStringLiteral("Not verified")));
        QVERIFY(showsIn(app, QStringLiteral("contactFingerprint"),
                        QStringLiteral("Fingerprint: ") + words));
        QCOMPARE(app.read(QStringLiteral("contactIdentityField"), "text").toString(), QString());

        app.click(app.byName(QStringLiteral("verifyContactButton")));
        QVERIFY(showsIn(app, QStringLiteral("contactVerified"), QStringLiteral("Verified")));
        app.click(app.byName(QStringLiteral("renameContactButton")));
        QVERIFY(FrontDoor::waitFor([&] {
            const QQuickItem* field = app.byName(QStringLiteral("renameField"));
            return field != nullptr && field->hasActiveFocus();
        }));
        app.type(QStringLiteral("Bob Builder"));
        app.key(Qt::Key_Return);
        QVERIFY(showsIn(app, QStringLiteral("contactName"), QStringLiteral("Bob Builder")));

        // In the file: one verified contact of that name and key.
        const auto onDisk = [&] {
            const auto bytes = watchword::test::readBytes(app.vaultPath());
            const QByteArray password = FrontDoor::password().toUtf8();
            auto opened = watchword::vault::Vault::unlockWithPassword(
                watchword::test::view(bytes), watchword::test::view(password));
            std::vector<watchword::vault::Contact> contacts;
            if (opened)
                for (const auto* contact : watchword::vault::contactsOf(*opened))
                    contacts.push_back(*contact);
            return contacts;
        };
        QVERIFY(FrontDoor::waitFor(
            [&] {
                const auto contacts = onDisk();
                return contacts.size() == 1 && contacts.front().name == "Bob Builder" &&
                       contacts.front().verified &&
                       contacts.front().publicKey == keychain->sharingKey().publicKey.compressed();
            },
            10000));

        app.click(app.byName(QStringLiteral("removeContactButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.read(QStringLiteral("contactsList"), "count").toInt() == 0; }));
        QVERIFY(FrontDoor::waitFor([&] { return onDisk().empty(); }, 10000));
        QVERIFY(app.showsText(QStringLiteral("Removed contact Bob Builder")));
        app.click(app.byName(QStringLiteral("undoContactButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.read(QStringLiteral("contactsList"), "count").toInt() == 1; }));
        QVERIFY(app.byName(QStringLiteral("undoContactButton")) == nullptr);
        // Removed again, and back by Ctrl+Z this time.
        app.click(app.byName(QStringLiteral("removeContactButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.read(QStringLiteral("contactsList"), "count").toInt() == 0; }));
        app.key(Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.read(QStringLiteral("contactsList"), "count").toInt() == 1; }));
        QVERIFY(showsIn(app, QStringLiteral("contactName"), QStringLiteral("Bob Builder")));
        QVERIFY(FrontDoor::waitFor([&] { return onDisk().size() == 1; }, 10000));

        // Locked: the page goes, and the codes' unlock page is shown.
        QVERIFY(lockByKeyboard(app));
        QVERIFY(app.byName(QStringLiteral("contactsPage")) == nullptr);
    }

    // --- Notes: a note saved with Ctrl+S is found by a word of its body,
    // accents aside ("zurich" finds "Zürich"); a search that finds nothing
    // says so and shows no note.
    void noteFoundByItsBodyWithoutAccents()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        QVERIFY(newNoteByKeyboard(app));
        app.type(QStringLiteral("Conference trip"));
        app.click(app.byName(QStringLiteral("bodyEditor")));
        app.type(QStringLiteral("Hotel near Z\u00fcrich HB, room 12"));
        app.key(Qt::Key_S, Qt::ControlModifier);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("titleField")) == nullptr; }));
        QCOMPARE(app.shell().notes()->model()->rowCount(), 1);

        app.key(Qt::Key_F, Qt::ControlModifier);
        app.type(QStringLiteral("zurich"));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.read(QStringLiteral("notesList"), "count").toInt() == 1; }));
        app.key(Qt::Key_A, Qt::ControlModifier);
        app.type(QStringLiteral("geneva"));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.read(QStringLiteral("notesList"), "count").toInt() == 0; }));
        QVERIFY(app.byName(QStringLiteral("noMatchesLabel")) != nullptr);
        QVERIFY(app.byName(QStringLiteral("noteViewer")) == nullptr);
    }

    // --- The add dialog: by hand; the same account again (by hand or from
    // an existing account's QR image) is warned about before it is saved;
    // each opening starts afresh (secret hidden, no error before typing);
    // a QR image opened through the picker fills the form; F2 edits with
    // the focus on the account's own fields.
    void addByHandFromQrAndDuplicatesWarned()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        QVERIFY(addByLink(app, githubLink));

        // The same secret by hand: warned, and the button says so.
        app.key(Qt::Key_N, Qt::ControlModifier);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("issuerField")) != nullptr; }));
        QCOMPARE(app.focused() ? app.focused()->objectName() : QString(),
                 QStringLiteral("uriField"));
        app.click(app.byName(QStringLiteral("issuerField")));
        app.type(QStringLiteral("GitHub work"));
        app.click(app.byName(QStringLiteral("secretField")));
        app.type(QStringLiteral("JBSWY3DPEHPK3PXP"));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("duplicateWarning")) != nullptr; }));
        QVERIFY(app.read(QStringLiteral("duplicateWarning"), "text")
                    .toString()
                    .contains(QStringLiteral("GitHub")));
        QCOMPARE(app.read(QStringLiteral("saveButton"), "text").toString(),
                 QStringLiteral("Add anyway"));
        app.click(app.byName(QStringLiteral("showSecretButton")));
        app.key(Qt::Key_Escape);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("issuerField")) == nullptr; }));
        QCOMPARE(app.shell().accounts()->model()->rowCount(), 1);

        // Reopened: afresh.
        app.key(Qt::Key_N, Qt::ControlModifier);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("secretField")) != nullptr; }));
        QCOMPARE(app.read(QStringLiteral("secretField"), "echoMode").toInt(),
                 2); // Password
        QCOMPARE(app.byName(QStringLiteral("duplicateWarning")), nullptr);
        for (const char* error : {"issuerError", "accountNameError", "secretError"})
            QVERIFY2(app.byName(QString::fromLatin1(error)) == nullptr, error); // not shown
        // A new account by hand.
        app.click(app.byName(QStringLiteral("issuerField")));
        app.type(QStringLiteral("Forgejo"));
        app.click(app.byName(QStringLiteral("accountField")));
        app.type(QStringLiteral("erin"));
        app.click(app.byName(QStringLiteral("secretField")));
        app.type(QStringLiteral("MFRGGZDFMZTWQ2LK"));
        QCOMPARE(app.read(QStringLiteral("saveButton"), "text").toString(), QStringLiteral("Save"));
        app.click(app.byName(QStringLiteral("saveButton")));
        QVERIFY(
            FrontDoor::waitFor([&] { return app.shell().accounts()->model()->rowCount() == 2; }));

        // From QR images in the home folder, through the picker.
        QVERIFY(watchword::test::qrImage(gitlabLink.toUtf8())
                    .save(QDir(app.home()).filePath(QStringLiteral("gitlab.png"))));
        QVERIFY(watchword::test::qrImage(githubLink.toUtf8())
                    .save(QDir(app.home()).filePath(QStringLiteral("github.png"))));
        for (const QString& image : {QStringLiteral("gitlab.png"), QStringLiteral("github.png")}) {
            app.key(Qt::Key_N, Qt::ControlModifier);
            QVERIFY(FrontDoor::waitFor(
                [&] { return app.byName(QStringLiteral("scanImageButton")) != nullptr; }));
            app.click(app.byName(QStringLiteral("scanImageButton")));
            QVERIFY(FrontDoor::waitFor([&] { return app.byText(image) != nullptr; }));
            app.click(app.byText(image));
            app.key(Qt::Key_Return);
            QVERIFY(FrontDoor::waitFor([&] {
                return !app.read(QStringLiteral("issuerField"), "text").toString().isEmpty();
            }));
            if (image == QStringLiteral("github.png")) {
                QVERIFY(FrontDoor::waitFor(
                    [&] { return app.byName(QStringLiteral("duplicateWarning")) != nullptr; }));
                app.key(Qt::Key_Escape);
            } else {
                QCOMPARE(app.byName(QStringLiteral("duplicateWarning")), nullptr);
                app.click(app.byName(QStringLiteral("saveButton")));
            }
            QVERIFY(FrontDoor::waitFor(
                [&] { return app.byName(QStringLiteral("issuerField")) == nullptr; }));
        }
        QCOMPARE(app.shell().accounts()->model()->rowCount(), 3);

        // F2 on the highlighted account: its own fields have the focus.
        app.key(Qt::Key_F, Qt::ControlModifier);
        app.key(Qt::Key_F2);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("issuerField")) != nullptr; }));
        QCOMPARE(app.focused() ? app.focused()->objectName() : QString(),
                 QStringLiteral("issuerField"));
        app.key(Qt::Key_Escape);
    }

    // --- The demo changes nothing of the user's: its order and its watch
    // live in a copy of the settings.
    void demoLeavesTheUserSettingsAlone()
    {
        QSettings().setValue(QStringLiteral("codes/order"), 2);
        QSettings().remove(QStringLiteral("watch/device"));
        QSettings().sync();
        m_app = std::make_unique<FrontDoor>();
        QVERIFY(m_app->start(true));
        FrontDoor& app = *m_app;
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.shell().vault()->state() == VaultController::State::Unlocked; }));
        // The copy starts from the user's settings: "Recently used".
        QVERIFY(
            FrontDoor::waitFor([&] { return app.byName(QStringLiteral("orderBox")) != nullptr; }));
        QCOMPARE(app.read(QStringLiteral("orderBox"), "currentIndex").toInt(), 2);
        QVERIFY(choose(app, QStringLiteral("orderBox"), QStringLiteral("By name")));
        app.key(Qt::Key_5, Qt::AltModifier);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("devicePicker")) != nullptr; }));
        QVERIFY(choose(app, QStringLiteral("devicePicker"), QStringLiteral("fenix 7")));
        m_app.reset();
        QSettings user;
        user.sync();
        QCOMPARE(user.value(QStringLiteral("codes/order")).toInt(), 2);
        QVERIFY(!user.contains(QStringLiteral("watch/device")));
    }

    // --- "Hide codes until clicked": the codes are dots; a click copies
    // the code and shows that row's.
    void hiddenCodesShowWhenClicked()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        QVERIFY(addByLink(app, githubLink));
        app.key(Qt::Key_3, Qt::AltModifier);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("hideCodesSwitch")) != nullptr; }));
        app.click(app.byName(QStringLiteral("hideCodesSwitch")));
        QVERIFY(app.shell().settings()->hideCodes());
        app.key(Qt::Key_1, Qt::AltModifier);
        QVERIFY(
            FrontDoor::waitFor([&] { return app.byName(QStringLiteral("codeLabel")) != nullptr; }));
        QCOMPARE(app.read(QStringLiteral("codeLabel"), "text").toString(),
                 QStringLiteral("\u2022\u2022\u2022 \u2022\u2022\u2022"));
        const std::optional<Copied> copied = copyWithinOnePeriod(
            [&] { app.click(app.textsContaining(QStringLiteral("GitHub")).constFirst()); },
            [&] {
                return app.read(QStringLiteral("codeLabel"), "text")
                    .toString()
                    .remove(QLatin1Char(' '));
            });
        QVERIFY(copied);
        QCOMPARE(copied->expected, copied->copied);
    }

    // --- The recovery key's fingerprint in Settings, and a phrase checked
    // against it with no password: another vault's phrase is told apart
    // (both fingerprints named), a mistyped one is not a phrase, the vault's
    // own is confirmed; nothing typed stays in the field.
    void recoveryPhraseCheckedInSettings()
    {
        using watchword::keychain::Keychain;
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        const QString phrase = watchword::e2e::sharedVault().phrase;
        const auto own = Keychain::restore(phrase.toStdString());
        const QString other = QStringLiteral("abandon abandon abandon abandon abandon abandon "
                                             "abandon abandon abandon abandon abandon about");
        const auto others = Keychain::restore(other.toStdString());
        QVERIFY(own && others);
        const QString fingerprint =
            QString::fromStdString(watchword::vault::recoveryKeyFingerprint(*own));
        const QString otherFingerprint =
            QString::fromStdString(watchword::vault::recoveryKeyFingerprint(*others));

        app.key(Qt::Key_3, Qt::AltModifier);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("recoveryFingerprintLabel")) != nullptr; }));
        QCOMPARE(app.read(QStringLiteral("recoveryFingerprintLabel"), "text").toString(),
                 QStringLiteral("Recovery key fingerprint: %1").arg(fingerprint));
        app.click(app.byName(QStringLiteral("checkPhraseButton")));
        QVERIFY(FrontDoor::waitFor([&] {
            const QQuickItem* field = app.byName(QStringLiteral("checkPhraseField"));
            return field != nullptr && field->hasActiveFocus();
        }));
        const auto answer = [&] {
            if (!FrontDoor::waitFor(
                    [&] { return app.byName(QStringLiteral("phraseCheckLabel")) != nullptr; }))
                return QString();
            return app.read(QStringLiteral("phraseCheckLabel"), "text").toString();
        };

        app.type(other);
        app.key(Qt::Key_Return);
        const QString mismatch = answer();
        QVERIFY2(mismatch.contains(QStringLiteral("does not open the vault")),
                 qPrintable(mismatch));
        QVERIFY2(mismatch.contains(otherFingerprint) && mismatch.contains(fingerprint),
                 qPrintable(mismatch));
        QCOMPARE(app.read(QStringLiteral("checkPhraseField"), "text").toString(), QString());

        QStringList words = phrase.split(QLatin1Char(' '));
        words.last() = QStringLiteral("zzzz");
        app.type(words.join(QLatin1Char(' ')));
        app.key(Qt::Key_Return);
        const QString notAPhrase = answer();
        QVERIFY2(notAPhrase.startsWith(QStringLiteral("This is not a recovery phrase")),
                 qPrintable(notAPhrase));

        app.type(phrase);
        // Typing again takes the last answer away.
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("phraseCheckLabel")) == nullptr; }));
        app.click(app.byName(QStringLiteral("checkPhraseConfirm")));
        QCOMPARE(answer(),
                 QStringLiteral("This phrase opens the vault (recovery key %1).").arg(fingerprint));
        app.key(Qt::Key_Escape);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("checkPhraseDialog")) == nullptr; }));
        QCOMPARE(app.shell().vault()->phrase()->phraseCheck(), QString());
    }

    // --- An import stopped while its file's key is derived: the dialog is
    // free at once, nothing is imported, and the same file read again is
    // imported. The file is an Aegis export with three costly password
    // slots (scrypt N = 2^17, about half a second each) before its own.
    void importStoppedWhileReadingThenReadAgain()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        QFile source(QStringLiteral(WATCHWORD_TEST_DATA_DIR "/import/aegis/aegis_encrypted.json"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        QJsonObject aegis = QJsonDocument::fromJson(source.readAll()).object();
        QJsonObject header = aegis.value(QStringLiteral("header")).toObject();
        const QJsonArray ownSlots = header.value(QStringLiteral("slots")).toArray();
        QCOMPARE(ownSlots.size(), 1);
        QJsonArray costlyFirst;
        for (int i = 0; i < 3; ++i) {
            QJsonObject costly = ownSlots.at(0).toObject();
            costly.insert(QStringLiteral("n"), 1 << 17);
            costly.insert(QStringLiteral("uuid"),
                          QStringLiteral("00000000-0000-4000-8000-00000000000%1").arg(i));
            costlyFirst.append(costly);
        }
        costlyFirst.append(ownSlots.at(0));
        header.insert(QStringLiteral("slots"), costlyFirst);
        aegis.insert(QStringLiteral("header"), header);
        QFile slow(QDir(app.home()).filePath(QStringLiteral("slow-aegis.json")));
        QVERIFY(slow.open(QIODevice::WriteOnly));
        QVERIFY(slow.write(QJsonDocument(aegis).toJson()) > 0);
        slow.close();

        QVERIFY(openImportPicker(app, QStringLiteral("slow-aegis.json")));
        app.click(app.byText(QStringLiteral("slow-aegis.json")));
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("passwordField")) != nullptr; }));
        app.click(app.byName(QStringLiteral("passwordField")));
        app.type(QStringLiteral("test"));
        app.click(app.byName(QStringLiteral("readButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("stopReadingButton")) != nullptr; }));
        app.click(app.byName(QStringLiteral("stopReadingButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("stopReadingButton")) == nullptr; }, 1000));
        QVERIFY(app.byName(QStringLiteral("previewSummary")) == nullptr);
        QCOMPARE(app.read(QStringLiteral("errorLabel"), "text").toString(),
                 QStringLiteral("Stopped reading the file."));
        // The stopped read's answer, when it comes, changes nothing.
        app.settle(2500);
        QVERIFY(app.byName(QStringLiteral("previewSummary")) == nullptr);
        QCOMPARE(app.read(QStringLiteral("errorLabel"), "text").toString(),
                 QStringLiteral("Stopped reading the file."));
        QCOMPARE(app.shell().accounts()->model()->rowCount(), 0);

        // The password was not kept: typed again, and the file read again.
        QCOMPARE(app.read(QStringLiteral("passwordField"), "text").toString(), QString());
        app.click(app.byName(QStringLiteral("passwordField")));
        app.type(QStringLiteral("test"));
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("previewSummary")) != nullptr; }, 30000));
        const QString summary = app.read(QStringLiteral("previewSummary"), "text").toString();
        const QRegularExpressionMatch counted =
            QRegularExpression(QStringLiteral("(\\d+) accounts")).match(summary);
        QVERIFY2(counted.hasMatch(), qPrintable(summary));
        const int found = counted.captured(1).toInt();
        QVERIFY(found > 0);
        app.click(app.byText(QStringLiteral("Add %1 accounts").arg(found)));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.shell().accounts()->model()->rowCount() == found; }, 30000));
    }

    // --- Resizing: the smallest window the app allows and a large one
    // draw without warnings (polish loops, binding loops).
    // --- Diagnostics: one benchmark chosen by a typed filter and run on the
    // quick profile, saved as a baseline and compared with it, and the
    // report exported as JSON through the picker.
    void diagnosticsRunComparedAndExported()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        app.key(Qt::Key_4, Qt::AltModifier);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("filterField")) != nullptr; }));
        app.click(app.byName(QStringLiteral("filterField")));
        app.type(QStringLiteral("^totp/sha1$"));
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor([&] {
            return app.read(QStringLiteral("chosenLabel"), "text")
                .toString()
                .startsWith(QStringLiteral("1 of "));
        }));
        const auto status = [&] {
            return app.read(QStringLiteral("statusLabel"), "text").toString();
        };
        app.click(app.byName(QStringLiteral("runButton")));
        QVERIFY2(
            FrontDoor::waitFor([&] { return status().startsWith(QStringLiteral("Done:")); }, 60000),
            qPrintable(status()));
        QCOMPARE(app.read(QStringLiteral("resultRow0"), "name").toString(),
                 QStringLiteral("totp/sha1"));
        QVERIFY(app.read(QStringLiteral("resultRow0"), "detail")
                    .toString()
                    .endsWith(QStringLiteral("sampling")));

        app.click(app.byName(QStringLiteral("saveBaselineButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("baselineNameField")) != nullptr; }));
        app.type(QStringLiteral("before"));
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor([&] {
            return app.read(QStringLiteral("baselineBox"), "currentText").toString() ==
                   QStringLiteral("before");
        }));
        app.click(app.byName(QStringLiteral("compareButton")));
        QVERIFY2(FrontDoor::waitFor(
                     [&] { return status().startsWith(QStringLiteral("Compared with before:")); },
                     30000),
                 qPrintable(status()));
        QVERIFY(app.byName(QStringLiteral("clearComparisonButton")) != nullptr);

        app.click(app.byName(QStringLiteral("exportJsonButton")));
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byName(QStringLiteral("pickerName")) != nullptr; }));
        QVERIFY(app.read(QStringLiteral("pickerName"), "text")
                    .toString()
                    .startsWith(QStringLiteral("watchword-bench-")));
        saveAs(app, QStringLiteral("~/report.json"));
        const QString path = QDir(app.home()).filePath(QStringLiteral("report.json"));
        QVERIFY(FrontDoor::waitFor([&] { return QFileInfo(path).size() > 0; }));
        QVERIFY(FrontDoor::waitFor(
            [&] { return status().startsWith(QStringLiteral("Saved the report to")); }));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject report = QJsonDocument::fromJson(file.readAll()).object();
        const QJsonArray benchmarks = report.value(QStringLiteral("benchmarks")).toArray();
        QCOMPARE(benchmarks.size(), 1);
        QCOMPARE(benchmarks.first().toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("totp/sha1"));
        QCOMPARE(report.value(QStringLiteral("baseline"))
                     .toObject()
                     .value(QStringLiteral("name"))
                     .toString(),
                 QStringLiteral("before"));
    }

    void resizeToMinimumAndLarge()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        QVERIFY(addByLink(app, mastodonLink));
        QQuickWindow* window = app.window();
        QVERIFY(window->minimumWidth() >= 480);
        QVERIFY(window->minimumHeight() >= 400);
        // Every page, at the smallest size and at a large one: nothing drawn
        // over anything else.
        for (const QSize size :
             {QSize(window->minimumWidth(), window->minimumHeight()), QSize(1600, 1000)}) {
            app.resize(size.width(), size.height());
            // The menu at the window's top right and the list's drop-downs
            // open inside the window.
            app.key(Qt::Key_1, Qt::AltModifier);
            for (const QString& opener :
                 {QStringLiteral("appMenuButton"), QStringLiteral("orderBox"),
                  QStringLiteral("menuButton")}) {
                QVERIFY2(app.byName(opener) != nullptr, qPrintable(opener));
                app.click(app.byName(opener));
                app.settle(300);
                const QStringList overlaps = app.overlaps();
                QVERIFY2(overlaps.isEmpty(), qPrintable(QStringLiteral("%1x%2, %3: %4")
                                                            .arg(size.width())
                                                            .arg(size.height())
                                                            .arg(opener)
                                                            .arg(overlaps.join(u"; "))));
                app.key(Qt::Key_Escape);
                app.settle(200);
            }
            for (const int page : {Qt::Key_1, Qt::Key_2, Qt::Key_3, Qt::Key_4, Qt::Key_5}) {
                app.key(page, Qt::AltModifier);
                app.settle(300);
                const QStringList overlaps = app.overlaps();
                QVERIFY2(overlaps.isEmpty(),
                         qPrintable(QStringLiteral("%1x%2, page %3: %4")
                                        .arg(size.width())
                                        .arg(size.height())
                                        .arg(page - Qt::Key_0)
                                        .arg(overlaps.join(QStringLiteral("; ")))));
            }
        }
        QCOMPARE(window->width(), 1600);
        app.resize(window->minimumWidth(), window->minimumHeight());
    }
};

QTEST_MAIN(TestFrontDoor)
#include "TestFrontDoor.moc"
