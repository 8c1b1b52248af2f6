// The Diagnostics view's benchmarks, as the page sees them: the catalogue to
// choose from, the results and the ratios they give, this machine, and the
// one status line and error the parts write to. The work is done by parts of
// its own, which QML reaches through it:
//
// - run (BenchmarkRun): the profile, and a run of the chosen benchmarks on
//   a thread of its own, with progress and cancel;
// - baselines (Baselines): the results saved under a name, and compared
//   with a saved one;
// - reports (ReportExport): the report of the results, written to a file or
//   copied.
//
// The measuring, the statistics and the reports are perf's and stats' (the
// same as watchword-cli bench); this is the glue that keeps them off the
// GUI thread. A run and a comparison wait for each other (busy).
#pragma once

#include "app/diagnostics/Baselines.h"
#include "app/diagnostics/BenchmarkChoiceModel.h"
#include "app/diagnostics/BenchmarkResultsModel.h"
#include "app/diagnostics/BenchmarkRun.h"
#include "app/diagnostics/ComparisonListModel.h"
#include "app/diagnostics/ReportExport.h"
#include "perf/Benchmark.h"
#include "perf/Machine.h"
#include "perf/Report.h"

#include <QObject>
#include <QString>
#include <QVariantMap>
#include <QtQml/qqmlregistration.h>
#include <optional>
#include <vector>

namespace watchword::app {

class DiagnosticsController : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(BenchmarkChoiceModel* benchmarks READ benchmarks CONSTANT)
    Q_PROPERTY(BenchmarkResultsModel* results READ results CONSTANT)
    Q_PROPERTY(ComparisonListModel* comparisons READ comparisons CONSTANT)
    Q_PROPERTY(watchword::app::BenchmarkRun* run READ run CONSTANT)
    Q_PROPERTY(watchword::app::Baselines* baselines READ baselines CONSTANT)
    Q_PROPERTY(watchword::app::ReportExport* reports READ reports CONSTANT)
    // Running or comparing: runs, comparisons and saves wait for the other.
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QString statusText READ statusText NOTIFY statusTextChanged)
    // The last thing that went wrong (a bad baseline name, a file that could
    // not be written); "" if nothing.
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
    // This machine, as the reports' first line shows it: cpuModel,
    // logicalCpus, shaNi, aesNi, os, kernel, compiler, buildType, openssl,
    // secp256k1, qt, and line (all of it on one line).
    Q_PROPERTY(QVariantMap systemInfo READ systemInfo CONSTANT)

public:
    explicit DiagnosticsController(QObject* parent = nullptr);
    ~DiagnosticsController() override;

    // For tests: benchmarks instead of perf::catalogue(). Ignored while busy.
    void setBenchmarks(std::vector<perf::Benchmark> benchmarks);

    BenchmarkChoiceModel* benchmarks() { return &m_choices; }
    BenchmarkResultsModel* results() { return &m_results; }
    ComparisonListModel* comparisons() { return &m_comparisons; }
    BenchmarkRun* run() { return &m_run; }
    Baselines* baselines() { return &m_baselines; }
    ReportExport* reports() { return &m_reports; }
    bool busy() const { return m_busy; }
    const QString& statusText() const { return m_statusText; }
    const QString& error() const { return m_error; }
    QVariantMap systemInfo() const;

    Q_INVOKABLE void clearError();

    // --- For the parts.
    // The benchmarks the rows of benchmarks() stand for.
    const std::vector<perf::Benchmark>& catalogue() const { return m_benchmarks; }
    // The report of the results so far, as the exports and baselines write it.
    perf::Report report() const;
    void setStatusText(QString text);
    void setError(QString error);
    // The results changed: the ratios and the chart's bars follow.
    void resultsChanged();

signals:
    void busyChanged();
    void statusTextChanged();
    void errorChanged();

private:
    const perf::MachineInfo& machine() const;
    void updateBusy();

    std::vector<perf::Benchmark> m_benchmarks;
    BenchmarkChoiceModel m_choices;
    BenchmarkResultsModel m_results;
    ComparisonListModel m_comparisons;
    bool m_busy = false;
    QString m_statusText;
    QString m_error;
    mutable std::optional<perf::MachineInfo> m_machine; // read on first use
    // The parts last: destroyed first, so that a worker still running is
    // cancelled and joined while the benchmarks it measures are there.
    BenchmarkRun m_run;
    Baselines m_baselines;
    ReportExport m_reports;
};

} // namespace watchword::app
