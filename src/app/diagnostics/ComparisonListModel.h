// Every ratio and budget Watchword claims (perf::comparisons()) as a list
// model for the Diagnostics view: what it compares, its target, and, once
// both sides of it ran, the measured ratio and whether the target was met;
// and those with a reference whose both sides ran, as the chart's bars.
#pragma once

#include "perf/Comparisons.h"

#include <QAbstractListModel>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace watchword::app {

class ComparisonListModel : public QAbstractListModel
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the comparisons come from the DiagnosticsController")
    Q_PROPERTY(int count READ rowCount CONSTANT)
    Q_PROPERTY(int measuredCount READ measuredCount NOTIFY measuredChanged)
    Q_PROPERTY(int metCount READ metCount NOTIFY measuredChanged)
    // The chart's bars: one {name, reference, ours, theirs} (nanoseconds per
    // iteration) per subject with a reference, both sides measured.
    Q_PROPERTY(QVariantList bars READ bars NOTIFY barsChanged)

public:
    enum Role {
        SubjectRole = Qt::UserRole + 1,
        ReferenceRole, // a benchmark name; "" for a budget
        WhatRole,
        SourceRole,
        TargetTextRole,
        MeasuredRole,
        RatioRole,
        RatioTextRole,
        MetRole,
    };

    explicit ComparisonListModel(QObject* parent = nullptr);

    // Works every comparison out again from the point estimates by name.
    void update(const std::map<std::string, double>& times);

    int measuredCount() const;
    int metCount() const;
    const QVariantList& bars() const { return m_bars; }

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

signals:
    void measuredChanged();
    void barsChanged();

private:
    const std::vector<perf::Comparison>& m_comparisons;
    std::vector<std::optional<perf::ComparisonOutcome>> m_outcomes; // one per comparison
    QVariantList m_bars;
};

} // namespace watchword::app
