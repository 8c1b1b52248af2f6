#include "Arguments.h"
#include "Cli.h"
#include "encoding/Base32.h"
#include "otp/OtpGenerator.h"
#include "otp/OtpauthUri.h"

#include <charconv>
#include <limits>
#include <nlohmann/json.hpp>

namespace watchword::cli {

namespace {

constexpr const char* usage =
    R"(usage: watchword-cli code [--at UNIX_SECONDS] [--json] 'otpauth://...'
       watchword-cli code [--at UNIX_SECONDS] [--json] -          (the URI from stdin)
       watchword-cli code [--at UNIX_SECONDS] [--json] (--secret BASE32 | --secret-stdin)
                          [--algorithm SHA1|SHA256|SHA512] [--digits N] [--period S]
                          [--hotp --counter C] [--steam]

Prints the current one-time code (TOTP by default) and nothing else.

  --at T            the code at Unix time T (whole seconds, >= 0) instead of now
  --json            one JSON object: code, type, algorithm, digits, period or
                    counter (a string above 2^53, where JSON numbers lose
                    precision), for time-based codes the time and
                    seconds_remaining, and for URIs the issuer and account
  --secret BASE32   the shared secret (lower case, spaces, hyphens, no padding are fine)
  --secret-stdin    read the secret from the first line of standard input
  --algorithm A     SHA1 (default), SHA256 or SHA512
  --digits N        6 (default) to 10
  --period S        seconds per code, 30 by default
  --hotp            counter-based (RFC 4226) instead of time-based; needs --counter
  --counter C       the HOTP counter (0 to 18446744073709551615)
  --steam           a Steam Guard code (5 characters; SHA1, 30 s)

For HOTP URIs the URI's counter is used. A secret given as an argument (a URI
or --secret) is visible to every local user while the command runs (ps,
/proc/PID/cmdline) and lands in the shell's history: code then says so on
stderr every time. Use '-' or --secret-stdin for real secrets; arguments are
for test vectors.
Exit status: 0 with the code on stdout; 2 on bad input, with one line on stderr
and nothing on stdout; 1 if the self-test failed.
)";

std::optional<std::uint64_t> parseUnsigned64(std::string_view text)
{
    if (text.empty() || text.front() == '+' || text.front() == '-')
        return std::nullopt;
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

struct Account
{
    otp::OtpParameters parameters;
    SecureBuffer secret;
    std::string issuer;
    std::string account;
};

// The account from --secret/--secret-stdin and the parameter options.
Result<Account, std::string> accountFromOptions(const Arguments& arguments)
{
    const bool steam = arguments.has("steam");
    const bool hotp = arguments.has("hotp");
    if (steam && hotp)
        return fail(std::string("--steam and --hotp exclude each other"));
    if (steam) {
        for (const char* fixed : {"algorithm", "digits", "period"}) {
            if (arguments.has(fixed))
                return fail(std::string("--") + fixed +
                            " does not apply to --steam (Steam Guard is SHA1, 5 characters, 30 s)");
        }
    }
    if (hotp && arguments.has("period"))
        return fail(std::string("--period does not apply to --hotp"));
    if (hotp && !arguments.has("counter"))
        return fail(std::string("--hotp needs --counter"));
    if (!hotp && arguments.has("counter"))
        return fail(std::string("--counter needs --hotp"));

    Account account;
    account.parameters = steam ? otp::OtpParameters::steam() : otp::OtpParameters{};
    if (hotp)
        account.parameters.kind = otp::OtpKind::Hotp;
    if (const auto name = arguments.value("algorithm")) {
        const auto algorithm = crypto::parseHashName(*name);
        if (!algorithm)
            return fail("--algorithm: '" + *name + "' is not SHA1, SHA256 or SHA512");
        account.parameters.algorithm = *algorithm;
    }
    if (const auto digits = arguments.value("digits")) {
        const auto value = parseInteger(*digits, otp::minimumDigits, otp::maximumDigits);
        if (!value)
            return fail("--digits: '" + *digits + "' is not a whole number from 6 to 10");
        account.parameters.digits = static_cast<int>(*value);
    }
    if (const auto period = arguments.value("period")) {
        const auto value = parseInteger(*period, 1, std::numeric_limits<std::uint32_t>::max());
        if (!value)
            return fail("--period: '" + *period +
                        "' is not a whole number of seconds from 1 to 4294967295");
        account.parameters.period = static_cast<std::uint32_t>(*value);
    }
    if (const auto counter = arguments.value("counter")) {
        const auto value = parseUnsigned64(*counter);
        if (!value)
            return fail("--counter: '" + *counter +
                        "' is not a whole number from 0 to 18446744073709551615");
        account.parameters.counter = *value;
    }

    SecureBuffer secretText;
    if (arguments.has("secret-stdin")) {
        auto input = readStdinLines(1);
        if (!input.error.empty())
            return fail(input.error);
        if (input.lines.empty())
            return fail(std::string("--secret-stdin: standard input is empty"));
        secretText = std::move(input.lines.front());
    } else {
        secretText = SecureBuffer::fromString(*arguments.value("secret"));
    }
    auto secret = encoding::fromBase32(secretText.view());
    if (!secret)
        return fail("secret: " + secret.error().message);
    account.secret = std::move(secret).value();
    return account;
}

Result<Account, std::string> accountFromUri(std::string_view text)
{
    auto parsed = otp::parseOtpauthUri(text);
    if (!parsed)
        return fail(parsed.error().message);
    Account account;
    account.parameters = parsed->parameters;
    account.secret = std::move(parsed->secret);
    account.issuer = parsed->issuer();
    account.account = parsed->account;
    return account;
}

// The account from the options, the URI argument or the URI on stdin ('-').
Result<Account, std::string> accountFromArguments(const Arguments& arguments, bool fromOptions)
{
    if (fromOptions)
        return accountFromOptions(arguments);
    const std::string& uri = arguments.positionals().front();
    if (uri != "-")
        return accountFromUri(uri);
    auto input = readStdinLines(1);
    if (!input.error.empty())
        return fail(std::move(input.error));
    if (input.lines.empty())
        return fail(std::string("standard input is empty: expected an otpauth URI"));
    return accountFromUri(input.lines.front().view());
}

} // namespace

