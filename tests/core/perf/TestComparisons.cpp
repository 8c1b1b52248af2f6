// Comparisons evaluated on hand-made times: the ratio of each kind, the
// target met or not at and around its bound, and comparisons with a side
// missing. The times are made up; nothing here is measured.
#include "perf/Comparisons.h"

#include <QtTest>
#include <algorithm>
#include <cmath>

using namespace watchword::perf;

namespace {

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b));
}

const Comparison* find(const std::string& subject, const std::string& reference)
{
    const auto& list = comparisons();
    const auto found = std::find_if(list.begin(), list.end(), [&](const Comparison& c) {
        return c.subject == subject && c.reference == reference;
    });
    return found == list.end() ? nullptr : &*found;
}

// The outcome of comparison in outcomes, or null.
const ComparisonOutcome* outcomeOf(const std::vector<ComparisonOutcome>& outcomes,
                                   const Comparison* comparison)
{
    const auto found =
        std::find_if(outcomes.begin(), outcomes.end(),
                     [&](const ComparisonOutcome& o) { return o.comparison == comparison; });
    return found == outcomes.end() ? nullptr : &*found;
}

bool contains(const std::vector<const Comparison*>& list, const Comparison* comparison)
{
    return std::find(list.begin(), list.end(), comparison) != list.end();
}

constexpr auto kSha256 = "pbkdf2/sha256_1000";
constexpr auto kSha256Reference = "ref/openssl_pkcs5_pbkdf2_sha256_1000";
constexpr auto kSenderDh = "shared_secret_key/sender_dh";
constexpr auto kSenderDhReference = "ref/secp256k1_raw_sender_dh";
constexpr auto kUnlock = "vault/unlock_rest/10000";

} // namespace

class TestComparisons : public QObject
{
    Q_OBJECT

private slots:
    void theComparisonsUnderTestExist()
    {
        QVERIFY(find(kSha256, kSha256Reference) != nullptr);
        QVERIFY(find(kSenderDh, kSenderDhReference) != nullptr);
        QVERIFY(find(kUnlock, "") != nullptr);
    }

    void atLeastFaster_data()
    {
        QTest::addColumn<double>("ours");
        QTest::addColumn<double>("reference");
        QTest::addColumn<double>("ratio");
        QTest::addColumn<bool>("met");
        // Target 2.2: reference time / our time.
        QTest::newRow("3x faster") << 100.0 << 300.0 << 3.0 << true;
        QTest::newRow("at the target") << 100.0 << 220.0 << 2.2 << true;
        QTest::newRow("just under") << 100.0 << 219.0 << 2.19 << false;
        QTest::newRow("slower") << 300.0 << 100.0 << 1.0 / 3.0 << false;
    }

    void atLeastFaster()
    {
        QFETCH(double, ours);
        QFETCH(double, reference);
        QFETCH(double, ratio);
        QFETCH(bool, met);
        const Comparison* comparison = find(kSha256, kSha256Reference);
        QVERIFY(comparison != nullptr);
        QCOMPARE(comparison->kind, Comparison::Kind::AtLeastFaster);
        QCOMPARE(comparison->target, 2.2);
        const auto outcomes = evaluate({{kSha256, ours}, {kSha256Reference, reference}});
        const auto* outcome = outcomeOf(outcomes, comparison);
        QVERIFY(outcome != nullptr);
        QVERIFY2(near(outcome->ratio, ratio), qPrintable(QString::number(outcome->ratio)));
        QCOMPARE(outcome->met, met);
    }

    void atMostSlower_data()
    {
        QTest::addColumn<double>("ours");
        QTest::addColumn<double>("reference");
        QTest::addColumn<double>("ratio");
        QTest::addColumn<bool>("met");
        // Target 1.05: our time / reference time.
        QTest::newRow("faster") << 90.0 << 100.0 << 0.9 << true;
        QTest::newRow("4 % slower") << 104.0 << 100.0 << 1.04 << true;
        QTest::newRow("10 % slower") << 110.0 << 100.0 << 1.1 << false;
    }

