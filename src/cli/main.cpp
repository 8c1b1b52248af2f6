// watchword-cli: Watchword's crypto core for scripts.
#include "Cli.h"

#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr const char* usage = R"(usage: watchword-cli <command> [options]

commands:
  code       print a TOTP, HOTP or Steam Guard code
  keychain   make a recovery phrase, or show the identity key of one (new, show)
  selftest   run the known-answer tests of every primitive

'watchword-cli <command> --help' describes each command.
Exit status: 0 on success, 1 if an operation failed, 2 on bad input.
)";

} // namespace

int main(int argc, char* argv[])
{
    using namespace watchword::cli;
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty())
        return reportError("no command (see watchword-cli --help)");
    const std::string command = args.front();
    args.erase(args.begin());
    if (command == "--help" || command == "-h" || command == "help") {
        std::fputs(usage, stdout);
        return exitOk;
    }
    if (command == "--version") {
        printLine("watchword-cli " WATCHWORD_VERSION);
        return exitOk;
    }
    if (command == "code")
        return runCode(args);
    if (command == "keychain")
        return runKeychain(args);
    if (command == "selftest")
        return runSelfTest(args);
    return reportError("unknown command '" + command + "' (see watchword-cli --help)");
}
