#include "app/notes/NoteListModel.h"

#include <algorithm>
#include <utility>

namespace watchword::app {

namespace {

bool titleBefore(const QString& a, const QString& b)
{
    return QString::localeAwareCompare(a.toCaseFolded(), b.toCaseFolded()) < 0;
}

} // namespace

NoteListModel::NoteListModel(QObject* parent) : QAbstractListModel(parent) {}

void NoteListModel::setNotes(std::vector<NoteEntry> notes)
{
    std::stable_sort(notes.begin(), notes.end(), [](const NoteEntry& a, const NoteEntry& b) {
        return titleBefore(a.title, b.title);
    });
    beginResetModel();
    m_rows = std::move(notes);
    endResetModel();
    emit countChanged();
}

void NoteListModel::clear()
{
    setNotes({});
}

void NoteListModel::upsert(NoteEntry note)
{
    const int from = rowOf(note.id);
    if (from < 0) {
        const int at = insertionRow(note.title);
        beginInsertRows({}, at, at);
        m_rows.insert(m_rows.begin() + at, std::move(note));
        endInsertRows();
        emit countChanged();
        return;
    }
    // An edited note keeps its row, or moves to where its new title goes:
    // views keep it (and whatever they chose) rather than lose and regain it.
    int to = 0;
    for (int i = 0; i < int(m_rows.size()); ++i)
        if (i != from && !titleBefore(note.title, m_rows[std::size_t(i)].title))
            ++to;
    if (to != from) {
        beginMoveRows({}, from, from, {}, to > from ? to + 1 : to);
        auto moved = std::move(m_rows[std::size_t(from)]);
        m_rows.erase(m_rows.begin() + from);
        m_rows.insert(m_rows.begin() + to, std::move(moved));
        endMoveRows();
    }
    m_rows[std::size_t(to)] = std::move(note);
    emit dataChanged(index(to), index(to));
}

void NoteListModel::remove(const QByteArray& recordId)
{
    const int at = rowOf(recordId);
    if (at < 0)
        return;
    beginRemoveRows({}, at, at);
    m_rows.erase(m_rows.begin() + at);
    endRemoveRows();
    emit countChanged();
}

NoteEntry NoteListModel::entry(const QString& recordId) const
{
    const int row = rowOf(recordId.toLatin1());
    return row < 0 ? NoteEntry{} : m_rows[std::size_t(row)];
}

int NoteListModel::rowOf(const QByteArray& recordId) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].id == recordId)
            return int(i);
    return -1;
}

int NoteListModel::insertionRow(const QString& title) const
{
    const auto at = std::upper_bound(
        m_rows.begin(), m_rows.end(), title,
        [](const QString& t, const NoteEntry& row) { return titleBefore(t, row.title); });
    return int(at - m_rows.begin());
}

int NoteListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant NoteListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const NoteEntry& row = m_rows[std::size_t(index.row())];
    switch (role) {
    case IdRole:
        return QString::fromLatin1(row.id);
    case Qt::DisplayRole:
    case TitleRole:
        return row.title;
    case TagsRole:
        return row.tags;
    case ModifiedRole:
        return qint64(row.modified);
    default:
        return {};
    }
}

QHash<int, QByteArray> NoteListModel::roleNames() const
{
    return {
        {IdRole, "recordId"}, {TitleRole, "title"}, {TagsRole, "tags"}, {ModifiedRole, "modified"}};
}

} // namespace watchword::app
