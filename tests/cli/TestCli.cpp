// watchword-cli driven as a user drives it: the real binary, started with
// QProcess, standard input written by the test. Codes come from the RFC 4226
// and RFC 6238 tables, the extra OTP vectors and the Steam vectors in
// tests/data; keychain keys from tests/data/keychain/vectors.json. Bad input
// must give exit status 2, one "watchword-cli: " line on stderr and nothing on
// stdout, whatever the mistake. The vault commands have their own test,
// TestCliVault.
#include "CliTestSupport.h"
#include "common/TestSupport.h"
#include "encoding/Base32.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>
#include <algorithm>

using namespace watchword;
using namespace watchword::test;

namespace {

// A byte string literal with its embedded NULs, without the terminating one.
template <std::size_t size> QByteArray bytesOf(const char (&text)[size])
{
    return QByteArray(text, static_cast<qsizetype>(size - 1));
}

// actual has exactly the keys of expected, each with the same type and value.
void verifyJsonFields(const QJsonObject& actual, const QJsonObject& expected)
{
    QStringList actualKeys = actual.keys();
    QStringList expectedKeys = expected.keys();
    QCOMPARE(actualKeys, expectedKeys);
    for (const auto& key : expectedKeys) {
        QVERIFY2(
            actual.value(key) == expected.value(key),
            qPrintable(QStringLiteral("field %1: got %2, expected %3")
                           .arg(key, jsonText(actual.value(key)), jsonText(expected.value(key)))));
    }
}

QString base32(const QByteArray& bytes,
               encoding::Base32Padding padding = encoding::Base32Padding::Include)
{
    const auto text = encoding::toBase32(test::view(bytes), padding);
    return QString::fromLatin1(text.view().data(), static_cast<qsizetype>(text.size()));
}

QString unpadded(QString text)
{
    while (text.endsWith(QLatin1Char('=')))
        text.chop(1);
    return text;
}

// Lower case, in groups of four separated by spaces, no padding: how people
// type a secret they read off a screen.
QString grouped(const QString& text)
{
    const QString bare = unpadded(text).toLower();
    QStringList groups;
    for (qsizetype i = 0; i < bare.size(); i += 4)
        groups << bare.mid(i, 4);
    return groups.join(QLatin1Char(' '));
}

// ---- OTP code rows --------------------------------------------------------

struct OtpCase
{
    QString name;
    QString kind;      // "totp", "hotp" or "steam"
    QString algorithm; // "SHA1", "SHA256", "SHA512"
    int digits = 6;
    quint64 period = 30;
    QString secret; // upper-case Base32, possibly padded
    QString moment; // the Unix time (totp, steam) or the counter (hotp), decimal
    QString code;
};

enum class Mode {
    Options,     // --secret ... --at/--counter ...
    OptionsJson, // the same with --name=value spelling and --json
    SecretStdin, // --secret-stdin, the secret typed as people do
    Uri,         // the otpauth URI as the argument
    UriJson,     // the URI with --json
    UriStdin,    // "code -", the URI on stdin
};

const char* modeName(Mode mode)
{
    switch (mode) {
    case Mode::Options:
        return "options";
    case Mode::OptionsJson:
        return "options json";
    case Mode::SecretStdin:
        return "secret-stdin";
    case Mode::Uri:
        return "uri";
    case Mode::UriJson:
        return "uri json";
    case Mode::UriStdin:
        return "uri stdin";
    }
    return "";
}

const QList<Mode> allModes = {Mode::Options, Mode::OptionsJson, Mode::SecretStdin,
                              Mode::Uri,     Mode::UriJson,     Mode::UriStdin};

QString uriFor(const OtpCase& c, bool steamAsEncoder)
{
    const QString secret = unpadded(c.secret);
    if (c.kind == QLatin1String("steam")) {
        return steamAsEncoder
                   ? QStringLiteral(
                         "otpauth://totp/Steam:alice?secret=%1&issuer=Steam&encoder=steam")
                         .arg(secret)
                   : QStringLiteral("otpauth://steam/Steam:alice?secret=%1").arg(secret);
    }
    QString uri = QStringLiteral("otpauth://%1/Watchword%20Tests:alice@example.com?secret=%2"
                                 "&issuer=Watchword+Tests&algorithm=%3&digits=%4")
                      .arg(c.kind, secret, c.algorithm)
                      .arg(c.digits);
    if (c.kind == QLatin1String("hotp"))
        return uri + QStringLiteral("&counter=") + c.moment;
    return uri + QStringLiteral("&period=") + QString::number(c.period);
}

QJsonObject expectedJson(const OtpCase& c, bool fromUri)
{
    QJsonObject json{
        {"code", c.code}, {"type", c.kind}, {"algorithm", c.algorithm}, {"digits", c.digits}};
    if (c.kind == QLatin1String("hotp")) {
        const quint64 counter = c.moment.toULongLong();
        // Above 2^53 a JSON number is not exact in every reader: a string there.
        if (counter <= (quint64{1} << 53))
            json.insert(QStringLiteral("counter"), static_cast<qint64>(counter));
        else
            json.insert(QStringLiteral("counter"), c.moment);
    } else {
        const quint64 time = c.moment.toULongLong();
        json.insert(QStringLiteral("period"), static_cast<qint64>(c.period));
        json.insert(QStringLiteral("time"), static_cast<qint64>(time));
        json.insert(QStringLiteral("seconds_remaining"),
                    static_cast<qint64>(c.period - time % c.period));
    }
    if (fromUri) {
        const bool steam = c.kind == QLatin1String("steam");
        json.insert(QStringLiteral("issuer"),
                    steam ? QStringLiteral("Steam") : QStringLiteral("Watchword Tests"));
        json.insert(QStringLiteral("account"),
                    steam ? QStringLiteral("alice") : QStringLiteral("alice@example.com"));
    }
    return json;
}

void addCodeColumns()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QJsonObject>("json"); // empty: plain output expected
}

void addCodeRows(const OtpCase& c, const QList<Mode>& modes)
{
    const bool hotp = c.kind == QLatin1String("hotp");
    const bool steam = c.kind == QLatin1String("steam");
    for (const Mode mode : modes) {
        QStringList args{QStringLiteral("code")};
        QByteArray input;
        QJsonObject json;
        const bool equalsForm = mode == Mode::OptionsJson;
        auto option = [&](const char* name, const QString& value) {
            const QString flag = QStringLiteral("--") + QLatin1String(name);
            if (equalsForm)
                args << flag + QLatin1Char('=') + value;
            else
                args << flag << value;
        };
        switch (mode) {
        case Mode::Options:
        case Mode::OptionsJson:
        case Mode::SecretStdin:
            if (mode == Mode::SecretStdin) {
                args << QStringLiteral("--secret-stdin");
                input = grouped(c.secret).toLatin1() + '\n';
            } else {
                option("secret", mode == Mode::Options ? c.secret : c.secret.toLower());
            }
            if (hotp) {
                args << QStringLiteral("--hotp");
                option("counter", c.moment);
            } else {
                option("at", c.moment);
            }
            if (steam) {
                args << QStringLiteral("--steam");
            } else {
                option("algorithm", c.algorithm);
                option("digits", QString::number(c.digits));
                if (!hotp)
                    option("period", QString::number(c.period));
            }
            if (mode == Mode::OptionsJson) {
                args << QStringLiteral("--json");
                json = expectedJson(c, false);
            }
            break;
        case Mode::Uri:
        case Mode::UriJson:
        case Mode::UriStdin:
            if (!hotp)
                args << QStringLiteral("--at") << c.moment;
            if (mode == Mode::UriJson) {
                args << QStringLiteral("--json");
                json = expectedJson(c, true);
            }
            if (mode == Mode::UriStdin) {
                args << QStringLiteral("-");
                input = uriFor(c, false).toUtf8() + "\r\n";
            } else {
                args << uriFor(c, mode == Mode::UriJson);
            }
            break;
        }
        QTest::addRow("%s %s", qPrintable(c.name), modeName(mode))
            << args << input << c.code << json;
    }
}

