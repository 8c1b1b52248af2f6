// otpauth:// URIs: the 40 cases of tests/data/otpauth/uris.json (fields or
// error code), the Steam spellings of real exports, lenient and rejected
// forms with their codes, the canonical output, randomized round trips
// parse(format(x)) == x with a printed seed, and every one-character
// truncation or deletion of valid URIs (an error or a consistent result,
// never a crash; run it under ASan).
#include "common/TestSupport.h"
#include "otp/OtpGenerator.h"
#include "otp/OtpauthUri.h"

#include <QtTest>
#include <array>
#include <limits>
#include <optional>
#include <string>

using namespace watchword;
using namespace watchword::otp;
using crypto::HashAlgorithm;

Q_DECLARE_METATYPE(watchword::otp::OtpauthError)
Q_DECLARE_METATYPE(watchword::otp::OtpKind)

namespace {

std::string text(const QString& value)
{
    return value.toStdString();
}

QString text(const SecureBuffer& buffer)
{
    return QString::fromUtf8(buffer.view().data(), static_cast<qsizetype>(buffer.size()));
}

QString optionalText(const std::optional<std::string>& value)
{
    return value ? QString::fromStdString(*value) : QStringLiteral("(none)");
}

// The uris.json "error" categories; each maps to exactly one code.
std::optional<OtpauthError> codeForCategory(const QString& category)
{
    static const QHash<QString, OtpauthError> map = {
        {QStringLiteral("missing_secret"), OtpauthError::MissingSecret},
        {QStringLiteral("invalid_secret"), OtpauthError::InvalidSecret},
        {QStringLiteral("missing_counter"), OtpauthError::MissingCounter},
        {QStringLiteral("invalid_counter"), OtpauthError::InvalidCounter},
        {QStringLiteral("unsupported_type"), OtpauthError::UnsupportedType},
        {QStringLiteral("missing_type"), OtpauthError::MissingType},
        {QStringLiteral("invalid_scheme"), OtpauthError::InvalidScheme},
        {QStringLiteral("invalid_format"), OtpauthError::InvalidFormat},
        {QStringLiteral("unsupported_algorithm"), OtpauthError::UnsupportedAlgorithm},
        {QStringLiteral("invalid_digits"), OtpauthError::InvalidDigits},
        {QStringLiteral("invalid_period"), OtpauthError::InvalidPeriod},
        {QStringLiteral("invalid_label"), OtpauthError::InvalidLabel},
        {QStringLiteral("duplicate_parameter"), OtpauthError::DuplicateParameter},
    };
    const auto it = map.find(category);
    if (it == map.end())
        return std::nullopt;
    return *it;
}

// Empty if a and b say the same thing, else what differs. The period is
// compared for time-based kinds, the counter for HOTP (the other one is not
// part of the URI).
QString difference(const OtpauthUri& a, const OtpauthUri& b)
{
    QStringList out;
    const OtpParameters& p = a.parameters;
    const OtpParameters& q = b.parameters;
    if (p.kind != q.kind)
        out << QStringLiteral("kind %1 vs %2").arg(int(p.kind)).arg(int(q.kind));
    if (p.algorithm != q.algorithm)
        out << QStringLiteral("algorithm");
    if (p.digits != q.digits)
        out << QStringLiteral("digits %1 vs %2").arg(p.digits).arg(q.digits);
    if (p.isTimeBased() && p.period != q.period)
        out << QStringLiteral("period %1 vs %2").arg(p.period).arg(q.period);
    if (!p.isTimeBased() && p.counter != q.counter)
        out << QStringLiteral("counter %1 vs %2").arg(p.counter).arg(q.counter);
    if (!constantTimeEqual(a.secret.span(), b.secret.span()))
        out << QStringLiteral("secret");
    if (a.account != b.account)
        out << QStringLiteral("account '%1' vs '%2'")
                   .arg(QString::fromStdString(a.account), QString::fromStdString(b.account));
    if (a.labelIssuer != b.labelIssuer)
        out << QStringLiteral("labelIssuer %1 vs %2")
                   .arg(optionalText(a.labelIssuer), optionalText(b.labelIssuer));
    if (a.issuerParameter != b.issuerParameter)
        out << QStringLiteral("issuerParameter %1 vs %2")
                   .arg(optionalText(a.issuerParameter), optionalText(b.issuerParameter));
    if (a.image != b.image)
        out << QStringLiteral("image %1 vs %2").arg(optionalText(a.image), optionalText(b.image));
    if (a.unknownParameters != b.unknownParameters)
        out << QStringLiteral("unknown parameters (%1 vs %2)")
                   .arg(a.unknownParameters.size())
                   .arg(b.unknownParameters.size());
    return out.join(QStringLiteral("; "));
}

// format() then parse() must give back uri, and formatting that again must
// give the same bytes. Returns what went wrong, or an empty string.
QString roundTripProblem(const OtpauthUri& uri)
{
    const auto formatted = formatOtpauthUri(uri);
    if (!formatted)
        return QStringLiteral("format failed: ") +
               QString::fromStdString(formatted.error().message);
    const auto reparsed = parseOtpauthUri(formatted->view());
    if (!reparsed)
        return QStringLiteral("parse of '%1' failed: %2")
            .arg(text(*formatted), QString::fromStdString(reparsed.error().message));
    const QString diff = difference(uri, *reparsed);
    if (!diff.isEmpty())
        return QStringLiteral("'%1' read back differently: %2").arg(text(*formatted), diff);
    const auto again = formatOtpauthUri(*reparsed);
    if (!again || again->view() != formatted->view())
        return QStringLiteral("formatting is not stable for '%1'").arg(text(*formatted));
    return {};
}

OtpauthUri parsedOrDie(std::string_view uri)
{
    auto parsed = parseOtpauthUri(uri);
    if (!parsed)
        qFatal("test setup: %s", parsed.error().message.c_str());
    return std::move(parsed).value();
}

const char* const hello = "JBSWY3DPEHPK3PXP"; // "Hello!" DE AD BE EF

} // namespace

