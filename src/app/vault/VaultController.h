// The vault as the app sees it: what state it is in, and every change the
// user makes to it. QML calls the invokables; the accounts and notes come
// from accounts() and notes(), models the controller fills and empties.
//
// Threads. Everything that derives a key (unlock, create, recover, change the
// password, confirm the password) runs on a worker: the GUI thread never
// waits for PBKDF2. While such a job holds the vault, busy is true and edits
// are refused (the view disables them); the codes keep ticking, since the
// account model holds its own generators. Edits themselves are quick and
// made on the GUI thread; the file is written by a save job on a worker:
// serialize() (milliseconds: only changed records are sealed again), then
// lock the file, save atomically, give the lock up (so the command-line tool
// can write between our saves). Saves never overlap: a change made while one
// runs is written by one more save when it ends.
//
// Locking drops the vault (every SecureBuffer wipes itself), empties the
// models, drops the undo list and takes a copied code back from the
// clipboard. A "recently used" time is kept in memory on copy and written
// with the next save, or by one save when the vault is locked, so that
// copying codes does not rotate the backups on every click.
#pragma once

#include "app/codes/AccountListModel.h"
#include "app/codes/Clock.h"
#include "app/desktop/ClipboardService.h"
#include "app/notes/NoteListModel.h"
#include "base/Bytes.h"
#include "base/SecureBuffer.h"
#include "interop/importers/ImportPlan.h"
#include "vault/Records.h"
#include "vault/VaultFile.h"
#include "watch/WatchExport.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QUrl>
#include <QtQml/qqmlregistration.h>
#include <memory>
#include <optional>
#include <vector>

namespace watchword::vault {
class Vault;
class VaultStorage;
} // namespace watchword::vault
namespace watchword::keychain {
class Keychain;
}

namespace watchword::app {

class AccountDraft;
namespace detail {
struct WorkerOutcome; // what a worker hands back to the GUI thread
}

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
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(bool saving READ saving NOTIFY savingChanged)
    Q_PROPERTY(AccountListModel* accounts READ accounts CONSTANT)
    Q_PROPERTY(NoteListModel* notes READ notes CONSTANT)
    // A new recovery phrase waiting to be written down and confirmed: its
    // words, and the three positions (1-based) the user must type back.
    Q_PROPERTY(QStringList recoveryWords READ recoveryWords NOTIFY recoveryPhraseChanged)
    Q_PROPERTY(QList<int> confirmPositions READ confirmPositions NOTIFY recoveryPhraseChanged)
    // That new phrase's recovery key fingerprint, to write down beside it.
    Q_PROPERTY(
        QString newRecoveryFingerprint READ newRecoveryFingerprint NOTIFY recoveryPhraseChanged)
    // The fingerprint of the recovery key the vault file holds (what opens it
    // besides the password; docs/FORMAT.md section 6.8), "" if none is known.
    Q_PROPERTY(QString recoveryFingerprint READ recoveryFingerprint NOTIFY recoveryKeyChanged)
    // checkRecoveryPhrase()'s answer, "" before it is asked.
    Q_PROPERTY(QString phraseCheck READ phraseCheck NOTIFY phraseCheckChanged)
    Q_PROPERTY(bool phraseMatches READ phraseMatches NOTIFY phraseCheckChanged)
    Q_PROPERTY(bool canUndo READ canUndo NOTIFY undoChanged)
    Q_PROPERTY(QString undoText READ undoText NOTIFY undoChanged)
    // The PBKDF2 time the password slot is calibrated to when a vault is
    // created or its password changed (the settings' unlock target).
    Q_PROPERTY(int unlockTargetMilliseconds READ unlockTargetMilliseconds WRITE
                   setUnlockTargetMilliseconds NOTIFY unlockTargetMillisecondsChanged)

public:
    enum class State {
        Missing, // no vault file at path yet: the first-run flow
        Locked,
        Unlocking, // a worker is deriving the key and opening the records
        Unlocked,
    };
    Q_ENUM(State)

    // Words the user must type back to confirm a new phrase.
    static constexpr int confirmWordCount = 3;
    // Deleted records kept for undo, newest last; dropped on lock.
    static constexpr std::size_t undoDepth = 20;

