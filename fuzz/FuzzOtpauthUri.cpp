// Fuzz target: otpauth:// URIs (parseOtpauthUri, formatOtpauthUri), the text
// of any QR code the user points the camera at.
//
// Two properties besides not crashing:
//  1. The input as a URI: whenever it parses, the canonical URI formats, reads
//     back as the same account, and formats to the same text again.
//  2. The input as the fields of an OtpauthUri: whenever formatOtpauthUri
//     writes it, parseOtpauthUri reads back the same, except the parameter that
//     does not apply to the kind (period on hotp, counter on totp and steam),
//     which OtpauthUri.h documents as not written.
// A broken property aborts with a message, and libFuzzer saves the input.
#include "FuzzCheck.h"
#include "otp/OtpauthUri.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fuzzer/FuzzedDataProvider.h>
#include <string>
#include <string_view>

namespace {

using namespace watchword;
using namespace watchword::otp;
using watchword::fuzz::expect;
using watchword::fuzz::propertyBroken;

// Equal as far as a URI can say: period only for time-based kinds, counter
// only for HOTP.
bool sameUri(const OtpauthUri& a, const OtpauthUri& b)
{
    const OtpParameters& p = a.parameters;
    const OtpParameters& q = b.parameters;
    if (p.kind != q.kind || p.algorithm != q.algorithm || p.digits != q.digits)
        return false;
    if (p.isTimeBased() && p.period != q.period)
        return false;
    if (p.kind == OtpKind::Hotp && p.counter != q.counter)
        return false;
    return std::equal(a.secret.begin(), a.secret.end(), b.secret.begin(), b.secret.end()) &&
           a.account == b.account && a.labelIssuer == b.labelIssuer &&
           a.issuerParameter == b.issuerParameter && a.image == b.image &&
           a.unknownParameters == b.unknownParameters && a.issuer() == b.issuer();
}

// The formatted text of uri, or an abort naming why it could not be written.
// The secret is the fuzzer's own, so printing it is harmless.
std::string mustFormat(const OtpauthUri& uri, const char* what)
{
    auto formatted = formatOtpauthUri(uri);
    if (!formatted)
        propertyBroken(std::string(what) + ": " + formatted.error().message);
    return std::string(formatted->view());
}

OtpauthUri mustParse(std::string_view text, const char* what)
{
    auto parsed = parseOtpauthUri(text);
    if (!parsed)
        propertyBroken(std::string(what) + ": " + parsed.error().message +
                       "\n   URI: " + std::string(text));
    return std::move(parsed).value();
}

void checkUriText(std::string_view text)
{
    const auto parsed = parseOtpauthUri(text);
    if (!parsed) {
        expect(!parsed.error().message.empty(), "every refusal says why");
        return;
    }
    const std::string canonical = mustFormat(*parsed, "a parsed URI does not format");
    const OtpauthUri reread = mustParse(canonical, "a formatted URI does not parse");
    if (!sameUri(reread, *parsed))
        propertyBroken("parse(format(x)) differs from x\n   canonical: " + canonical);
    expect(mustFormat(reread, "a re-read URI does not format") == canonical,
           "the canonical URI formats to itself");
}

void checkUriFields(FuzzedDataProvider& in)
{
    OtpauthUri uri;
    OtpParameters& parameters = uri.parameters;
    parameters.kind = in.PickValueInArray({OtpKind::Totp, OtpKind::Hotp, OtpKind::Steam});
    parameters.algorithm =
        in.PickValueInArray({crypto::HashAlgorithm::Sha1, crypto::HashAlgorithm::Sha256,
                             crypto::HashAlgorithm::Sha512});
    parameters.digits = in.ConsumeIntegralInRange(4, 11);
    parameters.period = in.ConsumeBool() ? defaultPeriod : in.ConsumeIntegral<std::uint32_t>();
    parameters.counter = in.ConsumeIntegral<std::uint64_t>();
    const auto secret = in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange(0, 40));
    uri.secret = SecureBuffer(secret);
    uri.account = in.ConsumeRandomLengthString(48);
    if (in.ConsumeBool())
        uri.labelIssuer = in.ConsumeRandomLengthString(24);
    if (in.ConsumeBool())
        uri.issuerParameter = in.ConsumeRandomLengthString(24);
    if (in.ConsumeBool())
        uri.image = in.ConsumeRandomLengthString(48);
    for (int n = in.ConsumeIntegralInRange(0, 3); n > 0; --n) {
        auto name = in.ConsumeRandomLengthString(12);
        auto value = in.ConsumeRandomLengthString(24);
        uri.unknownParameters.push_back({std::move(name), std::move(value)});
    }

    const auto formatted = formatOtpauthUri(uri);
    if (!formatted)
        return; // refusing is allowed; writing something that reads back wrong is not
    const std::string text(formatted->view());
    const OtpauthUri reread = mustParse(text, "a URI formatOtpauthUri wrote does not parse");
    if (!sameUri(reread, uri))
        propertyBroken("parse(format(x)) differs from x\n   URI: " + text);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    checkUriText(std::string_view(reinterpret_cast<const char*>(data), size));
    FuzzedDataProvider in(data, size);
    checkUriFields(in);
    return 0;
}
