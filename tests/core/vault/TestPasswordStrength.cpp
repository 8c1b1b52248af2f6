// The password strength estimate: hand-computed bits for each model, the
// common-password list, and the score thresholds.
#include "vault/PasswordStrength.h"

#include <QtTest>
#include <cmath>

using namespace watchword::vault;

class TestPasswordStrength : public QObject
{
    Q_OBJECT

private slots:
    void estimates_data()
    {
        QTest::addColumn<QByteArray>("password");
        QTest::addColumn<double>("bits");
        QTest::addColumn<int>("score");
        const double lower = std::log2(26.0);
        const double all = std::log2(95.0);
        const double word = std::log2(7776.0);
        // One lower-case letter, then a run: each step of "abc..." adds 1 bit.
        QTest::newRow("alphabet run") << QByteArray("abcdefgh") << lower + 7 << 0;
        QTest::newRow("one letter") << QByteArray("x") << lower << 0;
        QTest::newRow("repeats") << QByteArray("aaaaaaaaaaaaaaaaaaaa") << lower + 19 << 0;
        // "Tr" is a keyboard run (t, r are neighbours on the top row).
        QTest::newRow("Tr0ub4dor&3") << QByteArray("Tr0ub4dor&3") << 10 * all + 1 << 3;
        // Words: the smaller model wins.
        QTest::newRow("four words") << QByteArray("correct horse battery staple") << 4 * word << 2;
        QTest::newRow("six words")
            << QByteArray("correct-horse-battery-staple-orbit-lamp") << 6 * word << 3;
        QTest::newRow("seven words")
            << QByteArray("tiger.oboe.velvet.gravel.plume.anvil.sorrow") << 7 * word << 4;
        // Non-ASCII characters count once each, from a pool of 26 + 100.
        QTest::newRow("non-ASCII") << QByteArray("\xc3\xb1"
                                                 "and\xc3\xba")
                                   << 5 * std::log2(126.0) << 1;
    }

    void estimates()
    {
        QFETCH(QByteArray, password);
        QFETCH(double, bits);
        QFETCH(int, score);
        const auto strength =
            estimatePasswordStrength(std::string_view(password.constData(), password.size()));
        QVERIFY2(std::abs(strength.bits - bits) < 1e-9,
                 qPrintable(QStringLiteral("%1 bits, expected %2").arg(strength.bits).arg(bits)));
        QCOMPARE(strength.score, score);
        QCOMPARE(strength.hint.empty(), score == 4);
    }

    void commonPasswordsScoreZero_data()
    {
        QTest::addColumn<QByteArray>("password");
        QTest::newRow("listed") << QByteArray("letmein");
        QTest::newRow("any case, digits and symbols appended") << QByteArray("LetMeIn2024!");
        QTest::newRow("long but listed") << QByteArray("qwertyuiop");
        QTest::newRow("our own name") << QByteArray("Watchword1");
    }

    void commonPasswordsScoreZero()
    {
        QFETCH(QByteArray, password);
        const auto strength = estimatePasswordStrength(password.toStdString());
        QCOMPARE(strength.score, 0);
        QVERIFY(QByteArray::fromStdString(strength.hint).contains("common"));
    }

    void hintsSayWhatWouldHelp()
    {
        QVERIFY(QByteArray::fromStdString(estimatePasswordStrength("").hint).contains("Enter"));
        QVERIFY(QByteArray::fromStdString(estimatePasswordStrength("aaaaaaaaaaaa").hint)
                    .contains("Repeated"));
        QVERIFY(QByteArray::fromStdString(estimatePasswordStrength("maple river").hint)
                    .contains("another word"));
        QVERIFY(
            QByteArray::fromStdString(estimatePasswordStrength("k9#Tz").hint).contains("longer"));
    }
};

QTEST_APPLESS_MAIN(TestPasswordStrength)
#include "TestPasswordStrength.moc"
