// The vault file on disk, with real files in a temporary directory: round
// trip, modes, backups, opening without writing, change detection, the lock
// against a second writer (same process and another process), an unwritable
// directory, a full disk, and SIGKILL in the middle of saves.
#include "common/TestSupport.h"
#include "vault/Storage.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cerrno>
#include <csignal>
#include <dirent.h>
#include <fcntl.h>
#include <functional>
#include <linux/capability.h>
#include <map>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <time.h>
#include <unistd.h>

using namespace watchword;
using namespace watchword::vault;

Q_DECLARE_METATYPE(watchword::vault::StorageErrorCode)

namespace {

// Self-describing contents: counter (8) || size (4) || a pattern of both, so
// a file holding a mix of two saves, or a cut one, is recognized.
Bytes contentFor(std::uint64_t counter, std::size_t size)
{
    Bytes bytes(size);
    for (std::size_t i = 0; i < size; ++i)
        bytes[i] = static_cast<std::uint8_t>(counter * 131 + i * 7 + (i >> 8));
    if (size >= 12) {
        for (int b = 0; b < 8; ++b)
            bytes[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(counter >> (56 - 8 * b));
        for (int b = 0; b < 4; ++b)
            bytes[static_cast<std::size_t>(8 + b)] =
                static_cast<std::uint8_t>(size >> (24 - 8 * b));
    }
    return bytes;
}

// Sizes vary with the counter so a torn file shows in the length as well.
Bytes crashContent(std::uint64_t counter)
{
    return contentFor(counter, 2000 + static_cast<std::size_t>(counter % 13) * 700);
}

// The counter of a complete crashContent, or -1 if bytes are not one.
long long counterOf(const Bytes& bytes)
{
    if (bytes.size() < 12)
        return -1;
    std::uint64_t counter = 0;
    for (int b = 0; b < 8; ++b)
        counter = (counter << 8) | bytes[static_cast<std::size_t>(b)];
    return crashContent(counter) == bytes ? static_cast<long long>(counter) : -1;
}

Bytes readBytes(const std::string& path)
{
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray data = file.readAll();
    return Bytes(data.begin(), data.end());
}

void writeBytes(const std::string& path, const Bytes& bytes)
{
    QFile file(QString::fromStdString(path));
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size())),
             qint64(bytes.size()));
}

bool exists(const std::string& path)
{
    struct stat status
    {};
    return ::lstat(path.c_str(), &status) == 0;
}

unsigned permissions(const std::string& path)
{
    struct stat status
    {};
    if (::lstat(path.c_str(), &status) != 0)
        return 0xffff;
    return status.st_mode & 07777;
}

// Every entry of directory (with ".") and its inode, size and mtime.
std::map<std::string, std::tuple<ino_t, off_t, long long>> snapshot(const std::string& directory)
{
    std::map<std::string, std::tuple<ino_t, off_t, long long>> entries;
    DIR* listing = ::opendir(directory.c_str());
    if (!listing)
        return entries;
    while (const dirent* entry = ::readdir(listing)) {
        struct stat status
        {};
        if (::fstatat(::dirfd(listing), entry->d_name, &status, AT_SYMLINK_NOFOLLOW) == 0)
            entries[entry->d_name] = {status.st_ino, status.st_size,
                                      status.st_mtim.tv_sec * 1'000'000'000LL +
                                          status.st_mtim.tv_nsec};
    }
    ::closedir(listing);
    return entries;
}

int tempFileCount(const std::string& vaultPath)
{
    const std::string directory = vaultPath.substr(0, vaultPath.find_last_of('/'));
    int count = 0;
    for (const auto& [name, details] : snapshot(directory))
        count += VaultStorage::isTempFileName(vaultPath, name) ? 1 : 0;
    return count;
}

// Runs body in a forked child and returns its exit status (waitpid form).
// The child never returns into Qt Test: it ends with _exit.
int runInChild(const std::function<int()>& body)
{
    const pid_t pid = ::fork();
    if (pid == 0)
        ::_exit(body());
    int status = 0;
    ::waitpid(pid, &status, 0);
    return status;
}

