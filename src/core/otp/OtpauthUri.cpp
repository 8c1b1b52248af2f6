#include "otp/OtpauthUri.h"

#include "encoding/Base32.h"
#include "encoding/DisplayText.h"
#include "encoding/Hex.h"
#include "encoding/Utf8.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>

namespace watchword::otp {

namespace {

using ParseResult = Result<OtpauthUri, Error<OtpauthError>>;

constexpr std::string_view scheme = "otpauth";
constexpr std::array<std::string_view, 8> knownParameterNames = {
    "secret", "issuer", "algorithm", "digits", "period", "counter", "image", "encoder"};

bool isKnownParameter(std::string_view name)
{
    return std::find(knownParameterNames.begin(), knownParameterNames.end(), name) !=
           knownParameterNames.end();
}

char asciiLower(char c) noexcept
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool equalsIgnoringCase(std::string_view a, std::string_view b) noexcept
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return asciiLower(x) == asciiLower(y);
           });
}

std::string position(std::size_t index)
{
    return "position " + std::to_string(index + 1);
}

std::string hexByte(unsigned char byte)
{
    char text[8];
    std::snprintf(text, sizeof text, "0x%02X", byte);
    return text;
}

// Why text is not acceptable display text, or empty if it is: it must be
// well-formed UTF-8 (no overlong forms, surrogates or values past U+10FFFF)
// without C0/C1 control characters or DEL, which could reshape what the user
// sees (line breaks, terminal escapes).
std::string textProblem(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        const auto character = encoding::decodeUtf8At(text, i);
        if (!character)
            return "is not valid UTF-8 (byte " + hexByte(static_cast<unsigned char>(text[i])) +
                   " at byte " + std::to_string(i + 1) + ")";
        const char32_t c = character->codePoint;
        if (c < 0x80 && encoding::isControlCharacter(c))
            return "contains the control character " + hexByte(static_cast<unsigned char>(c)) +
                   " at byte " + std::to_string(i + 1);
        if (encoding::isControlCharacter(c))
            return "contains the control character U+00" +
                   hexByte(static_cast<unsigned char>(c)).substr(2) + " at byte " +
                   std::to_string(i + 1);
        i += character->length;
    }
    return {};
}

// text quoted for an error message: short, printable, never raw garbage.
std::string quoted(std::string_view text)
{
    constexpr std::size_t limit = 40;
    if (!textProblem(text).empty())
        return "(not printable)";
    std::size_t cut = text.size();
    if (cut > limit) {
        cut = limit;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80)
            --cut; // do not split a UTF-8 sequence
    }
    // Appended piece by piece: g++ 12 at -O3 misreports "'" + std::string
    // as an overlapping memcpy (-Wrestrict).
    std::string out;
    out.reserve(cut + 5);
    out.push_back('\'');
    out.append(text.substr(0, cut));
    if (cut < text.size())
        out.append("...");
    out.push_back('\'');
    return out;
}

// A decoded piece of the URI, or the error for its bad escape. offset is
// where text starts in the whole URI, for the message.
Result<std::string, Error<OtpauthError>> decodeText(std::string_view text, bool plusIsSpace,
                                                    std::size_t offset)
{
    std::string out(text.size(), '\0');
    const PercentDecoded decoded = percentDecode(text, plusIsSpace, out.data());
    if (decoded.badEscape)
        return fail(OtpauthError::InvalidPercentEncoding,
                    "'%' at " + position(offset + *decoded.badEscape) +
                        " is not followed by two hex digits");
    out.resize(decoded.size);
    return out;
}

// A decimal number with no sign, spaces or other decoration.
std::optional<std::uint64_t> parseUnsigned(std::string_view text) noexcept
{
    if (text.empty())
        return std::nullopt;
    std::uint64_t value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        const auto digit = static_cast<std::uint64_t>(c - '0');
        if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
            return std::nullopt;
        value = value * 10 + digit;
    }
    return value;
}

