#include "app/watch/WatchProfiles.h"

#include "app/desktop/AppSettings.h"
#include "app/watch/WatchSimulator.h"
#include "text/CoreText.h"
#include "watch/CostModel.h"
#include "watch/Screen.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace watchword::app {

using text::fromCore;

namespace {

std::optional<watch::Operation> operationNamed(const QString& key)
{
    for (const auto operation : watch::allOperations)
        if (fromCore(watch::operationKey(operation)) == key)
            return operation;
    return std::nullopt;
}

} // namespace

WatchProfiles::WatchProfiles(WatchSimulator& simulator)
    : QObject(&simulator), m_simulator(simulator)
{
    if (const auto directory = watch::defaultDeviceDirectory())
        m_deviceDirectory = QString::fromStdString(*directory);
    loadDevices();
    connect(&simulator, &WatchSimulator::settingsChanged, this, [this] { loadDevices(false); });
}

void WatchProfiles::setDeviceDirectory(const QString& directory)
{
    if (directory == m_deviceDirectory)
        return;
    m_deviceDirectory = directory;
    loadDevices();
}

void WatchProfiles::loadDevices(bool keepCurrent)
{
    const QString previous = deviceId();
    const AppSettings* settings = m_simulator.settings();
    m_devices.clear();
    m_loadError.clear();
    if (m_deviceDirectory.isEmpty()) {
        m_loadError = tr("No device profiles were found (looked in %1).").arg(fromCore([] {
            std::string joined;
            for (const auto& path : watch::deviceSearchPath())
                joined += (joined.empty() ? "" : ", ") + path;
            return joined;
        }()));
    } else if (auto loaded = watch::loadDevices(m_deviceDirectory.toStdString()); !loaded) {
        m_loadError = fromCore(loaded.error().message);
    } else {
        m_devices = std::move(*loaded);
    }
    if (settings) {
        for (auto& device : m_devices)
            for (const auto operation : watch::allOperations) {
                const double value = settings->watchMeasuredMs(fromCore(device.id),
                                                               fromCore(operationKey(operation)));
                if (value > 0)
                    device.performance.measuredMs[operation] = value;
            }
    }
    emit devicesChanged();
    // The device shown, else the last one chosen, else the first that can
    // be drawn.
    const QString wanted = keepCurrent && !previous.isEmpty() ? previous
                           : settings                         ? settings->watchDevice()
                                                              : QString();
    m_current = 0;
    auto found = std::find_if(m_devices.begin(), m_devices.end(),
                              [&](const auto& device) { return fromCore(device.id) == wanted; });
    if (found == m_devices.end())
        found = std::find_if(m_devices.begin(), m_devices.end(), [](const auto& device) {
            return watch::geometryOf(device.display).has_value();
        });
    if (found != m_devices.end())
        m_current = std::size_t(found - m_devices.begin());
    emit deviceChanged();
}

const watch::Device* WatchProfiles::current() const
{
    return m_current < m_devices.size() ? &m_devices[m_current] : nullptr;
}

const watch::Device* WatchProfiles::find(std::string_view id) const
{
    const auto found = std::find_if(m_devices.begin(), m_devices.end(),
                                    [&](const auto& device) { return device.id == id; });
    return found != m_devices.end() ? &*found : nullptr;
}

QList<WatchProfile> WatchProfiles::devices() const
{
    QList<WatchProfile> list;
    list.reserve(qsizetype(m_devices.size()));
    for (const auto& device : m_devices)
        list << WatchProfile::from(device);
    return list;
}

QString WatchProfiles::deviceId() const
{
    const auto* device = current();
    return device ? fromCore(device->id) : QString();
}

void WatchProfiles::setDeviceId(const QString& id)
{
    const auto* device = find(id.toStdString());
    if (!device || device == current())
        return;
    m_current = std::size_t(device - m_devices.data());
    if (AppSettings* settings = m_simulator.settings())
        settings->setWatchDevice(id);
    emit deviceChanged();
}

WatchProfile WatchProfiles::device() const
{
    const auto* device = current();
    return device ? WatchProfile::from(*device) : WatchProfile();
}

QString WatchProfiles::undrawableReason() const
{
    const auto* device = current();
    if (!device)
        return m_loadError.isEmpty() ? tr("No device is chosen.") : m_loadError;
    if (watch::geometryOf(device->display))
        return {};
    return tr("%1: the screen's shape and resolution are not known, so it cannot be drawn. "
              "The costs below use only what is known.")
        .arg(fromCore(device->name));
}

bool WatchProfiles::setMeasured(const QString& operationKey, double milliseconds)
{
    const auto operation = operationNamed(operationKey);
    if (!current() || !operation) {
        m_simulator.setError(tr("There is no operation called '%1'.").arg(operationKey));
        return false;
    }
    if (!std::isfinite(milliseconds) || milliseconds > 3'600'000) {
        m_simulator.setError(tr("A measured time must be a number of milliseconds up to an hour."));
        return false;
    }
    m_simulator.clearError();
    auto& device = m_devices[m_current];
    if (milliseconds > 0)
        device.performance.measuredMs[*operation] = milliseconds;
    else
        device.performance.measuredMs.erase(*operation);
    if (AppSettings* settings = m_simulator.settings())
        settings->setWatchMeasuredMs(fromCore(device.id), operationKey, milliseconds);
    emit measuredChanged();
    return true;
}

} // namespace watchword::app
