#include "app/codes/AccountFilterModel.h"
#include "app/codes/AccountListModel.h"
#include "common/TestSupport.h"

#include <QtTest>

using namespace watchword;
using watchword::app::AccountEntry;
using watchword::app::AccountFilterModel;
using watchword::app::AccountListModel;
using watchword::app::foldForSearch;

class TestAccountFilterModel : public QObject
{
    Q_OBJECT

private slots:
    void folds();
    void filters_data();
    void filters();
    void tagFilterAndAllTags();
    void orders_data();
    void orders();
    void recentlyUsedResortsLive();
    void codesChangingDoNotResort();
};

namespace {

struct Account
{
    const char* issuer;
    const char* name;
    const char* tag;
    std::uint32_t sortPosition = 0;
    std::int64_t lastUsed = 0;
};

// Fills source with accounts (record id: the issuer in hex).
void fill(AccountListModel& source, std::initializer_list<Account> accounts)
{
    const QByteArray secret = "12345678901234567890";
    std::vector<AccountEntry> entries;
    for (const auto& account : accounts) {
        auto generator = otp::OtpGenerator::create({}, test::view(secret));
        if (!generator)
            qFatal("generator");
        entries.push_back(
            {QByteArray(account.issuer).toHex(), QString::fromUtf8(account.issuer),
             QString::fromUtf8(account.name),
             account.tag ? QStringList{QString::fromUtf8(account.tag)} : QStringList{},
             std::move(*generator), account.lastUsed, account.sortPosition});
    }
    source.setAccounts(std::move(entries), 59);
}

QStringList issuersShown(const AccountFilterModel& filter)
{
    QStringList shown;
    for (int i = 0; i < filter.rowCount(); ++i)
        shown << filter.data(filter.index(i, 0), AccountListModel::IssuerRole).toString();
    return shown;
}

} // namespace

void TestAccountFilterModel::folds()
{
    QCOMPARE(foldForSearch(QString::fromUtf8("\xc3\x86r\xc3\xb8 B\xc3\xa4nk")),
             QString::fromUtf8("\xc3\xa6r\xc3\xb8 bank"));
    QCOMPARE(foldForSearch(QStringLiteral("GitHub")), QStringLiteral("github"));
}

void TestAccountFilterModel::filters_data()
{
    QTest::addColumn<QString>("search");
    QTest::addColumn<QStringList>("issuers");
    QTest::newRow("nothing typed") << "" << QStringList{"GitHub", "Google", "Bänk", "Steam"};
    QTest::newRow("issuer, any case") << "git" << QStringList{"GitHub"};
    QTest::newRow("account name") << "alice@example" << QStringList{"Google"};
    QTest::newRow("tag") << "games" << QStringList{"Steam"};
    QTest::newRow("without the accent") << "bank" << QStringList{"Bänk"};
    QTest::newRow("with the accent") << "BÄNK" << QStringList{"Bänk"};
    QTest::newRow("every word must match") << "work g" << QStringList{"GitHub", "Google"};
    QTest::newRow("words across fields") << "google alice" << QStringList{"Google"};
    QTest::newRow("no match") << "zebra" << QStringList{};
}

void TestAccountFilterModel::filters()
{
    QFETCH(QString, search);
    QFETCH(QStringList, issuers);
    AccountListModel source;
    fill(source, {{"GitHub", "alice", "work"},
                  {"Google", "alice@example.com", "work"},
                  {"B\xc3\xa4nk", "4417", "finance"},
                  {"Steam", "alice_plays", "games"}});
    AccountFilterModel filter;
    filter.setSourceModel(&source);
    filter.setSearchText(search);
    const QStringList shown = issuersShown(filter);
    QCOMPARE(shown, issuers);
}

void TestAccountFilterModel::tagFilterAndAllTags()
{
    AccountListModel source;
    QSignalSpy tagsChanged(&source, &AccountListModel::allTagsChanged);
    fill(source, {{"GitHub", "alice", "work"},
                  {"Google", "bob", "work"},
                  {"Steam", "carol", "games"},
                  {"Untagged", "dave", nullptr}});
    QCOMPARE(source.allTags(), (QStringList{"games", "work"}));
    QCOMPARE(tagsChanged.count(), 1);
    AccountFilterModel filter;
    filter.setSourceModel(&source);
    QSignalSpy count(&filter, &AccountFilterModel::countChanged);
    filter.setTag(QStringLiteral("work"));
    QCOMPARE(issuersShown(filter), (QStringList{"GitHub", "Google"}));
    QCOMPARE(filter.count(), 2);
    QVERIFY(count.count() > 0);
    // The tag and the search both apply.
    filter.setSearchText(QStringLiteral("bob"));
    QCOMPARE(issuersShown(filter), QStringList{"Google"});
    filter.setSearchText({});
    filter.setTag({});
    QCOMPARE(filter.count(), 4);
    QCOMPARE(filter.recordIdAt(0), QString::fromLatin1(QByteArray("GitHub").toHex()));
    QVERIFY(filter.recordIdAt(9).isEmpty());
    // Removing the last "games" account drops the tag.
    source.remove(QByteArray("Steam").toHex());
    QCOMPARE(source.allTags(), QStringList{"work"});
    QCOMPARE(filter.count(), 3);
}

