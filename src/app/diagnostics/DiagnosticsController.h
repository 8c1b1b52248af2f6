// The Diagnostics view's benchmarks: choose them and a profile, run them on
// a worker thread, watch the results fill in, compare them with a saved
// baseline, and export or copy the report. The measuring, the statistics and
// the reports are perf's and stats' (the same as watchword-cli bench); this
// is the glue that keeps them off the GUI thread.
//
// Threads. A run, and the bootstrap of a baseline comparison, happen on a
// thread of the controller's own (not the global pool: a run takes a minute,
// and the pool's few threads are the vault's for unlocking). The worker
// hands progress and every finished benchmark to the GUI thread as queued
// calls; the GUI thread never waits for it. cancel() sets a flag the runner
// checks before every sample, so a run stops within one sample. Destroying
// the controller mid-run cancels and then joins the thread: the only wait,
// and a short one.
#pragma once

#include "app/diagnostics/BenchmarkChoiceModel.h"
#include "app/diagnostics/BenchmarkResultsModel.h"
#include "app/diagnostics/ComparisonListModel.h"
#include "perf/Benchmark.h"
#include "perf/Machine.h"
#include "perf/Report.h"
#include "perf/Runner.h"
#include "stats/Estimates.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <QVariantList>
#include <QVariantMap>
#include <QtQml/qqmlregistration.h>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace watchword::app {

class DiagnosticsController : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(BenchmarkChoiceModel* benchmarks READ benchmarks CONSTANT)
    Q_PROPERTY(BenchmarkResultsModel* results READ results CONSTANT)
    Q_PROPERTY(ComparisonListModel* comparisons READ comparisons CONSTANT)
    // "quick" or "full" (a test's own profile shows its name).
    Q_PROPERTY(QString profile READ profile WRITE setProfile NOTIFY profileChanged)
    // Samples of all the chosen benchmarks taken in turn (perf::runInterleaved):
    // sturdier ratios, results only at the end.
    Q_PROPERTY(bool interleaved READ interleaved WRITE setInterleaved NOTIFY interleavedChanged)
    Q_PROPERTY(bool running READ running NOTIFY runningChanged)
    // A baseline comparison is being worked out.
    Q_PROPERTY(bool comparing READ comparing NOTIFY comparingChanged)
    // Running or comparing: runs, comparisons and saves wait for the other.
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(double overallProgress READ overallProgress NOTIFY progressChanged)
    Q_PROPERTY(QString currentName READ currentName NOTIFY progressChanged)
    Q_PROPERTY(double currentProgress READ currentProgress NOTIFY progressChanged)
    Q_PROPERTY(QString statusText READ statusText NOTIFY statusTextChanged)
    // The last thing that went wrong (a bad baseline name, a file that could
    // not be written); "" if nothing.
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
    Q_PROPERTY(QString baselineDirectory READ baselineDirectory WRITE setBaselineDirectory NOTIFY
                   baselineDirectoryChanged)
    Q_PROPERTY(QStringList baselines READ baselines NOTIFY baselinesChanged)
    // The baseline the results are compared with; "" for none.
    Q_PROPERTY(QString comparedWith READ comparedWith NOTIFY comparedWithChanged)
    // This machine, as the reports' first line shows it: cpuModel,
    // logicalCpus, shaNi, aesNi, os, kernel, compiler, buildType, openssl,
    // secp256k1, qt, and line (all of it on one line).
    Q_PROPERTY(QVariantMap systemInfo READ systemInfo CONSTANT)
    // The chart's bars: one {name, reference, ours, theirs} (nanoseconds per
    // iteration) per comparison with a reference whose both sides were measured.
    Q_PROPERTY(QVariantList chartData READ chartData NOTIFY chartDataChanged)