// code with args: the outcome, less the warning code prints when the secret
// is on its command line, which must be there exactly when it is (--secret
// or an otpauth URI as an argument).
Outcome runCode(const QStringList& args, const QByteArray& input = {})
{
    Outcome outcome = runCli(args, input);
    const bool secretInArguments = std::any_of(args.begin(), args.end(), [](const QString& arg) {
        return arg == QStringLiteral("--secret") || arg.startsWith(QStringLiteral("--secret=")) ||
               arg.startsWith(QStringLiteral("otpauth"), Qt::CaseInsensitive);
    });
    const QByteArray warning = "watchword-cli: warning: the secret was given on the command line";
    if (outcome.exitCode == 0) {
        const bool warned = outcome.err.startsWith(warning) && outcome.err.count('\n') == 1;
        if (warned != secretInArguments)
            QTest::qFail(qPrintable("the command-line warning is wrong: " + describe(outcome)),
                         __FILE__, __LINE__);
        if (warned)
            outcome.err.clear();
    }
    return outcome;
}

void runCodeRow()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, input);
    QFETCH(QString, code);
    QFETCH(QJsonObject, json);
    const Outcome outcome = runCode(args, input);
    if (QTest::currentTestFailed())
        return;
    const QByteArray line = verifySuccessLine(outcome);
    if (QTest::currentTestFailed())
        return;
    if (json.isEmpty()) {
        QCOMPARE(QString::fromUtf8(line), code);
        return;
    }
    const QJsonObject actual = parseJsonObject(line);
    if (QTest::currentTestFailed())
        return;
    verifyJsonFields(actual, json);
}

QString hexToBase32(const QString& hex)
{
    return base32(QByteArray::fromHex(hex.toLatin1()));
}

