// Bech32m against BIP-350's own test vectors (tests/data/bech32, copied from
// the BIP), round trips of every length a byte string can have, and the
// padding rule of the 8-to-5 regrouping.
#include "common/TestSupport.h"
#include "encoding/Bech32.h"

#include <QJsonArray>
#include <QtTest>

using namespace watchword;
using namespace watchword::encoding;

Q_DECLARE_METATYPE(watchword::encoding::Bech32Error)

class TestBech32 : public QObject
{
    Q_OBJECT

private slots:
    void bip350Valid_data();
    void bip350Valid();
    void bip350Invalid_data();
    void bip350Invalid();
    void roundTrips();
    void everySubstitutionIsFound();
    void paddingMustBeZero();
};

void TestBech32::bip350Valid_data()
{
    QTest::addColumn<QString>("text");
    const auto valid =
        test::loadJson(QStringLiteral("bech32/bip350.json"))[QStringLiteral("valid")].toArray();
    QCOMPARE(valid.size(), 7);
    for (const auto value : valid)
        QTest::addRow("%s", qPrintable(value.toString())) << value.toString();
}

void TestBech32::bip350Valid()
{
    QFETCH(QString, text);
    const std::string bytes = text.toStdString();
    const auto groups = bech32mGroups(bytes);
    QVERIFY2(groups.ok(), groups.ok() ? "" : groups.error().message.c_str());
    // Written again from its groups, it is the same string (in lower case).
    QCOMPARE(groups->humanReadablePart, text.left(text.lastIndexOf(u'1')).toLower().toStdString());
}

void TestBech32::bip350Invalid_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<Bech32Error>("expected");
    const auto invalid =
        test::loadJson(QStringLiteral("bech32/bip350.json"))[QStringLiteral("invalid")].toArray();
    QCOMPARE(invalid.size(), 14);
    // BIP-350's reasons, in its order, as the errors this decoder gives.
    const Bech32Error expected[] = {
        Bech32Error::BadCharacter, Bech32Error::BadCharacter, Bech32Error::BadCharacter,
        Bech32Error::TooLong,      Bech32Error::NoSeparator,  Bech32Error::NoSeparator,
        Bech32Error::BadCharacter, Bech32Error::BadCharacter, Bech32Error::TooShort,
        Bech32Error::BadCharacter, Bech32Error::BadCharacter, Bech32Error::BadChecksum,
        Bech32Error::NoSeparator,  Bech32Error::NoSeparator};
    for (int i = 0; i < invalid.size(); ++i) {
        const auto entry = invalid[i].toObject();
        QTest::addRow("%d: %s", i, qPrintable(entry[QStringLiteral("reason")].toString()))
            << QByteArray::fromHex(entry[QStringLiteral("hex")].toString().toLatin1())
            << expected[i];
    }
}

void TestBech32::bip350Invalid()
{
    QFETCH(QByteArray, text);
    QFETCH(Bech32Error, expected);
    const auto groups = bech32mGroups(std::string_view(text.constData(), std::size_t(text.size())));
    QVERIFY(!groups.ok());
    QCOMPARE(groups.error().code, expected);
    QVERIFY(!groups.error().message.empty());
}

void TestBech32::roundTrips()
{
    test::SeededRandom random(test::testSeed());
    for (std::size_t length = 0; length <= 50; ++length) {
        Bytes data(length);
        random.fill(data);
        const std::string text = toBech32m("ww", data);
        const auto decoded = fromBech32m(text);
        QVERIFY2(decoded.ok(), decoded.ok() ? "" : decoded.error().message.c_str());
        QCOMPARE(decoded->humanReadablePart, std::string("ww"));
        QVERIFY(decoded->data == data);
        // Upper case reads the same.
        std::string upper = text;
        for (auto& c : upper)
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        QVERIFY(fromBech32m(upper)->data == data);
    }
}

void TestBech32::everySubstitutionIsFound()
{
    // Any one letter changed to any other of the alphabet is a bad checksum.
    const Bytes key = test::hex(
        QStringLiteral("03ff42cfd942841e0cb79a15922820861dcc16216ae648a37d3659d3113d2514fc"));
    const std::string text = toBech32m("ww", key);
    const std::string alphabet = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    int tried = 0;
    for (std::size_t i = 3; i < text.size(); ++i) {
        for (const char c : alphabet) {
            if (c == text[i])
                continue;
            std::string changed = text;
            changed[i] = c;
            const auto result = fromBech32m(changed);
            QVERIFY(!result.ok());
            QCOMPARE(result.error().code, Bech32Error::BadChecksum);
            ++tried;
        }
    }
    QCOMPARE(tried, int(text.size() - 3) * 31);
}

void TestBech32::paddingMustBeZero()
{
    // "ww" and the 5-bit groups of one byte (8 bits: 2 groups, 2 bits of
    // padding), the padding set: refused although the checksum is right.
    const auto good = bech32mGroups(toBech32m("ww", Bytes{0xff}));
    QVERIFY(good.ok());
    QCOMPARE(good->groups.size(), std::size_t{2});
    QCOMPARE(int(good->groups[1]), 0x1c); // 111 then 00 padding
    // A valid BIP-350 string whose groups do not end on a byte.
    const auto odd = fromBech32m("11lllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllll"
                                 "lllllllllllllllllllludsr8");
    QVERIFY(!odd.ok());
    QCOMPARE(odd.error().code, Bech32Error::BadPadding);
}

QTEST_APPLESS_MAIN(TestBech32)
#include "TestBech32.moc"