// Exit codes of children: 100 + error code, 0 for success.
int exitCodeFor(StorageErrorCode code)
{
    return 100 + static_cast<int>(code);
}

// Root passes permission checks through CAP_DAC_OVERRIDE and friends; a child
// that drops them from its effective set is refused like any user.
bool dropFileCapabilities()
{
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    if (::syscall(SYS_capget, &header, data) != 0)
        return false;
    for (int capability : {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER})
        data[capability / 32].effective &= ~(1u << (capability % 32));
    return ::syscall(SYS_capset, &header, data) == 0;
}

} // namespace

class TestStorage : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void createRefusesExistingPath();
    void openMissingFile();
    void openRefusesSymbolicLink();
    void saveRequiresLock();
    void backupsRotate_data();
    void backupsRotate();
    void openNeverWrites();
    void changedOnDisk_data();
    void changedOnDisk();
    void secondWriterInSameProcess();
    void secondWriterInChildProcess();
    void unwritableDirectory_data();
    void unwritableDirectory();
    void diskFull_data();
    void diskFull();
    void killedDuringSaves();
    void tempFileNames_data();
    void tempFileNames();
    void defaultPath_data();
    void defaultPath();
};

void TestStorage::roundTrip_data()
{
    QTest::addColumn<int>("size");
    QTest::addColumn<uint>("umaskValue");
    for (int size : {0, 1, 96, 4096, 300000}) {
        QTest::addRow("%d bytes, umask 022", size) << size << 022u;
        QTest::addRow("%d bytes, umask 000", size) << size << 0u;
        QTest::addRow("%d bytes, umask 277", size) << size << 0277u;
    }
}

void TestStorage::roundTrip()
{
    QFETCH(int, size);
    QFETCH(uint, umaskValue);
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    // create() makes the missing directories, 0700.
    const std::string parent = directory.path().toStdString() + "/data/watchword";
    const std::string path = parent + "/vault.wwv";
    test::SeededRandom random(test::testSeed());
    const Bytes first = contentFor(1, static_cast<std::size_t>(size));
    const Bytes second = contentFor(2, static_cast<std::size_t>(size) + 17);

    const mode_t previousMask = ::umask(static_cast<mode_t>(umaskValue));
    {
        auto created = VaultStorage::create(path, first, random);
        ::umask(previousMask);
        QVERIFY2(created.ok(), created.ok() ? "" : created.error().message.c_str());
        QVERIFY(created->isLocked());
        QCOMPARE(created->contents(), first);
        QCOMPARE(readBytes(path), first);
        QCOMPARE(permissions(path), 0600u);
        QCOMPARE(permissions(created->lockPath()), 0600u);
        QCOMPARE(permissions(parent), 0700u); // whatever the umask
        QCOMPARE(permissions(directory.path().toStdString() + "/data"), 0700u);
        QCOMPARE(tempFileCount(path), 0);
    }
    ::umask(previousMask);

    auto opened = VaultStorage::open(path, random);
    QVERIFY(opened.ok());
    QCOMPARE(opened->contents(), first);
    QVERIFY(opened->lock().ok());
    QVERIFY(opened->save(second).ok());
    QCOMPARE(readBytes(path), second);
    QCOMPARE(permissions(path), 0600u);
    QCOMPARE(tempFileCount(path), 0);
    auto reopened = VaultStorage::open(path, random);
    QVERIFY(reopened.ok());
    QCOMPARE(reopened->contents(), second);
    QCOMPARE(reopened->identity(), opened->identity());
}

