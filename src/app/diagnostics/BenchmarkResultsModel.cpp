#include "app/diagnostics/BenchmarkResultsModel.h"

#include "perf/Published.h"
#include "perf/Report.h"

#include <QLocale>
#include <algorithm>
#include <cmath>

namespace watchword::app {

namespace {

// Three significant digits for numbers from 1 to 999.9.
QString threeDigits(double value)
{
    const int decimals = value >= 99.95 ? 0 : value >= 9.995 ? 1 : 2;
    return QString::number(value, 'f', decimals);
}

QString duration(double nanoseconds)
{
    return QString::fromStdString(perf::formatDuration(nanoseconds));
}

QString statusName(BenchmarkResultsModel::Status status)
{
    using Status = BenchmarkResultsModel::Status;
    switch (status) {
    case Status::Queued:
        return QStringLiteral("queued");
    case Status::Running:
        return QStringLiteral("running");
    case Status::Measured:
        return QStringLiteral("measured");
    case Status::Failed:
        return QStringLiteral("failed");
    case Status::Cancelled:
        return QStringLiteral("cancelled");
    case Status::Skipped:
        return QStringLiteral("skipped");
    }
    return {};
}

QString detailText(BenchmarkResultsModel::Status status, const QString& throughput,
                   const QString& sampling, const QString& error)
{
    using Status = BenchmarkResultsModel::Status;
    switch (status) {
    case Status::Measured: {
        const QString samplingText = BenchmarkResultsModel::tr("%1 sampling").arg(sampling);
        return throughput.isEmpty() ? samplingText
                                    : throughput + QStringLiteral(" \u00b7 ") + samplingText;
    }
    case Status::Queued:
        return BenchmarkResultsModel::tr("queued");
    case Status::Running:
        return BenchmarkResultsModel::tr("running\u2026");
    case Status::Failed:
        return BenchmarkResultsModel::tr("failed: %1").arg(error);
    case Status::Cancelled:
        return BenchmarkResultsModel::tr("cancelled");
    case Status::Skipped:
        return BenchmarkResultsModel::tr("not run");
    }
    return {};
}

BenchmarkResultsModel::Status statusOf(perf::Status status)
{
    using Status = BenchmarkResultsModel::Status;
    switch (status) {
    case perf::Status::Measured:
        return Status::Measured;
    case perf::Status::Failed:
        return Status::Failed;
    case perf::Status::Cancelled:
        return Status::Cancelled;
    }
    return Status::Failed;
}

const perf::Comparison* comparisonFor(const std::string& subject)
{
    for (const auto& comparison : perf::comparisons()) {
        if (comparison.subject == subject)
            return &comparison;
    }
    return nullptr;
}

} // namespace

QString formatRatio(const perf::ComparisonOutcome& outcome)
{
    if (outcome.comparison == nullptr || !(outcome.ratio > 0))
        return {};
    using Kind = perf::Comparison::Kind;
    if (outcome.comparison->kind == Kind::WithinBudget)
        return BenchmarkResultsModel::tr("%1 % of the budget")
            .arg(threeDigits(outcome.ratio * 100));
    // Both ratio kinds read as how much faster ours is than the reference.
    const double speedUp =
        outcome.comparison->kind == Kind::AtLeastFaster ? outcome.ratio : 1 / outcome.ratio;
    return speedUp >= 1 ? BenchmarkResultsModel::tr("%1× faster").arg(threeDigits(speedUp))
                        : BenchmarkResultsModel::tr("%1× slower").arg(threeDigits(1 / speedUp));
}

QString formatTarget(const perf::Comparison& comparison)
{
    using Kind = perf::Comparison::Kind;
    const QString reference = QString::fromStdString(comparison.reference);
    switch (comparison.kind) {
    case Kind::AtLeastFaster:
        return BenchmarkResultsModel::tr("at least %1× faster than %2")
            .arg(QString::number(comparison.target), reference);
    case Kind::AtMostSlower:
        return BenchmarkResultsModel::tr("at most %1× the time of %2")
            .arg(QString::number(comparison.target), reference);
    case Kind::WithinBudget:
        return BenchmarkResultsModel::tr("within %1").arg(duration(comparison.budgetNanoseconds));
    }
    return {};
}

QString verdictName(stats::Verdict verdict)
{
    switch (verdict) {
    case stats::Verdict::Improved:
        return QStringLiteral("improved");
    case stats::Verdict::Regressed:
        return QStringLiteral("regressed");
    case stats::Verdict::NoChange:
        return QStringLiteral("no change");
    }
    return {};
}

BenchmarkResultsModel::BenchmarkResultsModel(QObject* parent) : QAbstractListModel(parent) {}

void BenchmarkResultsModel::start(const std::vector<const perf::Benchmark*>& selection)
{
    beginResetModel();
    m_rows.clear();
    m_rows.reserve(selection.size());
    for (const auto* benchmark : selection) {
        Row row;
        row.name = QString::fromStdString(benchmark->name);
        row.description = QString::fromStdString(benchmark->description);
        row.isReference = benchmark->isReference();
        row.comparison = comparisonFor(benchmark->name);
        m_rows.push_back(std::move(row));
    }
    endResetModel();
    emit countChanged();
    emit summaryChanged();
}

void BenchmarkResultsModel::clear()
{
    start({});
}

void BenchmarkResultsModel::setRunning(int row)
{
    if (row < 0 || row >= rowCount() || m_rows[std::size_t(row)].status != Status::Queued)
        return;
    m_rows[std::size_t(row)].status = Status::Running;
    emit dataChanged(index(row), index(row), {StatusRole, DetailTextRole});
}

void BenchmarkResultsModel::setMeasurement(int row, perf::Measurement measurement)
{
    if (row < 0 || row >= rowCount())
        return;
    Row& entry = m_rows[std::size_t(row)];
    entry.status = statusOf(measurement.status);
    entry.measurement = std::move(measurement);
    emit dataChanged(index(row), index(row));
    updateRatios();
    emit summaryChanged();
}

void BenchmarkResultsModel::finish()
{
    bool complete = !m_rows.empty();
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        Row& row = m_rows[i];
        if (row.status == Status::Queued)
            row.status = Status::Skipped;
        else if (row.status == Status::Running)
            row.status = Status::Cancelled;
        else
            continue;
        complete = false;
        const int at = static_cast<int>(i);
        emit dataChanged(index(at), index(at), {StatusRole, DetailTextRole});
    }
    if (complete)
        m_lastComplete = m_rows;
    emit summaryChanged();
}

