// HOTP/TOTP/Steam codes against RFC 4226 Appendix D (codes and truncated
// values), RFC 6238 Appendix B (per-algorithm seeds), the Steam and extra
// HOTP/TOTP vectors of tests/data/otp (Python standard library reference),
// and the boundaries: period edges, 6..10 digits, 64-bit counters, time 0 and
// negative time, parameter validation.
#include "common/TestSupport.h"
#include "encoding/Base32.h"
#include "otp/OtpGenerator.h"

#include <QtTest>
#include <limits>

using namespace watchword;
using namespace watchword::otp;
using crypto::HashAlgorithm;

Q_DECLARE_METATYPE(watchword::crypto::HashAlgorithm)
Q_DECLARE_METATYPE(watchword::otp::OtpKind)
Q_DECLARE_METATYPE(watchword::otp::OtpError)

namespace {

HashAlgorithm algorithmNamed(const QString& name)
{
    const auto algorithm = crypto::parseHashName(name.toStdString());
    if (!algorithm)
        qFatal("unknown algorithm in test data: %s", qPrintable(name));
    return *algorithm;
}

OtpGenerator makeGenerator(const OtpParameters& parameters, ByteView secret)
{
    auto generator = OtpGenerator::create(parameters, secret);
    if (!generator)
        qFatal("test setup: %s", generator.error().message.c_str());
    return std::move(generator).value();
}

OtpParameters totp(HashAlgorithm algorithm, int digits, std::uint32_t period)
{
    return {OtpKind::Totp, algorithm, digits, period, 0};
}

OtpParameters hotp(HashAlgorithm algorithm, int digits)
{
    return {OtpKind::Hotp, algorithm, digits, defaultPeriod, 0};
}

// Counters and times as exact integers: the extra vectors write values above
// 2^53 as decimal strings (a JSON number there would be a rounded double).
quint64 toUnsigned(const QJsonValue& value)
{
    if (!value.isString()) {
        const qint64 number = value.toInteger(-1);
        if (number < 0)
            qFatal("bad unsigned number in test data");
        return quint64(number);
    }
    bool ok = false;
    const quint64 number = value.toString().toULongLong(&ok);
    if (!ok)
        qFatal("bad unsigned number in test data: %s", qPrintable(value.toString()));
    return number;
}

qint64 toSigned(const QJsonValue& value)
{
    if (!value.isString())
        return value.toInteger();
    bool ok = false;
    const qint64 number = value.toString().toLongLong(&ok);
    if (!ok)
        qFatal("bad number in test data: %s", qPrintable(value.toString()));
    return number;
}

const Bytes rfcSeedSha1 = [] {
    const std::string_view ascii = "12345678901234567890";
    return Bytes(ascii.begin(), ascii.end());
}();

} // namespace

class TestOtpGenerator : public QObject
{
    Q_OBJECT

private slots:
    void rfc4226_data();
    void rfc4226();
    void rfc6238_data();
    void rfc6238();
    void steam_data();
    void steam();
    void hotpExtra_data();
    void hotpExtra();
    void totpExtra_data();
    void totpExtra();
    void periodEdges_data();
    void periodEdges();
    void timeZeroAndNegativeTime();
    void tenDigitsShowTheWholeValue();
    void validation_data();
    void validation();
    void hotpHasNoCodeForTime();
    void moveKeepsTheKey();
};

void TestOtpGenerator::rfc4226_data()
{
    QTest::addColumn<quint64>("counter");
    QTest::addColumn<QString>("hmac");
    QTest::addColumn<uint>("truncated");
    QTest::addColumn<QString>("code");
    const auto root = test::loadJson(QStringLiteral("rfc/rfc4226_hotp.json"));
    QCOMPARE(root[QStringLiteral("digits")].toInt(), 6);
    for (const auto v : root[QStringLiteral("vectors")].toArray()) {
        const auto o = v.toObject();
        const quint64 counter = toUnsigned(o[QStringLiteral("counter")]);
        // truncated_hex and truncated_dec must agree: both are checked below.
        bool ok = false;
        const uint fromHex = o[QStringLiteral("truncated_hex")].toString().toUInt(&ok, 16);
        QVERIFY(ok);
        QCOMPARE(fromHex, uint(o[QStringLiteral("truncated_dec")].toInteger()));
        QTest::addRow("counter %llu", counter)
            << counter << o[QStringLiteral("hmac_sha1_hex")].toString() << fromHex
            << o[QStringLiteral("hotp")].toString();
    }
}