void TestStorage::createRefusesExistingPath()
{
    QTemporaryDir directory;
    const std::string path = directory.path().toStdString() + "/vault.wwv";
    const Bytes original = contentFor(7, 500);
    writeBytes(path, original);
    test::SeededRandom random(test::testSeed());
    auto created = VaultStorage::create(path, contentFor(8, 500), random);
    QVERIFY(!created.ok());
    QCOMPARE(created.error().code, StorageErrorCode::AlreadyExists);
    QVERIFY(created.error().message.find(path) != std::string::npos);
    QCOMPARE(readBytes(path), original);
    QCOMPARE(tempFileCount(path), 0);
}

void TestStorage::openMissingFile()
{
    QTemporaryDir directory;
    const std::string path = directory.path().toStdString() + "/absent.wwv";
    test::SeededRandom random(test::testSeed());
    auto opened = VaultStorage::open(path, random);
    QVERIFY(!opened.ok());
    QCOMPARE(opened.error().code, StorageErrorCode::NotFound);
    QVERIFY(opened.error().message.find(path) != std::string::npos);
    QVERIFY(!exists(path));
    QVERIFY(!exists(path + ".lock"));
}

void TestStorage::openRefusesSymbolicLink()
{
    QTemporaryDir directory;
    const std::string real = directory.path().toStdString() + "/real.wwv";
    const std::string link = directory.path().toStdString() + "/vault.wwv";
    writeBytes(real, contentFor(1, 64));
    QCOMPARE(::symlink(real.c_str(), link.c_str()), 0);
    test::SeededRandom random(test::testSeed());
    auto opened = VaultStorage::open(link, random);
    QVERIFY(!opened.ok());
    QCOMPARE(opened.error().code, StorageErrorCode::IoError);
    QVERIFY(opened.error().message.find("symbolic link") != std::string::npos);
}

void TestStorage::saveRequiresLock()
{
    QTemporaryDir directory;
    const std::string path = directory.path().toStdString() + "/vault.wwv";
    const Bytes original = contentFor(1, 100);
    writeBytes(path, original);
    test::SeededRandom random(test::testSeed());
    auto opened = VaultStorage::open(path, random);
    QVERIFY(opened.ok());
    auto saved = opened->save(contentFor(2, 100));
    QVERIFY(!saved.ok());
    QCOMPARE(saved.error().code, StorageErrorCode::NotLocked);
    QCOMPARE(readBytes(path), original);
}

void TestStorage::backupsRotate_data()
{
    QTest::addColumn<int>("backupCount");
    QTest::addColumn<int>("saves");
    QTest::newRow("no backups") << 0 << 3;
    QTest::newRow("1 backup, 3 saves") << 1 << 3;
    QTest::newRow("3 backups, 2 saves") << 3 << 2;
    QTest::newRow("3 backups, 6 saves") << 3 << 6;
    QTest::newRow("default 5 backups, 8 saves") << 5 << 8;
}

void TestStorage::backupsRotate()
{
    QFETCH(int, backupCount);
    QFETCH(int, saves);
    QTemporaryDir directory;
    const std::string path = directory.path().toStdString() + "/vault.wwv";
    test::SeededRandom random(test::testSeed());
    StorageOptions options;
    options.backupCount = static_cast<std::size_t>(backupCount);
    auto storage = VaultStorage::create(path, contentFor(0, 300), random, options);
    QVERIFY(storage.ok());
    for (int save = 1; save <= saves; ++save)
        QVERIFY(storage->save(contentFor(static_cast<std::uint64_t>(save), 300 + save)).ok());

    QCOMPARE(readBytes(path), contentFor(static_cast<std::uint64_t>(saves), 300 + saves));
    // .k holds the content from k saves ago; nothing beyond .N.
    for (int k = 1; k <= backupCount + 1; ++k) {
        const std::string backup = storage->backupPath(static_cast<std::size_t>(k));
        const int generation = saves - k;
        if (k <= backupCount && generation >= 0) {
            QVERIFY2(exists(backup), backup.c_str());
            QCOMPARE(readBytes(backup),
                     contentFor(static_cast<std::uint64_t>(generation), 300 + generation));
            QCOMPARE(permissions(backup), 0600u);
        } else {
            QVERIFY2(!exists(backup), backup.c_str());
        }
    }
    QCOMPARE(tempFileCount(path), 0);
}

