#include "app/notes/NoteStore.h"

#include "app/codes/AccountFilterModel.h"
#include "app/codes/AccountListModel.h"
#include "app/notes/NoteDraft.h"
#include "app/vault/RecordIds.h"
#include "app/vault/RecordViews.h"
#include "app/vault/UndoHistory.h"
#include "app/vault/VaultController.h"
#include "crypto/Random.h"
#include "text/CoreText.h"
#include "text/SecretText.h"
#include "vault/Vault.h"

#include <algorithm>

namespace watchword::app {

namespace {

NoteEntry noteEntry(const vault::SecureNote& note)
{
    return {hexId(note.id), QString::fromStdString(note.title), toQStringList(note.tags),
            note.modified};
}

// Tags as the vault keeps them: sorted, each once.
std::vector<std::string> storedTags(const QStringList& tags)
{
    std::vector<std::string> out;
    for (const auto& tag : tags)
        if (const auto trimmed = tag.trimmed(); !trimmed.isEmpty())
            out.push_back(trimmed.toStdString());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

QString bodyText(const vault::SecureNote& note)
{
    return QString::fromUtf8(reinterpret_cast<const char*>(note.body.data()),
                             qsizetype(note.body.size()));
}

QString noLongerThere()
{
    return NoteStore::tr("That note is no longer in the vault.");
}

} // namespace

NoteStore::NoteStore(VaultController& session, QObject* parent)
    : QObject(parent), m_session(session)
{
    followRecords<vault::SecureNote>(m_session, this);
}

void NoteStore::fill()
{
    std::vector<NoteEntry> notes;
    for (const vault::SecureNote* note : recordsOf<vault::SecureNote>(m_session))
        notes.push_back(noteEntry(*note));
    m_model.setNotes(std::move(notes));
}

void NoteStore::empty()
{
    m_model.clear();
}

void NoteStore::hide(const QByteArray& recordId)
{
    m_model.remove(recordId);
}

const vault::SecureNote* NoteStore::find(const QString& recordId) const
{
    return findRecord<vault::SecureNote>(m_session, recordId);
}

void NoteStore::show(const vault::SecureNote& note)
{
    m_model.upsert(noteEntry(note));
}

bool NoteStore::store(vault::SecureNote note, NoteDraft& draft, bool adding, vault::RecordId& id)
{
    vault::Vault* vault = m_session.editableVault();
    if (vault == nullptr)
        return false;
    if (!draft.valid()) {
        m_session.setError(tr("Give the note a title."));
        return false;
    }
    QString typed = draft.body();
    note.title = draft.title().trimmed().toStdString();
    note.body = text::composedText(typed);
    note.tags = storedTags(draft.tags());
    note.modified = nowSeconds();
    if (adding) {
        note.created = note.modified;
        note.sortPosition = vault::nextSortPosition(*vault);
        auto added = vault->add(std::move(note), crypto::systemRandom());
        if (!added) {
            m_session.setError(text::fromCore(added.error().message));
            return false;
        }
        id = *added;
    } else {
        id = note.id;
        if (auto updated = vault->update(std::move(note)); !updated) {
            m_session.setError(text::fromCore(updated.error().message));
            return false;
        }
    }
    m_session.setError({});
    show(std::get<vault::SecureNote>(*vault->find(id)));
    m_session.requestSave();
    return true;
}

QString NoteStore::add(NoteDraft* draft)
{
    vault::RecordId id{};
    if (draft == nullptr || !store(vault::SecureNote{}, *draft, true, id))
        return {};
    return QString::fromLatin1(hexId(id));
}

bool NoteStore::update(NoteDraft* draft)
{
    if (draft == nullptr || m_session.editableVault() == nullptr)
        return false;
    const auto* existing = find(draft->recordId());
    if (existing == nullptr) {
        m_session.setError(noLongerThere());
        return false;
    }
    vault::RecordId id{};
    return store(existing->clone(), *draft, false, id);
}

bool NoteStore::edit(const QString& recordId, NoteDraft* draft) const
{
    const auto* note = find(recordId);
    if (note == nullptr || draft == nullptr)
        return false;
    draft->load(recordId, QString::fromStdString(note->title), toQStringList(note->tags),
                bodyText(*note));
    return true;
}

bool NoteStore::remove(const QString& recordId)
{
    if (m_session.editableVault() == nullptr)
        return false;
    const auto* note = find(recordId);
    if (note == nullptr) {
        m_session.setError(noLongerThere());
        return false;
    }
    if (!m_session.history()->remove(
            note->id, tr("Deleted note %1").arg(QString::fromStdString(note->title))))
        return false;
    hide(recordId.toLatin1());
    return true;
}

QString NoteStore::reveal(const QString& recordId) const
{
    const auto* note = find(recordId);
    return note == nullptr ? QString() : bodyText(*note);
}

bool NoteStore::matches(const QByteArray& recordId, const QString& query) const
{
    const QString needle = foldForSearch(query.trimmed());
    if (needle.isEmpty())
        return true;
    const auto* note = find(QString::fromLatin1(recordId));
    if (note == nullptr)
        return false;
    if (foldForSearch(QString::fromStdString(note->title)).contains(needle))
        return true;
    for (const auto& tag : note->tags) {
        if (foldForSearch(QString::fromStdString(tag)).contains(needle))
            return true;
    }
    QString body = bodyText(*note);
    QString folded = foldForSearch(body);
    text::wipe(body);
    const bool found = folded.contains(needle);
    text::wipe(folded);
    return found;
}

} // namespace watchword::app
