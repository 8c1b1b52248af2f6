// watchword-cli identity: a vault's sharing identity as others receive it
// (docs/FORMAT.md section 11). It is public: the vault's header holds it, so
// no password is asked.
#include "Arguments.h"
#include "Cli.h"
#include "VaultCommand.h"
#include "crypto/Secp256k1.h"
#include "encoding/Hex.h"
#include "qr/QrCode.h"
#include "share/Identity.h"
#include "vault/VaultFile.h"

#include <nlohmann/json.hpp>

namespace watchword::cli {

namespace {

constexpr const char* usage = R"(usage: watchword-cli identity show FILE [--qr] [--json]

show   prints the vault's sharing identity: the text to give to the people who
       will share with you (watchword-id:...), and its fingerprint, eight
       words to compare with them by another channel (aloud, side by side)
       before they mark you as verified. --qr also draws the text as a QR code
       in the terminal (light modules as blocks: for light text on a dark
       background). Needs no password: the identity is public.

A vault first written in format version 1 has no identity until it is
opened once with its recovery phrase (vault recover FILE).

Exit status: 0 on success; 1 if the vault has no identity yet or cannot be
read; 2 on bad arguments.
)";

// The QR code with its quiet zone, two rows a line, in half blocks.
void printQr(const qr::QrMatrix& matrix)
{
    const int size = matrix.size() + 2 * qr::quietZoneModules;
    const auto light = [&](int x, int y) {
        x -= qr::quietZoneModules;
        y -= qr::quietZoneModules;
        return x < 0 || y < 0 || x >= matrix.size() || y >= matrix.size() || !matrix.dark(x, y);
    };
    for (int y = 0; y < size; y += 2) {
        std::string line;
        for (int x = 0; x < size; ++x) {
            const bool top = light(x, y);
            const bool bottom = y + 1 < size ? light(x, y + 1) : false;
            line += top && bottom ? "\u2588" : top ? "\u2580" : bottom ? "\u2584" : " ";
        }
        printLine(line);
    }
}

int runShow(const std::vector<std::string>& args)
{
    const auto arguments = Arguments::parse(args, {{"qr"}, {"json"}});
    if (!arguments.ok())
        return reportError(arguments.error() + " (see watchword-cli identity --help)");
    if (arguments.positionals().size() != 1)
        return reportError("identity show takes FILE, got " +
                           std::to_string(arguments.positionals().size()) + " arguments");
    if (arguments.has("qr") && arguments.has("json"))
        return reportError("identity show: --qr and --json do not go together");
    const std::string& path = arguments.positionals().front();
    int status = exitOk;
    const auto info = readHeader(path, status);
    if (!info)
        return status;
    const auto key = headerIdentity(*info);
    if (!key)
        return reportFileError(path, key.error());
    const std::string text = share::identityText(*key);
    const std::string words = share::identityFingerprintText(*key);
    nlohmann::json wordList = nlohmann::json::array();
    for (const auto word : share::identityFingerprint(*key))
        wordList.push_back(std::string(word));
    if (arguments.has("json")) {
        printJson({{"identity", text},
                   {"fingerprint", wordList},
                   {"public_key", encoding::toHex(*info->sharingPublicKey)}});
        return exitOk;
    }
    printLine("identity: " + text);
    printLine("fingerprint: " + words);
    if (arguments.has("qr")) {
        const auto matrix = qr::encodeQr(text);
        if (!matrix)
            return reportFileError(path, matrix.error().message);
        printQr(*matrix);
    }
    return exitOk;
}

} // namespace

int runIdentity(const std::vector<std::string>& args)
{
    static const Subcommand subcommands[] = {{"show", runShow}};
    return runSubcommand("identity", subcommands, usage, args);
}

} // namespace watchword::cli
