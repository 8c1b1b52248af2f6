// The secure notes of the unlocked vault, as the notes page shows and edits
// them: the list model (titles and tags only; filled when the vault opens,
// emptied when it locks), a note's text on request, the search over titles,
// tags and text, and every change, each saved at once. A deleted note goes
// to the session's undo history; when undo brings it back, the model shows
// it again.
#pragma once

#include "app/notes/NoteListModel.h"
#include "vault/Records.h"

#include <QObject>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace watchword::app {

class NoteDraft;
class VaultController;

class NoteStore : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the notes are made by main()")
    Q_PROPERTY(watchword::app::NoteListModel* model READ model CONSTANT)

public:
    explicit NoteStore(VaultController& session, QObject* parent = nullptr);

    NoteListModel* model() { return &m_model; }

    // Adds the draft as a new note and saves; its record id (hex), or ""
    // with the session's error set.
    Q_INVOKABLE QString add(watchword::app::NoteDraft* draft);
    // Stores the draft over the note it was loaded from, and saves.
    Q_INVOKABLE bool update(watchword::app::NoteDraft* draft);
    // Fills draft from the note, its text included, for editing.
    Q_INVOKABLE bool edit(const QString& recordId, watchword::app::NoteDraft* draft) const;
    // Deletes the note, keeping it for undo.
    Q_INVOKABLE bool remove(const QString& recordId);
    // The text of a note, for showing on request ("" if none).
    Q_INVOKABLE QString reveal(const QString& recordId) const;
    // The search: true if the title, a tag or the text contains query,
    // ignoring case and accents ("zurich" finds "Zürich"). The text is read
    // in memory and its folded copy wiped; nothing is kept.
    bool matches(const QByteArray& recordId, const QString& query) const;

    // The list follows the vault (RecordViews.h): all its notes when it
    // opens, none when it locks, a note as stored now, one gone.
    void fill();
    void empty();
    void show(const vault::SecureNote& note);
    void hide(const QByteArray& recordId);

private:
    const vault::SecureNote* find(const QString& recordId) const;
    // Checks the draft, puts it into note and stores it, or sets the error.
    bool store(vault::SecureNote note, NoteDraft& draft, bool adding, vault::RecordId& id);

    VaultController& m_session;
    NoteListModel m_model;
};

} // namespace watchword::app
