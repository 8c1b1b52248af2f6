// watchword-cli vault and contacts: opening, unlocking and saving a vault, the
// passwords they read, and the subcommands that run on a vault file
// (VaultCommand.h).
#include "VaultCommand.h"
#include "crypto/Random.h"
#include "encoding/Hex.h"
#include "text/CoreText.h"
#include "vault/Calibration.h"
#include "vault/Device.h"
#include "vault/PasswordStrength.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace watchword::cli {

// A password, NFKD-normalized, not empty.
Result<SecureBuffer, std::string> readPassword(SecretSource& source, std::string_view what,
                                               std::string_view prompt)
{
    auto raw = source.next(what, prompt);
    if (!raw)
        return raw.failure();
    if (raw->empty())
        return fail(std::string(what) + " is empty: a vault needs a password");
    return normalizeSecretText(*raw, what);
}

// A new password: from stdin once, or typed twice on the terminal; refused
// if vault::newPasswordRefusal says it is too easy to guess, unless the
// command has --allow-weak-password.
Result<SecureBuffer, std::string> readNewPassword(SecretSource& source, const Arguments& arguments)
{
    auto password = readPassword(source, "the new password", "New vault password: ");
    if (!password)
        return password.failure();
    if (!source.fromStdin()) {
        auto again = readPassword(source, "the new password", "Repeat the new password: ");
        if (!again)
            return again.failure();
        if (!constantTimeEqual(password->span(), again->span()))
            return fail(std::string("the two passwords differ; nothing was changed"));
    }
    if (arguments.has("allow-weak-password"))
        return password;
    if (const auto refusal = vault::newPasswordRefusal(password->view()))
        return fail("the new password: " + *refusal +
                    " Nothing was written. (--allow-weak-password takes it anyway: only for a "
                    "vault that guards nothing, since a stolen copy of the file is then opened "
                    "by guessing.)");
    return password;
}

// "FILE: message", the exit status 1: the operation failed on this file.
int reportFileError(const std::string& path, const std::string& message)
{
    // Storage messages already name the file; others get it as a prefix.
    if (message.starts_with(path))
        return reportError(message, exitFailure);
    return reportError(path + ": " + message, exitFailure);
}

Result<std::optional<std::uint32_t>, std::string> parseTarget(const Arguments& arguments)
{
    const auto text = arguments.value("target-ms");
    if (!text)
        return std::optional<std::uint32_t>{};
    const auto value =
        parseInteger(*text, vault::minimumTargetMilliseconds, vault::maximumTargetMilliseconds);
    if (!value)
        return fail("--target-ms: '" + *text +
                    "' is not a whole number of milliseconds from 1 to 60000");
    return std::optional<std::uint32_t>{static_cast<std::uint32_t>(*value)};
}

std::string recordIdHex(const vault::RecordId& id)
{
    return encoding::toHex(ByteView(id.data(), id.size()));
}

std::optional<std::chrono::seconds> parseWait(const Arguments& arguments)
{
    const auto text = arguments.value("wait");
    if (!text)
        return defaultLockWait;
    const auto value = parseInteger(*text, 0, 3600);
    if (!value)
        return std::nullopt;
    return std::chrono::seconds(*value);
}

std::chrono::milliseconds lockWait(const Arguments& arguments)
{
    return parseWait(arguments).value_or(defaultLockWait);
}

// The vault at path, read; locked too (waiting up to lockFor) when given.
std::optional<vault::VaultStorage>
openStorage(const std::string& path, std::optional<std::chrono::milliseconds> lockFor, int& status)
{
    auto storage = lockFor ? vault::VaultStorage::openLocked(path, crypto::systemRandom(), *lockFor)
                           : vault::VaultStorage::open(path, crypto::systemRandom());
    if (!storage) {
        status = reportFileError(path, storage.error().message);
        return std::nullopt;
    }
    return std::move(storage).value();
}

std::optional<vault::VaultHeaderInfo> readHeader(const std::string& path, int& status)
{
    auto storage = openStorage(path, std::nullopt, status);
    if (!storage)
        return std::nullopt;
    auto info = vault::decodeHeader(storage->contents());
    if (!info) {
        status = reportFileError(path, info.error().message);
        return std::nullopt;
    }
    return std::move(info).value();
}

Opened unlockWithPassword(const std::string& path, SecretSource& secrets,
                          std::optional<std::chrono::milliseconds> lockFor)
{
    Opened result;
    auto password = readPassword(secrets, "the password", "Vault password: ");
    if (!password) {
        result.status = reportError(password.error());
        return result;
    }
    if (const auto failure = requireSelfTest()) {
        result.status = reportError(*failure, exitFailure);
        return result;
    }
    return openWithPassword(path, password->span(), lockFor);
}

