// Deleted records kept for undo, newest last, in memory only: dropped when
// the vault locks. Undoing puts the newest back under a new id (ids belong
// to the vault) with its place, and says which: the view selects it.
#pragma once

#include "vault/Records.h"

#include <QObject>
#include <QString>
#include <QtQml/qqmlregistration.h>
#include <vector>

namespace watchword::app {

class VaultController;

class UndoHistory : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the undo history belongs to the vault controller")
    Q_PROPERTY(bool canUndo READ canUndo NOTIFY changed)
    // What undo() would put back ("Deleted ACME (alice)"), "" if nothing.
    Q_PROPERTY(QString undoText READ undoText NOTIFY changed)

public:
    static constexpr std::size_t depth = 20;

    explicit UndoHistory(VaultController& session);

    bool canUndo() const { return !m_deleted.empty(); }
    QString undoText() const;

    // Deletes the record with that id from the vault, keeping a copy
    // described for the view, and saves. False, with the session's error
    // set, if the vault cannot be edited now or refuses.
    bool remove(const vault::RecordId& id, QString description);
    void clear();

    // Puts the newest deleted record back and saves; its new id (hex), or
    // "" with the session's error set.
    Q_INVOKABLE QString undo();

signals:
    void changed();

private:
    struct Deleted
    {
        QString description;
        vault::Record record;
    };
    VaultController& m_session;
    std::vector<Deleted> m_deleted;
};

} // namespace watchword::app
