// What the chosen watch would take (watch::estimate), each figure with its
// basis: every operation, the unlock at a round count, the count calibrated
// for the unlock target, the memory with the loaded export (or an estimate
// of one), and the reference notes' inconsistency. Recomputed when the
// watch, a measured time, the export, the target or the count changes.
#pragma once

#include "app/watch/WatchValues.h"
#include "watch/CostModel.h"

#include <QList>
#include <QObject>
#include <QStringList>
#include <QtQml/qqmlregistration.h>
#include <cstdint>
#include <optional>

namespace watchword::app {

class WatchSimulator;

class WatchCosts : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the costs belong to a WatchSimulator")
    // Without a watch, no rows and the values as default-made: the cost
    // table, one row per operation; the unlock; the calibrated count; the
    // memory.
    Q_PROPERTY(QList<watchword::app::WatchCost> operations READ operations NOTIFY costsChanged)
    Q_PROPERTY(watchword::app::WatchUnlock unlock READ unlock NOTIFY costsChanged)
    Q_PROPERTY(watchword::app::WatchCalibration calibration READ calibration NOTIFY costsChanged)
    Q_PROPERTY(watchword::app::WatchMemory memory READ memory NOTIFY costsChanged)
    // The notes' inconsistency, stated; and the estimate's other notes (the
    // basis of estimates, unknown fields).
    Q_PROPERTY(
        watchword::app::WatchInconsistency inconsistency READ inconsistency NOTIFY costsChanged)
    Q_PROPERTY(QStringList notes READ notes NOTIFY costsChanged)
    // The unlock target the calibrated count aims at, and an export's count
    // is calibrated to (ms, 100..10,000).
    Q_PROPERTY(int targetMs READ targetMs WRITE setTargetMs NOTIFY costsChanged)
    // The round count the unlock row is timed at; 0: the calibrated count.
    Q_PROPERTY(int iterations READ iterations WRITE setIterations NOTIFY costsChanged)

public:
    // Follows the simulator's chosen watch and its export.
    explicit WatchCosts(WatchSimulator& simulator);

    QList<WatchCost> operations() const;
    WatchUnlock unlock() const;
    WatchCalibration calibration() const;
    WatchMemory memory() const;
    WatchInconsistency inconsistency() const;
    QStringList notes() const;
    int targetMs() const { return int(m_targetMs); }
    void setTargetMs(int milliseconds);
    int iterations() const { return int(m_iterations); }
    void setIterations(int iterations);

signals:
    void costsChanged();

private:
    void recompute();

    WatchSimulator& m_simulator;
    std::uint32_t m_targetMs = watch::defaultWatchTargetMilliseconds;
    std::uint32_t m_iterations = 0;
    std::optional<watch::CostEstimate> m_estimate;
};

} // namespace watchword::app