class TestOtpauthUri : public QObject
{
    Q_OBJECT

private slots:
    void keyUriCases_data();
    void keyUriCases();
    void steamSpellings_data();
    void steamSpellings();
    void lenientForms();
    void rejections_data();
    void rejections();
    void canonicalFormat_data();
    void canonicalFormat();
    void formatRefuses_data();
    void formatRefuses();
    void formattedUriIsSecureBufferWithSecret();
    void randomRoundTrips();
    void truncationsAndDeletions();
};

void TestOtpauthUri::keyUriCases_data()
{
    QTest::addColumn<QString>("uri");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QJsonObject>("expected");
    QTest::addColumn<QString>("category");
    const auto root = test::loadJson(QStringLiteral("otpauth/uris.json"));
    int valid = 0;
    int invalid = 0;
    for (const auto v : root[QStringLiteral("cases")].toArray()) {
        const auto o = v.toObject();
        const bool isValid = o[QStringLiteral("valid")].toBool();
        (isValid ? valid : invalid)++;
        QTest::newRow(qPrintable(o[QStringLiteral("id")].toString()))
            << o[QStringLiteral("uri")].toString() << isValid
            << o[QStringLiteral("expected")].toObject() << o[QStringLiteral("error")].toString();
    }
    QCOMPARE(valid, 21);
    QCOMPARE(invalid, 19);
}

