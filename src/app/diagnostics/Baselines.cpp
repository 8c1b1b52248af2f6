#include "app/diagnostics/Baselines.h"

#include "app/common/Notify.h"
#include "app/diagnostics/DiagnosticsController.h"
#include "perf/Baseline.h"

#include <QMetaObject>

namespace watchword::app {

Baselines::Baselines(DiagnosticsController& diagnostics)
    : QObject(&diagnostics), m_diagnostics(diagnostics),
      m_directory(QString::fromStdString(perf::defaultBaselineDirectory().string()))
{
    refresh();
}

Baselines::~Baselines() = default;

void Baselines::setDirectory(const QString& directory)
{
    if (assignAndNotify(this, m_directory, directory, &Baselines::directoryChanged))
        refresh();
}

bool Baselines::isValidName(const QString& name) const
{
    return perf::isValidBaselineName(name.toStdString());
}

void Baselines::refresh()
{
    QStringList names;
    for (const auto& name : perf::listBaselines(m_directory.toStdString()))
        names.append(QString::fromStdString(name));
    assignAndNotify(this, m_names, std::move(names), &Baselines::namesChanged);
}

bool Baselines::save(const QString& name)
{
    if (!isValidName(name)) {
        m_diagnostics.setError(
            tr("\"%1\" cannot name a baseline: use 1 to 64 letters, digits, dots, dashes "
               "or underscores, not starting with a dot.")
                .arg(name));
        return false;
    }
    if (m_diagnostics.run()->running()) {
        m_diagnostics.setError(tr("Wait for the run to end before saving it."));
        return false;
    }
    if (m_diagnostics.results()->measuredCount() == 0) {
        m_diagnostics.setError(tr("Run the benchmarks first: there is nothing to save yet."));
        return false;
    }
    const auto written =
        perf::saveBaseline(m_directory.toStdString(), name.toStdString(), m_diagnostics.report());
    if (!written) {
        m_diagnostics.setError(tr("The baseline could not be saved: %1")
                                   .arg(QString::fromStdString(written.error().message)));
        return false;
    }
    m_diagnostics.clearError();
    refresh();
    emit saved(name);
    return true;
}

bool Baselines::compareWith(const QString& name)
{
    if (m_diagnostics.busy()) {
        m_diagnostics.setError(tr("Wait for the current run or comparison to end."));
        return false;
    }
    if (m_diagnostics.results()->measuredCount() == 0) {
        m_diagnostics.setError(tr("Run the benchmarks first: there is nothing to compare yet."));
        return false;
    }
    if (!isValidName(name)) {
        m_diagnostics.setError(tr("There is no baseline \"%1\".").arg(name));
        return false;
    }
    auto baseline = perf::loadBaseline(m_directory.toStdString(), name.toStdString());
    if (!baseline) {
        m_diagnostics.setError(tr("The baseline \"%1\" could not be read: %2")
                                   .arg(name, QString::fromStdString(baseline.error().message)));
        return false;
    }
    m_diagnostics.clearError();
    m_diagnostics.setStatusText(tr("Comparing with %1\u2026").arg(name));
    setComparing(true);
    m_worker.start([this, name, baseline = std::move(*baseline),
                    current = m_diagnostics.results()->measurements(),
                    resamples =
                        m_diagnostics.run()->resultsProfile().resamples](const std::atomic<bool>&) {
        auto changes =
            perf::compareWithBaseline(baseline, current, perf::defaultNoiseThreshold, resamples);
        QMetaObject::invokeMethod(
            this,
            [this, name, changes = std::move(changes)]() mutable {
                compared(name, std::move(changes));
            },
            Qt::QueuedConnection);
    });
    return true;
}

void Baselines::compared(QString name, std::map<std::string, stats::Change> changes)
{
    m_worker.join();
    m_changes = std::move(changes);
    m_diagnostics.results()->setChanges(m_changes);
    setComparedWith(name);
    int improved = 0;
    int regressed = 0;
    for (const auto& [benchmark, change] : m_changes) {
        improved += change.verdict == stats::Verdict::Improved ? 1 : 0;
        regressed += change.verdict == stats::Verdict::Regressed ? 1 : 0;
    }
    m_diagnostics.setStatusText(
        m_changes.empty() ? tr("No benchmark of %1 was measured in this run.").arg(name)
                          : tr("Compared with %1: %2 improved, %3 regressed, %4 no change.")
                                .arg(name)
                                .arg(improved)
                                .arg(regressed)
                                .arg(int(m_changes.size()) - improved - regressed));
    setComparing(false);
    emit comparisonFinished();
}

void Baselines::clearComparison()
{
    if (m_comparing)
        return;
    m_diagnostics.results()->setChanges({});
    forgetComparison();
}

void Baselines::forgetComparison()
{
    m_changes.clear();
    setComparedWith({});
}

void Baselines::setComparedWith(QString name)
{
    assignAndNotify(this, m_comparedWith, std::move(name), &Baselines::comparedWithChanged);
}

void Baselines::setComparing(bool comparing)
{
    assignAndNotify(this, m_comparing, comparing, &Baselines::comparingChanged);
}

} // namespace watchword::app
