// watchword-cli vault merge and vault status: a vault kept in a folder that a
// sync engine copies between machines (docs/FORMAT.md section 13).
#include "VaultCommand.h"
#include "base/FileIo.h"
#include "encoding/Hex.h"
#include "vault/ConflictCopies.h"
#include "vault/Device.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace watchword::cli {

namespace {

nlohmann::json countsJson(const vault::KindCounts& counts)
{
    return {{"accounts", counts.accounts}, {"notes", counts.notes}, {"contacts", counts.contacts}};
}

// "2 accounts", "1 note": empty for none.
std::string countText(std::size_t count, std::string_view one, std::string_view many)
{
    if (count == 0)
        return {};
    return std::to_string(count) + " " + std::string(count == 1 ? one : many);
}

void addParts(std::vector<std::string>& parts, const vault::KindCounts& counts,
              std::string_view done)
{
    for (auto part : {countText(counts.accounts, "account", "accounts"),
                      countText(counts.notes, "note", "notes"),
                      countText(counts.contacts, "contact", "contacts")})
        if (!part.empty())
            parts.push_back(part + " " + std::string(done));
}

// "2 accounts added, 1 note changed, 1 conflict resolved": what a merge took
// from the other copy, or "nothing new".
std::string reportText(const vault::MergeReport& report)
{
    std::vector<std::string> parts;
    addParts(parts, report.added, "added");
    addParts(parts, report.changed, "changed");
    addParts(parts, report.removed, "removed");
    if (report.conflicts != 0)
        parts.push_back(
            countText(report.conflicts, "record", "records") + " changed on both sides, resolved" +
            (report.notesKeptTwice != 0 ? " (" + countText(report.notesKeptTwice, "note", "notes") +
                                              " kept twice: \"(conflicting edit)\")"
                                        : std::string()));
    if (report.countersRaised != 0)
        parts.push_back(countText(report.countersRaised, "HOTP counter", "HOTP counters") +
                        " raised");
    if (report.positionsMoved != 0)
        parts.push_back(countText(report.positionsMoved, "record", "records") +
                        " added on both sides moved to the end");
    if (report.keyFromOther)
        parts.push_back("its newer password is the vault's now");
    if (parts.empty())
        return "nothing new";
    std::string text;
    for (const auto& part : parts)
        text += (text.empty() ? "" : ", ") + part;
    return text;
}

nlohmann::json reportJson(const std::string& path, const vault::MergeReport& report)
{
    return {{"path", path},
            {"added", countsJson(report.added)},
            {"changed", countsJson(report.changed)},
            {"removed", countsJson(report.removed)},
            {"conflicts", report.conflicts},
            {"notes_kept_twice", report.notesKeptTwice},
            {"counters_raised", report.countersRaised},
            {"positions_moved", report.positionsMoved},
            {"password_from_other", report.keyFromOther}};
}

// The refusals of a copy that are bad input (the copy, not the operation):
// exit 2. A wrong password is a failure: exit 1.
int copyStatus(vault::VaultError error)
{
    switch (error) {
    case vault::VaultError::WrongPassword:
    case vault::VaultError::WrongRecoveryPhrase:
    case vault::VaultError::CryptoDisabled:
    case vault::VaultError::InternalFailure:
        return exitFailure;
    default:
        return exitUsage;
    }
}

} // namespace

int runMerge(const Arguments& arguments, const std::string& path)
{
    const auto& positionals = arguments.positionals();
    const std::vector<std::string> others(positionals.begin() + 1, positionals.end());
    for (const auto& other : others) {
        if (other.empty())
            return reportError("vault merge: OTHER is empty");
        std::error_code error;
        if (std::filesystem::equivalent(path, other, error))
            return reportError("vault merge: " + other + " is the vault itself");
    }
    const bool dryRun = arguments.has("dry-run");
    // The vault's password, then one per copy saved under another password.
    auto session = openSession(
        arguments, path, 1 + others.size(),
        dryRun ? std::nullopt : std::optional<std::chrono::milliseconds>(lockWait(arguments)));
    if (!session.opened.open)
        return session.opened.status;
    auto& open = *session.opened.open;
    auto& secrets = *session.secrets;

    std::vector<vault::MergeReport> reports;
    bool changed = false;
    for (const auto& other : others) {
        auto bytes = readRegularFile(other, vault::maximumVaultFileSize);
        if (!bytes)
            return reportError(bytes.error() + "; nothing was merged");
        auto copy = vault::Vault::unlockWithKeyOf(bytes->span(), open.vault);
        if (!copy && copy.error().code == vault::VaultError::KeyChanged) {
            auto password = readPassword(secrets, "the password of " + other,
                                         "Password of " + other + " (changed elsewhere): ");
            if (!password)
                return reportError(password.error());
            copy = vault::Vault::unlockWithPassword(bytes->span(), password->span());
        }
        if (!copy)
            return reportError(other + ": " + copy.error().message + "; nothing was merged",
                               copyStatus(copy.error().code));
        auto report = open.vault.merge(std::move(*copy));
        if (!report)
            return reportError(other + ": " + report.error().message + "; nothing was merged",
                               copyStatus(report.error().code));
        changed = changed || report->changedThis();
        reports.push_back(*report);
    }

    bool written = false;
    if (changed && !dryRun) {
        if (const int status = save(open); status != exitOk)
            return status;
        written = true;
    }
    // The conflict copies of this vault beside it (those vault status
    // lists), merged and saved (or already held), go out of the engine's
    // way; other files stay where they are.
    std::vector<std::string> setAside(others.size());
    const std::filesystem::path vaultPath(path);
    const auto vaultName = vaultPath.filename().string();
    const auto folderOf = [](const std::filesystem::path& file) {
        return file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
    };
    if (!dryRun)
        for (std::size_t i = 0; i < others.size(); ++i) {
            const std::filesystem::path other(others[i]);
            std::error_code error;
            if (!vault::conflictCopyEngine(vaultName, other.filename().string()) ||
                !std::filesystem::equivalent(folderOf(other), folderOf(vaultPath), error))
                continue;
            if (auto moved = vault::setAsideConflictCopy(others[i]))
                setAside[i] = *moved;
            else
                reportError("warning: " + moved.error(), exitOk);
        }

    if (arguments.has("json")) {
        auto list = nlohmann::json::array();
        for (std::size_t i = 0; i < others.size(); ++i) {
            auto entry = reportJson(others[i], reports[i]);
            entry["set_aside"] =
                setAside[i].empty() ? nlohmann::json(nullptr) : nlohmann::json(setAside[i]);
            list.push_back(std::move(entry));
        }
        printJson({{"file", path},
                   {"merged", list},
                   {"written", written},
                   {"dry_run", dryRun},
                   {"generation", static_cast<std::int64_t>(open.vault.generation())}});
        return exitOk;
    }
    for (std::size_t i = 0; i < others.size(); ++i)
        printLine(others[i] + ": " + reportText(reports[i]) +
                  (setAside[i].empty() ? std::string() : "; kept as " + setAside[i]));
    if (dryRun)
        printLine(changed ? "--dry-run: " + path + " was not written"
                          : path + " already holds everything: nothing to write");
    else
        printLine(written ? path + ": merged, generation " + std::to_string(open.vault.generation())
                          : path + " already holds everything: nothing written");
    return exitOk;
}

