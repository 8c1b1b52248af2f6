#include "app/desktop/TrayIcon.h"

#include <QAction>
#include <algorithm>

namespace watchword::app {

namespace {

// The row's value of the role called name, or an invalid QVariant when the
// model has no such role.
QVariant roleValue(const QAbstractItemModel& model, const QModelIndex& index, int role)
{
    return role < 0 ? QVariant() : model.data(index, role);
}

// A menu entry's text: "&" would otherwise underline the next letter.
QString menuText(const TrayIcon::RecentAccount& account)
{
    QString text;
    if (account.issuer.isEmpty())
        text = account.accountName;
    else if (account.accountName.isEmpty())
        text = account.issuer;
    else
        text = TrayIcon::tr("%1 (%2)").arg(account.issuer, account.accountName);
    return text.replace(QLatin1Char('&'), QStringLiteral("&&"));
}

} // namespace

std::unique_ptr<TrayIcon> TrayIcon::create(const QIcon& icon, QObject* parent)
{
    if (!QSystemTrayIcon::isSystemTrayAvailable())
        return nullptr;
    auto tray = std::make_unique<TrayIcon>(icon, parent);
    tray->show();
    return tray;
}

TrayIcon::TrayIcon(const QIcon& icon, QObject* parent) : QObject(parent)
{
    QAction* show = m_menu.addAction(tr("&Show Watchword"));
    connect(show, &QAction::triggered, this, &TrayIcon::showRequested);
    m_lockAction = m_menu.addAction(tr("&Lock"));
    m_lockAction->setEnabled(false);
    connect(m_lockAction, &QAction::triggered, this, &TrayIcon::lockRequested);
    m_copyMenu = m_menu.addMenu(tr("&Copy code"));
    m_menu.addSeparator();
    QAction* quit = m_menu.addAction(tr("&Quit"));
    connect(quit, &QAction::triggered, this, &TrayIcon::quitRequested);

    // Built when shown, so it lists the accounts as they are then. Some
    // trays (the D-Bus ones) announce only the submenu they open.
    connect(&m_menu, &QMenu::aboutToShow, this, &TrayIcon::rebuildCopyMenu);
    connect(m_copyMenu, &QMenu::aboutToShow, this, &TrayIcon::rebuildCopyMenu);
    rebuildCopyMenu();

    m_tray.setIcon(icon);
    m_tray.setToolTip(tr("Watchword"));
    m_tray.setContextMenu(&m_menu);
    connect(&m_tray, &QSystemTrayIcon::activated, this,
            [this](QSystemTrayIcon::ActivationReason reason) {
                if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick)
                    emit showRequested();
            });
}

TrayIcon::~TrayIcon() = default;

void TrayIcon::setUnlocked(bool unlocked)
{
    m_unlocked = unlocked;
    m_lockAction->setEnabled(unlocked);
}

QList<TrayIcon::RecentAccount> TrayIcon::recentAccounts(const QAbstractItemModel* model, int limit)
{
    QList<RecentAccount> accounts;
    if (model == nullptr || limit <= 0)
        return accounts;
    const QHash<int, QByteArray> names = model->roleNames();
    const auto role = [&names](const char* name) {
        return names.key(QByteArray(name), -1);
    };
    const int idRole = role("recordId");
    const int issuerRole = role("issuer");
    const int accountNameRole = role("accountName");
    const int lastUsedRole = role("lastUsed");
    if (idRole < 0)
        return accounts;

    const int rows = model->rowCount();
    accounts.reserve(rows);
    for (int row = 0; row < rows; ++row) {
        const QModelIndex index = model->index(row, 0);
        RecentAccount account;
        account.recordId = roleValue(*model, index, idRole).toString();
        if (account.recordId.isEmpty())
            continue;
        account.issuer = roleValue(*model, index, issuerRole).toString();
        account.accountName = roleValue(*model, index, accountNameRole).toString();
        account.lastUsed = roleValue(*model, index, lastUsedRole).toLongLong();
        accounts.append(std::move(account));
    }
    const auto before = [](const RecentAccount& a, const RecentAccount& b) {
        if (a.lastUsed != b.lastUsed)
            return a.lastUsed > b.lastUsed;
        if (const int c = a.issuer.compare(b.issuer, Qt::CaseInsensitive); c != 0)
            return c < 0;
        return a.accountName.compare(b.accountName, Qt::CaseInsensitive) < 0;
    };
    const qsizetype kept = std::min<qsizetype>(limit, accounts.size());
    std::partial_sort(accounts.begin(), accounts.begin() + kept, accounts.end(), before);
    accounts.resize(kept);
    return accounts;
}

void TrayIcon::rebuildCopyMenu()
{
    m_copyMenu->clear();
    const QList<RecentAccount> accounts =
        m_unlocked ? recentAccounts(m_model.data()) : QList<RecentAccount>();
    for (const RecentAccount& account : accounts) {
        QAction* action = m_copyMenu->addAction(menuText(account));
        connect(action, &QAction::triggered, this,
                [this, id = account.recordId] { emit copyRequested(id); });
    }
    if (accounts.isEmpty()) {
        // Says why there is nothing to pick rather than a bare, greyed menu.
        QAction* none =
            m_copyMenu->addAction(m_unlocked ? tr("No accounts") : tr("Unlock the vault first"));
        none->setEnabled(false);
    }
}

} // namespace watchword::app
