#include "Cli.h"

#include "JsonText.h"
#include "base/FileIo.h"
#include "encoding/DisplayText.h"
#include "encoding/Hex.h"
#include "selftest/SelfTest.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace watchword::cli {

namespace {

void writeLine(std::FILE* stream, std::string_view text)
{
    std::fwrite(text.data(), 1, text.size(), stream);
    std::fputc('\n', stream);
}

} // namespace

int reportError(std::string_view message, int exitCode)
{
    writeLine(stderr, "watchword-cli: " + encoding::escapeForTerminal(message));
    return exitCode;
}

void printLine(std::string_view text)
{
    std::string shown = encoding::escapeForTerminal(text);
    writeLine(stdout, shown);
    // The line may be a secret (a mnemonic, a code): wipe the copy made.
    secureWipe(shown.data(), shown.size());
}

void printLines(std::string_view text)
{
    writeLine(stdout, encoding::escapeForTerminal(text, encoding::LineBreaks::Keep));
}

void printJson(const nlohmann::json& object)
{
    std::string json = compactJson(object);
    // Compact JSON escapes the C0 controls but writes DEL, the C1 controls
    // and the invisible formatting characters raw.
    std::string shown = encoding::escapeInvisibleInJson(json);
    writeLine(stdout, shown);
    // The document may carry a secret (a new mnemonic): wipe the copies made.
    secureWipe(json.data(), json.size());
    secureWipe(shown.data(), shown.size());
}

std::optional<vault::RecordId> parseRecordId(std::string_view text)
{
    const auto bytes = encoding::fromHex(text);
    vault::RecordId id{};
    if (!bytes || bytes->size() != id.size())
        return std::nullopt;
    std::copy(bytes->begin(), bytes->end(), id.begin());
    return id;
}

std::int64_t currentUnixSeconds()
{
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

StdinLines readStdinLines(std::size_t maxLines)
{
    constexpr std::size_t limit = 64 * 1024;
    SecureBuffer input(limit + 1);
    std::size_t size = 0;
    while (size < input.size()) {
        const ssize_t got = ::read(STDIN_FILENO, input.data() + size, input.size() - size);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return {{}, "could not read standard input"};
        }
        if (got == 0)
            break;
        size += static_cast<std::size_t>(got);
    }
    if (size > limit)
        return {{}, "standard input is larger than 64 KiB"};

    StdinLines result;
    std::size_t start = 0;
    while (start < size && result.lines.size() < maxLines) {
        std::size_t end = start;
        while (end < size && input[end] != '\n')
            ++end;
        std::size_t lineEnd = end;
        if (lineEnd > start && input[lineEnd - 1] == '\r')
            --lineEnd;
        for (std::size_t i = start; i < lineEnd; ++i) {
            if (input[i] == 0)
                return {{}, "standard input contains a NUL byte"};
        }
        result.lines.emplace_back(watchword::ByteView(input.data() + start, lineEnd - start));
        start = end + 1;
    }
    return result;
}

Result<SecureBuffer, std::string> readInputFile(const std::string& path, std::size_t limit)
{
    return path == "-" ? readToEnd(STDIN_FILENO, "standard input", limit)
                       : readRegularFile(path, limit);
}

std::optional<std::string> requireSelfTest()
{
    const auto report = selftest::run();
    if (const auto* failure = report.firstFailure())
        return "self-test failed: " + failure->name + "; crypto is disabled";
    return std::nullopt;
}

int runSubcommand(std::string_view command, std::span<const Subcommand> subcommands,
                  const char* usage, const std::vector<std::string>& args)
{
    // "a, b or c": the names as the error messages list them.
    std::string names;
    for (std::size_t i = 0; i < subcommands.size(); ++i) {
        if (i != 0)
            names += i + 1 == subcommands.size() ? " or " : ", ";
        names += subcommands[i].name;
    }
    const std::string prefix(command);
    if (args.empty())
        return reportError(prefix + " needs a subcommand: " + names + " (see watchword-cli " +
                           prefix + " --help)");
    const std::string& name = args.front();
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (name == "--help" || name == "help" ||
        std::find(rest.begin(), rest.end(), "--help") != rest.end()) {
        std::fputs(usage, stdout);
        return exitOk;
    }
    for (const auto& subcommand : subcommands)
        if (subcommand.name == name)
            return subcommand.run(rest);
    return reportError("unknown " + prefix + " subcommand '" + name + "': expected " + names);
}

} // namespace watchword::cli
