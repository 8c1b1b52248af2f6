// The keychain derivations against tests/data/keychain/vectors.json (computed
// independently, see its README), restore(create().mnemonic()) on random
// phrases of every size, and the errors of create and restore.
#include "common/TestSupport.h"
#include "crypto/CryptoState.h"
#include "keychain/Keychain.h"

#include <QtTest>

using namespace watchword;
using namespace watchword::keychain;

Q_DECLARE_METATYPE(watchword::keychain::KeychainError)

namespace {

std::string_view view(const QByteArray& bytes)
{
    return {bytes.constData(), static_cast<std::size_t>(bytes.size())};
}

QString text(const SecureBuffer& buffer)
{
    return QString::fromUtf8(buffer.view().data(), static_cast<qsizetype>(buffer.size()));
}

} // namespace

class TestKeychain : public QObject
{
    Q_OBJECT

private slots:
    void labelsMatchTheVectorFile();
    void independentVectors_data();
    void independentVectors();
    void restoreOfCreateGivesTheSameKeys_data();
    void restoreOfCreateGivesTheSameKeys();
    void passphraseSelectsAnotherKeychain();
    void createRejectsBadWordCounts_data();
    void createRejectsBadWordCounts();
    void restoreReportsPhraseErrors_data();
    void restoreReportsPhraseErrors();
    void refusesWhenCryptoIsDisabled();
};

void TestKeychain::labelsMatchTheVectorFile()
{
    const auto root = test::loadJson(QStringLiteral("keychain/vectors.json"));
    QCOMPARE(root[QStringLiteral("salt")].toString().toStdString(), std::string(keychainSalt));
    QCOMPARE(root[QStringLiteral("identity_info")].toString().toStdString(),
             std::string(versionOneRecoveryKeyLabel));
    QCOMPARE(root[QStringLiteral("recovery_wrapping_info")].toString().toStdString(),
             std::string(recoveryWrappingKeyLabel));
    QCOMPARE(root[QStringLiteral("recovery_info")].toString().toStdString(),
             std::string(recoveryKeyLabel));
    QCOMPARE(root[QStringLiteral("sharing_info")].toString().toStdString(),
             std::string(sharingKeyLabel));
}

void TestKeychain::independentVectors_data()
{
    QTest::addColumn<QByteArray>("entropy");
    QTest::addColumn<QByteArray>("mnemonic");
    QTest::addColumn<QByteArray>("passphrase");
    QTest::addColumn<QString>("seed");
    QTest::addColumn<QString>("identitySecretKey");
    QTest::addColumn<QString>("identityPublicKey");
    QTest::addColumn<QString>("identityPublicKeyUncompressed");
    QTest::addColumn<QString>("recoveryWrappingKey");
    QTest::addColumn<QString>("recoverySecretKey");
    QTest::addColumn<QString>("recoveryPublicKey");
    QTest::addColumn<QString>("sharingSecretKey");
    QTest::addColumn<QString>("sharingPublicKey");
    const auto vectors =
        test::loadJson(QStringLiteral("keychain/vectors.json"))[QStringLiteral("vectors")]
            .toArray();
    for (const auto value : vectors) {
        const auto v = value.toObject();
        const auto field = [&](const char* name) {
            return v[QLatin1String(name)].toString();
        };
        // No vector needs the retry rule (odds 2^-128); every counter is 0.
        for (const char* counter : {"identity_counter", "recovery_counter", "sharing_counter"})
            QCOMPARE(v[QLatin1String(counter)].toInt(-1), 0);
        QTest::addRow("%s", qPrintable(field("name")))
            << QByteArray::fromHex(field("entropy").toLatin1()) << field("mnemonic").toUtf8()
            << QByteArray::fromHex(field("passphrase_utf8").toLatin1()) << field("seed")
            << field("identity_secret_key") << field("identity_public_key")
            << field("identity_public_key_uncompressed") << field("recovery_wrapping_key")
            << field("recovery_secret_key") << field("recovery_public_key")
            << field("sharing_secret_key") << field("sharing_public_key");
    }
    QCOMPARE(vectors.size(), 6);
}

