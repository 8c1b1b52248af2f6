// Benchmark statistics: hand-computed cases for every estimate, the
// outlier fences, and the bootstrap's intervals and comparisons.
#include "stats/Estimates.h"

#include <QtTest>
#include <cmath>
#include <random>

using namespace watchword::stats;

namespace {

bool near(double a, double b, double tolerance = 1e-9)
{
    return std::abs(a - b) <= tolerance * std::max(1.0, std::abs(b));
}

// n linear samples of an operation taking about perIteration ns, with
// multiplicative noise of relative size noise (deterministic).
void linearSeries(double perIteration, double noise, std::size_t n, std::uint64_t seed,
                  std::vector<double>& x, std::vector<double>& y)
{
    std::mt19937_64 generator(seed);
    std::normal_distribution<double> jitter(1.0, noise);
    x = linearIterations(100, n);
    y.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        y[i] = x[i] * perIteration * jitter(generator);
}

std::vector<double> perIterationSeries(double perIteration, double noise, std::size_t n,
                                       std::uint64_t seed)
{
    std::vector<double> x, y;
    linearSeries(perIteration, noise, n, seed, x, y);
    for (std::size_t i = 0; i < n; ++i)
        y[i] /= x[i];
    return y;
}

} // namespace

class TestEstimates : public QObject
{
    Q_OBJECT

private slots:
    void linearSampling()
    {
        QCOMPARE(linearIterations(3, 4), (std::vector<double>{3, 6, 9, 12}));
        // 10 samples: 55 steps; 1 ms at 10 ns an iteration: ceil(1e6 / 550).
        QCOMPARE(linearStep(10, 10, 1e6), std::uint64_t(1819));
        QCOMPARE(linearStep(1e9, 50, 1e6), std::uint64_t(1)); // never below 1
        QCOMPARE(linearStep(0, 50, 1e6), std::uint64_t(1));
    }

    void percentiles_data()
    {
        QTest::addColumn<double>("p");
        QTest::addColumn<double>("expected");
        // 1..9: rank p/100 * 8, interpolated.
        QTest::newRow("min") << 0.0 << 1.0;
        QTest::newRow("10th") << 10.0 << 1.8;
        QTest::newRow("Q1") << 25.0 << 3.0;
        QTest::newRow("median") << 50.0 << 5.0;
        QTest::newRow("97.5th") << 97.5 << 8.8;
        QTest::newRow("max") << 100.0 << 9.0;
    }

    void percentiles()
    {
        QFETCH(double, p);
        QFETCH(double, expected);
        // Unsorted on purpose.
        const std::vector<double> values{7, 3, 9, 1, 5, 2, 8, 4, 6};
        QVERIFY2(near(percentile(values, p), expected),
                 qPrintable(QString::number(percentile(values, p))));
    }

    void descriptive()
    {
        const std::vector<double> values{2, 4, 4, 4, 5, 5, 7, 9};
        QCOMPARE(mean(values), 5.0);
        QCOMPARE(median(values), 4.5);
        // Squared deviations sum to 32; n - 1 = 7.
        QVERIFY(near(standardDeviation(values), std::sqrt(32.0 / 7.0)));
        QCOMPARE(standardDeviation({3}), 0.0);
        // Median 3; absolute deviations 2, 1, 0, 1, 97: their median is 1.
        QVERIFY(near(medianAbsoluteDeviation({1, 2, 3, 4, 100}), 1.4826));
        QVERIFY(std::isnan(mean({})));
        QVERIFY(std::isnan(median({})));
    }

    void slope()
    {
        // sum(xy) = 1 + 6 + 6 + 20 = 33; sum(xx) = 30.
        QVERIFY(near(slopeThroughOrigin({1, 2, 3, 4}, {1, 3, 2, 5}), 1.1));
        QCOMPARE(slopeThroughOrigin({1, 2, 3}, {2, 4, 6}), 2.0);
        QVERIFY(std::isnan(slopeThroughOrigin({0, 0}, {1, 2})));
        QVERIFY(std::isnan(slopeThroughOrigin({1, 2}, {1})));
    }

    void outliers()
    {
        // Sorted: -50 1 2 ... 12 25 100 (n = 15). Q1 at rank 3.5 = 3.5, Q3 at
        // rank 10.5 = 10.5, IQR 7: mild fences -7 and 21, severe -17.5 and
        // 31.5.
        const std::vector<double> values{5, 1, 100, 2, 3, 12, 4, 25, 6, 7, -50, 8, 9, 10, 11};
        const Outliers o = classifyOutliers(values);
        QCOMPARE(o.lowMildFence, -7.0);
        QCOMPARE(o.highMildFence, 21.0);
        QCOMPARE(o.lowSevereFence, -17.5);
        QCOMPARE(o.highSevereFence, 31.5);
        QCOMPARE(o.lowSevere, std::size_t(1));
        QCOMPARE(o.lowMild, std::size_t(0));
        QCOMPARE(o.highMild, std::size_t(1));
        QCOMPARE(o.highSevere, std::size_t(1));
        QCOMPARE(o.mild(), std::size_t(1));
        QCOMPARE(o.severe(), std::size_t(2));
        const Outliers none = classifyOutliers({1, 2, 3, 4, 5});
        QCOMPARE(none.mild() + none.severe(), std::size_t(0));
    }

