// The vault file on disk: read it without writing anything, keep a second
// writer out with a lock file, notice when someone else changed it, and save
// atomically with rolling backups. The bytes are opaque here; the vault codec
// gives them meaning. POSIX only.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "crypto/Random.h"

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace watchword::vault {

enum class StorageErrorCode {
    NotFound,         // the file (or a directory on its path) does not exist
    AlreadyExists,    // create() found a file at the path
    PermissionDenied, // EACCES, EPERM, EROFS
    DiskFull,         // ENOSPC, EDQUOT, EFBIG (no room, quota or file size limit)
    Locked,           // another writer holds <path>.lock; the message names its pid
    NotLocked,        // save() without lock()
    ChangedOnDisk,    // the file is no longer what was opened or last saved
    IoError,          // anything else; the message carries the system's text
};
using StorageError = Error<StorageErrorCode>;

// What the file looked like when we last read or wrote it. Metadata alone
// misses an in-place rewrite within one timestamp tick, so the hash of the
// bytes is compared too.
struct FileIdentity
{
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    std::uint64_t size = 0;
    std::int64_t modifiedNanoseconds = 0; // mtime since the Unix epoch
    std::array<std::uint8_t, 32> sha256{};

    bool operator==(const FileIdentity&) const = default;
};

struct StorageOptions
{
    // Rolling backups kept beside the vault: <path>.1 (newest) .. <path>.N.
    // Zero keeps none.
    std::size_t backupCount = 5;
};

// The largest vault file read: far beyond any real vault, small enough that a
// wrong path (a disk image, a device) fails clearly instead of eating memory.
inline constexpr std::uint64_t maximumVaultFileSize = 256u * 1024u * 1024u;

// One vault file. Move-only: it may own the lock, released when it dies.
//
// Files beside the vault (all in its directory):
//   <path>.lock        lock file, 0600, holds the writer's pid; never removed
//                      (removing a lock file others may have open races)
//   <path>.1 .. .N     rolling backups, newest first
//   <path>.0           the file a save replaced, between the save and the
//                      rotation that makes it .1
//   .<name>.tmp-<16 hex>  temp file of a save in progress; a save removes
//                      any left by a writer that crashed (it holds the lock,
//                      so no live writer can own one)
class VaultStorage
{
public:
    // Reads the whole file at path. Never writes or creates anything (not
    // even the lock file). A symbolic link is refused: a save replaces the
    // path with a new file, which would silently cut the link.
    // random is kept for the temp file names of later saves and must outlive
    // the storage.
    [[nodiscard]] static Result<VaultStorage, StorageError>
    open(std::string path, crypto::RandomSource& random, StorageOptions options = {});

    // Writes a new vault at path: creates missing directories (0700), takes
    // the lock, writes bytes to a temp file (0600, fsync) and moves it into
    // place only if nothing exists at path (AlreadyExists otherwise, checked
    // atomically), then fsyncs the directory (a failure there is warning(),
    // as for save()). The result is locked.
    [[nodiscard]] static Result<VaultStorage, StorageError> create(std::string path, ByteView bytes,
                                                                   crypto::RandomSource& random,
                                                                   StorageOptions options = {});

    // open() and lock(patience), then the file read again under the lock:
    // what another writer saved while this one waited is what it works on
    // (otherwise every save after a wait would refuse a changed file). For
    // a read-modify-write by a command that holds the lock throughout.
    [[nodiscard]] static Result<VaultStorage, StorageError>
    openLocked(std::string path, crypto::RandomSource& random, std::chrono::milliseconds patience,
               StorageOptions options = {});

    ~VaultStorage();
    VaultStorage(VaultStorage&& other) noexcept;
    VaultStorage& operator=(VaultStorage&& other) noexcept;
    VaultStorage(const VaultStorage&) = delete;
    VaultStorage& operator=(const VaultStorage&) = delete;

    // Takes the exclusive lock on <path>.lock (created 0600; flock
    // LOCK_EX|LOCK_NB, so a second open file description, in this process or
    // another, is refused) and writes our pid into it. Held until this object
    // dies. While someone else holds it, tries again every few milliseconds
    // for up to patience; then Locked, with the holder's pid in the message.
    [[nodiscard]] Result<void, StorageError>
    lock(std::chrono::milliseconds patience = std::chrono::milliseconds(0));
    // Gives the lock up (a no-op when not held), so that another writer can
    // save between two of ours; our next save() still refuses a file that
    // changed in between.
    void unlock() noexcept { releaseLock(); }

    // Replaces the file with bytes. Requires the lock. Refuses with
    // ChangedOnDisk if the file is not what we last read or wrote, and with
    // PermissionDenied if its owner made it read-only (no u+w): a save would
    // put a new, writable file in its place. Steps: temp file (O_EXCL, 0600)
    // in the same directory, write all, fsync; the current file gains the
    // name .0 by link() (so it stays in place); rename the temp file over
    // path; fsync the directory; rotate the backups (.N-1 -> .N, ..., .0 ->
    // .1, by rename, so that the oldest is dropped only after the new file
    // is in place). A .0 left by an earlier save is rotated in first.
    // On any failure the file at path is untouched, the temp file is gone
    // and the caller may retry with the same bytes. Once the rename is done
    // the save has succeeded: a failed directory fsync (the change may not
    // survive a power cut) or a failed rotation is then not an error but
    // warning(), which the caller shows.
    [[nodiscard]] Result<void, StorageError> save(ByteView bytes);

    // The file as it is now, and its identity: to see whether someone else
    // changed it (identity differs from identity()). Changes nothing here.
    struct Current
    {
        Bytes bytes;
        FileIdentity identity;
    };
    [[nodiscard]] Result<Current, StorageError> readCurrent() const;
    // Whether the file's metadata (device, inode, size, modification time)
    // still is that of identity(): a cheap first look, without reading it.
    // An in-place rewrite of the same size within one timestamp tick passes
    // it; save() reads and compares the bytes too.
    [[nodiscard]] bool looksUnchanged() const noexcept;
    // Takes current (from readCurrent) as the file last read: the caller has
    // merged it, so the next save() may replace it. If the file has changed
    // again since, save() still refuses.
    void adopt(Current current);

    // Empty, or what the last successful create() or save() could not do
    // after the file was in place (see save()), to be shown as a warning.
    const std::string& warning() const noexcept { return m_warning; }

    const std::string& path() const noexcept { return m_path; }
    bool isLocked() const noexcept { return m_lockDescriptor >= 0; }
    // The bytes last read or written.
    const Bytes& contents() const noexcept { return m_contents; }
    const FileIdentity& identity() const noexcept { return m_identity; }
    std::size_t backupCount() const noexcept { return m_backupCount; }

    // <path>.lock and <path>.<index> (index >= 1; 0 for the pending one).
    std::string lockPath() const;
    std::string backupPath(std::size_t index) const;
    // True if fileName (no directory) is a temp file name of a save of path.
    static bool isTempFileName(std::string_view vaultPath, std::string_view fileName);

private:
    VaultStorage(std::string path, crypto::RandomSource& random, StorageOptions options);
    void releaseLock() noexcept;
    [[nodiscard]] Result<void, StorageError> keepPendingBackup(ByteView currentBytes);
    [[nodiscard]] Result<void, StorageError> rotateBackups();
    void removeStaleTempFiles() const;

    std::string m_path;
    crypto::RandomSource* m_random;
    std::size_t m_backupCount;
    Bytes m_contents;
    FileIdentity m_identity;
    std::string m_warning;
    int m_lockDescriptor = -1;
};

// The vault path from the XDG Base Directory rules: $XDG_DATA_HOME (used only
// if absolute, as the specification says) else <home>/.local/share, then
// /watchword/vault.wwv. Pure: the values are passed in. Empty if neither is
// usable.
[[nodiscard]] std::string defaultVaultPath(std::string_view xdgDataHome, std::string_view home);

// The same from the environment ($XDG_DATA_HOME, $HOME, else the password
// database). Creates nothing: create() makes the directory when a new vault
// is saved. NotFound if no home directory can be found.
[[nodiscard]] Result<std::string, StorageError> defaultVaultPath();

} // namespace watchword::vault
