// watchword-cli watch export: the payload a watch app loads, with the chosen
// accounts sealed under a watch PIN (docs/FORMAT.md section 8).
#include "Cli.h"
#include "Secrets.h"
#include "WatchCommand.h"
#include "base/FileIo.h"
#include "crypto/Random.h"
#include "vault/Storage.h"
#include "vault/Vault.h"
#include "watch/CostModel.h"
#include "watch/Device.h"
#include "watch/WatchExport.h"

#include <filesystem>

namespace watchword::cli {

namespace {

// Usage is in WatchCommand.cpp with the other watch subcommands. Secrets come
// from hidden prompts, or from stdin with --password-stdin, one per line: the
// vault password, the watch PIN, the watch PIN again. Exit status as for the
// vault commands: 2 on bad input, 1 if the vault cannot be opened (missing,
// damaged, wrong password) or the payload cannot be written.

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
    int status = exitOk;
    const auto device = chooseDevice(arguments, deviceId, status);
    if (!device)
        return status;
    if (!iterations)
        iterations = watch::exportIterations(*device);
    if (!arguments.has("force") && std::filesystem::exists(outPath))
        return reportError(outPath + " exists: give --force to replace it");

    auto source =
        SecretSource::make(arguments.has("password-stdin"), 3, "watchword-cli watch export --help");
    if (!source)
        return reportError(source.error());
    SecretSource& secrets = *source;
    auto rawPassword = secrets.next("the vault password", "Vault password: ");
    if (!rawPassword)
        return reportError(rawPassword.error());
    auto password = normalizeSecretText(*rawPassword, "the vault password");
    if (!password)
        return reportError(password.error());
    auto pin = secrets.next("the watch PIN", "Watch PIN (4 to 12 digits): ");
    if (!pin)
        return reportError(pin.error());
    if (auto valid = watch::checkPin(pin->view()); !valid)
        return reportError(valid.error().message);
    auto again = secrets.next("the watch PIN again", "Repeat the watch PIN: ");
    if (!again)
        return reportError(again.error());
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
        // Every account, in the vault's list order (docs/FORMAT.md section 8.1).
        for (const vault::Record* record : vault::sortedRecords(*unlocked))
            if (const auto* account = std::get_if<vault::OtpAccount>(record))
                accounts.push_back(watch::watchAccountFrom(*account));
    } else {
        for (const auto& text : accountIds) {
            const auto id = parseRecordId(text);
            if (!id)
                return reportError("'" + text + "' is not a record id (32 hex digits)");
            const auto* record = unlocked->find(*id);
            if (!record)
                return reportError("no record " + text + " in " + vaultPath);
            const auto* account = std::get_if<vault::OtpAccount>(record);
            if (!account)
                return reportError("record " + text + " is a " +
                                   std::string(vault::kindName(vault::kindOf(*record))) +
                                   ", not an OTP account");
            accounts.push_back(watch::watchAccountFrom(*account));
        }
    }
    if (accounts.empty())
        return reportError(vaultPath + " has no OTP accounts to export");

    auto payload = watch::writeExport({deviceId, currentUnixSeconds(), *iterations}, pin->view(),
                                      accounts, crypto::systemRandom());
    if (!payload)
        return reportError(payload.error().message);
    // Refuse also covers a file that appeared while the secrets were typed.
    const auto ifExists = arguments.has("force") ? IfExists::Replace : IfExists::Refuse;
    const auto written = writeFileAtomically(outPath, *payload, 0600, ifExists);
    if (!written)
        return reportError(written.error() == outPath + " exists"
                               ? written.error() + ": give --force to replace it"
                               : written.error(),
                           exitFailure);
    if (!written->notDurable.empty())
        reportError("warning: " + written->notDurable, exitOk);
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
