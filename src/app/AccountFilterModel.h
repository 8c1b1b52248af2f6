// The accounts the search field leaves: every word typed must appear, in any
// letter case and ignoring accents, in the issuer, the account name or a tag.
#pragma once

#include <QSortFilterProxyModel>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

namespace watchword::app {

class AccountFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString searchText READ searchText WRITE setSearchText NOTIFY searchTextChanged)

public:
    explicit AccountFilterModel(QObject* parent = nullptr);

    const QString& searchText() const { return m_searchText; }
    void setSearchText(const QString& text);

signals:
    void searchTextChanged();

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_searchText;
    QStringList m_words; // folded
};

// Lower case without accents ("Ærø Bänk" -> "ærø bank"), for matching.
[[nodiscard]] QString foldForSearch(const QString& text);

} // namespace watchword::app
