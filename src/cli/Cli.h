// watchword-cli: shared pieces of the commands.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"
#include "text/SecretText.h"
#include "vault/Records.h"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::cli {

// Exit codes, documented in --help and the man page.
inline constexpr int exitOk = 0;
inline constexpr int exitFailure = 1; // the operation failed (self-test, crypto disabled)
inline constexpr int exitUsage = 2;   // bad arguments or bad input: nothing was printed on stdout

// Everything written to the terminal passes encoding::escapeForTerminal: a
// path, a label or a file's text holding a newline, ESC or a bidirectional
// override shows them as escapes (\n, \e, \u202e) and cannot forge a line
// or send the terminal a command.

// One clear line on stderr: "watchword-cli: <message>".
int reportError(std::string_view message, int exitCode = exitUsage);

// Writes text as one line, and a newline, to stdout.
void printLine(std::string_view text);

// Writes several lines of the program's own composing ('\n' between them,
// every other control character escaped) and a newline to stdout.
void printLines(std::string_view text);

// Writes object as one line of compact JSON (JsonText.h) to stdout;
// invisible formatting characters in its strings are written as \u escapes.
void printJson(const nlohmann::json& object);

// Reads up to maxLines lines from standard input (without their line ends),
// into wiped memory. Fails with a message if stdin holds more than 64 KiB or
// a NUL byte.
struct StdinLines
{
    std::vector<SecureBuffer> lines;
    std::string error;
};
StdinLines readStdinLines(std::size_t maxLines);

// The whole file at path ("-": standard input) into wiped memory, or a
// message naming it if it cannot be read or holds more than limit bytes.
Result<SecureBuffer, std::string> readInputFile(const std::string& path, std::size_t limit);

// The texts of every QR code in the PNG image at path ('-': standard input),
// top to bottom; or why there are none: the message, and whether the image
// was read but holds no code that decodes (else it could not be read, is not
// a PNG or is too large).
struct QrReadError
{
    std::string message;
    bool noCode = false;
};
Result<std::vector<std::string>, QrReadError> readQrTexts(const std::string& path);
// The same for a PNG already read (name: for the messages).
Result<std::vector<std::string>, QrReadError> qrTextsOf(ByteView png, const std::string& name);

// Secrets typed as text are normalized by text/SecretText.h.
using text::normalizeSecretText;

// A record id as vault list prints it (32 hex digits, either case); nullopt
// if text is not one.
std::optional<vault::RecordId> parseRecordId(std::string_view text);

// The system clock, in Unix seconds.
std::int64_t currentUnixSeconds();

// Runs the known-answer tests once; nullopt if they pass, else the message to
// report (crypto is then disabled for the rest of the process).
std::optional<std::string> requireSelfTest();

// A subcommand of a command (keychain new, vault add): its name and what runs
// it with the arguments that follow it.
struct Subcommand
{
    std::string_view name;
    std::function<int(const std::vector<std::string>& args)> run;
};

// Runs the subcommand that args begins with. "--help" or "help" as the
// subcommand, or "--help" anywhere after it, prints usage instead; a missing
// or unknown subcommand is reported with the list of the known ones.
int runSubcommand(std::string_view command, std::span<const Subcommand> subcommands,
                  const char* usage, const std::vector<std::string>& args);

int runBench(const std::vector<std::string>& args);
int runCode(const std::vector<std::string>& args);
int runContacts(const std::vector<std::string>& args);
int runIdentity(const std::vector<std::string>& args);
int runKeychain(const std::vector<std::string>& args);
int runQr(const std::vector<std::string>& args);
int runReceiveCommand(const std::vector<std::string>& args);
int runShareCommand(const std::vector<std::string>& args);
int runSelfTest(const std::vector<std::string>& args);
int runVault(const std::vector<std::string>& args);
int runWatch(const std::vector<std::string>& args);

} // namespace watchword::cli
