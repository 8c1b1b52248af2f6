#include "vault/Device.h"

#include "base/FileIo.h"
#include "encoding/Hex.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <pwd.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace watchword::vault {

namespace {

constexpr std::size_t deviceFileLimit = 64;

// Creates directory and its missing parents, each 0700; existing ones stay.
Result<void, std::string> makeDirectories(const std::filesystem::path& directory)
{
    std::filesystem::path prefix;
    for (const auto& part : directory) {
        prefix /= part;
        if (prefix == prefix.root_path())
            continue;
        if (::mkdir(prefix.c_str(), 0700) == 0) {
            if (::chmod(prefix.c_str(), 0700) != 0)
                return fail(prefix.string() + ": " + std::strerror(errno));
            continue;
        }
        struct stat status
        {};
        if (errno == EEXIST && ::stat(prefix.c_str(), &status) == 0 && S_ISDIR(status.st_mode))
            continue;
        return fail("cannot create the directory " + prefix.string() + ": " +
                    std::strerror(errno == EEXIST ? ENOTDIR : errno));
    }
    return {};
}

Result<DeviceId, std::string> readDeviceId(const std::string& path)
{
    auto contents = readRegularFile(path, deviceFileLimit);
    if (!contents)
        return contents.failure();
    std::string_view text(reinterpret_cast<const char*>(contents->data()), contents->size());
    if (!text.empty() && text.back() == '\n')
        text.remove_suffix(1);
    const auto bytes = encoding::fromHex(text);
    if (!bytes || bytes->size() != deviceIdSize)
        return fail(path +
                    " does not hold a device id (16 hex digits); remove it to make a new one");
    DeviceId device{};
    std::copy(bytes->begin(), bytes->end(), device.begin());
    return device;
}

} // namespace

std::string deviceIdPath(std::string_view xdgConfigHome, std::string_view home,
                         std::string_view program)
{
    const std::string suffix = "/watchword/" + std::string(program) + ".device";
    if (!xdgConfigHome.empty() && xdgConfigHome.front() == '/')
        return std::string(xdgConfigHome) + suffix;
    if (!home.empty() && home.front() == '/')
        return std::string(home) + "/.config" + suffix;
    return {};
}

Result<DeviceId, std::string> loadOrCreateDeviceId(const std::string& path,
                                                   crypto::RandomSource& random)
{
    std::error_code error;
    if (std::filesystem::exists(path, error))
        return readDeviceId(path);
    const std::filesystem::path file(path);
    if (auto made = makeDirectories(file.parent_path()); !made)
        return made.failure();
    DeviceId device{};
    do
        random.fill(device);
    while (device == DeviceId{} || device == mergeDevice);
    const auto text = deviceText(device) + "\n";
    auto written = writeFileAtomically(file, text, 0600, IfExists::Refuse);
    // Another program may have made it first: its id is the one kept.
    if (!written && !std::filesystem::exists(path, error))
        return fail("cannot keep this machine's device id: " + written.error());
    return readDeviceId(path);
}

Result<DeviceId, std::string> thisDevice(std::string_view program, crypto::RandomSource& random)
{
    const char* xdgConfigHome = std::getenv("XDG_CONFIG_HOME");
    const char* home = std::getenv("HOME");
    std::string path = deviceIdPath(xdgConfigHome ? xdgConfigHome : "", home ? home : "", program);
    if (path.empty()) {
        std::vector<char> buffer(16384);
        struct passwd entry
        {};
        struct passwd* found = nullptr;
        if (::getpwuid_r(::getuid(), &entry, buffer.data(), buffer.size(), &found) == 0 && found &&
            found->pw_dir)
            path = deviceIdPath("", found->pw_dir, program);
    }
    if (path.empty())
        return fail(std::string("no configuration directory: XDG_CONFIG_HOME and HOME are unset "
                                "or relative and the user has no home directory"));
    return loadOrCreateDeviceId(path, random);
}

std::string deviceText(const DeviceId& device)
{
    return encoding::toHex(ByteView(device.data(), device.size()));
}

} // namespace watchword::vault
