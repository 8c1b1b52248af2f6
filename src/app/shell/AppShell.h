#pragma once

// The whole app as one object: the services, the vault controller, the QML
// engine and its window, wired as the product runs them. main() makes one
// from the command line; the end-to-end tests make one on a temporary vault
// and settings and drive its window with keys and clicks.

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <memory>

class QQmlApplicationEngine;
class QQuickWindow;
class QTemporaryDir;

namespace watchword::app {

class AccountStore;
class AppMetrics;
class AppSettings;
class BackupFolder;
class ClipboardService;
class Clock;
class IdleLock;
class LaunchTiming;
class Navigator;
class NoteStore;
class ContactBook;
class SelfTestModel;
class Theme;
class TrayIcon;
class VaultController;

struct ShellOptions
{
    // The vault file; ignored for the demo.
    QString vaultPath;
    // A throw-away in-memory vault of sample accounts, never saved.
    bool demo = false;
    // The preferences file (INI); empty: the user's own. The demo never
    // writes the user's: it starts from a copy of them.
    QString settingsFile;
    // The tray icon, where the desktop has a tray.
    bool tray = true;
    // The session bus: auto-lock on session lock and suspend, the desktop's
    // colour scheme.
    bool desktopBus = true;
    // --timing: what the launch and each second cost (not owned; may be null).
    LaunchTiming* timing = nullptr;
};

class AppShell : public QObject
{
    Q_OBJECT

public:
    AppShell(ShellOptions options, const QElapsedTimer& sinceMain, QObject* parent = nullptr);
    ~AppShell() override;

    // Before any window: Qt Quick's software renderer where OpenGL could
    // only be a software rasterizer (no GPU render node to open, or
    // LIBGL_ALWAYS_SOFTWARE): llvmpipe starts slower and takes more memory
    // than Qt's own software scene graph for the same frames. A renderer
    // chosen in the environment (QT_QUICK_BACKEND, QSG_RHI_BACKEND) wins.
    // True if it chose the software renderer.
    static bool chooseRenderer();
    // Whether this machine has a GPU render node this process may open.
    static bool hasGpuRenderNode();

    // Loads Main.qml: false (with the engine's own messages printed) if the
    // window could not be made.
    [[nodiscard]] bool load();

    QQuickWindow* window() const { return m_window; }
    Navigator* navigator() const { return m_navigator.get(); }
    VaultController* vault() const { return m_vault.get(); }
    AccountStore* accounts() const { return m_accounts.get(); }
    NoteStore* notes() const { return m_notes.get(); }
    ContactBook* contacts() const { return m_contacts.get(); }
    AppSettings* settings() const { return m_settings.get(); }
    ClipboardService* clipboard() const { return m_clipboard.get(); }
    Clock* clock() const { return m_clock.get(); }
    AppMetrics* metrics() const { return m_metrics.get(); }

    // A link to add: the add dialog opens on it once the vault is unlocked.
    void openAddDialog(const QString& uri);
    // Shows the window wherever it is (a later launch, the tray's Show).
    void raiseWindow();

private:
    ShellOptions m_options;
    std::unique_ptr<QTemporaryDir> m_demoSettingsDir;
    std::unique_ptr<SelfTestModel> m_selfTest;
    std::unique_ptr<AppMetrics> m_metrics;
    std::unique_ptr<AppSettings> m_settings;
    std::unique_ptr<Clock> m_clock;
    std::unique_ptr<ClipboardService> m_clipboard;
    std::unique_ptr<VaultController> m_vault;
    std::unique_ptr<AccountStore> m_accounts;
    std::unique_ptr<NoteStore> m_notes;
    std::unique_ptr<ContactBook> m_contacts;
    std::unique_ptr<Navigator> m_navigator;
    std::unique_ptr<IdleLock> m_idleLock;
    std::unique_ptr<BackupFolder> m_backups;
    std::unique_ptr<Theme> m_theme;
    std::unique_ptr<QQmlApplicationEngine> m_engine;
    std::unique_ptr<TrayIcon> m_tray;
    QQuickWindow* m_window = nullptr;
};

} // namespace watchword::app
