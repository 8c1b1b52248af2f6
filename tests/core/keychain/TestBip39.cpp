// BIP39: the compiled-in wordlist, the 24 official English vectors
// (passphrase "TREZOR"), each kind of bad phrase, normalization, and a
// randomized round trip.
#include "common/TestSupport.h"
#include "keychain/Bip39.h"
#include "keychain/Wordlist.h"

#include <QCryptographicHash>
#include <QtTest>

using namespace watchword;
using namespace watchword::keychain;

Q_DECLARE_METATYPE(watchword::keychain::KeychainError)

namespace {

QString text(const SecureBuffer& buffer)
{
    return QString::fromUtf8(buffer.view().data(), static_cast<qsizetype>(buffer.size()));
}

} // namespace

class TestBip39 : public QObject
{
    Q_OBJECT

private slots:
    void wordlistIsTheBip39EnglishList();
    void wordIndexFindsEveryWordAndNothingElse();
    void officialVectors_data();
    void officialVectors();
    void rejectsBadEntropySizes_data();
    void rejectsBadEntropySizes();
    void rejectsBadPhrases_data();
    void rejectsBadPhrases();
    void normalization_data();
    void normalization();
    void randomizedRoundTrip();
    void seedUsesPassphraseBytesAsGiven();
};

void TestBip39::wordlistIsTheBip39EnglishList()
{
    const auto words = englishWordlist();
    QCOMPARE(words.size(), std::size_t{2048});
    QCOMPARE(words.front(), std::string_view("abandon"));
    QCOMPARE(words.back(), std::string_view("zoo"));
    // The list joined as the file has it hashes to the published SHA-256.
    QByteArray file;
    for (const auto word : words)
        file.append(word.data(), static_cast<qsizetype>(word.size())).append('\n');
    QCOMPARE(QCryptographicHash::hash(file, QCryptographicHash::Sha256).toHex(),
             QByteArray("2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda"));
}

void TestBip39::wordIndexFindsEveryWordAndNothingElse()
{
    const auto words = englishWordlist();
    for (std::size_t i = 0; i < words.size(); ++i) {
        const auto index = wordIndex(words[i]);
        QVERIFY(index.has_value());
        QCOMPARE(std::size_t{*index}, i);
        if (i > 0)
            QVERIFY(words[i - 1] < words[i]);
    }
    for (const char* absent : {"", "Abandon", "ABANDON", "abando", "abandonn", "zoos", "aaa", "zzz",
                               "abandon ", " zoo", "bitcoin"})
        QVERIFY2(!wordIndex(absent).has_value(), absent);
}

void TestBip39::officialVectors_data()
{
    QTest::addColumn<QString>("entropy");
    QTest::addColumn<QString>("mnemonic");
    QTest::addColumn<QString>("seed");
    const auto english =
        test::loadJson(QStringLiteral("bip39/vectors.json"))[QStringLiteral("english")].toArray();
    int rows = 0;
    for (const auto vector : english) {
        const auto fields = vector.toArray();
        QTest::addRow("vector %d (%d words)", rows,
                      int(fields[1].toString().count(QLatin1Char(' ')) + 1))
            << fields[0].toString() << fields[1].toString() << fields[2].toString();
        ++rows;
    }
    QCOMPARE(rows, 24);
}

void TestBip39::officialVectors()
{
    QFETCH(QString, entropy);
    QFETCH(QString, mnemonic);
    QFETCH(QString, seed);
    const Bytes entropyBytes = test::hex(entropy);
    const auto encoded = entropyToMnemonic(entropyBytes);
    QVERIFY(encoded.ok());
    QCOMPARE(text(*encoded), mnemonic);

    const QByteArray mnemonicUtf8 = mnemonic.toUtf8();
    const std::string_view phrase(mnemonicUtf8.constData(),
                                  static_cast<std::size_t>(mnemonicUtf8.size()));
    const auto decoded = mnemonicToEntropy(phrase);
    QVERIFY(decoded.ok());
    QCOMPARE(test::toHex(*decoded), entropy);

    const auto derived = mnemonicToSeed(phrase, "TREZOR");
    QVERIFY(derived.ok());
    QCOMPARE(derived->size(), seedSize);
    QCOMPARE(test::toHex(*derived), seed);
}

