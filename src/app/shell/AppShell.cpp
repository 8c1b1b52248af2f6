#include "app/shell/AppShell.h"

#include "app/codes/AccountStore.h"
#include "app/codes/Clock.h"
#include "app/desktop/AppSettings.h"
#include "app/desktop/ClipboardService.h"
#include "app/desktop/IdleLock.h"
#include "app/desktop/Theme.h"
#include "app/desktop/TrayIcon.h"
#include "app/diagnostics/AppMetrics.h"
#include "app/diagnostics/SelfTestModel.h"
#include "app/notes/NoteStore.h"
#include "app/sharing/ContactBook.h"
#include "app/shell/LaunchTiming.h"
#include "app/shell/Navigator.h"
#include "app/vault/BackupFolder.h"
#include "app/vault/VaultController.h"
#include "selftest/SelfTest.h"

#include <QApplication>
#include <QDBusConnection>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QQmlApplicationEngine>
#include <QQuickWindow>
#include <QSettings>
#include <QTemporaryDir>
#include <QtQml/qqmlextensionplugin.h>
#include <unistd.h>

Q_IMPORT_QML_PLUGIN(Watchword_AppPlugin)
Q_IMPORT_QML_PLUGIN(Watchword_UiPlugin)

namespace watchword::app {

namespace {

// The demo's preferences: a copy of the user's (their theme and clipboard
// time apply), in a folder that goes with the demo, so that nothing the demo
// changes (its order, its watch) reaches the real ones.
QString demoSettingsFile(QTemporaryDir& folder)
{
    const QString path = folder.filePath(QStringLiteral("demo.conf"));
    const QSettings user;
    QSettings copy(path, QSettings::IniFormat);
    for (const QString& key : user.allKeys())
        copy.setValue(key, user.value(key));
    copy.sync();
    return path;
}

} // namespace

AppShell::AppShell(ShellOptions options, const QElapsedTimer& sinceMain, QObject* parent)
    : QObject(parent), m_options(std::move(options))
{
    // Known-answer tests first: if one fails, crypto stays disabled and the
    // window says which one.
    m_selfTest = std::make_unique<SelfTestModel>(selftest::run());
    SelfTestModel::setInstance(m_selfTest.get());
    // The app's own targets, measured live for the Diagnostics view.
    m_metrics = std::make_unique<AppMetrics>(sinceMain);
    AppMetrics::setInstance(m_metrics.get());

    QString settingsFile = m_options.settingsFile;
    if (settingsFile.isEmpty() && m_options.demo) {
        m_demoSettingsDir = std::make_unique<QTemporaryDir>();
        if (m_demoSettingsDir->isValid())
            settingsFile = demoSettingsFile(*m_demoSettingsDir);
    }
    // The user's preferences (no secret is ever stored there).
    m_settings = settingsFile.isEmpty() ? std::make_unique<AppSettings>()
                                        : std::make_unique<AppSettings>(settingsFile);

    m_clock = std::make_unique<Clock>();
    // The seconds' receivers run in the order they were connected: the
    // stopwatches go first and last.
    if (m_options.timing != nullptr)
        m_options.timing->beginTicks(m_clock.get());
    m_metrics->beginTicks(m_clock.get());
    m_clock->start();
    m_clipboard = std::make_unique<ClipboardService>();
    m_clipboard->setClearSeconds(m_settings->clipboardSeconds());
    connect(m_settings.get(), &AppSettings::clipboardSecondsChanged, m_clipboard.get(),
            [this] { m_clipboard->setClearSeconds(m_settings->clipboardSeconds()); });
    m_vault = m_options.demo ? VaultController::makeDemo()
                             : std::make_unique<VaultController>(m_options.vaultPath);
    m_accounts = std::make_unique<AccountStore>(*m_vault, *m_clock, *m_clipboard);
    m_notes = std::make_unique<NoteStore>(*m_vault);
    m_contacts = std::make_unique<ContactBook>(*m_vault);
    m_vault->setUnlockTargetMilliseconds(m_settings->unlockTargetMilliseconds());
    m_navigator = std::make_unique<Navigator>(m_vault.get());
    connect(m_settings.get(), &AppSettings::unlockTargetMillisecondsChanged, m_vault.get(), [this] {
        m_vault->setUnlockTargetMilliseconds(m_settings->unlockTargetMilliseconds());
    });

    // Auto-lock: idle time, and the session locking or the machine suspending.
    m_idleLock = std::make_unique<IdleLock>();
    m_idleLock->setIdleMinutes(m_settings->autoLockMinutes());
    m_idleLock->setLockOnSessionLock(m_settings->lockOnSessionLock());
    connect(m_settings.get(), &AppSettings::autoLockMinutesChanged, m_idleLock.get(),
            [this] { m_idleLock->setIdleMinutes(m_settings->autoLockMinutes()); });
    connect(m_settings.get(), &AppSettings::lockOnSessionLockChanged, m_idleLock.get(),
            [this] { m_idleLock->setLockOnSessionLock(m_settings->lockOnSessionLock()); });
    connect(m_idleLock.get(), &IdleLock::lockRequested, m_vault.get(), &VaultController::lock);
    if (m_options.desktopBus)
        m_idleLock->watchDesktop();

    // A copy of the encrypted file in the backup folder after each save.
    m_backups = std::make_unique<BackupFolder>();
    m_backups->setFolder(m_settings->backupFolder());
    connect(m_settings.get(), &AppSettings::backupFolderChanged, m_backups.get(),
            [this] { m_backups->setFolder(m_settings->backupFolder()); });
    connect(m_vault.get(), &VaultController::saved, m_backups.get(), &BackupFolder::backUp);

    m_theme = std::make_unique<Theme>(m_settings.get());
    if (m_options.desktopBus)
        m_theme->watchPortal(QDBusConnection::sessionBus());
}

AppShell::~AppShell()
{
    // The window and everything QML holds go before the objects they show.
    m_tray.reset();
    m_engine.reset();
    AppMetrics::setInstance(nullptr);
    SelfTestModel::setInstance(nullptr);
}

bool AppShell::hasGpuRenderNode()
{
    const QDir dri(QStringLiteral("/dev/dri"));
    const QStringList nodes =
        dri.entryList({QStringLiteral("renderD*")}, QDir::System | QDir::Files | QDir::Readable);
    for (const QString& node : nodes) {
        if (::access(QFile::encodeName(dri.filePath(node)).constData(), R_OK | W_OK) == 0)
            return true;
    }
    return false;
}

bool AppShell::chooseRenderer()
{
    if (!qEnvironmentVariableIsEmpty("QT_QUICK_BACKEND") ||
        !qEnvironmentVariableIsEmpty("QSG_RHI_BACKEND"))
        return false;
    if (hasGpuRenderNode() && qEnvironmentVariableIntValue("LIBGL_ALWAYS_SOFTWARE") == 0)
        return false;
    QQuickWindow::setGraphicsApi(QSGRendererInterface::Software);
    return true;
}

bool AppShell::load()
{
    m_engine = std::make_unique<QQmlApplicationEngine>();
    m_engine->setInitialProperties(
        {{QStringLiteral("vault"), QVariant::fromValue(m_vault.get())},
         {QStringLiteral("accounts"), QVariant::fromValue(m_accounts.get())},
         {QStringLiteral("notes"), QVariant::fromValue(m_notes.get())},
         {QStringLiteral("contacts"), QVariant::fromValue(m_contacts.get())},
         {QStringLiteral("clock"), QVariant::fromValue(m_clock.get())},
         {QStringLiteral("clipboard"), QVariant::fromValue(m_clipboard.get())},
         {QStringLiteral("settings"), QVariant::fromValue(m_settings.get())},
         {QStringLiteral("theme"), QVariant::fromValue(m_theme.get())},
         {QStringLiteral("backups"), QVariant::fromValue(m_backups.get())},
         {QStringLiteral("navigator"), QVariant::fromValue(m_navigator.get())}});
    // The static QML modules (Watchword.App, Watchword.Ui) live under qrc:/<URI path>.
    m_engine->addImportPath(QStringLiteral("qrc:/"));
    m_engine->load(QUrl(QStringLiteral("qrc:/Watchword/Ui/Main.qml")));
    if (m_engine->rootObjects().isEmpty())
        return false;
    m_window = qobject_cast<QQuickWindow*>(m_engine->rootObjects().constFirst());
    if (m_window == nullptr)
        return false;

    if (m_options.tray) {
        const QIcon icon = QGuiApplication::windowIcon();
        m_tray = TrayIcon::create(icon);
    }
    if (m_tray) {
        VaultController* controller = m_vault.get();
        m_tray->setModel(m_accounts->model());
        const auto followState = [icon = m_tray.get(), controller] {
            icon->setUnlocked(controller->state() == VaultController::State::Unlocked);
        };
        followState();
        connect(controller, &VaultController::stateChanged, m_tray.get(), followState);
        connect(m_tray.get(), &TrayIcon::showRequested, this, &AppShell::raiseWindow);
        connect(m_tray.get(), &TrayIcon::lockRequested, controller, &VaultController::lock);
        connect(m_tray.get(), &TrayIcon::copyRequested, m_accounts.get(), &AccountStore::copyCode);
        connect(m_tray.get(), &TrayIcon::quitRequested, qApp, &QCoreApplication::quit);
        // Closing the window leaves the app in the tray; without a tray,
        // closing it quits.
        QApplication::setQuitOnLastWindowClosed(false);
    }
    m_metrics->watch(m_window, m_vault.get(), m_accounts->model());
    m_metrics->endTicks(m_clock.get());
    if (m_options.timing != nullptr) {
        m_options.timing->watch(m_window, m_vault.get(), m_accounts->model());
        m_options.timing->endTicks(m_clock.get());
    }
    return true;
}

void AppShell::openAddDialog(const QString& uri)
{
    m_navigator->openAddDialog(uri);
}

void AppShell::raiseWindow()
{
    m_navigator->raiseWindow();
}

} // namespace watchword::app
