// The benchmark catalogue: the names the issue asks for, every reference
// beside a comparison, every benchmark prepared and run once, and references
// that compute something else refused before they are timed. Nothing here
// times anything.
#include "common/TestSupport.h"
#include "perf/Benchmark.h"
#include "perf/Comparisons.h"
#include "perf/Published.h"
#include "perf/catalogue/Catalogue.h"

#include <QJsonArray>
#include <QtTest>
#include <functional>
#include <map>
#include <set>
#include <string>

using namespace watchword;
using namespace watchword::perf;

namespace {

// A checked reference as the tests drive it: our output as bytes, and the
// reference prepared against given bytes.
struct CheckedReference
{
    std::function<Bytes()> ours;
    std::function<Prepared(const Bytes&)> prepare;
};

Bytes bytesOf(const std::string& text)
{
    return Bytes(text.begin(), text.end());
}

std::string textOf(const Bytes& bytes)
{
    return std::string(bytes.begin(), bytes.end());
}

const std::map<QString, CheckedReference>& checkedReferences()
{
    using crypto::HashAlgorithm;
    static const std::map<QString, CheckedReference> references = {
        {"ref/openssl_pkcs5_pbkdf2_sha256_1000",
         {[] {
              return entries::ourPbkdf2(entries::bip39ShapedPbkdf2(HashAlgorithm::Sha256, 1000));
          },
          [](const Bytes& expected) {
              return entries::prepareOpenSslPbkdf2(
                  entries::bip39ShapedPbkdf2(HashAlgorithm::Sha256, 1000), expected);
          }}},
        {"ref/openssl_pkcs5_pbkdf2_sha512_2048",
         {[] {
              return entries::ourPbkdf2(entries::bip39ShapedPbkdf2(HashAlgorithm::Sha512, 2048));
          },
          [](const Bytes& expected) {
              return entries::prepareOpenSslPbkdf2(
                  entries::bip39ShapedPbkdf2(HashAlgorithm::Sha512, 2048), expected);
          }}},
        {"ref/openssl_pkcs5_calibration_pbkdf2_1s",
         {[] { return entries::ourPbkdf2(entries::calibrationProbe()); },
          [](const Bytes& expected) {
              return entries::prepareOpenSslPbkdf2(entries::calibrationProbe(), expected);
          }}},
        {"ref/openssl_hmac_oneshot_totp_sha1",
         {[] { return bytesOf(entries::ourTotpCode(HashAlgorithm::Sha1)); },
          [](const Bytes& expected) {
              return entries::prepareOneShotHmacTotp(HashAlgorithm::Sha1, textOf(expected));
          }}},
        {"ref/openssl_hmac_oneshot_totp_sha256",
         {[] { return bytesOf(entries::ourTotpCode(HashAlgorithm::Sha256)); },
          [](const Bytes& expected) {
              return entries::prepareOneShotHmacTotp(HashAlgorithm::Sha256, textOf(expected));
          }}},
        {"ref/openssl_hmac_oneshot_totp_sha512",
         {[] { return bytesOf(entries::ourTotpCode(HashAlgorithm::Sha512)); },
          [](const Bytes& expected) {
              return entries::prepareOneShotHmacTotp(HashAlgorithm::Sha512, textOf(expected));
          }}},
        {"ref/openssl_evp_mac_fresh_totp_sha1",
         {[] { return bytesOf(entries::ourTotpCode(HashAlgorithm::Sha1)); },
          [](const Bytes& expected) {
              return entries::prepareFreshEvpMacTotp(textOf(expected));
          }}},
        {"ref/secp256k1_raw_sender_dh",
         {entries::ourFixedSenderNoteKey,
          [](const Bytes& expected) {
              return entries::prepareRawSenderDh(expected);
          }}},
        {"ref/raw_share_seal",
         {entries::ourFixedShareSeal,
          [](const Bytes& expected) {
              return entries::prepareRawShareSeal(expected);
          }}},
        {"ref/raw_share_open",
         {entries::ourShareOpen,
          [](const Bytes& expected) {
              return entries::prepareRawShareOpen(expected);
          }}},
        {"ref/evp_cbc_hmac_seal",
         {entries::ourFixedIvSeal,
          [](const Bytes& expected) {
              return entries::prepareEvpCbcHmacSeal(expected);
          }}},
        {"ref/openssl_pkcs5_keychain_new_mnemonic",
         {entries::ourKeychainKeys,
          [](const Bytes& expected) {
              return entries::prepareOpenSslKeychain(expected);
          }}},
    };
    return references;
}

} // namespace