void TestBip39::rejectsBadEntropySizes_data()
{
    QTest::addColumn<int>("size");
    for (int size : {0, 1, 12, 15, 17, 18, 31, 33, 64})
        QTest::addRow("%d bytes", size) << size;
}

void TestBip39::rejectsBadEntropySizes()
{
    QFETCH(int, size);
    const Bytes entropy(static_cast<std::size_t>(size), 0x5a);
    const auto encoded = entropyToMnemonic(entropy);
    QVERIFY(!encoded.ok());
    QCOMPARE(encoded.error().code, KeychainError::InvalidEntropySize);
    QVERIFY(encoded.error().message.find(std::to_string(size)) != std::string::npos);
}

void TestBip39::rejectsBadPhrases_data()
{
    QTest::addColumn<QString>("phrase");
    QTest::addColumn<KeychainError>("error");
    QTest::addColumn<QString>("messagePart");
    const auto repeat = [](const QString& word, int times) {
        QStringList words;
        for (int i = 0; i < times; ++i)
            words << word;
        return words.join(QLatin1Char(' '));
    };
    const QString twelve = QStringLiteral(
        "legal winner thank year wave sausage worth useful legal winner thank yellow");
    const auto count = KeychainError::InvalidWordCount;
    QTest::newRow("empty") << QString() << count << QStringLiteral("not 0");
    QTest::newRow("1 word") << QStringLiteral("abandon") << count << QStringLiteral("not 1");
    QTest::newRow("11 words") << twelve.section(QLatin1Char(' '), 0, 10) << count
                              << QStringLiteral("not 11");
    QTest::newRow("13 words") << twelve + QStringLiteral(" abandon") << count
                              << QStringLiteral("not 13");
    QTest::newRow("25 words") << repeat(QStringLiteral("zoo"), 25) << count
                              << QStringLiteral("not 25");
    QTest::newRow("27 words") << repeat(QStringLiteral("zoo"), 27) << count
                              << QStringLiteral("not 27");
    QTest::newRow("trailing space (not normalized)")
        << twelve + QLatin1Char(' ') << count << QStringLiteral("not 13");

    const auto unknown = KeychainError::UnknownWord;
    QTest::newRow("first word unknown")
        << QStringLiteral("xyzzy") + twelve.mid(5) << unknown << QStringLiteral("word 1 ");
    QTest::newRow("last word truncated")
        << twelve.left(twelve.size() - 1) << unknown << QStringLiteral("word 12 ");
    QTest::newRow("upper case (not normalized)")
        << twelve.toUpper() << unknown << QStringLiteral("word 1 ");
    QTest::newRow("word 7 misspelt")
        << QString(twelve).replace(QStringLiteral("worth"), QStringLiteral("wurth")) << unknown
        << QStringLiteral("word 7 ");
    QTest::newRow("double space (not normalized)")
        << QString(twelve)
               .replace(QStringLiteral("wave "), QStringLiteral("wave  "))
               .section(QLatin1Char(' '), 0, 11)
        << unknown << QStringLiteral("word 6 ");

    const auto checksum = KeychainError::BadChecksum;
    // Zero entropy needs "about" last (checksum 0011); twelve "abandon" say 0000.
    QTest::newRow("12 x abandon") << repeat(QStringLiteral("abandon"), 12) << checksum
                                  << QStringLiteral("checksum");
    QTest::newRow("24 x abandon") << repeat(QStringLiteral("abandon"), 24) << checksum
                                  << QStringLiteral("checksum");
    QTest::newRow("last word changed")
        << twelve.section(QLatin1Char(' '), 0, 10) + QStringLiteral(" year") << checksum
        << QStringLiteral("checksum");
    QTest::newRow("two words swapped")
        << QStringLiteral(
               "winner legal thank year wave sausage worth useful legal winner thank yellow")
        << checksum << QStringLiteral("checksum");
    QTest::newRow("24 x zoo") << repeat(QStringLiteral("zoo"), 24) << checksum
                              << QStringLiteral("checksum");
}

void TestBip39::rejectsBadPhrases()
{
    QFETCH(QString, phrase);
    QFETCH(KeychainError, error);
    QFETCH(QString, messagePart);
    const QByteArray utf8 = phrase.toUtf8();
    const auto decoded = mnemonicToEntropy(
        std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())));
    QVERIFY(!decoded.ok());
    QCOMPARE(decoded.error().code, error);
    QVERIFY2(QString::fromStdString(decoded.error().message).contains(messagePart),
             decoded.error().message.c_str());
}

