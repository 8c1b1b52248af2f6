#include "app/codes/AccountListModel.h"
#include "common/TestSupport.h"

#include <QSignalSpy>
#include <QtTest>

using namespace watchword;
using watchword::app::AccountEntry;
using watchword::app::AccountListModel;
using watchword::app::groupCode;

namespace {

// RFC 6238 appendix B's SHA-1 seed and its 8-digit codes; RFC 4226's HOTP.
const QByteArray rfcSecret = "12345678901234567890";

AccountEntry entry(const char* issuer, otp::OtpParameters parameters)
{
    auto generator = otp::OtpGenerator::create(parameters, test::view(rfcSecret));
    if (!generator)
        qFatal("generator: %s", generator.error().message.c_str());
    return {QByteArray(issuer).toHex(),
            QString::fromLatin1(issuer),
            QStringLiteral("user"),
            {QStringLiteral("work")},
            std::move(*generator)};
}

otp::OtpParameters totp(int digits, std::uint32_t period)
{
    otp::OtpParameters parameters;
    parameters.digits = digits;
    parameters.period = period;
    return parameters;
}

// model shows the one account at unixSeconds.
void showOne(AccountListModel& model, AccountEntry account, std::int64_t unixSeconds)
{
    std::vector<AccountEntry> accounts;
    accounts.push_back(std::move(account));
    model.setAccounts(std::move(accounts), unixSeconds);
}

QString role(const AccountListModel& model, int row, int role)
{
    return model.data(model.index(row), role).toString();
}

} // namespace

class TestAccountListModel : public QObject
{
    Q_OBJECT

private slots:
    void groupsCodes_data();
    void groupsCodes();
    void codesFromRfcVectors();
    void nextCodeInTheLastSeconds();
    void tickRecomputesOnlyRolledOverRows();
    void consecutiveChangesAreOneSignal();
    void tickAfterAJump();
    void hotpShowsTheStoredCounter();
    void clearEmptiesTheModel();
};

void TestAccountListModel::groupsCodes_data()
{
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("grouped");
    QTest::newRow("steam") << "2BC4F"
                           << "2BC4F";
    QTest::newRow("6") << "123456"
                       << "123 456";
    QTest::newRow("7") << "1234567"
                       << "123 4567";
    QTest::newRow("8") << "12345678"
                       << "1234 5678";
    QTest::newRow("9") << "123456789"
                       << "123 456 789";
    QTest::newRow("10") << "1234567890"
                        << "12345 67890";
    QTest::newRow("empty") << ""
                           << "";
}

void TestAccountListModel::groupsCodes()
{
    QFETCH(QString, code);
    QFETCH(QString, grouped);
    QCOMPARE(groupCode(code), grouped);
}

void TestAccountListModel::codesFromRfcVectors()
{
    AccountListModel model;
    showOne(model, entry("eight", totp(8, 30)), 1111111109);
    QCOMPARE(model.rowCount(), 1);
    // RFC 6238: T = 1111111109, SHA-1, 8 digits: 07081804.
    QCOMPARE(role(model, 0, AccountListModel::PlainCodeRole), QStringLiteral("07081804"));
    QCOMPARE(role(model, 0, AccountListModel::CodeRole), QStringLiteral("0708 1804"));
    QCOMPARE(model.data(model.index(0), AccountListModel::ValidUntilRole).toLongLong(),
             1111111110LL);
    QCOMPARE(model.data(model.index(0), AccountListModel::PeriodRole).toInt(), 30);
    QCOMPARE(role(model, 0, AccountListModel::KindRole), QStringLiteral("totp"));
    QCOMPARE(model.data(model.index(0), AccountListModel::TagsRole).toStringList(),
             QStringList{QStringLiteral("work")});
    // 1 s left: the next code (RFC 6238: T = 1111111111 gives 14050471) shows.
    QCOMPARE(role(model, 0, AccountListModel::NextCodeRole), QStringLiteral("1405 0471"));
}

void TestAccountListModel::nextCodeInTheLastSeconds()
{
    AccountListModel model;
    showOne(model, entry("eight", totp(8, 30)), 1234567860); // 30 s left
    QVERIFY(role(model, 0, AccountListModel::NextCodeRole).isEmpty());
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    // Nothing to do until the last five seconds.
    for (std::int64_t t = 1234567861; t < 1234567885; ++t)
        QCOMPARE(model.tick(t), 0);
    QCOMPARE(changed.count(), 0);
    QCOMPARE(model.tick(1234567885), 1); // 5 s left: the next code, once
    QCOMPARE(changed.count(), 1);
    // RFC 6238: T = 1234567890 gives 89005924.
    QCOMPARE(role(model, 0, AccountListModel::NextCodeRole), QStringLiteral("8900 5924"));
    QCOMPARE(model.tick(1234567889), 0);
    QCOMPARE(changed.count(), 1);
    // The roll-over takes the next code without computing it again.
    QCOMPARE(model.tick(1234567890), 0);
    QCOMPARE(changed.count(), 2);
    QCOMPARE(role(model, 0, AccountListModel::PlainCodeRole), QStringLiteral("89005924"));
    QVERIFY(role(model, 0, AccountListModel::NextCodeRole).isEmpty());
    QCOMPARE(model.data(model.index(0), AccountListModel::ValidUntilRole).toLongLong(),
             1234567920LL);
}

