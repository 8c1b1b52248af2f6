// Base32 (RFC 4648) against the RFC's section 10 table and the Base32 secrets
// of the RFC 4226/6238 vector files; lenient and rejected input with error
// codes and positions; every byte value in one position; random round trips.
#include "common/TestSupport.h"
#include "encoding/Base32.h"

#include <QtTest>
#include <string>

using namespace watchword;
using namespace watchword::encoding;

Q_DECLARE_METATYPE(watchword::encoding::Base32Error)

namespace {

QString text(const SecureBuffer& buffer)
{
    return QString::fromLatin1(buffer.view().data(), static_cast<qsizetype>(buffer.size()));
}

QString hexOf(const SecureBuffer& buffer)
{
    return test::toHex(buffer.span());
}

} // namespace

class TestBase32 : public QObject
{
    Q_OBJECT

private slots:
    void rfc4648_data();
    void rfc4648();
    void vectorFileSecrets_data();
    void vectorFileSecrets();
    void lenientInput_data();
    void lenientInput();
    void rejectedInput_data();
    void rejectedInput();
    void tails_data();
    void tails();
    void everyByteInOnePosition();
    void randomRoundTrips();
};

void TestBase32::rfc4648_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("encoded");
    // RFC 4648 section 10, BASE32 test vectors.
    QTest::newRow("empty") << QByteArray() << QString();
    QTest::newRow("f") << QByteArray("f") << QStringLiteral("MY======");
    QTest::newRow("fo") << QByteArray("fo") << QStringLiteral("MZXQ====");
    QTest::newRow("foo") << QByteArray("foo") << QStringLiteral("MZXW6===");
    QTest::newRow("foob") << QByteArray("foob") << QStringLiteral("MZXW6YQ=");
    QTest::newRow("fooba") << QByteArray("fooba") << QStringLiteral("MZXW6YTB");
    QTest::newRow("foobar") << QByteArray("foobar") << QStringLiteral("MZXW6YTBOI======");
}

void TestBase32::rfc4648()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, encoded);
    const ByteView input = test::view(bytes);
    QCOMPARE(text(toBase32(input)), encoded);
    QString unpadded = encoded;
    unpadded.remove(QLatin1Char('='));
    QCOMPARE(text(toBase32(input, Base32Padding::Omit)), unpadded);
    QCOMPARE(base32Length(input.size(), Base32Padding::Include), std::size_t(encoded.size()));
    QCOMPARE(base32Length(input.size(), Base32Padding::Omit), std::size_t(unpadded.size()));

    for (const QString& form : {encoded, unpadded, encoded.toLower()}) {
        const auto decoded = fromBase32(form.toStdString());
        QVERIFY2(decoded.ok(), qPrintable(form));
        QCOMPARE(hexOf(*decoded), QString::fromLatin1(bytes.toHex()));
    }
}

void TestBase32::vectorFileSecrets_data()
{
    QTest::addColumn<QString>("base32");
    QTest::addColumn<QString>("hex");
    const auto hotp = test::loadJson(QStringLiteral("rfc/rfc4226_hotp.json"));
    QTest::newRow("rfc4226") << hotp[QStringLiteral("secret_base32")].toString()
                             << hotp[QStringLiteral("secret_hex")].toString();
    const auto seeds =
        test::loadJson(QStringLiteral("rfc/rfc6238_totp.json"))[QStringLiteral("seeds")].toObject();
    QCOMPARE(seeds.size(), 3);
    for (auto it = seeds.begin(); it != seeds.end(); ++it) {
        const auto seed = it.value().toObject();
        QTest::addRow("rfc6238 %s", qPrintable(it.key()))
            << seed[QStringLiteral("base32")].toString() << seed[QStringLiteral("hex")].toString();
    }
}

void TestBase32::vectorFileSecrets()
{
    QFETCH(QString, base32);
    QFETCH(QString, hex);
    const Bytes bytes = test::hex(hex);
    // The files give the canonical padded form.
    QCOMPARE(text(toBase32(bytes)), base32);
    const auto decoded = fromBase32(base32.toStdString());
    QVERIFY(decoded.ok());
    QCOMPARE(hexOf(*decoded), hex);
}