    void atMostSlower()
    {
        QFETCH(double, ours);
        QFETCH(double, reference);
        QFETCH(double, ratio);
        QFETCH(bool, met);
        const Comparison* comparison = find(kSenderDh, kSenderDhReference);
        QVERIFY(comparison != nullptr);
        QCOMPARE(comparison->kind, Comparison::Kind::AtMostSlower);
        QCOMPARE(comparison->target, 1.05);
        const auto outcomes = evaluate({{kSenderDh, ours}, {kSenderDhReference, reference}});
        const auto* outcome = outcomeOf(outcomes, comparison);
        QVERIFY(outcome != nullptr);
        QVERIFY2(near(outcome->ratio, ratio), qPrintable(QString::number(outcome->ratio)));
        QCOMPARE(outcome->met, met);
    }

    void withinBudget_data()
    {
        QTest::addColumn<double>("ours");
        QTest::addColumn<double>("ratio");
        QTest::addColumn<bool>("met");
        // 15 ms: our time / budget.
        QTest::newRow("12 ms") << 12e6 << 0.8 << true;
        QTest::newRow("15 ms") << 15e6 << 1.0 << true;
        QTest::newRow("18 ms") << 18e6 << 1.2 << false;
    }

    void withinBudget()
    {
        QFETCH(double, ours);
        QFETCH(double, ratio);
        QFETCH(bool, met);
        const Comparison* comparison = find(kUnlock, "");
        QVERIFY(comparison != nullptr);
        QCOMPARE(comparison->kind, Comparison::Kind::WithinBudget);
        QCOMPARE(comparison->budgetNanoseconds, 15e6);
        // Alone: a budget needs no reference.
        const auto outcomes = evaluate({{kUnlock, ours}});
        QCOMPARE(outcomes.size(), std::size_t(1));
        QCOMPARE(outcomes.front().comparison, comparison);
        QVERIFY2(near(outcomes.front().ratio, ratio),
                 qPrintable(QString::number(outcomes.front().ratio)));
        QCOMPARE(outcomes.front().met, met);
        // Nor is it ever half measured.
        QVERIFY(!contains(halfMeasured({{kUnlock, ours}}), comparison));
    }

    void missingSides()
    {
        const Comparison* comparison = find(kSha256, kSha256Reference);
        QVERIFY(comparison != nullptr);

        // Ours alone, the reference alone: not evaluated, half measured.
        const std::map<std::string, double> oursAlone{{kSha256, 100}};
        QVERIFY(outcomeOf(evaluate(oursAlone), comparison) == nullptr);
        QVERIFY(contains(halfMeasured(oursAlone), comparison));
        const std::map<std::string, double> referenceAlone{{kSha256Reference, 300}};
        QVERIFY(outcomeOf(evaluate(referenceAlone), comparison) == nullptr);
        QVERIFY(contains(halfMeasured(referenceAlone), comparison));

        // Both: evaluated, not half measured. Neither: nothing at all.
        const std::map<std::string, double> both{{kSha256, 100}, {kSha256Reference, 300}};
        QVERIFY(outcomeOf(evaluate(both), comparison) != nullptr);
        QVERIFY(!contains(halfMeasured(both), comparison));
        QVERIFY(evaluate({}).empty());
        QVERIFY(halfMeasured({}).empty());
    }

    void timesThatAreNotTimesAreSkipped()
    {
        const Comparison* comparison = find(kSha256, kSha256Reference);
        QVERIFY(outcomeOf(evaluate({{kSha256, 0}, {kSha256Reference, 300}}), comparison) ==
                nullptr);
        QVERIFY(outcomeOf(evaluate({{kSha256, 100}, {kSha256Reference, 0}}), comparison) ==
                nullptr);
        QVERIFY(outcomeOf(evaluate({{kSha256, -1}, {kSha256Reference, 300}}), comparison) ==
                nullptr);
        QVERIFY(evaluate({{kUnlock, 0}}).empty());
    }

    void everyComparisonInListOrder()
    {
        // Every subject and reference at 1 ns: every comparison evaluates,
        // once, in the order of the list.
        std::map<std::string, double> times;
        for (const auto& comparison : comparisons()) {
            times[comparison.subject] = 1;
            if (!comparison.reference.empty())
                times[comparison.reference] = 1;
        }
        const auto outcomes = evaluate(times);
        QCOMPARE(outcomes.size(), comparisons().size());
        for (std::size_t i = 0; i < outcomes.size(); ++i)
            QCOMPARE(outcomes[i].comparison, &comparisons()[i]);
        QVERIFY(halfMeasured(times).empty());
    }
};

QTEST_APPLESS_MAIN(TestComparisons)
#include "TestComparisons.moc"