void TestOtpauthUri::keyUriCases()
{
    QFETCH(QString, uri);
    QFETCH(bool, valid);
    QFETCH(QJsonObject, expected);
    QFETCH(QString, category);
    const auto parsed = parseOtpauthUri(text(uri));
    if (!valid) {
        QVERIFY2(!parsed.ok(), "an invalid URI was accepted");
        const auto code = codeForCategory(category);
        QVERIFY2(code.has_value(), qPrintable(category));
        QCOMPARE(parsed.error().code, *code);
        QVERIFY(!parsed.error().message.empty());
        return;
    }
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
    const OtpauthUri& result = *parsed;
    const QString type = expected[QStringLiteral("type")].toString();
    QCOMPARE(QString::fromLatin1(kindName(result.parameters.kind).data()), type);
    QCOMPARE(QString::fromStdString(result.issuer()),
             expected[QStringLiteral("issuer")].toString());
    const QJsonValue labelIssuer = expected[QStringLiteral("label_issuer")];
    if (labelIssuer.isNull()) {
        QVERIFY(!result.labelIssuer.has_value());
    } else {
        QVERIFY(result.labelIssuer.has_value());
        QCOMPARE(QString::fromStdString(*result.labelIssuer), labelIssuer.toString());
    }
    QCOMPARE(QString::fromStdString(result.account),
             expected[QStringLiteral("account")].toString());
    QCOMPARE(test::toHex(result.secret.span()), expected[QStringLiteral("secret_hex")].toString());
    QCOMPARE(QString::fromLatin1(crypto::hashName(result.parameters.algorithm).data()),
             expected[QStringLiteral("algorithm")].toString());
    QCOMPARE(result.parameters.digits, expected[QStringLiteral("digits")].toInt());
    if (type == QLatin1String("hotp")) {
        QVERIFY(!expected.contains(QStringLiteral("period")));
        QCOMPARE(quint64(result.parameters.counter),
                 expected[QStringLiteral("counter")].toVariant().toULongLong());
    } else {
        QVERIFY(!expected.contains(QStringLiteral("counter")));
        QCOMPARE(result.parameters.period,
                 std::uint32_t(expected[QStringLiteral("period")].toInt()));
    }
    // Every accepted URI can generate codes and survives format/parse.
    QVERIFY(OtpGenerator::create(result.parameters, result.secret).ok());
    const QString problem = roundTripProblem(result);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestOtpauthUri::steamSpellings_data()
{
    QTest::addColumn<QString>("uri");
    QTest::addColumn<QString>("issuer");
    QTest::addColumn<QString>("account");
    const QString secret = QStringLiteral("JRZCL47CMXVOQMNPZR2F7J4RGI");
    // As Aegis exports it (its test data line for this entry).
    QTest::newRow("aegis export")
        << QStringLiteral("otpauth://steam/"
                          "Boeing:Sophia?secret=%1&issuer=Boeing&algorithm=SHA1&digits=5&period=30")
               .arg(secret)
        << QStringLiteral("Boeing") << QStringLiteral("Sophia");
    // Aegis's Uri.Builder order: period, digits, algorithm, secret, issuer.
    QTest::newRow("aegis builder order")
        << QStringLiteral("otpauth://steam/"
                          "Steam:gaben?period=30&digits=5&algorithm=SHA1&secret=%1&issuer=Steam")
               .arg(secret)
        << QStringLiteral("Steam") << QStringLiteral("gaben");
    // As KeePassXC writes it: type totp, encoder=steam.
    QTest::newRow("keepassxc export")
        << QStringLiteral(
               "otpauth://totp/Steam:gaben?secret=%1&period=30&digits=5&issuer=Steam&encoder=steam")
               .arg(secret)
        << QStringLiteral("Steam") << QStringLiteral("gaben");
    QTest::newRow("minimal steam type")
        << QStringLiteral("otpauth://steam/gaben?secret=%1").arg(secret) << QString()
        << QStringLiteral("gaben");
    QTest::newRow("minimal encoder")
        << QStringLiteral("otpauth://totp/gaben?secret=%1&encoder=Steam").arg(secret) << QString()
        << QStringLiteral("gaben");
    QTest::newRow("upper-case type")
        << QStringLiteral("otpauth://STEAM/gaben?secret=%1").arg(secret) << QString()
        << QStringLiteral("gaben");
    QTest::newRow("our canonical form")
        << QStringLiteral("otpauth://steam/"
                          "Boeing:Sophia?secret=%1&issuer=Boeing&algorithm=SHA1&digits=5&period=30&"
                          "encoder=steam")
               .arg(secret)
        << QStringLiteral("Boeing") << QStringLiteral("Sophia");
}

void TestOtpauthUri::steamSpellings()
{
    QFETCH(QString, uri);
    QFETCH(QString, issuer);
    QFETCH(QString, account);
    const auto parsed = parseOtpauthUri(text(uri));
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
    QCOMPARE(parsed->parameters, OtpParameters::steam());
    QCOMPARE(QString::fromStdString(parsed->issuer()), issuer);
    QCOMPARE(QString::fromStdString(parsed->account), account);
    QVERIFY(parsed->unknownParameters.empty());
    // The code Aegis's test data gives for this secret at 1700000000.
    const auto generator = OtpGenerator::create(parsed->parameters, parsed->secret);
    QVERIFY(generator.ok());
    QCOMPARE(QString::fromStdString(*generator->codeForTime(1700000000)), QStringLiteral("747JR"));
    const QString problem = roundTripProblem(*parsed);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestOtpauthUri::lenientForms()
{
    // Whitespace around the URI (a paste, a QR decoder's newline).
    {
        const auto parsed =
            parseOtpauthUri(std::string(" \t otpauth://totp/a?secret=") + hello + "\r\n");
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->account, std::string("a"));
    }
    // Scheme and type in any case; '+' and %20 in the secret are ignorable spaces.
    {
        const auto parsed = parseOtpauthUri("OTPAUTH://TOTP/a?secret=jbsw+y3dp%20ehpk-3pxp");
        QVERIFY(parsed.ok());
        QCOMPARE(test::toHex(parsed->secret.span()), QStringLiteral("48656c6c6f21deadbeef"));
    }
    // '+' is a space in parameter values but a plus sign in the label; %2B is a plus anywhere.
    {
        const auto parsed = parseOtpauthUri(
            std::string("otpauth://totp/C++:dev+ops?issuer=C%2B%2B+Team&secret=") + hello);
        QVERIFY(parsed.ok());
        QCOMPARE(*parsed->labelIssuer, std::string("C++"));
        QCOMPARE(parsed->account, std::string("dev+ops"));
        QCOMPARE(*parsed->issuerParameter, std::string("C++ Team"));
        QCOMPARE(parsed->issuer(), std::string("C++ Team"));
    }
    // Unknown parameters are kept, in order, decoded; names are case-sensitive.
    {
        const auto parsed = parseOtpauthUri(std::string("otpauth://totp/a?zeta=1&secret=") + hello +
                                            "&Secret=x&alpha=%C3%A4+b&flag&&");
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
        const std::vector<UriParameter> expected = {
            {"zeta", "1"}, {"Secret", "x"}, {"alpha", "\xc3\xa4 b"}, {"flag", ""}};
        QVERIFY(parsed->unknownParameters == expected);
    }
    // An empty issuer parameter defers to the label prefix, and is kept as given.
    {
        const auto parsed =
            parseOtpauthUri(std::string("otpauth://totp/Foo:a?issuer=&secret=") + hello);
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->issuer(), std::string("Foo"));
        QCOMPARE(*parsed->issuerParameter, std::string());
        QVERIFY(roundTripProblem(*parsed).isEmpty());
    }
    // Empty label parts, and a label that is only an issuer.
    {
        const auto parsed = parseOtpauthUri(std::string("otpauth://totp/?secret=") + hello);
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->account, std::string());
        QVERIFY(!parsed->labelIssuer);
        const auto issuerOnly =
            parseOtpauthUri(std::string("otpauth://totp/Foo:%20?secret=") + hello);
        QVERIFY(issuerOnly.ok());
        QCOMPARE(*issuerOnly->labelIssuer, std::string("Foo"));
        QCOMPARE(issuerOnly->account, std::string());
    }
    // Ranges: 10 digits, the largest period and counter; 9 and 7 digits.
    {
        const auto parsed = parseOtpauthUri(
            std::string("otpauth://totp/a?digits=10&period=4294967295&secret=") + hello);
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->parameters.digits, 10);
        QCOMPARE(parsed->parameters.period, 4294967295u);
        const auto counter = parseOtpauthUri(
            std::string("otpauth://hotp/a?counter=18446744073709551615&digits=09&secret=") + hello);
        QVERIFY(counter.ok());
        QCOMPARE(counter->parameters.counter, std::numeric_limits<std::uint64_t>::max());
        QCOMPARE(counter->parameters.digits, 9);
    }
    // Parameters that do not apply to the type are ignored, even malformed.
    {
        const auto hotp =
            parseOtpauthUri(std::string("otpauth://hotp/a?counter=3&period=0&secret=") + hello);
        QVERIFY(hotp.ok());
        const auto totp =
            parseOtpauthUri(std::string("otpauth://totp/a?counter=-1&secret=") + hello);
        QVERIFY(totp.ok());
        QCOMPARE(totp->parameters.counter, std::uint64_t(0));
    }
    // The algorithm name in any case, with or without a hyphen.
    {
        const auto parsed =
            parseOtpauthUri(std::string("otpauth://totp/a?algorithm=sha-512&secret=") + hello);
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->parameters.algorithm, HashAlgorithm::Sha512);
    }
}

