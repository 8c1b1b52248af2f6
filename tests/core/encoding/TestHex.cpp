// Hex: lower case out, either case in, and a specific error for each mistake.
#include "common/TestSupport.h"
#include "encoding/Hex.h"

#include <QtTest>

using namespace watchword;
using namespace watchword::encoding;

class TestHex : public QObject
{
    Q_OBJECT

private slots:
    void roundTripEveryByte()
    {
        Bytes all(256);
        for (std::size_t i = 0; i < all.size(); ++i)
            all[i] = static_cast<std::uint8_t>(i);
        const std::string text = toHex(all);
        QCOMPARE(text.size(), std::size_t{512});
        QCOMPARE(text.substr(0, 8), std::string("00010203"));
        QCOMPARE(text.substr(504), std::string("fcfdfeff"));
        const auto back = fromHex(text);
        QVERIFY(back.ok());
        QVERIFY(*back == all);
    }

    void acceptsUpperCase()
    {
        const auto bytes = fromHex("DEADbeef");
        QVERIFY(bytes.ok());
        QCOMPARE(toHex(*bytes), std::string("deadbeef"));
        QVERIFY(fromHex("").ok());
    }

    void rejects_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("odd length") << "abc" << int(HexError::OddLength) << "odd";
        QTest::newRow("letter g") << "0g" << int(HexError::InvalidCharacter) << "position 2";
        QTest::newRow("space") << "00 1" << int(HexError::InvalidCharacter) << "position 3";
        QTest::newRow("prefix 0x") << "0x00" << int(HexError::InvalidCharacter) << "position 2";
        QTest::newRow("non-ASCII")
            << QString::fromUtf8("\u00e900") << int(HexError::InvalidCharacter) << "position 1";
    }

    void rejects()
    {
        QFETCH(QString, text);
        QFETCH(int, code);
        QFETCH(QString, mentions);
        const auto result = fromHex(text.toStdString());
        QVERIFY(!result.ok());
        QCOMPARE(int(result.error().code), code);
        QVERIFY2(QString::fromStdString(result.error().message).contains(mentions),
                 result.error().message.c_str());
    }

    void digitValues()
    {
        QCOMPARE(hexDigitValue('0'), 0);
        QCOMPARE(hexDigitValue('9'), 9);
        QCOMPARE(hexDigitValue('a'), 10);
        QCOMPARE(hexDigitValue('F'), 15);
        QCOMPARE(hexDigitValue('g'), -1);
        QCOMPARE(hexDigitValue('\0'), -1);
    }
};

QTEST_APPLESS_MAIN(TestHex)
#include "TestHex.moc"