    // A controller for the vault file at path (which may not exist yet).
    VaultController(QString path, Clock* clock, ClipboardService* clipboard,
                    QObject* parent = nullptr);
    ~VaultController() override;

    // A controller over a throw-away in-memory vault of sample accounts and
    // notes that is never written anywhere: `watchword --demo`. It is made on
    // a worker and shown unlocked; locked, it opens again with the password
    // "demo". Edits are kept in memory.
    static std::unique_ptr<VaultController> makeDemo(Clock* clock, ClipboardService* clipboard,
                                                     QObject* parent = nullptr);

    State state() const { return m_state; }
    const QString& path() const { return m_path; }
    const QString& error() const { return m_error; }
    double progress() const { return m_progress; }
    bool demo() const { return m_demo; }
    bool busy() const { return m_busy; }
    bool saving() const { return m_saving; }
    AccountListModel* accounts() { return &m_accounts; }
    NoteListModel* notes() { return &m_notes; }
    const QStringList& recoveryWords() const { return m_recoveryWords; }
    const QList<int>& confirmPositions() const { return m_confirmPositions; }
    QString newRecoveryFingerprint() const;
    QString recoveryFingerprint() const;
    const QString& phraseCheck() const { return m_phraseCheck; }
    bool phraseMatches() const { return m_phraseMatches; }
    bool canUndo() const { return !m_undo.empty(); }
    QString undoText() const;
    int unlockTargetMilliseconds() const { return m_unlockTargetMilliseconds; }
    void setUnlockTargetMilliseconds(int milliseconds);

    // What a watch export needs of the OTP accounts with these record ids
    // (hex), secrets copied into wiped buffers, in the order given. Empty,
    // with error set, if the vault is not unlocked and free, an id names no
    // account, or none is given.
    std::vector<watch::WatchAccount> watchAccounts(const QStringList& recordIds,
                                                   QString& error) const;

    // --- Import and export (ImportController, ExportController, QrCodeItem).
    // Copies of the OTP accounts with these record ids (hex) in the order
    // given, or of every account in the list's order when none is given.
    // Empty, with error set, if the vault is not unlocked and free or an id
    // names no account.
    std::vector<vault::OtpAccount> accountCopies(const QStringList& recordIds,
                                                 QString& error) const;
    // The preview of imported against this vault (importers::planImport).
    // Empty, with error set, if the vault is not unlocked and free.
    std::vector<importers::PlannedAccount> planImport(const importers::Imported& imported,
                                                      QString& error) const;
    // Adds imported.accounts[i] for every i in chosen, all or none, and
    // saves them. False, with error set and nothing added, if they cannot be
    // added or serialized. Otherwise the vault is busy until the file is
    // written, and importFinished() answers: on a failed write the accounts
    // are taken out of the vault again, so that memory and file agree.
    bool addImported(const importers::Imported& imported, const std::vector<std::size_t>& chosen);

    // --- Strength hint for a new password (0 very weak .. 4 very strong).
    Q_INVOKABLE int passwordStrength(const QString& password) const;
    Q_INVOKABLE QString passwordStrengthHint(const QString& password) const;

    // --- First run. beginCreate checks the two passwords (equal, not very
    // weak) and makes a new 24-word phrase on a worker; recoveryWords then
    // holds it. confirmRecoveryPhrase(words) takes the words at
    // confirmPositions; right, it creates the vault (calibrated KDF, on a
    // worker) and saves it; it ends Unlocked. cancelRecoveryPhrase forgets
    // the phrase and the password.
    Q_INVOKABLE bool beginCreate(QString password, QString repeat);
    Q_INVOKABLE bool confirmRecoveryPhrase(const QStringList& words);
    Q_INVOKABLE void cancelRecoveryPhrase();

    // --- Unlocking. Ignored unless Locked. Ends in Unlocked, or Locked with
    // error set. The password is wiped from the string as it is read.
    // First run: an existing vault file (a backup, a copy from another
    // computer) becomes this app's vault: checked to be one, copied to
    // path() (0600, never over a file) and then unlocked as usual. The
    // chosen file is only read.
    Q_INVOKABLE bool adoptVaultFile(const QUrl& file);

