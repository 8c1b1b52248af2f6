#include "app/diagnostics/BenchmarkRun.h"

#include "app/common/Notify.h"
#include "app/diagnostics/DiagnosticsController.h"

#include <QMetaObject>
#include <algorithm>
#include <chrono>
#include <exception>

namespace watchword::app {

namespace {

// The least time between two progress updates the worker sends (besides one
// when a benchmark starts): each update redraws the window, and drawing on
// the GUI thread takes CPU from the measurement on a machine of few cores.
constexpr auto progressInterval = std::chrono::milliseconds(250);

QString phaseName(perf::Phase phase)
{
    switch (phase) {
    case perf::Phase::Preparing:
        return BenchmarkRun::tr("Preparing");
    case perf::Phase::WarmingUp:
        return BenchmarkRun::tr("Warming up");
    case perf::Phase::Measuring:
        return BenchmarkRun::tr("Measuring");
    case perf::Phase::Analysing:
        return BenchmarkRun::tr("Analysing");
    }
    return {};
}

} // namespace

BenchmarkRun::BenchmarkRun(DiagnosticsController& diagnostics)
    : QObject(&diagnostics), m_diagnostics(diagnostics), m_runProfile(effectiveProfile())
{}

BenchmarkRun::~BenchmarkRun() = default;

void BenchmarkRun::setCustomProfile(perf::Profile profile)
{
    m_customProfile = std::move(profile);
    emit profileChanged();
}

QString BenchmarkRun::profile() const
{
    return m_customProfile ? QString::fromStdString(m_customProfile->name) : m_profile;
}

void BenchmarkRun::setProfile(const QString& name)
{
    if (!perf::profileNamed(name.toStdString())) {
        m_diagnostics.setError(tr("There is no profile \"%1\": choose quick or full.").arg(name));
        return;
    }
    if (name == profile())
        return;
    m_customProfile.reset();
    m_profile = name;
    emit profileChanged();
}

void BenchmarkRun::setInterleaved(bool interleaved)
{
    if (interleaved == m_interleaved || m_running)
        return;
    m_interleaved = interleaved;
    emit interleavedChanged();
}

perf::Profile BenchmarkRun::effectiveProfile() const
{
    if (m_customProfile)
        return *m_customProfile;
    return perf::profileNamed(m_profile.toStdString()).value_or(perf::quickProfile());
}

bool BenchmarkRun::start()
{
    if (m_diagnostics.busy()) {
        m_diagnostics.setError(tr("Wait for the current run or comparison to end."));
        return false;
    }
    const std::vector<int> rows = m_diagnostics.benchmarks()->checkedRows();
    if (rows.empty()) {
        m_diagnostics.setError(tr("Choose at least one benchmark to run."));
        return false;
    }
    m_diagnostics.clearError();
    std::vector<const perf::Benchmark*> selection;
    selection.reserve(rows.size());
    for (const int row : rows)
        selection.push_back(&m_diagnostics.catalogue()[std::size_t(row)]);

    m_runProfile = effectiveProfile();
    m_runCount = selection.size();
    m_finished = 0;
    m_cancelRequested = false;
    m_diagnostics.results()->start(selection);
    emit started();
    m_diagnostics.resultsChanged();
    m_overallProgress = 0;
    m_currentProgress = 0;
    m_currentName = QString::fromStdString(selection.front()->name);
    emit progressChanged();
    m_diagnostics.setStatusText(tr("Starting %n benchmark(s)\u2026", nullptr, int(m_runCount)));
    setRunning(true);

    m_worker.start([this, selection, profile = m_runProfile,
                    interleaved = m_interleaved](const std::atomic<bool>& cancelled) {
        std::size_t lastIndex = selection.size();
        auto lastSent = std::chrono::steady_clock::time_point();
        const perf::ProgressCallback progress = [&](const perf::Progress& step) {
            const auto now = std::chrono::steady_clock::now();
            if (step.benchmarkIndex == lastIndex && now - lastSent < progressInterval)
                return;
            lastIndex = step.benchmarkIndex;
            lastSent = now;
            QMetaObject::invokeMethod(
                this, [this, step] { showProgress(step); }, Qt::QueuedConnection);
        };
        const auto finished = [this](const perf::Measurement& measurement) {
            QMetaObject::invokeMethod(
                this, [this, measurement] { measured(measurement); }, Qt::QueuedConnection);
        };
        std::vector<perf::Measurement> measurements;
        QString failure;
        try {
            measurements =
                interleaved
                    ? perf::runInterleaved(selection, profile, cancelled, progress, finished)
                    : perf::runSuite(selection, profile, cancelled, progress, finished);
        } catch (const std::exception& error) {
            // A benchmark that throws must not take the app with it.
            failure = QString::fromLocal8Bit(error.what());
        }
        QMetaObject::invokeMethod(
            this,
            [this, measurements = std::move(measurements), failure]() mutable {
                ended(std::move(measurements), failure);
            },
            Qt::QueuedConnection);
    });
    return true;
}

bool BenchmarkRun::startMatching(const QString& filter)
{
    return m_diagnostics.benchmarks()->selectMatching(filter) && start();
}

void BenchmarkRun::cancel()
{
    if (!m_running || m_cancelRequested)
        return;
    m_cancelRequested = true;
    m_worker.cancel();
    m_diagnostics.setStatusText(tr("Cancelling\u2026"));
}

void BenchmarkRun::showProgress(const perf::Progress& progress)
{
    if (!m_running)
        return;
    m_diagnostics.results()->setRunning(int(progress.benchmarkIndex));
    m_currentName = QString::fromStdString(progress.name);
    m_currentProgress = progress.benchmarkFraction;
    m_overallProgress = progress.overallFraction;
    emit progressChanged();
    if (!m_cancelRequested)
        m_diagnostics.setStatusText(tr("%1 %2 (%3 of %4)")
                                        .arg(phaseName(progress.phase), m_currentName)
                                        .arg(progress.benchmarkIndex + 1)
                                        .arg(progress.benchmarkCount));
}

void BenchmarkRun::measured(perf::Measurement measurement)
{
    if (!m_running)
        return;
    m_diagnostics.results()->setMeasurement(int(m_finished), std::move(measurement));
    ++m_finished;
    m_overallProgress = double(m_finished) / double(std::max<std::size_t>(m_runCount, 1));
    emit progressChanged();
    m_diagnostics.resultsChanged();
}

void BenchmarkRun::ended(std::vector<perf::Measurement> measurements, QString failure)
{
    m_worker.join();
    // The runner's own list is the record: a measurement whose queued call
    // has not been shown yet cannot exist (calls arrive in order), but the
    // list costs nothing to trust.
    BenchmarkResultsModel& results = *m_diagnostics.results();
    for (std::size_t i = m_finished; i < measurements.size(); ++i)
        results.setMeasurement(int(i), std::move(measurements[i]));
    m_finished = std::max(m_finished, measurements.size());
    results.finish();
    m_diagnostics.resultsChanged();

    const bool cancelled = m_cancelRequested;
    const int measuredCount = results.measuredCount();
    const int failedCount = results.failedCount();
    m_currentProgress = cancelled ? m_currentProgress : 1;
    m_overallProgress = cancelled ? m_overallProgress : 1;
    m_currentName.clear();
    emit progressChanged();
    if (!failure.isEmpty()) {
        m_diagnostics.setError(tr("The run stopped: %1").arg(failure));
        m_diagnostics.setStatusText(tr("Stopped after %1 of %2.").arg(m_finished).arg(m_runCount));
    } else if (cancelled && results.restoreLastComplete()) {
        // The table goes back to the last run that measured all it was
        // asked to: a stopped run's few rows would hide it.
        m_diagnostics.resultsChanged();
        m_diagnostics.setStatusText(tr("Cancelled after %1 of %2: the last complete run is shown.")
                                        .arg(measuredCount)
                                        .arg(m_runCount));
    } else if (cancelled) {
        m_diagnostics.setStatusText(
            tr("Cancelled: %1 of %2 measured.").arg(measuredCount).arg(m_runCount));
    } else if (failedCount > 0) {
        m_diagnostics.setStatusText(
            tr("Done: %1 measured, %2 failed.").arg(measuredCount).arg(failedCount));
    } else {
        m_diagnostics.setStatusText(tr("Done: %n benchmark(s) measured.", nullptr, measuredCount));
    }
    setRunning(false);
    emit finished(cancelled);
}

void BenchmarkRun::setRunning(bool running)
{
    assignAndNotify(this, m_running, running, &BenchmarkRun::runningChanged);
}

} // namespace watchword::app
