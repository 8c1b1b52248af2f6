// The secure notes of an unlocked vault as a list model: titles and tags
// only. A note's body is never a role: the view asks the store for it when
// the user reveals it (NoteStore::reveal) and drops it when hidden or
// locked.
#pragma once

#include <QAbstractListModel>
#include <QStringList>
#include <QtQml/qqmlregistration.h>
#include <cstdint>
#include <vector>

namespace watchword::app {

// One note as the list shows it; in QML a value (noteEntry) whose recordId
// is "" when it names no note.
struct NoteEntry
{
    Q_GADGET
    QML_VALUE_TYPE(noteEntry)
    Q_PROPERTY(QString recordId READ recordId)
    Q_PROPERTY(QString title MEMBER title)
    Q_PROPERTY(QStringList tags MEMBER tags)
    Q_PROPERTY(qint64 modified READ modifiedSeconds)

public:
    QByteArray id; // the record id, hex
    QString title;
    QStringList tags;
    std::int64_t modified = 0; // Unix seconds

    QString recordId() const { return QString::fromLatin1(id); }
    qint64 modifiedSeconds() const { return modified; }
    bool operator==(const NoteEntry&) const = default;
};

class NoteListModel : public QAbstractListModel
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("notes come from the unlocked vault")
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)

public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        TitleRole,
        TagsRole,
        ModifiedRole, // Unix seconds
    };

    explicit NoteListModel(QObject* parent = nullptr);

    // Replaces every row; rows are kept sorted by title.
    void setNotes(std::vector<NoteEntry> notes);
    void clear();
    // Replaces the row with note's id (moving it to its title's place), or
    // inserts one in title order.
    void upsert(NoteEntry note);
    void remove(const QByteArray& recordId);
    // The row with that record id, or an entry with an empty id.
    NoteEntry entry(const QString& recordId) const;
    // That row's number, or -1.
    int rowOf(const QByteArray& recordId) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

signals:
    void countChanged();

private:
    // Where a note titled title goes to keep the rows in title order.
    int insertionRow(const QString& title) const;

    std::vector<NoteEntry> m_rows;
};

} // namespace watchword::app
