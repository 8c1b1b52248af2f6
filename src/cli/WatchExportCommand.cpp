// watchword-cli watch export: the payload a watch app loads, with the chosen
// accounts sealed under a watch PIN (docs/FORMAT.md section 8).
#include "Arguments.h"
#include "Cli.h"
#include "Secrets.h"
#include "base/FileIo.h"
#include "crypto/Random.h"
#include "encoding/Hex.h"
#include "vault/Storage.h"
#include "vault/Vault.h"
#include "watch/CostModel.h"
#include "watch/Device.h"
#include "watch/WatchExport.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace watchword::cli {

namespace {

// Usage is in WatchCommand.cpp with the other watch subcommands. Secrets come
// from hidden prompts, or from stdin with --password-stdin, one per line: the
// vault password, the watch PIN, the watch PIN again. Exit status as for the
// vault commands: 2 on bad input, 1 if the vault cannot be opened (missing,
// damaged, wrong password) or the payload cannot be written.

// Writes text to path through a temporary file in the same directory: a
// reader never sees half a payload. Without replace, the final step is
// link(2), which refuses an existing file atomically.
std::optional<std::string> writePayload(const std::string& path, std::string_view text,
                                        bool replace)
{
    const std::filesystem::path target(path);
    const auto directory = target.has_parent_path() ? target.parent_path() : ".";
    // Appended piece by piece: GCC 12 warns (-Wrestrict) on "." + string here.
    std::string name(".");
    name.append(target.filename().string()).append(".tmp-XXXXXX");
    std::string temporary = directory / name;
    const int descriptor = ::mkstemp(temporary.data());
    if (descriptor < 0)
        return "cannot create a file in " + directory.string() + ": " + std::strerror(errno);
    const auto cleanUp = [&](const std::string& message) {
        ::unlink(temporary.c_str());
        return message;
    };
    ::fchmod(descriptor, S_IRUSR | S_IWUSR);
    const int written = writeAll(descriptor, asBytes(text));
    const bool synced = written == 0 && ::fsync(descriptor) == 0;
    const int code = written ? written : errno;
    ::close(descriptor);
    if (!synced)
        return cleanUp("cannot write " + temporary + ": " + std::strerror(code));
    if (replace) {
        if (::rename(temporary.c_str(), path.c_str()) != 0)
            return cleanUp("cannot write " + path + ": " + std::strerror(errno));
    } else {
        if (::link(temporary.c_str(), path.c_str()) != 0) {
            const int failure = errno;
            return cleanUp(failure == EEXIST
                               ? path + " exists: give --force to replace it"
                               : "cannot write " + path + ": " + std::strerror(failure));
        }
        ::unlink(temporary.c_str());
    }
    const int directoryDescriptor = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directoryDescriptor >= 0) {
        ::fsync(directoryDescriptor);
        ::close(directoryDescriptor);
    }
    return std::nullopt;
}

