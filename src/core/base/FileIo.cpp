#include "base/FileIo.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace watchword {

namespace {

std::string failure(const std::filesystem::path& path, std::string_view what, int error)
{
    return "could not " + std::string(what) + " " + path.string() + ": " + std::strerror(error);
}

} // namespace

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

std::optional<std::string> writeFileAtomically(const std::filesystem::path& path,
                                               std::string_view contents, unsigned mode,
                                               IfExists ifExists)
{
    const std::filesystem::path directory =
        path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    // Appended piece by piece: GCC 12 warns (-Wrestrict) on "." + string here.
    std::string name(".");
    name.append(path.filename().string()).append(".tmp-XXXXXX");
    std::string temp = (directory / name).string();
    const int descriptor = ::mkostemp(temp.data(), O_CLOEXEC);
    if (descriptor < 0)
        return failure(path, "create a temp file for", errno);

    const auto abandon = [&](std::string_view what, int error) {
        ::close(descriptor);
        ::unlink(temp.c_str());
        return failure(path, what, error);
    };
    if (::fchmod(descriptor, static_cast<mode_t>(mode)) != 0)
        return abandon("set the mode of the temp file for", errno);
    if (const int error = writeAll(descriptor, asBytes(contents)); error != 0)
        return abandon("write", error);
    if (::fsync(descriptor) != 0)
        return abandon("flush", errno);
    if (::close(descriptor) != 0) {
        const int error = errno;
        ::unlink(temp.c_str());
        return failure(path, "close", error);
    }
    if (ifExists == IfExists::Replace) {
        if (::rename(temp.c_str(), path.c_str()) != 0) {
            const int error = errno;
            ::unlink(temp.c_str());
            return failure(path, "replace", error);
        }
    } else {
        // link() never replaces: EEXIST however path came to be there.
        const bool linked = ::link(temp.c_str(), path.c_str()) == 0;
        const int error = errno;
        ::unlink(temp.c_str());
        if (!linked)
            return error == EEXIST ? path.string() + " exists" : failure(path, "create", error);
    }
    // Makes the rename itself survive a power cut. Some file systems cannot
    // flush a directory (EINVAL); the file is in place all the same.
    const int folder = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder >= 0) {
        const bool flushed = ::fsync(folder) == 0 || errno == EINVAL;
        const int error = errno;
        ::close(folder);
        if (!flushed)
            return failure(directory, "flush the directory", error);
    }
    return std::nullopt;
}

} // namespace watchword