void TestBase32::lenientInput_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("hex");
    const QString hello = QStringLiteral("48656c6c6f21deadbeef"); // JBSWY3DPEHPK3PXP
    QTest::newRow("lower case") << QStringLiteral("jbswy3dpehpk3pxp") << hello;
    QTest::newRow("mixed case") << QStringLiteral("JbSwY3dPeHpK3pXp") << hello;
    QTest::newRow("groups of four") << QStringLiteral("JBSW Y3DP EHPK 3PXP") << hello;
    QTest::newRow("hyphens") << QStringLiteral("jbsw-y3dp-ehpk-3pxp") << hello;
    QTest::newRow("leading and trailing spaces") << QStringLiteral("  JBSWY3DPEHPK3PXP  ") << hello;
    QTest::newRow("missing padding")
        << QStringLiteral("MZXW6YTBOI") << QStringLiteral("666f6f626172");
    QTest::newRow("separators inside padding")
        << QStringLiteral("MZXW6YTBOI== ==-==") << QStringLiteral("666f6f626172");
    QTest::newRow("only separators") << QStringLiteral(" - -") << QString();
    // Non-zero trailing bits are ignored (documented in Base32.h): "MZ" and
    // "MY" both carry 'f' (0x66), "MZ" with two stray 1 bits.
    QTest::newRow("nonzero trailing bits, 2 symbols")
        << QStringLiteral("MZ") << QStringLiteral("66");
    QTest::newRow("nonzero trailing bits, 7 symbols")
        << QStringLiteral("MZXW6YR") << QStringLiteral("666f6f62");
    QTest::newRow("26-symbol secret") << QStringLiteral("5VAML3X35THCEBVRLV24CGBKOY")
                                      << QStringLiteral("ed40c5eefbecce2206b15d75c1182a76");
}

void TestBase32::lenientInput()
{
    QFETCH(QString, input);
    QFETCH(QString, hex);
    const auto decoded = fromBase32(input.toStdString());
    QVERIFY2(decoded.ok(), decoded.ok() ? "" : decoded.error().message.c_str());
    QCOMPARE(hexOf(*decoded), hex);
}

// A last group of 1, 3 or 6 symbols, decoded each way an app does it. The
// expected bytes were computed bit by bit outside this code (the secrets
// are hand-typed ones from other apps' real exports).
void TestBase32::tails_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("dropBits");
    QTest::addColumn<QByteArray>("dropSymbols");
    QTest::addColumn<QByteArray>("zeroFill");
    QTest::addColumn<bool>("strictReads");
    QTest::newRow("17 symbols") << QByteArray("JDJSKDKDKDKDKDKDK")
                                << QByteArray("48d3250d4350d4350d43")
                                << QByteArray("48d3250d4350d4350d43")
                                << QByteArray("48d3250d4350d4350d4350") << false;
    QTest::newRow("19 symbols") << QByteArray("BDKSIEHWBDBBDBDZBZJ")
                                << QByteArray("08d52410f608c21184790e")
                                << QByteArray("08d52410f608c2118479")
                                << QByteArray("08d52410f608c21184790e52") << false;
    QTest::newRow("11 symbols, lower case, grouped")
        << QByteArray("stea msec ret") << QByteArray("94c806488289") << QByteArray("94c8064882")
        << QByteArray("94c80648828926") << false;
    QTest::newRow("9 symbols") << QByteArray("AAAAAAAAA") << QByteArray("0000000000")
                               << QByteArray("0000000000") << QByteArray("000000000000") << false;
    QTest::newRow("3 symbols padded") << QByteArray("ABC=====") << QByteArray("00")
                                      << QByteArray("") << QByteArray("0044") << false;
    QTest::newRow("1 symbol") << QByteArray("A") << QByteArray("") << QByteArray("")
                              << QByteArray("00") << false;
    // A group that an encoder can write is the same whichever the tail.
    QTest::newRow("16 symbols") << QByteArray("JBSWY3DPEHPK3PXP")
                                << QByteArray("48656c6c6f21deadbeef")
                                << QByteArray("48656c6c6f21deadbeef")
                                << QByteArray("48656c6c6f21deadbeef") << true;
}