void TestStorage::openNeverWrites()
{
    QTemporaryDir directory;
    const std::string root = directory.path().toStdString();
    const std::string path = root + "/vault.wwv";
    test::SeededRandom random(test::testSeed());
    // A vault written by hand: no lock file, no backups yet.
    writeBytes(path, contentFor(3, 1000));
    const auto before = snapshot(root);
    QCOMPARE(before.size(), std::size_t(3)); // ".", "..", the vault
    {
        auto opened = VaultStorage::open(path, random);
        QVERIFY(opened.ok());
        QCOMPARE(opened->contents(), contentFor(3, 1000));
    }
    QCOMPARE(snapshot(root), before);

    // Also after a save has made the lock file and a backup.
    {
        auto opened = VaultStorage::open(path, random);
        QVERIFY(opened->lock().ok());
        QVERIFY(opened->save(contentFor(4, 1000)).ok());
    }
    const auto afterSave = snapshot(root);
    QCOMPARE(afterSave.size(), std::size_t(5)); // + lock, + .1
    QVERIFY(VaultStorage::open(path, random).ok());
    QCOMPARE(snapshot(root), afterSave);
}

void TestStorage::changedOnDisk_data()
{
    QTest::addColumn<QString>("change");
    QTest::newRow("replaced by rename") << QStringLiteral("replaced");
    QTest::newRow("rewritten in place, same size and mtime") << QStringLiteral("inPlace");
    QTest::newRow("appended to") << QStringLiteral("appended");
    QTest::newRow("removed") << QStringLiteral("removed");
}

