// What the parts that show one kind of record (accounts, notes) share: the
// record a model row names, the records of that kind in vault order, and
// following the session: filled when the vault opens, emptied when it
// closes, told of records someone else added or removed (undo, an import).
#pragma once

#include "app/vault/RecordIds.h"
#include "app/vault/VaultController.h"
#include "vault/Vault.h"

#include <QObject>
#include <QString>
#include <variant>
#include <vector>

namespace watchword::app {

// The record of Kind with that id (hex) in the unlocked vault, or null.
template <typename Kind>
const Kind* findRecord(const VaultController& session, const QString& recordId)
{
    const vault::Vault* vault = session.vault();
    const auto id = recordIdFrom(recordId);
    if (vault == nullptr || !id)
        return nullptr;
    return std::get_if<Kind>(vault->find(*id));
}

// The records of Kind in the unlocked vault, in its order (none while
// locked).
template <typename Kind> std::vector<const Kind*> recordsOf(const VaultController& session)
{
    std::vector<const Kind*> records;
    if (const vault::Vault* vault = session.vault())
        for (std::size_t i = 0; i < vault->recordCount(); ++i)
            if (const auto* record = std::get_if<Kind>(&vault->record(i)))
                records.push_back(record);
    return records;
}

// Connects view (a part showing records of Kind) to session: view->fill()
// when the vault opens, view->empty() when it closes, view->show(record)
// for each record of Kind added by someone else, view->hide(hex id) for
// each one removed.
template <typename Kind, typename View> void followRecords(VaultController& session, View* view)
{
    QObject::connect(&session, &VaultController::opened, view, [view] { view->fill(); });
    QObject::connect(&session, &VaultController::closing, view, [view] { view->empty(); });
    QObject::connect(&session, &VaultController::recordsAdded, view,
                     [&session, view](const std::vector<vault::RecordId>& ids) {
                         if (const vault::Vault* vault = session.vault())
                             for (const auto& id : ids)
                                 if (const auto* record = std::get_if<Kind>(vault->find(id)))
                                     view->show(*record);
                     });
    QObject::connect(&session, &VaultController::recordsRemoved, view,
                     [view](const std::vector<vault::RecordId>& ids) {
                         for (const auto& id : ids)
                             view->hide(hexId(id));
                     });
    view->fill();
}

} // namespace watchword::app
