// Keeps the unlocked vault one with its file when something else changes
// the file: a sync engine bringing another device's save, the command-line
// tool, a conflict copy left beside it (docs/FORMAT.md section 13).
//
// It watches the vault's folder (a sync engine replaces the file by rename,
// which ends a watch on the file itself) and the file, and looks again every
// few seconds (network file systems do not notify). When the file is not
// what the vault last read or wrote, it opens it with the vault's key and
// merges it into the vault in memory, unsaved changes included, then writes
// the result if the file lacks something of it. A save that finds the file
// changed merges it the same way and writes the merged vault instead
// (SaveQueue's remerge). Conflict copies of the vault in the folder are
// merged too, and moved into the folder .watchword-merged once the merged
// vault is on disk. What was merged is said in one short line (merged());
// a copy saved under a password changed on another device waits for that
// password (passwordWantedFor); a copy that cannot be merged (damaged,
// another vault) is named in problem and left where it is.
#pragma once

#include "base/Bytes.h"
#include "vault/Storage.h"
#include "vault/Vault.h"

#include <QFileSystemWatcher>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QtQml/qqmlregistration.h>
#include <optional>

namespace watchword::app {

class VaultController;

class FolderSync : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the folder sync belongs to the vault controller")
    // The file whose changes wait for the password it was saved under
    // (changed on another device), as a name to show; "" when none.
    Q_PROPERTY(QString passwordWantedFor READ passwordWantedFor NOTIFY passwordWantedChanged)
    Q_PROPERTY(QString passwordError READ passwordError NOTIFY passwordErrorChanged)
    Q_PROPERTY(bool opening READ opening NOTIFY openingChanged)
    // Why a file beside the vault, or the vault file itself, was not merged;
    // "" when all is well.
    Q_PROPERTY(QString problem READ problem NOTIFY problemChanged)

public:
    explicit FolderSync(VaultController& session);

    const QString& passwordWantedFor() const { return m_passwordWantedFor; }
    const QString& passwordError() const { return m_passwordError; }
    bool opening() const { return m_opening; }
    const QString& problem() const { return m_problem; }

    // Looks at the file and the folder now (also what the watcher and the
    // timer call, after a short pause for bursts of events).
    Q_INVOKABLE void checkNow();
    // Opens the file that waits with password (on a worker), merges it and
    // saves. A wrong password keeps asking; the string is wiped as read.
    Q_INVOKABLE void providePassword(QString password);
    // Not now: the file waits until it changes again or checkNow().
    Q_INVOKABLE void later();
    Q_INVOKABLE void clearProblem();

    // For SaveQueue: a save found the file changed. Merges it into the vault
    // and answers the bytes to write instead, or null (then the save fails
    // as before: a password is wanted, or the file cannot be merged).
    std::shared_ptr<const Bytes> remerge(vault::VaultStorage& storage);

signals:
    void passwordWantedChanged();
    void passwordErrorChanged();
    void openingChanged();
    void problemChanged();
    // A change from another device is in the vault: "2 accounts added on
    // another device".
    void merged(const QString& summary);

private:
    enum class Outcome {
        Merged,        // in the vault now (report says what it brought)
        Older,         // an older copy than one the vault holds: nothing to take
        NeedsPassword, // saved under another password
        Refused,       // not this vault, or damaged: message says why
    };
    struct FileMerge
    {
        Outcome outcome = Outcome::Refused;
        vault::MergeReport report;
        QString message;
    };

    void start();
    void stop();
    void schedule();
    // The vault file, then the conflict copies, with the storage idle.
    void check(vault::VaultStorage& storage);
    // Merges the vault file as it is now; true if the vault must be written.
    // lookFirst: skip a file whose metadata has not changed.
    bool mergeVaultFile(vault::VaultStorage& storage, FileMerge& result, bool lookFirst);
    void mergeConflictCopies();
    // Opens bytes with the vault's key (or takes opened) and merges them in.
    FileMerge mergeBytes(ByteView bytes, std::optional<vault::Vault> opened = std::nullopt);
    void announce(const vault::MergeReport& report);
    void setAsideWaitingCopies();
    void setPasswordWanted(const QString& name);
    void setProblem(const QString& problem);

    VaultController& m_session;
    QFileSystemWatcher m_watcher;
    QTimer m_pause; // events come in bursts: act once they stop
    QTimer m_poll;
    bool m_active = false;
    // The file that waits for a password: its path ("" for the vault file)
    // and bytes.
    std::optional<QString> m_waitingPath;
    Bytes m_waitingBytes;
    QSet<QByteArray> m_declined;   // SHA-256 of files the user said "later" to
    QSet<QByteArray> m_refused;    // SHA-256 of files already named in problem
    QStringList m_copiesAfterSave; // merged copies to move once the vault is written
    QString m_passwordWantedFor;
    QString m_passwordError;
    bool m_opening = false;
    QString m_problem;
};

} // namespace watchword::app