void TestStorage::changedOnDisk()
{
    QFETCH(QString, change);
    QTemporaryDir directory;
    const std::string path = directory.path().toStdString() + "/vault.wwv";
    test::SeededRandom random(test::testSeed());
    auto storage = VaultStorage::create(path, contentFor(1, 4000), random);
    QVERIFY(storage.ok());
    QVERIFY(storage->save(contentFor(2, 4000)).ok()); // the check also follows our own saves

    Bytes outsider = contentFor(99, 4000);
    if (change == QLatin1String("replaced")) {
        const std::string other = path + ".other";
        writeBytes(other, outsider);
        QCOMPARE(::rename(other.c_str(), path.c_str()), 0);
    } else if (change == QLatin1String("inPlace")) {
        // Same bytes count, and the mtime put back: only the hash sees it.
        struct stat status
        {};
        QCOMPARE(::stat(path.c_str(), &status), 0);
        const int file = ::open(path.c_str(), O_WRONLY);
        QVERIFY(file >= 0);
        QCOMPARE(::pwrite(file, outsider.data(), outsider.size(), 0), ssize_t(outsider.size()));
        const timespec times[2] = {status.st_atim, status.st_mtim};
        QCOMPARE(::futimens(file, times), 0);
        ::close(file);
        QCOMPARE(::stat(path.c_str(), &status), 0);
        QCOMPARE(qint64(status.st_mtim.tv_nsec),
                 qint64(storage->identity().modifiedNanoseconds % 1'000'000'000));
    } else if (change == QLatin1String("appended")) {
        outsider = contentFor(2, 4000);
        outsider.push_back(0x42);
        writeBytes(path, outsider);
    } else {
        QCOMPARE(::unlink(path.c_str()), 0);
        outsider.clear();
    }

    auto saved = storage->save(contentFor(3, 4000));
    QVERIFY(!saved.ok());
    QCOMPARE(saved.error().code, StorageErrorCode::ChangedOnDisk);
    QVERIFY(saved.error().message.find(path) != std::string::npos);
    QCOMPARE(readBytes(path), outsider);
    QCOMPARE(exists(path), !outsider.empty());
    QCOMPARE(tempFileCount(path), 0);
    // Still refused on retry: the caller has to reopen and merge.
    QCOMPARE(storage->save(contentFor(3, 4000)).error().code, StorageErrorCode::ChangedOnDisk);
}

void TestStorage::secondWriterInSameProcess()
{
    QTemporaryDir directory;
    const std::string path = directory.path().toStdString() + "/vault.wwv";
    test::SeededRandom random(test::testSeed());
    auto first = VaultStorage::create(path, contentFor(1, 100), random);
    QVERIFY(first.ok());
    auto second = VaultStorage::open(path, random);
    QVERIFY(second.ok());
    auto locked = second->lock();
    QVERIFY(!locked.ok());
    QCOMPARE(locked.error().code, StorageErrorCode::Locked);
    const std::string pid = "process " + std::to_string(::getpid());
    QVERIFY2(locked.error().message.find(pid) != std::string::npos, locked.error().message.c_str());
    QVERIFY(!second->isLocked());
    QCOMPARE(second->save(contentFor(2, 100)).error().code, StorageErrorCode::NotLocked);

    QVERIFY(first->save(contentFor(3, 100)).ok());
    first = VaultStorage::open(path, random); // the old object dies: lock released
    QVERIFY(second->lock().ok());
    // second opened before first's save: it must not overwrite it.
    QCOMPARE(second->save(contentFor(4, 100)).error().code, StorageErrorCode::ChangedOnDisk);
    QCOMPARE(readBytes(path), contentFor(3, 100));
    second->unlock();

    // openLocked: a writer that waits for the lock works on what the holder
    // saved while it waited, and may save after it.
    QVERIFY(first->lock().ok());
    bool holderSaved = false;
    std::thread holder([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        holderSaved = first->save(contentFor(5, 100)).ok();
        first->unlock();
    });
    test::SeededRandom otherRandom(test::testSeed() + 1);
    auto waiter = VaultStorage::openLocked(path, otherRandom, std::chrono::seconds(30));
    holder.join();
    QVERIFY(holderSaved);
    QVERIFY2(waiter.ok(), waiter ? "" : waiter.error().message.c_str());
    QVERIFY(waiter->isLocked());
    QCOMPARE(waiter->contents(), contentFor(5, 100));
    QVERIFY(waiter->save(contentFor(6, 100)).ok());
    QCOMPARE(readBytes(path), contentFor(6, 100));

    // Not a vault path: refused before any lock file is made beside it.
    const std::string missing = directory.path().toStdString() + "/missing.wwv";
    QVERIFY(!VaultStorage::openLocked(missing, otherRandom, std::chrono::seconds(1)).ok());
    QVERIFY(!QFileInfo::exists(QString::fromStdString(missing + ".lock")));
}

void TestStorage::secondWriterInChildProcess()
{
    QTemporaryDir directory;
    const std::string path = directory.path().toStdString() + "/vault.wwv";
    test::SeededRandom random(test::testSeed());
    QVERIFY(VaultStorage::create(path, contentFor(1, 100), random).ok());

    int ready[2];
    int release[2];
    QCOMPARE(::pipe(ready), 0);
    QCOMPARE(::pipe(release), 0);
    const pid_t child = ::fork();
    if (child == 0) {
        auto held = VaultStorage::open(path, random);
        const char state = held.ok() && held->lock().ok() ? 'L' : 'F';
        [[maybe_unused]] ssize_t io = ::write(ready[1], &state, 1);
        char ignored;
        io = ::read(release[0], &ignored, 1);
        ::_exit(0);
    }
    char state = 0;
    QCOMPARE(::read(ready[0], &state, 1), ssize_t(1));
    QCOMPARE(state, 'L');

    auto mine = VaultStorage::open(path, random);
    QVERIFY(mine.ok());
    auto locked = mine->lock();
    QVERIFY(!locked.ok());
    QCOMPARE(locked.error().code, StorageErrorCode::Locked);
    const std::string holder = "process " + std::to_string(child);
    QVERIFY2(locked.error().message.find(holder) != std::string::npos,
             locked.error().message.c_str());

    QCOMPARE(::write(release[1], "x", 1), ssize_t(1));
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    for (int descriptor : {ready[0], ready[1], release[0], release[1]})
        ::close(descriptor);
    QVERIFY(mine->lock().ok()); // the holder is gone
    QVERIFY(mine->save(contentFor(2, 100)).ok());
}

void TestStorage::unwritableDirectory_data()
{
    QTest::addColumn<bool>("lockFileExists");
    QTest::newRow("lock file missing: lock() is refused") << false;
    QTest::newRow("lock file present: the temp file is refused") << true;
}

void TestStorage::unwritableDirectory()
{
    // A 0500 directory. Root would write there anyway (CAP_DAC_OVERRIDE), so
    // the writer is a child that has dropped that capability and its
    // relatives from its effective set: the kernel then checks the mode bits
    // for root as for anyone. It works the same when not root.
    QFETCH(bool, lockFileExists);
    QTemporaryDir directory;
    const std::string root = directory.path().toStdString() + "/vaults";
    QCOMPARE(::mkdir(root.c_str(), 0700), 0);
    const std::string path = root + "/vault.wwv";
    const Bytes original = contentFor(5, 2048);
    writeBytes(path, original);
    QCOMPARE(::chmod(path.c_str(), 0600), 0);
    if (lockFileExists) {
        const int file = ::open((path + ".lock").c_str(), O_RDWR | O_CREAT, 0600);
        QVERIFY(file >= 0);
        ::close(file);
    }
    QCOMPARE(::chmod(root.c_str(), 0500), 0);
    const auto before = snapshot(root);

    test::SeededRandom random(test::testSeed());
    const int status = runInChild([&] {
        if (!dropFileCapabilities())
            return 2;
        // The capability really is gone: creating a file here must fail.
        if (::open((root + "/probe").c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600) >= 0)
            return 3;
        auto storage = VaultStorage::open(path, random);
        if (!storage)
            return 4;
        if (auto locked = storage->lock(); !locked)
            return exitCodeFor(locked.error().code) + (lockFileExists ? 50 : 0);
        if (!lockFileExists)
            return 5;
        auto saved = storage->save(contentFor(6, 2048));
        return saved ? 0 : exitCodeFor(saved.error().code);
    });
    QCOMPARE(::chmod(root.c_str(), 0700), 0);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), exitCodeFor(StorageErrorCode::PermissionDenied));
    QCOMPARE(readBytes(path), original);
    // Nothing added, nothing left behind (the lock file's mtime may change).
    QCOMPARE(snapshot(root).size(), before.size());
    QCOMPARE(tempFileCount(path), 0);
}