// The raw pieces of the query, remembered until the type is settled.
struct PendingNumber
{
    std::string text;
    bool present = false;
};

Error<OtpauthError> fromOtpError(const Error<OtpError>& error)
{
    switch (error.code) {
    case OtpError::EmptySecret:
        return {OtpauthError::MissingSecret, error.message};
    case OtpError::InvalidDigits:
        return {OtpauthError::InvalidDigits, error.message};
    case OtpError::InvalidPeriod:
        return {OtpauthError::InvalidPeriod, error.message};
    case OtpError::InvalidAlgorithm:
        return {OtpauthError::UnsupportedAlgorithm, error.message};
    case OtpError::TimeBeforeEpoch: // not checked by validate()
    case OtpError::NotTimeBased:
    case OtpError::CryptoDisabled:
        break;
    }
    return {OtpauthError::InvalidFormat, error.message};
}

} // namespace

std::optional<QueryParameter> QueryParameters::next() noexcept
{
    if (m_done)
        return std::nullopt;
    const std::size_t end = std::min(m_query.find('&', m_at), m_query.size());
    QueryParameter parameter;
    parameter.offset = m_at;
    parameter.text = m_query.substr(m_at, end - m_at);
    const std::size_t equals = std::min(parameter.text.find('='), parameter.text.size());
    parameter.name = parameter.text.substr(0, equals);
    if (equals < parameter.text.size())
        parameter.value = parameter.text.substr(equals + 1);
    m_done = end == m_query.size();
    m_at = end + 1;
    return parameter;
}

PercentDecoded percentDecode(std::string_view text, bool plusIsSpace, char* out) noexcept
{
    PercentDecoded result;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == '%') {
            const int high = i + 2 < text.size() ? encoding::hexDigitValue(text[i + 1]) : -1;
            const int low = i + 2 < text.size() ? encoding::hexDigitValue(text[i + 2]) : -1;
            if (high < 0 || low < 0) {
                result.badEscape = i;
                return result;
            }
            c = static_cast<char>((high << 4) | low);
            i += 2;
        } else if (c == '+' && plusIsSpace) {
            c = ' ';
        }
        out[result.size++] = c;
    }
    return result;
}

std::string OtpauthUri::issuer() const
{
    if (issuerParameter && !issuerParameter->empty())
        return *issuerParameter;
    return labelIssuer.value_or(std::string());
}

