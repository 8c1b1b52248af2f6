// Copies the vault file into a folder of the user's choice after every save:
// a second place for the vault, for instance a synced or removable drive
// (the rolling backups VaultStorage keeps live beside the vault, on the same
// disk).
//
// The file is already encrypted; it is copied as is to
// watchword-YYYYMMDD-HHMMSS.wwv (local time) through a temporary file that is
// written, synced and renamed into place, readable by the owner only, so the
// folder never holds half a backup. The newest `keep` backups stay (by name,
// which sorts by time); older ones of that exact name pattern are removed,
// and nothing else in the folder is touched.
//
// The copying runs on a worker thread of its own, one backup at a time, so
// the GUI thread never waits for a slow or removable disk and two quick saves
// never race over the pruning. A failure is reported, never fatal: the vault
// itself is saved already.
#pragma once

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QtQml/qqmlregistration.h>

namespace watchword::app {

class BackupFolder : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the backup folder is made by main()")
    Q_PROPERTY(QString folder READ folder WRITE setFolder NOTIFY folderChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QString lastError READ lastError NOTIFY lastErrorChanged)
    Q_PROPERTY(QString lastBackup READ lastBackup NOTIFY lastBackupChanged)

public:
    static constexpr int defaultKeep = 10;

    // What one backup came to: the file written, or why not.
    struct Outcome
    {
        QString path;
        QString error;
    };

    explicit BackupFolder(QObject* parent = nullptr);
    // Waits for a backup under way: quitting must not leave a temporary file.
    ~BackupFolder() override;

    // Empty: no backups.
    const QString& folder() const { return m_folder; }
    void setFolder(const QString& folder);
    int keep() const { return m_keep; }
    void setKeep(int keep);

    bool busy() const { return m_pending > 0; }
    // The last failure's message, cleared by the next success.
    const QString& lastError() const { return m_lastError; }
    // The path of the last backup written.
    const QString& lastBackup() const { return m_lastBackup; }

    // The file name of a backup made at that time.
    static QString fileNameFor(const QDateTime& time);
    // One backup, synchronously: what the worker runs, and what tests call
    // with times of their choosing.
    static Outcome write(const QString& vaultPath, const QString& folder, const QDateTime& time,
                         int keep);
    // The sentence for a failed system call on the backup folder.
    static QString describeFailure(int error, const QString& folder);

public slots:
    // Copies the vault file at vaultPath into the folder, on the worker.
    // Connected to VaultController::saved; does nothing without a folder.
    void backUp(const QString& vaultPath);

signals:
    void folderChanged();
    void busyChanged();
    void lastErrorChanged();
    void lastBackupChanged();
    void backedUp(const QString& path);
    void failed(const QString& message);

private:
    void finish(const Outcome& outcome);

    QString m_folder;
    int m_keep = defaultKeep;
    int m_pending = 0;
    QString m_lastError;
    QString m_lastBackup;
    QThreadPool m_pool;
};

} // namespace watchword::app
