// The OTP accounts of the unlocked vault, as the codes page shows and edits
// them: the list model (filled when the vault opens, emptied when it locks)
// and every change to an account, each saved at once. A deleted account goes
// to the session's undo history; when undo brings it back, the model shows
// it again.
#pragma once

#include "app/codes/AccountListModel.h"
#include "vault/Records.h"

#include <QObject>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace watchword::app {

class AccountDraft;
class ClipboardService;
class Clock;
class VaultController;

class AccountStore : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the accounts are made by main()")
    Q_PROPERTY(watchword::app::AccountListModel* model READ model CONSTANT)

public:
    AccountStore(VaultController& session, Clock& clock, ClipboardService& clipboard,
                 QObject* parent = nullptr);

    AccountListModel* model() { return &m_model; }

    // Copies the account's current code (taken back from the clipboard when
    // the vault locks) and notes it as recently used, written with the next
    // save. recordId is the hex record id the model shows.
    Q_INVOKABLE bool copyCode(const QString& recordId);
    Q_INVOKABLE bool add(watchword::app::AccountDraft* draft);
    Q_INVOKABLE bool update(watchword::app::AccountDraft* draft);
    // The title of a vault account that shows the same codes as the draft
    // (same secret, kind, algorithm, digits and period; the draft's own
    // record aside), or "": the add dialog warns before the same account is
    // added twice.
    Q_INVOKABLE QString duplicateOf(watchword::app::AccountDraft* draft) const;
    // A draft filled from the account, for editing (owned by the caller:
    // JavaScript's garbage collector in QML), or null.
    Q_INVOKABLE watchword::app::AccountDraft* draftFor(const QString& recordId);
    // Deletes the account, keeping it for undo.
    Q_INVOKABLE bool remove(const QString& recordId);
    // HOTP: counter + 1, saved before the new code is shown.
    Q_INVOKABLE bool advanceCounter(const QString& recordId);
    // Manual order: moves the account to position `to` of the accounts in
    // manual order (as AccountFilterModel shows them with Order::Manual).
    Q_INVOKABLE bool move(const QString& recordId, int to);

    // The list follows the vault (RecordViews.h): all its accounts when it
    // opens, none (and the clipboard taken back) when it locks, an account
    // as stored now, one gone.
    void fill();
    void empty();
    void show(const vault::OtpAccount& account);
    void hide(const QByteArray& recordId);

private:
    const vault::OtpAccount* find(const QString& recordId) const;

    VaultController& m_session;
    Clock& m_clock;
    ClipboardService& m_clipboard;
    AccountListModel m_model;
};

} // namespace watchword::app
