// The vault as the app sees it: locked or unlocked, and what unlocking is
// doing. QML calls unlock(), lock() and copyCode(); the codes come from
// accounts(), an AccountListModel the controller fills and empties.
//
// Unlocking runs on a worker thread (the password KDF takes about a second by
// design; the GUI thread never waits for it). Progress is the time spent
// against the time the KDF should take at the rate stored in the vault's
// header, capped below 1 until the worker is done. Locking drops the vault
// (every SecureBuffer wipes itself), empties the model and takes a copied
// code back from the clipboard.
#pragma once

#include "AccountListModel.h"
#include "ClipboardService.h"
#include "Clock.h"
#include "base/Bytes.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>
#include <QtQml/qqmlregistration.h>
#include <memory>

namespace watchword::vault {
class Vault;
}

namespace watchword::app {

class VaultController : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the vault controller is made by main()")
    Q_PROPERTY(State state READ state NOTIFY stateChanged)
    Q_PROPERTY(QString path READ path CONSTANT)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
    Q_PROPERTY(double progress READ progress NOTIFY progressChanged)
    Q_PROPERTY(bool demo READ demo CONSTANT)
    Q_PROPERTY(AccountListModel* accounts READ accounts CONSTANT)

public:
    enum class State {
        Missing, // no vault file at path yet: the first-run flow
        Locked,
        Unlocking, // the worker is deriving the key and opening the records
        Unlocked,
    };
    Q_ENUM(State)

    // A controller for the vault file at path (which may not exist yet).
    VaultController(QString path, Clock* clock, ClipboardService* clipboard,
                    QObject* parent = nullptr);
    ~VaultController() override;

    // A controller over a throw-away in-memory vault of sample accounts that
    // is never written anywhere: `watchword --demo`. It is made on a worker
    // and shown unlocked; locked, it opens again with the password "demo".
    static std::unique_ptr<VaultController> makeDemo(Clock* clock, ClipboardService* clipboard,
                                                     QObject* parent = nullptr);

    State state() const { return m_state; }
    const QString& path() const { return m_path; }
    const QString& error() const { return m_error; }
    double progress() const { return m_progress; }
    bool demo() const { return m_demo; }
    AccountListModel* accounts() { return &m_accounts; }

    // Unlocks with password (wiped from the string as it is read). Ignored
    // unless Locked. Ends in Unlocked, or in Locked with error set.
    Q_INVOKABLE void unlock(QString password);
    // Back to Locked (or Missing): wipes every decrypted secret.
    Q_INVOKABLE void lock();
    // Copies the current code of the account with that record id (hex).
    Q_INVOKABLE bool copyCode(const QString& recordId);

signals:
    void stateChanged();
    void errorChanged();
    void progressChanged();
    // The worker finished (Unlocked or an error): for tests and the view.
    void unlockFinished(bool unlocked);

private:
    void setState(State state);
    void setError(QString error);
    void setProgress(double progress);
    void showVault(std::unique_ptr<vault::Vault> vault);

    QString m_path;
    Clock* m_clock;
    ClipboardService* m_clipboard;
    AccountListModel m_accounts;
    State m_state = State::Missing;
    QString m_error;
    double m_progress = 0;
    bool m_demo = false;
    std::unique_ptr<vault::Vault> m_vault;
    // Progress while unlocking: elapsed against the expected KDF time.
    QTimer m_progressTimer;
    QElapsedTimer m_unlockTimer;
    double m_expectedMilliseconds = 0;
    // The demo's vault file, which lives in memory only.
    std::shared_ptr<const Bytes> m_memoryFile;
};

} // namespace watchword::app