void TestKeychain::independentVectors()
{
    QFETCH(QByteArray, entropy);
    QFETCH(QByteArray, mnemonic);
    QFETCH(QByteArray, passphrase);
    QFETCH(QString, seed);
    QFETCH(QString, identitySecretKey);
    QFETCH(QString, identityPublicKey);
    QFETCH(QString, identityPublicKeyUncompressed);
    QFETCH(QString, recoveryWrappingKey);
    QFETCH(QString, recoverySecretKey);
    QFETCH(QString, recoveryPublicKey);
    QFETCH(QString, sharingSecretKey);
    QFETCH(QString, sharingPublicKey);

    const auto derivedSeed = mnemonicToSeed(view(mnemonic), view(passphrase));
    QVERIFY(derivedSeed.ok());
    QCOMPARE(test::toHex(*derivedSeed), seed);

    const auto check = [&](const Keychain& keychain) {
        QCOMPARE(text(keychain.mnemonic()), QString::fromUtf8(mnemonic));
        QCOMPARE(test::toHex(keychain.versionOneRecoveryKey().secretKey.bytes()),
                 identitySecretKey);
        QCOMPARE(test::toHex(keychain.versionOneRecoveryKey().publicKey.compressed()),
                 identityPublicKey);
        QCOMPARE(test::toHex(keychain.versionOneRecoveryKey().publicKey.uncompressed()),
                 identityPublicKeyUncompressed);
        QCOMPARE(keychain.recoveryWrappingKey().size(), recoveryWrappingKeySize);
        QCOMPARE(test::toHex(keychain.recoveryWrappingKey()), recoveryWrappingKey);
        QCOMPARE(test::toHex(keychain.recoveryKey().secretKey.bytes()), recoverySecretKey);
        QCOMPARE(test::toHex(keychain.recoveryKey().publicKey.compressed()), recoveryPublicKey);
        QCOMPARE(test::toHex(keychain.sharingKey().secretKey.bytes()), sharingSecretKey);
        QCOMPARE(test::toHex(keychain.sharingKey().publicKey.compressed()), sharingPublicKey);
    };

    const auto restored = Keychain::restore(view(mnemonic), view(passphrase));
    QVERIFY(restored.ok());
    check(*restored);

    // create() with the vector's entropy as its random bytes: same phrase, same keys.
    const std::size_t words = std::size_t(mnemonic.count(' ')) + 1;
    test::ScriptedRandom random(entropy);
    const auto created = Keychain::create(random, words, view(passphrase));
    QVERIFY(created.ok());
    QCOMPARE(random.remaining(), std::size_t{0});
    check(*created);

    // The phrase as typed sloppily restores the same keychain.
    const QByteArray sloppy = "  " + mnemonic.toUpper().replace(' ', "\t \n") + "\r\n";
    const auto retyped = Keychain::restore(view(sloppy), view(passphrase));
    QVERIFY(retyped.ok());
    check(*retyped);
}

void TestKeychain::restoreOfCreateGivesTheSameKeys_data()
{
    QTest::addColumn<int>("words");
    for (int words : {12, 15, 18, 21, 24})
        QTest::addRow("%d words", words) << words;
}

void TestKeychain::restoreOfCreateGivesTheSameKeys()
{
    QFETCH(int, words);
    test::SeededRandom random(test::testSeed() + static_cast<std::uint64_t>(words));
    for (int round = 0; round < 5; ++round) {
        const auto created = Keychain::create(random, static_cast<std::size_t>(words));
        QVERIFY(created.ok());
        const auto phrase = created->mnemonic().view();
        QCOMPARE(int(std::count(phrase.begin(), phrase.end(), ' ')) + 1, words);
        const auto restored = Keychain::restore(phrase);
        QVERIFY(restored.ok());
        QCOMPARE(restored->mnemonic().view(), phrase);
        QCOMPARE(test::toHex(restored->versionOneRecoveryKey().secretKey.bytes()),
                 test::toHex(created->versionOneRecoveryKey().secretKey.bytes()));
        QVERIFY(restored->versionOneRecoveryKey().publicKey ==
                created->versionOneRecoveryKey().publicKey);
        QCOMPARE(test::toHex(restored->recoveryWrappingKey()),
                 test::toHex(created->recoveryWrappingKey()));
        // The public key belongs to the secret key, and the two outputs differ.
        QVERIFY(created->versionOneRecoveryKey().secretKey.publicKey() ==
                created->versionOneRecoveryKey().publicKey);
        QVERIFY(test::toHex(created->recoveryWrappingKey()) !=
                test::toHex(created->versionOneRecoveryKey().secretKey.bytes()));
        // Each purpose has its own key.
        QVERIFY(restored->recoveryKey().publicKey == created->recoveryKey().publicKey);
        QVERIFY(restored->sharingKey().publicKey == created->sharingKey().publicKey);
        QVERIFY(!(created->recoveryKey().publicKey == created->sharingKey().publicKey));
        QVERIFY(!(created->recoveryKey().publicKey == created->versionOneRecoveryKey().publicKey));
        QVERIFY(!(created->sharingKey().publicKey == created->versionOneRecoveryKey().publicKey));
    }
    // The default size is 24 words.
    const auto byDefault = Keychain::create(random);
    QVERIFY(byDefault.ok());
    const auto phrase = byDefault->mnemonic().view();
    QCOMPARE(std::count(phrase.begin(), phrase.end(), ' '), 23);
}

