// watchword-cli: Watchword's crypto core for scripts.
#include "Cli.h"
#include "base/ProcessHardening.h"

#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr const char* usage = R"(usage: watchword-cli <command> [options]

commands:
  bench      measure Watchword's operations against their references
  code       print a TOTP, HOTP or Steam Guard code
  contacts   the people a vault shares with (add, list, rename, remove, verify)
  identity   a vault's sharing identity: its text, fingerprint and QR code (show)
  keychain   make a recovery phrase, or show the identity key of one (new, show)
  qr         read the QR codes of a PNG image (decode)
  receive    open a share sent to you and add what it holds to a vault
  selftest   run the known-answer tests of every primitive
  share      send accounts and notes to contacts, sealed and signed
  vault      create and use a vault file (init, info, add, note, list, codes,
             remove, passwd, recover, import, export)
  watch      Garmin device profiles, what the watch app's work costs on each,
             and the payload the watch app loads (devices, estimate, export)

'watchword-cli <command> --help' describes each command.
Exit status: 0 on success, 1 if an operation failed, 2 on bad input.
)";

int run(std::vector<std::string> args);

} // namespace

int main(int argc, char* argv[])
{
    using namespace watchword::cli;
    // Before any secret is read: no core file, no ptrace by other processes.
    if (const auto failed = watchword::hardenProcess(); !failed.empty())
        reportError("warning: " + failed + " (secrets could reach a core file)", exitOk);
    const int status = run(std::vector<std::string>(argv + 1, argv + argc));
    // Output that did not reach its file (a full disk, a closed pipe) is a
    // failure: "keychain new > phrase.txt" must not report success with the
    // phrase lost.
    if (std::fflush(stdout) != 0 || std::ferror(stdout))
        return reportError("could not write to standard output", exitFailure);
    return status;
}

namespace {

int run(std::vector<std::string> args)
{
    using namespace watchword::cli;
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
    if (command == "bench")
        return runBench(args);
    if (command == "code")
        return runCode(args);
    if (command == "contacts")
        return runContacts(args);
    if (command == "identity")
        return runIdentity(args);
    if (command == "keychain")
        return runKeychain(args);
    if (command == "qr")
        return runQr(args);
    if (command == "receive")
        return runReceiveCommand(args);
    if (command == "selftest")
        return runSelfTest(args);
    if (command == "share")
        return runShareCommand(args);
    if (command == "vault")
        return runVault(args);
    if (command == "watch")
        return runWatch(args);
    return reportError("unknown command '" + command + "' (see watchword-cli --help)");
}

} // namespace
