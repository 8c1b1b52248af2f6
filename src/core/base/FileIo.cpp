#include "base/FileIo.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

namespace watchword {

namespace {

std::string failure(const std::filesystem::path& path, std::string_view what, int error)
{
    return "could not " + std::string(what) + " " + path.string() + ": " + std::strerror(error);
}

// The kind of a file that is not a regular one, for messages.
std::string_view kindOf(mode_t mode) noexcept
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    return "not a regular file";
}

} // namespace

RegularFile openRegularFile(const char* path, int extraFlags) noexcept
{
    RegularFile file;
    int descriptor;
    do {
        descriptor = ::open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | extraFlags);
    } while (descriptor < 0 && errno == EINTR);
    if (descriptor < 0) {
        file.error = errno;
        return file;
    }
    struct stat status
    {};
    if (::fstat(descriptor, &status) != 0) {
        file.error = errno;
        ::close(descriptor);
        return file;
    }
    if (!S_ISREG(status.st_mode)) {
        file.kind = kindOf(status.st_mode);
        ::close(descriptor);
        return file;
    }
    const int flags = ::fcntl(descriptor, F_GETFL);
    if (flags >= 0)
        ::fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK);
    file.descriptor = descriptor;
    return file;
}

std::string notRegularFileMessage(std::string_view path, std::string_view kind)
{
    std::string message = "'";
    message.append(path).append("' is ").append(kind);
    if (kind != "not a regular file")
        message.append(", not a regular file");
    return message;
}

Result<SecureBuffer, std::string> readToEnd(int descriptor, std::string_view name,
                                            std::size_t limit)
{
    SecureBuffer data(std::min<std::size_t>(limit + 1, 64 * 1024));
    std::size_t size = 0;
    while (size <= limit) {
        if (size == data.size()) {
            SecureBuffer larger(std::min(limit + 1, data.size() * 2));
            std::copy(data.begin(), data.end(), larger.begin());
            data = std::move(larger);
        }
        const ssize_t got = ::read(descriptor, data.data() + size, data.size() - size);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return fail("cannot read " + std::string(name) + ": " + std::strerror(errno));
        if (got == 0)
            break;
        size += static_cast<std::size_t>(got);
    }
    if (size > limit) {
        const bool mebibytes = limit >= 1024 * 1024 && limit % (1024 * 1024) == 0;
        return fail(std::string(name) + " is larger than " +
                    (mebibytes ? std::to_string(limit / (1024 * 1024)) + " MiB"
                               : std::to_string(limit) + " bytes"));
    }
    data.truncate(size);
    return data;
}

Result<SecureBuffer, std::string> readRegularFile(const std::string& path, std::size_t limit)
{
    const RegularFile file = openRegularFile(path.c_str());
    if (file.descriptor < 0) {
        if (!file.kind.empty())
            return fail(notRegularFileMessage(path, file.kind));
        return fail("cannot open '" + path + "': " + std::strerror(file.error));
    }
    auto data = readToEnd(file.descriptor, "'" + path + "'", limit);
    ::close(file.descriptor);
    return data;
}

int writeAll(int descriptor, ByteView bytes) noexcept
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t written = ::write(descriptor, bytes.data() + done, bytes.size() - done);
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        done += static_cast<std::size_t>(written);
    }
    return 0;
}

