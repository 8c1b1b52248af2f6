// The identity text and fingerprint (share/Identity.h) against
// tests/data/share/identity_vectors.json (computed independently, with
// BIP-350's reference algorithm), and the ways a pasted identity is refused.
#include "common/TestSupport.h"
#include "encoding/Bech32.h"
#include "keychain/Keychain.h"
#include "share/Identity.h"

#include <QJsonArray>
#include <QtTest>

using namespace watchword;
using namespace watchword::share;

Q_DECLARE_METATYPE(watchword::share::IdentityError)

namespace {

crypto::PublicKey keyOf(const QString& hex)
{
    auto key = crypto::PublicKey::fromSec1(test::hex(hex));
    if (!key)
        qFatal("bad key in test data");
    return std::move(key).value();
}

} // namespace

class TestIdentity : public QObject
{
    Q_OBJECT

private slots:
    void independentVectors_data();
    void independentVectors();
    void theKeychainsSharingKey();
    void refused_data();
    void refused();
};

void TestIdentity::independentVectors_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("words");
    const auto vectors =
        test::loadJson(QStringLiteral("share/identity_vectors.json"))[QStringLiteral("vectors")]
            .toArray();
    QCOMPARE(vectors.size(), 6);
    for (const auto value : vectors) {
        const auto v = value.toObject();
        QStringList words;
        for (const auto word : v[QStringLiteral("fingerprint")].toArray())
            words << word.toString();
        QTest::addRow("%s", qPrintable(v[QStringLiteral("name")].toString()))
            << v[QStringLiteral("sharing_public_key")].toString()
            << v[QStringLiteral("identity_text")].toString() << words;
    }
}

void TestIdentity::independentVectors()
{
    QFETCH(QString, key);
    QFETCH(QString, text);
    QFETCH(QStringList, words);
    const auto publicKey = keyOf(key);
    QCOMPARE(QString::fromStdString(identityText(publicKey)), text);
    QStringList ours;
    for (const auto word : identityFingerprint(publicKey))
        ours << QString::fromUtf8(word.data(), qsizetype(word.size()));
    QCOMPARE(ours, words);
    // Read back: as written, with spaces and a line break around, in upper case.
    for (const QString& pasted :
         {text, QStringLiteral("  ") + text + QStringLiteral("\r\n"), text.toUpper()}) {
        const auto parsed = parseIdentityText(pasted.toStdString());
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
        QVERIFY(*parsed == publicKey);
    }
}

void TestIdentity::theKeychainsSharingKey()
{
    // The identity is the sharing key's, never the recovery key's.
    const auto keychain = keychain::Keychain::restore(
        "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
        "about");
    QVERIFY(keychain.ok());
    const auto text = identityText(keychain->sharingKey().publicKey);
    QCOMPARE(text,
             std::string("watchword-id:ww1q0l59n7eg2zpur9hng2ey2pqscwuc93pdtny3gmaxevaxyfay520"
                         "cewspg5"));
    QVERIFY(text != identityText(keychain->recoveryKey().publicKey));
    QVERIFY(text != identityText(keychain->versionOneRecoveryKey().publicKey));
}

void TestIdentity::refused_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<IdentityError>("expected");
    const QString good = QStringLiteral(
        "watchword-id:ww1q0l59n7eg2zpur9hng2ey2pqscwuc93pdtny3gmaxevaxyfay520cewspg5");
    QTest::newRow("empty") << QString() << IdentityError::NotAnIdentity;
    QTest::newRow("no prefix") << good.mid(13) << IdentityError::NotAnIdentity;
    QTest::newRow("an otpauth link")
        << QStringLiteral("otpauth://totp/x?secret=JBSWY3DP") << IdentityError::NotAnIdentity;
    QString changed = good;
    changed[40] = changed[40] == u'q' ? u'p' : u'q';
    QTest::newRow("a letter changed") << changed << IdentityError::Damaged;
    QTest::newRow("a letter missing") << QString(good).remove(40, 1) << IdentityError::Damaged;
    QTest::newRow("two letters swapped")
        << good.left(40) + good[41] + good[40] + good.mid(42) << IdentityError::Damaged;
    QTest::newRow("cut") << good.left(50) << IdentityError::Damaged;
    QTest::newRow("mixed case") << good.left(30) + good.mid(30).toUpper() << IdentityError::Damaged;
    QTest::newRow("a Bech32m text of another part")
        << QStringLiteral("watchword-id:") +
               QString::fromStdString(encoding::toBech32m("xx", Bytes(33, 2)))
        << IdentityError::WrongKind;
    // 33 bytes under "ww" that are no point: prefix 0x05.
    Bytes notAPoint(33, 0x11);
    notAPoint[0] = 0x05;
    QTest::newRow("33 bytes that are no key")
        << QStringLiteral("watchword-id:") +
               QString::fromStdString(encoding::toBech32m("ww", notAPoint))
        << IdentityError::NotAKey;
    QTest::newRow("32 bytes") << QStringLiteral("watchword-id:") +
                                     QString::fromStdString(encoding::toBech32m("ww", Bytes(32, 1)))
                              << IdentityError::WrongKind;
}

void TestIdentity::refused()
{
    QFETCH(QString, text);
    QFETCH(IdentityError, expected);
    const auto parsed = parseIdentityText(text.toStdString());
    QVERIFY(!parsed.ok());
    QCOMPARE(parsed.error().code, expected);
    QVERIFY(!parsed.error().message.empty());
}

QTEST_APPLESS_MAIN(TestIdentity)
#include "TestIdentity.moc"