void TestOtpauthUri::rejections_data()
{
    QTest::addColumn<QByteArray>("uri");
    QTest::addColumn<OtpauthError>("code");
    QTest::addColumn<QString>("messagePart");
    const QByteArray base = QByteArray("otpauth://totp/Example:alice?secret=") + hello;
    QTest::newRow("empty") << QByteArray() << OtpauthError::InvalidScheme
                           << QStringLiteral("otpauth://");
    QTest::newRow("no colon") << QByteArray("otpauth") << OtpauthError::InvalidScheme << QString();
    QTest::newRow("scheme prefix") << QByteArray("otpauthx://totp/a?secret=JBSWY3DPEHPK3PXP")
                                   << OtpauthError::InvalidScheme << QStringLiteral("'otpauthx'");
    QTest::newRow("migration") << QByteArray("otpauth-migration://offline?data=abc")
                               << OtpauthError::InvalidScheme
                               << QStringLiteral("Google Authenticator");
    QTest::newRow("tab inside") << QByteArray("otpauth://totp/a\tb?secret=JBSWY3DPEHPK3PXP")
                                << OtpauthError::InvalidCharacter
                                << QStringLiteral("0x09 at position 17");
    QTest::newRow("nul inside") << QByteArray("otpauth://totp/ab?secret=JB\0SWY3DPEHPK3PXP", 42)
                                << OtpauthError::InvalidCharacter
                                << QStringLiteral("0x00 at position 28");
    QTest::newRow("fragment") << base + "#x" << OtpauthError::InvalidCharacter
                              << QStringLiteral("'#' at position 53");
    QTest::newRow("only scheme") << QByteArray("otpauth:") << OtpauthError::InvalidFormat
                                 << QStringLiteral("'//'");
    QTest::newRow("no label") << QByteArray("otpauth://totp?secret=JBSWY3DPEHPK3PXP")
                              << OtpauthError::InvalidFormat << QStringLiteral("label");
    QTest::newRow("type only") << QByteArray("otpauth://totp") << OtpauthError::InvalidFormat
                               << QStringLiteral("label");
    QTest::newRow("motp") << QByteArray("otpauth://motp/a?secret=JBSWY3DPEHPK3PXP")
                          << OtpauthError::UnsupportedType << QStringLiteral("'motp'");
    QTest::newRow("encoded type") << QByteArray("otpauth://%74otp/a?secret=JBSWY3DPEHPK3PXP")
                                  << OtpauthError::UnsupportedType << QString();
    QTest::newRow("short escape") << QByteArray("otpauth://totp/a%4?secret=JBSWY3DPEHPK3PXP")
                                  << OtpauthError::InvalidPercentEncoding
                                  << QStringLiteral("position 17");
    QTest::newRow("escape at end") << base + "&issuer=a%" << OtpauthError::InvalidPercentEncoding
                                   << QStringLiteral("position 62");
    QTest::newRow("non-hex escape") << base + "&issuer=%zz" << OtpauthError::InvalidPercentEncoding
                                    << QStringLiteral("position 61");
    QTest::newRow("bad escape in secret")
        << QByteArray("otpauth://totp/a?secret=JBSW%G0") << OtpauthError::InvalidPercentEncoding
        << QStringLiteral("position 29");
    QTest::newRow("bad escape in name")
        << base + "&x%=1" << OtpauthError::InvalidPercentEncoding << QStringLiteral("position 55");
    QTest::newRow("label not utf-8") << QByteArray("otpauth://totp/%C3%28?secret=JBSWY3DPEHPK3PXP")
                                     << OtpauthError::InvalidLabel << QStringLiteral("UTF-8");
    QTest::newRow("label overlong") << QByteArray("otpauth://totp/%C0%BA?secret=JBSWY3DPEHPK3PXP")
                                    << OtpauthError::InvalidLabel << QStringLiteral("UTF-8");
    QTest::newRow("label surrogate")
        << QByteArray("otpauth://totp/%ED%A0%80?secret=JBSWY3DPEHPK3PXP")
        << OtpauthError::InvalidLabel << QStringLiteral("UTF-8");
    QTest::newRow("label newline")
        << QByteArray("otpauth://totp/a%0Ab?secret=JBSWY3DPEHPK3PXP") << OtpauthError::InvalidLabel
        << QStringLiteral("control character 0x0A");
    QTest::newRow("label C1 control")
        << QByteArray("otpauth://totp/a%C2%9Bb?secret=JBSWY3DPEHPK3PXP")
        << OtpauthError::InvalidLabel << QStringLiteral("U+009B");
    QTest::newRow("label raw bad utf-8")
        << QByteArray("otpauth://totp/\xff?secret=JBSWY3DPEHPK3PXP") << OtpauthError::InvalidLabel
        << QStringLiteral("0xFF");
    QTest::newRow("two colons encoded")
        << QByteArray("otpauth://totp/a%3Ab%3Ac?secret=JBSWY3DPEHPK3PXP")
        << OtpauthError::InvalidLabel << QStringLiteral("2 colons");
    QTest::newRow("issuer with escape")
        << base + "&issuer=a%1Bb" << OtpauthError::InvalidIssuer << QStringLiteral("0x1B");
    QTest::newRow("image not utf-8")
        << base + "&image=%FF" << OtpauthError::InvalidParameter << QStringLiteral("image");
    QTest::newRow("unknown value not utf-8")
        << base + "&foo=%FE" << OtpauthError::InvalidParameter << QStringLiteral("'foo'");
    QTest::newRow("nameless parameter")
        << base + "&=1" << OtpauthError::InvalidParameter << QStringLiteral("no name");
    QTest::newRow("duplicate issuer")
        << base + "&issuer=a&issuer=a" << OtpauthError::DuplicateParameter
        << QStringLiteral("'issuer'");
    QTest::newRow("duplicate unknown")
        << base + "&foo=1&foo=2" << OtpauthError::DuplicateParameter << QStringLiteral("'foo'");
    QTest::newRow("duplicate ignored period")
        << QByteArray("otpauth://hotp/a?counter=1&period=1&period=2&secret=JBSWY3DPEHPK3PXP")
        << OtpauthError::DuplicateParameter << QStringLiteral("'period'");
    QTest::newRow("secret spaces only") << QByteArray("otpauth://totp/a?secret=%20+-")
                                        << OtpauthError::MissingSecret << QStringLiteral("empty");
    QTest::newRow("secret without =") << QByteArray("otpauth://totp/a?secret")
                                      << OtpauthError::MissingSecret << QStringLiteral("empty");
    QTest::newRow("secret upper-case name")
        << QByteArray("otpauth://totp/a?SECRET=JBSWY3DPEHPK3PXP") << OtpauthError::MissingSecret
        << QStringLiteral("no secret");
    QTest::newRow("secret impossible length")
        << QByteArray("otpauth://totp/a?secret=JBSWY3DPE") << OtpauthError::InvalidSecret
        << QStringLiteral("1 symbol(s)");
    QTest::newRow("secret with tab escape")
        << QByteArray("otpauth://totp/a?secret=JBSW%09Y3DP") << OtpauthError::InvalidSecret
        << QStringLiteral("byte 0x09");
    QTest::newRow("algorithm empty")
        << base + "&algorithm=" << OtpauthError::UnsupportedAlgorithm << QStringLiteral("''");
    QTest::newRow("algorithm sha3")
        << base + "&algorithm=SHA3-256" << OtpauthError::UnsupportedAlgorithm
        << QStringLiteral("'SHA3-256'");
    QTest::newRow("digits 11") << base + "&digits=11" << OtpauthError::InvalidDigits
                               << QStringLiteral("'11'");
    QTest::newRow("digits plus sign")
        << base + "&digits=%2B6" << OtpauthError::InvalidDigits << QStringLiteral("'+6'");
    QTest::newRow("digits space") << base + "&digits=6+" << OtpauthError::InvalidDigits
                                  << QStringLiteral("'6 '");
    QTest::newRow("digits huge") << base + "&digits=99999999999999999999999"
                                 << OtpauthError::InvalidDigits << QStringLiteral("6 to 10");
    QTest::newRow("period too large") << base + "&period=4294967296" << OtpauthError::InvalidPeriod
                                      << QStringLiteral("'4294967296'");
    QTest::newRow("period fraction")
        << base + "&period=30.5" << OtpauthError::InvalidPeriod << QStringLiteral("'30.5'");
    QTest::newRow("counter overflow")
        << QByteArray("otpauth://hotp/a?counter=18446744073709551616&secret=JBSWY3DPEHPK3PXP")
        << OtpauthError::InvalidCounter << QStringLiteral("18446744073709551616");
    QTest::newRow("counter empty")
        << QByteArray("otpauth://hotp/a?counter=&secret=JBSWY3DPEHPK3PXP")
        << OtpauthError::InvalidCounter << QStringLiteral("''");
    QTest::newRow("encoder unknown") << base + "&encoder=yandex" << OtpauthError::UnsupportedEncoder
                                     << QStringLiteral("'yandex'");
    QTest::newRow("encoder empty")
        << base + "&encoder=" << OtpauthError::UnsupportedEncoder << QStringLiteral("''");
    QTest::newRow("steam encoder on hotp")
        << QByteArray("otpauth://hotp/a?counter=1&encoder=steam&secret=JBSWY3DPEHPK3PXP")
        << OtpauthError::UnsupportedEncoder << QStringLiteral("hotp");
    QTest::newRow("steam 6 digits")
        << QByteArray("otpauth://steam/a?digits=6&secret=JBSWY3DPEHPK3PXP")
        << OtpauthError::InvalidDigits << QStringLiteral("Steam");
    QTest::newRow("steam encoder 6 digits")
        << base + "&encoder=steam&digits=6" << OtpauthError::InvalidDigits
        << QStringLiteral("Steam");
    QTest::newRow("steam period 60")
        << QByteArray("otpauth://steam/a?period=60&secret=JBSWY3DPEHPK3PXP")
        << OtpauthError::InvalidPeriod << QStringLiteral("Steam");
    QTest::newRow("steam sha256")
        << QByteArray("otpauth://steam/a?algorithm=SHA256&secret=JBSWY3DPEHPK3PXP")
        << OtpauthError::UnsupportedAlgorithm << QStringLiteral("Steam");
}

