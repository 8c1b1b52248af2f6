#include "vault/Storage.h"

#include "base/FileIo.h"
#include "crypto/Hash.h"
#include "encoding/Hex.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <memory>
#include <pwd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace watchword::vault {

namespace {

constexpr mode_t fileMode = 0600;
constexpr mode_t directoryMode = 0700;
constexpr std::size_t tempSuffixBytes = 8; // 16 hex digits
constexpr std::string_view tempMarker = ".tmp-";
constexpr int tempNameAttempts = 8;

std::string errnoText(int error)
{
    return std::error_code(error, std::generic_category()).message();
}

StorageErrorCode codeForErrno(int error) noexcept
{
    switch (error) {
    case ENOSPC:
    case EDQUOT:
    case EFBIG: // RLIMIT_FSIZE or the file system's own limit: no room either way
        return StorageErrorCode::DiskFull;
    case EACCES:
    case EPERM:
    case EROFS:
        return StorageErrorCode::PermissionDenied;
    case ENOENT:
        return StorageErrorCode::NotFound;
    default:
        return StorageErrorCode::IoError;
    }
}

// "could not <action> <path>: <system text>", with the code errno maps to.
Failure<StorageError> systemFailure(std::string_view action, std::string_view path, int error)
{
    std::string message = "could not ";
    message.append(action).append(" ").append(path).append(": ").append(errnoText(error));
    return fail(codeForErrno(error), std::move(message));
}

// A file descriptor closed when it dies.
class FileDescriptor
{
public:
    FileDescriptor() noexcept = default;
    explicit FileDescriptor(int descriptor) noexcept : m_descriptor(descriptor) {}
    ~FileDescriptor() { reset(); }
    FileDescriptor(FileDescriptor&& other) noexcept
        : m_descriptor(std::exchange(other.m_descriptor, -1))
    {}
    FileDescriptor& operator=(FileDescriptor&& other) noexcept
    {
        if (this != &other) {
            reset();
            m_descriptor = std::exchange(other.m_descriptor, -1);
        }
        return *this;
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;

    int get() const noexcept { return m_descriptor; }
    // Gives up ownership: the caller closes it.
    int release() noexcept { return std::exchange(m_descriptor, -1); }
    bool valid() const noexcept { return m_descriptor >= 0; }
    // Closes now and reports close()'s errno (0 if fine): a network file
    // system may report a failed write only here.
    int close() noexcept
    {
        const int descriptor = std::exchange(m_descriptor, -1);
        if (descriptor >= 0 && ::close(descriptor) != 0)
            return errno == EINTR ? 0 : errno; // Linux closes even on EINTR
        return 0;
    }

private:
    void reset() noexcept
    {
        if (m_descriptor >= 0)
            ::close(m_descriptor);
        m_descriptor = -1;
    }

    int m_descriptor = -1;
};

std::string directoryOf(std::string_view path)
{
    const auto slash = path.find_last_of('/');
    if (slash == std::string_view::npos)
        return ".";
    if (slash == 0)
        return "/";
    return std::string(path.substr(0, slash));
}

std::string_view baseNameOf(std::string_view path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::int64_t modifiedNanoseconds(const struct stat& status) noexcept
{
    return static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 +
           static_cast<std::int64_t>(status.st_mtim.tv_nsec);
}

FileIdentity identityOf(const struct stat& status, ByteView bytes)
{
    FileIdentity identity;
    identity.device = static_cast<std::uint64_t>(status.st_dev);
    identity.inode = static_cast<std::uint64_t>(status.st_ino);
    identity.size = static_cast<std::uint64_t>(status.st_size);
    identity.modifiedNanoseconds = modifiedNanoseconds(status);
    identity.sha256 = crypto::sha256(bytes);
    return identity;
}

int openRetrying(const char* path, int flags, mode_t mode = 0) noexcept
{
    int descriptor;
    do {
        descriptor = ::open(path, flags, mode);
    } while (descriptor < 0 && errno == EINTR);
    return descriptor;
}

struct FileSnapshot
{
    Bytes bytes;
    FileIdentity identity;
    mode_t mode = 0;
};

// Reads the regular file at path (not through a final symbolic link).
Result<FileSnapshot, StorageError> readFile(const std::string& path)
{
    // Never waits: a FIFO or a device at the path is refused, not opened.
    const RegularFile opened = openRegularFile(path.c_str(), O_NOFOLLOW);
    if (!opened.kind.empty())
        return fail(StorageErrorCode::IoError,
                    notRegularFileMessage(path, opened.kind) + ": a vault is a file");
    FileDescriptor file(opened.descriptor);
    if (!file.valid()) {
        if (opened.error == ELOOP)
            return fail(StorageErrorCode::IoError,
                        path + " is a symbolic link; saving replaces the file, which would cut "
                               "the link, so give the path of the real file");
        return systemFailure("open", path, opened.error);
    }
    struct stat status
    {};
    if (::fstat(file.get(), &status) != 0)
        return systemFailure("read the status of", path, errno);
    if (static_cast<std::uint64_t>(status.st_size) > maximumVaultFileSize)
        return fail(StorageErrorCode::IoError, path + " is " + std::to_string(status.st_size) +
                                                   " bytes, larger than any vault (limit " +
                                                   std::to_string(maximumVaultFileSize) + ")");

    Bytes bytes(static_cast<std::size_t>(status.st_size));
    std::size_t done = 0;
    for (;;) {
        if (done == bytes.size()) {
            // The file may have grown since fstat: look for more.
            if (bytes.size() >= maximumVaultFileSize)
                return fail(StorageErrorCode::IoError, path + " grew beyond any vault while read");
            bytes.resize(bytes.size() + 4096);
        }
        const ssize_t got = ::read(file.get(), bytes.data() + done, bytes.size() - done);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return systemFailure("read", path, errno);
        }
        if (got == 0)
            break;
        done += static_cast<std::size_t>(got);
    }
    bytes.resize(done);
    if (::fstat(file.get(), &status) != 0)
        return systemFailure("read the status of", path, errno);
    FileIdentity identity = identityOf(status, bytes);
    return FileSnapshot{std::move(bytes), identity, status.st_mode};
}

// fsync of a directory makes a rename or link in it durable. Some file
// systems cannot fsync a directory (EINVAL): nothing more can be done there.
Result<void, StorageError> syncDirectory(const std::string& directory)
{
    FileDescriptor handle(openRetrying(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!handle.valid())
        return systemFailure("open the directory", directory, errno);
    if (::fsync(handle.get()) != 0 && errno != EINVAL)
        return systemFailure("flush the directory", directory, errno);
    return {};
}

// Creates directory and its missing parents, each exactly 0700; existing
// ones are left as they are.
Result<void, StorageError> makeDirectories(const std::string& directory)
{
    std::size_t position = 0;
    while (position != std::string::npos) {
        position = directory.find('/', position + 1);
        const std::string prefix = directory.substr(0, position);
        if (prefix.empty())
            continue;
        if (::mkdir(prefix.c_str(), directoryMode) == 0) {
            // Exactly 0700 whatever the umask, so our own saves can write there.
            if (::chmod(prefix.c_str(), directoryMode) != 0)
                return systemFailure("set the mode of the directory", prefix, errno);
            continue;
        }
        const int error = errno;
        struct stat status
        {};
        if (error == EEXIST && ::stat(prefix.c_str(), &status) == 0) {
            if (S_ISDIR(status.st_mode))
                continue;
            return systemFailure("create the directory", prefix, ENOTDIR);
        }
        return systemFailure("create the directory", prefix, error);
    }
    return {};
}

// A written and flushed temp file beside the vault, removed when it dies
// unless it was moved into place (release()).
class TempFile
{
public:
    TempFile(std::string path, FileIdentity identity)
        : m_path(std::move(path)), m_identity(identity)
    {}
    ~TempFile()
    {
        if (!m_path.empty())
            ::unlink(m_path.c_str());
    }
    TempFile(TempFile&& other) noexcept
        : m_path(std::exchange(other.m_path, std::string())), m_identity(other.m_identity)
    {}
    TempFile& operator=(TempFile&&) = delete;
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    const std::string& path() const noexcept { return m_path; }
    const FileIdentity& identity() const noexcept { return m_identity; }
    void release() noexcept { m_path.clear(); }

private:
    std::string m_path;
    FileIdentity m_identity;
};

// Writes bytes to a new temp file next to vaultPath: O_EXCL with a random
// name, mode exactly 0600, every byte written, fsync, close checked.
Result<TempFile, StorageError> writeTempFile(const std::string& vaultPath, ByteView bytes,
                                             crypto::RandomSource& random)
{
    const std::string prefix = directoryOf(vaultPath) + "/." + std::string(baseNameOf(vaultPath)) +
                               std::string(tempMarker);
    for (int attempt = 0; attempt < tempNameAttempts; ++attempt) {
        std::array<std::uint8_t, tempSuffixBytes> suffix{};
        random.fill(suffix);
        std::string path = prefix + encoding::toHex(suffix);
        FileDescriptor file(openRetrying(
            path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, fileMode));
        if (!file.valid()) {
            if (errno == EEXIST)
                continue;
            return systemFailure("create a temp file for", vaultPath, errno);
        }
        // From here the name is ours: the TempFile removes it on every failure.
        TempFile temp(path, FileIdentity{});
        // The umask may have taken bits away; the mode must be exactly 0600.
        if (::fchmod(file.get(), fileMode) != 0)
            return systemFailure("set the mode of the temp file for", vaultPath, errno);
        if (const int error = writeAll(file.get(), bytes); error != 0)
            return systemFailure("write the temp file for", vaultPath, error);
        if (::fsync(file.get()) != 0)
            return systemFailure("flush the temp file for", vaultPath, errno);
        struct stat status
        {};
        if (::fstat(file.get(), &status) != 0)
            return systemFailure("read the status of the temp file for", vaultPath, errno);
        if (const int error = file.close(); error != 0)
            return systemFailure("close the temp file for", vaultPath, error);
        TempFile written(temp.path(), identityOf(status, bytes));
        temp.release();
        return written;
    }
    return fail(StorageErrorCode::IoError,
                "could not find a free temp file name beside " + vaultPath);
}

bool isLowerHex(char c) noexcept
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

std::string describe(const FileIdentity& was, const FileIdentity& now)
{
    if (was.device != now.device || was.inode != now.inode)
        return "was replaced by another file";
    if (was.size != now.size)
        return "changed size";
    if (was.modifiedNanoseconds != now.modifiedNanoseconds)
        return "was modified";
    return "was rewritten in place (same size and time, different bytes)";
}

} // namespace

VaultStorage::VaultStorage(std::string path, crypto::RandomSource& random, StorageOptions options)
    : m_path(std::move(path)), m_random(&random), m_backupCount(options.backupCount)
{}

VaultStorage::~VaultStorage()
{
    releaseLock();
}

VaultStorage::VaultStorage(VaultStorage&& other) noexcept
    : m_path(std::move(other.m_path)), m_random(other.m_random), m_backupCount(other.m_backupCount),
      m_contents(std::move(other.m_contents)), m_identity(other.m_identity),
      m_warning(std::move(other.m_warning)),
      m_lockDescriptor(std::exchange(other.m_lockDescriptor, -1))
{}

VaultStorage& VaultStorage::operator=(VaultStorage&& other) noexcept
{
    if (this != &other) {
        releaseLock();
        m_path = std::move(other.m_path);
        m_random = other.m_random;
        m_backupCount = other.m_backupCount;
        m_contents = std::move(other.m_contents);
        m_identity = other.m_identity;
        m_warning = std::move(other.m_warning);
        m_lockDescriptor = std::exchange(other.m_lockDescriptor, -1);
    }
    return *this;
}

void VaultStorage::releaseLock() noexcept
{
    // Closing the last descriptor of the open file description drops the
    // flock. The file stays: unlinking it could let two writers lock two
    // different inodes under the same name.
    if (m_lockDescriptor >= 0)
        ::close(m_lockDescriptor);
    m_lockDescriptor = -1;
}

std::string VaultStorage::lockPath() const
{
    return m_path + ".lock";
}

std::string VaultStorage::backupPath(std::size_t index) const
{
    return m_path + "." + std::to_string(index);
}

bool VaultStorage::isTempFileName(std::string_view vaultPath, std::string_view fileName)
{
    const std::string_view base = baseNameOf(vaultPath);
    const std::size_t prefixSize = 1 + base.size() + tempMarker.size();
    if (fileName.size() != prefixSize + 2 * tempSuffixBytes || fileName.front() != '.' ||
        fileName.substr(1, base.size()) != base ||
        fileName.substr(1 + base.size(), tempMarker.size()) != tempMarker)
        return false;
    for (char c : fileName.substr(prefixSize)) {
        if (!isLowerHex(c))
            return false;
    }
    return true;
}

Result<VaultStorage, StorageError>
VaultStorage::open(std::string path, crypto::RandomSource& random, StorageOptions options)
{
    auto snapshot = readFile(path);
    if (!snapshot)
        return snapshot.failure();
    VaultStorage storage(std::move(path), random, options);
    storage.m_contents = std::move(snapshot->bytes);
    storage.m_identity = snapshot->identity;
    return storage;
}

Result<VaultStorage, StorageError> VaultStorage::openLocked(std::string path,
                                                            crypto::RandomSource& random,
                                                            std::chrono::milliseconds patience,
                                                            StorageOptions options)
{
    // Read first, so that what is no vault file is refused before a lock
    // file is made beside it.
    auto storage = open(std::move(path), random, options);
    if (!storage)
        return storage;
    if (auto locked = storage->lock(patience); !locked)
        return locked.failure();
    auto snapshot = readFile(storage->m_path);
    if (!snapshot)
        return snapshot.failure();
    storage->m_contents = std::move(snapshot->bytes);
    storage->m_identity = snapshot->identity;
    return storage;
}

Result<VaultStorage, StorageError> VaultStorage::create(std::string path, ByteView bytes,
                                                        crypto::RandomSource& random,
                                                        StorageOptions options)
{
    struct stat status
    {};
    if (::lstat(path.c_str(), &status) == 0)
        return fail(StorageErrorCode::AlreadyExists,
                    path + " already exists; open it instead of creating a new vault there");
    if (errno != ENOENT)
        return systemFailure("look at", path, errno);

    const std::string directory = directoryOf(path);
    if (auto made = makeDirectories(directory); !made)
        return made.failure();

    VaultStorage storage(std::move(path), random, options);
    if (auto locked = storage.lock(); !locked)
        return locked.failure();
    storage.removeStaleTempFiles();

    auto temp = writeTempFile(storage.m_path, bytes, random);
    if (!temp)
        return temp.failure();
    // Into place only if the name is still free, atomically: another program
    // may have created the file since the check above.
    if (::renameat2(AT_FDCWD, temp->path().c_str(), AT_FDCWD, storage.m_path.c_str(),
                    RENAME_NOREPLACE) == 0) {
        temp->release();
    } else {
        int error = errno;
        if (error == EINVAL || error == ENOSYS || error == EOPNOTSUPP) {
            // No RENAME_NOREPLACE on this file system: link() also refuses an
            // existing name; the TempFile then drops the temp name.
            error = ::link(temp->path().c_str(), storage.m_path.c_str()) == 0 ? 0 : errno;
        }
        if (error == EEXIST)
            return fail(StorageErrorCode::AlreadyExists,
                        storage.m_path + " appeared while the new vault was written; nothing "
                                         "was overwritten");
        if (error != 0)
            return systemFailure("move the new vault into place at", storage.m_path, error);
    }
    storage.m_identity = temp->identity();
    storage.m_contents.assign(bytes.begin(), bytes.end());
    if (auto synced = syncDirectory(directory); !synced)
        storage.m_warning = "created " + storage.m_path + ", but " + synced.error().message +
                            ": a power cut in the next moments could undo it";
    return storage;
}

Result<void, StorageError> VaultStorage::lock(std::chrono::milliseconds patience)
{
    if (isLocked())
        return {};
    const std::string path = lockPath();
    FileDescriptor file(
        openRetrying(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, fileMode));
    if (!file.valid())
        return systemFailure("open the lock file", path, errno);
    struct stat status
    {};
    if (::fstat(file.get(), &status) == 0 && (status.st_mode & 07777) != fileMode &&
        status.st_uid == ::geteuid())
        ::fchmod(file.get(), fileMode); // the umask may have taken bits away; best effort

    const auto giveUp = std::chrono::steady_clock::now() + patience;
    auto pause = std::chrono::milliseconds(2);
    int result;
    for (;;) {
        result = ::flock(file.get(), LOCK_EX | LOCK_NB);
        if (result == 0)
            break;
        if (errno == EINTR)
            continue;
        if (errno != EWOULDBLOCK || std::chrono::steady_clock::now() >= giveUp)
            break; // errno is flock's
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::milliseconds(50));
    }
    if (result != 0) {
        const int error = errno;
        if (error != EWOULDBLOCK)
            return systemFailure("lock", path, error);
        std::array<char, 32> text{};
        const ssize_t got = ::pread(file.get(), text.data(), text.size() - 1, 0);
        const long pid = got > 0 ? std::strtol(text.data(), nullptr, 10) : 0;
        std::string holder = pid > 0 ? "process " + std::to_string(pid) : "another process";
        std::string waited;
        if (patience.count() > 0)
            waited = "; waited " + std::to_string(patience.count()) + " ms";
        return fail(StorageErrorCode::Locked,
                    m_path + " is in use by " + holder + " (lock file " + path + waited + ")");
    }
    // The pid is for the message above; failing to write it does not weaken
    // the lock, so it is not an error.
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(file.get(), 0) == 0) {
        [[maybe_unused]] const ssize_t written = ::pwrite(file.get(), pid.data(), pid.size(), 0);
    }
    m_lockDescriptor = file.release();
    return {};
}

