// The app in the system tray: show the window, lock, copy a code of a
// recently used account, quit.
//
// The tray only asks: every action is a signal that main() connects to the
// window and the vault controller, so the menu never holds a code or a
// secret. The "Copy code" submenu is built each time the menu is about to
// show, from any model with the roles "recordId", "issuer", "accountName"
// and "lastUsed" (Unix seconds of the last copy, 0 or missing: never), so it
// is current without following every change of the model.
//
// create() makes one only where the desktop has a tray; elsewhere (the
// offscreen platform, a bare window manager) there is none and the app
// quits when its window closes.
#pragma once

#include <QAbstractItemModel>
#include <QIcon>
#include <QList>
#include <QMenu>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QSystemTrayIcon>
#include <memory>

class QAction;

namespace watchword::app {

class TrayIcon : public QObject
{
    Q_OBJECT

public:
    // The submenu lists at most this many accounts: the ones used last.
    static constexpr int maxRecentAccounts = 8;

    struct RecentAccount
    {
        QString recordId;
        QString issuer;
        QString accountName;
        qint64 lastUsed = 0;
    };

    // A tray icon, shown, if the desktop has a tray; otherwise null.
    [[nodiscard]] static std::unique_ptr<TrayIcon> create(const QIcon& icon,
                                                          QObject* parent = nullptr);

    // Not shown until show(): tests build one anywhere.
    explicit TrayIcon(const QIcon& icon, QObject* parent = nullptr);
    ~TrayIcon() override;

    void show() { m_tray.show(); }

    // The accounts the "Copy code" submenu offers (not owned; may be null).
    void setModel(QAbstractItemModel* model) { m_model = model; }
    // Lock is offered only while the vault is unlocked.
    void setUnlocked(bool unlocked);

    // The up to limit accounts used last, most recent first; never-used ones
    // (and ties) by issuer, then account name.
    [[nodiscard]] static QList<RecentAccount> recentAccounts(const QAbstractItemModel* model,
                                                             int limit = maxRecentAccounts);

    QMenu* menu() { return &m_menu; }
    QMenu* copyMenu() { return m_copyMenu; }

signals:
    void showRequested();
    void lockRequested();
    void copyRequested(const QString& recordId);
    void quitRequested();

private:
    void rebuildCopyMenu();

    // The menu outlives the tray icon that shows it.
    QMenu m_menu;
    QSystemTrayIcon m_tray;
    QMenu* m_copyMenu = nullptr;
    QAction* m_lockAction = nullptr;
    bool m_unlocked = false;
    QPointer<QAbstractItemModel> m_model;
};

} // namespace watchword::app
