// The vault session as the app sees it: which state the vault is in
// (missing, locked, unlocking, unlocked), opening it (password, recovery
// phrase, an adopted file, the first run's creation) and locking it. The
// parts that change an unlocked vault are objects of their own that ask the
// session for it: RecoveryPhrase, Passwords and UndoHistory here (QML reaches
// them as phrase, passwords and history), AccountStore (codes/) and
// NoteStore (notes/) beside it.
//
// Threads. Everything that derives a key runs on a worker: the GUI thread
// never waits for PBKDF2. While such a job holds the vault, busy is true and
// edits are refused (editableVault() says why); the codes keep ticking,
// since the account model holds its own generators. Edits themselves are
// quick and made on the GUI thread; requestSave() serializes (milliseconds:
// only changed records are sealed again) and hands the bytes to the
// SaveQueue, whose worker writes them.
//
// Locking drops the vault (every SecureBuffer wipes itself) and tells the
// parts (closing()) to drop what they show. A change kept back with
// deferSave() (a "recently used" time) is written with the next save, or by
// one save when the vault locks.
#pragma once

#include "app/vault/SaveQueue.h"
#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"
#include "vault/Records.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>
#include <QUrl>
#include <QtQml/qqmlregistration.h>
#include <memory>
#include <vector>

namespace watchword::vault {
class Vault;
class VaultStorage;
} // namespace watchword::vault
namespace watchword::keychain {
class Keychain;
}

namespace watchword::app {

class FolderSync;
class Passwords;
class RecoveryPhrase;
class SharingIdentity;
class UndoHistory;
namespace detail {
struct Opened; // what a worker that opened a vault hands back
}

class VaultController : public QObject
{
    Q_OBJECT
    Q_MOC_INCLUDE("app/vault/FolderSync.h")
    Q_MOC_INCLUDE("app/vault/Passwords.h")
    Q_MOC_INCLUDE("app/vault/RecoveryPhrase.h")
    Q_MOC_INCLUDE("app/vault/SharingIdentity.h")
    Q_MOC_INCLUDE("app/vault/UndoHistory.h")
    QML_ELEMENT
    QML_UNCREATABLE("the vault controller is made by main()")
    Q_PROPERTY(State state READ state NOTIFY stateChanged)
    Q_PROPERTY(QString path READ path CONSTANT)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
    Q_PROPERTY(double progress READ progress NOTIFY progressChanged)
    Q_PROPERTY(bool demo READ demo CONSTANT)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(bool saving READ saving NOTIFY savingChanged)
    Q_PROPERTY(watchword::app::RecoveryPhrase* phrase READ phrase CONSTANT)
    Q_PROPERTY(watchword::app::Passwords* passwords READ passwords CONSTANT)
    Q_PROPERTY(watchword::app::UndoHistory* history READ history CONSTANT)
    Q_PROPERTY(watchword::app::SharingIdentity* identity READ identity CONSTANT)
    Q_PROPERTY(watchword::app::FolderSync* sync READ sync CONSTANT)

public:
    enum class State {
        Missing, // no vault file at path yet: the first-run flow
        Locked,
        Unlocking, // a worker is deriving the key and opening the records
        Unlocked,
    };
    Q_ENUM(State)

    // A session for the vault file at path (which may not exist yet).
    explicit VaultController(QString path, QObject* parent = nullptr);
    ~VaultController() override;

    // A session over a throw-away in-memory vault of sample accounts and
    // notes that is never written anywhere: `watchword --demo`. It is made on
    // a worker and shown unlocked; locked, it opens again with the password
    // "demo". Edits are kept in memory.
    static std::unique_ptr<VaultController> makeDemo(QObject* parent = nullptr);

    State state() const { return m_state; }
    const QString& path() const { return m_path; }
    const QString& error() const { return m_error; }
    double progress() const { return m_progress; }
    bool demo() const { return m_demo; }
    bool busy() const { return m_busy; }
    bool saving() const { return m_saves.saving(); }
    RecoveryPhrase* phrase() const { return m_phrase; }
    Passwords* passwords() const { return m_passwords; }
    UndoHistory* history() const { return m_history; }
    SharingIdentity* identity() const { return m_identity; }
    FolderSync* sync() const { return m_sync; }

    // Unlocking. Ignored unless Locked. Ends in Unlocked, or Locked with
    // error set. The password is wiped from the string as it is read.
    Q_INVOKABLE void unlock(QString password);
    // Opens the vault with its recovery phrase and sets a new password (a
    // new master key, every record sealed again); the file is saved.
    Q_INVOKABLE void recover(QString phrase, QString newPassword, QString repeat);
    // First run: an existing vault file (a backup, a copy from another
    // computer) becomes this app's vault: checked to be one, copied to
    // path() (0600, never over a file) and then unlocked as usual. The
    // chosen file is only read.
    Q_INVOKABLE bool adoptVaultFile(const QUrl& file);
    // Back to Locked: wipes every decrypted secret.
    Q_INVOKABLE void lock();
    Q_INVOKABLE void clearError();

