#include "app/watch/WatchCosts.h"

#include "app/watch/WatchExportFile.h"
#include "app/watch/WatchProfiles.h"
#include "app/watch/WatchSimulator.h"
#include "text/CoreText.h"

#include <algorithm>

namespace watchword::app {

WatchCosts::WatchCosts(WatchSimulator& simulator) : QObject(&simulator), m_simulator(simulator)
{
    const WatchProfiles* profiles = simulator.profiles();
    for (const auto signal : {&WatchProfiles::deviceChanged, &WatchProfiles::measuredChanged})
        connect(profiles, signal, this, &WatchCosts::recompute);
    connect(simulator.exportFile(), &WatchExportFile::payloadChanged, this, &WatchCosts::recompute);
    recompute();
}

void WatchCosts::recompute()
{
    const auto* device = m_simulator.profiles()->current();
    if (!device) {
        m_estimate.reset();
    } else {
        const WatchExportFile& loaded = *m_simulator.exportFile();
        const std::optional<std::uint32_t> iterations =
            m_iterations > 0 ? std::optional<std::uint32_t>(m_iterations) : std::nullopt;
        const std::optional<std::uint64_t> payloadBytes =
            loaded.payload() ? std::optional<std::uint64_t>(loaded.payload()->size())
                             : std::nullopt;
        m_estimate = watch::estimate(*device, iterations, m_targetMs,
                                     std::uint32_t(loaded.accountCount()), payloadBytes);
    }
    emit costsChanged();
}

QList<WatchCost> WatchCosts::operations() const
{
    QList<WatchCost> list;
    // The device is asked again: the profiles may have been read anew, and
    // this estimate not yet made for them.
    const auto* device = m_simulator.profiles()->current();
    if (!m_estimate || !device)
        return list;
    for (const auto& cost : m_estimate->operations)
        list << WatchCost::from(cost, *device);
    return list;
}

WatchUnlock WatchCosts::unlock() const
{
    return m_estimate ? WatchUnlock::from(m_estimate->unlock) : WatchUnlock();
}

WatchCalibration WatchCosts::calibration() const
{
    return m_estimate ? WatchCalibration::from(m_estimate->calibration) : WatchCalibration();
}

WatchMemory WatchCosts::memory() const
{
    return m_estimate ? WatchMemory::from(m_estimate->memory) : WatchMemory();
}

WatchInconsistency WatchCosts::inconsistency() const
{
    return m_estimate ? WatchInconsistency::from(*m_estimate) : WatchInconsistency();
}

QStringList WatchCosts::notes() const
{
    QStringList list;
    if (!m_estimate)
        return list;
    // The inconsistency has a place of its own.
    for (const auto& note : m_estimate->notes)
        if (note != m_estimate->inconsistency)
            list << text::fromCore(note);
    return list;
}

void WatchCosts::setTargetMs(int milliseconds)
{
    const auto clamped = std::uint32_t(std::clamp(milliseconds, 100, 10'000));
    if (clamped == m_targetMs)
        return;
    m_targetMs = clamped;
    recompute();
}

void WatchCosts::setIterations(int iterations)
{
    const auto value = iterations <= 0
                           ? 0u
                           : std::clamp(std::uint32_t(iterations), watch::minimumIterations,
                                        watch::maximumIterations);
    if (value == m_iterations)
        return;
    m_iterations = value;
    recompute();
}

} // namespace watchword::app