class TestCatalogue : public QObject
{
    Q_OBJECT

private slots:
    // The reference documents' own figures name our benchmarks of the same
    // operation, each once.
    void publishedFiguresNameOurBenchmarks()
    {
        std::set<std::string> seen;
        for (const auto& figure : watchword::perf::publishedFigures()) {
            const char* name = figure.benchmark.c_str();
            QVERIFY2(findBenchmark(figure.benchmark) != nullptr, name);
            QVERIFY2(!findBenchmark(figure.benchmark)->isReference(), name);
            QVERIFY2(seen.insert(figure.benchmark).second, name);
            QVERIFY2(figure.low > 0 && figure.low <= figure.point && figure.point <= figure.high,
                     name);
            QVERIFY2(!figure.source.empty(), name);
            QCOMPARE(watchword::perf::publishedFigure(figure.benchmark), &figure);
        }
        // The wallet report's five operations and the watch notes' six.
        QCOMPARE(seen.size(), std::size_t(11));
        QCOMPARE(watchword::perf::publishedFigure("ref/nothing"), nullptr);
    }

    void namesAreUnique()
    {
        std::set<std::string> seen;
        for (const auto& benchmark : catalogue())
            QVERIFY2(seen.insert(benchmark.name).second, benchmark.name.c_str());
        QCOMPARE(seen.size(), catalogue().size());
    }

    void everyEntryIsDescribed()
    {
        for (const auto& benchmark : catalogue()) {
            const char* name = benchmark.name.c_str();
            QVERIFY2(!benchmark.description.empty(), name);
            QVERIFY2(benchmark.prepare != nullptr, name);
            // A throughput needs its unit, and a unit its amount.
            QVERIFY2((benchmark.unitsPerIteration > 0) == !benchmark.unit.empty(), name);
        }
    }

    void issueNames_data()
    {
        QTest::addColumn<QString>("name");
        // Issue 5, "Deliver" 1: the reference documents' names, the vault
        // issue's unlock and save entries, and the references; issue 19's
        // share envelope and its raw references.
        for (const char* name : {"keychain/new_os_random",
                                 "keychain/new_mnemonic",
                                 "shared_secret_key/sender_dh",
                                 "encryption/encrypt",
                                 "encryption/decrypt",
                                 "totp/sha1",
                                 "totp/sha256",
                                 "totp/sha512",
                                 "pbkdf2/sha256_1000",
                                 "pbkdf2/sha512_2048",
                                 "record/seal",
                                 "record/open",
                                 "record/seal_open",
                                 "selftest/startup",
                                 "calibration/pbkdf2_1s",
                                 "vault/unlock_kdf",
                                 "vault/unlock_rest/10",
                                 "vault/unlock_rest/1000",
                                 "vault/unlock_rest/10000",
                                 "vault/unlock_rest_one_worker/10000",
                                 "vault/unlock_recovery_kek",
                                 "vault/save/10000",
                                 "ref/openssl_pkcs5_pbkdf2_sha256_1000",
                                 "ref/openssl_pkcs5_pbkdf2_sha512_2048",
                                 "ref/openssl_hmac_oneshot_totp_sha1",
                                 "ref/openssl_hmac_oneshot_totp_sha256",
                                 "ref/openssl_hmac_oneshot_totp_sha512",
                                 "ref/secp256k1_raw_sender_dh",
                                 "ref/evp_cbc_hmac_seal",
                                 "share/seal",
                                 "share/open",
                                 "ref/raw_share_seal",
                                 "ref/raw_share_open"})
            QTest::newRow(name) << QString(name);
    }

