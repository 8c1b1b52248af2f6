// A run of the chosen benchmarks with a profile, on a WorkerThread: the
// results fill in as each benchmark ends (the DiagnosticsController's
// results), with progress on the way.
//
// The worker hands progress and every finished benchmark to the GUI thread
// as queued calls; the GUI thread never waits for it. The runner reports up
// to fifty steps a phase; four a second reach the GUI, and one as each
// benchmark starts. cancel() sets a flag the runner checks before every
// sample, so a run stops within one sample.
#pragma once

#include "app/diagnostics/WorkerThread.h"
#include "perf/Runner.h"

#include <QObject>
#include <QString>
#include <QtQml/qqmlregistration.h>
#include <cstddef>
#include <optional>
#include <vector>

namespace watchword::app {

class DiagnosticsController;

class BenchmarkRun : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("a run belongs to the DiagnosticsController")
    // "quick" or "full" (a test's own profile shows its name).
    Q_PROPERTY(QString profile READ profile WRITE setProfile NOTIFY profileChanged)
    // Samples of all the chosen benchmarks taken in turn (perf::runInterleaved):
    // sturdier ratios, results only at the end.
    Q_PROPERTY(bool interleaved READ interleaved WRITE setInterleaved NOTIFY interleavedChanged)
    Q_PROPERTY(bool running READ running NOTIFY runningChanged)
    Q_PROPERTY(double overallProgress READ overallProgress NOTIFY progressChanged)
    Q_PROPERTY(QString currentName READ currentName NOTIFY progressChanged)
    Q_PROPERTY(double currentProgress READ currentProgress NOTIFY progressChanged)

public:
    explicit BenchmarkRun(DiagnosticsController& diagnostics);
    ~BenchmarkRun() override;

    // For tests: a profile of their own.
    void setCustomProfile(perf::Profile profile);
    // The profile the results shown were measured with (the reports name it).
    const perf::Profile& resultsProfile() const { return m_runProfile; }

    QString profile() const;
    void setProfile(const QString& name);
    bool interleaved() const { return m_interleaved; }
    void setInterleaved(bool interleaved);
    bool running() const { return m_running; }
    double overallProgress() const { return m_overallProgress; }
    const QString& currentName() const { return m_currentName; }
    double currentProgress() const { return m_currentProgress; }

    // Runs the checked benchmarks with the profile. False (and error set) if
    // none is checked or the view is busy.
    Q_INVOKABLE bool start();
    // Chooses the benchmarks whose names match filter and runs them (`watchword
    // --diagnostics-run FILTER`, the documentation's screenshot). False if
    // the filter does not compile or the run cannot start.
    Q_INVOKABLE bool startMatching(const QString& filter);
    // Stops the run within one sample; the benchmark it interrupts is
    // "cancelled", those after it "skipped".
    Q_INVOKABLE void cancel();

signals:
    void profileChanged();
    void interleavedChanged();
    void runningChanged();
    void progressChanged();
    // A run began: the results are new, and compared with nothing.
    void started();
    // A run ended: completed, or stopped by cancel().
    void finished(bool cancelled);

private:
    perf::Profile effectiveProfile() const;
    void showProgress(const perf::Progress& progress);
    void measured(perf::Measurement measurement);
    void ended(std::vector<perf::Measurement> measurements, QString failure);
    void setRunning(bool running);

    DiagnosticsController& m_diagnostics;
    QString m_profile = QStringLiteral("quick");
    bool m_interleaved = false;
    std::optional<perf::Profile> m_customProfile;
    perf::Profile m_runProfile;
    std::size_t m_runCount = 0; // benchmarks in the run
    std::size_t m_finished = 0; // of them, finished so far
    bool m_running = false;
    bool m_cancelRequested = false;
    double m_overallProgress = 0;
    QString m_currentName;
    double m_currentProgress = 0;
    // Last: joined before the rest goes.
    WorkerThread m_worker;
};

} // namespace watchword::app
