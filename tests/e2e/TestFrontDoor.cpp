// The app through its front door: the real window, driven by keys and
// clicks only, on a temporary vault and settings; any warning fails.
#include "AccountListModel.h"
#include "AppSettings.h"
#include "ClipboardService.h"
#include "FrontDoor.h"
#include "VaultController.h"

#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QQuickItem>
#include <QQuickStyle>
#include <QQuickWindow>
#include <QRegularExpression>
#include <QtTest>

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

} // namespace

class TestFrontDoor : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<watchword::e2e::WarningTrap> m_trap;
    std::unique_ptr<FrontDoor> m_app;

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

    // Ctrl+N, the link typed into the link field and Enter (the form fills
    // in), then Save.
    bool addByLink(FrontDoor& app, const QString& link)
    {
        const int before = app.shell().vault()->accounts()->rowCount();
        app.key(Qt::Key_N, Qt::ControlModifier);
        if (!FrontDoor::waitFor([&] { return app.byName(QStringLiteral("uriField")) != nullptr; }))
            return false;
        app.click(app.byName(QStringLiteral("uriField")));
        app.type(link);
        app.key(Qt::Key_Return);
        app.click(app.byName(QStringLiteral("saveButton")));
        return FrontDoor::waitFor(
            [&] { return app.shell().vault()->accounts()->rowCount() == before + 1; });
    }

private slots:
    void initTestCase()
    {
        QQuickStyle::setStyle(QStringLiteral("Basic"));
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(!watchword::e2e::sharedVault().phrase.isEmpty());
        m_trap = std::make_unique<watchword::e2e::WarningTrap>();
    }

    void cleanup()
    {
        m_app.reset();
        const QStringList warnings = watchword::e2e::WarningTrap::take();
        if (!warnings.isEmpty())
            QFAIL(qPrintable(QStringLiteral("warnings printed:\n") +
                             warnings.join(QLatin1Char('\n'))));
    }

    void cleanupTestCase() { m_trap.reset(); }

    // --- First run: a new vault made through the window.
    void createVault()
    {
        FrontDoor& app = open(false);
        QCOMPARE(app.shell().vault()->state(), VaultController::State::Missing);
        QVERIFY(app.showsText(QStringLiteral("Create your vault")));
        const QString password = QStringLiteral("lantern orbit velvet canyon");
        app.type(password);
        app.key(Qt::Key_Return);
        app.type(password);
        app.key(Qt::Key_Return);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.byText(QStringLiteral("I have written them down")) != nullptr; },
            30000));
        const QStringList words = app.shell().vault()->recoveryWords();
        QCOMPARE(words.size(), 24);
        app.click(app.byText(QStringLiteral("I have written them down")));
        for (const int position : app.shell().vault()->confirmPositions()) {
            app.type(words.at(position - 1));
            app.key(Qt::Key_Return);
        }
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.shell().vault()->state() == VaultController::State::Unlocked; },
            30000));
        QVERIFY(QFile::exists(app.vaultPath()));
        QVERIFY(app.showsText(QStringLiteral("No accounts yet")));
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

    // --- Locking by Ctrl+L, then unlocking by typing at once (the password
    // field has the focus); a wrong password says so and keeps the vault
    // locked.
    void lockAndUnlockByKeyboard()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        app.key(Qt::Key_L, Qt::ControlModifier);
        QVERIFY(FrontDoor::waitFor(
            [&] { return app.shell().vault()->state() == VaultController::State::Locked; }));
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

    // --- Resizing: the smallest window the app allows and a large one
    // draw without warnings (polish loops, binding loops).
    void resizeToMinimumAndLarge()
    {
        FrontDoor& app = open();
        QVERIFY(unlock(app));
        QVERIFY(addByLink(app, mastodonLink));
        QQuickWindow* window = app.window();
        QVERIFY(window->minimumWidth() >= 480);
        QVERIFY(window->minimumHeight() >= 400);
        app.resize(window->minimumWidth(), window->minimumHeight());
        app.resize(1600, 1000);
        QCOMPARE(window->width(), 1600);
        app.resize(window->minimumWidth(), window->minimumHeight());
    }
};

QTEST_MAIN(TestFrontDoor)
#include "TestFrontDoor.moc"