int run(const std::vector<std::string>& allArgs)
{
    // --account may be repeated, which Arguments refuses: take those out first.
    std::vector<std::string> args;
    std::vector<std::string> accountIds;
    for (std::size_t i = 0; i < allArgs.size(); ++i) {
        const auto& word = allArgs[i];
        if (word == "--")
            break;
        if (word == "--account") {
            if (i + 1 == allArgs.size() || allArgs[i + 1].starts_with("--"))
                return reportError("--account needs a record id");
            accountIds.push_back(allArgs[++i]);
        } else if (word.starts_with("--account=")) {
            accountIds.push_back(word.substr(10));
        } else {
            args.push_back(word);
        }
    }
    const auto arguments = Arguments::parse(args, {{"device", true},
                                                   {"vault", true},
                                                   {"out", true},
                                                   {"iterations", true},
                                                   {"force"},
                                                   {"password-stdin"},
                                                   {"devices-dir", true}});
    if (!arguments.ok())
        return reportError(arguments.error() + " (see watchword-cli watch export --help)");
    if (!arguments.positionals().empty())
        return reportError("watch export takes no arguments, got '" +
                           arguments.positionals().front() + "'");
    for (const char* required : {"device", "vault", "out"})
        if (!arguments.has(required))
            return reportError(std::string("watch export needs --") + required);
    const auto deviceId = *arguments.value("device");
    const auto vaultPath = *arguments.value("vault");
    const auto outPath = *arguments.value("out");

    // The device and the round count, before any secret is asked for.
    std::optional<std::uint32_t> iterations;
    if (const auto value = arguments.value("iterations")) {
        const auto parsed =
            parseInteger(*value, watch::minimumIterations, watch::maximumIterations);
        if (!parsed)
            return reportError("--iterations takes a whole number from 2,000 to 500,000, got '" +
                               *value + "'");
        iterations = static_cast<std::uint32_t>(*parsed);
    }
    std::string directory;
    if (const auto given = arguments.value("devices-dir"))
        directory = *given;
    else if (const auto found = watch::defaultDeviceDirectory())
        directory = *found;
    else
        return reportError("no device profiles found (give --devices-dir)", exitFailure);
    auto devices = watch::loadDevices(directory);
    if (!devices)
        return reportError(devices.error().message);
    const watch::Device* device = nullptr;
    for (const auto& candidate : *devices)
        if (candidate.id == deviceId)
            device = &candidate;
    if (!device)
        return reportError("no device '" + deviceId + "' in " + directory +
                           " (watchword-cli watch devices lists them)");
    if (!iterations) {
        const auto calibrated = watch::calibratedCount(*device);
        if (!calibrated.deviceBasis)
            return reportError("the cost model has no figures for " + deviceId +
                               ": give --iterations");
        iterations =
            std::clamp(calibrated.deviceLow, watch::minimumIterations, watch::maximumIterations);
    }
    if (!arguments.has("force") && std::filesystem::exists(outPath))
        return reportError(outPath + " exists: give --force to replace it");

    std::string error;
    auto source = SecretSource::make(arguments.has("password-stdin"), 3, error,
                                     "watchword-cli watch export --help");
    if (!source)
        return reportError(error);
    SecretSource& secrets = *source;
    auto rawPassword = secrets.next("the vault password", "Vault password: ", error);
    if (!rawPassword)
        return reportError(error);
    auto password = normalizeSecretText(*rawPassword, "the vault password", error);
    if (!password)
        return reportError(error);
    auto pin = secrets.next("the watch PIN", "Watch PIN (4 to 12 digits): ", error);
    if (!pin)
        return reportError(error);
    if (auto valid = watch::checkPin(pin->view()); !valid)
        return reportError(valid.error().message);
    auto again = secrets.next("the watch PIN again", "Repeat the watch PIN: ", error);
    if (!again)
        return reportError(error);
    if (again->view() != pin->view())
        return reportError("the two watch PINs differ");

    if (const auto failure = requireSelfTest())
        return reportError(*failure, exitFailure);
    auto storage = vault::VaultStorage::open(vaultPath, crypto::systemRandom());
    if (!storage)
        return reportError(vaultPath + ": " + storage.error().message, exitFailure);
    auto unlocked = vault::Vault::unlockWithPassword(storage->contents(), password->span());
    if (!unlocked)
        return reportError(vaultPath + ": " + unlocked.error().message, exitFailure);

    std::vector<watch::WatchAccount> accounts;
    if (accountIds.empty()) {
        for (std::size_t i = 0; i < unlocked->recordCount(); ++i)
            if (const auto* account = std::get_if<vault::OtpAccount>(&unlocked->record(i)))
                accounts.push_back(watch::watchAccountFrom(*account));
    } else {
        for (const auto& text : accountIds) {
            const auto bytes = encoding::fromHex(text);
            vault::RecordId id{};
            if (!bytes || bytes->size() != id.size())
                return reportError("'" + text + "' is not a record id (32 hex digits)");
            std::copy(bytes->begin(), bytes->end(), id.begin());
            const auto* record = unlocked->find(id);
            if (!record)
                return reportError("no record " + text + " in " + vaultPath);
            const auto* account = std::get_if<vault::OtpAccount>(record);
            if (!account)
                return reportError("record " + text + " is a note, not an OTP account");
            accounts.push_back(watch::watchAccountFrom(*account));
        }
    }
    if (accounts.empty())
        return reportError(vaultPath + " has no OTP accounts to export");

    const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    auto payload = watch::writeExport({deviceId, now, *iterations}, pin->view(), accounts,
                                      crypto::systemRandom());
    if (!payload)
        return reportError(payload.error().message);
    if (auto problem = writePayload(outPath, *payload, arguments.has("force")))
        return reportError(*problem, exitFailure);
    printLine("wrote " + outPath + ": " + std::to_string(accounts.size()) + " accounts, " +
              std::to_string(payload->size()) + " bytes, " + std::to_string(*iterations) +
              " PBKDF2 rounds, for " + deviceId);
    return exitOk;
}

} // namespace

int runWatchExport(const std::vector<std::string>& args)
{
    return run(args);
}

} // namespace watchword::cli
