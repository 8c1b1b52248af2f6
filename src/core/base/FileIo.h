// Small POSIX file helpers shared by the vault's storage, the benchmark
// reports and baselines.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace watchword {

// Writes every byte to descriptor, retrying short writes and EINTR. 0, or
// the errno of the write that failed.
int writeAll(int descriptor, ByteView bytes) noexcept;

// A descriptor open for reading a regular file, or why there is none.
struct RegularFile
{
    int descriptor = -1;   // the caller closes it
    int error = 0;         // errno of open() or fstat() when there is no descriptor
    std::string_view kind; // "a FIFO", "a directory", ... when path is not a regular file
};

// Opens path read-only without ever waiting: O_NONBLOCK, so that opening a
// FIFO with no writer or a device returns at once, then fstat(); anything but
// a regular file is closed again and refused (kind says what it is).
// O_NONBLOCK is cleared before returning. extraFlags are added to
// O_RDONLY | O_CLOEXEC | O_NOCTTY (O_NOFOLLOW, for one).
[[nodiscard]] RegularFile openRegularFile(const char* path, int extraFlags = 0) noexcept;

// "'path' is a FIFO, not a regular file: ..." for a RegularFile's kind.
[[nodiscard]] std::string notRegularFileMessage(std::string_view path, std::string_view kind);

// The whole regular file at path, into wiped memory. Fails, with a message
// naming the path, if it cannot be opened or read, is not a regular file
// (never waiting on a FIFO) or holds more than limit bytes.
[[nodiscard]] Result<SecureBuffer, std::string> readRegularFile(const std::string& path,
                                                                std::size_t limit);

// Reads descriptor to its end into wiped memory, growing in steps (a small
// file does not cost the whole limit). name is for the messages. Fails if it
// holds more than limit bytes.
[[nodiscard]] Result<SecureBuffer, std::string> readToEnd(int descriptor, std::string_view name,
                                                          std::size_t limit);

// What writeFileAtomically does when path already exists.
enum class IfExists {
    Replace, // the new contents take its place in one rename
    Refuse,  // path is left alone and the error says it exists
};

// A write that succeeded: the new file is in place. notDurable is empty, or
// says that the directory could not be flushed afterwards: the change is
// made and every reader sees it, but a power cut in the next moments could
// bring back what was there before.
struct FileWritten
{
    std::string notDurable;
};

// Writes path with contents atomically, and so that no other name ever holds
// the contents (an export may hold every secret in clear, and a process
// killed mid-write, even by SIGKILL, must not leave them behind):
//   1. an unnamed file (O_TMPFILE) in path's directory, exactly mode whatever
//      the umask; every byte written; fsync;
//   2. Refuse: linked to path (linkat through /proc/self/fd), which fails if
//      path exists even when it appeared after a check; Replace: linked to a
//      temp name .<name>.tmp-XXXXXX and renamed over path at once;
//   3. the directory fsynced.
// Where the file system has no O_TMPFILE (or /proc is not mounted), the file
// is written under the temp name from the start. Either way the temp file
// is flock()ed while it exists and removed on every failure, and each write
// first removes the temp files of path that no live writer holds (left by a
// writer that was killed). On failure path is as it was; the error names it.
[[nodiscard]] Result<FileWritten, std::string>
writeFileAtomically(const std::filesystem::path& path, std::string_view contents,
                    unsigned mode = 0644, IfExists ifExists = IfExists::Replace);

namespace detail {
// writeFileAtomically, with the unnamed file (step 1) allowed or not: tests
// take the named route a file system without O_TMPFILE takes.
[[nodiscard]] Result<FileWritten, std::string>
writeFileAtomically(const std::filesystem::path& path, std::string_view contents, unsigned mode,
                    IfExists ifExists, bool unnamedFirst);

// True if fileName (no directory) is a temp file name writeFileAtomically
// uses for path.
[[nodiscard]] bool isTempFileNameOf(const std::filesystem::path& path, std::string_view fileName);
} // namespace detail

} // namespace watchword