void TestOtpGenerator::rfc4226()
{
    QFETCH(quint64, counter);
    QFETCH(QString, hmac);
    QFETCH(uint, truncated);
    QFETCH(QString, code);
    const auto root = test::loadJson(QStringLiteral("rfc/rfc4226_hotp.json"));
    const Bytes secret = test::hex(root[QStringLiteral("secret_hex")].toString());
    // The Base32 form in the file is the same key.
    const auto fromBase32 =
        encoding::fromBase32(root[QStringLiteral("secret_base32")].toString().toStdString());
    QVERIFY(fromBase32.ok());
    QVERIFY(constantTimeEqual(fromBase32->span(), secret));

    // Dynamic truncation of the RFC's own HMAC values (RFC 4226 section 5.4).
    QCOMPARE(dynamicTruncate(test::hex(hmac)), std::uint32_t(truncated));

    const OtpGenerator generator = makeGenerator(hotp(HashAlgorithm::Sha1, 6), secret);
    QCOMPARE(generator.truncatedValue(counter), std::uint32_t(truncated));
    QCOMPARE(QString::fromStdString(generator.codeForCounter(counter)), code);
    QCOMPARE(QString::fromStdString(generator.formatCode(truncated)), code);
}

void TestOtpGenerator::rfc6238_data()
{
    QTest::addColumn<HashAlgorithm>("algorithm");
    QTest::addColumn<QString>("seed");
    QTest::addColumn<qint64>("time");
    QTest::addColumn<quint64>("counter");
    QTest::addColumn<QString>("code");
    const auto root = test::loadJson(QStringLiteral("rfc/rfc6238_totp.json"));
    QCOMPARE(root[QStringLiteral("period")].toInt(), 30);
    QCOMPARE(root[QStringLiteral("t0")].toInt(), 0);
    QCOMPARE(root[QStringLiteral("digits")].toInt(), 8);
    const auto seeds = root[QStringLiteral("seeds")].toObject();
    int rows = 0;
    for (const auto v : root[QStringLiteral("vectors")].toArray()) {
        const auto o = v.toObject();
        const QString name = o[QStringLiteral("algorithm")].toString();
        // Each algorithm has its own seed (20/32/64 bytes), as the file notes.
        const QString seed = seeds[name].toObject()[QStringLiteral("hex")].toString();
        QVERIFY(!seed.isEmpty());
        bool ok = false;
        const quint64 counter = o[QStringLiteral("t_hex")].toString().toULongLong(&ok, 16);
        QVERIFY(ok);
        const qint64 time = toSigned(o[QStringLiteral("time")]);
        QTest::addRow("%s at %lld", qPrintable(name), time)
            << algorithmNamed(name) << seed << time << counter
            << o[QStringLiteral("totp")].toString();
        ++rows;
    }
    QCOMPARE(rows, 18);
}

void TestOtpGenerator::rfc6238()
{
    QFETCH(HashAlgorithm, algorithm);
    QFETCH(QString, seed);
    QFETCH(qint64, time);
    QFETCH(quint64, counter);
    QFETCH(QString, code);
    const auto step = counterForTime(time, 30);
    QVERIFY(step.ok());
    QCOMPARE(*step, std::uint64_t(counter));

    const OtpGenerator generator = makeGenerator(totp(algorithm, 8, 30), test::hex(seed));
    const auto atTime = generator.codeForTime(time);
    QVERIFY(atTime.ok());
    QCOMPARE(QString::fromStdString(*atTime), code);
    QCOMPARE(QString::fromStdString(generator.codeForCounter(counter)), code);
}

void TestOtpGenerator::steam_data()
{
    QTest::addColumn<QString>("secretHex");
    QTest::addColumn<QString>("secretBase32");
    QTest::addColumn<qint64>("time");
    QTest::addColumn<quint64>("counter");
    QTest::addColumn<uint>("truncated");
    QTest::addColumn<QString>("code");
    const auto root = test::loadJson(QStringLiteral("otp/steam_codes.json"));
    QCOMPARE(root[QStringLiteral("alphabet")].toString(),
             QString::fromLatin1(steamAlphabet.data(), steamAlphabet.size()));
    const auto secrets = root[QStringLiteral("secrets")].toObject();
    int rows = 0;
    for (const auto v : root[QStringLiteral("vectors")].toArray()) {
        const auto o = v.toObject();
        const QString id = o[QStringLiteral("secret_id")].toString();
        const auto secret = secrets[id].toObject();
        const qint64 time = toSigned(o[QStringLiteral("time")]);
        QTest::addRow("%s at %lld", qPrintable(id), time)
            << secret[QStringLiteral("hex")].toString()
            << secret[QStringLiteral("base32")].toString() << time
            << toUnsigned(o[QStringLiteral("counter")])
            << uint(toUnsigned(o[QStringLiteral("truncated_dec")]))
            << o[QStringLiteral("code")].toString();
        ++rows;
    }
    QCOMPARE(rows, 36);
}

