// The navigator: --page names parsed into typed requests, and what it asks
// of the window (and what it refuses before asking) for the vault's state.
#include "app/shell/Navigator.h"
#include "app/vault/VaultController.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace watchword::app;
using Page = Navigator::Page;

class TestNavigator : public QObject
{
    Q_OBJECT

private slots:
    void parsesPageNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("known");
        QTest::addColumn<int>("page");
        QTest::addColumn<QString>("argument");
        QTest::newRow("codes") << "codes" << true << int(Page::Codes) << QString();
        QTest::newRow("add") << "add" << true << int(Page::Add) << QString();
        QTest::newRow("qr-transfer") << "qr-transfer" << true << int(Page::QrTransfer) << QString();
        QTest::newRow("share") << "share" << true << int(Page::Share) << QString();
        QTest::newRow("receive") << "receive" << true << int(Page::Receive) << QString();
        QTest::newRow("recovery-confirm")
            << "recovery-confirm" << true << int(Page::RecoveryConfirm) << QString();
        QTest::newRow("a watch") << "watch-fenix7" << true << int(Page::WatchDevice)
                                 << QStringLiteral("fenix7");
        QTest::newRow("the watch tab") << "watch" << true << int(Page::Watch) << QString();
        QTest::newRow("contacts") << "contacts" << true << int(Page::Contacts) << QString();
        QTest::newRow("watch- alone") << "watch-" << false << 0 << QString();
        QTest::newRow("unknown") << "nosuch" << false << 0 << QString();
        QTest::newRow("case matters") << "Codes" << false << 0 << QString();
        QTest::newRow("empty") << "" << false << 0 << QString();
    }

    void parsesPageNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, known);
        QFETCH(int, page);
        QFETCH(QString, argument);
        const auto request = Navigator::parsePage(name);
        QCOMPARE(request.has_value(), known);
        if (known) {
            QCOMPARE(int(request->page), page);
            QCOMPARE(request->argument, argument);
        }
    }

    void everyListedNameParses()
    {
        const QStringList names = Navigator::pageNames();
        QCOMPARE(names.size(), 18);
        for (QString name : names) {
            name.replace(QStringLiteral("<device>"), QStringLiteral("fenix7"));
            QVERIFY2(Navigator::parsePage(name).has_value(), qPrintable(name));
        }
    }

    // No vault yet (first run): pages of an unlocked vault are refused
    // without asking the window; the first-run page needs nothing shown;
    // the recovery pages are asked, and the window's answer is returned.
    void asksOnlyWhatTheVaultsStateOffers()
    {
        QTemporaryDir home;
        VaultController vault(home.filePath(QStringLiteral("none.wwv")));
        QCOMPARE(vault.state(), VaultController::State::Missing);
        Navigator navigator(&vault);
        QSignalSpy asked(&navigator, &Navigator::pageRequested);

        for (const Page page :
             {Page::Codes, Page::Add, Page::Notes, Page::Qr, Page::Export, Page::ImportPreview,
              Page::QrTransfer, Page::WatchDevice, Page::Contacts})
            QVERIFY(!navigator.showPage({page, QString()}));
        QCOMPARE(asked.count(), 0);

        QVERIFY(navigator.showPage({Page::FirstRun, QString()}));
        QCOMPARE(asked.count(), 0);

        // No answer is a refusal; the answer given is the result, once.
        QVERIFY(!navigator.showPage({Page::Recovery, QString()}));
        QCOMPARE(asked.count(), 1);
        connect(&navigator, &Navigator::pageRequested, &navigator,
                [&navigator](Page page, const QString&) {
                    navigator.answer(page == Page::RecoveryConfirm);
                });
        QVERIFY(navigator.showPage({Page::RecoveryConfirm, QString()}));
        QVERIFY(!navigator.showPage({Page::Recovery, QString()}));
        QCOMPARE(asked.count(), 3);
        QCOMPARE(asked.last().at(0).value<Page>(), Page::Recovery);
    }

    void forwardsLinksAndRaises()
    {
        QTemporaryDir home;
        VaultController vault(home.filePath(QStringLiteral("none.wwv")));
        Navigator navigator(&vault);
        QSignalSpy links(&navigator, &Navigator::addRequested);
        QSignalSpy raises(&navigator, &Navigator::raiseRequested);
        navigator.openAddDialog(QStringLiteral("otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP"));
        navigator.raiseWindow();
        QCOMPARE(links.count(), 1);
        QCOMPARE(links.first().at(0).toString(),
                 QStringLiteral("otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP"));
        QCOMPARE(raises.count(), 1);
    }
};

QTEST_GUILESS_MAIN(TestNavigator)
#include "TestNavigator.moc"
