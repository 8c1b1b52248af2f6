// The benchmarks the Diagnostics view can run, as a checkable list: the
// catalogue (or a list a test injects), each with whether the next run
// includes it.
#pragma once

#include "perf/Benchmark.h"

#include <QAbstractListModel>
#include <QString>
#include <QtQml/qqmlregistration.h>
#include <vector>

namespace watchword::app {

class BenchmarkChoiceModel : public QAbstractListModel
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the benchmarks to choose from come from the DiagnosticsController")
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
    Q_PROPERTY(int checkedCount READ checkedCount NOTIFY checkedCountChanged)
    // Why the last selectMatching() expression did not compile; "" if it did.
    Q_PROPERTY(QString filterError READ filterError NOTIFY filterErrorChanged)

public:
    enum Role {
        NameRole = Qt::UserRole + 1,
        DescriptionRole,
        IsReferenceRole,
        UnitRole,
        CheckedRole, // writable
    };

    explicit BenchmarkChoiceModel(QObject* parent = nullptr);

    // Replaces the rows; every benchmark starts checked.
    void setBenchmarks(const std::vector<perf::Benchmark>& benchmarks);
    // The rows checked, in list order.
    std::vector<int> checkedRows() const;

    int checkedCount() const { return m_checkedCount; }
    const QString& filterError() const { return m_filterError; }

    Q_INVOKABLE void setChecked(int row, bool checked);
    Q_INVOKABLE void selectAll();
    Q_INVOKABLE void selectNone();
    // Checks the benchmarks whose names match the regular expression
    // (ECMAScript, anywhere in the name, ignoring case: as `watchword-cli
    // bench --filter` reads it) and unchecks the others. False, and nothing
    // changed, if the expression does not compile.
    Q_INVOKABLE bool selectMatching(const QString& filter);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QHash<int, QByteArray> roleNames() const override;

signals:
    void countChanged();
    void checkedCountChanged();
    void filterErrorChanged();

private:
    struct Entry
    {
        QString name;
        QString description;
        QString unit;
        bool isReference = false;
        bool checked = true;
    };

    // Sets every row's checked flag to wanted(row), signalling the rows that changed.
    template <typename Wanted> void checkWhere(Wanted wanted);
    void setFilterError(QString error);
    void recount();

    std::vector<Entry> m_rows;
    int m_checkedCount = 0;
    QString m_filterError;
};

} // namespace watchword::app
