// TrayIcon: the menu it builds from a model and the signals its actions
// send. The icon is never shown (the tests run offscreen, without a tray).
#include "app/desktop/TrayIcon.h"

#include <QAction>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QtTest>

using watchword::app::TrayIcon;

namespace {

enum Role { IdRole = Qt::UserRole + 1, IssuerRole, AccountNameRole, LastUsedRole };

struct Account
{
    const char* id;
    const char* issuer;
    const char* accountName;
    qint64 lastUsed;
};

void fill(QStandardItemModel& model, const QList<Account>& accounts, bool withLastUsed = true)
{
    QHash<int, QByteArray> names = {
        {IdRole, "recordId"}, {IssuerRole, "issuer"}, {AccountNameRole, "accountName"}};
    if (withLastUsed)
        names.insert(LastUsedRole, "lastUsed");
    model.setItemRoleNames(names);
    for (const Account& account : accounts) {
        auto* item = new QStandardItem;
        item->setData(QString::fromUtf8(account.id), IdRole);
        item->setData(QString::fromUtf8(account.issuer), IssuerRole);
        item->setData(QString::fromUtf8(account.accountName), AccountNameRole);
        if (withLastUsed)
            item->setData(account.lastUsed, LastUsedRole);
        model.appendRow(item);
    }
}

QStringList ids(const QList<TrayIcon::RecentAccount>& accounts)
{
    QStringList result;
    for (const auto& account : accounts)
        result << account.recordId;
    return result;
}

QStringList texts(const QMenu* menu)
{
    QStringList result;
    for (const QAction* action : menu->actions())
        result << action->text();
    return result;
}

const QList<Account> tenAccounts = {
    {"a1", "Zeta", "z", 0},           {"a2", "alpha", "a", 0},
    {"a3", "Beta", "b", 1700000300},  {"a4", "Gamma", "g", 1700000100},
    {"a5", "Delta", "d", 1700000200}, {"a6", "Eta", "e", 0},
    {"a7", "Beta", "a", 1700000300},  {"a8", "Iota", "i", 0},
    {"a9", "Kappa", "k", 0},          {"a10", "Lambda", "l", 0},
};

} // namespace

class TestTrayIcon : public QObject
{
    Q_OBJECT

private slots:
    void recentFirstThenByIssuer()
    {
        QStandardItemModel model;
        fill(model, tenAccounts);
        // Most recent first (ties by issuer, then account name), the never
        // used by issuer; eight at most.
        QCOMPARE(ids(TrayIcon::recentAccounts(&model)),
                 QStringList({"a7", "a3", "a5", "a4", "a2", "a6", "a8", "a9"}));
        QCOMPARE(ids(TrayIcon::recentAccounts(&model, 2)), QStringList({"a7", "a3"}));
        QVERIFY(TrayIcon::recentAccounts(nullptr).isEmpty());
    }

    void withoutLastUsedByIssuer()
    {
        QStandardItemModel model;
        fill(model, tenAccounts, false);
        QCOMPARE(ids(TrayIcon::recentAccounts(&model)),
                 QStringList({"a2", "a7", "a3", "a5", "a6", "a4", "a8", "a9"}));
    }

    void menuOffersCodesOnlyWhenUnlocked()
    {
        QStandardItemModel model;
        fill(model, {{"x1", "AT&T", "bob", 5}, {"x2", "", "carol", 0}, {"x3", "Solo", "", 0}});
        TrayIcon tray{QIcon()};
        tray.setModel(&model);
        QSignalSpy copies(&tray, &TrayIcon::copyRequested);

        emit tray.menu()->aboutToShow();
        QCOMPARE(tray.copyMenu()->actions().size(), 1);
        QVERIFY(!tray.copyMenu()->actions().constFirst()->isEnabled());

        tray.setUnlocked(true);
        emit tray.menu()->aboutToShow();
        QCOMPARE(texts(tray.copyMenu()), QStringList({"AT&&T (bob)", "carol", "Solo"}));
        tray.copyMenu()->actions().at(1)->trigger();
        QCOMPARE(copies.count(), 1);
        QCOMPARE(copies.constFirst().constFirst().toString(), QStringLiteral("x2"));

        // Built again each time: a row gone is gone from the menu.
        model.removeRow(0);
        emit tray.copyMenu()->aboutToShow();
        QCOMPARE(texts(tray.copyMenu()), QStringList({"carol", "Solo"}));

        model.clear();
        emit tray.menu()->aboutToShow();
        QCOMPARE(tray.copyMenu()->actions().size(), 1);
        QVERIFY(!tray.copyMenu()->actions().constFirst()->isEnabled());
    }

    void actionsAsk()
    {
        TrayIcon tray{QIcon()};
        QSignalSpy shown(&tray, &TrayIcon::showRequested);
        QSignalSpy locked(&tray, &TrayIcon::lockRequested);
        QSignalSpy quits(&tray, &TrayIcon::quitRequested);
        QAction* lock = nullptr;
        for (QAction* action : tray.menu()->actions()) {
            if (action->text() == QStringLiteral("&Show Watchword"))
                action->trigger();
            else if (action->text() == QStringLiteral("&Quit"))
                action->trigger();
            else if (action->text() == QStringLiteral("&Lock"))
                lock = action;
        }
        QCOMPARE(shown.count(), 1);
        QCOMPARE(quits.count(), 1);
        QVERIFY(lock != nullptr);
        QVERIFY(!lock->isEnabled());
        tray.setUnlocked(true);
        QVERIFY(lock->isEnabled());
        lock->trigger();
        QCOMPARE(locked.count(), 1);
        tray.setUnlocked(false);
        QVERIFY(!lock->isEnabled());
    }

    void noTrayOffscreen()
    {
        // The tests' platform has no tray: nothing is made, nothing warns.
        QVERIFY(!TrayIcon::create(QIcon()));
    }
};

QTEST_MAIN(TestTrayIcon)
#include "TestTrayIcon.moc"