void TestKeychain::passphraseSelectsAnotherKeychain()
{
    test::SeededRandom random(test::testSeed());
    const auto created = Keychain::create(random, 12, "correct horse");
    QVERIFY(created.ok());
    const auto phrase = created->mnemonic().view();
    const auto same = Keychain::restore(phrase, "correct horse");
    const auto none = Keychain::restore(phrase);
    const auto other = Keychain::restore(phrase, "Correct horse");
    QVERIFY(same.ok() && none.ok() && other.ok());
    QVERIFY(same->versionOneRecoveryKey().publicKey == created->versionOneRecoveryKey().publicKey);
    QVERIFY(
        !(none->versionOneRecoveryKey().publicKey == created->versionOneRecoveryKey().publicKey));
    QVERIFY(
        !(other->versionOneRecoveryKey().publicKey == created->versionOneRecoveryKey().publicKey));
    QVERIFY(test::toHex(none->recoveryWrappingKey()) !=
            test::toHex(created->recoveryWrappingKey()));
}

void TestKeychain::createRejectsBadWordCounts_data()
{
    QTest::addColumn<int>("words");
    for (int words : {0, 3, 9, 11, 13, 14, 16, 23, 25, 27, 48})
        QTest::addRow("%d words", words) << words;
}

void TestKeychain::createRejectsBadWordCounts()
{
    QFETCH(int, words);
    test::ScriptedRandom random{QByteArray()}; // must not be asked for anything
    const auto created = Keychain::create(random, static_cast<std::size_t>(words));
    QVERIFY(!created.ok());
    QCOMPARE(created.error().code, KeychainError::InvalidWordCount);
}

void TestKeychain::restoreReportsPhraseErrors_data()
{
    QTest::addColumn<QByteArray>("phrase");
    QTest::addColumn<KeychainError>("error");
    QTest::newRow("empty") << QByteArray() << KeychainError::InvalidWordCount;
    QTest::newRow("11 words") << QByteArray("zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo")
                              << KeychainError::InvalidWordCount;
    QTest::newRow("unknown word") << QByteArray(
                                         "zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrongg")
                                  << KeychainError::UnknownWord;
    QTest::newRow("bad checksum") << QByteArray("zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo")
                                  << KeychainError::BadChecksum;
}

void TestKeychain::restoreReportsPhraseErrors()
{
    QFETCH(QByteArray, phrase);
    QFETCH(KeychainError, error);
    const auto restored = Keychain::restore(view(phrase));
    QVERIFY(!restored.ok());
    QCOMPARE(restored.error().code, error);
}

void TestKeychain::refusesWhenCryptoIsDisabled()
{
    const std::string_view phrase = "zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong";
    crypto::disable("self-test failed: PBKDF2 (simulated)");
    const auto restored = Keychain::restore(phrase);
    test::SeededRandom random(test::testSeed());
    const auto created = Keychain::create(random);
    const auto seed = mnemonicToSeed(phrase, "");
    crypto::testing::reenable();
    QVERIFY(!restored.ok() && !created.ok() && !seed.ok());
    QCOMPARE(restored.error().code, KeychainError::CryptoDisabled);
    QCOMPARE(created.error().code, KeychainError::CryptoDisabled);
    QCOMPARE(seed.error().code, KeychainError::CryptoDisabled);
    QVERIFY(restored.error().message.find("PBKDF2 (simulated)") != std::string::npos);
    QVERIFY(Keychain::restore(phrase).ok());
}

QTEST_APPLESS_MAIN(TestKeychain)
#include "TestKeychain.moc"