bool BenchmarkResultsModel::restoreLastComplete()
{
    if (m_lastComplete.empty())
        return false;
    beginResetModel();
    m_rows = m_lastComplete;
    endResetModel();
    emit countChanged();
    emit summaryChanged();
    return true;
}

void BenchmarkResultsModel::setChanges(const std::map<std::string, stats::Change>& changes)
{
    for (auto& row : m_rows) {
        const auto found = changes.find(row.name.toStdString());
        if (found == changes.end())
            row.change.reset();
        else
            row.change = found->second;
    }
    changedAll({HasChangeRole, ChangeRole, ChangeLowRole, ChangeHighRole, ChangeTextRole,
                ChangeIntervalTextRole, VerdictRole});
    emit summaryChanged();
}

std::vector<perf::Measurement> BenchmarkResultsModel::measurements() const
{
    std::vector<perf::Measurement> finished;
    for (const auto& row : m_rows) {
        if (row.measurement)
            finished.push_back(*row.measurement);
    }
    return finished;
}

std::map<std::string, double> BenchmarkResultsModel::typicalTimes() const
{
    std::map<std::string, double> times;
    for (const auto& row : m_rows) {
        if (row.status == Status::Measured && row.measurement)
            times[row.measurement->name] = row.measurement->typical().point;
    }
    return times;
}

