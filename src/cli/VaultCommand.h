// watchword-cli vault: what its subcommands share. VaultCommand.cpp parses
// and dispatches; VaultSession.cpp opens, unlocks and saves; the subcommands
// live by group in VaultKeysCommand.cpp (init, info, passwd, recover,
// check-phrase), VaultRecordsCommand.cpp (add, note, list, codes, remove)
// and VaultInteropCommand.cpp (import, export).
#pragma once

#include "Arguments.h"
#include "Cli.h"
#include "Secrets.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"
#include "vault/Storage.h"
#include "vault/Vault.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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
// Serializes and saves; the exit status.
int save(OpenVault& open);

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
int runExport(const Arguments& arguments, const std::string& path);

} // namespace watchword::cli
