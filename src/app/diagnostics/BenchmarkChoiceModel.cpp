#include "app/diagnostics/BenchmarkChoiceModel.h"

#include "app/common/Notify.h"

#include <regex>

namespace watchword::app {

BenchmarkChoiceModel::BenchmarkChoiceModel(QObject* parent) : QAbstractListModel(parent) {}

void BenchmarkChoiceModel::setBenchmarks(const std::vector<perf::Benchmark>& benchmarks)
{
    beginResetModel();
    m_rows.clear();
    m_rows.reserve(benchmarks.size());
    for (const auto& benchmark : benchmarks)
        m_rows.push_back({QString::fromStdString(benchmark.name),
                          QString::fromStdString(benchmark.description),
                          QString::fromStdString(benchmark.unit), benchmark.isReference(), true});
    endResetModel();
    emit countChanged();
    recount();
}

std::vector<int> BenchmarkChoiceModel::checkedRows() const
{
    std::vector<int> rows;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].checked)
            rows.push_back(static_cast<int>(i));
    }
    return rows;
}

void BenchmarkChoiceModel::setChecked(int row, bool checked)
{
    if (row < 0 || row >= rowCount() || m_rows[std::size_t(row)].checked == checked)
        return;
    m_rows[std::size_t(row)].checked = checked;
    emit dataChanged(index(row), index(row), {CheckedRole});
    recount();
}

template <typename Wanted> void BenchmarkChoiceModel::checkWhere(Wanted wanted)
{
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const bool checked = wanted(m_rows[i]);
        if (m_rows[i].checked == checked)
            continue;
        m_rows[i].checked = checked;
        const int row = static_cast<int>(i);
        emit dataChanged(index(row), index(row), {CheckedRole});
    }
    recount();
}

void BenchmarkChoiceModel::selectAll()
{
    checkWhere([](const Entry&) { return true; });
}

void BenchmarkChoiceModel::selectNone()
{
    checkWhere([](const Entry&) { return false; });
}

bool BenchmarkChoiceModel::selectMatching(const QString& filter)
{
    std::regex expression;
    try {
        expression = std::regex(filter.toStdString(),
                                std::regex::ECMAScript | std::regex::icase | std::regex::nosubs);
    } catch (const std::regex_error& error) {
        setFilterError(tr("Not a valid expression: %1").arg(QString::fromLocal8Bit(error.what())));
        return false;
    }
    setFilterError({});
    checkWhere([&](const Entry& entry) {
        return std::regex_search(entry.name.toStdString(), expression);
    });
    return true;
}

int BenchmarkChoiceModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

QVariant BenchmarkChoiceModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Entry& entry = m_rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case NameRole:
        return entry.name;
    case DescriptionRole:
        return entry.description;
    case IsReferenceRole:
        return entry.isReference;
    case UnitRole:
        return entry.unit;
    case Qt::CheckStateRole:
        return entry.checked ? Qt::Checked : Qt::Unchecked;
    case CheckedRole:
        return entry.checked;
    default:
        return {};
    }
}

bool BenchmarkChoiceModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) ||
        (role != CheckedRole && role != Qt::CheckStateRole))
        return false;
    const bool checked = role == CheckedRole ? value.toBool() : value.toInt() == Qt::Checked;
    setChecked(index.row(), checked);
    return true;
}

Qt::ItemFlags BenchmarkChoiceModel::flags(const QModelIndex& index) const
{
    return QAbstractListModel::flags(index) | Qt::ItemIsUserCheckable | Qt::ItemIsEditable;
}

QHash<int, QByteArray> BenchmarkChoiceModel::roleNames() const
{
    return {{NameRole, "name"},
            {DescriptionRole, "description"},
            {IsReferenceRole, "isReference"},
            {UnitRole, "unit"},
            {CheckedRole, "checked"}};
}

void BenchmarkChoiceModel::setFilterError(QString error)
{
    assignAndNotify(this, m_filterError, std::move(error),
                    &BenchmarkChoiceModel::filterErrorChanged);
}

void BenchmarkChoiceModel::recount()
{
    int checked = 0;
    for (const auto& entry : m_rows)
        checked += entry.checked ? 1 : 0;
    if (checked == m_checkedCount)
        return;
    m_checkedCount = checked;
    emit checkedCountChanged();
}

} // namespace watchword::app
