#include "AccountFilterModel.h"
#include "AccountListModel.h"
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
};

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
    const QByteArray secret = "12345678901234567890";
    struct Account
    {
        const char* issuer;
        const char* name;
        const char* tag;
    };
    const Account accounts[] = {{"GitHub", "alice", "work"},
                                {"Google", "alice@example.com", "work"},
                                {"B\xc3\xa4nk", "4417", "finance"},
                                {"Steam", "alice_plays", "games"}};
    std::vector<AccountEntry> entries;
    for (const auto& account : accounts) {
        auto generator = otp::OtpGenerator::create({}, test::view(secret));
        QVERIFY(generator.ok());
        entries.push_back({QByteArray(account.issuer).toHex(),
                           QString::fromUtf8(account.issuer),
                           QString::fromUtf8(account.name),
                           {QString::fromUtf8(account.tag)},
                           std::move(*generator)});
    }
    AccountListModel source;
    source.setAccounts(std::move(entries), 59);
    AccountFilterModel filter;
    filter.setSourceModel(&source);
    filter.setSearchText(search);
    QStringList shown;
    for (int i = 0; i < filter.rowCount(); ++i)
        shown << filter.data(filter.index(i, 0), AccountListModel::IssuerRole).toString();
    QCOMPARE(shown, issuers);
}

QTEST_GUILESS_MAIN(TestAccountFilterModel)
#include "TestAccountFilterModel.moc"