void TestOtpGenerator::steam()
{
    QFETCH(QString, secretHex);
    QFETCH(QString, secretBase32);
    QFETCH(qint64, time);
    QFETCH(quint64, counter);
    QFETCH(uint, truncated);
    QFETCH(QString, code);
    const auto secret = encoding::fromBase32(secretBase32.toStdString());
    QVERIFY(secret.ok());
    QCOMPARE(test::toHex(secret->span()), secretHex);

    const OtpGenerator generator = makeGenerator(OtpParameters::steam(), *secret);
    QCOMPARE(generator.truncatedValue(counter), std::uint32_t(truncated));
    const auto atTime = generator.codeForTime(time);
    QVERIFY(atTime.ok());
    QCOMPARE(QString::fromStdString(*atTime), code);
    QCOMPARE(atTime->size(), std::size_t(5));
    for (const char c : *atTime)
        QVERIFY(steamAlphabet.find(c) != std::string_view::npos);
}

void TestOtpGenerator::hotpExtra_data()
{
    QTest::addColumn<HashAlgorithm>("algorithm");
    QTest::addColumn<QString>("seed");
    QTest::addColumn<quint64>("counter");
    QTest::addColumn<int>("digits");
    QTest::addColumn<uint>("truncated");
    QTest::addColumn<QString>("code");
    const auto root = test::loadJson(QStringLiteral("otp/hotp_totp_extra.json"));
    const auto seeds = root[QStringLiteral("seeds")].toObject();
    int rows = 0;
    for (const auto v : root[QStringLiteral("hotp")].toArray()) {
        const auto o = v.toObject();
        const QString name = o[QStringLiteral("algorithm")].toString();
        const quint64 counter = toUnsigned(o[QStringLiteral("counter")]);
        const int digits = o[QStringLiteral("digits")].toInt();
        QTest::addRow("%s counter %llu digits %d", qPrintable(name), counter, digits)
            << algorithmNamed(name) << seeds[name].toObject()[QStringLiteral("hex")].toString()
            << counter << digits << uint(toUnsigned(o[QStringLiteral("truncated_dec")]))
            << o[QStringLiteral("code")].toString();
        ++rows;
    }
    QCOMPARE(rows, 165);
}

void TestOtpGenerator::hotpExtra()
{
    QFETCH(HashAlgorithm, algorithm);
    QFETCH(QString, seed);
    QFETCH(quint64, counter);
    QFETCH(int, digits);
    QFETCH(uint, truncated);
    QFETCH(QString, code);
    const OtpGenerator generator = makeGenerator(hotp(algorithm, digits), test::hex(seed));
    QCOMPARE(generator.truncatedValue(counter), std::uint32_t(truncated));
    QCOMPARE(QString::fromStdString(generator.codeForCounter(counter)), code);
}

void TestOtpGenerator::totpExtra_data()
{
    QTest::addColumn<HashAlgorithm>("algorithm");
    QTest::addColumn<QString>("seed");
    QTest::addColumn<uint>("period");
    QTest::addColumn<qint64>("time");
    QTest::addColumn<quint64>("counter");
    QTest::addColumn<int>("digits");
    QTest::addColumn<QString>("code");
    const auto root = test::loadJson(QStringLiteral("otp/hotp_totp_extra.json"));
    const auto seeds = root[QStringLiteral("seeds")].toObject();
    int rows = 0;
    for (const auto v : root[QStringLiteral("totp")].toArray()) {
        const auto o = v.toObject();
        const QString name = o[QStringLiteral("algorithm")].toString();
        const uint period = uint(toUnsigned(o[QStringLiteral("period")]));
        const qint64 time = toSigned(o[QStringLiteral("time")]);
        const int digits = o[QStringLiteral("digits")].toInt();
        QTest::addRow("%s period %u at %lld digits %d", qPrintable(name), period, time, digits)
            << algorithmNamed(name) << seeds[name].toObject()[QStringLiteral("hex")].toString()
            << period << time << toUnsigned(o[QStringLiteral("counter")]) << digits
            << o[QStringLiteral("code")].toString();
        ++rows;
    }
    QCOMPARE(rows, 144);
}