    // --- For the parts that read and change the unlocked vault.
    // The vault while unlocked, else null (and while a key job holds it).
    const vault::Vault* vault() const;
    // The vault if it may be edited now (unlocked, no job holds it), else
    // null with error set to why.
    vault::Vault* editableVault();
    // The vault if it may be read now (unlocked, no job holds it), else null
    // and why.
    Result<const vault::Vault*, QString> readableVault() const;
    void setError(QString error);
    // Serializes the vault and writes it (the demo: keeps it in memory).
    void requestSave();
    // A change worth saving but not worth a save of its own: written with
    // the next save, or when the vault locks.
    void deferSave();
    // Busy while a job holds the vault; a lock asked for meanwhile waits.
    void setBusy(bool busy);
    // A key job takes the vault to a worker (busy until it comes back).
    std::shared_ptr<vault::Vault> lendVault();
    void returnVault(vault::Vault&& vault);
    // The first run's end: a vault from keychain and password, calibrated,
    // written to path and shown unlocked (on a worker).
    void create(std::shared_ptr<keychain::Keychain> keychain,
                std::shared_ptr<SecureBuffer> password);
    // Tells the parts that show records that these were added to the vault
    // or taken out of it by someone else (undo, an import).
    void announceAdded(const std::vector<vault::RecordId>& ids);
    // The vault's sharing identity changed (a phrase adopted or replaced).
    void announceIdentityChanged() { emit identityChanged(); }
    void announceRemoved(const std::vector<vault::RecordId>& ids);
    // Writes bytes that hold a change the caller undoes if the write fails:
    // busy until finished answers ("" when written).
    void saveOrUndo(std::shared_ptr<const Bytes> file, SaveQueue::Finished finished);
    // Records just added to the vault by one step (an import, a received
    // share): announced, then written; if the vault cannot be serialized or
    // written they are taken out again, so that memory and file agree.
    // finished answers "" when written, else why not (at once when it could
    // not be serialized: then the answer is also false).
    bool saveAdded(std::vector<vault::RecordId> ids, SaveQueue::Finished finished);
    // The PBKDF2 time a new password slot is calibrated to (the settings'
    // unlock target), 100 ms to 10 s.
    int unlockTargetMilliseconds() const { return m_unlockTargetMilliseconds; }
    void setUnlockTargetMilliseconds(int milliseconds);

signals:
    void stateChanged();
    void errorChanged();
    void progressChanged();
    void busyChanged();
    void savingChanged();
    // The worker finished (Unlocked or an error): for tests and the view.
    void unlockFinished(bool unlocked);
    // The vault file at path was written (for the backup folder).
    void saved(const QString& path);
    void saveFailed(const QString& message);
    // An unlocked vault is about to be shown, or is going away: the parts
    // fill or empty what they show.
    void opened();
    void closing();
    void recordsAdded(const std::vector<vault::RecordId>& ids);
    void recordsRemoved(const std::vector<vault::RecordId>& ids);
    void identityChanged();

private:
    // It merges into the vault and the file as they are between saves.
    friend class FolderSync;
    void setState(State state);
    // Takes records an add put in out of the vault again (announced).
    void takeBack(const std::vector<vault::RecordId>& ids);
    void setProgress(double progress);
    // Shows an unlocked vault (and keeps the storage it was read from).
    void show(std::unique_ptr<vault::Vault> vault, std::unique_ptr<vault::VaultStorage> storage);
    // The progress estimate for a KDF expected to take expectedMilliseconds.
    void startKdfProgress(double expectedMilliseconds);
    // Unlocking, with the progress of calibrating and deriving a new
    // password slot's key (create, recover).
    void startNewKeyProgress();
    // The end of unlock, recover and create: shows the vault, or goes back
    // to onFailure with the error. written: the worker saved the file.
    void finishOpening(detail::Opened& opened, State onFailure, bool written);
    void onWritten(const std::shared_ptr<const Bytes>& file, const QString& warning);

    QString m_path;
    State m_state = State::Missing;
    QString m_error;
    double m_progress = 0;
    bool m_demo = false;
    bool m_busy = false;
    bool m_saveDeferred = false;
    bool m_lockWhenIdle = false; // lock() came while a job held the vault
    int m_unlockTargetMilliseconds = 1000;
    std::unique_ptr<vault::Vault> m_vault;
    SaveQueue m_saves;
    // The demo's vault file, which lives in memory only.
    std::shared_ptr<const Bytes> m_memoryFile;
    RecoveryPhrase* m_phrase;
    Passwords* m_passwords;
    UndoHistory* m_history;
    SharingIdentity* m_identity;
    FolderSync* m_sync;
    // Progress while deriving: elapsed against the expected KDF time.
    QTimer m_progressTimer;
    QElapsedTimer m_kdfTimer;
    double m_expectedMilliseconds = 0;
};

// For the classes that use a VaultController without owning it: points
// slot at vault, dropping owner's connections to the previous one, and
// empties slot when that controller is destroyed. False, with nothing done,
// when slot already is vault.
bool bindVault(QObject* owner, VaultController*& slot, VaultController* vault);

} // namespace watchword::app
