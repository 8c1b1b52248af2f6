// Decimal: grouped fixed-point numbers and shortest round-trip numbers,
// whatever the C locale says (a locale with a decimal comma is set for the
// whole test when the machine has one).
#include "encoding/Decimal.h"

#include <QtTest>
#include <charconv>
#include <clocale>
#include <cmath>
#include <limits>
#include <string>

using namespace watchword::encoding;

class TestDecimal : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // std::to_chars ignores the locale; printf would write "0,25" here.
        for (const char* name : {"de_DE.UTF-8", "fr_FR.UTF-8", "de_DE.utf8"})
            if (std::setlocale(LC_ALL, name) != nullptr)
                break;
    }

    void cleanupTestCase() { std::setlocale(LC_ALL, "C"); }

    void grouped_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("decimals");
        QTest::addColumn<QString>("expected");
        QTest::newRow("zero") << 0.0 << 0 << "0";
        QTest::newRow("three digits") << 999.0 << 0 << "999";
        QTest::newRow("four digits") << 1000.0 << 0 << "1,000";
        QTest::newRow("report count") << 19231.0 << 0 << "19,231";
        QTest::newRow("seven digits") << 1234567.0 << 0 << "1,234,567";
        QTest::newRow("fraction") << 0.25 << 2 << "0.25";
        QTest::newRow("grouped with decimals") << 1234.5 << 2 << "1,234.50";
        QTest::newRow("negative") << -1234.5 << 2 << "-1,234.50";
        QTest::newRow("negative small") << -12.0 << 1 << "-12.0";
        QTest::newRow("2.675 is stored below the half") << 2.675 << 2 << "2.67";
        QTest::newRow("rounds up into a group") << 999.96 << 1 << "1,000.0";
        QTest::newRow("six digits") << 123456.0 << 0 << "123,456";
        QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << 2 << "inf";
        QTest::newRow("minus infinity") << -std::numeric_limits<double>::infinity() << 0 << "-inf";
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << 1 << "nan";
    }

    void grouped()
    {
        QFETCH(double, value);
        QFETCH(int, decimals);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(groupedNumber(value, decimals)), expected);
    }

    void fixed_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("decimals");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no grouping") << 19231.0 << 0 << "19231";
        QTest::newRow("padded decimals") << 1234.5 << 2 << "1234.50";
        QTest::newRow("rounded") << 0.126 << 2 << "0.13";
        QTest::newRow("negative") << -0.5 << 1 << "-0.5";
        QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << 1 << "inf";
    }

    void fixed()
    {
        QFETCH(double, value);
        QFETCH(int, decimals);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(fixedNumber(value, decimals)), expected);
    }

    void groupedLargestDouble()
    {
        // 309 digits: 103 groups, 102 commas, no truncation.
        const std::string text = groupedNumber(std::numeric_limits<double>::max(), 0);
        QCOMPARE(text.size(), std::size_t{309 + 102});
        QVERIFY(text.starts_with("179,769,313,486,231,570"));
        QCOMPARE(text.find('.'), std::string::npos);
    }

    void shortest_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("integer") << 2.0 << "2";
        QTest::newRow("quarter") << 0.25 << "0.25";
        QTest::newRow("tenth") << 0.1 << "0.1";
        QTest::newRow("negative") << -1.5 << "-1.5";
        QTest::newRow("huge") << 1e300 << "1e+300";
        QTest::newRow("tiny") << 5e-324 << "5e-324";
        QTest::newRow("benchmark time") << 829.4 << "829.4";
    }

    void shortest()
    {
        QFETCH(double, value);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(shortestNumber(value)), expected);
    }

    void shortestReadsBack()
    {
        // Pseudo-random doubles over many magnitudes: each reads back exactly.
        double value = 0.123456789;
        for (int i = 0; i < 2000; ++i) {
            value = std::fmod(value * 7919.0 + 0.5772156649, 1000.0) * std::pow(10.0, i % 40 - 20);
            const std::string text = shortestNumber(value);
            double back = 0;
            const auto result = std::from_chars(text.data(), text.data() + text.size(), back);
            QVERIFY2(result.ec == std::errc() && result.ptr == text.data() + text.size(),
                     text.c_str());
            QCOMPARE(back, value);
        }
    }
};

QTEST_GUILESS_MAIN(TestDecimal)
#include "TestDecimal.moc"