void TestOtpGenerator::totpExtra()
{
    QFETCH(HashAlgorithm, algorithm);
    QFETCH(QString, seed);
    QFETCH(uint, period);
    QFETCH(qint64, time);
    QFETCH(quint64, counter);
    QFETCH(int, digits);
    QFETCH(QString, code);
    const auto step = counterForTime(time, period);
    QVERIFY(step.ok());
    QCOMPARE(*step, std::uint64_t(counter));
    const OtpGenerator generator = makeGenerator(totp(algorithm, digits, period), test::hex(seed));
    const auto atTime = generator.codeForTime(time);
    QVERIFY(atTime.ok());
    QCOMPARE(QString::fromStdString(*atTime), code);
}

void TestOtpGenerator::periodEdges_data()
{
    QTest::addColumn<uint>("period");
    for (const uint period : {1u, 2u, 7u, 30u, 60u, 86400u, 4294967295u})
        QTest::addRow("period %u", period) << period;
}

void TestOtpGenerator::periodEdges()
{
    QFETCH(uint, period);
    const OtpGenerator generator = makeGenerator(totp(HashAlgorithm::Sha1, 6, period), rfcSeedSha1);
    for (const std::int64_t step :
         {std::int64_t(1), std::int64_t(2), std::int64_t(1000), std::int64_t(56666666)}) {
        const std::int64_t boundary = step * std::int64_t(period);
        // Last second of step - 1, first and last second of step.
        const auto before = counterForTime(boundary - 1, period);
        const auto first = counterForTime(boundary, period);
        const auto last = counterForTime(boundary + period - 1, period);
        QVERIFY(before.ok() && first.ok() && last.ok());
        QCOMPARE(*before, std::uint64_t(step - 1));
        QCOMPARE(*first, std::uint64_t(step));
        QCOMPARE(*last, std::uint64_t(step));

        QCOMPARE(generator.secondsRemaining(boundary - 1), std::uint32_t(1));
        QCOMPARE(generator.secondsRemaining(boundary), std::uint32_t(period));
        QCOMPARE(generator.secondsRemaining(boundary + period - 1), std::uint32_t(1));
        if (period > 1)
            QCOMPARE(generator.secondsRemaining(boundary + 1), std::uint32_t(period - 1));

        // The code is the one of the step the time falls in, the whole step long.
        const std::string expected = generator.codeForCounter(std::uint64_t(step));
        QCOMPARE(*generator.codeForTime(boundary), expected);
        QCOMPARE(*generator.codeForTime(boundary + period - 1), expected);
        QCOMPARE(*generator.codeForTime(boundary - 1),
                 generator.codeForCounter(std::uint64_t(step - 1)));
    }
}

void TestOtpGenerator::timeZeroAndNegativeTime()
{
    // Time 0 is step 0 (T0 = 0).
    const auto zero = counterForTime(0, 30);
    QVERIFY(zero.ok());
    QCOMPARE(*zero, std::uint64_t(0));
    const OtpGenerator generator = makeGenerator(totp(HashAlgorithm::Sha1, 8, 30), rfcSeedSha1);
    QCOMPARE(*generator.codeForTime(0), generator.codeForCounter(0));
    QCOMPARE(generator.secondsRemaining(0), std::uint32_t(30));

    // Before the epoch there is no counter: an error, never a wrapped 2^64 - 1.
    for (const std::int64_t time : {std::int64_t(-1), std::int64_t(-29), std::int64_t(-30),
                                    std::int64_t(-31), std::numeric_limits<std::int64_t>::min()}) {
        const auto counter = counterForTime(time, 30);
        QVERIFY(!counter.ok());
        QCOMPARE(counter.error().code, OtpError::TimeBeforeEpoch);
        const auto code = generator.codeForTime(time);
        QVERIFY(!code.ok());
        QCOMPARE(code.error().code, OtpError::TimeBeforeEpoch);
    }
    // The countdown stays a floor remainder for negative times.
    QCOMPARE(secondsRemaining(-1, 30), std::uint32_t(1));
    QCOMPARE(secondsRemaining(-30, 30), std::uint32_t(30));
    QCOMPARE(secondsRemaining(-31, 30), std::uint32_t(1));
    QCOMPARE(secondsRemaining(-29, 30), std::uint32_t(29));
    // INT64_MIN = -2^63 = 30 * (-307445734561825861) + 22: 8 seconds left.
    QCOMPARE(secondsRemaining(std::numeric_limits<std::int64_t>::min(), 30), std::uint32_t(8));
    QCOMPARE(secondsRemaining(std::numeric_limits<std::int64_t>::max(), 4294967295u),
             std::uint32_t(4294967295u - 2147483647u));

    // A zero period is refused, not divided by.
    const auto noPeriod = counterForTime(100, 0);
    QVERIFY(!noPeriod.ok());
    QCOMPARE(noPeriod.error().code, OtpError::InvalidPeriod);
    QCOMPARE(secondsRemaining(100, 0), std::uint32_t(0));
}