Opened openWithPassword(const std::string& path, ByteView password,
                        std::optional<std::chrono::milliseconds> lockFor)
{
    Opened result;
    auto storage = openStorage(path, lockFor, result.status);
    if (!storage)
        return result;
    auto unlocked = vault::Vault::unlockWithPassword(storage->contents(), password);
    if (!unlocked) {
        result.status = reportFileError(path, unlocked.error().message);
        return result;
    }
    // A command that writes counts its changes under this machine's device
    // (reading never makes the device file).
    if (lockFor)
        unlocked->setDevice(cliDevice());
    result.open.emplace(OpenVault{std::move(*storage), std::move(unlocked).value()});
    return result;
}

Session openSession(const Arguments& arguments, const std::string& path, std::size_t lineCount,
                    std::optional<std::chrono::milliseconds> lockFor)
{
    Session session;
    auto secrets = SecretSource::make(arguments.has("password-stdin"), lineCount);
    if (!secrets) {
        session.opened.status = reportError(secrets.error());
        return session;
    }
    session.secrets = std::move(secrets).value();
    session.opened = unlockWithPassword(path, *session.secrets, lockFor);
    return session;
}

const vault::DeviceId& cliDevice()
{
    static const vault::DeviceId device = [] {
        auto kept = vault::thisDevice("cli", crypto::systemRandom());
        if (kept)
            return *kept;
        reportError("warning: " + kept.error() + "; this run counts its changes under a new device",
                    exitOk);
        vault::DeviceId fresh{};
        do
            crypto::systemRandom().fill(fresh);
        while (fresh == vault::DeviceId{} || fresh == vault::mergeDevice);
        return fresh;
    }();
    return device;
}

int save(OpenVault& open)
{
    auto bytes = open.vault.serialize(crypto::systemRandom(), currentUnixSeconds());
    if (!bytes)
        return reportFileError(open.storage.path(), bytes.error().message);
    if (auto saved = open.storage.save(*bytes); !saved)
        return reportFileError(open.storage.path(), saved.error().message);
    // The change is made: what could not be done after it is a warning.
    if (!open.storage.warning().empty())
        reportError("warning: " + open.storage.warning(), exitOk);
    return exitOk;
}

Result<crypto::PublicKey, std::string> headerIdentity(const vault::VaultHeaderInfo& info)
{
    if (!info.sharingPublicKey)
        return fail(std::string("this vault has no sharing identity yet: open it once with its "
                                "recovery phrase (vault recover FILE)"));
    auto key = crypto::PublicKey::fromSec1(*info.sharingPublicKey);
    if (!key)
        return fail(std::string("the identity slot's public key is not a valid point"));
    return std::move(key).value();
}

namespace {

// Parses args for subcommand of command (command alone when it has no
// subcommands: command == subcommand.name) and runs it on FILE.
int runWithFile(std::string_view command, const FileSubcommand& subcommand,
                const std::vector<std::string>& args)
{
    const std::string prefix = command == subcommand.name
                                   ? std::string(command)
                                   : std::string(command) + " " + std::string(subcommand.name);
    auto arguments = Arguments::parse(args, subcommand.options);
    if (!arguments.ok())
        return reportError(arguments.error() + " (see watchword-cli " + std::string(command) +
                           " --help)");
    const std::size_t count = arguments.positionals().size();
    const std::size_t fewest =
        subcommand.fewestPositionals != 0 ? subcommand.fewestPositionals : subcommand.positionals;
    if (count < fewest || count > subcommand.positionals)
        return reportError(prefix + " takes " + std::string(subcommand.positionalNames) + ", got " +
                           std::to_string(arguments.positionals().size()) +
                           (arguments.positionals().size() == 1 ? " argument" : " arguments"));
    if (arguments.positionals().front().empty())
        return reportError(prefix + ": FILE is empty");
    if (!parseWait(arguments))
        return reportError("--wait: '" + *arguments.value("wait") +
                           "' is not a whole number of seconds from 0 to 3600");
    return subcommand.run(arguments, arguments.positionals().front());
}

} // namespace

int runFileCommand(const FileSubcommand& command, const char* usage,
                   const std::vector<std::string>& args)
{
    if ((!args.empty() && args.front() == "help") ||
        std::find(args.begin(), args.end(), "--help") != args.end()) {
        std::fputs(usage, stdout);
        return exitOk;
    }
    if (args.empty())
        return reportError(std::string(command.name) + " takes " +
                           std::string(command.positionalNames) + " (see watchword-cli " +
                           std::string(command.name) + " --help)");
    return runWithFile(command.name, command, args);
}

int runFileSubcommands(std::string_view command, std::span<const FileSubcommand> subcommands,
                       const char* usage, const std::vector<std::string>& args)
{
    std::vector<Subcommand> table;
    for (const auto& subcommand : subcommands)
        table.push_back(
            {subcommand.name, [command, &subcommand](const std::vector<std::string>& rest) {
                 return runWithFile(command, subcommand, rest);
             }});
    return runSubcommand(command, table, usage, args);
}

} // namespace watchword::cli
