#include "vault/ConflictCopies.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <regex>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace watchword::vault {

namespace {

struct Naming
{
    const char* engine;
    std::regex middle; // what the engine puts between the stem and the extension
};

const std::vector<Naming>& namings()
{
    static const std::vector<Naming> all = [] {
        const auto rule = [](const char* engine, const char* pattern) {
            return Naming{engine, std::regex(pattern, std::regex::ECMAScript)};
        };
        return std::vector<Naming>{
            rule("Syncthing", R"(\.sync-conflict-\d{8}-\d{6}(-[A-Z2-7]{7})?)"),
            rule("Nextcloud or ownCloud", R"( \(conflicted copy( .+)? \d{4}-\d{2}-\d{2} \d{6}\))"),
            rule("Nextcloud or ownCloud", R"(_conflict-(.+-)?\d{8}-\d{6})"),
            rule("Dropbox",
                 R"( \(.+('|\xe2\x80\x99)s conflicted copy( \d{4}-\d{2}-\d{2})?( \(\d+\))?\))"),
            rule("Seafile", R"( \(SFConflict (\S+ )?\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\))"),
            rule("OneDrive", R"(-.+-safeBackup-\d{4})"),
            rule("Unison", R"( \(conflict( #\d+)?_on_\d{4}-\d{2}-\d{2}(_was_deleted)?\))"),
        };
    }();
    return all;
}

} // namespace

std::optional<std::string> conflictCopyEngine(std::string_view vaultName, std::string_view fileName)
{
    const auto dot = vaultName.rfind('.');
    // A leading dot starts a hidden name, not an extension.
    const bool hasExtension = dot != std::string_view::npos && dot != 0;
    const auto stem = hasExtension ? vaultName.substr(0, dot) : vaultName;
    const auto extension = hasExtension ? vaultName.substr(dot) : std::string_view{};
    if (stem.empty() || fileName.size() <= stem.size() + extension.size() ||
        !fileName.starts_with(stem) || !fileName.ends_with(extension))
        return std::nullopt;
    const std::string middle(
        fileName.substr(stem.size(), fileName.size() - stem.size() - extension.size()));
    for (const auto& naming : namings())
        if (std::regex_match(middle, naming.middle))
            return std::string(naming.engine);
    return std::nullopt;
}

std::vector<ConflictCopy> conflictCopiesOf(const std::string& vaultPath)
{
    namespace fs = std::filesystem;
    std::vector<ConflictCopy> copies;
    const fs::path vault(vaultPath);
    const auto name = vault.filename().string();
    auto directory = vault.parent_path();
    if (directory.empty())
        directory = ".";
    std::error_code error;
    fs::directory_iterator entries(directory, error);
    if (error)
        return copies;
    for (const auto& entry : entries) {
        const auto fileName = entry.path().filename().string();
        auto engine = conflictCopyEngine(name, fileName);
        if (!engine || !entry.is_regular_file(error) || entry.is_symlink(error))
            continue;
        // Named as the vault is: beside it, with its directory if it has one.
        copies.push_back(
            {vault.has_parent_path() ? (vault.parent_path() / fileName).string() : fileName,
             std::move(*engine)});
    }
    std::sort(copies.begin(), copies.end(),
              [](const ConflictCopy& a, const ConflictCopy& b) { return a.path < b.path; });
    return copies;
}

Result<std::string, std::string> setAsideConflictCopy(const std::string& copyPath)
{
    namespace fs = std::filesystem;
    const fs::path copy(copyPath);
    auto directory = copy.parent_path();
    if (directory.empty())
        directory = ".";
    const auto folder = directory / std::string(mergedCopiesFolder);
    if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST)
        return fail("cannot create " + folder.string() + ": " + std::strerror(errno));
    const auto stem = copy.stem().string();
    const auto extension = copy.extension().string();
    for (int attempt = 1; attempt < 1000; ++attempt) {
        const auto target =
            folder / (attempt == 1 ? copy.filename().string()
                                   : stem + " (" + std::to_string(attempt) + ")" + extension);
        // link() refuses a name that exists (rename() would replace it), so
        // no kept copy is ever overwritten; then the copy's old name goes.
        if (::link(copy.c_str(), target.c_str()) == 0) {
            if (::unlink(copy.c_str()) != 0) {
                const int error = errno;
                ::unlink(target.c_str());
                return fail("cannot move " + copyPath + ": " + std::strerror(error));
            }
            return target.string();
        }
        const int error = errno;
        if (error == EPERM || error == ENOTSUP || error == ENOSYS) {
            // A file system without hard links (FAT, some network shares):
            // a rename, to a name checked free just before.
            std::error_code ignored;
            if (fs::exists(target, ignored))
                continue;
            if (::rename(copy.c_str(), target.c_str()) == 0)
                return target.string();
            return fail("cannot move " + copyPath + " to " + folder.string() + ": " +
                        std::strerror(errno));
        }
        if (error != EEXIST)
            return fail("cannot move " + copyPath + " to " + folder.string() + ": " +
                        std::strerror(error));
    }
    return fail("cannot move " + copyPath + ": too many kept copies of that name in " +
                folder.string());
}

} // namespace watchword::vault