void TestAccountListModel::tickRecomputesOnlyRolledOverRows()
{
    AccountListModel model;
    std::vector<AccountEntry> accounts;
    for (int i = 0; i < 1000; ++i)
        accounts.push_back(entry(i % 2 == 0 ? "thirty" : "sixty", totp(6, i % 2 == 0 ? 30 : 60)));
    model.setAccounts(std::move(accounts), 1'800'000'010); // 20 s / 50 s left
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QCOMPARE(model.tick(1'800'000'011), 0);
    QCOMPARE(changed.count(), 0);
    // 1,800,000,025: 5 s left for the 30-s rows: 500 next codes, no others.
    QCOMPARE(model.tick(1'800'000'025), 500);
    QCOMPARE(changed.count(), 500);
    // Every other row: each signal covers one changed row and no other.
    for (const auto& arguments : changed) {
        const auto first = arguments.at(0).value<QModelIndex>();
        const auto last = arguments.at(1).value<QModelIndex>();
        QCOMPARE(first.row() % 2, 0);
        QCOMPARE(last.row(), first.row());
    }
    changed.clear();
    // The 30-s rows roll over onto the codes they showed: nothing computed.
    QCOMPARE(model.tick(1'800'000'030), 0);
    QCOMPARE(changed.count(), 500);
}

void TestAccountListModel::consecutiveChangesAreOneSignal()
{
    // 400 rows of 30 s, 200 of 60 s, 400 of 30 s: a roll-over of the 30-s
    // rows is two signals, one per run, and the 60-s rows are not in them.
    AccountListModel model;
    std::vector<AccountEntry> accounts;
    for (int i = 0; i < 1000; ++i) {
        const bool sixty = i >= 400 && i < 600;
        accounts.push_back(entry(sixty ? "sixty" : "thirty", totp(6, sixty ? 60 : 30)));
    }
    model.setAccounts(std::move(accounts), 1'800'000'010);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QCOMPARE(model.tick(1'800'000'025), 800);
    QCOMPARE(changed.count(), 2);
    QCOMPARE(changed.at(0).at(0).value<QModelIndex>().row(), 0);
    QCOMPARE(changed.at(0).at(1).value<QModelIndex>().row(), 399);
    QCOMPARE(changed.at(1).at(0).value<QModelIndex>().row(), 600);
    QCOMPARE(changed.at(1).at(1).value<QModelIndex>().row(), 999);
    const auto roles = changed.at(0).at(2).value<QList<int>>();
    QVERIFY(roles.contains(AccountListModel::NextCodeRole));
    QVERIFY(!roles.contains(AccountListModel::IssuerRole));
}

void TestAccountListModel::tickAfterAJump()
{
    // A suspend or a clock change: the code is computed for the new time.
    AccountListModel model;
    showOne(model, entry("eight", totp(8, 30)), 59);
    QCOMPARE(role(model, 0, AccountListModel::PlainCodeRole), QStringLiteral("94287082"));
    QCOMPARE(model.tick(2000000000), 1);
    // RFC 6238: T = 2000000000 gives 69279037.
    QCOMPARE(role(model, 0, AccountListModel::PlainCodeRole), QStringLiteral("69279037"));
}

void TestAccountListModel::hotpShowsTheStoredCounter()
{
    otp::OtpParameters hotp;
    hotp.kind = otp::OtpKind::Hotp;
    hotp.counter = 5;
    AccountListModel model;
    showOne(model, entry("counter", hotp), 1'800'000'000);
    // RFC 4226 appendix D: counter 5 gives 254676.
    QCOMPARE(role(model, 0, AccountListModel::CodeRole), QStringLiteral("254 676"));
    QCOMPARE(model.data(model.index(0), AccountListModel::PeriodRole).toInt(), 0);
    QCOMPARE(model.tick(1'900'000'000), 0);
    QCOMPARE(role(model, 0, AccountListModel::PlainCodeRole), QStringLiteral("254676"));
}

void TestAccountListModel::clearEmptiesTheModel()
{
    AccountListModel model;
    showOne(model, entry("eight", totp(8, 30)), 59);
    QSignalSpy count(&model, &AccountListModel::countChanged);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(count.count(), 1);
    QCOMPARE(model.tick(60), 0);
}

QTEST_GUILESS_MAIN(TestAccountListModel)
#include "TestAccountListModel.moc"