void VaultStorage::removeStaleTempFiles() const
{
    // Only called with the lock held: every temp file of this vault then
    // belongs to a writer that died mid-save.
    const std::string directory = directoryOf(m_path);
    std::unique_ptr<DIR, int (*)(DIR*)> listing(::opendir(directory.c_str()), &::closedir);
    if (!listing)
        return;
    const int directoryDescriptor = ::dirfd(listing.get());
    while (const dirent* entry = ::readdir(listing.get())) {
        if (isTempFileName(m_path, entry->d_name))
            ::unlinkat(directoryDescriptor, entry->d_name, 0);
    }
}

Result<void, StorageError> VaultStorage::keepPendingBackup(ByteView currentBytes)
{
    // The current file gains the name .0 while keeping its own: the vault
    // path is never missing, even for a moment.
    const std::string pending = backupPath(0);
    if (::link(m_path.c_str(), pending.c_str()) == 0)
        return {};
    const int error = errno;
    if (error != EPERM && error != EOPNOTSUPP && error != EMLINK && error != EXDEV)
        return systemFailure("keep a backup of", m_path, error);
    // No hard links here: write a copy of the bytes we just verified.
    auto copy = writeTempFile(m_path, currentBytes, *m_random);
    if (!copy)
        return copy.failure();
    if (::rename(copy->path().c_str(), pending.c_str()) != 0)
        return systemFailure("keep a backup of", m_path, errno);
    copy->release();
    return {};
}

