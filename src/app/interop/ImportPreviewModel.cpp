#include "app/interop/ImportPreviewModel.h"

#include "app/codes/AccountListModel.h"
#include "interop/importers/Import.h"
#include "interop/importers/ImportPlan.h"
#include "otp/OtpParameters.h"

#include <algorithm>
#include <utility>

namespace watchword::app {

ImportPreviewModel::ImportPreviewModel(QObject* parent) : QAbstractListModel(parent) {}

void ImportPreviewModel::show(const importers::Imported& imported,
                              const std::vector<importers::PlannedAccount>& plan)
{
    std::vector<Row> rows;
    rows.reserve(plan.size() + imported.skipped.size());
    for (const auto& planned : plan) {
        const auto& account = imported.accounts[planned.index];
        Row row;
        row.issuer = QString::fromStdString(account.issuer);
        row.accountName = QString::fromStdString(account.accountName);
        const auto kind = otp::kindTitle(account.parameters.kind);
        row.kind = QString::fromLatin1(kind.data(), qsizetype(kind.size()));
        row.tags = toQStringList(account.tags);
        switch (planned.match) {
        case importers::ImportMatch::New:
            row.match = QStringLiteral("new");
            row.matchText = tr("New");
            break;
        case importers::ImportMatch::Duplicate:
            row.match = QStringLiteral("duplicate");
            row.matchText = planned.earlierEntry
                                ? tr("Repeats entry %1 of this file").arg(*planned.earlierEntry + 1)
                                : tr("Already in the vault");
            row.checked = false;
            break;
        case importers::ImportMatch::SameName:
            row.match = QStringLiteral("same-name");
            row.matchText = tr("Same name, different secret");
            break;
        }
        rows.push_back(std::move(row));
    }
    for (const auto& skipped : imported.skipped) {
        Row row;
        row.issuer = skipped.name.empty() ? tr("Entry %1").arg(skipped.entry + 1)
                                          : QString::fromStdString(skipped.name);
        row.accountName = tr("entry %1 of the file").arg(skipped.entry + 1);
        row.match = QStringLiteral("unsupported");
        row.matchText = tr("Cannot import: %1").arg(QString::fromStdString(skipped.why));
        row.checked = false;
        row.importable = false;
        rows.push_back(std::move(row));
    }
    QStringList warnings;
    for (const auto& warning : imported.warnings)
        warnings << QString::fromStdString(warning);
    setRows(std::move(rows), std::move(warnings));
}

void ImportPreviewModel::setRows(std::vector<Row> rows, QStringList warnings)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_warnings = std::move(warnings);
    endResetModel();
    emit countChanged();
    emit checkedCountChanged();
}

void ImportPreviewModel::clear()
{
    setRows({}, {});
}

QString ImportPreviewModel::summary() const
{
    const int unsupported = unsupportedCount();
    const int accounts = count() - unsupported;
    QString text =
        accounts == 1 ? tr("1 account in the file") : tr("%1 accounts in the file").arg(accounts);
    text += tr(", %1 ticked").arg(checkedCount());
    if (unsupported == 1)
        text += tr(", 1 entry that cannot be imported (left out)");
    else if (unsupported > 1)
        text += tr(", %1 entries that cannot be imported (left out)").arg(unsupported);
    return text;
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