void TestStorage::diskFull_data()
{
    QTest::addColumn<int>("limit");
    QTest::addColumn<int>("size");
    QTest::newRow("nothing fits") << 0 << 5000;
    QTest::newRow("half fits") << 8192 << 16384;
    QTest::newRow("one byte short") << 65535 << 65536;
}

void TestStorage::diskFull()
{
    // RLIMIT_FSIZE makes write() fail with EFBIG (SIGXFSZ ignored) exactly as
    // a full disk fails it with ENOSPC, and needs no mount rights.
    QFETCH(int, limit);
    QFETCH(int, size);
    QTemporaryDir directory;
    const std::string path = directory.path().toStdString() + "/vault.wwv";
    test::SeededRandom random(test::testSeed());
    const Bytes original = contentFor(1, 1000);
    QVERIFY(VaultStorage::create(path, original, random).ok());

    const int status = runInChild([&] {
        ::signal(SIGXFSZ, SIG_IGN);
        const rlimit cap{static_cast<rlim_t>(limit), static_cast<rlim_t>(limit)};
        if (::setrlimit(RLIMIT_FSIZE, &cap) != 0)
            return 2;
        auto storage = VaultStorage::open(path, random);
        if (!storage || !storage->lock())
            return 3;
        auto saved = storage->save(contentFor(2, static_cast<std::size_t>(size)));
        if (saved)
            return 0;
        return saved.error().message.find("File too large") != std::string::npos
                   ? exitCodeFor(saved.error().code)
                   : 4;
    });
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), exitCodeFor(StorageErrorCode::DiskFull));
    QCOMPARE(readBytes(path), original);
    QCOMPARE(tempFileCount(path), 0);
    QVERIFY(!exists(path + ".1")); // the failure came before any rotation
    // Once there is room again, the same save succeeds.
    auto storage = VaultStorage::open(path, random);
    QVERIFY(storage->lock().ok());
    QVERIFY(storage->save(contentFor(2, static_cast<std::size_t>(size))).ok());
}