    void issueNames()
    {
        QFETCH(QString, name);
        const Benchmark* found = findBenchmark(name.toStdString());
        QVERIFY(found != nullptr);
        QCOMPARE(QString::fromStdString(found->name), name);
    }

    void findBenchmarkMissesUnknownNames()
    {
        QCOMPARE(findBenchmark("totp/sha3"), nullptr);
        QCOMPARE(findBenchmark(""), nullptr);
        QCOMPARE(findBenchmark("totp/sha1/"), nullptr);
    }

    void oursComeBeforeTheReferences()
    {
        const auto& list = catalogue();
        QCOMPARE(&catalogue(), &list); // built once
        const auto firstReference =
            std::find_if(list.begin(), list.end(), [](const auto& b) { return b.isReference(); });
        QVERIFY(firstReference != list.end());
        QVERIFY(
            std::all_of(firstReference, list.end(), [](const auto& b) { return b.isReference(); }));
        // The reference documents' first operation opens the report.
        QCOMPARE(list.front().name, std::string("keychain/new_os_random"));
    }

    void comparisonsNameBenchmarksOfTheCatalogue()
    {
        for (const auto& comparison : comparisons()) {
            const std::string label = comparison.subject + " vs " + comparison.reference;
            const Benchmark* subject = findBenchmark(comparison.subject);
            QVERIFY2(subject != nullptr, label.c_str());
            QVERIFY2(!subject->isReference(), label.c_str());
            QVERIFY2(!comparison.what.empty() && !comparison.source.empty(), label.c_str());
            QVERIFY2(comparison.target > 0, label.c_str());
            if (comparison.kind == Comparison::Kind::WithinBudget) {
                QVERIFY2(comparison.reference.empty(), label.c_str());
                QVERIFY2(comparison.budgetNanoseconds > 0, label.c_str());
            } else {
                const Benchmark* reference = findBenchmark(comparison.reference);
                QVERIFY2(reference != nullptr, label.c_str());
                QVERIFY2(reference->isReference(), label.c_str());
            }
        }
    }

    void everyReferenceIsCompared()
    {
        for (const auto& benchmark : catalogue()) {
            if (!benchmark.isReference())
                continue;
            const bool compared =
                std::any_of(comparisons().begin(), comparisons().end(),
                            [&](const Comparison& c) { return c.reference == benchmark.name; });
            QVERIFY2(compared, benchmark.name.c_str());
        }
    }

    void preparesAndRunsOnce_data()
    {
        QTest::addColumn<QString>("name");
        for (const auto& benchmark : catalogue())
            QTest::newRow(benchmark.name.c_str()) << QString::fromStdString(benchmark.name);
    }

    void preparesAndRunsOnce()
    {
        QFETCH(QString, name);
        const Benchmark* benchmark = findBenchmark(name.toStdString());
        QVERIFY(benchmark != nullptr);
        auto prepared = benchmark->prepare();
        QVERIFY2(prepared.routine != nullptr, prepared.error.c_str());
        QVERIFY(prepared.error.empty());
        prepared.routine->run(1);
    }

    void checkedReferencesAreAll()
    {
        // Every reference that computes what ours computes is checked; the
        // floors compute something else by design.
        for (const auto& benchmark : catalogue()) {
            if (!benchmark.isReference())
                continue;
            const bool floor = benchmark.name.find("_floor_") != std::string::npos;
            QVERIFY2(floor != checkedReferences().contains(QString::fromStdString(benchmark.name)),
                     benchmark.name.c_str());
        }
    }