void TestBip39::normalization_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("normalized");
    QTest::newRow("already normal") << QByteArray("zoo zoo wrong") << QByteArray("zoo zoo wrong");
    QTest::newRow("upper and mixed case")
        << QByteArray("Zoo ZOO wRoNg") << QByteArray("zoo zoo wrong");
    QTest::newRow("whitespace runs")
        << QByteArray("  zoo \t\t zoo\r\n\n\v\fwrong   ") << QByteArray("zoo zoo wrong");
    QTest::newRow("only whitespace") << QByteArray(" \t\r\n ") << QByteArray();
    QTest::newRow("empty") << QByteArray() << QByteArray();
    QTest::newRow("one word") << QByteArray("\nABANDON\n") << QByteArray("abandon");
    // Bytes outside ASCII pass through: the caller NFKD-normalizes first.
    QTest::newRow("non-ASCII untouched") << QByteArray("CAF\xc3\x89  \xc3\xa9t\xc3\xa9")
                                         << QByteArray("caf\xc3\x89 \xc3\xa9t\xc3\xa9");
    QTest::newRow("digits and punctuation kept") << QByteArray("A1-b,C") << QByteArray("a1-b,c");
}

void TestBip39::normalization()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, normalized);
    const auto out = normalizeMnemonic(
        std::string_view(input.constData(), static_cast<std::size_t>(input.size())));
    QCOMPARE(QByteArray(out.view().data(), static_cast<qsizetype>(out.size())), normalized);
}

void TestBip39::randomizedRoundTrip()
{
    test::SeededRandom random(test::testSeed());
    const char* const spaces[] = {" ", "  ", "\t", "\n", " \r\n "};
    for (int round = 0; round < 500; ++round) {
        const std::size_t wordCount = 12 + 3 * (random.engine()() % 5);
        SecureBuffer entropy(entropySizeForWordCount(wordCount));
        random.fill(entropy.span());
        const auto mnemonic = entropyToMnemonic(entropy);
        QVERIFY(mnemonic.ok());
        QCOMPARE(std::size_t(std::count(mnemonic->begin(), mnemonic->end(), ' ')) + 1, wordCount);
        // The encoder's output is already normal.
        QCOMPARE(normalizeMnemonic(mnemonic->view()).view(), mnemonic->view());
        const auto decoded = mnemonicToEntropy(mnemonic->view());
        QVERIFY(decoded.ok());
        QCOMPARE(test::toHex(*decoded), test::toHex(entropy));

        // The same phrase as a person might type it normalizes back.
        std::string typed = spaces[random.engine()() % 5];
        for (const char c : mnemonic->view()) {
            if (c == ' ')
                typed += spaces[random.engine()() % 5];
            else
                typed += random.engine()() % 2 ? char(c - 'a' + 'A') : c;
        }
        const auto retyped = normalizeMnemonic(typed);
        QCOMPARE(retyped.view(), mnemonic->view());
        secureWipe(typed.data(), typed.size());

        // Flipping one entropy bit changes the phrase.
        entropy[random.engine()() % entropy.size()] ^=
            static_cast<std::uint8_t>(1u << (random.engine()() % 8));
        QVERIFY(entropyToMnemonic(entropy)->view() != mnemonic->view());
    }
}

void TestBip39::seedUsesPassphraseBytesAsGiven()
{
    // BIP39 vector 0 without a passphrase (python-mnemonic and every wallet
    // agree), and the passphrase bytes as UTF-8, unaltered.
    const std::string_view phrase = "abandon abandon abandon abandon abandon abandon abandon "
                                    "abandon abandon abandon abandon about";
    const auto empty = mnemonicToSeed(phrase, "");
    QVERIFY(empty.ok());
    QCOMPARE(test::toHex(*empty),
             QStringLiteral("5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc1"
                            "9a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4"));
    const auto trezor = mnemonicToSeed(phrase, "TREZOR");
    const auto lower = mnemonicToSeed(phrase, "trezor");
    QVERIFY(trezor.ok() && lower.ok());
    QVERIFY(test::toHex(*trezor) != test::toHex(*lower));
    QVERIFY(test::toHex(*trezor) != test::toHex(*empty));
}

QTEST_APPLESS_MAIN(TestBip39)
#include "TestBip39.moc"