QStringList wordlist()
{
    QFile file(QStringLiteral(WATCHWORD_WORDLIST));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("wordlist %s: %s", qPrintable(file.fileName()), qPrintable(file.errorString()));
    return QString::fromLatin1(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

const QString zeroMnemonic = QStringLiteral("abandon abandon abandon abandon abandon abandon "
                                            "abandon abandon abandon abandon abandon about");
const QString validSecret = QStringLiteral("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");

struct KeychainOutput
{
    QString mnemonic; // empty for show
    QString publicKey;
    int words = 0; // from --json
};

// Parses the output of keychain new/show in either format.
KeychainOutput parseKeychainOutput(const Outcome& outcome, bool json, bool withMnemonic)
{
    KeychainOutput result;
    [&] {
        QVERIFY2(outcome.exitCode == 0, qPrintable(describe(outcome)));
        QVERIFY2(outcome.err.isEmpty(), qPrintable(describe(outcome)));
        const QList<QByteArray> lines = outcome.out.split('\n');
        if (json) {
            QCOMPARE(lines.size(), 2); // one line and the empty rest after its '\n'
            QVERIFY(lines[1].isEmpty());
            const QJsonObject object = parseJsonObject(lines[0]);
            if (QTest::currentTestFailed())
                return;
            QStringList expectedKeys{QStringLiteral("identity_public_key")};
            if (withMnemonic)
                expectedKeys << QStringLiteral("mnemonic") << QStringLiteral("words");
            expectedKeys.sort();
            QCOMPARE(object.keys(), expectedKeys);
            QVERIFY(object.value(QStringLiteral("identity_public_key")).isString());
            result.publicKey = object.value(QStringLiteral("identity_public_key")).toString();
            if (withMnemonic) {
                QVERIFY(object.value(QStringLiteral("mnemonic")).isString());
                QVERIFY(object.value(QStringLiteral("words")).isDouble());
                result.mnemonic = object.value(QStringLiteral("mnemonic")).toString();
                result.words = object.value(QStringLiteral("words")).toInt();
            }
        } else {
            QCOMPARE(lines.size(), withMnemonic ? 3 : 2);
            QVERIFY(lines.last().isEmpty());
            const QByteArray keyPrefix = "identity public key: ";
            const QByteArray& keyLine = lines[withMnemonic ? 1 : 0];
            QVERIFY2(keyLine.startsWith(keyPrefix), keyLine.constData());
            result.publicKey = QString::fromLatin1(keyLine.mid(keyPrefix.size()));
            if (withMnemonic) {
                const QByteArray mnemonicPrefix = "mnemonic: ";
                QVERIFY2(lines[0].startsWith(mnemonicPrefix), lines[0].constData());
                result.mnemonic = QString::fromUtf8(lines[0].mid(mnemonicPrefix.size()));
            }
        }
        static const QRegularExpression compressedKey(QStringLiteral("^0[23][0-9a-f]{64}$"));
        QVERIFY2(compressedKey.match(result.publicKey).hasMatch(), qPrintable(result.publicKey));
    }();
    return result;
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void totpRfc6238_data();
    void totpRfc6238() { runCodeRow(); }
    void hotpRfc4226_data();
    void hotpRfc4226() { runCodeRow(); }
    void otpExtraVectors_data();
    void otpExtraVectors() { runCodeRow(); }
    void steam_data();
    void steam() { runCodeRow(); }
    void lenientInput_data();
    void lenientInput() { runCodeRow(); }
    void codeWithoutAtUsesNow();

    void badInput_data();
    void badInput();

    void keychainNewRoundTrip_data();
    void keychainNewRoundTrip();
    void keychainNewIsRandom();
    void keychainVectors_data();
    void keychainVectors();
    void keychainAcceptsBip39Vectors_data();
    void keychainAcceptsBip39Vectors();
    void keychainPassphraseNormalization_data();
    void keychainPassphraseNormalization();
    void keychainRejectsInvalidUtf8Passphrase_data();
    void keychainRejectsInvalidUtf8Passphrase();
    void keychainPassphraseLeadingByteOrderMark();
    void writeErrorIsReported_data();
    void writeErrorIsReported();

    void selfTest();
    void selfTestJson();
    void help_data();
    void help();
    void version();
};

void TestCli::initTestCase()
{
    QVERIFY2(QFile::exists(cliPath), qPrintable(cliPath));
}

// ---- codes ----------------------------------------------------------------

void TestCli::totpRfc6238_data()
{
    addCodeColumns();
    const QJsonObject file = test::loadJson(QStringLiteral("rfc/rfc6238_totp.json"));
    const QJsonObject seeds = file[QStringLiteral("seeds")].toObject();
    int vectors = 0;
    for (const auto value : file[QStringLiteral("vectors")].toArray()) {
        const QJsonObject v = value.toObject();
        const QString algorithm = v[QStringLiteral("algorithm")].toString();
        OtpCase c;
        c.kind = QStringLiteral("totp");
        c.algorithm = algorithm;
        c.digits = file[QStringLiteral("digits")].toInt();
        c.period = static_cast<quint64>(file[QStringLiteral("period")].toInteger());
        c.secret = seeds[algorithm].toObject()[QStringLiteral("base32")].toString();
        c.moment = QString::number(v[QStringLiteral("time")].toInteger());
        c.code = v[QStringLiteral("totp")].toString();
        c.name = QStringLiteral("%1 t=%2").arg(algorithm, c.moment);
        addCodeRows(c, allModes);
        ++vectors;
    }
    QCOMPARE(vectors, 18);
}

void TestCli::hotpRfc4226_data()
{
    addCodeColumns();
    const QJsonObject file = test::loadJson(QStringLiteral("rfc/rfc4226_hotp.json"));
    int vectors = 0;
    for (const auto value : file[QStringLiteral("vectors")].toArray()) {
        const QJsonObject v = value.toObject();
        const qint64 truncated = v[QStringLiteral("truncated_dec")].toInteger();
        // The RFC table is 6 digits; the truncated value gives the other lengths
        // (RFC 4226 section 5.3: Snum mod 10^Digit).
        for (int digits = 6; digits <= 10; ++digits) {
            OtpCase c;
            c.kind = QStringLiteral("hotp");
            c.algorithm = QStringLiteral("SHA1");
            c.digits = digits;
            c.secret = file[QStringLiteral("secret_base32")].toString();
            c.moment = QString::number(v[QStringLiteral("counter")].toInteger());
            qint64 modulus = 1;
            for (int i = 0; i < digits; ++i)
                modulus *= 10;
            c.code = QStringLiteral("%1").arg(truncated % modulus, digits, 10, QLatin1Char('0'));
            if (digits == 6)
                QCOMPARE(c.code, v[QStringLiteral("hotp")].toString());
            c.name = QStringLiteral("counter %1 digits %2").arg(c.moment).arg(digits);
            addCodeRows(c, digits == 6 ? allModes : QList<Mode>{Mode::Options, Mode::UriJson});
        }
        ++vectors;
    }
    QCOMPARE(vectors, 10);
}

void TestCli::otpExtraVectors_data()
{
    addCodeColumns();
    const QJsonObject file = test::loadJson(QStringLiteral("otp/hotp_totp_extra.json"));
    const QJsonObject seeds = file[QStringLiteral("seeds")].toObject();
    auto secretOf = [&](const QString& algorithm) {
        return base32(seeds[algorithm].toObject()[QStringLiteral("ascii")].toString().toLatin1());
    };
    int rows = 0;
    for (const char* kind : {"hotp", "totp"}) {
        for (const auto value : file[QLatin1String(kind)].toArray()) {
            const QJsonObject v = value.toObject();
            OtpCase c;
            c.kind = QLatin1String(kind);
            c.algorithm = v[QStringLiteral("algorithm")].toString();
            c.digits = v[QStringLiteral("digits")].toInt();
            c.secret = secretOf(c.algorithm);
            c.code = v[QStringLiteral("code")].toString();
            if (c.kind == QLatin1String("hotp")) {
                c.moment = v[QStringLiteral("counter")].toString();
                c.name = QStringLiteral("hotp %1 counter %2 digits %3")
                             .arg(c.algorithm, c.moment)
                             .arg(c.digits);
            } else {
                c.period = static_cast<quint64>(v[QStringLiteral("period")].toInteger());
                c.moment = v[QStringLiteral("time")].toString();
                c.name = QStringLiteral("totp %1 period %2 t=%3 digits %4")
                             .arg(c.algorithm)
                             .arg(c.period)
                             .arg(c.moment)
                             .arg(c.digits);
            }
            // Every vector once through the options (with JSON) and once as a
            // URI on stdin: the RFC tests above already cover every mode.
            addCodeRows(c, {Mode::OptionsJson, Mode::UriStdin});
            ++rows;
        }
    }
    QCOMPARE(rows, 165 + 144);
}

void TestCli::steam_data()
{
    addCodeColumns();
    const QJsonObject file = test::loadJson(QStringLiteral("otp/steam_codes.json"));
    const QJsonObject secrets = file[QStringLiteral("secrets")].toObject();
    int vectors = 0;
    for (const auto value : file[QStringLiteral("vectors")].toArray()) {
        const QJsonObject v = value.toObject();
        OtpCase c;
        c.kind = QStringLiteral("steam");
        c.algorithm = QStringLiteral("SHA1");
        c.digits = 5;
        c.period = 30;
        const QString secretId = v[QStringLiteral("secret_id")].toString();
        const QJsonObject secret = secrets[secretId].toObject();
        c.secret = secret[QStringLiteral("base32")].toString();
        QCOMPARE(hexToBase32(secret[QStringLiteral("hex")].toString()).remove(QLatin1Char('=')),
                 c.secret);
        c.moment = QString::number(v[QStringLiteral("time")].toInteger());
        c.code = v[QStringLiteral("code")].toString();
        c.name = QStringLiteral("%1 t=%2").arg(secretId, c.moment);
        addCodeRows(c, allModes);
        ++vectors;
    }
    QCOMPARE(vectors, 36);
}

void TestCli::lenientInput_data()
{
    // Spellings a user or an exporter produces, all of the RFC 6238 SHA-1 seed
    // at t = 59 (94287082 with 8 digits, 287082 with 6).
    addCodeColumns();
    const QString at = QStringLiteral("59");
    auto row = [](const char* name, const QStringList& args, const QByteArray& input,
                  const char* code) {
        QTest::newRow(name) << args << input << QString::fromLatin1(code) << QJsonObject();
    };
    const QStringList base{QStringLiteral("code"), QStringLiteral("--at"), at};
    row("secret lower case", base + QStringList{"--secret", validSecret.toLower()}, {}, "287082");
    row("secret in groups",
        base + QStringList{"--secret", "GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ"}, {}, "287082");
    row("secret with hyphens",
        base + QStringList{"--secret", "GEZD-GNBV-GY3T-QOJQ-GEZD-GNBV-GY3T-QOJQ"}, {}, "287082");
    row("algorithm lower case", base + QStringList{"--secret", validSecret, "--algorithm", "sha1"},
        {}, "287082");
    row("default 6 digits, 30 s, SHA1", base + QStringList{"--secret", validSecret}, {}, "287082");
    row("options after the secret",
        QStringList{"code", "--secret", validSecret, "--digits", "8", "--at", at}, {}, "94287082");
    row("URI after --",
        base + QStringList{"--", "otpauth://totp/a?secret=" + validSecret + "&digits=8"}, {},
        "94287082");
    row("secret-stdin without line end", base + QStringList{"--secret-stdin"},
        validSecret.toLatin1(), "287082");
    row("secret-stdin CRLF", base + QStringList{"--secret-stdin"}, validSecret.toLatin1() + "\r\n",
        "287082");
    row("secret-stdin later lines ignored", base + QStringList{"--secret-stdin"},
        validSecret.toLatin1() + "\nnot base32!\n", "287082");
    row("uri stdin with surrounding spaces", base + QStringList{"-"},
        "  otpauth://totp/a?secret=" + validSecret.toLatin1() + "&digits=8  \n", "94287082");
    row("uri stdin without line end", base + QStringList{"-"},
        "otpauth://totp/a?secret=" + validSecret.toLatin1() + "&digits=8", "94287082");
    row("uri upper-case scheme and type",
        base + QStringList{"OTPAUTH://TOTP/a?secret=" + validSecret + "&digits=8"}, {}, "94287082");
}

void TestCli::codeWithoutAtUsesNow()
{
    const qint64 before = QDateTime::currentSecsSinceEpoch();
    const Outcome outcome = runCode({"code", "--json", "--secret", validSecret});
    const qint64 after = QDateTime::currentSecsSinceEpoch();
    const QByteArray line = verifySuccessLine(outcome);
    if (QTest::currentTestFailed())
        return;
    const QJsonObject json = parseJsonObject(line);
    if (QTest::currentTestFailed())
        return;
    const qint64 time = json.value(QStringLiteral("time")).toInteger(-1);
    QVERIFY2(before <= time && time <= after, qPrintable(describe(outcome)));
    // The code printed is the one for that time.
    const Outcome fixed = runCode({"code", "--at", QString::number(time), "--secret", validSecret});
    QCOMPARE(verifySuccessLine(fixed), json.value(QStringLiteral("code")).toString().toLatin1());
}

// ---- bad input ------------------------------------------------------------

void TestCli::badInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("secret"); // must not appear in the message; may be empty

    const QString s = validSecret;
    const QByteArray phrase = zeroMnemonic.toLatin1();
    auto row = [](const QString& name, const QStringList& args, const QByteArray& input = {},
                  const QByteArray& secret = {}) {
        QTest::newRow(qPrintable(name)) << args << input << secret;
    };
    auto code = [&](const QString& name, const QStringList& more, const QByteArray& input = {}) {
        row(name, QStringList{"code"} + more, input);
    };

    // Commands.
    row("no command", {});
    row("unknown command", {"frobnicate"});
    row("unknown command that looks like an option", {"--frobnicate"});
    row("command in upper case", {"CODE", "--secret", s});

    // The option parser.
    code("unknown option", {"--frob", "--secret", s});
    code("unknown option with value", {"--frob=1", "--secret", s});
    code("single-dash option", {"-a", "59", "--secret", s});
    code("missing value --at", {"--secret", s, "--at"});
    code("missing value --secret", {"--secret"});
    code("missing value --digits", {"--secret", s, "--digits"});
    code("missing value --algorithm", {"--secret", s, "--algorithm"});
    code("missing value --period", {"--secret", s, "--period"});
    code("missing value --counter", {"--secret", s, "--hotp", "--counter"});
    // The next option taken as the value: "--steam" and "--json" read as the
    // Base32 secrets "STEAM" and "JSON".
    code("missing value --secret before --steam", {"--at", "59", "--secret", "--steam"});
    code("missing value --secret before --json", {"--at", "59", "--secret", "--json"});
    code("duplicate --at", {"--at", "1", "--at", "2", "--secret", s});
    code("duplicate --at, same value", {"--at", "1", "--at=1", "--secret", s});
    code("duplicate --secret", {"--secret", s, "--secret", s});
    code("duplicate --digits", {"--secret", s, "--digits", "6", "--digits", "8"});
    code("duplicate --json", {"--json", "--json", "--secret", s});
    code("value given to --json", {"--json=1", "--secret", s});
    code("value given to --hotp", {"--hotp=yes", "--counter", "1", "--secret", s});
    code("value given to --steam", {"--steam=1", "--secret", s});

    // --at.
    for (const char* bad : {"abc", "", "1.5", "1e9", "+5", " 5", "5 ", "0x10", "5s",
                            "9223372036854775808", "99999999999999999999"})
        code(QStringLiteral("bad --at '%1'").arg(QLatin1String(bad)),
             {"--at", QLatin1String(bad), "--secret", s});
    code("negative --at", {"--at", "-1", "--secret", s});
    code("negative --at, equals form", {"--at=-30", "--secret", s});
    code("negative --at, minimum", {"--at", "-9223372036854775808", "--secret", s});

    // --digits, --period, --algorithm.
    for (const char* bad : {"5", "11", "abc", "0", "-6", "6.0", "", "1000000000000000000000"})
        code(QStringLiteral("--digits '%1'").arg(QLatin1String(bad)),
             {"--digits", QLatin1String(bad), "--secret", s});
    code("--digits 5 with --hotp", {"--hotp", "--counter", "1", "--digits", "5", "--secret", s});
    for (const char* bad : {"0", "-30", "4294967296", "abc", "", "30s"})
        code(QStringLiteral("--period '%1'").arg(QLatin1String(bad)),
             {"--period", QLatin1String(bad), "--secret", s});
    for (const char* bad : {"MD5", "", "SHA3-256", "SHA-1 ", "SHA224"})
        code(QStringLiteral("--algorithm '%1'").arg(QLatin1String(bad)),
             {"--algorithm", QLatin1String(bad), "--secret", s});

    // HOTP, Steam and their exclusions.
    code("--counter without --hotp", {"--counter", "1", "--secret", s});
    code("--hotp without --counter", {"--hotp", "--secret", s});
    for (const char* bad : {"-1", "18446744073709551616", "abc", "", "+1", "1.0"})
        code(QStringLiteral("--counter '%1'").arg(QLatin1String(bad)),
             {"--hotp", "--counter", QLatin1String(bad), "--secret", s});
    code("--hotp with --period", {"--hotp", "--counter", "1", "--period", "30", "--secret", s});
    code("--hotp with --at", {"--hotp", "--counter", "1", "--at", "59", "--secret", s});
    code("--steam with --digits", {"--steam", "--digits", "5", "--secret", s});
    code("--steam with --digits 6", {"--steam", "--digits", "6", "--secret", s});
    code("--steam with --algorithm", {"--steam", "--algorithm", "SHA1", "--secret", s});
    code("--steam with --period", {"--steam", "--period", "30", "--secret", s});
    code("--steam with --hotp", {"--steam", "--hotp", "--counter", "1", "--secret", s});

    // Where the account comes from.
    const QString uri = QStringLiteral("otpauth://totp/a?secret=") + s;
    const QString hotpUri =
        QStringLiteral("otpauth://hotp/a?secret=") + s + QStringLiteral("&counter=1");
    code("no account", {});
    code("no account, only --at", {"--at", "59"});
    code("URI plus --secret", {uri, "--secret", s});
    code("URI plus --secret-stdin", {uri, "--secret-stdin"}, s.toLatin1() + '\n');
    code("two URIs", {uri, uri});
    code("URI and -", {uri, "-"}, uri.toLatin1() + '\n');
    code("--secret and --secret-stdin", {"--secret", s, "--secret-stdin"}, s.toLatin1() + '\n');
    for (const char* option : {"--hotp", "--steam"})
        code(QStringLiteral("URI with %1").arg(QLatin1String(option)),
             {uri, QLatin1String(option)});
    for (const char* option : {"--digits", "--algorithm", "--period", "--counter"})
        code(QStringLiteral("URI with %1").arg(QLatin1String(option)),
             {uri, QLatin1String(option),
              QLatin1String(option) == QLatin1String("--algorithm") ? "SHA1" : "8"});
    code("hotp URI with --at", {"--at", "59", hotpUri});
    code("hotp URI on stdin with --at", {"--at", "59", "-"}, hotpUri.toLatin1() + '\n');

    // Secrets that are not Base32 (or are empty). The message may point at a
    // position but must not repeat the secret.
    const char* badSecrets[] = {
        "GEZDGNBVGY3TQOJ1GEZDGNBVGY3TQOJQ", // '1' is not Base32
        "GEZDGNBVGY3TQOJ0GEZDGNBVGY3TQOJQ", // '0'
        "GEZDGNBVGY3TQOJ8GEZDGNBVGY3TQOJQ", // '8'
        "GEZDGNBVGY3TQOJQ!",
        "GEZDGNBV_GY3TQOJQ",
        "GEZDGNBV.GY3TQOJQ",
        "GEZDGNBV\tGY3TQOJQ",
        "GEZDGNBVGY3TQOJQ\xc3\xa9",  // a non-ASCII letter
        "GEZD=GNBVGY3TQOJQ",         // padding in the middle
        "GEZDGNBVGY3TQOJQGE=ZDGNBV", // a symbol after padding
        "GEZDGNBVGY3TQOJQGEZD=",     // 4 symbols + 1 '=': padding must fill the group
        "GEZDGNBVGY3TQOJQGEZDGNB==", // 7 symbols + 2 '=': one too many
        "GEZDGNBVGY3TQOJQGEZ=====",  // 3 symbols: no byte count encodes to that
        "GEZDGNBVGY3TQOJQG",         // 1 symbol in the last group
        "GEZDGNBVGY3TQOJQGEZDGN",    // 6 symbols in the last group
        "",
        "   ",
        "========",
        "-",
    };
    for (const char* bad : badSecrets) {
        const QByteArray secret(bad);
        const QByteArray forbidden = secret.size() >= 16 ? secret : QByteArray();
        row(QStringLiteral("bad secret '%1'").arg(QString::fromUtf8(secret)),
            {"code", "--at", "59", "--secret", QString::fromUtf8(secret)}, {}, forbidden);
        row(QStringLiteral("bad secret on stdin '%1'").arg(QString::fromUtf8(secret)),
            {"code", "--at", "59", "--secret-stdin"}, secret + '\n', forbidden);
    }

    // Standard input.
    code("- with empty stdin", {"-"});
    code("- with an empty line", {"-"}, "\n");
    code("--secret-stdin with empty stdin", {"--secret-stdin"});
    code("--secret-stdin with an empty line", {"--secret-stdin"}, "\n");
    code("- with a NUL byte", {"-"}, bytesOf("otpauth://totp/a?secret=GEZD\0GNBV\n"));
    code("--secret-stdin with a NUL byte", {"--secret-stdin"}, bytesOf("GEZD\0GNBV\n"));
    code("- with more than 64 KiB", {"-"},
         uri.toLatin1() + "&x=" + QByteArray(70 * 1024, 'a') + '\n');
    code("- with a secret, not a URI", {"-"}, s.toLatin1() + '\n');
    code("- with the URI on the second line", {"-"}, "\n" + uri.toLatin1() + '\n');

    // Every invalid case of the otpauth corpus, as the argument and on stdin.
    int invalidUris = 0;
    for (const auto value :
         test::loadJson(QStringLiteral("otpauth/uris.json"))[QStringLiteral("cases")].toArray()) {
        const QJsonObject c = value.toObject();
        if (c[QStringLiteral("valid")].toBool())
            continue;
        const QString id = c[QStringLiteral("id")].toString();
        const QString text = c[QStringLiteral("uri")].toString();
        row(QStringLiteral("uri %1").arg(id), {"code", "--at", "59", text});
        row(QStringLiteral("uri stdin %1").arg(id), {"code", "--at", "59", "-"},
            text.toUtf8() + '\n');
        ++invalidUris;
    }
    QCOMPARE(invalidUris, 19);
    // And some more that a user could paste.
    for (const char* bad :
         {"otpauth://totp/a?secret="
          "GEZDGNBVGY3TQOJQ#frag",
          "otpauth://totp/a?secret=GEZD%G0", "otpauth://totp/a?secret=GEZDGNBVGY3TQOJQ&digits=11",
          "otpauth://totp/a?secret=GEZDGNBVGY3TQOJQ&period=4294967296",
          "otpauth://hotp/a?secret=GEZDGNBVGY3TQOJQ&counter=18446744073709551616",
          "otpauth://steam/a?secret=GEZDGNBVGY3TQOJQ&digits=6",
          "otpauth://totp/a?secret=GEZDGNBVGY3TQOJQ&encoder=other", "otpauth://totp", "otpauth://",
          "not a uri", "otpauth://totp/a?secret=GEZD\x01GNBV"})
        row(QStringLiteral("uri '%1'").arg(QLatin1String(bad)),
            {"code", "--at", "59", QLatin1String(bad)});

    // Keychain.
    const QStringList show{"keychain", "show", "--mnemonic-stdin"};
    auto replaced = [&](int index, const char* word) {
        QStringList words = zeroMnemonic.split(QLatin1Char(' '));
        words[index] = QLatin1String(word);
        return words.join(QLatin1Char(' ')).toLatin1();
    };
    row("keychain without subcommand", {"keychain"});
    row("keychain unknown subcommand", {"keychain", "open"});
    row("keychain show without --mnemonic-stdin", {"keychain", "show"}, phrase + '\n');
    row("keychain show with the phrase as arguments",
        QStringList{"keychain", "show"} + zeroMnemonic.split(' '), {}, phrase);
    row("keychain show unknown option", show + QStringList{"--frob"}, phrase + '\n');
    row("keychain show --json=1", show + QStringList{"--json=1"}, phrase + '\n');
    row("keychain show duplicate --mnemonic-stdin", show + QStringList{"--mnemonic-stdin"},
        phrase + '\n');
    row("keychain show empty stdin", show);
    row("keychain show empty first line", show, "\nTREZOR\n");
    row("keychain show wrong checksum", show, replaced(11, "zoo") + '\n');
    row("keychain show wrong checksum, words swapped", show,
        "about abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
        "abandon\n");
    row("keychain show unknown word", show, replaced(3, "bitcoin") + '\n');
    row("keychain show word with a digit", show, replaced(3, "aband0n") + '\n');
    row("keychain show 11 words", show, phrase.left(phrase.lastIndexOf(' ')) + '\n');
    row("keychain show 13 words", show, phrase + " abandon\n");
    row("keychain show 25 words", show, QByteArray("abandon ").repeated(23) + "art abandon\n");
    row("keychain show one word", show, "abandon\n");
    row("keychain show invalid UTF-8 in the phrase", show, replaced(3, "aband\xff") + '\n');
    row("keychain show NUL in the phrase", show, bytesOf("abandon\0abandon\n"));
    row("keychain new --words 13", {"keychain", "new", "--words", "13"});
    for (const char* bad :
         {"0", "11", "25", "abc", "", "-12", "+12", "12.0", "99999999999999999999"})
        row(QStringLiteral("keychain new --words '%1'").arg(QLatin1String(bad)),
            {"keychain", "new", "--words", QLatin1String(bad)});
    row("keychain new missing --words value", {"keychain", "new", "--words"});
    row("keychain new duplicate --words", {"keychain", "new", "--words", "12", "--words", "24"});
    row("keychain new an argument", {"keychain", "new", "12"});
    row("keychain new unknown option", {"keychain", "new", "--mnemonic-stdin"});
    row("keychain new invalid UTF-8 passphrase", {"keychain", "new", "--passphrase-stdin"},
        "p\xe4ss\n");
    row("keychain new --passphrase-stdin with empty stdin",
        {"keychain", "new", "--passphrase-stdin"});
    row("keychain show three lines", show,
        "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
        "about\n"
        "TREZOR\nextra\n");

    // Self-test.
    row("selftest argument", {"selftest", "now"});
    row("selftest unknown option", {"selftest", "--verbose"});
    row("selftest --json=1", {"selftest", "--json=1"});
}

void TestCli::badInput()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, secret);
    const Outcome outcome = runCli(args, input);
    if (QTest::currentTestFailed())
        return;
    verifyUsageError(outcome);
    if (!secret.isEmpty())
        QVERIFY2(!outcome.err.contains(secret), qPrintable(describe(outcome)));
}