    void referenceRefusesOtherWork_data()
    {
        QTest::addColumn<QString>("name");
        for (const auto& [name, reference] : checkedReferences())
            QTest::newRow(qPrintable(name)) << name;
    }

    void referenceRefusesOtherWork()
    {
        QFETCH(QString, name);
        const auto& reference = checkedReferences().at(name);
        const Bytes ours = reference.ours();
        QVERIFY(!ours.empty());

        // The same output: prepared.
        auto same = reference.prepare(ours);
        QVERIFY2(same.routine != nullptr, same.error.c_str());
        same.routine->run(1);

        // One bit off (a digit of a code stays a digit): refused, saying why.
        Bytes corrupted = ours;
        corrupted.back() ^= 1;
        const auto other = reference.prepare(corrupted);
        QVERIFY(other.routine == nullptr);
        QVERIFY2(other.error.find("not the same work") != std::string::npos, other.error.c_str());

        // Our side failed (nothing to compare with): refused too.
        QVERIFY(reference.prepare({}).routine == nullptr);
        // And a prefix of the right output is not the output.
        QVERIFY(reference.prepare(Bytes(ours.begin(), ours.end() - 1)).routine == nullptr);
    }

    // share/* seal and open FORMAT.md 12.6's worked example: the envelope of
    // vector a byte for byte, and its records.
    void shareEntriesAreTheWorkedExample()
    {
        const auto vector =
            test::loadJson(QStringLiteral("share/envelope_vectors.json"))[QStringLiteral("vectors")]
                .toArray()
                .first()
                .toObject();
        QCOMPARE(vector[QStringLiteral("name")].toString(), QStringLiteral("vector a"));
        QCOMPARE(entries::ourFixedShareSeal(),
                 test::hex(vector[QStringLiteral("envelope")].toString()));
        const Bytes opened = entries::ourShareOpen();
        const Bytes plaintext = test::hex(vector[QStringLiteral("plaintext")].toString());
        QVERIFY(opened.size() > plaintext.size());
        QCOMPARE(Bytes(opened.end() - static_cast<std::ptrdiff_t>(plaintext.size()), opened.end()),
                 plaintext);
    }

    void scriptedRandomGivesItsScriptOnce()
    {
        entries::ScriptedRandom random(Bytes{1, 2, 3, 4, 5});
        Bytes two(2);
        random.fill(two);
        QCOMPARE(two, (Bytes{1, 2}));
        QVERIFY(!random.usedExactly()); // bytes left
        Bytes three(3);
        random.fill(three);
        QCOMPARE(three, (Bytes{3, 4, 5}));
        QVERIFY(random.usedExactly());
        // Past the end: zeros, and never exact again.
        random.fill(two);
        QCOMPARE(two, (Bytes{0, 0}));
        QVERIFY(!random.usedExactly());

        entries::ScriptedRandom overrun(Bytes{7});
        overrun.fill(two);
        QCOMPARE(two, (Bytes{7, 0}));
        QVERIFY(!overrun.usedExactly());
    }

    void repeatingRandomRepeats()
    {
        entries::RepeatingRandom random(Bytes{1, 2, 3});
        Bytes out(7);
        random.fill(out);
        QCOMPARE(out, (Bytes{1, 2, 3, 1, 2, 3, 1}));
        random.fill(out);
        QCOMPARE(out, (Bytes{1, 2, 3, 1, 2, 3, 1})); // every request starts over
    }

    void concatenate()
    {
        QCOMPARE(entries::concatenate(Bytes{1, 2}, Bytes{3}), (Bytes{1, 2, 3}));
        QCOMPARE(entries::concatenate({}, Bytes{3}), (Bytes{3}));
        QCOMPARE(entries::concatenate({}, {}), Bytes());
    }
};

QTEST_APPLESS_MAIN(TestCatalogue)
#include "TestCatalogue.moc"