void TestStorage::killedDuringSaves()
{
    // A child saves self-describing contents in a loop; the parent SIGKILLs
    // it after a seeded random delay, 200 times. After every kill the vault
    // and its newest backup are complete saves, never a mix, the counter
    // never goes back, and at most the one temp file of the killed save is
    // left (the next save removes it). A SIGKILL leaves the page cache
    // intact, so this tests the rename protocol, not power loss.
    QTemporaryDir directory;
    const std::string path = directory.path().toStdString() + "/vault.wwv";
    test::SeededRandom random(test::testSeed());
    QVERIFY(VaultStorage::create(path, crashContent(0), random).ok());

    constexpr int kills = 200;
    long long lastCounter = 0;
    int killsThatChangedTheFile = 0;
    int killsLeavingTempFile = 0;
    std::uniform_int_distribution<int> delayMicroseconds(0, 15000);
    for (int round = 0; round < kills; ++round) {
        const int delay = delayMicroseconds(random.engine());
        const pid_t child = ::fork();
        if (child == 0) {
            test::SeededRandom childRandom(static_cast<std::uint64_t>(round));
            auto storage = VaultStorage::open(path, childRandom);
            if (!storage)
                ::_exit(2);
            if (!storage->lock())
                ::_exit(3);
            long long counter = counterOf(storage->contents());
            if (counter < 0)
                ::_exit(4);
            for (;;) {
                if (!storage->save(crashContent(static_cast<std::uint64_t>(++counter))))
                    ::_exit(5);
            }
        }
        ::usleep(static_cast<useconds_t>(delay));
        ::kill(child, SIGKILL);
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        if (!WIFSIGNALED(status))
            QFAIL(qPrintable(QStringLiteral("round %1: the saving child stopped by itself, code %2")
                                 .arg(round)
                                 .arg(WEXITSTATUS(status))));

        auto opened = VaultStorage::open(path, random);
        QVERIFY(opened.ok());
        const long long counter = counterOf(opened->contents());
        if (counter < 0)
            QFAIL(qPrintable(QStringLiteral("round %1 (delay %2 us): the vault holds a torn save")
                                 .arg(round)
                                 .arg(delay)));
        QVERIFY2(counter >= lastCounter, qPrintable(QStringLiteral("round %1").arg(round)));
        killsThatChangedTheFile += counter > lastCounter ? 1 : 0;
        lastCounter = counter;
        if (exists(path + ".1"))
            QVERIFY2(counterOf(readBytes(path + ".1")) >= 0,
                     qPrintable(QStringLiteral("round %1: torn backup").arg(round)));
        const int temps = tempFileCount(path);
        QVERIFY2(temps <= 1,
                 qPrintable(QStringLiteral("round %1: %2 temp files").arg(round).arg(temps)));
        killsLeavingTempFile += temps;
    }
    qInfo("%d kills: %d changed the vault (last counter %lld), %d left a temp file", kills,
          killsThatChangedTheFile, lastCounter, killsLeavingTempFile);
    QVERIFY(killsThatChangedTheFile > 0); // the child really was saving

    auto last = VaultStorage::open(path, random);
    QVERIFY(last->lock().ok());
    QVERIFY(last->save(crashContent(static_cast<std::uint64_t>(lastCounter + 1))).ok());
    QCOMPARE(tempFileCount(path), 0);
    QCOMPARE(counterOf(readBytes(path)), lastCounter + 1);
}