Result<OtpauthUri, Error<OtpauthError>> parseOtpauthUri(std::string_view input,
                                                        encoding::Base32Tail tail)
{
    // Whitespace around the URI comes from pastes and QR decoders.
    auto isOuterSpace = [](char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    };
    std::size_t begin = 0;
    std::size_t end = input.size();
    while (begin < end && isOuterSpace(input[begin]))
        ++begin;
    while (end > begin && isOuterSpace(input[end - 1]))
        --end;
    const std::string_view uri = input.substr(begin, end - begin);
    // Positions in messages count from the start of input.
    auto at = [begin](std::size_t indexInUri) {
        return position(begin + indexInUri);
    };

    for (std::size_t i = 0; i < uri.size(); ++i) {
        const auto byte = static_cast<unsigned char>(uri[i]);
        if (byte < 0x20 || byte == 0x7f)
            return fail(OtpauthError::InvalidCharacter,
                        "control character " + hexByte(byte) + " at " + at(i) + " in the URI");
        if (byte == '#')
            return fail(OtpauthError::InvalidCharacter,
                        "'#' at " + at(i) + ": otpauth URIs have no fragment (write it as %23)");
    }

    // Scheme.
    const std::size_t colon = uri.find(':');
    if (colon == std::string_view::npos)
        return fail(OtpauthError::InvalidScheme, "not a URI: expected it to start with otpauth://");
    const std::string_view uriScheme = uri.substr(0, colon);
    if (!equalsIgnoringCase(uriScheme, scheme)) {
        if (equalsIgnoringCase(uriScheme, "otpauth-migration"))
            return fail(OtpauthError::InvalidScheme,
                        "otpauth-migration URIs are Google Authenticator exports; import them "
                        "as such, not as an otpauth URI");
        return fail(OtpauthError::InvalidScheme,
                    "the URI scheme is " + quoted(uriScheme) + ", expected otpauth");
    }

    // Authority = TYPE.
    std::size_t cursor = colon + 1;
    if (uri.substr(cursor, 2) != "//")
        return fail(OtpauthError::InvalidFormat, "expected '//' after 'otpauth:' at " + at(cursor) +
                                                     " (otpauth://TYPE/LABEL?...)");
    cursor += 2;
    const std::size_t typeEnd = std::min(uri.find_first_of("/?", cursor), uri.size());
    const std::string_view type = uri.substr(cursor, typeEnd - cursor);
    OtpauthUri result;
    OtpKind typeKind = OtpKind::Totp;
    if (type.empty())
        return fail(OtpauthError::MissingType,
                    "the OTP type is missing at " + at(cursor) + " (expected totp, hotp or steam)");
    if (equalsIgnoringCase(type, "totp"))
        typeKind = OtpKind::Totp;
    else if (equalsIgnoringCase(type, "hotp"))
        typeKind = OtpKind::Hotp;
    else if (equalsIgnoringCase(type, "steam"))
        typeKind = OtpKind::Steam;
    else
        return fail(OtpauthError::UnsupportedType,
                    "OTP type " + quoted(type) +
                        " is not supported (expected totp, hotp or steam)");
    if (typeEnd == uri.size() || uri[typeEnd] != '/')
        return fail(OtpauthError::InvalidFormat,
                    "expected '/' and a label after the type at " + at(typeEnd));

    // Label: "account" or "issuer:account", the colon literal or %3A.
    const std::size_t labelBegin = typeEnd + 1;
    const std::size_t queryMark = std::min(uri.find('?', labelBegin), uri.size());
    auto label =
        decodeText(uri.substr(labelBegin, queryMark - labelBegin), false, begin + labelBegin);
    if (!label)
        return label.failure();
    if (const std::string problem = textProblem(*label); !problem.empty())
        return fail(OtpauthError::InvalidLabel, "the label " + problem);
    const auto colons = std::count(label->begin(), label->end(), ':');
    if (colons > 1)
        return fail(OtpauthError::InvalidLabel,
                    "the label has " + std::to_string(colons) +
                        " colons; one at most separates issuer and account");
    if (colons == 1) {
        const std::size_t split = label->find(':');
        result.labelIssuer = label->substr(0, split);
        // The format allows any number of %20 between the colon and the account.
        const std::size_t accountBegin = label->find_first_not_of(' ', split + 1);
        result.account =
            accountBegin == std::string::npos ? std::string() : label->substr(accountBegin);
    } else {
        result.account = std::move(*label);
    }

    // Parameters.
    bool secretSeen = false;
    bool steamEncoder = false;
    std::optional<crypto::HashAlgorithm> algorithm;
    PendingNumber digits;
    PendingNumber period;
    PendingNumber counter;
    std::vector<std::string> seenNames;
    QueryParameters query(queryMark < uri.size() ? uri.substr(queryMark + 1) : std::string_view());
    while (queryMark < uri.size()) {
        const auto parameter = query.next();
        if (!parameter)
            break;
        const std::size_t segmentOffset = begin + queryMark + 1 + parameter->offset;
        if (parameter->text.empty())
            continue; // "&&" or a trailing '&'
        const std::string_view rawValue = parameter->value;
        const std::size_t valueOffset = segmentOffset + parameter->name.size() + 1;

        auto name = decodeText(parameter->name, true, segmentOffset);
        if (!name)
            return name.failure();
        if (name->empty())
            return fail(OtpauthError::InvalidParameter,
                        "the parameter at " + position(segmentOffset) + " has no name");
        if (const std::string problem = textProblem(*name); !problem.empty())
            return fail(OtpauthError::InvalidParameter,
                        "the parameter name at " + position(segmentOffset) + " " + problem);
        if (std::find(seenNames.begin(), seenNames.end(), *name) != seenNames.end())
            return fail(OtpauthError::DuplicateParameter, "the parameter " + quoted(*name) +
                                                              " appears more than once (again at " +
                                                              position(segmentOffset) + ")");
        seenNames.push_back(*name);

        if (*name == "secret") {
            // Decoded into wiped memory: this text is the key.
            SecureBuffer text(rawValue.size());
            const PercentDecoded decoded =
                percentDecode(rawValue, true, reinterpret_cast<char*>(text.data()));
            if (decoded.badEscape)
                return fail(OtpauthError::InvalidPercentEncoding,
                            "'%' at " + position(valueOffset + *decoded.badEscape) +
                                " is not followed by two hex digits");
            text.truncate(decoded.size);
            auto secret = encoding::fromBase32(text.view(), tail);
            if (!secret)
                return secret.failure(OtpauthError::InvalidSecret,
                                      "the secret is not Base32: ", " of the decoded value");
            result.secret = std::move(secret).value();
            secretSeen = true;
            continue;
        }

        auto value = decodeText(rawValue, true, valueOffset);
        if (!value)
            return value.failure();
        if (*name == "issuer") {
            if (const std::string problem = textProblem(*value); !problem.empty())
                return fail(OtpauthError::InvalidIssuer, "the issuer parameter " + problem);
            result.issuerParameter = std::move(*value);
        } else if (*name == "algorithm") {
            algorithm = crypto::parseHashName(*value);
            if (!algorithm)
                return fail(OtpauthError::UnsupportedAlgorithm,
                            "algorithm " + quoted(*value) +
                                " is not supported (expected SHA1, SHA256 or SHA512)");
        } else if (*name == "digits") {
            digits = {std::move(*value), true};
        } else if (*name == "period") {
            period = {std::move(*value), true};
        } else if (*name == "counter") {
            counter = {std::move(*value), true};
        } else if (*name == "image") {
            if (const std::string problem = textProblem(*value); !problem.empty())
                return fail(OtpauthError::InvalidParameter, "the image parameter " + problem);
            result.image = std::move(*value);
        } else if (*name == "encoder") {
            if (!equalsIgnoringCase(*value, "steam"))
                return fail(OtpauthError::UnsupportedEncoder,
                            "encoder " + quoted(*value) + " is not supported (only steam is)");
            steamEncoder = true;
        } else {
            if (const std::string problem = textProblem(*value); !problem.empty())
                return fail(OtpauthError::InvalidParameter,
                            "the value of parameter " + quoted(*name) + " " + problem);
            result.unknownParameters.push_back({std::move(*name), std::move(*value)});
        }
    }

    // The kind: the type, or Steam through KeePassXC's encoder=steam, or a
    // time-based URI of Steam's own (issuer "Steam", or Authenticator Pro's
    // bare "steam" parameter) with no digits, period or algorithm of plain
    // TOTP: Steam accepts nothing but its Guard codes, and the apps that
    // write these (Authenticator Pro, WinAuth) make Guard codes from them.
    OtpParameters& parameters = result.parameters;
    parameters.kind = typeKind;
    const bool steamFlag = std::any_of(
        result.unknownParameters.begin(), result.unknownParameters.end(),
        [](const auto& parameter) { return parameter.name == "steam" && parameter.value.empty(); });
    if (typeKind == OtpKind::Totp && !steamEncoder && (steamFlag || result.issuer() == "Steam") &&
        (!digits.present || digits.text == "5") && (!period.present || period.text == "30") &&
        algorithm.value_or(crypto::HashAlgorithm::Sha1) == crypto::HashAlgorithm::Sha1)
        steamEncoder = true;
    if (steamEncoder) {
        if (typeKind == OtpKind::Hotp)
            return fail(OtpauthError::UnsupportedEncoder,
                        "encoder=steam needs a time-based type (totp or steam), not hotp");
        parameters.kind = OtpKind::Steam;
    }
    const bool steam = parameters.kind == OtpKind::Steam;

    if (!secretSeen)
        return fail(OtpauthError::MissingSecret, "the URI has no secret parameter");
    if (result.secret.empty())
        return fail(OtpauthError::MissingSecret, "the secret parameter is empty");

    parameters.algorithm = algorithm.value_or(crypto::HashAlgorithm::Sha1);
    if (steam && parameters.algorithm != crypto::HashAlgorithm::Sha1)
        return fail(OtpauthError::UnsupportedAlgorithm,
                    "Steam Guard codes use SHA1, not " +
                        std::string(crypto::hashName(parameters.algorithm)));

    parameters.digits = steam ? steamDigits : defaultDigits;
    if (digits.present) {
        const auto number = parseUnsigned(digits.text);
        const int low = steam ? steamDigits : minimumDigits;
        const int high = steam ? steamDigits : maximumDigits;
        if (!number || *number < static_cast<std::uint64_t>(low) ||
            *number > static_cast<std::uint64_t>(high))
            return fail(OtpauthError::InvalidDigits,
                        "digits " + quoted(digits.text) +
                            (steam ? " is not 5 (Steam Guard codes have 5 characters)"
                                   : " is not a number from 6 to 10"));
        parameters.digits = static_cast<int>(*number);
    }

    if (parameters.isTimeBased()) {
        parameters.period = steam ? steamPeriod : defaultPeriod;
        if (period.present) {
            const auto number = parseUnsigned(period.text);
            const std::uint64_t low = steam ? steamPeriod : 1;
            const std::uint64_t high =
                steam ? steamPeriod : std::numeric_limits<std::uint32_t>::max();
            if (!number || *number < low || *number > high)
                return fail(OtpauthError::InvalidPeriod,
                            "period " + quoted(period.text) +
                                (steam ? " is not 30 (Steam Guard codes change every 30 seconds)"
                                       : " is not a number of seconds from 1 to 4294967295"));
            parameters.period = static_cast<std::uint32_t>(*number);
        }
    } else {
        if (!counter.present)
            return fail(OtpauthError::MissingCounter, "an hotp URI needs a counter parameter");
        const auto number = parseUnsigned(counter.text);
        if (!number)
            return fail(OtpauthError::InvalidCounter,
                        "counter " + quoted(counter.text) +
                            " is not a number from 0 to 18446744073709551615");
        parameters.counter = *number;
    }

    // Everything above already holds; this keeps parse and validate() in step.
    if (auto valid = validate(parameters, result.secret.size()); !valid)
        return fail(fromOtpError(valid.error()));
    return result;
}