    Q_INVOKABLE void unlock(QString password);
    // Opens the vault with its recovery phrase and sets a new password (a
    // new master key, every record sealed again); the file is saved.
    Q_INVOKABLE void recover(QString phrase, QString newPassword, QString repeat);
    // Back to Locked: wipes every decrypted secret.
    Q_INVOKABLE void lock();

    // --- Password and phrase, while unlocked.
    Q_INVOKABLE bool changePassword(QString current, QString newPassword, QString repeat);
    // Asks for the password again, then makes a new phrase (the vault keeps
    // no phrase, so it cannot show the old one); confirmed as at first run,
    // it replaces the recovery slot and the old phrase stops working.
    Q_INVOKABLE bool beginNewRecoveryPhrase(QString password);
    // Whether phrase opens this vault: its recovery key against the one the
    // file holds, no password needed. The answer is phraseCheck (and
    // phraseMatches); the phrase text is wiped.
    Q_INVOKABLE void checkRecoveryPhrase(QString phrase);
    Q_INVOKABLE void clearPhraseCheck();

    // --- Accounts. recordId is the hex record id the models show.
    Q_INVOKABLE bool copyCode(const QString& recordId);
    Q_INVOKABLE bool addAccount(AccountDraft* draft);
    // The label of a vault account that shows the same codes as the draft
    // (same secret, kind, algorithm, digits and period; the draft's own
    // record aside), or an empty string: the add dialog warns before the
    // same account is added twice.
    Q_INVOKABLE QString duplicateOf(watchword::app::AccountDraft* draft) const;
    Q_INVOKABLE bool updateAccount(AccountDraft* draft);
    // A draft filled from the account, for editing (owned by the caller:
    // JavaScript's garbage collector in QML), or null.
    Q_INVOKABLE watchword::app::AccountDraft* draftFor(const QString& recordId);
    Q_INVOKABLE bool removeAccount(const QString& recordId);
    // HOTP: counter + 1, saved before the new code is shown.
    Q_INVOKABLE bool advanceCounter(const QString& recordId);
    // Manual order: moves the account to position `to` of the accounts in
    // manual order (as AccountFilterModel shows them with Order::Manual).
    Q_INVOKABLE bool moveAccount(const QString& recordId, int to);

    // --- Notes.
    Q_INVOKABLE QString addNote(const QString& title, QString body, const QStringList& tags);
    Q_INVOKABLE bool updateNote(const QString& recordId, const QString& title, QString body,
                                const QStringList& tags);
    Q_INVOKABLE bool removeNote(const QString& recordId);
    // The body of a note, for showing on request (empty if none).
    Q_INVOKABLE QString revealNote(const QString& recordId) const;
    // The notes' search: true if the title, a tag or the body contains
    // query, ignoring case and accents ("zurich" finds "Zürich"). The body
    // is read in memory and its folded copy wiped; nothing is kept.
    Q_INVOKABLE bool noteMatches(const QString& recordId, const QString& query) const;

    // Puts the last deleted record back.
    Q_INVOKABLE bool undo();
    Q_INVOKABLE void clearError();

signals:
    void stateChanged();
    void errorChanged();
    void progressChanged();
    void busyChanged();
    void savingChanged();
    void recoveryPhraseChanged();
    void recoveryKeyChanged();
    void phraseCheckChanged();
    void undoChanged();
    void unlockTargetMillisecondsChanged();
    // The worker finished (Unlocked or an error): for tests and the view.
    void unlockFinished(bool unlocked);
    // A password change or a new recovery phrase finished.
    void operationFinished(bool succeeded);
    // The vault file at path was written (for the backup folder).
    void saved(const QString& path);
    void saveFailed(const QString& message);
    // addImported()'s answer: the accounts are in the vault and its file, or
    // (added false) in neither, message saying why.
    void importFinished(bool added, const QString& message);

private:
    enum class PhrasePurpose { Create, Replace };

