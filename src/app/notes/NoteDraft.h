// One secure note as the editor holds it: title, tags as typed on one line,
// and text. A new note has no record id; NoteStore::edit() fills a draft
// from a stored note. The text is the secret: clear() and the destructor
// overwrite the draft's copy (a text field keeps its own, which the page
// empties).
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

namespace watchword::app {

class NoteDraft : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    // The note being edited (hex), "" for a new one.
    Q_PROPERTY(QString recordId READ recordId NOTIFY recordIdChanged)
    Q_PROPERTY(QString title READ title WRITE setTitle NOTIFY titleChanged)
    // The tags as typed, separated by commas.
    Q_PROPERTY(QString tagsText READ tagsText WRITE setTagsText NOTIFY tagsChanged)
    // tagsText's tags: trimmed, empty ones dropped, each once.
    Q_PROPERTY(QStringList tags READ tags NOTIFY tagsChanged)
    Q_PROPERTY(QString body READ body WRITE setBody NOTIFY bodyChanged)
    // The title is not blank: the note can be saved.
    Q_PROPERTY(bool valid READ valid NOTIFY titleChanged)

public:
    explicit NoteDraft(QObject* parent = nullptr);
    ~NoteDraft() override;

    const QString& recordId() const { return m_recordId; }
    const QString& title() const { return m_title; }
    const QString& tagsText() const { return m_tagsText; }
    QStringList tags() const;
    const QString& body() const { return m_body; }
    bool valid() const { return !m_title.trimmed().isEmpty(); }

    void setTitle(const QString& title);
    void setTagsText(const QString& text);
    void setBody(const QString& body);
    // Fills every field from a stored note (NoteStore::edit).
    void load(const QString& recordId, const QString& title, const QStringList& tags, QString body);
    // Back to an empty new note; the text is overwritten first.
    Q_INVOKABLE void clear();

signals:
    void recordIdChanged();
    void titleChanged();
    void tagsChanged();
    void bodyChanged();

private:
    QString m_recordId;
    QString m_title;
    QString m_tagsText;
    QString m_body;
};

} // namespace watchword::app