// ---- keychain -------------------------------------------------------------

void TestCli::keychainNewRoundTrip_data()
{
    QTest::addColumn<QString>("words"); // empty: the default
    QTest::addColumn<bool>("json");
    QTest::addColumn<QByteArray>("passphrase"); // empty: none
    for (const char* words : {"", "12", "15", "18", "21", "24"}) {
        for (const bool json : {false, true})
            QTest::addRow("words '%s'%s", words, json ? " json" : "")
                << QString::fromLatin1(words) << json << QByteArray();
    }
    QTest::newRow("12 words, passphrase")
        << QStringLiteral("12") << false << QByteArray("correct horse");
    QTest::newRow("24 words, non-ASCII passphrase, json")
        << QStringLiteral("24") << true << QByteArray("p\xc3\xa4ss \xe2\x82\xac");
    QTest::newRow("15 words, passphrase of spaces")
        << QStringLiteral("15") << true << QByteArray("  ");
}

void TestCli::keychainNewRoundTrip()
{
    QFETCH(QString, words);
    QFETCH(bool, json);
    QFETCH(QByteArray, passphrase);
    QStringList args{"keychain", "new"};
    if (!words.isEmpty())
        args << QStringLiteral("--words") << words;
    if (json)
        args << QStringLiteral("--json");
    if (!passphrase.isEmpty())
        args << QStringLiteral("--passphrase-stdin");
    const Outcome created = runCli(args, passphrase.isEmpty() ? QByteArray() : passphrase + '\n');
    if (QTest::currentTestFailed())
        return;
    const KeychainOutput made = parseKeychainOutput(created, json, true);
    if (QTest::currentTestFailed())
        return;

    const int expectedWords = words.isEmpty() ? 24 : words.toInt();
    const QStringList phraseWords = made.mnemonic.split(QLatin1Char(' '));
    QCOMPARE(phraseWords.size(), expectedWords);
    if (json)
        QCOMPARE(made.words, expectedWords);
    static const QSet<QString> known = [] {
        const QStringList list = wordlist();
        return QSet<QString>(list.begin(), list.end());
    }();
    QCOMPARE(known.size(), 2048);
    for (const auto& word : phraseWords)
        QVERIFY2(known.contains(word), qPrintable(word));

    // The phrase (and passphrase) map back to the same key, in both formats.
    QByteArray input = made.mnemonic.toUtf8() + '\n';
    if (!passphrase.isEmpty())
        input += passphrase + '\n';
    for (const bool showJson : {false, true}) {
        QStringList showArgs{"keychain", "show", "--mnemonic-stdin"};
        if (showJson)
            showArgs << QStringLiteral("--json");
        const KeychainOutput shown = parseKeychainOutput(runCli(showArgs, input), showJson, false);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(shown.publicKey, made.publicKey);
    }
    if (!passphrase.isEmpty()) {
        // Without the passphrase, another key: the passphrase was used.
        const KeychainOutput bare = parseKeychainOutput(
            runCli({"keychain", "show", "--mnemonic-stdin"}, made.mnemonic.toUtf8() + '\n'), false,
            false);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(bare.publicKey != made.publicKey);
    }
}

