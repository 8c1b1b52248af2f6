// A fault injector for the tests that run watchword-cli: preloaded
// (LD_PRELOAD), it makes the n-th call of one system call wrapper fail, so a
// test can fail each step of a save in turn and check what is left on disk.
//
//   WATCHWORD_FAULT=<call>:<n>   the n-th call (from 1) of <call> fails:
//       open, openat, write, fsync, fsync-directory (fsync of a directory
//       only), rename, renameat2, link, linkat, unlink, fchmod, flock,
//       ftruncate
//     with ENOSPC for write and EIO for the others.
//   WATCHWORD_FAULT_FIRED=<path>  created when the fault fires, so that the
//       test knows the n-th call happened (n past the last call: no fault).
//
// Without WATCHWORD_FAULT every call goes straight to the real one. Only for
// tests; never installed.
#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

struct Fault
{
    char call[32] = {};
    long nth = 0;
};

const Fault& fault()
{
    static const Fault parsed = [] {
        Fault f;
        const char* text = std::getenv("WATCHWORD_FAULT");
        if (text == nullptr)
            return f;
        const char* colon = std::strchr(text, ':');
        if (colon == nullptr || std::size_t(colon - text) >= sizeof f.call)
            return f;
        std::memcpy(f.call, text, std::size_t(colon - text));
        f.nth = std::strtol(colon + 1, nullptr, 10);
        return f;
    }();
    return parsed;
}

std::atomic<long> calls{0};

// True if this call of name is the one to fail; sets errno and notes it.
bool failsNow(const char* name, int error = EIO)
{
    const Fault& f = fault();
    if (f.nth <= 0 || std::strcmp(f.call, name) != 0)
        return false;
    if (calls.fetch_add(1) + 1 != f.nth)
        return false;
    if (const char* fired = std::getenv("WATCHWORD_FAULT_FIRED")) {
        using OpenFunction = int (*)(const char*, int, ...);
        static const auto realOpen = reinterpret_cast<OpenFunction>(dlsym(RTLD_NEXT, "open"));
        const int marker = realOpen(fired, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        if (marker >= 0)
            ::close(marker);
    }
    errno = error;
    return true;
}

// The mode argument of open(): there only when the flags create a file.
mode_t modeOf(int flags, va_list arguments)
{
    if ((flags & O_CREAT) == 0 && (flags & O_TMPFILE) != O_TMPFILE)
        return 0;
    return static_cast<mode_t>(va_arg(arguments, int));
}

template <typename Function> Function real(const char* name)
{
    return reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
}

} // namespace

extern "C" {

int open(const char* path, int flags, ...)
{
    va_list arguments;
    va_start(arguments, flags);
    const mode_t mode = modeOf(flags, arguments);
    va_end(arguments);
    static const auto next = real<int (*)(const char*, int, ...)>("open");
    return failsNow("open") ? -1 : next(path, flags, mode);
}

int open64(const char* path, int flags, ...)
{
    va_list arguments;
    va_start(arguments, flags);
    const mode_t mode = modeOf(flags, arguments);
    va_end(arguments);
    static const auto next = real<int (*)(const char*, int, ...)>("open64");
    return failsNow("open") ? -1 : next(path, flags, mode);
}

int openat(int directory, const char* path, int flags, ...)
{
    va_list arguments;
    va_start(arguments, flags);
    const mode_t mode = modeOf(flags, arguments);
    va_end(arguments);
    static const auto next = real<int (*)(int, const char*, int, ...)>("openat");
    return failsNow("openat") ? -1 : next(directory, path, flags, mode);
}

ssize_t write(int descriptor, const void* data, size_t size)
{
    static const auto next = real<ssize_t (*)(int, const void*, size_t)>("write");
    // Only writes to files count: the messages on stdout and stderr do not.
    if (descriptor > STDERR_FILENO && failsNow("write", ENOSPC))
        return -1;
    return next(descriptor, data, size);
}

int fsync(int descriptor)
{
    static const auto next = real<int (*)(int)>("fsync");
    struct stat status
    {};
    const bool directory = ::fstat(descriptor, &status) == 0 && S_ISDIR(status.st_mode);
    if (failsNow(directory ? "fsync-directory" : "fsync"))
        return -1;
    return next(descriptor);
}

int rename(const char* from, const char* to)
{
    static const auto next = real<int (*)(const char*, const char*)>("rename");
    if (failsNow("rename"))
        return -1;
    return next(from, to);
}

int renameat2(int fromDirectory, const char* from, int toDirectory, const char* to, unsigned flags)
{
    static const auto next =
        real<int (*)(int, const char*, int, const char*, unsigned)>("renameat2");
    if (failsNow("renameat2"))
        return -1;
    return next(fromDirectory, from, toDirectory, to, flags);
}

int link(const char* from, const char* to)
{
    static const auto next = real<int (*)(const char*, const char*)>("link");
    if (failsNow("link"))
        return -1;
    return next(from, to);
}

int linkat(int fromDirectory, const char* from, int toDirectory, const char* to, int flags)
{
    static const auto next = real<int (*)(int, const char*, int, const char*, int)>("linkat");
    if (failsNow("linkat"))
        return -1;
    return next(fromDirectory, from, toDirectory, to, flags);
}

int unlink(const char* path)
{
    static const auto next = real<int (*)(const char*)>("unlink");
    if (failsNow("unlink"))
        return -1;
    return next(path);
}

int fchmod(int descriptor, mode_t mode)
{
    static const auto next = real<int (*)(int, mode_t)>("fchmod");
    if (failsNow("fchmod"))
        return -1;
    return next(descriptor, mode);
}

int flock(int descriptor, int operation)
{
    static const auto next = real<int (*)(int, int)>("flock");
    if (failsNow("flock"))
        return -1;
    return next(descriptor, operation);
}

int ftruncate(int descriptor, off_t length)
{
    static const auto next = real<int (*)(int, off_t)>("ftruncate");
    if (failsNow("ftruncate"))
        return -1;
    return next(descriptor, length);
}

} // extern "C"