void TestBase32::tails()
{
    QFETCH(QByteArray, input);
    const std::string_view text(input.constData(), std::size_t(input.size()));
    const auto hex = [&](Base32Tail tail) {
        const auto decoded = fromBase32(text, tail);
        return decoded ? QByteArray(reinterpret_cast<const char*>(decoded->data()),
                                    qsizetype(decoded->size()))
                             .toHex()
                       : QByteArray("error");
    };
    QTEST(hex(Base32Tail::DropBits), "dropBits");
    QTEST(hex(Base32Tail::DropSymbols), "dropSymbols");
    QTEST(hex(Base32Tail::ZeroFill), "zeroFill");
    QFETCH(bool, strictReads);
    QCOMPARE(fromBase32(text, Base32Tail::Refuse).ok(), strictReads);
}

void TestBase32::rejectedInput_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<Base32Error>("code");
    QTest::addColumn<QString>("messagePart");
    QTest::newRow("digit 1") << QByteArray("JBSWY3DPEHPK3PX1") << Base32Error::InvalidCharacter
                             << QStringLiteral("'1' at position 16");
    QTest::newRow("digit 0") << QByteArray("0BSWY3DP") << Base32Error::InvalidCharacter
                             << QStringLiteral("'0' at position 1");
    QTest::newRow("digit 8") << QByteArray("JB8W") << Base32Error::InvalidCharacter
                             << QStringLiteral("'8' at position 3");
    QTest::newRow("underscore") << QByteArray("JBSW_Y3DP") << Base32Error::InvalidCharacter
                                << QStringLiteral("'_' at position 5");
    QTest::newRow("tab") << QByteArray("JBSW\tY3DP") << Base32Error::InvalidCharacter
                         << QStringLiteral("byte 0x09 at position 5");
    QTest::newRow("newline") << QByteArray("JBSWY3DP\n") << Base32Error::InvalidCharacter
                             << QStringLiteral("byte 0x0A at position 9");
    QTest::newRow("nul") << QByteArray("JB\0SW", 5) << Base32Error::InvalidCharacter
                         << QStringLiteral("byte 0x00 at position 3");
    QTest::newRow("utf-8") << QByteArray("JBS\xc3\x84") << Base32Error::InvalidCharacter
                           << QStringLiteral("byte 0xC3 at position 4");
    QTest::newRow("padding in the middle")
        << QByteArray("JBSW=Y3DPEHPK3PXP") << Base32Error::MisplacedPadding
        << QStringLiteral("position 6 after the padding that starts at position 5");
    QTest::newRow("padding first") << QByteArray("=MZXW6===") << Base32Error::MisplacedPadding
                                   << QStringLiteral("'=' at position 1");
    QTest::newRow("padding only") << QByteArray("========") << Base32Error::MisplacedPadding
                                  << QStringLiteral("'=' at position 1");
    QTest::newRow("padding after a full group")
        << QByteArray("MZXW6YTB========") << Base32Error::MisplacedPadding
        << QStringLiteral("'=' at position 9");
    QTest::newRow("1 symbol") << QByteArray("M") << Base32Error::ImpossibleLength
                              << QStringLiteral("1 symbol(s)");
    QTest::newRow("3 symbols") << QByteArray("MZX") << Base32Error::ImpossibleLength
                               << QStringLiteral("3 symbol(s)");
    QTest::newRow("6 symbols") << QByteArray("MZXW6Y") << Base32Error::ImpossibleLength
                               << QStringLiteral("6 symbol(s)");
    QTest::newRow("9 symbols") << QByteArray("MZXW6YTBM") << Base32Error::ImpossibleLength
                               << QStringLiteral("9 in all");
    QTest::newRow("3 symbols padded")
        << QByteArray("MZX=====") << Base32Error::ImpossibleLength << QStringLiteral("3 symbol(s)");
    QTest::newRow("short padding") << QByteArray("MY=====") << Base32Error::WrongPaddingLength
                                   << QStringLiteral("has 5 '=', expected 6");
    QTest::newRow("long padding") << QByteArray("MY=======") << Base32Error::WrongPaddingLength
                                  << QStringLiteral("has 7 '=', expected 6");
    QTest::newRow("extra pad after 7") << QByteArray("MZXW6YQ==") << Base32Error::WrongPaddingLength
                                       << QStringLiteral("expected 1");
}

