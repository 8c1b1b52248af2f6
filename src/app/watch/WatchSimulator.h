// The watch-simulator pane as one object: what the app gives it (the vault,
// its accounts list, the clock, the settings), its four parts and the last
// error any of them met. The parts, each with one job, are made here and
// reached from QML through it:
//
// - profiles (WatchProfiles): the device profiles, the chosen watch and the
//   times measured on a real watch;
// - costs (WatchCosts): what the chosen watch would take for each operation,
//   the unlock and the memory, at the unlock target;
// - exportFile (WatchExportFile): the export the simulated watch loads, made
//   from the vault's accounts or opened from a file, and saved;
// - watch (SimulatedWatch): the watch app running on it, driven by buttons,
//   touch and keys.
//
// The parts ask this object for the inputs and follow their changes; each
// reports its errors here, so the page shows one: the last.
#pragma once

#include "app/codes/AccountListModel.h"
#include "app/codes/Clock.h"
#include "app/desktop/AppSettings.h"
#include "app/vault/VaultController.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace watchword::app {

class SimulatedWatch;
class WatchCosts;
class WatchExportFile;
class WatchProfiles;

class WatchSimulator : public QObject
{
    Q_OBJECT
    Q_MOC_INCLUDE("app/watch/SimulatedWatch.h")
    Q_MOC_INCLUDE("app/watch/WatchCosts.h")
    Q_MOC_INCLUDE("app/watch/WatchExportFile.h")
    Q_MOC_INCLUDE("app/watch/WatchProfiles.h")
    QML_ELEMENT
    // Set by the page; the export reads the vault's accounts, chosen from
    // the accounts list; the codes tick with the clock.
    Q_PROPERTY(watchword::app::VaultController* vault READ vault WRITE setVault NOTIFY vaultChanged)
    Q_PROPERTY(watchword::app::AccountListModel* accounts READ accounts WRITE setAccounts NOTIFY
                   accountsChanged)
    Q_PROPERTY(watchword::app::Clock* clock READ clock WRITE setClock NOTIFY clockChanged)
    // Where the device chosen and the times measured on a real watch are
    // kept; without it (tests) they last as long as the simulator.
    Q_PROPERTY(watchword::app::AppSettings* settings READ settings WRITE setSettings NOTIFY
                   settingsChanged)
    Q_PROPERTY(watchword::app::WatchProfiles* profiles READ profiles CONSTANT)
    Q_PROPERTY(watchword::app::WatchCosts* costs READ costs CONSTANT)
    Q_PROPERTY(watchword::app::WatchExportFile* exportFile READ exportFile CONSTANT)
    Q_PROPERTY(watchword::app::SimulatedWatch* watch READ watch CONSTANT)
    // The last error (bad PIN format, a file that could not be read or
    // written, a payload that is not an export); "" if none.
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)

public:
    explicit WatchSimulator(QObject* parent = nullptr);

    VaultController* vault() const { return m_vault; }
    void setVault(VaultController* vault);
    AccountListModel* accounts() const { return m_accounts; }
    void setAccounts(AccountListModel* accounts);
    Clock* clock() const { return m_clock; }
    void setClock(Clock* clock);
    AppSettings* settings() const { return m_settings; }
    void setSettings(AppSettings* settings);

    WatchProfiles* profiles() const { return m_profiles; }
    WatchCosts* costs() const { return m_costs; }
    WatchExportFile* exportFile() const { return m_exportFile; }
    SimulatedWatch* watch() const { return m_watch; }

    const QString& error() const { return m_error; }
    // For the parts: an input they took failed (or, cleared, succeeded).
    void setError(QString error);
    Q_INVOKABLE void clearError();

    // The clock's second, or the system's without a clock.
    qint64 nowSeconds() const;

signals:
    void vaultChanged();
    void accountsChanged();
    void clockChanged();
    void settingsChanged();
    void errorChanged();

private:
    QPointer<VaultController> m_vault;
    QPointer<AccountListModel> m_accounts;
    QPointer<Clock> m_clock;
    QPointer<AppSettings> m_settings;
    QString m_error;
    // Children of this object, made in this order: each part follows the
    // signals of the ones before it.
    WatchProfiles* m_profiles = nullptr;
    WatchExportFile* m_exportFile = nullptr;
    WatchCosts* m_costs = nullptr;
    SimulatedWatch* m_watch = nullptr;
};

} // namespace watchword::app