void TestOtpauthUri::rejections()
{
    QFETCH(QByteArray, uri);
    QFETCH(OtpauthError, code);
    QFETCH(QString, messagePart);
    const auto parsed = parseOtpauthUri(std::string_view(uri.constData(), std::size_t(uri.size())));
    QVERIFY2(!parsed.ok(), "accepted");
    const QString message = QString::fromStdString(parsed.error().message);
    QVERIFY2(parsed.error().code == code, qPrintable(message));
    QVERIFY(!message.isEmpty());
    QVERIFY2(message.contains(messagePart), qPrintable(message));
    // Messages never repeat the secret.
    QVERIFY2(!message.contains(QLatin1String(hello)), qPrintable(message));
}

void TestOtpauthUri::canonicalFormat_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("canonical");
    QTest::newRow("wiki example, already canonical")
        << QStringLiteral("otpauth://totp/"
                          "ACME%20Co:john.doe@email.com?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&"
                          "issuer=ACME%20Co&algorithm=SHA1&digits=6&period=30")
        << QStringLiteral("otpauth://totp/"
                          "ACME%20Co:john.doe@email.com?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&"
                          "issuer=ACME%20Co&algorithm=SHA1&digits=6&period=30");
    QTest::newRow("defaults written, padding and case normalized")
        << QStringLiteral(
               "otpauth://TOTP/Example:alice@google.com?secret=mzxw6ytboi%3D%3D%3D%3D%3D%3D")
        << QStringLiteral(
               "otpauth://totp/"
               "Example:alice@google.com?secret=MZXW6YTBOI&algorithm=SHA1&digits=6&period=30");
    QTest::newRow("plus and spaces")
        << QStringLiteral("otpauth://hotp/"
                          "Air%20Canada:Benjamin?secret=KUVJJOM753IHTNDSZVCNKL7GII&issuer=Air+"
                          "Canada&algorithm=SHA256&digits=7&counter=50")
        << QStringLiteral("otpauth://hotp/"
                          "Air%20Canada:Benjamin?secret=KUVJJOM753IHTNDSZVCNKL7GII&issuer=Air%"
                          "20Canada&algorithm=SHA256&digits=7&counter=50");
    QTest::newRow("encoded colon and leading spaces")
        << QStringLiteral("otpauth://totp/"
                          "Big%20Corporation%3A%20alice%40bigco.com?secret=JBSWY3DPEHPK3PXP&issuer="
                          "Big%20Corporation")
        << QStringLiteral("otpauth://totp/"
                          "Big%20Corporation:alice@bigco.com?secret=JBSWY3DPEHPK3PXP&issuer=Big%"
                          "20Corporation&algorithm=SHA1&digits=6&period=30");
    QTest::newRow("steam for both readers")
        << QStringLiteral("otpauth://totp/"
                          "Steam:gaben?secret=JRZCL47CMXVOQMNPZR2F7J4RGI&period=30&digits=5&issuer="
                          "Steam&encoder=steam")
        << QStringLiteral("otpauth://steam/"
                          "Steam:gaben?secret=JRZCL47CMXVOQMNPZR2F7J4RGI&issuer=Steam&algorithm="
                          "SHA1&digits=5&period=30&encoder=steam");
    QTest::newRow("image and unknown parameters, reserved bytes encoded")
        << QStringLiteral("otpauth://totp/"
                          "a%2Fb%3Fc?secret=JBSWY3DPEHPK3PXP&x%26y=1%3D2&image=https%3A%2F%"
                          "2Fexample.com%2Flogo.png")
        << QStringLiteral("otpauth://totp/"
                          "a%2Fb%3Fc?secret=JBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30&"
                          "image=https%3A%2F%2Fexample.com%2Flogo.png&x%26y=1%3D2");
    QTest::newRow("utf-8 label")
        << QStringLiteral("otpauth://totp/"
                          "encoding%3A%20%C2%BF%C3%A4%C3%84%C3%A9%C3%89%3F%20%28demo%29?secret="
                          "7KSQL2JTUDIS5EF65KLMRQIIGY")
        << QStringLiteral("otpauth://totp/"
                          "encoding:%C2%BF%C3%A4%C3%84%C3%A9%C3%89%3F%20%28demo%29?secret="
                          "7KSQL2JTUDIS5EF65KLMRQIIGY&algorithm=SHA1&digits=6&period=30");
}