int runCode(const std::vector<std::string>& args)
{
    const auto arguments = Arguments::parse(args, {{"at", true},
                                                   {"json"},
                                                   {"secret", true},
                                                   {"secret-stdin"},
                                                   {"algorithm", true},
                                                   {"digits", true},
                                                   {"period", true},
                                                   {"hotp"},
                                                   {"counter", true},
                                                   {"steam"},
                                                   {"help"}});
    if (!arguments.ok())
        return reportError(arguments.error() + " (see watchword-cli code --help)");
    if (arguments.has("help")) {
        std::fputs(usage, stdout);
        return exitOk;
    }

    const auto& positionals = arguments.positionals();
    const bool fromOptions = arguments.has("secret") || arguments.has("secret-stdin");
    if (arguments.has("secret") && arguments.has("secret-stdin"))
        return reportError("give --secret or --secret-stdin, not both");
    if (positionals.size() > 1)
        return reportError("code takes one URI, got " + std::to_string(positionals.size()) +
                           " arguments");
    if (fromOptions && !positionals.empty())
        return reportError("give either an otpauth URI or --secret, not both");
    if (!fromOptions && positionals.empty())
        return reportError("no account: give an otpauth URI, '-' to read one from stdin, or "
                           "--secret (see --help)");
    if (!fromOptions) {
        for (const char* option : {"algorithm", "digits", "period", "hotp", "counter", "steam"}) {
            if (arguments.has(option))
                return reportError(std::string("--") + option +
                                   " goes with --secret; a URI carries its own parameters");
        }
    }

    const auto atOption = parseAtOption(arguments);
    if (!atOption)
        return reportError(atOption.error());
    const std::optional<std::int64_t> at = *atOption;

    const bool secretFromStdin =
        arguments.has("secret-stdin") || (!fromOptions && positionals.front() == "-");
    auto account = accountFromArguments(arguments, fromOptions);
    if (!account)
        return reportError(account.error());

    const bool timeBased = account->parameters.isTimeBased();
    if (!timeBased && at)
        return reportError(
            "--at does not apply to an HOTP account: its code depends on the counter");

    if (const auto failure = requireSelfTest())
        return reportError(*failure, exitFailure);

    auto generator = otp::OtpGenerator::create(account->parameters, account->secret);
    if (!generator)
        return reportError(generator.error().message);

    const std::int64_t now = at ? *at : currentUnixSeconds();
    std::string code;
    if (timeBased) {
        auto result = generator->codeForTime(now);
        if (!result)
            return reportError(result.error().message);
        code = std::move(result).value();
    } else {
        code = generator->codeForCounter(account->parameters.counter);
    }

    if (!secretFromStdin)
        reportError("warning: the secret was given on the command line, where every user of "
                    "this computer can read it while the command runs (ps, /proc) and the shell "
                    "keeps it in its history; use '-' or --secret-stdin for a real account",
                    exitOk);
    if (!arguments.has("json")) {
        printLine(code);
        return exitOk;
    }
    const auto& parameters = account->parameters;
    nlohmann::json json{{"code", code},
                        {"type", otp::kindName(parameters.kind)},
                        {"algorithm", crypto::hashName(parameters.algorithm)},
                        {"digits", parameters.digits}};
    if (timeBased) {
        json["period"] = parameters.period;
        json["time"] = now;
        json["seconds_remaining"] = generator->secondsRemaining(now);
    } else {
        // JSON numbers lose precision past 2^53: a counter is written as a string there.
        if (parameters.counter <= (std::uint64_t{1} << 53))
            json["counter"] = parameters.counter;
        else
            json["counter"] = std::to_string(parameters.counter);
    }
    if (!fromOptions) {
        json["issuer"] = account->issuer;
        json["account"] = account->account;
    }
    printJson(json);
    return exitOk;
}

} // namespace watchword::cli