    void setState(State state);
    void setError(QString error);
    void setProgress(double progress);
    void setBusy(bool busy);
    void setSaving(bool saving);
    // Shows an unlocked vault (and keeps the storage it was read from).
    void showVault(std::unique_ptr<vault::Vault> vault,
                   std::unique_ptr<vault::VaultStorage> storage);
    void showRecoveryPhrase(std::unique_ptr<keychain::Keychain> keychain, PhrasePurpose purpose);
    void forgetRecoveryPhrase();
    // Keeps a vault file's header (its recovery key) for the fingerprint.
    void noteRecoveryKey(ByteView file);
    // The worker part of unlock(), recover() and the create flow: starts the
    // progress estimate for a KDF expected to take expectedMilliseconds.
    void startKdfProgress(double expectedMilliseconds);
    void finishKdfProgress(bool succeeded);
    // The end of unlock, recover and create: shows the vault, or goes back to
    // onFailure with the error. written: the worker saved the file.
    void finishOpening(detail::WorkerOutcome& outcome, State onFailure, bool written);
    // Checks the vault may be edited now (unlocked, not busy), or sets error.
    bool editable();
    // Serializes the vault and writes it: a save job, or, while one runs,
    // the bytes the next one writes (the newest win).
    void requestSave();
    void writeBytes(std::shared_ptr<const Bytes> file);
    // The end of an import's save: error empty when the file was written.
    void finishImport(const QString& error);
    // Takes the records with these ids out of the vault and the model.
    void removeAdded(const std::vector<vault::RecordId>& ids);
    void refreshAccount(const vault::OtpAccount& account);
    // The record of that kind with that id (hex), or null.
    template <typename Kind> const Kind* findRecord(const QString& recordId) const;
    // Deletes the record of that kind, keeping it for undo.
    bool removeRecord(const QString& recordId, vault::RecordKind kind);
    // Remembers record (a deleted one) for undo.
    void pushUndo(QString description, const vault::Record& record);

    QString m_path;
    Clock* m_clock;
    ClipboardService* m_clipboard;
    AccountListModel m_accounts;
    NoteListModel m_notes;
    State m_state = State::Missing;
    QString m_error;
    double m_progress = 0;
    bool m_demo = false;
    bool m_busy = false;
    bool m_saving = false;
    bool m_usageUnsaved = false;
    bool m_lockWhenIdle = false; // lock() came while a job held the vault
    int m_unlockTargetMilliseconds = 1000;
    std::unique_ptr<vault::Vault> m_vault;
    // The file, between save jobs (a job takes it and hands it back).
    std::unique_ptr<vault::VaultStorage> m_storage;
    std::shared_ptr<const Bytes> m_queuedFile;
    // The first-run password, between beginCreate and the confirmation.
    SecureBuffer m_pendingPassword;
    std::unique_ptr<keychain::Keychain> m_pendingKeychain;
    PhrasePurpose m_phrasePurpose = PhrasePurpose::Create;
    QStringList m_recoveryWords;
    QList<int> m_confirmPositions;
    // The header of the vault file last read or written (what the recovery
    // key fingerprint and the phrase check read).
    std::optional<vault::VaultHeaderInfo> m_fileHeader;
    QString m_phraseCheck;
    bool m_phraseMatches = false;
    struct Deleted;
    std::vector<std::unique_ptr<Deleted>> m_undo;
    // Progress while deriving: elapsed against the expected KDF time.
    QTimer m_progressTimer;
    QElapsedTimer m_kdfTimer;
    double m_expectedMilliseconds = 0;
    // An import waiting for its save: the file that holds it and the ids
    // it added (taken out again if that file cannot be written).
    struct PendingImport
    {
        std::shared_ptr<const Bytes> file;
        std::vector<vault::RecordId> ids;
    };
    std::optional<PendingImport> m_import;
    // The demo's vault file, which lives in memory only.
    std::shared_ptr<const Bytes> m_memoryFile;
};

// For the classes that use a VaultController without owning it: points
// slot at vault, dropping owner's connections to the previous one, and
// empties slot when that controller is destroyed. False, with nothing done,
// when slot already is vault.
bool bindVault(QObject* owner, VaultController*& slot, VaultController* vault);

} // namespace watchword::app
