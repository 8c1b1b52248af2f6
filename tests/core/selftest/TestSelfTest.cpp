// The start-up self-test passes on a good build, and one failing
// known-answer test blocks key derivation and is named in the report.
#include "base/SecureBuffer.h"
#include "common/TestSupport.h"
#include "crypto/AesCbc.h"
#include "crypto/ChaCha20Poly1305.h"
#include "crypto/CryptoState.h"
#include "crypto/Kdf.h"
#include "crypto/RecordSealer.h"
#include "crypto/Secp256k1.h"
#include "keychain/Keychain.h"
#include "otp/OtpGenerator.h"
#include "selftest/SelfTest.h"
#include "share/SenderDh.h"

#include <QtTest>

using namespace watchword;

class TestSelfTest : public QObject
{
    Q_OBJECT

private slots:
    void cleanup() { crypto::testing::reenable(); }

    void everyKnownAnswerTestPasses()
    {
        const auto report = selftest::run();
        for (const auto& outcome : report.outcomes) {
            if (!outcome.passed)
                qWarning("failed: %s", outcome.name.c_str());
        }
        QVERIFY(report.passed());
        QCOMPARE(report.outcomes.size(), selftest::knownAnswerTests().size());
        QVERIFY(!crypto::isDisabled());
    }

    void namesAreUnique()
    {
        QSet<QString> names;
        for (const auto& test : selftest::knownAnswerTests())
            names.insert(QString::fromStdString(test.name));
        QCOMPARE(static_cast<std::size_t>(names.size()), selftest::knownAnswerTests().size());
    }

    void aFailureBlocksCryptoAndIsNamed()
    {
        std::vector<selftest::KnownAnswerTest> tests = selftest::knownAnswerTests();
        tests.insert(tests.begin() + 1, {"deliberately wrong answer", [] {
                                             return false;
                                         }});
        const auto report = selftest::run(tests);
        QVERIFY(!report.passed());
        QVERIFY(report.firstFailure() != nullptr);
        QCOMPARE(report.firstFailure()->name, std::string("deliberately wrong answer"));
        // The run goes on after a failure, so the report lists every test.
        QCOMPARE(report.outcomes.size(), tests.size());

        QVERIFY(crypto::isDisabled());
        QCOMPARE(crypto::disabledReason(),
                 std::string("self-test failed: deliberately wrong answer"));
        SecureBuffer out(32);
        const auto derived = crypto::pbkdf2(crypto::HashAlgorithm::Sha256, asBytes("p"),
                                            asBytes("s"), 1, out.span());
        QVERIFY(!derived.ok());
        QCOMPARE(derived.error().code, crypto::KdfError::CryptoDisabled);
        QVERIFY(derived.error().message.find("deliberately wrong answer") != std::string::npos);
        const auto expanded =
            crypto::hkdf(crypto::HashAlgorithm::Sha256, asBytes("k"), {}, {}, out.span());
        QCOMPARE(expanded.error().code, crypto::KdfError::CryptoDisabled);
    }

    // Every entry point that makes or uses keys refuses once crypto is off.
    void everyModuleRefusesWhileDisabled()
    {
        // Keys made before the switch, so the refusals below come from the gate.
        test::SeededRandom random(test::testSeed());
        const auto secret = crypto::SecretKey::generate(random);
        const auto publicKey = secret.publicKey();

        crypto::disable("self-test failed: injected for this test");
        const SecureBuffer key32(32);
        QCOMPARE(otp::OtpGenerator::create({}, key32).error().code, otp::OtpError::CryptoDisabled);
        QCOMPARE(crypto::AesCbc::create(key32).error().code, crypto::AesCbcError::CryptoDisabled);
        QCOMPARE(crypto::ChaCha20Poly1305::create(key32).error().code,
                 crypto::ChaCha20Poly1305Error::CryptoDisabled);
        QCOMPARE(crypto::RecordSealer::create(key32).error().code,
                 crypto::RecordError::CryptoDisabled);
        QCOMPARE(crypto::ecdh(secret, publicKey).error().code,
                 crypto::Secp256k1Error::CryptoDisabled);
        QCOMPARE(share::senderNoteKey(random, publicKey).error().code,
                 share::ShareError::CryptoDisabled);
        const auto restored =
            keychain::Keychain::restore("abandon abandon abandon abandon abandon abandon abandon "
                                        "abandon abandon abandon abandon about");
        QCOMPARE(restored.error().code, keychain::KeychainError::CryptoDisabled);
        QVERIFY(restored.error().message.find("injected for this test") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestSelfTest)
#include "TestSelfTest.moc"