int runStatus(const Arguments& arguments, const std::string& path)
{
    int status = exitOk;
    const auto info = readHeader(path, status);
    if (!info)
        return status;
    const auto& sync = info->sync;
    const auto copies = vault::conflictCopiesOf(path);
    const auto device = [](const vault::DeviceId& id) {
        return id == vault::DeviceId{} ? std::string() : vault::deviceText(id);
    };

    // What each copy is: the same vault (its generation and writer), or why
    // it is not one to merge.
    struct CopyState
    {
        std::string note;
        nlohmann::json json;
    };
    std::vector<CopyState> states;
    for (const auto& copy : copies) {
        CopyState state;
        state.json = {{"path", copy.path}, {"engine", copy.engine}};
        auto bytes = readRegularFile(copy.path, vault::maximumVaultFileSize);
        if (!bytes) {
            state.note = "cannot be read: " + bytes.error();
            state.json["error"] = bytes.error();
            states.push_back(std::move(state));
            continue;
        }
        const auto header = vault::decodeHeader(bytes->span());
        if (!header) {
            state.note = "cannot be merged: " + header.error().message;
            state.json["error"] = header.error().message;
        } else if (header->vaultId != info->vaultId) {
            state.note = "cannot be merged: a copy of another vault";
            state.json["error"] = "a copy of another vault";
        } else {
            state.note =
                "generation " + std::to_string(header->generation) +
                (header->sync.lastWriter == vault::DeviceId{}
                     ? std::string()
                     : ", written by device " + vault::deviceText(header->sync.lastWriter));
            state.json["generation"] = static_cast<std::int64_t>(header->generation);
            state.json["last_writer"] = device(header->sync.lastWriter);
        }
        states.push_back(std::move(state));
    }

    if (arguments.has("json")) {
        auto writers = nlohmann::json::array();
        for (const auto& writer : sync.writers)
            writers.push_back({{"device", vault::deviceText(writer.device)},
                               {"generation", static_cast<std::int64_t>(writer.generation)}});
        auto list = nlohmann::json::array();
        for (const auto& state : states)
            list.push_back(state.json);
        printJson({{"file", path},
                   {"format_version", info->version},
                   {"generation", static_cast<std::int64_t>(info->generation)},
                   {"modified", info->modified},
                   {"last_writer", device(sync.lastWriter)},
                   {"password_set", sync.keyMade},
                   {"password_set_by", device(sync.keyDevice)},
                   {"writers", writers},
                   {"conflict_copies", list}});
    } else {
        printLine("generation: " + std::to_string(info->generation) + " (format version " +
                  std::to_string(info->version) + ")");
        printLine("modified: " + std::to_string(info->modified));
        printLine("last writer: " + (sync.lastWriter == vault::DeviceId{}
                                         ? std::string("not recorded (written before version 3)")
                                         : "device " + vault::deviceText(sync.lastWriter)));
        for (const auto& writer : sync.writers)
            printLine("  device " + vault::deviceText(writer.device) + " wrote generation " +
                      std::to_string(writer.generation));
        if (copies.empty())
            printLine("conflict copies: none");
        else
            printLine("conflict copies: " + std::to_string(copies.size()) +
                      " (merge them with watchword-cli vault merge " + path + " COPY...)");
        for (std::size_t i = 0; i < copies.size(); ++i)
            printLine("  " + copies[i].path + " (" + copies[i].engine + "): " + states[i].note);
    }
    return copies.empty() ? exitOk : exitConflictCopies;
}

} // namespace watchword::cli