void TestCli::keychainNewIsRandom()
{
    const KeychainOutput first =
        parseKeychainOutput(runCli({"keychain", "new", "--json"}), true, true);
    if (QTest::currentTestFailed())
        return;
    const KeychainOutput second =
        parseKeychainOutput(runCli({"keychain", "new", "--json"}), true, true);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(first.mnemonic != second.mnemonic);
    QVERIFY(first.publicKey != second.publicKey);
}

void TestCli::keychainVectors_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<bool>("json");
    QTest::addColumn<QString>("publicKey");
    int vectors = 0;
    for (const auto value :
         test::loadJson(QStringLiteral("keychain/vectors.json"))[QStringLiteral("vectors")]
             .toArray()) {
        const QJsonObject v = value.toObject();
        const QString name = v[QStringLiteral("name")].toString();
        const QByteArray mnemonic = v[QStringLiteral("mnemonic")].toString().toUtf8();
        const QByteArray passphrase =
            QByteArray::fromHex(v[QStringLiteral("passphrase_utf8")].toString().toLatin1());
        const QString key = v[QStringLiteral("identity_public_key")].toString();
        const QByteArray input =
            passphrase.isEmpty() ? mnemonic + '\n' : mnemonic + '\n' + passphrase + '\n';
        QTest::addRow("%s", qPrintable(name)) << input << false << key;
        QTest::addRow("%s, json", qPrintable(name)) << input << true << key;
        if (passphrase.isEmpty()) {
            // An empty second line is the empty passphrase.
            QTest::addRow("%s, empty second line", qPrintable(name)) << mnemonic + "\n\n"
                                                                     << false << key;
        } else {
            // CRLF line ends are not part of the passphrase.
            QTest::addRow("%s, CRLF", qPrintable(name)) << mnemonic + "\r\n" + passphrase + "\r\n"
                                                        << false << key;
        }
        // The phrase as typed: upper case, extra spaces; no line end at all.
        QTest::addRow("%s, typed loosely", qPrintable(name))
            << "  " + mnemonic.toUpper().replace(' ', "   ") + " \n" + passphrase << true << key;
        ++vectors;
    }
    QCOMPARE(vectors, 6);
}

