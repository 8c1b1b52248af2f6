#include "app/vault/BackupFolder.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

using watchword::app::BackupFolder;

class TestBackupFolder : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void copiesTheFileOwnerOnly();
    void keepsTheNewestTen();
    void leavesOtherFilesAlone();
    void sameSecondReplaces();
    void missingFolder();
    void folderIsAFile();
    void notWritable();
    void missingVaultFile();
    void messagesNameTheCause();
    void backUpRunsOnTheWorkerAndReports();
    void failureIsReportedAndClearedBySuccess();
    void noFolderNoBackup();

private:
    QString writeVault(const QByteArray& contents);
    QStringList backups() const;

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_folder;
    QDateTime m_time;
};

void TestBackupFolder::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_folder = m_dir->filePath(QStringLiteral("backups"));
    QVERIFY(QDir().mkpath(m_folder));
    m_time = QDateTime(QDate(2024, 3, 9), QTime(14, 5, 7));
}

QString TestBackupFolder::writeVault(const QByteArray& contents)
{
    const QString path = m_dir->filePath(QStringLiteral("vault.wwv"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(contents) != contents.size())
        qFatal("could not write the test vault");
    return path;
}

QStringList TestBackupFolder::backups() const
{
    return QDir(m_folder).entryList(QDir::Files | QDir::Hidden, QDir::Name);
}

void TestBackupFolder::copiesTheFileOwnerOnly()
{
    // Large enough to take more than one read.
    QByteArray contents(200 * 1024, '\0');
    for (int i = 0; i < contents.size(); ++i)
        contents[i] = static_cast<char>(i * 7);
    const QString vault = writeVault(contents);
    // Even with a umask that would let others read.
    const mode_t previous = ::umask(0);
    const auto outcome = BackupFolder::write(vault, m_folder, m_time, 10);
    ::umask(previous);
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    QCOMPARE(outcome.path,
             QDir(m_folder).filePath(QStringLiteral("watchword-20240309-140507.wwv")));
    QCOMPARE(backups(), QStringList{QStringLiteral("watchword-20240309-140507.wwv")});
    QFile copy(outcome.path);
    QVERIFY(copy.open(QIODevice::ReadOnly));
    QCOMPARE(copy.readAll(), contents);
    struct stat info
    {};
    QCOMPARE(::stat(QFile::encodeName(outcome.path).constData(), &info), 0);
    QCOMPARE(info.st_mode & 0777, mode_t{0600});
}

void TestBackupFolder::keepsTheNewestTen()
{
    const QString vault = writeVault("vault bytes");
    QStringList expected;
    for (int i = 0; i < 13; ++i) {
        const QDateTime time = m_time.addSecs(i * 3600);
        const auto outcome = BackupFolder::write(vault, m_folder, time, 10);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        expected.append(BackupFolder::fileNameFor(time));
    }
    // The three oldest went, across a day boundary in the names.
    QCOMPARE(backups(), expected.mid(3));
    QVERIFY(expected.last().startsWith(QStringLiteral("watchword-20240310-")));
}

void TestBackupFolder::leavesOtherFilesAlone()
{
    const QStringList others = {
        QStringLiteral("notes.txt"), QStringLiteral("watchword-2024-old.wwv"),
        QStringLiteral("watchword-20240101-000000.wwv.txt"), QStringLiteral("vault.wwv.1")};
    for (const QString& name : others) {
        QFile file(QDir(m_folder).filePath(name));
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    const QString vault = writeVault("vault bytes");
    for (int i = 0; i < 3; ++i)
        QVERIFY(BackupFolder::write(vault, m_folder, m_time.addSecs(i), 1).error.isEmpty());
    QStringList expected = others;
    expected.append(BackupFolder::fileNameFor(m_time.addSecs(2)));
    expected.sort();
    QCOMPARE(backups(), expected);
}

void TestBackupFolder::sameSecondReplaces()
{
    QVERIFY(BackupFolder::write(writeVault("first"), m_folder, m_time, 10).error.isEmpty());
    const auto outcome = BackupFolder::write(writeVault("second"), m_folder, m_time, 10);
    QVERIFY(outcome.error.isEmpty());
    QCOMPARE(backups().size(), 1);
    QFile copy(outcome.path);
    QVERIFY(copy.open(QIODevice::ReadOnly));
    QCOMPARE(copy.readAll(), QByteArray("second"));
}

void TestBackupFolder::missingFolder()
{
    const QString missing = m_dir->filePath(QStringLiteral("unplugged-drive"));
    const auto outcome = BackupFolder::write(writeVault("x"), missing, m_time, 10);
    QVERIFY(outcome.path.isEmpty());
    QVERIFY2(outcome.error.contains(QStringLiteral("does not exist")), qPrintable(outcome.error));
    QVERIFY(outcome.error.contains(missing));
    QVERIFY(!QFile::exists(missing));
}

void TestBackupFolder::folderIsAFile()
{
    const QString vault = writeVault("x");
    const auto outcome = BackupFolder::write(vault, vault, m_time, 10);
    QVERIFY2(outcome.error.contains(QStringLiteral("is not a folder")), qPrintable(outcome.error));
}

void TestBackupFolder::notWritable()
{
    if (::geteuid() == 0)
        QSKIP("root writes to read-only folders");
    const QString vault = writeVault("x");
    QVERIFY(QFile::setPermissions(m_folder, QFile::ReadOwner | QFile::ExeOwner));
    const auto outcome = BackupFolder::write(vault, m_folder, m_time, 10);
    QFile::setPermissions(m_folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QVERIFY2(outcome.error.contains(QStringLiteral("not writable")), qPrintable(outcome.error));
    QVERIFY(backups().isEmpty());
}

void TestBackupFolder::missingVaultFile()
{
    const auto outcome =
        BackupFolder::write(m_dir->filePath(QStringLiteral("gone.wwv")), m_folder, m_time, 10);
    QVERIFY2(outcome.error.contains(QStringLiteral("Could not read the vault file")),
             qPrintable(outcome.error));
    QVERIFY(backups().isEmpty());
}

void TestBackupFolder::messagesNameTheCause()
{
    // The causes a test cannot bring about without root: a full disk, a
    // read-only file system.
    const QString folder = QStringLiteral("/media/usb/backups");
    QVERIFY(BackupFolder::describeFailure(ENOSPC, folder).contains(QStringLiteral("is full")));
    QVERIFY(BackupFolder::describeFailure(EDQUOT, folder).contains(QStringLiteral("is full")));
    QVERIFY(BackupFolder::describeFailure(EROFS, folder).contains(QStringLiteral("not writable")));
    QVERIFY(BackupFolder::describeFailure(EACCES, folder).contains(folder));
    const QString other = BackupFolder::describeFailure(EIO, folder);
    QVERIFY2(other.contains(folder) && other.contains(QString::fromLocal8Bit(strerror(EIO))),
             qPrintable(other));
}

void TestBackupFolder::backUpRunsOnTheWorkerAndReports()
{
    BackupFolder folder;
    QSignalSpy folderChanged(&folder, &BackupFolder::folderChanged);
    folder.setFolder(m_folder);
    QCOMPARE(folderChanged.count(), 1);
    QSignalSpy done(&folder, &BackupFolder::backedUp);
    QSignalSpy failed(&folder, &BackupFolder::failed);
    QSignalSpy busy(&folder, &BackupFolder::busyChanged);
    folder.backUp(writeVault("saved vault"));
    QVERIFY(folder.busy());
    QVERIFY(done.wait(10000));
    QVERIFY(!folder.busy());
    QCOMPARE(busy.count(), 2);
    QCOMPARE(failed.count(), 0);
    const QString path = done.at(0).at(0).toString();
    QCOMPARE(folder.lastBackup(), path);
    QVERIFY(QFileInfo(path).fileName().startsWith(QStringLiteral("watchword-")));
    QCOMPARE(QFileInfo(path).dir().absolutePath(), QDir(m_folder).absolutePath());
    QFile copy(path);
    QVERIFY(copy.open(QIODevice::ReadOnly));
    QCOMPARE(copy.readAll(), QByteArray("saved vault"));
}

void TestBackupFolder::failureIsReportedAndClearedBySuccess()
{
    BackupFolder folder;
    folder.setFolder(m_dir->filePath(QStringLiteral("not-there")));
    QSignalSpy failed(&folder, &BackupFolder::failed);
    QSignalSpy errorChanged(&folder, &BackupFolder::lastErrorChanged);
    const QString vault = writeVault("saved vault");
    folder.backUp(vault);
    QVERIFY(failed.wait(10000));
    QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("does not exist")));
    QCOMPARE(folder.lastError(), failed.at(0).at(0).toString());

    // The user creates the folder; the next save's backup clears the error.
    QVERIFY(QDir().mkpath(folder.folder()));
    QSignalSpy done(&folder, &BackupFolder::backedUp);
    folder.backUp(vault);
    QVERIFY(done.wait(10000));
    QVERIFY(folder.lastError().isEmpty());
    QCOMPARE(errorChanged.count(), 2);
}

void TestBackupFolder::noFolderNoBackup()
{
    BackupFolder folder;
    QSignalSpy busy(&folder, &BackupFolder::busyChanged);
    folder.backUp(writeVault("saved vault"));
    QVERIFY(!folder.busy());
    QCOMPARE(busy.count(), 0);
    QVERIFY(backups().isEmpty());
}

QTEST_GUILESS_MAIN(TestBackupFolder)
#include "TestBackupFolder.moc"
