// watchword-cli vault (and contacts): what their subcommands share.
// VaultCommand.cpp parses and dispatches; VaultSession.cpp opens, unlocks and
// saves; the subcommands live by group in VaultKeysCommand.cpp (init, info,
// passwd, recover, check-phrase), VaultRecordsCommand.cpp (add, note, list,
// codes, remove) and VaultInteropCommand.cpp (import, export); contacts in
// ContactsCommand.cpp; merge and status in VaultSyncCommand.cpp.
#pragma once

#include "Arguments.h"
#include "Cli.h"
#include "Secrets.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"
#include "crypto/Secp256k1.h"
#include "vault/Storage.h"
#include "vault/Vault.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::cli {

// ---- opening and saving (VaultSession.cpp) ---------------------------------

// An opened and unlocked vault, with its storage (locked when it will be
// written).
struct OpenVault
{
    vault::VaultStorage storage;
    vault::Vault vault;
};

// Either an open vault or the exit status of the failure already reported.
struct Opened
{
    std::optional<OpenVault> open;
    int status = exitOk;
};

// How long a writing command waits for another writer's lock: --wait
// SECONDS (0 to 3600; checked by runWithFile), else defaultLockWait.
inline constexpr std::chrono::seconds defaultLockWait{5};

// A password, NFKD-normalized, not empty.
Result<SecureBuffer, std::string> readPassword(SecretSource& source, std::string_view what,
                                               std::string_view prompt);
// A new password: from stdin once, or typed twice on the terminal; refused
// if vault::newPasswordRefusal says it is too easy to guess, unless the
// command has --allow-weak-password.
Result<SecureBuffer, std::string> readNewPassword(SecretSource& source, const Arguments& arguments);
// "FILE: message", the exit status 1: the operation failed on this file.
int reportFileError(const std::string& path, const std::string& message);
// --target-ms: nullopt if not given; the error message if it is not a number
// of milliseconds.
Result<std::optional<std::uint32_t>, std::string> parseTarget(const Arguments& arguments);
std::string recordIdHex(const vault::RecordId& id);
// --wait, or defaultLockWait; nullopt if it is not 0 to 3600 seconds.
std::optional<std::chrono::seconds> parseWait(const Arguments& arguments);
std::chrono::milliseconds lockWait(const Arguments& arguments);
// The vault at path, read; locked too (waiting up to lockFor) when given.
std::optional<vault::VaultStorage>
openStorage(const std::string& path, std::optional<std::chrono::milliseconds> lockFor, int& status);
// What the vault's header says (vault::decodeHeader: no key needed); or
// nothing, the failure reported and its exit status in status.
std::optional<vault::VaultHeaderInfo> readHeader(const std::string& path, int& status);
// The password read, the self-test passed, the file read (and locked), the
// vault unlocked; or the exit status of the failure, already reported.
Opened unlockWithPassword(const std::string& path, SecretSource& secrets,
                          std::optional<std::chrono::milliseconds> lockFor);
// The file read (and locked), the vault unlocked with a password the command
// has read; or the exit status of the failure, already reported.
Opened openWithPassword(const std::string& path, ByteView password,
                        std::optional<std::chrono::milliseconds> lockFor);
// A subcommand's secrets (lineCount lines of stdin with --password-stdin,
// else the terminal) and the vault unlocked with the first of them. The
// secrets stay for what the command reads next (a new password, say).
struct Session
{
    std::optional<SecretSource> secrets;
    Opened opened;
};
Session openSession(const Arguments& arguments, const std::string& path, std::size_t lineCount,
                    std::optional<std::chrono::milliseconds> lockFor);
// The device this program counts its changes under on this machine
// (vault/Device.h, program "cli"). If it cannot be kept, a warning says so
// and this run uses a new random one.
const vault::DeviceId& cliDevice();
// Serializes and saves; the exit status.
int save(OpenVault& open);
// The sharing identity the vault's header names, or the message saying it
// has none yet.
Result<crypto::PublicKey, std::string> headerIdentity(const vault::VaultHeaderInfo& info);

// ---- subcommands on a vault file (VaultSession.cpp) ------------------------

// A subcommand of vault or contacts: its options, how many positional
// arguments it takes (FILE first) and their names for the error message,
// and what runs it.
struct FileSubcommand
{
    std::string_view name;
    std::vector<OptionSpec> options;
    std::size_t positionals; // at most, FILE included
    std::string_view positionalNames;
    int (*run)(const Arguments& arguments, const std::string& path);
    std::size_t fewestPositionals = 0; // at least; 0: exactly positionals
};

// Runs the subcommand of command that args names (runSubcommand), with its
// options parsed, its positional arguments counted, FILE not empty and
// --wait checked, on FILE.
// The same for a command without subcommands (share, receive): "help" or
// "--help" prints usage; else command runs on FILE.
int runFileCommand(const FileSubcommand& command, const char* usage,
                   const std::vector<std::string>& args);
int runFileSubcommands(std::string_view command, std::span<const FileSubcommand> subcommands,
                       const char* usage, const std::vector<std::string>& args);

// ---- the subcommands: each runs on FILE (path) with its parsed options -----

int runInit(const Arguments& arguments, const std::string& path);
int runInfo(const Arguments& arguments, const std::string& path);
int runPasswd(const Arguments& arguments, const std::string& path);
int runRecover(const Arguments& arguments, const std::string& path);
int runCheckPhrase(const Arguments& arguments, const std::string& path);
int runAdd(const Arguments& arguments, const std::string& path);
int runNote(const Arguments& arguments, const std::string& path);
int runList(const Arguments& arguments, const std::string& path);
int runCodes(const Arguments& arguments, const std::string& path);
int runRemove(const Arguments& arguments, const std::string& path);
int runImport(const Arguments& arguments, const std::string& path);
// VaultSyncCommand.cpp: a vault in a synced folder.
int runMerge(const Arguments& arguments, const std::string& path);
int runStatus(const Arguments& arguments, const std::string& path);
// vault status: the vault is readable and conflict copies of it wait beside it.
inline constexpr int exitConflictCopies = 3;
int runExport(const Arguments& arguments, const std::string& path);

} // namespace watchword::cli