void TestCli::keychainVectors()
{
    QFETCH(QByteArray, input);
    QFETCH(bool, json);
    QFETCH(QString, publicKey);
    QStringList args{"keychain", "show", "--mnemonic-stdin"};
    if (json)
        args << QStringLiteral("--json");
    const KeychainOutput shown = parseKeychainOutput(runCli(args, input), json, false);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(shown.publicKey, publicKey);
}

void TestCli::keychainAcceptsBip39Vectors_data()
{
    // The official English BIP39 vectors carry no Watchword key; they check
    // that every valid phrase is accepted, and that its passphrase matters.
    QTest::addColumn<QByteArray>("mnemonic");
    int vectors = 0;
    for (const auto value :
         test::loadJson(QStringLiteral("bip39/vectors.json"))[QStringLiteral("english")]
             .toArray()) {
        const QByteArray mnemonic = value.toArray().at(1).toString().toUtf8();
        QTest::addRow("vector %d", vectors) << mnemonic;
        ++vectors;
    }
    QCOMPARE(vectors, 24);
}

void TestCli::keychainAcceptsBip39Vectors()
{
    QFETCH(QByteArray, mnemonic);
    const QStringList args{"keychain", "show", "--mnemonic-stdin"};
    const KeychainOutput withPassphrase =
        parseKeychainOutput(runCli(args, mnemonic + "\nTREZOR\n"), false, false);
    if (QTest::currentTestFailed())
        return;
    const KeychainOutput without = parseKeychainOutput(runCli(args, mnemonic + '\n'), false, false);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(withPassphrase.publicKey != without.publicKey);
}

