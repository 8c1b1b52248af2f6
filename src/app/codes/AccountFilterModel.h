// The accounts the search field and the tag filter leave, in the order the
// user chose. Search: every word typed must appear, in any letter case and
// ignoring accents, in the issuer, the account name or a tag. Order: manual
// (the stored sort position, which drag and drop changes), by name (issuer,
// then account name, accents and case folded), or most recently used first
// (never-used accounts last, by name).
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
    Q_PROPERTY(QString tag READ tag WRITE setTag NOTIFY tagChanged)
    Q_PROPERTY(Order order READ order WRITE setOrder NOTIFY orderChanged)
    Q_PROPERTY(int count READ count NOTIFY countChanged)

public:
    enum class Order { Manual, Name, RecentlyUsed };
    Q_ENUM(Order)

    explicit AccountFilterModel(QObject* parent = nullptr);

    const QString& searchText() const { return m_searchText; }
    void setSearchText(const QString& text);
    // Only accounts with this tag (exact); empty: all.
    const QString& tag() const { return m_tag; }
    void setTag(const QString& tag);
    Order order() const { return m_order; }
    void setOrder(Order order);
    int count() const { return rowCount(); }
    void setSourceModel(QAbstractItemModel* model) override;

    // The record id (hex) at row, or an empty string.
    Q_INVOKABLE QString recordIdAt(int row) const;
    // The row showing the record id (hex), or -1: the list keeps its
    // highlight on an account when the order or the filter moves it.
    Q_INVOKABLE int rowOf(const QString& recordId) const;

signals:
    void searchTextChanged();
    void tagChanged();
    void orderChanged();
    void countChanged();

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    // Sorts and filters again when a role that decides them changed.
    void sourceDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                           const QList<int>& roles);

    QString m_searchText;
    QString m_tag;
    Order m_order = Order::Manual;
    QStringList m_words; // folded
};

// Lower case without accents ("Ærø Bänk" -> "ærø bank"), for matching.
[[nodiscard]] QString foldForSearch(const QString& text);

} // namespace watchword::app