void TestStorage::tempFileNames_data()
{
    QTest::addColumn<QString>("vaultPath");
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<bool>("isTemp");
    const QString vault = QStringLiteral("/data/vault.wwv");
    QTest::newRow("ours") << vault << QStringLiteral(".vault.wwv.tmp-0123456789abcdef") << true;
    QTest::newRow("upper-case hex")
        << vault << QStringLiteral(".vault.wwv.tmp-0123456789ABCDEF") << false;
    QTest::newRow("short suffix") << vault << QStringLiteral(".vault.wwv.tmp-0123456789abcde")
                                  << false;
    QTest::newRow("long suffix") << vault << QStringLiteral(".vault.wwv.tmp-0123456789abcdef0")
                                 << false;
    QTest::newRow("another vault")
        << vault << QStringLiteral(".other.wwv.tmp-0123456789abcdef") << false;
    QTest::newRow("no dot") << vault << QStringLiteral("vault.wwv.tmp-0123456789abcdef") << false;
    QTest::newRow("the vault") << vault << QStringLiteral("vault.wwv") << false;
    QTest::newRow("a backup") << vault << QStringLiteral("vault.wwv.1") << false;
    QTest::newRow("relative path")
        << QStringLiteral("v.wwv") << QStringLiteral(".v.wwv.tmp-ffffffffffffffff") << true;
}

void TestStorage::tempFileNames()
{
    QFETCH(QString, vaultPath);
    QFETCH(QString, fileName);
    QFETCH(bool, isTemp);
    QCOMPARE(VaultStorage::isTempFileName(vaultPath.toStdString(), fileName.toStdString()), isTemp);
}

void TestStorage::defaultPath_data()
{
    QTest::addColumn<QString>("xdgDataHome");
    QTest::addColumn<QString>("home");
    QTest::addColumn<QString>("expected");
    QTest::newRow("XDG_DATA_HOME") << QStringLiteral("/x/data") << QStringLiteral("/home/a")
                                   << QStringLiteral("/x/data/watchword/vault.wwv");
    QTest::newRow("HOME fallback") << QString() << QStringLiteral("/home/a")
                                   << QStringLiteral("/home/a/.local/share/watchword/vault.wwv");
    QTest::newRow("relative XDG_DATA_HOME ignored")
        << QStringLiteral("data") << QStringLiteral("/home/a")
        << QStringLiteral("/home/a/.local/share/watchword/vault.wwv");
    QTest::newRow("nothing usable")
        << QStringLiteral("data") << QStringLiteral("home") << QString();
    QTest::newRow("nothing set") << QString() << QString() << QString();
}

void TestStorage::defaultPath()
{
    QFETCH(QString, xdgDataHome);
    QFETCH(QString, home);
    QFETCH(QString, expected);
    QCOMPARE(
        QString::fromStdString(defaultVaultPath(xdgDataHome.toStdString(), home.toStdString())),
        expected);
    // The environment overload agrees when the environment says the same.
    if (!expected.isEmpty()) {
        const QByteArray savedXdg = qgetenv("XDG_DATA_HOME");
        const QByteArray savedHome = qgetenv("HOME");
        qputenv("XDG_DATA_HOME", xdgDataHome.toUtf8());
        qputenv("HOME", home.toUtf8());
        auto fromEnvironment = defaultVaultPath();
        qputenv("XDG_DATA_HOME", savedXdg);
        qputenv("HOME", savedHome);
        QVERIFY(fromEnvironment.ok());
        QCOMPARE(QString::fromStdString(*fromEnvironment), expected);
    }
}

QTEST_GUILESS_MAIN(TestStorage)
#include "TestStorage.moc"