int BenchmarkResultsModel::measuredCount() const
{
    return int(std::count_if(m_rows.begin(), m_rows.end(),
                             [](const Row& row) { return row.status == Status::Measured; }));
}

int BenchmarkResultsModel::failedCount() const
{
    return int(std::count_if(m_rows.begin(), m_rows.end(),
                             [](const Row& row) { return row.status == Status::Failed; }));
}

bool BenchmarkResultsModel::hasChanges() const
{
    return std::any_of(m_rows.begin(), m_rows.end(),
                       [](const Row& row) { return row.change.has_value(); });
}

void BenchmarkResultsModel::updateRatios()
{
    const auto times = typicalTimes();
    const auto outcomes = perf::evaluate(times);
    for (auto& row : m_rows) {
        row.outcome.reset();
        row.referencePoint = 0;
        if (row.comparison == nullptr)
            continue;
        for (const auto& outcome : outcomes) {
            if (outcome.comparison == row.comparison)
                row.outcome = outcome;
        }
        if (const auto found = times.find(row.comparison->reference); found != times.end())
            row.referencePoint = found->second;
    }
    changedAll({ReferencePointRole, ReferenceTextRole, HasRatioRole, RatioRole, RatioTextRole,
                TargetMetRole});
}

void BenchmarkResultsModel::changedAll(const QList<int>& roles)
{
    if (!m_rows.empty())
        emit dataChanged(index(0), index(rowCount() - 1), roles);
}

int BenchmarkResultsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

QVariant BenchmarkResultsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Row& row = m_rows[std::size_t(index.row())];
    const perf::Measurement* measurement = row.measurement ? &*row.measurement : nullptr;
    const bool measured = row.status == Status::Measured && measurement != nullptr;
    const stats::Estimate typical = measured ? measurement->typical() : stats::Estimate{};
    const stats::Change change = row.change.value_or(stats::Change{});
    switch (role) {
    case Qt::DisplayRole:
    case NameRole:
        return row.name;
    case DescriptionRole:
        return row.description;
    case IsReferenceRole:
        return row.isReference;
    case StatusRole:
        return statusName(row.status);
    case ErrorRole:
        return measurement ? QString::fromStdString(measurement->error) : QString();
    case SamplesRole:
        return measured ? qulonglong(measurement->estimates.samples) : 0;
    case SamplingRole:
        if (!measured)
            return QString();
        return measurement->sampling == perf::Sampling::Linear ? QStringLiteral("linear")
                                                               : QStringLiteral("flat");
    case LowRole:
        return typical.low;
    case PointRole:
        return typical.point;
    case HighRole:
        return typical.high;
    case LowTextRole:
        return measured ? duration(typical.low) : QString();
    case PointTextRole:
        return measured ? duration(typical.point) : QString();
    case HighTextRole:
        return measured ? duration(typical.high) : QString();
    case MildOutliersRole:
        return measured ? qulonglong(measurement->estimates.outliers.mild()) : 0;
    case SevereOutliersRole:
        return measured ? qulonglong(measurement->estimates.outliers.severe()) : 0;
    case ThroughputRole:
        if (!measured || measurement->unitsPerIteration <= 0 || !(typical.point > 0))
            return QString();
        return QString::fromStdString(perf::formatThroughput(
            measurement->unitsPerIteration * 1e9 / typical.point, measurement->unit));
    case ReferenceNameRole:
        return row.comparison ? QString::fromStdString(row.comparison->reference) : QString();
    case ReferencePointRole:
        return row.referencePoint;
    case ReferenceTextRole:
        if (row.comparison == nullptr)
            return QString();
        if (row.comparison->kind == perf::Comparison::Kind::WithinBudget)
            return tr("budget %1").arg(duration(row.comparison->budgetNanoseconds));
        return row.referencePoint > 0 ? duration(row.referencePoint) : QString();
    case HasRatioRole:
        return row.outcome.has_value();
    case RatioRole:
        return row.outcome ? row.outcome->ratio : 0.0;
    case RatioTextRole:
        return row.outcome ? formatRatio(*row.outcome) : QString();
    case TargetTextRole:
        return row.comparison ? formatTarget(*row.comparison) : QString();
    case TargetMetRole:
        return row.outcome && row.outcome->met;
    case HasChangeRole:
        return row.change.has_value();
    case ChangeRole:
        return change.relative.point;
    case ChangeLowRole:
        return change.relative.low;
    case ChangeHighRole:
        return change.relative.high;
    case ChangeTextRole:
        return row.change ? QString::fromStdString(perf::formatChange(change.relative.point))
                          : QString();
    case ChangeIntervalTextRole:
        return row.change
                   ? QStringLiteral("%1 \u2026 %2")
                         .arg(QString::fromStdString(perf::formatChange(change.relative.low)),
                              QString::fromStdString(perf::formatChange(change.relative.high)))
                   : QString();
    case VerdictRole:
        return row.change ? verdictName(change.verdict) : QString();
    case PublishedTextRole:
    case PublishedSourceRole:
    case PublishedRatioTextRole: {
        const auto* figure = perf::publishedFigure(row.name.toStdString());
        if (figure == nullptr)
            return QString();
        if (role == PublishedTextRole)
            return duration(figure->point);
        if (role == PublishedSourceRole)
            return QString::fromStdString(figure->source);
        if (!measured || !(typical.point > 0))
            return QString();
        // "0.41x"; far below that, as a fraction: "1/1,600".
        const double ratio = typical.point / figure->point;
        if (ratio >= 0.1)
            return QStringLiteral("%1\u00d7").arg(ratio, 0, 'f', 2);
        return QStringLiteral("1/%1").arg(
            QLocale(QLocale::English).toString(qlonglong(std::llround(1 / ratio))));
    }
    case DetailTextRole:
        return detailText(row.status, data(index, ThroughputRole).toString(),
                          data(index, SamplingRole).toString(), data(index, ErrorRole).toString());
    default:
        return {};
    }
}

