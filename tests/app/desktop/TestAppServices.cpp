#include "app/codes/Clock.h"
#include "app/desktop/ClipboardService.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QMimeData>
#include <QSignalSpy>
#include <QtTest>

using watchword::app::ClipboardService;
using watchword::app::Clock;

class TestAppServices : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void copiesWithTheSecretHint();
    void clearsAfterTheDelay();
    void leavesSomeoneElsesCopy();
    void zeroNeverClears();
    void clearNowOnLock();
    void clockSecondsOnlyOnChange();
};

void TestAppServices::init()
{
    QGuiApplication::clipboard()->clear();
}

void TestAppServices::copiesWithTheSecretHint()
{
    ClipboardService service;
    service.copy(QStringLiteral("287082"));
    const QMimeData* data = QGuiApplication::clipboard()->mimeData();
    QVERIFY(data != nullptr);
    QCOMPARE(data->text(), QStringLiteral("287082"));
    QCOMPARE(data->data(QStringLiteral("x-kde-passwordManagerHint")), QByteArray("secret"));
    QVERIFY(service.holdingSecret());
}

void TestAppServices::clearsAfterTheDelay()
{
    ClipboardService service;
    service.setClearMilliseconds(50);
    QSignalSpy cleared(&service, &ClipboardService::cleared);
    service.copy(QStringLiteral("287082"));
    QTRY_COMPARE(cleared.count(), 1);
    QVERIFY(QGuiApplication::clipboard()->text().isEmpty());
    QVERIFY(!service.holdingSecret());
}

void TestAppServices::leavesSomeoneElsesCopy()
{
    ClipboardService service;
    service.setClearMilliseconds(50);
    QSignalSpy cleared(&service, &ClipboardService::cleared);
    service.copy(QStringLiteral("287082"));
    QGuiApplication::clipboard()->setText(QStringLiteral("a URL the user copied"));
    QTRY_VERIFY(!service.holdingSecret());
    QTest::qWait(150);
    QCOMPARE(cleared.count(), 0);
    QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("a URL the user copied"));
}

void TestAppServices::zeroNeverClears()
{
    ClipboardService service;
    service.setClearSeconds(0);
    QCOMPARE(service.clearSeconds(), 0);
    service.copy(QStringLiteral("287082"));
    QTest::qWait(100);
    QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("287082"));
    service.clearNow();
    QVERIFY(QGuiApplication::clipboard()->text().isEmpty());
}

void TestAppServices::clearNowOnLock()
{
    {
        ClipboardService service;
        service.copy(QStringLiteral("287082"));
        QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("287082"));
    }
    // Destroyed (the app quit) with our code still there: taken back.
    QVERIFY(QGuiApplication::clipboard()->text().isEmpty());
}

void TestAppServices::clockSecondsOnlyOnChange()
{
    Clock clock;
    QSignalSpy now(&clock, &Clock::nowChanged);
    QSignalSpy second(&clock, &Clock::secondChanged);
    clock.setMilliseconds(1'800'000'000'000);
    clock.setMilliseconds(1'800'000'000'250);
    clock.setMilliseconds(1'800'000'000'999);
    QCOMPARE(now.count(), 3);
    QCOMPARE(second.count(), 1);
    clock.setMilliseconds(1'800'000'001'000);
    QCOMPARE(second.count(), 2);
    QCOMPARE(second.last().at(0).toLongLong(), 1'800'000'001LL);
    QCOMPARE(clock.now(), 1'800'000'001.0);
    clock.setMilliseconds(1'799'999'990'000); // the clock set back
    QCOMPARE(second.count(), 3);
}

QTEST_MAIN(TestAppServices)
#include "TestAppServices.moc"