public:
    explicit DiagnosticsController(QObject* parent = nullptr);
    ~DiagnosticsController() override;

    // --- For tests: benchmarks instead of perf::catalogue(), a profile of
    // their own. Ignored while busy.
    void setBenchmarks(std::vector<perf::Benchmark> benchmarks);
    void setCustomProfile(perf::Profile profile);

    BenchmarkChoiceModel* benchmarks() { return &m_choices; }
    BenchmarkResultsModel* results() { return &m_results; }
    ComparisonListModel* comparisons() { return &m_comparisons; }
    QString profile() const;
    void setProfile(const QString& name);
    bool interleaved() const { return m_interleaved; }
    void setInterleaved(bool interleaved);
    bool running() const { return m_running; }
    bool comparing() const { return m_comparing; }
    bool busy() const { return m_running || m_comparing; }
    double overallProgress() const { return m_overallProgress; }
    const QString& currentName() const { return m_currentName; }
    double currentProgress() const { return m_currentProgress; }
    const QString& statusText() const { return m_statusText; }
    const QString& error() const { return m_error; }
    const QString& baselineDirectory() const { return m_baselineDirectory; }
    void setBaselineDirectory(const QString& directory);
    const QStringList& baselines() const { return m_baselines; }
    const QString& comparedWith() const { return m_comparedWith; }
    QVariantMap systemInfo() const;
    const QVariantList& chartData() const { return m_chartData; }

    // The report of the results so far, as the exports write it.
    perf::Report report() const;

    // Runs the checked benchmarks with the profile. False (and error set) if
    // none is checked or the controller is busy.
    Q_INVOKABLE bool run();
    // Stops the run within one sample; the benchmark it interrupts is
    // "cancelled", those after it "skipped".
    Q_INVOKABLE void cancel();

    Q_INVOKABLE bool isValidBaselineName(const QString& name) const;
    Q_INVOKABLE void refreshBaselines();
    // Saves the measured results as baseline name (replacing one of that name).
    Q_INVOKABLE bool saveBaseline(const QString& name);
    // Compares the results with baseline name on the worker; the results'
    // changes and verdicts, and comparedWith, follow when it is done
    // (comparisonFinished). False (and error set) if it cannot start.
    Q_INVOKABLE bool compareWith(const QString& name);
    Q_INVOKABLE void clearComparison();

    // Writes the report as "markdown", "json" or "html" to fileUrl (a file://
    // URL or a path), atomically: a failed write leaves an older file as it was.
    Q_INVOKABLE bool exportReport(const QString& format, const QUrl& fileUrl);
    // A file name for an export: "watchword-bench-<date>.md".
    Q_INVOKABLE QString suggestedFileName(const QString& format) const;
    // Where the export dialog opens: the folder of the last export, or the
    // documents folder.
    Q_INVOKABLE QUrl exportFolder() const;
    // Puts the Markdown report (the table under its machine line) on the clipboard.
    Q_INVOKABLE bool copyTable();
    Q_INVOKABLE void clearError();

signals:
    void profileChanged();
    void interleavedChanged();
    void runningChanged();
    void comparingChanged();
    void busyChanged();
    void progressChanged();
    void statusTextChanged();
    void errorChanged();
    void baselineDirectoryChanged();
    void baselinesChanged();
    void comparedWithChanged();
    void chartDataChanged();
    // A run ended: completed, or stopped by cancel().
    void runFinished(bool cancelled);
    void comparisonFinished();
    void baselineSaved(const QString& name);
    void reportExported(const QString& path);

private:
    struct Worker;

    perf::Profile effectiveProfile() const;
    const perf::MachineInfo& machine() const;
    // Starts work on the worker thread; done runs on the GUI thread after it.
    void startWorker(std::function<void(Worker&)> work);
    void joinWorker();
    void showProgress(const perf::Progress& progress);
    void measured(perf::Measurement measurement);
    void runEnded(std::vector<perf::Measurement> measurements, QString failure);
    void comparisonEnded(QString name, std::map<std::string, stats::Change> changes);
    void resultsChanged();
    void setRunning(bool running);
    void setComparing(bool comparing);
    // Sets one of the two flags busy() joins, signalling it and busy.
    void setBusyFlag(bool& flag, bool value, void (DiagnosticsController::*changed)());
    void setStatusText(QString text);
    void setError(QString error);
    void setComparedWith(QString name);

    std::vector<perf::Benchmark> m_benchmarks;
    BenchmarkChoiceModel m_choices;
    BenchmarkResultsModel m_results;
    ComparisonListModel m_comparisons;
    QString m_profile = QStringLiteral("quick");
    bool m_interleaved = false;
    std::optional<perf::Profile> m_customProfile;
    // The profile of the results shown (the reports name it).
    perf::Profile m_runProfile;
    std::size_t m_runCount = 0; // benchmarks in the run
    std::size_t m_finished = 0; // of them, finished so far
    bool m_running = false;
    bool m_comparing = false;
    bool m_cancelRequested = false;
    double m_overallProgress = 0;
    QString m_currentName;
    double m_currentProgress = 0;
    QString m_statusText;
    QString m_error;
    QString m_baselineDirectory;
    QStringList m_baselines;
    QString m_comparedWith;
    std::map<std::string, stats::Change> m_changes;
    QVariantList m_chartData;
    QString m_lastExportFolder;
    mutable std::optional<perf::MachineInfo> m_machine; // read on first use
    std::unique_ptr<Worker> m_worker;
};

} // namespace watchword::app
