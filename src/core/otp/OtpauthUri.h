// otpauth:// URIs, Google's "Key Uri Format": the text inside an
// authenticator QR code, otpauth://TYPE/LABEL?PARAMETERS.
//
// Parsing is lenient where real exports are and strict where input is wrong.
// Accepted beyond the letter of the format: type "steam" (Aegis) and the
// parameter encoder=steam (KeePassXC) for Steam Guard, as is a totp URI whose
// issuer is "Steam" or with a bare "steam" parameter (Authenticator Pro,
// WinAuth) and no digits, period or algorithm but Steam's; any letter case in the
// scheme, the type and the algorithm name; '+' as a space in parameter values
// (form encoding, as exports write issuer=Air+Canada); lower-case, grouped or
// unpadded Base32 secrets; 6 to 10 digits; unknown parameters, kept in order.
// Rejected, each with its own code: a control character or '#' anywhere, a
// broken %-escape, text that is not UTF-8, a label with two colons, a repeated
// parameter name, and every missing or out-of-range value. Parameter names are
// case-sensitive, as in the format's text ("Secret" is an unknown parameter).
//
// The secret is decoded straight into a SecureBuffer, and the formatted URI,
// which contains the secret, is returned in one.
#pragma once

#include "base/Result.h"
#include "base/SecureBuffer.h"
#include "encoding/Base32.h"
#include "otp/OtpParameters.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::otp {

enum class OtpauthError {
    InvalidCharacter,       // a control character, or '#' (URIs here have no fragment)
    InvalidScheme,          // not otpauth: (otpauth-migration: is a different format)
    InvalidFormat,          // not otpauth://TYPE/LABEL[?PARAMETERS]
    InvalidPercentEncoding, // '%' not followed by two hex digits
    MissingType,            // otpauth:///...
    UnsupportedType,        // TYPE other than totp, hotp, steam
    UnsupportedEncoder,     // encoder other than steam, or encoder=steam on hotp
    InvalidLabel,           // more than one colon, not UTF-8, control characters
    InvalidIssuer,          // issuer parameter not UTF-8 or with control characters
    InvalidParameter,       // a parameter without a name, or image/unknown text not UTF-8
    DuplicateParameter,     // the same parameter name twice: ambiguous, so refused
    MissingSecret,          // no secret, or one that decodes to zero bytes
    InvalidSecret,          // not Base32 (see encoding/Base32.h)
    UnsupportedAlgorithm,   // not SHA1/SHA256/SHA512 (Steam: not SHA1)
    InvalidDigits,          // not a number in 6..10 (Steam: not 5)
    InvalidPeriod,          // not a number in 1..2^32-1 (Steam: not 30)
    MissingCounter,         // hotp without counter
    InvalidCounter,         // not a number in 0..2^64-1
};

// A parameter the parser does not interpret, percent-decoded.
struct UriParameter
{
    std::string name;
    std::string value;
    friend bool operator==(const UriParameter&, const UriParameter&) = default;
};

// Everything an otpauth URI says, decoded. Fields mirror the URI so that
// formatOtpauthUri() can write back exactly what parseOtpauthUri() read.
struct OtpauthUri
{
    // Kind, algorithm, digits; period for Totp/Steam, counter for Hotp. A
    // parameter that does not apply to the kind (period on hotp, counter on
    // totp) is ignored when parsing and not written when formatting.
    OtpParameters parameters;
    SecureBuffer secret;
    std::string account; // label after the colon (leading spaces dropped), or all of it
    std::optional<std::string> labelIssuer;     // label before the colon, if the label has one
    std::optional<std::string> issuerParameter; // issuer=, if present (possibly empty)
    std::optional<std::string> image; // image= (a logo URL some services add), never fetched here
    std::vector<UriParameter> unknownParameters; // all other parameters, in URI order

    // The issuer to show: the issuer parameter if present and not empty, else
    // the label prefix, else "". When both exist and differ, the parameter
    // wins: the format calls it the strongly recommended, authoritative field,
    // and the label is free text a service may decorate.
    [[nodiscard]] std::string issuer() const;
};

// Percent-decodes text (RFC 3986 section 2.1) into out, which must have room
// for text.size() bytes (decoding never lengthens). With plusIsSpace, '+'
// means ' ' (HTML form encoding, as real exports write query values);
// otherwise it is a plus sign. size: the bytes written; badEscape: where in
// text a '%' is not followed by two hex digits (out is then incomplete).
struct PercentDecoded
{
    std::size_t size = 0;
    std::optional<std::size_t> badEscape;
};
PercentDecoded percentDecode(std::string_view text, bool plusIsSpace, char* out) noexcept;

// The parameters of a URI query (the text after '?'), in order: split on
// '&', each at its first '=', nothing decoded. Empty parameters ("a=1&&b=2",
// a trailing '&', an empty query) are given too, for the caller to pass over.
struct QueryParameter
{
    std::string_view text;  // "name=value" as written
    std::string_view name;  // before the first '=' (all of text if it has none)
    std::string_view value; // after it (empty if it has none)
    std::size_t offset = 0; // where text starts in the query
};

class QueryParameters
{
public:
    explicit QueryParameters(std::string_view query) noexcept : m_query(query) {}

    // The next parameter; nullopt after the last.
    std::optional<QueryParameter> next() noexcept;

private:
    std::string_view m_query;
    std::size_t m_at = 0;
    bool m_done = false;
};

// Parses an otpauth URI. ASCII spaces, tabs and line breaks around it (from a
// paste or a QR decoder) are ignored. Error messages name the problem and its
// 1-based byte position or parameter, never the secret. tail: what a secret
// whose last Base32 group has 1, 3 or 6 symbols does (encoding/Base32.h);
// refused by default, as RFC 4648 has it. Importers pass what the app that
// wrote the file does.
[[nodiscard]] Result<OtpauthUri, Error<OtpauthError>>
parseOtpauthUri(std::string_view uri, encoding::Base32Tail tail = encoding::Base32Tail::Refuse);

// The canonical URI for uri: lower-case type ("steam" for Steam Guard, plus
// encoder=steam so that both Aegis and KeePassXC read it); the label and
// values percent-encoded except A-Z a-z 0-9 - . _ ~ @; the secret as unpadded
// upper-case Base32; then issuer (if present), algorithm, digits, period or
// counter, image, encoder, unknown parameters in order. Every parameter is
// written explicitly, defaults included, since readers disagree on defaults.
//
// parseOtpauthUri(formatOtpauthUri(x)) gives back x (with the caveat on
// parameters above). Fails, rather than write a URI that would read back
// differently, if parameters fail validate(), the label parts contain ':' or
// are not UTF-8 text, the account starts with a space while labelIssuer is
// set, or an unknown parameter is nameless, repeated or named like a known one.
[[nodiscard]] Result<SecureBuffer, Error<OtpauthError>> formatOtpauthUri(const OtpauthUri& uri);

} // namespace watchword::otp