void TestOtpGenerator::tenDigitsShowTheWholeValue()
{
    test::SeededRandom random(test::testSeed());
    for (const auto algorithm :
         {HashAlgorithm::Sha1, HashAlgorithm::Sha256, HashAlgorithm::Sha512}) {
        Bytes key(static_cast<std::size_t>(crypto::digestSize(algorithm)));
        random.fill(key);
        const OtpGenerator ten = makeGenerator(hotp(algorithm, 10), key);
        const OtpGenerator six = makeGenerator(hotp(algorithm, 6), key);
        for (int i = 0; i < 200; ++i) {
            const std::uint64_t counter = random.engine()();
            const std::uint32_t value = ten.truncatedValue(counter);
            QVERIFY(value < 0x80000000u);
            const QString code = QString::fromStdString(ten.codeForCounter(counter));
            QCOMPARE(code, QString::number(value).rightJustified(10, QLatin1Char('0')));
            // Fewer digits are the low digits of the same value.
            QCOMPARE(QString::fromStdString(six.codeForCounter(counter)), code.right(6));
        }
    }
    // Extremes of the 31-bit range.
    const OtpGenerator ten = makeGenerator(hotp(HashAlgorithm::Sha1, 10), rfcSeedSha1);
    QCOMPARE(QString::fromStdString(ten.formatCode(0)), QStringLiteral("0000000000"));
    QCOMPARE(QString::fromStdString(ten.formatCode(0x7fffffffu)), QStringLiteral("2147483647"));
    const OtpGenerator seven = makeGenerator(hotp(HashAlgorithm::Sha1, 7), rfcSeedSha1);
    QCOMPARE(QString::fromStdString(seven.formatCode(5)), QStringLiteral("0000005"));
    QCOMPARE(QString::fromStdString(seven.formatCode(0x7fffffffu)),
             QStringLiteral("2147483647").right(7));
    const OtpGenerator steam = makeGenerator(OtpParameters::steam(), rfcSeedSha1);
    QCOMPARE(QString::fromStdString(steam.formatCode(0)), QStringLiteral("22222"));
    // 1 + 26 * 2 = 53: symbols 1 and 2, least significant first.
    QCOMPARE(QString::fromStdString(steam.formatCode(53)), QStringLiteral("34222"));
}