QHash<int, QByteArray> BenchmarkResultsModel::roleNames() const
{
    return {{NameRole, "name"},
            {DescriptionRole, "description"},
            {IsReferenceRole, "isReference"},
            {StatusRole, "status"},
            {ErrorRole, "error"},
            {SamplesRole, "samples"},
            {SamplingRole, "sampling"},
            {LowRole, "low"},
            {PointRole, "point"},
            {HighRole, "high"},
            {LowTextRole, "lowText"},
            {PointTextRole, "pointText"},
            {HighTextRole, "highText"},
            {MildOutliersRole, "mildOutliers"},
            {SevereOutliersRole, "severeOutliers"},
            {ThroughputRole, "throughput"},
            {ReferenceNameRole, "referenceName"},
            {ReferencePointRole, "referencePoint"},
            {ReferenceTextRole, "referenceText"},
            {HasRatioRole, "hasRatio"},
            {RatioRole, "ratio"},
            {RatioTextRole, "ratioText"},
            {TargetTextRole, "targetText"},
            {TargetMetRole, "targetMet"},
            {HasChangeRole, "hasChange"},
            {ChangeRole, "change"},
            {ChangeLowRole, "changeLow"},
            {ChangeHighRole, "changeHigh"},
            {ChangeTextRole, "changeText"},
            {ChangeIntervalTextRole, "changeIntervalText"},
            {VerdictRole, "verdict"},
            {PublishedTextRole, "publishedText"},
            {PublishedSourceRole, "publishedSource"},
            {PublishedRatioTextRole, "publishedRatioText"},
            {DetailTextRole, "detailText"}};
}

} // namespace watchword::app
