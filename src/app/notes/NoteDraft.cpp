#include "app/notes/NoteDraft.h"

#include "app/common/Notify.h"
#include "text/SecretText.h"

#include <utility>

namespace watchword::app {

NoteDraft::NoteDraft(QObject* parent) : QObject(parent) {}

NoteDraft::~NoteDraft()
{
    text::wipe(m_body);
}

QStringList NoteDraft::tags() const
{
    QStringList tags;
    for (const auto& part : m_tagsText.split(QLatin1Char(','))) {
        const QString tag = part.trimmed();
        if (!tag.isEmpty() && !tags.contains(tag))
            tags << tag;
    }
    return tags;
}

void NoteDraft::setTitle(const QString& title)
{
    assignAndNotify(this, m_title, title, &NoteDraft::titleChanged);
}

void NoteDraft::setTagsText(const QString& text)
{
    assignAndNotify(this, m_tagsText, text, &NoteDraft::tagsChanged);
}

void NoteDraft::setBody(const QString& body)
{
    if (m_body == body)
        return;
    text::wipe(m_body);
    m_body = body;
    emit bodyChanged();
}

void NoteDraft::load(const QString& recordId, const QString& title, const QStringList& tags,
                     QString body)
{
    assignAndNotify(this, m_recordId, recordId, &NoteDraft::recordIdChanged);
    setTitle(title);
    setTagsText(tags.join(QStringLiteral(", ")));
    setBody(body);
    text::wipe(body);
}

void NoteDraft::clear()
{
    load({}, {}, {}, {});
}

} // namespace watchword::app
