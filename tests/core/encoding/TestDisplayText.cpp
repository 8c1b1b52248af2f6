// Text shown to a person: escaped for a terminal (nothing in it can move the
// cursor, start an escape sequence or forge a line), labels neutralised
// (what a label shows is all it holds), and the strict UTF-8 reader both
// stand on.
#include "common/TestSupport.h"
#include "encoding/DisplayText.h"
#include "encoding/Utf8.h"

#include <QtTest>

using namespace watchword;
using namespace watchword::encoding;

namespace {

std::string bytes(const QByteArray& data)
{
    return std::string(data.constData(), static_cast<std::size_t>(data.size()));
}

} // namespace

class TestDisplayText : public QObject
{
    Q_OBJECT

private slots:
    void decodesWellFormedUtf8_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<uint>("codePoint");
        QTest::addColumn<int>("length");
        QTest::newRow("ASCII") << QByteArray("A") << 0x41u << 1;
        QTest::newRow("NUL") << QByteArray("\0", 1) << 0u << 1;
        QTest::newRow("two bytes, lowest") << QByteArray("\xc2\x80") << 0x80u << 2;
        QTest::newRow("e acute") << QByteArray("\xc3\xa9") << 0xe9u << 2;
        QTest::newRow("three bytes, lowest") << QByteArray("\xe0\xa0\x80") << 0x800u << 3;
        QTest::newRow("before surrogates") << QByteArray("\xed\x9f\xbf") << 0xd7ffu << 3;
        QTest::newRow("RLO") << QByteArray("\xe2\x80\xae") << 0x202eu << 3;
        QTest::newRow("four bytes, lowest") << QByteArray("\xf0\x90\x80\x80") << 0x10000u << 4;
        QTest::newRow("highest") << QByteArray("\xf4\x8f\xbf\xbf") << 0x10ffffu << 4;
    }

    void decodesWellFormedUtf8()
    {
        QFETCH(QByteArray, text);
        QFETCH(uint, codePoint);
        QFETCH(int, length);
        const auto character = decodeUtf8At(bytes(text), 0);
        QVERIFY(character.has_value());
        QCOMPARE(uint(character->codePoint), codePoint);
        QCOMPARE(int(character->length), length);
    }

    void refusesMalformedUtf8_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("lone continuation") << QByteArray("\x80");
        QTest::newRow("overlong slash") << QByteArray("\xc0\xaf");
        QTest::newRow("overlong C1") << QByteArray("\xc1\x81");
        QTest::newRow("overlong three bytes") << QByteArray("\xe0\x9f\xbf");
        QTest::newRow("surrogate") << QByteArray("\xed\xa0\x80");
        QTest::newRow("past U+10FFFF") << QByteArray("\xf4\x90\x80\x80");
        QTest::newRow("F5 lead") << QByteArray("\xf5\x80\x80\x80");
        QTest::newRow("truncated") << QByteArray("\xe2\x80");
        QTest::newRow("bad continuation") << QByteArray("\xe2\x28\xa1");
    }

    void refusesMalformedUtf8()
    {
        QFETCH(QByteArray, text);
        QVERIFY(!decodeUtf8At(bytes(text), 0).has_value());
    }

    // The whole-text validator: each malformed sequence above, at every offset
    // of a run of ASCII (before, inside and after the eight-byte steps), is
    // found; the same runs around well-formed characters are accepted.
    void validatesWholeText()
    {
        const QByteArray good[] = {"\xc3\xa9",         "\xe0\xa0\x80",     "\xed\x9f\xbf",
                                   "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf", QByteArray("\0", 1)};
        const QByteArray bad[] = {"\x80",         "\xc0\xaf",         "\xe0\x9f\xbf",
                                  "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80",
                                  "\xe2\x80",     "\xe2\x28\xa1",     "\xff"};
        QVERIFY(isUtf8(""));
        for (int before = 0; before <= 17; ++before)
            for (int after = 0; after <= 9; ++after) {
                const QByteArray head(before, 'a');
                const QByteArray tail(after, 'z');
                for (const QByteArray& g : good)
                    QVERIFY2(isUtf8(bytes(head + g + tail)), (head + g.toHex() + tail).constData());
                for (const QByteArray& b : bad)
                    QVERIFY2(!isUtf8(bytes(head + b + tail)),
                             (head + b.toHex() + tail).constData());
            }
    }

    void replacesMalformedBytes_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("valid");
        const QByteArray fffd("\xef\xbf\xbd");
        QTest::newRow("well-formed kept") << QByteArray("Z\xc3\xbcrich \xf0\x9f\x94\x91")
                                          << QByteArray("Z\xc3\xbcrich \xf0\x9f\x94\x91");
        QTest::newRow("lone continuation") << QByteArray("a\x80z") << "a" + fffd + "z";
        QTest::newRow("overlong, byte by byte") << QByteArray("\xc0\xaf") << fffd + fffd;
        QTest::newRow("truncated at the end") << QByteArray("ok\xe2\x80") << "ok" + fffd + fffd;
        QTest::newRow("surrogate") << QByteArray("\xed\xa0\x80") << fffd + fffd + fffd;
    }

    void replacesMalformedBytes()
    {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, valid);
        QCOMPARE(QByteArray::fromStdString(withValidUtf8(bytes(text))), valid);
    }

    void escapesForTheTerminal_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("shown");
        QTest::newRow("plain") << QByteArray("ACME:alice@example.com")
                               << QByteArray("ACME:alice@example.com");
        QTest::newRow("non-ASCII letters pass")
            << QByteArray("Z\xc3\xbcrich \xe6\x9d\xb1\xe4\xba\xac")
            << QByteArray("Z\xc3\xbcrich \xe6\x9d\xb1\xe4\xba\xac");
        QTest::newRow("forged line") << QByteArray("x\nwatchword-cli: all good")
                                     << QByteArray("x\\nwatchword-cli: all good");
        QTest::newRow("carriage return") << QByteArray("a\rb") << QByteArray("a\\rb");
        QTest::newRow("tab") << QByteArray("a\tb") << QByteArray("a\\tb");
        QTest::newRow("ESC sequence")
            << QByteArray("\x1b[2J\x1b]0;title\x07") << QByteArray("\\e[2J\\e]0;title\\x07");
        QTest::newRow("NUL and DEL") << QByteArray("a\0b\x7f", 4) << QByteArray("a\\x00b\\x7f");
        QTest::newRow("C1 CSI") << QByteArray("\xc2\x9b"
                                              "31m")
                                << QByteArray("\\u009b31m");
        QTest::newRow("right-to-left override")
            << QByteArray("evil\xe2\x80\xaegpj.exe") << QByteArray("evil\\u202egpj.exe");
        QTest::newRow("isolates") << QByteArray("\xe2\x81\xa6x\xe2\x81\xa9")
                                  << QByteArray("\\u2066x\\u2069");
        QTest::newRow("zero width space")
            << QByteArray("Pay\xe2\x80\x8bPal") << QByteArray("Pay\\u200bPal");
        QTest::newRow("byte order mark") << QByteArray("\xef\xbb\xbfx") << QByteArray("\\ufeffx");
        QTest::newRow("line separator") << QByteArray("a\xe2\x80\xa8"
                                                      "b")
                                        << QByteArray("a\\u2028b");
        QTest::newRow("zero width joiner kept (emoji)")
            << QByteArray("\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x92\xbb")
            << QByteArray("\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x92\xbb");
        QTest::newRow("bytes that are not UTF-8")
            << QByteArray("a\xff\xc3(b") << QByteArray("a\\xff\\xc3(b");
    }

    void escapesForTheTerminal()
    {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, shown);
        QCOMPARE(QByteArray::fromStdString(escapeForTerminal(bytes(text))), shown);
    }

    void keepsOurOwnLineBreaksWhenAsked()
    {
        QCOMPARE(escapeForTerminal("one\ntwo\x1b", LineBreaks::Keep), std::string("one\ntwo\\e"));
        QCOMPARE(escapeForTerminal("one\r\ntwo", LineBreaks::Keep), std::string("one\\r\ntwo"));
    }

    void escapedTextHoldsNoControlOrFormatting()
    {
        // Every byte value, every code point of the ranges concerned: what
        // comes out is printable ASCII or UTF-8 of visible characters.
        std::string all;
        for (int b = 0; b < 256; ++b)
            all.push_back(static_cast<char>(b));
        for (char32_t c :
             {0x80u, 0x9fu, 0xadu, 0x61cu, 0x180eu, 0x200bu, 0x200eu, 0x200fu, 0x2028u, 0x2029u,
              0x202au, 0x202eu, 0x2060u, 0x2064u, 0x2066u, 0x2069u, 0xfeffu}) {
            QVERIFY2(isInvisibleFormatting(c) || isControlCharacter(c),
                     qPrintable(QString::number(uint(c), 16)));
            all += QString(QChar(char16_t(c))).toStdString();
        }
        const std::string shown = escapeForTerminal(all);
        for (std::size_t i = 0; i < shown.size();) {
            const auto character = decodeUtf8At(shown, i);
            QVERIFY(character.has_value());
            QVERIFY(!isControlCharacter(character->codePoint));
            QVERIFY(!isInvisibleFormatting(character->codePoint));
            i += character->length;
        }
    }

    void escapesInvisibleCharactersInJson()
    {
        // What a JSON writer leaves raw becomes \u escapes; the rest,
        // backslash escapes included, passes as it is.
        QCOMPARE(escapeInvisibleInJson("{\"a\":\"x\\ny\u202ez\x7f\u0085\u00e9\"}"),
                 std::string("{\"a\":\"x\\ny\\u202ez\\u007f\\u0085\u00e9\"}"));
        QCOMPARE(escapeInvisibleInJson("[\"Pay\u200bPal\ufeff\"]"),
                 std::string("[\"Pay\\u200bPal\\ufeff\"]"));
    }

    void neutralisesLabels_data()
    {
        QTest::addColumn<QByteArray>("label");
        QTest::addColumn<QByteArray>("kept");
        QTest::newRow("plain") << QByteArray("GitHub") << QByteArray("GitHub");
        QTest::newRow("accents") << QByteArray("Z\xc3\xbcrich") << QByteArray("Z\xc3\xbcrich");
        QTest::newRow("newline to space") << QByteArray("a\nb") << QByteArray("a b");
        QTest::newRow("ESC to space") << QByteArray("\x1b[31mred") << QByteArray(" [31mred");
        QTest::newRow("C1 to space") << QByteArray("a\xc2\x85"
                                                   "b")
                                     << QByteArray("a b");
        QTest::newRow("override removed")
            << QByteArray("moc.elgoog\xe2\x80\xae") << QByteArray("moc.elgoog");
        QTest::newRow("zero width space removed")
            << QByteArray("Pay\xe2\x80\x8bPal") << QByteArray("PayPal");
        QTest::newRow("soft hyphen removed")
            << QByteArray("Pay\xc2\xadPal") << QByteArray("PayPal");
        QTest::newRow("BOM removed") << QByteArray("\xef\xbb\xbf"
                                                   "ACME")
                                     << QByteArray("ACME");
        QTest::newRow("joiner kept") << QByteArray("\xd9\x85\xe2\x80\x8c\xd9\x8a")
                                     << QByteArray("\xd9\x85\xe2\x80\x8c\xd9\x8a");
        QTest::newRow("not UTF-8 left for the vault to refuse")
            << QByteArray("a\xff") << QByteArray("a\xff");
    }

    void neutralisesLabels()
    {
        QFETCH(QByteArray, label);
        QFETCH(QByteArray, kept);
        const std::string once = neutralisedLabel(bytes(label));
        QCOMPARE(QByteArray::fromStdString(once), kept);
        QCOMPARE(neutralisedLabel(once), once);
    }
};

QTEST_APPLESS_MAIN(TestDisplayText)
#include "TestDisplayText.moc"
