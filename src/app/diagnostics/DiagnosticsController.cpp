#include "app/diagnostics/DiagnosticsController.h"

#include "app/common/Notify.h"
#include "perf/Baseline.h"

#include <QClipboard>
#include <QDate>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QSaveFile>
#include <QStandardPaths>
#include <QtGlobal>
#include <atomic>
#include <chrono>
#include <exception>
#include <set>
#include <thread>

namespace watchword::app {

struct DiagnosticsController::Worker
{
    std::atomic<bool> cancel{false};
    std::thread thread;
};

namespace {

// The least time between two progress updates the worker sends (besides one
// when a benchmark starts): each update redraws the window, and drawing on
// the GUI thread takes CPU from the measurement on a machine of few cores.
constexpr auto progressInterval = std::chrono::milliseconds(250);

QString phaseName(perf::Phase phase)
{
    switch (phase) {
    case perf::Phase::Preparing:
        return DiagnosticsController::tr("Preparing");
    case perf::Phase::WarmingUp:
        return DiagnosticsController::tr("Warming up");
    case perf::Phase::Measuring:
        return DiagnosticsController::tr("Measuring");
    case perf::Phase::Analysing:
        return DiagnosticsController::tr("Analysing");
    }
    return {};
}

QString fromStd(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

DiagnosticsController::DiagnosticsController(QObject* parent)
    : QObject(parent), m_benchmarks(perf::catalogue()),
      m_baselineDirectory(QString::fromStdString(perf::defaultBaselineDirectory().string()))
{
    m_choices.setBenchmarks(m_benchmarks);
    m_runProfile = effectiveProfile();
    refreshBaselines();
}

DiagnosticsController::~DiagnosticsController()
{
    if (m_worker) {
        m_worker->cancel = true;
        joinWorker();
    }
}

void DiagnosticsController::setBenchmarks(std::vector<perf::Benchmark> benchmarks)
{
    if (busy())
        return;
    m_benchmarks = std::move(benchmarks);
    m_choices.setBenchmarks(m_benchmarks);
    m_results.clear();
    m_comparisons.update({});
    resultsChanged();
}

void DiagnosticsController::setCustomProfile(perf::Profile profile)
{
    m_customProfile = std::move(profile);
    emit profileChanged();
}

QString DiagnosticsController::profile() const
{
    return m_customProfile ? fromStd(m_customProfile->name) : m_profile;
}

void DiagnosticsController::setProfile(const QString& name)
{
    if (!perf::profileNamed(name.toStdString())) {
        setError(tr("There is no profile \"%1\": choose quick or full.").arg(name));
        return;
    }
    if (name == profile())
        return;
    m_customProfile.reset();
    m_profile = name;
    emit profileChanged();
}

void DiagnosticsController::setInterleaved(bool interleaved)
{
    if (interleaved == m_interleaved || m_running)
        return;
    m_interleaved = interleaved;
    emit interleavedChanged();
}

perf::Profile DiagnosticsController::effectiveProfile() const
{
    if (m_customProfile)
        return *m_customProfile;
    return perf::profileNamed(m_profile.toStdString()).value_or(perf::quickProfile());
}

void DiagnosticsController::setBaselineDirectory(const QString& directory)
{
    if (directory == m_baselineDirectory)
        return;
    m_baselineDirectory = directory;
    emit baselineDirectoryChanged();
    refreshBaselines();
}

const perf::MachineInfo& DiagnosticsController::machine() const
{
    if (!m_machine)
        m_machine = perf::currentMachine(qVersion());
    return *m_machine;
}

QVariantMap DiagnosticsController::systemInfo() const
{
    const perf::MachineInfo& info = machine();
    return {{QStringLiteral("cpuModel"), fromStd(info.cpuModel)},
            {QStringLiteral("logicalCpus"), info.logicalCpus},
            {QStringLiteral("shaNi"), info.shaNi},
            {QStringLiteral("aesNi"), info.aesNi},
            {QStringLiteral("os"), fromStd(info.os)},
            {QStringLiteral("kernel"), fromStd(info.kernel)},
            {QStringLiteral("compiler"), fromStd(info.compiler)},
            {QStringLiteral("buildType"), fromStd(info.buildType)},
            {QStringLiteral("openssl"), fromStd(info.openssl)},
            {QStringLiteral("secp256k1"), fromStd(info.secp256k1)},
            {QStringLiteral("qt"), fromStd(info.qt)},
            {QStringLiteral("line"), fromStd(perf::machineLine(info))}};
}

perf::Report DiagnosticsController::report() const
{
    perf::Report report;
    report.machine = machine();
    report.machine.harness =
        "Criterion-model runner (Diagnostics view), " + m_runProfile.name + " profile";
    report.profile = m_runProfile;
    report.measurements = m_results.measurements();
    if (!m_comparedWith.isEmpty()) {
        report.baselineName = m_comparedWith.toStdString();
        report.changes = m_changes;
    }
    return report;
}

// --- Running

void DiagnosticsController::startWorker(std::function<void(Worker&)> work)
{
    m_worker = std::make_unique<Worker>();
    Worker* worker = m_worker.get();
    worker->thread = std::thread([worker, work = std::move(work)] { work(*worker); });
}

void DiagnosticsController::joinWorker()
{
    // Called when the worker has posted its last call (it only has to
    // return), or from the destructor after cancelling.
    if (m_worker && m_worker->thread.joinable())
        m_worker->thread.join();
    m_worker.reset();
}

bool DiagnosticsController::run()
{
    if (busy()) {
        setError(tr("Wait for the current run or comparison to end."));
        return false;
    }
    const std::vector<int> rows = m_choices.checkedRows();
    if (rows.empty()) {
        setError(tr("Choose at least one benchmark to run."));
        return false;
    }
    clearError();
    std::vector<const perf::Benchmark*> selection;
    selection.reserve(rows.size());
    for (const int row : rows)
        selection.push_back(&m_benchmarks[std::size_t(row)]);

    m_runProfile = effectiveProfile();
    m_runCount = selection.size();
    m_finished = 0;
    m_cancelRequested = false;
    m_changes.clear();
    m_results.start(selection);
    setComparedWith({});
    resultsChanged();
    m_overallProgress = 0;
    m_currentProgress = 0;
    m_currentName = fromStd(selection.front()->name);
    emit progressChanged();
    setStatusText(tr("Starting %n benchmark(s)\u2026", nullptr, int(m_runCount)));
    setRunning(true);

    startWorker([this, selection, profile = m_runProfile,
                 interleaved = m_interleaved](Worker& worker) {
        // The runner reports up to fifty steps a phase; four a second reach
        // the GUI, and one as each benchmark starts.
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
                    ? perf::runInterleaved(selection, profile, worker.cancel, progress, finished)
                    : perf::runSuite(selection, profile, worker.cancel, progress, finished);
        } catch (const std::exception& error) {
            // A benchmark that throws must not take the app with it.
            failure = QString::fromLocal8Bit(error.what());
        }
        QMetaObject::invokeMethod(
            this,
            [this, measurements = std::move(measurements), failure]() mutable {
                runEnded(std::move(measurements), failure);
            },
            Qt::QueuedConnection);
    });
    return true;
}

void DiagnosticsController::cancel()
{
    if (!m_running || !m_worker || m_cancelRequested)
        return;
    m_cancelRequested = true;
    m_worker->cancel = true;
    setStatusText(tr("Cancelling\u2026"));
}

void DiagnosticsController::showProgress(const perf::Progress& progress)
{
    if (!m_running)
        return;
    m_results.setRunning(int(progress.benchmarkIndex));
    m_currentName = fromStd(progress.name);
    m_currentProgress = progress.benchmarkFraction;
    m_overallProgress = progress.overallFraction;
    emit progressChanged();
    if (!m_cancelRequested)
        setStatusText(tr("%1 %2 (%3 of %4)")
                          .arg(phaseName(progress.phase), m_currentName)
                          .arg(progress.benchmarkIndex + 1)
                          .arg(progress.benchmarkCount));
}

void DiagnosticsController::measured(perf::Measurement measurement)
{
    if (!m_running)
        return;
    m_results.setMeasurement(int(m_finished), std::move(measurement));
    ++m_finished;
    m_overallProgress = double(m_finished) / double(std::max<std::size_t>(m_runCount, 1));
    emit progressChanged();
    resultsChanged();
}

void DiagnosticsController::runEnded(std::vector<perf::Measurement> measurements, QString failure)
{
    joinWorker();
    // The runner's own list is the record: a measurement whose queued call
    // has not been shown yet cannot exist (calls arrive in order), but the
    // list costs nothing to trust.
    for (std::size_t i = m_finished; i < measurements.size(); ++i)
        m_results.setMeasurement(int(i), std::move(measurements[i]));
    m_finished = std::max(m_finished, measurements.size());
    m_results.finish();
    resultsChanged();

    const bool cancelled = m_cancelRequested;
    const int measuredCount = m_results.measuredCount();
    const int failedCount = m_results.failedCount();
    m_currentProgress = cancelled ? m_currentProgress : 1;
    m_overallProgress = cancelled ? m_overallProgress : 1;
    m_currentName.clear();
    emit progressChanged();
    if (!failure.isEmpty()) {
        setError(tr("The run stopped: %1").arg(failure));
        setStatusText(tr("Stopped after %1 of %2.").arg(m_finished).arg(m_runCount));
    } else if (cancelled && m_results.restoreLastComplete()) {
        // The table goes back to the last run that measured all it was
        // asked to: a stopped run's few rows would hide it.
        resultsChanged();
        setStatusText(tr("Cancelled after %1 of %2: the last complete run is shown.")
                          .arg(measuredCount)
                          .arg(m_runCount));
    } else if (cancelled) {
        setStatusText(tr("Cancelled: %1 of %2 measured.").arg(measuredCount).arg(m_runCount));
    } else if (failedCount > 0) {
        setStatusText(tr("Done: %1 measured, %2 failed.").arg(measuredCount).arg(failedCount));
    } else {
        setStatusText(tr("Done: %n benchmark(s) measured.", nullptr, measuredCount));
    }
    setRunning(false);
    emit runFinished(cancelled);
}

void DiagnosticsController::resultsChanged()
{
    const auto times = m_results.typicalTimes();
    m_comparisons.update(times);

    QVariantList bars;
    std::set<std::string> shown;
    for (const auto& comparison : perf::comparisons()) {
        if (comparison.reference.empty() || shown.count(comparison.subject) > 0)
            continue;
        const auto ours = times.find(comparison.subject);
        const auto theirs = times.find(comparison.reference);
        if (ours == times.end() || theirs == times.end())
            continue;
        shown.insert(comparison.subject);
        bars.append(QVariantMap{{QStringLiteral("name"), fromStd(comparison.subject)},
                                {QStringLiteral("reference"), fromStd(comparison.reference)},
                                {QStringLiteral("ours"), ours->second},
                                {QStringLiteral("theirs"), theirs->second}});
    }
    if (bars != m_chartData) {
        m_chartData = std::move(bars);
        emit chartDataChanged();
    }
}

// --- Baselines

bool DiagnosticsController::isValidBaselineName(const QString& name) const
{
    return perf::isValidBaselineName(name.toStdString());
}

void DiagnosticsController::refreshBaselines()
{
    QStringList names;
    for (const auto& name : perf::listBaselines(m_baselineDirectory.toStdString()))
        names.append(fromStd(name));
    if (names == m_baselines)
        return;
    m_baselines = std::move(names);
    emit baselinesChanged();
}

bool DiagnosticsController::saveBaseline(const QString& name)
{
    if (!isValidBaselineName(name)) {
        setError(tr("\"%1\" cannot name a baseline: use 1 to 64 letters, digits, dots, dashes "
                    "or underscores, not starting with a dot.")
                     .arg(name));
        return false;
    }
    if (m_running) {
        setError(tr("Wait for the run to end before saving it."));
        return false;
    }
    if (m_results.measuredCount() == 0) {
        setError(tr("Run the benchmarks first: there is nothing to save yet."));
        return false;
    }
    const auto saved =
        perf::saveBaseline(m_baselineDirectory.toStdString(), name.toStdString(), report());
    if (!saved) {
        setError(tr("The baseline could not be saved: %1").arg(fromStd(saved.error().message)));
        return false;
    }
    clearError();
    refreshBaselines();
    emit baselineSaved(name);
    return true;
}

bool DiagnosticsController::compareWith(const QString& name)
{
    if (busy()) {
        setError(tr("Wait for the current run or comparison to end."));
        return false;
    }
    if (m_results.measuredCount() == 0) {
        setError(tr("Run the benchmarks first: there is nothing to compare yet."));
        return false;
    }
    if (!isValidBaselineName(name)) {
        setError(tr("There is no baseline \"%1\".").arg(name));
        return false;
    }
    auto baseline = perf::loadBaseline(m_baselineDirectory.toStdString(), name.toStdString());
    if (!baseline) {
        setError(tr("The baseline \"%1\" could not be read: %2")
                     .arg(name, fromStd(baseline.error().message)));
        return false;
    }
    clearError();
    setStatusText(tr("Comparing with %1\u2026").arg(name));
    setComparing(true);
    startWorker([this, name, baseline = std::move(*baseline), current = m_results.measurements(),
                 resamples = m_runProfile.resamples](Worker&) {
        auto changes =
            perf::compareWithBaseline(baseline, current, perf::defaultNoiseThreshold, resamples);
        QMetaObject::invokeMethod(
            this,
            [this, name, changes = std::move(changes)]() mutable {
                comparisonEnded(name, std::move(changes));
            },
            Qt::QueuedConnection);
    });
    return true;
}

void DiagnosticsController::comparisonEnded(QString name,
                                            std::map<std::string, stats::Change> changes)
{
    joinWorker();
    m_changes = std::move(changes);
    m_results.setChanges(m_changes);
    setComparedWith(name);
    int improved = 0;
    int regressed = 0;
    for (const auto& [benchmark, change] : m_changes) {
        improved += change.verdict == stats::Verdict::Improved ? 1 : 0;
        regressed += change.verdict == stats::Verdict::Regressed ? 1 : 0;
    }
    setStatusText(m_changes.empty()
                      ? tr("No benchmark of %1 was measured in this run.").arg(name)
                      : tr("Compared with %1: %2 improved, %3 regressed, %4 no change.")
                            .arg(name)
                            .arg(improved)
                            .arg(regressed)
                            .arg(int(m_changes.size()) - improved - regressed));
    setComparing(false);
    emit comparisonFinished();
}

void DiagnosticsController::clearComparison()
{
    if (m_comparing)
        return;
    m_changes.clear();
    m_results.setChanges({});
    setComparedWith({});
}

// --- Reports

QString DiagnosticsController::suggestedFileName(const QString& format) const
{
    const QString suffix = format == QLatin1String("json")   ? QStringLiteral("json")
                           : format == QLatin1String("html") ? QStringLiteral("html")
                                                             : QStringLiteral("md");
    return QStringLiteral("watchword-bench-%1.%2")
        .arg(QDate::currentDate().toString(Qt::ISODate), suffix);
}

QUrl DiagnosticsController::exportFolder() const
{
    if (!m_lastExportFolder.isEmpty())
        return QUrl::fromLocalFile(m_lastExportFolder);
    QString folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        folder = QDir::homePath();
    return QUrl::fromLocalFile(folder);
}

bool DiagnosticsController::exportReport(const QString& format, const QUrl& fileUrl)
{
    const QString path = fileUrl.isLocalFile() ? fileUrl.toLocalFile() : fileUrl.path();
    if (path.isEmpty() || (!fileUrl.isLocalFile() && !fileUrl.scheme().isEmpty())) {
        setError(tr("Reports are written to local files only."));
        return false;
    }
    if (m_running) {
        setError(tr("Wait for the run to end before exporting it."));
        return false;
    }
    if (m_results.measurements().empty()) {
        setError(tr("Run the benchmarks first: there is nothing to export yet."));
        return false;
    }
    std::string text;
    const perf::Report current = report();
    if (format == QLatin1String("markdown"))
        text = perf::markdownReport(current);
    else if (format == QLatin1String("json"))
        text = perf::jsonReport(current);
    else if (format == QLatin1String("html"))
        text = perf::htmlReport(current);
    else {
        setError(
            tr("There is no report format \"%1\": choose markdown, json or html.").arg(format));
        return false;
    }
    QSaveFile file(path);
    const bool written = file.open(QIODevice::WriteOnly) &&
                         file.write(text.data(), qint64(text.size())) == qint64(text.size()) &&
                         file.commit();
    if (!written) {
        setError(
            tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
        return false;
    }
    clearError();
    m_lastExportFolder = QFileInfo(path).absolutePath();
    setStatusText(tr("Saved the report to %1.").arg(QDir::toNativeSeparators(path)));
    emit reportExported(path);
    return true;
}

bool DiagnosticsController::copyTable()
{
    if (m_results.measurements().empty()) {
        setError(tr("Run the benchmarks first: there is no table to copy yet."));
        return false;
    }
    QClipboard* clipboard = QGuiApplication::clipboard();
    if (clipboard == nullptr)
        return false;
    clipboard->setText(fromStd(perf::markdownReport(report())));
    setStatusText(tr("Copied the table as Markdown."));
    return true;
}

// --- Properties

void DiagnosticsController::setRunning(bool running)
{
    setBusyFlag(m_running, running, &DiagnosticsController::runningChanged);
}

void DiagnosticsController::setComparing(bool comparing)
{
    setBusyFlag(m_comparing, comparing, &DiagnosticsController::comparingChanged);
}

void DiagnosticsController::setBusyFlag(bool& flag, bool value,
                                        void (DiagnosticsController::*changed)())
{
    if (flag == value)
        return;
    const bool wasBusy = busy();
    flag = value;
    emit(this->*changed)();
    if (busy() != wasBusy)
        emit busyChanged();
}

void DiagnosticsController::setStatusText(QString text)
{
    assignAndNotify(this, m_statusText, std::move(text), &DiagnosticsController::statusTextChanged);
}

void DiagnosticsController::setError(QString error)
{
    assignAndNotify(this, m_error, std::move(error), &DiagnosticsController::errorChanged);
}

void DiagnosticsController::clearError()
{
    setError({});
}

void DiagnosticsController::setComparedWith(QString name)
{
    assignAndNotify(this, m_comparedWith, std::move(name),
                    &DiagnosticsController::comparedWithChanged);
}

} // namespace watchword::app
