#include "app/vault/BackupFolder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace watchword::app {

namespace {

// What pruning may remove: exactly the names backups get.
const QRegularExpression backupName(QStringLiteral("^watchword-\\d{8}-\\d{6}\\.wwv$"));

// Closes a descriptor on every path out.
class Descriptor
{
public:
    explicit Descriptor(int fd) : m_fd(fd) {}
    ~Descriptor()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    int get() const { return m_fd; }
    // Closes now, reporting the error a deferred write may only show here.
    int close()
    {
        const int fd = m_fd;
        m_fd = -1;
        return ::close(fd);
    }

private:
    int m_fd;
};

bool writeAll(int fd, const char* data, qint64 size)
{
    while (size > 0) {
        const ssize_t written = ::write(fd, data, static_cast<size_t>(size));
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data += written;
        size -= written;
    }
    return true;
}

QString systemMessage(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

// Removes all but the newest `keep` backups; a failure here is not the
// backup's failure, so it is not reported.
void prune(const QString& folder, int keep)
{
    QDir dir(folder);
    QStringList names;
    for (const QString& name : dir.entryList(QDir::Files | QDir::Hidden, QDir::Name)) {
        if (backupName.match(name).hasMatch())
            names.append(name);
    }
    // yyyyMMdd-HHmmss sorts by time.
    std::sort(names.begin(), names.end());
    for (qsizetype i = 0; i + keep < names.size(); ++i)
        dir.remove(names.at(i));
}

} // namespace

BackupFolder::BackupFolder(QObject* parent) : QObject(parent)
{
    m_pool.setMaxThreadCount(1);
}

BackupFolder::~BackupFolder()
{
    m_pool.waitForDone();
}

void BackupFolder::setFolder(const QString& folder)
{
    if (folder == m_folder)
        return;
    m_folder = folder;
    emit folderChanged();
    if (!m_lastError.isEmpty()) {
        // The old folder's problem says nothing about the new one.
        m_lastError.clear();
        emit lastErrorChanged();
    }
}

void BackupFolder::setKeep(int keep)
{
    m_keep = std::max(1, keep);
}

QString BackupFolder::fileNameFor(const QDateTime& time)
{
    return QStringLiteral("watchword-%1.wwv").arg(time.toString(QStringLiteral("yyyyMMdd-HHmmss")));
}

QString BackupFolder::describeFailure(int error, const QString& folder)
{
    switch (error) {
    case ENOENT:
        return tr("The backup folder %1 does not exist.").arg(folder);
    case ENOTDIR:
        return tr("The backup folder %1 is not a folder.").arg(folder);
    case EACCES:
    case EPERM:
    case EROFS:
        return tr("The backup folder %1 is not writable.").arg(folder);
    case ENOSPC:
    case EDQUOT:
        return tr("The disk of the backup folder %1 is full.").arg(folder);
    default:
        return tr("Could not write a backup to %1: %2.").arg(folder, systemMessage(error));
    }
}

BackupFolder::Outcome BackupFolder::write(const QString& vaultPath, const QString& folder,
                                          const QDateTime& time, int keep)
{
    QFile source(vaultPath);
    if (!source.open(QIODevice::ReadOnly))
        return {{},
                tr("Could not read the vault file %1 to back it up: %2.")
                    .arg(vaultPath, source.errorString())};

    QFileInfo info(folder);
    if (!info.exists())
        return {{}, describeFailure(ENOENT, folder)};
    if (!info.isDir())
        return {{}, describeFailure(ENOTDIR, folder)};

    const QString target = QDir(folder).filePath(fileNameFor(time));
    // Hidden and outside the pruned pattern: a temporary file left by a
    // crash is never mistaken for a backup.
    QByteArray temporary =
        QFile::encodeName(QDir(folder).filePath(QStringLiteral(".watchword-XXXXXX")));
    // mkostemp: O_EXCL, mode 0600; fchmod makes it exactly 0600 whatever the
    // umask took away.
    Descriptor fd(::mkostemp(temporary.data(), O_CLOEXEC));
    if (fd.get() < 0)
        return {{}, describeFailure(errno, folder)};
    const auto fail = [&](int error) {
        ::unlink(temporary.constData());
        return Outcome{{}, describeFailure(error, folder)};
    };
    if (::fchmod(fd.get(), S_IRUSR | S_IWUSR) != 0)
        return fail(errno);

    char buffer[64 * 1024];
    for (;;) {
        const qint64 read = source.read(buffer, sizeof buffer);
        if (read < 0) {
            ::unlink(temporary.constData());
            return {{},
                    tr("Could not read the vault file %1 to back it up: %2.")
                        .arg(vaultPath, source.errorString())};
        }
        if (read == 0)
            break;
        if (!writeAll(fd.get(), buffer, read))
            return fail(errno);
    }
    // On the disk before it has its name: a crash leaves the old backups and
    // at worst a temporary file, never a short backup.
    if (::fsync(fd.get()) != 0)
        return fail(errno);
    if (fd.close() != 0)
        return fail(errno);
    if (::rename(temporary.constData(), QFile::encodeName(target).constData()) != 0)
        return fail(errno);
    // The rename itself, on the disk.
    Descriptor directory(
        ::open(QFile::encodeName(folder).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (directory.get() >= 0)
        ::fsync(directory.get());

    prune(folder, keep);
    return {target, {}};
}

void BackupFolder::backUp(const QString& vaultPath)
{
    if (m_folder.isEmpty() || vaultPath.isEmpty())
        return;
    const QString folder = m_folder;
    const int keep = m_keep;
    const QDateTime time = QDateTime::currentDateTime();
    if (m_pending++ == 0)
        emit busyChanged();
    m_pool.start([this, vaultPath, folder, time, keep] {
        const Outcome outcome = write(vaultPath, folder, time, keep);
        // Back on the GUI thread; if this object is gone by then, so is the
        // call (its destructor waited for this worker first).
        QMetaObject::invokeMethod(
            this, [this, outcome] { finish(outcome); }, Qt::QueuedConnection);
    });
}

void BackupFolder::finish(const Outcome& outcome)
{
    if (outcome.error.isEmpty()) {
        m_lastBackup = outcome.path;
        emit lastBackupChanged();
        if (!m_lastError.isEmpty()) {
            m_lastError.clear();
            emit lastErrorChanged();
        }
        emit backedUp(outcome.path);
    } else {
        m_lastError = outcome.error;
        emit lastErrorChanged();
        emit failed(outcome.error);
    }
    if (--m_pending == 0)
        emit busyChanged();
}

} // namespace watchword::app