void TestBase32::rejectedInput()
{
    QFETCH(QByteArray, input);
    QFETCH(Base32Error, code);
    QFETCH(QString, messagePart);
    const auto decoded = fromBase32(std::string_view(input.constData(), std::size_t(input.size())));
    QVERIFY(!decoded.ok());
    QCOMPARE(decoded.error().code, code);
    const QString message = QString::fromStdString(decoded.error().message);
    QVERIFY2(message.contains(messagePart), qPrintable(message));
}

void TestBase32::everyByteInOnePosition()
{
    // "MZXW6YQ" + one byte: exactly the alphabet (either case), '=' (completing
    // the group), ' ' and '-' (ignored) are accepted; everything else is an
    // invalid character at position 8.
    const QByteArray alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz234567";
    int accepted = 0;
    for (int value = 0; value < 256; ++value) {
        const char c = static_cast<char>(value);
        std::string input = "MZXW6YQ";
        input.push_back(c);
        const auto decoded = fromBase32(input);
        const bool symbol = alphabet.contains(c);
        const bool ignoredOrPadding = c == ' ' || c == '-' || c == '=';
        if (symbol || ignoredOrPadding) {
            QVERIFY2(decoded.ok(), qPrintable(QStringLiteral("byte %1").arg(value)));
            QCOMPARE(decoded->size(), symbol ? std::size_t(5) : std::size_t(4));
            ++accepted;
        } else {
            QVERIFY2(!decoded.ok(), qPrintable(QStringLiteral("byte %1").arg(value)));
            QCOMPARE(decoded.error().code, Base32Error::InvalidCharacter);
            QVERIFY(QString::fromStdString(decoded.error().message)
                        .contains(QStringLiteral("position 8")));
        }
    }
    QCOMPARE(accepted, 58 + 3);
}

void TestBase32::randomRoundTrips()
{
    test::SeededRandom random(test::testSeed());
    auto& engine = random.engine();
    for (std::size_t length = 0; length <= 130; ++length) {
        for (int repeat = 0; repeat < 8; ++repeat) {
            Bytes bytes(length);
            random.fill(bytes);
            const QString expected = test::toHex(bytes);
            const SecureBuffer padded = toBase32(bytes);
            const SecureBuffer unpadded = toBase32(bytes, Base32Padding::Omit);
            QCOMPARE(padded.size(), base32Length(length, Base32Padding::Include));
            QCOMPARE(unpadded.size(), base32Length(length, Base32Padding::Omit));
            QVERIFY(padded.view().starts_with(unpadded.view()));

            // A messy but valid rendering: random case, spaces and hyphens.
            std::string messy;
            for (const char c : padded.view()) {
                if (engine() % 5 == 0)
                    messy.push_back(engine() % 2 ? ' ' : '-');
                messy.push_back(
                    engine() % 2 && c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
            }
            for (const std::string_view form :
                 {padded.view(), unpadded.view(), std::string_view(messy)}) {
                const auto decoded = fromBase32(form);
                if (!decoded.ok())
                    QFAIL(qPrintable(
                        QStringLiteral("length %1, '%2': %3")
                            .arg(length)
                            .arg(QString::fromLatin1(form.data(), qsizetype(form.size())))
                            .arg(QString::fromStdString(decoded.error().message))));
                QCOMPARE(hexOf(*decoded), expected);
            }
        }
    }
}

QTEST_APPLESS_MAIN(TestBase32)
#include "TestBase32.moc"