void TestAccountFilterModel::orders_data()
{
    QTest::addColumn<AccountFilterModel::Order>("order");
    QTest::addColumn<QStringList>("issuers");
    QTest::newRow("manual: the sort position") << AccountFilterModel::Order::Manual
                                               << QStringList{"zeta", "Alpha",
                                                              "\xc3\x89"
                                                              "cole",
                                                              "beta"};
    // Letter case and accents do not split the alphabet.
    QTest::newRow("name") << AccountFilterModel::Order::Name
                          << QStringList{"Alpha", "beta",
                                         "\xc3\x89"
                                         "cole",
                                         "zeta"};
    QTest::newRow("recently used, then by name") << AccountFilterModel::Order::RecentlyUsed
                                                 << QStringList{"beta", "zeta", "Alpha",
                                                                "\xc3\x89"
                                                                "cole"};
}

void TestAccountFilterModel::orders()
{
    QFETCH(AccountFilterModel::Order, order);
    QFETCH(QStringList, issuers);
    AccountListModel source;
    fill(source, {{"beta", "x", nullptr, 3, 500},
                  {"\xc3\x89"
                   "cole",
                   "x", nullptr, 2, 0},
                  {"Alpha", "x", nullptr, 1, 0},
                  {"zeta", "x", nullptr, 0, 100}});
    AccountFilterModel filter;
    filter.setSourceModel(&source);
    filter.setOrder(order);
    QCOMPARE(issuersShown(filter), issuers);
}

void TestAccountFilterModel::recentlyUsedResortsLive()
{
    AccountListModel source;
    fill(source, {{"A", "x", nullptr, 0, 10}, {"B", "x", nullptr, 1, 20}});
    AccountFilterModel filter;
    filter.setSourceModel(&source);
    filter.setOrder(AccountFilterModel::Order::RecentlyUsed);
    QCOMPARE(issuersShown(filter), (QStringList{"B", "A"}));
    source.setLastUsed(QByteArray("A").toHex(), 30);
    QCOMPARE(issuersShown(filter), (QStringList{"A", "B"}));
    filter.setOrder(AccountFilterModel::Order::Manual);
    source.setSortPosition(QByteArray("A").toHex(), 5);
    QCOMPARE(issuersShown(filter), (QStringList{"B", "A"}));
}

void TestAccountFilterModel::codesChangingDoNotResort()
{
    AccountListModel source;
    fill(source, {{"B", "x", "t", 1, 0}, {"A", "x", "t", 0, 0}, {"C", "x", "t", 2, 0}});
    AccountFilterModel filter;
    filter.setSourceModel(&source);
    QCOMPARE(issuersShown(filter), (QStringList{"A", "B", "C"}));
    QSignalSpy layout(&filter, &QAbstractItemModel::layoutChanged);
    QSignalSpy data(&filter, &QAbstractItemModel::dataChanged);
    // fill() computed the codes at 59: every row rolls over at 60.
    // (At 59 the next codes were already computed: the roll-over computes none.)
    QCOMPARE(source.tick(60), 0);
    QVERIFY(data.count() > 0);   // the view hears of the new codes...
    QCOMPARE(layout.count(), 0); // ...without sorting again
    // An edit that may move a row sorts again: here a renamed issuer.
    filter.setOrder(AccountFilterModel::Order::Name);
    const QByteArray secret = "12345678901234567890";
    auto generator = otp::OtpGenerator::create({}, test::view(secret));
    QVERIFY(generator.ok());
    source.upsert({QByteArray("A").toHex(),
                   QStringLiteral("Z"),
                   QStringLiteral("x"),
                   {},
                   std::move(*generator),
                   0,
                   0},
                  59);
    QCOMPARE(issuersShown(filter), (QStringList{"B", "C", "Z"}));
    // A new account lands in its place, not at the end.
    auto another = otp::OtpGenerator::create({}, test::view(secret));
    QVERIFY(another.ok());
    source.upsert({QByteArray("M").toHex(),
                   QStringLiteral("M"),
                   QStringLiteral("x"),
                   {},
                   std::move(*another),
                   0,
                   0},
                  59);
    QCOMPARE(issuersShown(filter), (QStringList{"B", "C", "M", "Z"}));
}

QTEST_GUILESS_MAIN(TestAccountFilterModel)
#include "TestAccountFilterModel.moc"