Result<void, StorageError> VaultStorage::rotateBackups()
{
    // Each one step older, the oldest replaced by the one before it: only a
    // rename ever drops a backup, and only the oldest, and only once .0 (the
    // file the save replaced) is there to take the place of .1.
    struct stat status
    {};
    if (::lstat(backupPath(0).c_str(), &status) != 0)
        return {};
    for (std::size_t index = m_backupCount - 1; index >= 1; --index) {
        if (::rename(backupPath(index).c_str(), backupPath(index + 1).c_str()) != 0 &&
            errno != ENOENT)
            return systemFailure("rotate the backup", backupPath(index), errno);
    }
    if (::rename(backupPath(0).c_str(), backupPath(1).c_str()) != 0)
        return systemFailure("rotate the backup", backupPath(0), errno);
    return {};
}

Result<VaultStorage::Current, StorageError> VaultStorage::readCurrent() const
{
    auto snapshot = readFile(m_path);
    if (!snapshot)
        return snapshot.failure();
    return Current{std::move(snapshot->bytes), snapshot->identity};
}

bool VaultStorage::looksUnchanged() const noexcept
{
    struct stat status
    {};
    return ::lstat(m_path.c_str(), &status) == 0 &&
           static_cast<std::uint64_t>(status.st_dev) == m_identity.device &&
           static_cast<std::uint64_t>(status.st_ino) == m_identity.inode &&
           static_cast<std::uint64_t>(status.st_size) == m_identity.size &&
           modifiedNanoseconds(status) == m_identity.modifiedNanoseconds;
}