void TestCli::keychainPassphraseNormalization_data()
{
    // BIP39 normalizes the passphrase to NFKD: canonically and compatibly
    // equivalent spellings are one passphrase.
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("publicKey");

    // From keychain/vectors.json, "21 words, non-ASCII passphrase (NFKD)":
    // "Gru\u0308\u00dfe, \u00c6r\u00f8sk\u00f8bing 1\u20442" in NFKD.
    QJsonObject vector;
    for (const auto value :
         test::loadJson(QStringLiteral("keychain/vectors.json"))[QStringLiteral("vectors")]
             .toArray()) {
        if (value.toObject()[QStringLiteral("name")].toString().contains(
                QLatin1String("non-ASCII")))
            vector = value.toObject();
    }
    QVERIFY(!vector.isEmpty());
    const QByteArray mnemonic = vector[QStringLiteral("mnemonic")].toString().toUtf8() + '\n';
    const QString key = vector[QStringLiteral("identity_public_key")].toString();
    const QByteArray nfkd =
        QByteArray::fromHex(vector[QStringLiteral("passphrase_utf8")].toString().toLatin1());
    QCOMPARE(nfkd, QByteArray("Gru\xcc\x88\xc3\x9f"
                              "e, \xc3\x86r\xc3\xb8sk\xc3\xb8"
                              "bing 1\xe2\x81\x84"
                              "2"));
    QTest::newRow("NFKD (as in the vector)") << mnemonic + nfkd << key;
    QTest::newRow("NFC") << mnemonic + "Gr\xc3\xbc\xc3\x9f"
                                       "e, \xc3\x86r\xc3\xb8sk\xc3\xb8"
                                       "bing 1\xe2\x81\x84"
                                       "2"
                         << key;
    QTest::newRow("NFC, one-half sign") << mnemonic + "Gr\xc3\xbc\xc3\x9f"
                                                      "e, \xc3\x86r\xc3\xb8sk\xc3\xb8"
                                                      "bing \xc2\xbd"
                                        << key;
    QTest::newRow("NFD, one-half sign") << mnemonic + "Gru\xcc\x88\xc3\x9f"
                                                      "e, \xc3\x86r\xc3\xb8sk\xc3\xb8"
                                                      "bing \xc2\xbd"
                                        << key;

    // "\u00e9" and "e\u0301" with the 12-word zero phrase. The key was computed
    // independently (Python hashlib PBKDF2/HMAC and python3-cryptography's
    // secp256k1, as tests/data/keychain/generate_vectors.py does).
    const QByteArray zero = zeroMnemonic.toLatin1() + '\n';
    const QString eAcuteKey =
        QStringLiteral("02f487096f458a20141fabab3d34c959fddf17a5d2e811dfe70f559b955f0305f0");
    QTest::newRow("e acute, NFC") << zero + "\xc3\xa9" << eAcuteKey;
    QTest::newRow("e acute, NFD") << zero + "e\xcc\x81" << eAcuteKey;
    // Control: a plain "e" is another passphrase (same source as above).
    QTest::newRow("plain e")
        << zero + "e"
        << QStringLiteral("032de5a124d9e628e28de1339554fffb31a2c318515a28c6667a5bd89aa04e1faa");
}

void TestCli::keychainPassphraseNormalization()
{
    QFETCH(QByteArray, input);
    QFETCH(QString, publicKey);
    const KeychainOutput shown = parseKeychainOutput(
        runCli({"keychain", "show", "--mnemonic-stdin"}, input + '\n'), false, false);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(shown.publicKey, publicKey);
}

void TestCli::keychainRejectsInvalidUtf8Passphrase_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("input");
    const QByteArray invalid[] = {
        "\xff",                 // never in UTF-8
        "\xc3",                 // truncated two-byte sequence
        "p\xc3(ss",             // lead byte followed by a non-continuation
        "\x80",                 // lone continuation byte
        "\xc0\xaf",             // overlong '/'
        "\xe0\x80\xaf",         // overlong '/', three bytes
        "\xed\xa0\x80",         // UTF-16 surrogate D800
        "\xf4\x90\x80\x80",     // above U+10FFFF
        "\xf8\x88\x80\x80\x80", // five-byte form
        "abc\xe2\x82",          // truncated at the end
    };
    for (const auto& bytes : invalid) {
        const QString hex = QString::fromLatin1(bytes.toHex());
        QTest::addRow("show %s", qPrintable(hex))
            << QStringList{"keychain", "show", "--mnemonic-stdin"}
            << zeroMnemonic.toLatin1() + '\n' + bytes + '\n';
        QTest::addRow("new %s", qPrintable(hex))
            << QStringList{"keychain", "new", "--passphrase-stdin"} << bytes + '\n';
    }
}

void TestCli::keychainRejectsInvalidUtf8Passphrase()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, input);
    const Outcome outcome = runCli(args, input);
    if (QTest::currentTestFailed())
        return;
    verifyUsageError(outcome);
    QVERIFY2(outcome.err.contains("UTF-8"), qPrintable(describe(outcome)));
}

void TestCli::keychainPassphraseLeadingByteOrderMark()
{
    // U+FEFF is a valid character (what an editor's byte-order mark becomes)
    // and NFKD leaves it alone, so it is part of the passphrase. Key computed
    // independently, as for the e-acute rows above. Inside the text it works;
    // at the start the CLI calls the line "not valid UTF-8".
    const QByteArray zero = zeroMnemonic.toLatin1() + '\n';
    const QStringList args{"keychain", "show", "--mnemonic-stdin"};
    const Outcome inside = runCli(args, zero + "a\xef\xbb\xbf"
                                               "bc\n");
    QCOMPARE(verifySuccessLine(inside),
             QByteArray("identity public key: "
                        "03f39483d8d0df1523a5da5f36d530618f00ac9aef46e9db58d969b7699b09e48c"));
    const Outcome leading = runCli(args, zero + "\xef\xbb\xbf"
                                                "abc\n");
    QVERIFY2(leading.exitCode == 0, qPrintable(describe(leading)));
    QCOMPARE(leading.out,
             QByteArray("identity public key: "
                        "034924fe2b9ad350d70e41650bcc334cda1aa87af230f968c9ef7e1ca4a8cf301e\n"));
}

void TestCli::writeErrorIsReported_data()
{
    // stdout on a full device: the code or the new phrase never reached its
    // reader, and the exit status must say so.
    QTest::addColumn<QStringList>("args");
    QTest::newRow("code") << QStringList{"code", "--at", "59", "--secret", validSecret};
    QTest::newRow("code --json") << QStringList{"code", "--json",   "--at",
                                                "59",   "--secret", validSecret};
    QTest::newRow("keychain new") << QStringList{"keychain", "new"};
    QTest::newRow("selftest") << QStringList{"selftest"};
}