namespace {

constexpr std::string_view tempMarker = ".tmp-";
constexpr std::size_t tempSuffixLength = 6; // as mkostemp's XXXXXX

std::string tempPrefix(const std::filesystem::path& path)
{
    // Appended piece by piece: GCC 12 warns (-Wrestrict) on "." + string here.
    std::string name(".");
    name.append(path.filename().string()).append(tempMarker);
    return name;
}

bool isTempSuffixCharacter(char c) noexcept
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Removes the temp files of path that nobody holds: a writer holds its
// flock() for as long as its temp file has a name, so one that can be locked
// belongs to a writer that died (killed between naming it and the rename, or
// on a file system without O_TMPFILE).
void removeAbandonedTempFiles(const std::filesystem::path& directory,
                              const std::filesystem::path& path)
{
    DIR* listing = ::opendir(directory.c_str());
    if (listing == nullptr)
        return;
    const int folder = ::dirfd(listing);
    while (const dirent* entry = ::readdir(listing)) {
        if (!detail::isTempFileNameOf(path, entry->d_name))
            continue;
        const int file =
            ::openat(folder, entry->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (file < 0)
            continue;
        if (::flock(file, LOCK_EX | LOCK_NB) == 0)
            ::unlinkat(folder, entry->d_name, 0);
        ::close(file);
    }
    ::closedir(listing);
}

// A free temp name for path: prefix and six random letters or digits.
std::string randomTempName(const std::filesystem::path& directory, const std::string& prefix)
{
    static constexpr char alphabet[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    std::uint8_t random[tempSuffixLength];
    std::size_t got = 0;
    while (got < sizeof random) {
        const ssize_t n = ::getrandom(random + got, sizeof random - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            std::abort(); // as crypto::systemRandom: never go on without randomness
        got += static_cast<std::size_t>(n);
    }
    std::string name = prefix;
    for (const std::uint8_t byte : random)
        name.push_back(alphabet[byte % (sizeof alphabet - 1)]);
    return (directory / name).string();
}

} // namespace

namespace detail {

bool isTempFileNameOf(const std::filesystem::path& path, std::string_view fileName)
{
    const std::string prefix = tempPrefix(path);
    if (fileName.size() != prefix.size() + tempSuffixLength || !fileName.starts_with(prefix))
        return false;
    for (const char c : fileName.substr(prefix.size()))
        if (!isTempSuffixCharacter(c))
            return false;
    return true;
}

Result<FileWritten, std::string> writeFileAtomically(const std::filesystem::path& path,
                                                     std::string_view contents, unsigned mode,
                                                     IfExists ifExists, bool unnamedFirst)
{
    const std::filesystem::path directory =
        path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    const std::string prefix = tempPrefix(path);
    removeAbandonedTempFiles(directory, path);

    // The temp name, once the contents have one; removed on every failure.
    std::string named;
    int descriptor = -1;
    if (unnamedFirst)
        descriptor = ::open(directory.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    const bool unnamed = descriptor >= 0;
    if (!unnamed) {
        named = (directory / (prefix + "XXXXXX")).string();
        descriptor = ::mkostemp(named.data(), O_CLOEXEC);
        if (descriptor < 0)
            return fail(failure(path, "create a temp file for", errno));
    }
    const auto abandon = [&](std::string_view what, int error) {
        if (!named.empty())
            ::unlink(named.c_str());
        ::close(descriptor);
        return fail(failure(path, what, error));
    };
    // Refuse's answer when linking to path fails: EEXIST however path came
    // to be there.
    const auto notCreated = [&](int error) {
        return fail(error == EEXIST ? path.string() + " exists" : failure(path, "create", error));
    };
    // Held while the contents have a name: a sweep leaves this file alone.
    if (::flock(descriptor, LOCK_EX) != 0)
        return abandon("lock the temp file for", errno);
    if (::fchmod(descriptor, static_cast<mode_t>(mode)) != 0)
        return abandon("set the mode of the temp file for", errno);
    if (const int error = writeAll(descriptor, asBytes(contents)); error != 0)
        return abandon("write", error);
    if (::fsync(descriptor) != 0)
        return abandon("flush", errno);

    if (unnamed) {
        const std::string self = "/proc/self/fd/" + std::to_string(descriptor);
        const auto link = [&](const std::string& to) {
            return ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, to.c_str(), AT_SYMLINK_FOLLOW) == 0
                       ? 0
                       : errno;
        };
        // Refuse: linked to path itself, which link() never replaces.
        // Replace: linked to a free temp name, renamed over path below.
        int error = 0;
        if (ifExists == IfExists::Refuse) {
            error = link(path.string());
        } else {
            error = EEXIST;
            for (int attempt = 0; attempt < 8 && error == EEXIST; ++attempt) {
                named = randomTempName(directory, prefix);
                error = link(named);
            }
        }
        if (error != 0) {
            named.clear();
            ::close(descriptor);
            // No /proc to link through: the named route does without.
            if (error == ENOENT && ::access("/proc/self/fd", F_OK) != 0)
                return writeFileAtomically(path, contents, mode, ifExists, false);
            if (ifExists == IfExists::Refuse)
                return notCreated(error);
            return fail(failure(path, "name the temp file for", error));
        }
    }
    if (!named.empty()) {
        if (ifExists == IfExists::Replace) {
            if (::rename(named.c_str(), path.c_str()) != 0)
                return abandon("replace", errno);
        } else {
            const bool linked = ::link(named.c_str(), path.c_str()) == 0;
            const int error = errno;
            ::unlink(named.c_str());
            if (!linked) {
                ::close(descriptor);
                return notCreated(error);
            }
        }
    }
    // The lock ends with the temp name gone. The data was flushed above, so
    // close() has nothing left to report.
    ::close(descriptor);

    // Makes the new name survive a power cut. Some file systems cannot
    // flush a directory (EINVAL); the file is in place all the same.
    FileWritten written;
    const int folder = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    const bool flushed = folder >= 0 && (::fsync(folder) == 0 || errno == EINVAL);
    const int error = errno;
    if (folder >= 0)
        ::close(folder);
    if (!flushed)
        written.notDurable = failure(directory, "flush the directory", error) + ": " +
                             path.string() +
                             " is written, but a power cut in the next moments could bring "
                             "back what was there before";
    return written;
}

} // namespace detail

Result<FileWritten, std::string> writeFileAtomically(const std::filesystem::path& path,
                                                     std::string_view contents, unsigned mode,
                                                     IfExists ifExists)
{
    return detail::writeFileAtomically(path, contents, mode, ifExists, true);
}

} // namespace watchword