void VaultStorage::adopt(Current current)
{
    m_contents = std::move(current.bytes);
    m_identity = current.identity;
}

Result<void, StorageError> VaultStorage::save(ByteView bytes)
{
    if (!isLocked())
        return fail(StorageErrorCode::NotLocked,
                    "cannot save " + m_path + " without holding its lock; call lock() first");
    m_warning.clear();

    auto current = readFile(m_path);
    if (!current) {
        if (current.error().code == StorageErrorCode::NotFound)
            return fail(StorageErrorCode::ChangedOnDisk,
                        m_path + " was removed by someone else since it was opened; not saved");
        return current.failure();
    }
    if (current->identity != m_identity)
        return fail(StorageErrorCode::ChangedOnDisk,
                    m_path + " " + describe(m_identity, current->identity) +
                        " since it was opened; not saved, so those changes are not lost");
    // A file its owner made read-only stays as it is: saving would replace
    // it with a new, writable file.
    if ((current->mode & S_IWUSR) == 0) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(current->mode & 07777));
        return fail(StorageErrorCode::PermissionDenied,
                    m_path + " is read-only (mode " + mode +
                        "); not saved. Make it writable (chmod u+w) to save changes to it");
    }

    removeStaleTempFiles();
    // A .0 left by a save whose rotation failed goes where it belongs first.
    if (m_backupCount > 0) {
        if (auto rotated = rotateBackups(); !rotated)
            return rotated.failure();
    }
    auto temp = writeTempFile(m_path, bytes, *m_random);
    if (!temp)
        return temp.failure();

    // A last cheap look (the full check above took a while with the fsync).
    struct stat status
    {};
    if (::lstat(m_path.c_str(), &status) != 0 ||
        static_cast<std::uint64_t>(status.st_ino) != m_identity.inode ||
        static_cast<std::uint64_t>(status.st_dev) != m_identity.device ||
        static_cast<std::uint64_t>(status.st_size) != m_identity.size ||
        modifiedNanoseconds(status) != m_identity.modifiedNanoseconds)
        return fail(StorageErrorCode::ChangedOnDisk,
                    m_path + " was changed by someone else during the save; not saved");

    if (m_backupCount > 0) {
        if (auto kept = keepPendingBackup(current->bytes); !kept)
            return kept.failure();
    }
    if (::rename(temp->path().c_str(), m_path.c_str()) != 0) {
        const int error = errno;
        ::unlink(backupPath(0).c_str()); // the file it names is still at m_path
        return systemFailure("move the saved vault into place at", m_path, error);
    }
    temp->release();
    m_identity = temp->identity();
    m_contents.assign(bytes.begin(), bytes.end());
    // The change is made. What follows cannot undo it, so a failure there is
    // a warning: the save has succeeded.
    if (auto synced = syncDirectory(directoryOf(m_path)); !synced)
        m_warning = "saved " + m_path + ", but " + synced.error().message +
                    ": the change is made, but a power cut in the next moments could bring "
                    "back the previous version";
    if (m_backupCount > 0) {
        if (auto rotated = rotateBackups(); !rotated)
            m_warning += std::string(m_warning.empty() ? "saved " + m_path + ", but " : "; ") +
                         rotated.error().message + " (the backups are rotated at the next save)";
    }
    return {};
}

