#include "AccountFilterModel.h"

#include "AccountListModel.h"

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

AccountFilterModel::AccountFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {}

void AccountFilterModel::setSearchText(const QString& text)
{
    if (text == m_searchText)
        return;
    m_searchText = text;
    m_words = foldForSearch(text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    invalidateFilter();
    emit searchTextChanged();
}

bool AccountFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (m_words.isEmpty())
        return true;
    const QModelIndex row = sourceModel()->index(sourceRow, 0, sourceParent);
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
