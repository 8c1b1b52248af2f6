#include "app/interop/ImportPreviewModel.h"

#include <algorithm>

namespace watchword::app {

ImportPreviewModel::ImportPreviewModel(QObject* parent) : QAbstractListModel(parent) {}

void ImportPreviewModel::setRows(std::vector<Row> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
    emit countChanged();
    emit checkedCountChanged();
}

void ImportPreviewModel::clear()
{
    setRows({});
}

int ImportPreviewModel::checkedCount() const
{
    return int(
        std::count_if(m_rows.begin(), m_rows.end(), [](const Row& row) { return row.checked; }));
}

int ImportPreviewModel::unsupportedCount() const
{
    return int(std::count_if(m_rows.begin(), m_rows.end(),
                             [](const Row& row) { return !row.importable; }));
}

std::vector<std::size_t> ImportPreviewModel::checkedRows() const
{
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].checked)
            rows.push_back(i);
    return rows;
}

void ImportPreviewModel::setChecked(int row, bool checked)
{
    if (row < 0 || row >= count() || m_rows[std::size_t(row)].checked == checked ||
        !m_rows[std::size_t(row)].importable)
        return;
    m_rows[std::size_t(row)].checked = checked;
    const QModelIndex at = index(row);
    emit dataChanged(at, at, {CheckedRole});
    emit checkedCountChanged();
}

void ImportPreviewModel::setAllChecked(bool checked)
{
    for (int row = 0; row < count(); ++row)
        setChecked(row, checked);
}

int ImportPreviewModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : count();
}

QVariant ImportPreviewModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= count())
        return {};
    const Row& row = m_rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case IssuerRole:
        return row.issuer;
    case AccountNameRole:
        return row.accountName;
    case KindRole:
        return row.kind;
    case MatchRole:
        return row.match;
    case MatchTextRole:
        return row.matchText;
    case CheckedRole:
        return row.checked;
    case TagsRole:
        return row.tags;
    case ImportableRole:
        return row.importable;
    default:
        return {};
    }
}

bool ImportPreviewModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || role != CheckedRole)
        return false;
    setChecked(index.row(), value.toBool());
    return true;
}

Qt::ItemFlags ImportPreviewModel::flags(const QModelIndex& index) const
{
    const auto flags = QAbstractListModel::flags(index);
    if (index.isValid() && index.row() < count() && !m_rows[std::size_t(index.row())].importable)
        return flags & ~Qt::ItemIsEnabled;
    return flags | Qt::ItemIsUserCheckable;
}

QHash<int, QByteArray> ImportPreviewModel::roleNames() const
{
    return {{IssuerRole, "issuer"}, {AccountNameRole, "accountName"}, {KindRole, "kind"},
            {MatchRole, "match"},   {MatchTextRole, "matchText"},     {CheckedRole, "checked"},
            {TagsRole, "tags"},     {ImportableRole, "importable"}};
}

} // namespace watchword::app
