#include "app/watch/WatchSimulator.h"

#include "app/common/Notify.h"
#include "app/watch/SimulatedWatch.h"
#include "app/watch/WatchCosts.h"
#include "app/watch/WatchExportFile.h"
#include "app/watch/WatchProfiles.h"

#include <QDateTime>

namespace watchword::app {

WatchSimulator::WatchSimulator(QObject* parent)
    : QObject(parent), m_profiles(new WatchProfiles(*this)),
      m_exportFile(new WatchExportFile(*this)), m_costs(new WatchCosts(*this)),
      m_watch(new SimulatedWatch(*this))
{}

void WatchSimulator::setVault(VaultController* vault)
{
    assignAndNotify(this, m_vault, vault, &WatchSimulator::vaultChanged);
}

void WatchSimulator::setAccounts(AccountListModel* accounts)
{
    assignAndNotify(this, m_accounts, accounts, &WatchSimulator::accountsChanged);
}

void WatchSimulator::setClock(Clock* clock)
{
    assignAndNotify(this, m_clock, clock, &WatchSimulator::clockChanged);
}

void WatchSimulator::setSettings(AppSettings* settings)
{
    assignAndNotify(this, m_settings, settings, &WatchSimulator::settingsChanged);
}

void WatchSimulator::setError(QString error)
{
    assignAndNotify(this, m_error, std::move(error), &WatchSimulator::errorChanged);
}

void WatchSimulator::clearError()
{
    setError({});
}

qint64 WatchSimulator::nowSeconds() const
{
    const Clock* clock = m_clock;
    return clock ? clock->second() : QDateTime::currentSecsSinceEpoch();
}

} // namespace watchword::app