    void exactDataHasNoSpread()
    {
        // Every sample exactly 7 ns an iteration: every interval is a point.
        const auto x = linearIterations(10, 50);
        std::vector<double> y(x.size());
        for (std::size_t i = 0; i < x.size(); ++i)
            y[i] = 7 * x[i];
        const Estimates e = estimate(x, y, {2000, 0.95, 1});
        QCOMPARE(e.samples, std::size_t(50));
        for (const Estimate* s : {&e.slope, &e.mean, &e.median}) {
            QVERIFY(near(s->point, 7));
            QVERIFY(near(s->low, 7));
            QVERIFY(near(s->high, 7));
            QVERIFY(s->standardError < 1e-9);
        }
        QCOMPARE(e.medianAbsoluteDeviation.point, 0.0);
        QCOMPARE(e.standardDeviation.point, 0.0);
        QCOMPARE(e.outliers.mild() + e.outliers.severe(), std::size_t(0));
    }

    void noisyDataIntervals()
    {
        std::vector<double> x, y;
        linearSeries(250, 0.05, 50, 42, x, y);
        const Estimates e = estimate(x, y, {5000, 0.95, 7});
        // The points are the plain statistics of all the data.
        QVERIFY(near(e.slope.point, slopeThroughOrigin(x, y)));
        std::vector<double> t(x.size());
        for (std::size_t i = 0; i < x.size(); ++i)
            t[i] = y[i] / x[i];
        QVERIFY(near(e.mean.point, mean(t)));
        QVERIFY(near(e.median.point, median(t)));
        // Each interval holds its point and the true value, and is narrow.
        for (const Estimate* s : {&e.slope, &e.mean, &e.median}) {
            QVERIFY(s->low <= s->point && s->point <= s->high);
            QVERIFY(s->low < 250 && 250 < s->high);
            QVERIFY((s->high - s->low) / 250 < 0.06);
        }
        // 5 % noise: the std-dev and the MAD estimate about 12.5 ns.
        QVERIFY(std::abs(e.standardDeviation.point - 12.5) < 4);
        QVERIFY(std::abs(e.medianAbsoluteDeviation.point - 12.5) < 5);
        // The same data and seed give the same intervals; another seed others.
        const Estimates again = estimate(x, y, {5000, 0.95, 7});
        QCOMPARE(again.slope.low, e.slope.low);
        QCOMPARE(again.slope.high, e.slope.high);
        const Estimates other = estimate(x, y, {5000, 0.95, 8});
        QVERIFY(other.slope.low != e.slope.low || other.slope.high != e.slope.high);
        // More confidence, a wider interval.
        const Estimates wide = estimate(x, y, {5000, 0.99, 7});
        QVERIFY(wide.slope.high - wide.slope.low > e.slope.high - e.slope.low);
    }

    void outliersAreCountedNotDropped()
    {
        std::vector<double> x, y;
        linearSeries(100, 0.01, 50, 3, x, y);
        const double clean = estimate(x, y, {1000, 0.95, 1}).mean.point;
        y[10] *= 20; // one sample interrupted
        const Estimates e = estimate(x, y, {1000, 0.95, 1});
        QCOMPARE(e.outliers.highSevere, std::size_t(1));
        // The mean still holds it: (49 * ~100 + ~2000) / 50 is about 138.
        QVERIFY(e.mean.point > clean * 1.3);
    }

    void badInput()
    {
        QCOMPARE(estimate({}, {}).samples, std::size_t(0));
        QCOMPARE(estimate({1, 2}, {1}).samples, std::size_t(0));
    }

    void compare_data()
    {
        QTest::addColumn<double>("after");
        QTest::addColumn<int>("verdict");
        QTest::newRow("20 % faster") << 80.0 << int(Verdict::Improved);
        QTest::newRow("30 % slower") << 130.0 << int(Verdict::Regressed);
        QTest::newRow("0.5 %: within the noise") << 100.5 << int(Verdict::NoChange);
        QTest::newRow("the same") << 100.0 << int(Verdict::NoChange);
    }

    void compare()
    {
        QFETCH(double, after);
        QFETCH(int, verdict);
        const auto before = perIterationSeries(100, 0.02, 50, 11);
        const auto now = perIterationSeries(after, 0.02, 50, 12);
        const Change change = watchword::stats::compare(before, now, 0.02, {5000, 0.95, 5});
        QCOMPARE(int(change.verdict), verdict);
        const double expected = mean(now) / mean(before) - 1;
        QVERIFY(near(change.relative.point, expected));
        QVERIFY(change.relative.low <= change.relative.point);
        QVERIFY(change.relative.point <= change.relative.high);
        QVERIFY(change.relative.low < after / 100 - 1 + 0.02);
        QVERIFY(change.relative.high > after / 100 - 1 - 0.02);
    }

    void compareWithANoiseThreshold()
    {
        // 3 % slower with little noise: a regression at a 2 % threshold, no
        // change at a 5 % one.
        const auto before = perIterationSeries(100, 0.005, 50, 21);
        const auto now = perIterationSeries(103, 0.005, 50, 22);
        QCOMPARE(int(watchword::stats::compare(before, now, 0.02).verdict),
                 int(Verdict::Regressed));
        QCOMPARE(int(watchword::stats::compare(before, now, 0.05).verdict), int(Verdict::NoChange));
        QCOMPARE(int(watchword::stats::compare({}, now).verdict), int(Verdict::NoChange));
    }
};

QTEST_APPLESS_MAIN(TestEstimates)
#include "TestEstimates.moc"