namespace {

// Percent-encodes text for the canonical URI: A-Z a-z 0-9 - . _ ~ (RFC 3986
// unreserved) and '@' stay, every other byte becomes %XX (upper-case hex).
void appendEncoded(std::string& out, std::string_view text)
{
    static constexpr char digits[] = "0123456789ABCDEF";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                          (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~' ||
                          c == '@';
        if (keep) {
            out.push_back(c);
        } else {
            out.push_back('%');
            out.push_back(digits[byte >> 4]);
            out.push_back(digits[byte & 0x0f]);
        }
    }
}

Result<void, Error<OtpauthError>> checkForFormat(const OtpauthUri& uri)
{
    if (auto valid = validate(uri.parameters, uri.secret.size()); !valid)
        return fail(fromOtpError(valid.error()));
    if (uri.labelIssuer) {
        if (const std::string problem = textProblem(*uri.labelIssuer); !problem.empty())
            return fail(OtpauthError::InvalidLabel, "the label issuer " + problem);
        if (uri.labelIssuer->find(':') != std::string::npos)
            return fail(OtpauthError::InvalidLabel, "the label issuer contains ':'");
        if (!uri.account.empty() && uri.account.front() == ' ')
            return fail(OtpauthError::InvalidLabel,
                        "the account starts with a space, which a reader drops after 'issuer:'");
    }
    if (const std::string problem = textProblem(uri.account); !problem.empty())
        return fail(OtpauthError::InvalidLabel, "the account " + problem);
    if (uri.account.find(':') != std::string::npos)
        return fail(OtpauthError::InvalidLabel, "the account contains ':'");
    if (uri.issuerParameter) {
        if (const std::string problem = textProblem(*uri.issuerParameter); !problem.empty())
            return fail(OtpauthError::InvalidIssuer, "the issuer parameter " + problem);
    }
    if (uri.image) {
        if (const std::string problem = textProblem(*uri.image); !problem.empty())
            return fail(OtpauthError::InvalidParameter, "the image parameter " + problem);
    }
    for (std::size_t i = 0; i < uri.unknownParameters.size(); ++i) {
        const UriParameter& parameter = uri.unknownParameters[i];
        if (parameter.name.empty())
            return fail(OtpauthError::InvalidParameter, "a parameter has no name");
        if (const std::string problem = textProblem(parameter.name); !problem.empty())
            return fail(OtpauthError::InvalidParameter, "a parameter name " + problem);
        if (const std::string problem = textProblem(parameter.value); !problem.empty())
            return fail(OtpauthError::InvalidParameter,
                        "the value of parameter " + quoted(parameter.name) + " " + problem);
        if (isKnownParameter(parameter.name))
            return fail(OtpauthError::InvalidParameter, "the extra parameter " +
                                                            quoted(parameter.name) +
                                                            " has the name of a known one");
        for (std::size_t j = 0; j < i; ++j) {
            if (uri.unknownParameters[j].name == parameter.name)
                return fail(OtpauthError::DuplicateParameter,
                            "the parameter " + quoted(parameter.name) + " appears more than once");
        }
    }
    return {};
}

} // namespace

