// The notes the search leaves, in the store's order (by title), and which
// note is chosen. Search: the query, trimmed, in the title, a tag or the
// text, ignoring case and accents (NoteStore::matches). The choice follows
// the notes: a chosen note that goes away (deleted, the vault locked) or
// that a search hides is no longer chosen, unless keepSelected holds it (it
// is being edited: nothing typed is lost to a search).
#pragma once

#include "app/notes/NoteListModel.h"

#include <QPointer>
#include <QSortFilterProxyModel>
#include <QtQml/qqmlregistration.h>

namespace watchword::app {

class NoteStore;

class NoteFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
    QML_ELEMENT
    Q_MOC_INCLUDE("app/notes/NoteStore.h")
    Q_PROPERTY(watchword::app::NoteStore* store READ store WRITE setStore NOTIFY storeChanged)
    Q_PROPERTY(QString searchText READ searchText WRITE setSearchText NOTIFY searchTextChanged)
    Q_PROPERTY(int count READ count NOTIFY countChanged)
    // The chosen note's record id (hex), "" for none.
    Q_PROPERTY(QString selectedId READ selectedId WRITE setSelectedId NOTIFY selectedChanged)
    // The chosen note as the list shows it (recordId "" for none).
    Q_PROPERTY(watchword::app::NoteEntry selected READ selected NOTIFY selectedChanged)
    // Its row here, -1 if none or hidden.
    Q_PROPERTY(int selectedRow READ selectedRow NOTIFY selectedRowChanged)
    Q_PROPERTY(bool keepSelected READ keepSelected WRITE setKeepSelected NOTIFY keepSelectedChanged)

public:
    explicit NoteFilterModel(QObject* parent = nullptr);

    NoteStore* store() const { return m_store; }
    void setStore(NoteStore* store);
    const QString& searchText() const { return m_searchText; }
    void setSearchText(const QString& text);
    int count() const { return rowCount(); }
    QString selectedId() const { return m_selected.recordId(); }
    void setSelectedId(const QString& recordId);
    const NoteEntry& selected() const { return m_selected; }
    int selectedRow() const { return m_selectedRow; }
    bool keepSelected() const { return m_keepSelected; }
    void setKeepSelected(bool keep);

signals:
    void storeChanged();
    void searchTextChanged();
    void countChanged();
    void selectedChanged();
    void selectedRowChanged();
    void keepSelectedChanged();

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    // Checks the chosen note against the notes and the search.
    void followSelection();
    NoteListModel* notes() const;

    QPointer<NoteStore> m_store;
    QString m_searchText;
    NoteEntry m_selected;
    int m_selectedRow = -1;
    bool m_keepSelected = false;
};

} // namespace watchword::app
