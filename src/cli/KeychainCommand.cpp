#include "Arguments.h"
#include "Cli.h"
#include "crypto/Random.h"
#include "encoding/Hex.h"
#include "keychain/Keychain.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace watchword::cli {

namespace {

constexpr const char* usage =
    R"(usage: watchword-cli keychain new [--words 12|15|18|21|24] [--passphrase-stdin] [--json]
       watchword-cli keychain show --mnemonic-stdin [--json]

new   makes a keychain from the system's randomness and prints its recovery
      phrase (24 words by default) and its identity public key (33-byte
      compressed secp256k1, hex): the key of label "identity secp256k1",
      which vaults of format version 1 wrap their master key to (see
      docs/FORMAT.md section 1). With --passphrase-stdin, the first line of
      standard input is an extra BIP39 passphrase (an empty line for none).
show  reads a recovery phrase from the first line of standard input (and a
      passphrase from the second line, if there is one; nothing more) and
      prints the identity public key.

Passphrases are normalized to Unicode NFKD, as BIP39 requires.
Exit status: 0 on success; 2 on bad input (one line on stderr, nothing on
stdout); 1 if the self-test failed.
)";

int printKeychain(const keychain::Keychain& keychain, bool withMnemonic, bool json)
{
    const auto publicKey = keychain.versionOneRecoveryKey().publicKey.compressed();
    const std::string publicHex = encoding::toHex(publicKey);
    if (json) {
        nlohmann::json object{{"identity_public_key", publicHex}};
        if (withMnemonic) {
            object["mnemonic"] = keychain.mnemonic().view();
            object["words"] =
                std::count(keychain.mnemonic().begin(), keychain.mnemonic().end(), ' ') + 1;
        }
        printJson(object);
    } else {
        if (withMnemonic) {
            std::fputs("mnemonic: ", stdout);
            printLine(keychain.mnemonic().view());
        }
        printLine("identity public key: " + publicHex);
    }
    return exitOk;
}

int runNew(const std::vector<std::string>& args)
{
    const auto arguments =
        Arguments::parse(args, {{"words", true}, {"passphrase-stdin"}, {"json"}});
    if (!arguments.ok())
        return reportError(arguments.error() + " (see watchword-cli keychain --help)");
    if (!arguments.positionals().empty())
        return reportError("keychain new takes no arguments, got '" +
                           arguments.positionals().front() + "'");
    std::size_t words = keychain::Keychain::defaultWordCount;
    if (const auto text = arguments.value("words")) {
        const auto value = parseInteger(*text, 0, 1000);
        if (!value || !keychain::isValidWordCount(static_cast<std::size_t>(*value)))
            return reportError("--words: '" + *text + "' is not 12, 15, 18, 21 or 24");
        words = static_cast<std::size_t>(*value);
    }
    SecureBuffer passphrase;
    if (arguments.has("passphrase-stdin")) {
        auto input = readStdinLines(1);
        if (!input.error.empty())
            return reportError(input.error);
        if (input.lines.empty())
            return reportError("--passphrase-stdin: standard input is empty: expected a passphrase "
                               "on the first line (an empty line for none)");
        auto normalized = normalizeSecretText(input.lines.front(), "the passphrase");
        if (!normalized)
            return reportError(normalized.error());
        passphrase = std::move(*normalized);
    }
    if (const auto failure = requireSelfTest())
        return reportError(*failure, exitFailure);
    auto created = keychain::Keychain::create(crypto::systemRandom(), words, passphrase.view());
    if (!created)
        return reportError(created.error().message, exitFailure);
    return printKeychain(*created, true, arguments.has("json"));
}

int runShow(const std::vector<std::string>& args)
{
    const auto arguments = Arguments::parse(args, {{"mnemonic-stdin"}, {"json"}});
    if (!arguments.ok())
        return reportError(arguments.error() + " (see watchword-cli keychain --help)");
    if (!arguments.positionals().empty())
        return reportError(
            "keychain show takes no arguments (the phrase comes from stdin with --mnemonic-stdin)");
    if (!arguments.has("mnemonic-stdin"))
        return reportError("keychain show needs --mnemonic-stdin: a recovery phrase is never taken "
                           "from the command line");
    auto input = readStdinLines(3);
    if (!input.error.empty())
        return reportError(input.error);
    if (input.lines.size() > 2)
        return reportError("standard input has more than two lines: expected the recovery phrase "
                           "and, optionally, a passphrase");
    if (input.lines.empty() || input.lines.front().empty())
        return reportError("standard input is empty: expected a recovery phrase on the first line");
    SecureBuffer passphrase;
    if (input.lines.size() > 1) {
        auto normalized = normalizeSecretText(input.lines[1], "the passphrase");
        if (!normalized)
            return reportError(normalized.error());
        passphrase = std::move(*normalized);
    }
    if (const auto failure = requireSelfTest())
        return reportError(*failure, exitFailure);
    auto restored = keychain::Keychain::restore(input.lines.front().view(), passphrase.view());
    if (!restored)
        return reportError(restored.error().message);
    return printKeychain(*restored, false, arguments.has("json"));
}

} // namespace

int runKeychain(const std::vector<std::string>& args)
{
    static const Subcommand subcommands[] = {{"new", runNew}, {"show", runShow}};
    return runSubcommand("keychain", subcommands, usage, args);
}

} // namespace watchword::cli
