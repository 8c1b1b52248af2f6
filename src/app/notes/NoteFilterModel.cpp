#include "app/notes/NoteFilterModel.h"

#include "app/common/Notify.h"
#include "app/notes/NoteStore.h"

namespace watchword::app {

NoteFilterModel::NoteFilterModel(QObject* parent) : QSortFilterProxyModel(parent)
{
    for (const auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(this, signal, this, &NoteFilterModel::countChanged);
    connect(this, &QAbstractItemModel::modelReset, this, &NoteFilterModel::countChanged);
    connect(this, &QAbstractItemModel::layoutChanged, this, &NoteFilterModel::countChanged);
}

NoteListModel* NoteFilterModel::notes() const
{
    return m_store ? m_store->model() : nullptr;
}

void NoteFilterModel::setStore(NoteStore* store)
{
    if (m_store == store)
        return;
    if (sourceModel() != nullptr)
        disconnect(sourceModel(), nullptr, this, nullptr);
    m_store = store;
    setSourceModel(notes());
    if (NoteListModel* model = notes()) {
        // After the proxy's own handlers (connected by setSourceModel): the
        // rows here are up to date when the choice is checked.
        for (const auto signal :
             {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
            connect(model, signal, this, &NoteFilterModel::followSelection);
        connect(model, &QAbstractItemModel::rowsMoved, this, &NoteFilterModel::followSelection);
        connect(model, &QAbstractItemModel::modelReset, this, &NoteFilterModel::followSelection);
        connect(model, &QAbstractItemModel::dataChanged, this, &NoteFilterModel::followSelection);
    }
    emit storeChanged();
    followSelection();
}

void NoteFilterModel::setSearchText(const QString& text)
{
    if (m_searchText == text)
        return;
    m_searchText = text;
    invalidateFilter();
    emit searchTextChanged();
    followSelection();
}

void NoteFilterModel::setKeepSelected(bool keep)
{
    assignAndNotify(this, m_keepSelected, keep, &NoteFilterModel::keepSelectedChanged);
}

void NoteFilterModel::setSelectedId(const QString& recordId)
{
    const NoteListModel* model = notes();
    const NoteEntry chosen = model != nullptr ? model->entry(recordId) : NoteEntry{};
    if (chosen != m_selected) {
        m_selected = chosen;
        emit selectedChanged();
    }
    const int sourceRow = model != nullptr ? model->rowOf(m_selected.recordId().toLatin1()) : -1;
    const int row = sourceRow < 0 ? -1 : mapFromSource(model->index(sourceRow)).row();
    if (row != m_selectedRow) {
        m_selectedRow = row;
        emit selectedRowChanged();
    }
}

void NoteFilterModel::followSelection()
{
    QString id = m_selected.recordId();
    const NoteListModel* model = notes();
    const int sourceRow = model != nullptr ? model->rowOf(id.toLatin1()) : -1;
    if (sourceRow >= 0 && !m_keepSelected && !mapFromSource(model->index(sourceRow)).isValid())
        id.clear(); // hidden by the search
    setSelectedId(id);
}

bool NoteFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (!m_store || m_searchText.trimmed().isEmpty())
        return true;
    const QModelIndex row = sourceModel()->index(sourceRow, 0, sourceParent);
    return m_store->matches(row.data(NoteListModel::IdRole).toString().toLatin1(), m_searchText);
}

} // namespace watchword::app