void TestCli::writeErrorIsReported()
{
    QFETCH(QStringList, args);
    const QString full = QStringLiteral("/dev/full");
    QVERIFY(QFile::exists(full));
    const Outcome outcome = runCli(args, {}, full);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(outcome.exitCode, 1);
    QVERIFY2(outcome.exitCode != 0, qPrintable(describe(outcome)));
    QVERIFY2(outcome.err.startsWith("watchword-cli: "), qPrintable(describe(outcome)));
}

// ---- selftest, help -------------------------------------------------------

void TestCli::selfTest()
{
    const Outcome outcome = runCli({"selftest"});
    QVERIFY2(outcome.exitCode == 0, qPrintable(describe(outcome)));
    QVERIFY2(outcome.err.isEmpty(), qPrintable(describe(outcome)));
    QVERIFY(outcome.out.endsWith('\n'));
    QStringList lines = QString::fromUtf8(outcome.out).split(QLatin1Char('\n'));
    QVERIFY(lines.takeLast().isEmpty());
    QVERIFY(lines.size() >= 2);
    const QString summary = lines.takeLast();

    static const QRegularExpression passLine(QStringLiteral("^PASS +[0-9]+\\.[0-9] us  (\\S.*)$"));
    QStringList names;
    for (const auto& line : lines) {
        const auto match = passLine.match(line);
        QVERIFY2(match.hasMatch(), qPrintable(line));
        names << match.captured(1);
    }
    static const QRegularExpression summaryLine(
        QStringLiteral("^all passed: ([0-9]+) known-answer tests in [0-9]+\\.[0-9]{2} ms$"));
    const auto match = summaryLine.match(summary);
    QVERIFY2(match.hasMatch(), qPrintable(summary));
    QCOMPARE(match.captured(1).toInt(), names.size());

    // The same tests, in the same order, as --json reports.
    const Outcome json = runCli({"selftest", "--json"});
    const QByteArray line = verifySuccessLine(json);
    if (QTest::currentTestFailed())
        return;
    const QJsonObject object = parseJsonObject(line);
    if (QTest::currentTestFailed())
        return;
    QStringList jsonNames;
    for (const auto test : object.value(QStringLiteral("tests")).toArray())
        jsonNames << test.toObject().value(QStringLiteral("name")).toString();
    QCOMPARE(names, jsonNames);
}

void TestCli::selfTestJson()
{
    const Outcome outcome = runCli({"selftest", "--json"});
    const QByteArray line = verifySuccessLine(outcome);
    if (QTest::currentTestFailed())
        return;
    const QJsonObject object = parseJsonObject(line);
    if (QTest::currentTestFailed())
        return;
    QStringList keys{"passed", "tests", "total_microseconds"};
    QCOMPARE(object.keys(), keys);
    QCOMPARE(object.value(QStringLiteral("passed")), QJsonValue(true));
    QVERIFY(object.value(QStringLiteral("total_microseconds")).isDouble());
    QVERIFY(object.value(QStringLiteral("total_microseconds")).toDouble() >= 0);
    const QJsonArray tests = object.value(QStringLiteral("tests")).toArray();
    QVERIFY(!tests.isEmpty());
    QSet<QString> names;
    for (const auto value : tests) {
        const QJsonObject test = value.toObject();
        QStringList testKeys{"microseconds", "name", "passed"};
        QCOMPARE(test.keys(), testKeys);
        const QString name = test.value(QStringLiteral("name")).toString();
        QVERIFY(!name.isEmpty());
        QVERIFY2(!names.contains(name), qPrintable(name));
        names.insert(name);
        QCOMPARE(test.value(QStringLiteral("passed")), QJsonValue(true));
        QVERIFY(test.value(QStringLiteral("microseconds")).isDouble());
        QVERIFY(test.value(QStringLiteral("microseconds")).toDouble() >= 0);
    }
}

void TestCli::help_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("usage"); // how stdout starts
    const QString top = QStringLiteral("usage: watchword-cli <command>");
    QTest::newRow("--help") << QStringList{"--help"} << top;
    QTest::newRow("-h") << QStringList{"-h"} << top;
    QTest::newRow("help") << QStringList{"help"} << top;
    QTest::newRow("code --help") << QStringList{"code", "--help"}
                                 << QStringLiteral("usage: watchword-cli code");
    QTest::newRow("code --help among options") << QStringList{"code", "--at", "59", "--help"}
                                               << QStringLiteral("usage: watchword-cli code");
    QTest::newRow("keychain --help")
        << QStringList{"keychain", "--help"} << QStringLiteral("usage: watchword-cli keychain");
    QTest::newRow("keychain help")
        << QStringList{"keychain", "help"} << QStringLiteral("usage: watchword-cli keychain");
    QTest::newRow("keychain new --help") << QStringList{"keychain", "new", "--help"}
                                         << QStringLiteral("usage: watchword-cli keychain");
    QTest::newRow("keychain show --help") << QStringList{"keychain", "show", "--help"}
                                          << QStringLiteral("usage: watchword-cli keychain");
    QTest::newRow("selftest --help")
        << QStringList{"selftest", "--help"} << QStringLiteral("usage: watchword-cli selftest");
    const QString vaultUsage = QStringLiteral("usage: watchword-cli vault");
    QTest::newRow("vault --help") << QStringList{"vault", "--help"} << vaultUsage;
    QTest::newRow("vault help") << QStringList{"vault", "help"} << vaultUsage;
    for (const char* subcommand : {"init", "info", "add", "note", "list", "codes", "remove",
                                   "passwd", "recover", "import", "export"}) {
        QTest::newRow(qPrintable(QStringLiteral("vault %1 --help").arg(subcommand)))
            << QStringList{"vault", subcommand, "--help"} << vaultUsage;
    }
    QTest::newRow("vault add FILE --help")
        << QStringList{"vault", "add", "some.wwv", "--help"} << vaultUsage;
    const QString qrUsage = QStringLiteral("usage: watchword-cli qr decode IMAGE");
    QTest::newRow("qr --help") << QStringList{"qr", "--help"} << qrUsage;
    QTest::newRow("qr decode --help") << QStringList{"qr", "decode", "--help"} << qrUsage;
}

void TestCli::help()
{
    QFETCH(QStringList, args);
    QFETCH(QString, usage);
    const Outcome outcome = runCli(args);
    QVERIFY2(outcome.exitCode == 0, qPrintable(describe(outcome)));
    QVERIFY2(outcome.err.isEmpty(), qPrintable(describe(outcome)));
    QVERIFY2(outcome.out.startsWith(usage.toUtf8()), qPrintable(describe(outcome)));
    QVERIFY(outcome.out.endsWith('\n'));
    QVERIFY(outcome.out.contains("Exit status"));
}

void TestCli::version()
{
    const Outcome outcome = runCli({"--version"});
    static const QRegularExpression versionLine(
        QStringLiteral("^watchword-cli [0-9]+\\.[0-9]+\\.[0-9]+$"));
    const QByteArray line = verifySuccessLine(outcome);
    QVERIFY2(versionLine.match(QString::fromUtf8(line)).hasMatch(), line.constData());
}

QTEST_GUILESS_MAIN(TestCli)
#include "TestCli.moc"
