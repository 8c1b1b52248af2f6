// The secure notes of an unlocked vault as a list model: titles and tags
// only. A note's body is never a role: the view asks the controller for it
// when the user reveals it (VaultController::revealNote) and drops it when
// hidden or locked.
#pragma once

#include <QAbstractListModel>
#include <QStringList>
#include <QtQml/qqmlregistration.h>
#include <cstdint>
#include <vector>

namespace watchword::app {

struct NoteEntry
{
    QByteArray id; // the record id, hex
    QString title;
    QStringList tags;
    std::int64_t modified = 0; // Unix seconds
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
    // Replaces the row with note's id, or inserts one in title order.
    void upsert(NoteEntry note);
    void remove(const QByteArray& recordId);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

signals:
    void countChanged();

private:
    int rowOf(const QByteArray& recordId) const;
    // Where a note titled title goes to keep the rows in title order.
    int insertionRow(const QString& title) const;

    std::vector<NoteEntry> m_rows;
};

} // namespace watchword::app
