#include "app/codes/AccountFilterModel.h"

#include "app/codes/AccountListModel.h"

#include <algorithm>

namespace watchword::app {

QString foldForSearch(const QString& text)
{
    // NFKD splits accented letters into base + combining marks; the marks go.
    const QString decomposed = text.normalized(QString::NormalizationForm_KD);
    QString folded;
    folded.reserve(decomposed.size());
    for (const QChar c : decomposed)
        if (c.category() != QChar::Mark_NonSpacing)
            folded += c;
    return folded.toCaseFolded();
}

AccountFilterModel::AccountFilterModel(QObject* parent) : QSortFilterProxyModel(parent)
{
    // Not dynamic: QSortFilterProxyModel would then re-sort and re-filter on
    // every dataChanged, and a roll-over changes the code of nearly every
    // row at once. Codes decide neither order nor filter; only the roles
    // below do, and a change to them sorts again (sourceDataChanged).
    setDynamicSortFilter(false);
    sort(0);
    for (const auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(this, signal, this, &AccountFilterModel::countChanged);
    connect(this, &QAbstractItemModel::modelReset, this, &AccountFilterModel::countChanged);
    connect(this, &QAbstractItemModel::layoutChanged, this, &AccountFilterModel::countChanged);
}

void AccountFilterModel::setSourceModel(QAbstractItemModel* model)
{
    if (sourceModel() != nullptr)
        disconnect(sourceModel(), nullptr, this, nullptr);
    QSortFilterProxyModel::setSourceModel(model);
    if (model == nullptr)
        return;
    connect(model, &QAbstractItemModel::dataChanged, this, &AccountFilterModel::sourceDataChanged);
    // New rows, and a new set of rows, go where the order and the filter put
    // them.
    connect(model, &QAbstractItemModel::rowsInserted, this, [this] { invalidate(); });
    connect(model, &QAbstractItemModel::modelReset, this, [this] { invalidate(); });
    invalidate();
}

void AccountFilterModel::sourceDataChanged(const QModelIndex&, const QModelIndex&,
                                           const QList<int>& roles)
{
    static const QList<int> ordering = {
        AccountListModel::IssuerRole, AccountListModel::AccountNameRole, AccountListModel::TagsRole,
        AccountListModel::LastUsedRole, AccountListModel::SortPositionRole};
    const bool affects = roles.isEmpty() || std::any_of(roles.begin(), roles.end(), [](int role) {
                             return ordering.contains(role);
                         });
    if (affects)
        invalidate();
}

void AccountFilterModel::setTag(const QString& tag)
{
    if (tag == m_tag)
        return;
    m_tag = tag;
    invalidateFilter();
    emit countChanged();
    emit tagChanged();
}

void AccountFilterModel::setOrder(Order order)
{
    if (order == m_order)
        return;
    m_order = order;
    invalidate();
    emit orderChanged();
}

QString AccountFilterModel::recordIdAt(int row) const
{
    return index(row, 0).data(AccountListModel::IdRole).toString();
}

int AccountFilterModel::rowOf(const QString& recordId) const
{
    if (recordId.isEmpty())
        return -1;
    for (int row = 0; row < rowCount(); ++row) {
        if (recordIdAt(row) == recordId)
            return row;
    }
    return -1;
}

bool AccountFilterModel::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const auto byName = [&] {
        const int issuer = QString::localeAwareCompare(
            foldForSearch(left.data(AccountListModel::IssuerRole).toString()),
            foldForSearch(right.data(AccountListModel::IssuerRole).toString()));
        if (issuer != 0)
            return issuer < 0;
        const int name = QString::localeAwareCompare(
            foldForSearch(left.data(AccountListModel::AccountNameRole).toString()),
            foldForSearch(right.data(AccountListModel::AccountNameRole).toString()));
        if (name != 0)
            return name < 0;
        return left.row() < right.row();
    };
    switch (m_order) {
    case Order::Name:
        return byName();
    case Order::RecentlyUsed: {
        const qint64 a = left.data(AccountListModel::LastUsedRole).toLongLong();
        const qint64 b = right.data(AccountListModel::LastUsedRole).toLongLong();
        if (a != b)
            return a > b;
        return byName();
    }
    case Order::Manual:
        break;
    }
    const uint a = left.data(AccountListModel::SortPositionRole).toUInt();
    const uint b = right.data(AccountListModel::SortPositionRole).toUInt();
    if (a != b)
        return a < b;
    return left.row() < right.row();
}

void AccountFilterModel::setSearchText(const QString& text)
{
    if (text == m_searchText)
        return;
    m_searchText = text;
    m_words = foldForSearch(text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    invalidateFilter();
    emit countChanged();
    emit searchTextChanged();
}

bool AccountFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QModelIndex row = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!m_tag.isEmpty() && !row.data(AccountListModel::TagsRole).toStringList().contains(m_tag))
        return false;
    if (m_words.isEmpty())
        return true;
    QString haystack = row.data(AccountListModel::IssuerRole).toString() + QLatin1Char('\n') +
                       row.data(AccountListModel::AccountNameRole).toString();
    for (const auto& tag : row.data(AccountListModel::TagsRole).toStringList())
        haystack += QLatin1Char('\n') + tag;
    haystack = foldForSearch(haystack);
    for (const auto& word : m_words)
        if (!haystack.contains(word))
            return false;
    return true;
}

} // namespace watchword::app