std::string defaultVaultPath(std::string_view xdgDataHome, std::string_view home)
{
    constexpr std::string_view suffix = "/watchword/vault.wwv";
    // XDG Base Directory Specification: a relative path is invalid, ignore it.
    if (!xdgDataHome.empty() && xdgDataHome.front() == '/')
        return std::string(xdgDataHome) + std::string(suffix);
    if (!home.empty() && home.front() == '/')
        return std::string(home) + "/.local/share" + std::string(suffix);
    return {};
}

Result<std::string, StorageError> defaultVaultPath()
{
    const char* xdgDataHome = std::getenv("XDG_DATA_HOME");
    const char* home = std::getenv("HOME");
    std::string path = defaultVaultPath(xdgDataHome ? xdgDataHome : "", home ? home : "");
    if (!path.empty())
        return path;
    std::vector<char> buffer(16384);
    struct passwd entry
    {};
    struct passwd* found = nullptr;
    if (::getpwuid_r(::getuid(), &entry, buffer.data(), buffer.size(), &found) == 0 && found &&
        found->pw_dir)
        path = defaultVaultPath("", found->pw_dir);
    if (path.empty())
        return fail(StorageErrorCode::NotFound,
                    "no data directory: XDG_DATA_HOME and HOME are unset or relative and the "
                    "user has no home directory");
    return path;
}

} // namespace watchword::vault
