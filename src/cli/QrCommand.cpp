#include "Arguments.h"
#include "Cli.h"
#include "qr/QrCode.h"

namespace watchword::cli {

namespace {

constexpr const char* usage = R"(usage: watchword-cli qr decode IMAGE

decode   prints the text of every QR code in the PNG image IMAGE ('-': the
         image from stdin), one per line, top to bottom: an otpauth:// URI
         can go on to 'vault add', a Google Authenticator transfer
         (otpauth-migration://) to 'vault import --from google-migration'.

The texts usually hold secrets: mind where the output goes.

Exit status: 0 if at least one code was read; 1 if the image holds no QR
code that decodes; 2 on bad arguments, or an IMAGE that cannot be read, is
not a PNG image, is damaged or is too large (one line on stderr, nothing on
stdout).
)";

} // namespace

Result<std::vector<std::string>, QrReadError> readQrTexts(const std::string& path)
{
    const auto file = readInputFile(path, qr::maximumImageFileBytes);
    if (!file)
        return fail(QrReadError{file.error()});
    return qrTextsOf(file->span(), path);
}

Result<std::vector<std::string>, QrReadError> qrTextsOf(ByteView png, const std::string& name)
{
    const auto image = qr::loadPng(png);
    if (!image)
        return fail(QrReadError{name + ": " + image.error().message});
    auto texts = qr::decodeQr(image->view());
    if (!texts)
        return fail(QrReadError{name + ": " + texts.error().message, true});
    return std::move(texts).value();
}

namespace {

int runDecode(const std::vector<std::string>& args)
{
    const auto arguments = Arguments::parse(args, {});
    if (!arguments.ok())
        return reportError(arguments.error() + " (see watchword-cli qr --help)");
    if (arguments.positionals().size() != 1)
        return reportError("qr decode takes IMAGE, got " +
                           std::to_string(arguments.positionals().size()) + " arguments");
    const std::string& path = arguments.positionals().front();
    if (path.empty())
        return reportError("qr decode: IMAGE is empty");
    auto texts = readQrTexts(path);
    if (!texts)
        return reportError(texts.error().message, texts.error().noCode ? exitFailure : exitUsage);
    for (auto& text : *texts) {
        printLine(text);
        secureWipe(text.data(), text.size());
    }
    return exitOk;
}

} // namespace

int runQr(const std::vector<std::string>& args)
{
    static const Subcommand subcommands[] = {{"decode", runDecode}};
    return runSubcommand("qr", subcommands, usage, args);
}

} // namespace watchword::cli