void TestOtpauthUri::canonicalFormat()
{
    QFETCH(QString, input);
    QFETCH(QString, canonical);
    const OtpauthUri parsed = parsedOrDie(text(input));
    const auto formatted = formatOtpauthUri(parsed);
    QVERIFY(formatted.ok());
    QCOMPARE(text(*formatted), canonical);
    const QString problem = roundTripProblem(parsed);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestOtpauthUri::formatRefuses_data()
{
    QTest::addColumn<int>("variant");
    QTest::addColumn<OtpauthError>("code");
    QTest::newRow("colon in label issuer") << 0 << OtpauthError::InvalidLabel;
    QTest::newRow("colon in account") << 1 << OtpauthError::InvalidLabel;
    QTest::newRow("account starts with space after issuer") << 2 << OtpauthError::InvalidLabel;
    QTest::newRow("account not utf-8") << 3 << OtpauthError::InvalidLabel;
    QTest::newRow("issuer with newline") << 4 << OtpauthError::InvalidIssuer;
    QTest::newRow("empty secret") << 5 << OtpauthError::MissingSecret;
    QTest::newRow("5 digits totp") << 6 << OtpauthError::InvalidDigits;
    QTest::newRow("period 0") << 7 << OtpauthError::InvalidPeriod;
    QTest::newRow("steam sha512") << 8 << OtpauthError::UnsupportedAlgorithm;
    QTest::newRow("unknown named secret") << 9 << OtpauthError::InvalidParameter;
    QTest::newRow("unknown without name") << 10 << OtpauthError::InvalidParameter;
    QTest::newRow("unknown twice") << 11 << OtpauthError::DuplicateParameter;
    QTest::newRow("image with control") << 12 << OtpauthError::InvalidParameter;
}

void TestOtpauthUri::formatRefuses()
{
    QFETCH(int, variant);
    QFETCH(OtpauthError, code);
    OtpauthUri uri =
        parsedOrDie("otpauth://totp/Example:alice?secret=JBSWY3DPEHPK3PXP&issuer=Example");
    QVERIFY(formatOtpauthUri(uri).ok());
    switch (variant) {
    case 0:
        uri.labelIssuer = "Ex:ample";
        break;
    case 1:
        uri.account = "al:ice";
        break;
    case 2:
        uri.account = " alice";
        break;
    case 3:
        uri.account = "al\xffice";
        break;
    case 4:
        uri.issuerParameter = "Exa\nmple";
        break;
    case 5:
        uri.secret = SecureBuffer();
        break;
    case 6:
        uri.parameters.digits = 5;
        break;
    case 7:
        uri.parameters.period = 0;
        break;
    case 8:
        uri.parameters = OtpParameters::steam();
        uri.parameters.algorithm = HashAlgorithm::Sha512;
        break;
    case 9:
        uri.unknownParameters.push_back({"secret", "GEZDGNBVGY3TQOJQ"});
        break;
    case 10:
        uri.unknownParameters.push_back({"", "x"});
        break;
    case 11:
        uri.unknownParameters = {{"a", "1"}, {"a", "2"}};
        break;
    case 12:
        uri.image = std::string("https://x/\x7f");
        break;
    default:
        QFAIL("no such variant");
    }
    const auto formatted = formatOtpauthUri(uri);
    QVERIFY(!formatted.ok());
    QCOMPARE(formatted.error().code, code);
    QVERIFY(!formatted.error().message.empty());
}

void TestOtpauthUri::formattedUriIsSecureBufferWithSecret()
{
    const OtpauthUri uri =
        parsedOrDie("otpauth://hotp/a?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&counter=7");
    const auto formatted = formatOtpauthUri(uri);
    QVERIFY(formatted.ok());
    QCOMPARE(text(*formatted),
             QStringLiteral(
                 "otpauth://hotp/"
                 "a?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&algorithm=SHA1&digits=6&counter=7"));
}

void TestOtpauthUri::randomRoundTrips()
{
    test::SeededRandom random(test::testSeed());
    auto& engine = random.engine();
    auto below = [&](std::size_t n) {
        return static_cast<std::size_t>(engine() % n);
    };
    // Pieces of text, each valid UTF-8: the characters URIs must escape,
    // separators of the format itself (':' only where allowed), multi-byte
    // UTF-8 up to 4 bytes.
    const std::vector<std::string> pieces = {"a",
                                             "Z",
                                             "0",
                                             "9",
                                             "-",
                                             ".",
                                             "_",
                                             "~",
                                             "@",
                                             " ",
                                             "%",
                                             "%3A",
                                             "%%",
                                             "&",
                                             "=",
                                             "?",
                                             "#",
                                             "+",
                                             "/",
                                             "\\",
                                             "\"",
                                             "'",
                                             "<",
                                             ">",
                                             "[",
                                             "]",
                                             "{",
                                             "}",
                                             "|",
                                             "^",
                                             "`",
                                             ";",
                                             ",",
                                             "!",
                                             "$",
                                             "(",
                                             ")",
                                             "*",
                                             "\xc3\xa4",
                                             "\xc3\x89",
                                             "\xe2\x82\xac",
                                             "\xe6\x97\xa5\xe6\x9c\xac",
                                             "\xf0\x9f\x98\x80",
                                             "\xc2\xa0",
                                             "Example",
                                             "alice@google.com",
                                             "ACME Co"};
    auto randomText = [&](bool allowColon, std::size_t maxPieces) {
        std::string out;
        const std::size_t count = below(maxPieces + 1);
        for (std::size_t i = 0; i < count; ++i)
            out += (allowColon && below(10) == 0) ? std::string(":") : pieces[below(pieces.size())];
        return out;
    };

    const int iterations = 3000;
    for (int iteration = 0; iteration < iterations; ++iteration) {
        OtpauthUri uri;
        OtpParameters& p = uri.parameters;
        switch (below(3)) {
        case 0:
            p.kind = OtpKind::Totp;
            break;
        case 1:
            p.kind = OtpKind::Hotp;
            break;
        default:
            p = OtpParameters::steam();
            break;
        }
        if (p.kind != OtpKind::Steam) {
            p.algorithm = std::array{HashAlgorithm::Sha1, HashAlgorithm::Sha256,
                                     HashAlgorithm::Sha512}[below(3)];
            p.digits = minimumDigits + static_cast<int>(below(maximumDigits - minimumDigits + 1));
            p.period = below(4) == 0 ? static_cast<std::uint32_t>(engine() % 0xffffffffu) + 1u
                                     : std::array{30u, 60u, 1u}[below(3)];
            p.counter = below(2) == 0 ? engine() : below(100);
        }
        Bytes secret(1 + below(64));
        random.fill(secret);
        uri.secret = SecureBuffer(secret);

        uri.account = randomText(false, 6);
        if (below(3) != 0) {
            uri.labelIssuer = randomText(false, 4);
            // A reader drops spaces after "issuer:"; the formatter refuses them.
            const std::size_t firstNonSpace = uri.account.find_first_not_of(' ');
            uri.account.erase(0, firstNonSpace == std::string::npos ? uri.account.size()
                                                                    : firstNonSpace);
        }
        if (below(3) != 0)
            uri.issuerParameter =
                below(4) == 0 && uri.labelIssuer ? *uri.labelIssuer : randomText(true, 4);
        if (below(4) == 0)
            uri.image = std::string("https://example.com/").append(randomText(true, 3));
        const std::size_t extra = below(4);
        for (std::size_t i = 0; i < extra; ++i) {
            // Unique names that are not the known ones.
            std::string name = "x";
            name += std::to_string(i);
            name += randomText(true, 2);
            uri.unknownParameters.push_back({std::move(name), randomText(true, 3)});
        }

        const QString problem = roundTripProblem(uri);
        if (!problem.isEmpty())
            QFAIL(qPrintable(
                QStringLiteral("iteration %1 (replay with the printed WATCHWORD_TEST_SEED): %2")
                    .arg(iteration)
                    .arg(problem)));
        // The effective issuer follows the documented rule.
        const auto parsed = parseOtpauthUri(formatOtpauthUri(uri)->view());
        const std::string expectedIssuer = uri.issuerParameter && !uri.issuerParameter->empty()
                                               ? *uri.issuerParameter
                                               : uri.labelIssuer.value_or("");
        QCOMPARE(parsed->issuer(), expectedIssuer);
    }
}

void TestOtpauthUri::truncationsAndDeletions()
{
    QStringList uris;
    for (const auto v :
         test::loadJson(QStringLiteral("otpauth/uris.json"))[QStringLiteral("cases")].toArray()) {
        const auto o = v.toObject();
        if (o[QStringLiteral("valid")].toBool())
            uris << o[QStringLiteral("uri")].toString();
    }
    QCOMPARE(uris.size(), 21);
    uris << QStringLiteral("otpauth://steam/"
                           "Boeing:Sophia?secret=JRZCL47CMXVOQMNPZR2F7J4RGI&issuer=Boeing&"
                           "algorithm=SHA1&digits=5&period=30")
         << QStringLiteral("otpauth://totp/"
                           "Steam:gaben?secret=JRZCL47CMXVOQMNPZR2F7J4RGI&period=30&digits=5&"
                           "issuer=Steam&encoder=steam")
         << QStringLiteral("otpauth://hotp/"
                           "%E6%97%A5%3A%F0%9F%98%80?secret=GEZD+GNBV-GY3T%3D%3D%3D%3D&counter="
                           "18446744073709551615&digits=10&image=a%26b&z=%25&y=+");

    int accepted = 0;
    int rejected = 0;
    auto check = [&](const std::string& input) -> QString {
        const auto parsed = parseOtpauthUri(input);
        if (!parsed) {
            ++rejected;
            if (parsed.error().message.empty())
                return QStringLiteral("empty error message");
            return {};
        }
        ++accepted;
        // Accepted means usable and self-consistent.
        if (!OtpGenerator::create(parsed->parameters, parsed->secret).ok())
            return QStringLiteral("accepted but cannot generate codes");
        return roundTripProblem(*parsed);
    };
    for (const QString& uri : uris) {
        const std::string full = text(uri);
        for (std::size_t length = 0; length < full.size(); ++length) {
            const QString problem = check(full.substr(0, length));
            if (!problem.isEmpty())
                QFAIL(qPrintable(
                    QStringLiteral("prefix of %1 bytes of %2: %3").arg(length).arg(uri, problem)));
        }
        for (std::size_t at = 0; at < full.size(); ++at) {
            std::string deleted = full;
            deleted.erase(at, 1);
            const QString problem = check(deleted);
            if (!problem.isEmpty())
                QFAIL(qPrintable(
                    QStringLiteral("%1 without byte %2: %3").arg(uri).arg(at + 1).arg(problem)));
        }
    }
    // Both outcomes occur: the check is not vacuous.
    QVERIFY(accepted > 100);
    QVERIFY(rejected > 100);
    qInfo("truncations and deletions: %d accepted, %d rejected", accepted, rejected);
}

QTEST_APPLESS_MAIN(TestOtpauthUri)
#include "TestOtpauthUri.moc"