Result<SecureBuffer, Error<OtpauthError>> formatOtpauthUri(const OtpauthUri& uri)
{
    if (auto valid = checkForFormat(uri); !valid)
        return valid.failure();
    const OtpParameters& parameters = uri.parameters;

    // Everything before and after the secret is public; only the secret goes
    // straight from its SecureBuffer into the result.
    std::string head = "otpauth://";
    head += kindName(parameters.kind);
    head += '/';
    if (uri.labelIssuer) {
        appendEncoded(head, *uri.labelIssuer);
        head += ':';
    }
    appendEncoded(head, uri.account);
    head += "?secret=";

    std::string tail;
    if (uri.issuerParameter) {
        tail += "&issuer=";
        appendEncoded(tail, *uri.issuerParameter);
    }
    tail += "&algorithm=";
    tail += crypto::hashName(parameters.algorithm);
    tail += "&digits=" + std::to_string(parameters.digits);
    if (parameters.isTimeBased())
        tail += "&period=" + std::to_string(parameters.period);
    else
        tail += "&counter=" + std::to_string(parameters.counter);
    if (uri.image) {
        tail += "&image=";
        appendEncoded(tail, *uri.image);
    }
    if (parameters.kind == OtpKind::Steam)
        tail += "&encoder=steam";
    for (const UriParameter& parameter : uri.unknownParameters) {
        tail += '&';
        appendEncoded(tail, parameter.name);
        tail += '=';
        appendEncoded(tail, parameter.value);
    }

    const SecureBuffer secret = encoding::toBase32(uri.secret, encoding::Base32Padding::Omit);
    SecureBuffer out(head.size() + secret.size() + tail.size());
    std::memcpy(out.data(), head.data(), head.size());
    std::memcpy(out.data() + head.size(), secret.data(), secret.size());
    std::memcpy(out.data() + head.size() + secret.size(), tail.data(), tail.size());
    return out;
}

} // namespace watchword::otp