void TestOtpGenerator::validation_data()
{
    QTest::addColumn<OtpKind>("kind");
    QTest::addColumn<HashAlgorithm>("algorithm");
    QTest::addColumn<int>("digits");
    QTest::addColumn<uint>("period");
    QTest::addColumn<int>("secretSize");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<OtpError>("code");
    const auto ok = OtpError::EmptySecret; // ignored when valid
    for (const auto kind : {OtpKind::Totp, OtpKind::Hotp}) {
        const char* name = kind == OtpKind::Totp ? "totp" : "hotp";
        for (int digits = 6; digits <= 10; ++digits)
            for (const auto algorithm :
                 {HashAlgorithm::Sha1, HashAlgorithm::Sha256, HashAlgorithm::Sha512})
                QTest::addRow("%s %d digits %s", name, digits, crypto::hashName(algorithm).data())
                    << kind << algorithm << digits << 30u << 20 << true << ok;
        for (const int digits : {-1, 0, 1, 5, 11, 100})
            QTest::addRow("%s %d digits", name, digits)
                << kind << HashAlgorithm::Sha1 << digits << 30u << 20 << false
                << OtpError::InvalidDigits;
        QTest::addRow("%s empty secret", name)
            << kind << HashAlgorithm::Sha1 << 6 << 30u << 0 << false << OtpError::EmptySecret;
        QTest::addRow("%s one-byte secret", name)
            << kind << HashAlgorithm::Sha1 << 6 << 30u << 1 << true << ok;
        QTest::addRow("%s period 1", name)
            << kind << HashAlgorithm::Sha1 << 6 << 1u << 20 << true << ok;
        QTest::addRow("%s period max", name)
            << kind << HashAlgorithm::Sha1 << 6 << 4294967295u << 20 << true << ok;
    }
    QTest::newRow("totp period 0") << OtpKind::Totp << HashAlgorithm::Sha1 << 6 << 0u << 20 << false
                                   << OtpError::InvalidPeriod;
    // HOTP has no period; a zero there is unused, not wrong.
    QTest::newRow("hotp period 0")
        << OtpKind::Hotp << HashAlgorithm::Sha1 << 6 << 0u << 20 << true << ok;
    QTest::newRow("steam") << OtpKind::Steam << HashAlgorithm::Sha1 << 5 << 30u << 20 << true << ok;
    QTest::newRow("steam 6 digits") << OtpKind::Steam << HashAlgorithm::Sha1 << 6 << 30u << 20
                                    << false << OtpError::InvalidDigits;
    QTest::newRow("steam sha256") << OtpKind::Steam << HashAlgorithm::Sha256 << 5 << 30u << 20
                                  << false << OtpError::InvalidAlgorithm;
    QTest::newRow("steam period 60") << OtpKind::Steam << HashAlgorithm::Sha1 << 5 << 60u << 20
                                     << false << OtpError::InvalidPeriod;
    QTest::newRow("steam empty secret")
        << OtpKind::Steam << HashAlgorithm::Sha1 << 5 << 30u << 0 << false << OtpError::EmptySecret;
}

void TestOtpGenerator::validation()
{
    QFETCH(OtpKind, kind);
    QFETCH(HashAlgorithm, algorithm);
    QFETCH(int, digits);
    QFETCH(uint, period);
    QFETCH(int, secretSize);
    QFETCH(bool, valid);
    QFETCH(OtpError, code);
    const OtpParameters parameters{kind, algorithm, digits, period, 0};
    const Bytes secret(static_cast<std::size_t>(secretSize), 0x5a);
    const auto checked = validate(parameters, secret.size());
    const auto generator = OtpGenerator::create(parameters, secret);
    QCOMPARE(checked.ok(), valid);
    QCOMPARE(generator.ok(), valid);
    if (!valid) {
        QCOMPARE(checked.error().code, code);
        QCOMPARE(generator.error().code, code);
        QVERIFY(!checked.error().message.empty());
    } else {
        QCOMPARE(generator->parameters(), parameters);
        const std::string first = generator->codeForCounter(0);
        QCOMPARE(first.size(), std::size_t(kind == OtpKind::Steam ? 5 : digits));
    }
}

void TestOtpGenerator::hotpHasNoCodeForTime()
{
    const OtpGenerator generator = makeGenerator(hotp(HashAlgorithm::Sha1, 6), rfcSeedSha1);
    const auto code = generator.codeForTime(59);
    QVERIFY(!code.ok());
    QCOMPARE(code.error().code, OtpError::NotTimeBased);
    QCOMPARE(QString::fromStdString(generator.codeForCounter(1)), QStringLiteral("287082"));
}

void TestOtpGenerator::moveKeepsTheKey()
{
    OtpGenerator original = makeGenerator(
        totp(HashAlgorithm::Sha512, 8, 30),
        test::hex(QStringLiteral(
            "31323334353637383930313233343536373839303132333435363738393031323334353637383930"
            "313233343536373839303132333435363738393031323334")));
    OtpGenerator moved(std::move(original));
    QCOMPARE(QString::fromStdString(*moved.codeForTime(59)), QStringLiteral("90693936"));
    OtpGenerator assigned = makeGenerator(OtpParameters::steam(), rfcSeedSha1);
    assigned = std::move(moved);
    QCOMPARE(assigned.parameters().kind, OtpKind::Totp);
    QCOMPARE(QString::fromStdString(*assigned.codeForTime(1111111109)), QStringLiteral("25091201"));
}

QTEST_APPLESS_MAIN(TestOtpGenerator)
#include "TestOtpGenerator.moc"
