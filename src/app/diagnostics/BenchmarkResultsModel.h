// A benchmark run's results as a list model for the Diagnostics view: one
// row per benchmark of the run, in run order, filled in as each one ends.
//
// A row starts "queued", is "running" while measured, and ends "measured",
// "failed" (prepare() refused: see error), "cancelled" (stopped before its
// samples were complete) or "skipped" (the run was cancelled before it
// started). A measured row has its low / point / high (the slope for linear
// sampling, the mean for flat), its outliers and, when the benchmark counts
// units, its throughput. Its reference's point and the ratio come from
// perf::comparisons() once both sides are measured; the change against a
// baseline from setChanges().
#pragma once

#include "perf/Benchmark.h"
#include "perf/Comparisons.h"
#include "perf/Runner.h"
#include "stats/Estimates.h"

#include <QAbstractListModel>
#include <QString>
#include <QtQml/qqmlregistration.h>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace watchword::app {

// A ratio of two benchmarks' times for the reader, "3.20× faster" or "1.45×
// slower"; for a budget, the share of it used, "42 % of the budget".
[[nodiscard]] QString formatRatio(const perf::ComparisonOutcome& outcome);
// What a comparison aims at: "at least 2× faster than ref/…", "within 1 s".
[[nodiscard]] QString formatTarget(const perf::Comparison& comparison);
[[nodiscard]] QString verdictName(stats::Verdict verdict);

class BenchmarkResultsModel : public QAbstractListModel
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("results come from the DiagnosticsController")
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
    // Rows measured, failed, cancelled so far.
    Q_PROPERTY(int measuredCount READ measuredCount NOTIFY summaryChanged)
    Q_PROPERTY(int failedCount READ failedCount NOTIFY summaryChanged)
    Q_PROPERTY(bool hasChanges READ hasChanges NOTIFY summaryChanged)

public:
    enum class Status { Queued, Running, Measured, Failed, Cancelled, Skipped };

    enum Role {
        NameRole = Qt::UserRole + 1,
        DescriptionRole,
        IsReferenceRole,
        StatusRole, // "queued", "running", "measured", "failed", "cancelled", "skipped"
        ErrorRole,
        SamplesRole,
        SamplingRole, // "linear", "flat"; "" until measured
        LowRole,      // nanoseconds per iteration
        PointRole,
        HighRole,
        LowTextRole, // formatted: "1.17 µs"
        PointTextRole,
        HighTextRole,
        MildOutliersRole,
        SevereOutliersRole,
        ThroughputRole,    // "1.23 M rounds/s"; "" without a unit
        ReferenceNameRole, // the benchmark compared with; "" for none
        ReferencePointRole,
        ReferenceTextRole, // its point, formatted; or the budget
        HasRatioRole,
        RatioRole, // as perf::evaluate() gives it
        RatioTextRole,
        TargetTextRole,
        TargetMetRole,
        HasChangeRole,
        ChangeRole, // relative: -0.12 for 12 % faster
        ChangeLowRole,
        ChangeHighRole,
        ChangeTextRole,         // "-12.3 %"
        ChangeIntervalTextRole, // "-14.0 % … -10.1 %"
        VerdictRole,            // "improved", "regressed", "no change"; "" without a change
        PublishedTextRole,      // the reference document's own figure ("3.21 ms"), or ""
        PublishedSourceRole,    // which document, on which machine
        PublishedRatioTextRole, // ours over theirs ("0.41x"), once measured
        // The line under the name: throughput and sampling once measured
        // ("1.23 M rounds/s · linear sampling"), else the state ("queued",
        // "failed: <error>", "not run" for skipped).
        DetailTextRole,
    };

    explicit BenchmarkResultsModel(QObject* parent = nullptr);

    // A new run: one queued row per benchmark; any comparison is dropped.
    void start(const std::vector<const perf::Benchmark*>& selection);
    void clear();
    void setRunning(int row);
    // The measurement of row (run order); the ratios are worked out again.
    void setMeasurement(int row, perf::Measurement measurement);
    // After a run ends: rows still queued or running were never completed.
    // A run that completed every row is kept as the last complete run.
    void finish();
    // Shows the last complete run again (after a cancelled one); false if
    // there was none.
    bool restoreLastComplete();
    // A baseline comparison's changes by benchmark name (empty: none).
    void setChanges(const std::map<std::string, stats::Change>& changes);

    // The finished rows' measurements (measured, failed, cancelled), in run order.
    std::vector<perf::Measurement> measurements() const;
    // Point estimates of the measured rows, for perf::evaluate().
    std::map<std::string, double> typicalTimes() const;
    Status status(int row) const { return m_rows[std::size_t(row)].status; }

    int measuredCount() const;
    int failedCount() const;
    bool hasChanges() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

signals:
    void countChanged();
    void summaryChanged();

private:
    struct Row
    {
        QString name;
        QString description;
        bool isReference = false;
        Status status = Status::Queued;
        std::optional<perf::Measurement> measurement;
        // The first comparison with this row as its subject, if any.
        const perf::Comparison* comparison = nullptr;
        std::optional<perf::ComparisonOutcome> outcome;
        double referencePoint = 0; // 0: not measured (yet)
        std::optional<stats::Change> change;
    };

    void updateRatios();
    void changedAll(const QList<int>& roles);

    std::vector<Row> m_rows;
    std::vector<Row> m_lastComplete;
};

} // namespace watchword::app
