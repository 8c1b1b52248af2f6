#include "app/vault/UndoHistory.h"

#include "app/vault/RecordIds.h"
#include "app/vault/VaultController.h"
#include "crypto/Random.h"
#include "text/CoreText.h"
#include "vault/Vault.h"

namespace watchword::app {

UndoHistory::UndoHistory(VaultController& session) : QObject(&session), m_session(session) {}

QString UndoHistory::undoText() const
{
    return m_deleted.empty() ? QString() : m_deleted.back().description;
}

bool UndoHistory::remove(const vault::RecordId& id, QString description)
{
    vault::Vault* vault = m_session.editableVault();
    const vault::Record* record = vault != nullptr ? vault->find(id) : nullptr;
    if (record == nullptr)
        return false;
    Deleted deleted{std::move(description), vault::cloneRecord(*record)};
    if (auto removed = vault->remove(id); !removed) {
        m_session.setError(text::fromCore(removed.error().message));
        return false;
    }
    m_deleted.push_back(std::move(deleted));
    if (m_deleted.size() > depth)
        m_deleted.erase(m_deleted.begin());
    emit changed();
    m_session.requestSave();
    return true;
}

void UndoHistory::clear()
{
    m_deleted.clear();
    emit changed();
}

QString UndoHistory::undo()
{
    if (m_deleted.empty())
        return {};
    vault::Vault* vault = m_session.editableVault();
    if (vault == nullptr)
        return {};
    auto deleted = std::move(m_deleted.back());
    m_deleted.pop_back();
    emit changed();
    auto added = vault->add(std::move(deleted.record), crypto::systemRandom());
    if (!added) {
        m_session.setError(text::fromCore(added.error().message));
        return {};
    }
    m_session.announceAdded({*added});
    m_session.requestSave();
    return QString::fromLatin1(hexId(*added));
}

} // namespace watchword::app
