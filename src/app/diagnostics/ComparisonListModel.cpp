#include "app/diagnostics/ComparisonListModel.h"

#include "app/common/Notify.h"
#include "app/diagnostics/BenchmarkResultsModel.h"

#include <QVariantMap>
#include <algorithm>
#include <set>

namespace watchword::app {

ComparisonListModel::ComparisonListModel(QObject* parent)
    : QAbstractListModel(parent), m_comparisons(perf::comparisons()),
      m_outcomes(m_comparisons.size())
{}

void ComparisonListModel::update(const std::map<std::string, double>& times)
{
    std::fill(m_outcomes.begin(), m_outcomes.end(), std::nullopt);
    for (const auto& outcome : perf::evaluate(times)) {
        const auto at = std::size_t(outcome.comparison - m_comparisons.data());
        if (at < m_outcomes.size())
            m_outcomes[at] = outcome;
    }
    if (!m_outcomes.empty())
        emit dataChanged(index(0), index(rowCount() - 1),
                         {MeasuredRole, RatioRole, RatioTextRole, MetRole});
    emit measuredChanged();

    QVariantList bars;
    std::set<std::string> shown;
    for (const auto& comparison : m_comparisons) {
        if (comparison.reference.empty() || shown.count(comparison.subject) > 0)
            continue;
        const auto ours = times.find(comparison.subject);
        const auto theirs = times.find(comparison.reference);
        if (ours == times.end() || theirs == times.end())
            continue;
        shown.insert(comparison.subject);
        bars.append(
            QVariantMap{{QStringLiteral("name"), QString::fromStdString(comparison.subject)},
                        {QStringLiteral("reference"), QString::fromStdString(comparison.reference)},
                        {QStringLiteral("ours"), ours->second},
                        {QStringLiteral("theirs"), theirs->second}});
    }
    assignAndNotify(this, m_bars, std::move(bars), &ComparisonListModel::barsChanged);
}

int ComparisonListModel::measuredCount() const
{
    return int(std::count_if(m_outcomes.begin(), m_outcomes.end(),
                             [](const auto& outcome) { return outcome.has_value(); }));
}

int ComparisonListModel::metCount() const
{
    return int(std::count_if(m_outcomes.begin(), m_outcomes.end(),
                             [](const auto& outcome) { return outcome && outcome->met; }));
}

int ComparisonListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_comparisons.size());
}

QVariant ComparisonListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto& comparison = m_comparisons[std::size_t(index.row())];
    const auto& outcome = m_outcomes[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case SubjectRole:
        return QString::fromStdString(comparison.subject);
    case ReferenceRole:
        return QString::fromStdString(comparison.reference);
    case WhatRole:
        return QString::fromStdString(comparison.what);
    case SourceRole:
        return QString::fromStdString(comparison.source);
    case TargetTextRole:
        return formatTarget(comparison);
    case MeasuredRole:
        return outcome.has_value();
    case RatioRole:
        return outcome ? outcome->ratio : 0.0;
    case RatioTextRole:
        return outcome ? formatRatio(*outcome) : QString();
    case MetRole:
        return outcome && outcome->met;
    default:
        return {};
    }
}

QHash<int, QByteArray> ComparisonListModel::roleNames() const
{
    return {{SubjectRole, "subject"}, {ReferenceRole, "reference"},   {WhatRole, "what"},
            {SourceRole, "source"},   {TargetTextRole, "targetText"}, {MeasuredRole, "measured"},
            {RatioRole, "ratio"},     {RatioTextRole, "ratioText"},   {MetRole, "met"}};
}

} // namespace watchword::app
