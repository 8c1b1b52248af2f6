// The watch simulator's device profiles over the shipped ones: every one
// listed, the drawable and the undrawable, the choice kept in the settings,
// and a bad profile failing the load by name.
#include "app/watch/WatchCosts.h"
#include "app/watch/WatchFixture.h"

using watchword::app::WatchProfiles;
using namespace watchword::test;

class TestWatchProfiles : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { m_fixture.initTestCase(); }
    void init() { m_fixture.init(); }
    void cleanupTestCase() { m_fixture.cleanupTestCase(); }

    void everyShippedProfileIsListed();
    void fr70IsNotDrawable();
    void drawableProfiles_data();
    void drawableProfiles();
    void aBadProfileFailsTheLoad();

private:
    WatchFixture m_fixture;
};

void TestWatchProfiles::everyShippedProfileIsListed()
{
    const auto simulator = m_fixture.makeSimulator();
    const WatchProfiles& profiles = *simulator->profiles();
    QCOMPARE(profiles.loadError(), QString());
    QStringList expected;
    const auto files = QDir(devicesDir).entryInfoList({QStringLiteral("*.json")}, QDir::Files);
    for (const auto& file : files)
        expected << file.completeBaseName();
    QVERIFY(expected.size() >= 2);
    QStringList listed;
    for (const auto& device : profiles.devices())
        listed << device.id;
    expected.sort();
    listed.sort();
    QCOMPARE(listed, expected);
}

void TestWatchProfiles::fr70IsNotDrawable()
{
    const auto simulator = m_fixture.makeSimulator();
    WatchProfiles& profiles = *simulator->profiles();
    profiles.setDeviceId(QStringLiteral("fr70"));
    QCOMPARE(profiles.deviceId(), QStringLiteral("fr70"));
    QVERIFY(!profiles.device().drawable);
    const QString name = profiles.device().name;
    QVERIFY(!name.isEmpty());
    QVERIFY2(profiles.undrawableReason().contains(name), qPrintable(profiles.undrawableReason()));
    QCOMPARE(profiles.device().width, 0);
    QCOMPARE(profiles.device().height, 0);
    for (const auto& device : profiles.devices())
        if (device.id == QStringLiteral("fr70"))
            QVERIFY(!device.drawable);
    // Its costs are still given, from what is known.
    QCOMPARE(simulator->costs()->operations().size(), 6);
}

void TestWatchProfiles::drawableProfiles_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("shape");
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::newRow("round") << QStringLiteral("fr255") << QStringLiteral("round") << 260 << 260;
    QTest::newRow("semi-octagon") << QStringLiteral("instinct2") << QStringLiteral("semi-octagon")
                                  << 176 << 176;
    QTest::newRow("rectangle") << QStringLiteral("venusq2") << QStringLiteral("rectangle") << 320
                               << 360;
}

void TestWatchProfiles::drawableProfiles()
{
    QFETCH(QString, id);
    QFETCH(QString, shape);
    QFETCH(int, width);
    QFETCH(int, height);
    const auto simulator = m_fixture.makeSimulator();
    WatchProfiles& profiles = *simulator->profiles();
    profiles.setDeviceId(QStringLiteral("fr70"));
    QSignalSpy changed(&profiles, &WatchProfiles::deviceChanged);
    profiles.setDeviceId(id);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(profiles.deviceId(), id);
    QVERIFY(profiles.device().drawable);
    QCOMPARE(profiles.undrawableReason(), QString());
    QCOMPARE(profiles.device().shape, shape);
    QCOMPARE(profiles.device().width, width);
    QCOMPARE(profiles.device().height, height);
    // The choice is remembered.
    QCOMPARE(m_fixture.settings->watchDevice(), id);
    // In the app's settings, not in a QSettings of its own.
    QVERIFY(!QSettings().contains(QStringLiteral("watch/device")));
}

void TestWatchProfiles::aBadProfileFailsTheLoad()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto files = QDir(devicesDir).entryInfoList({QStringLiteral("*.json")}, QDir::Files);
    for (const auto& file : files)
        QVERIFY(QFile::copy(file.filePath(), dir.filePath(file.fileName())));
    const QString victim = dir.filePath(QStringLiteral("fr255.json"));
    QByteArray contents = readBytes(victim);
    const QByteArray width = "\"width\": 260";
    QVERIFY(contents.contains(width));
    contents.replace(width, "\"width\": -3");
    QFile::setPermissions(victim, QFile::ReadOwner | QFile::WriteOwner);
    QVERIFY(writeBytes(victim, contents));

    const auto simulator = m_fixture.makeSimulator();
    WatchProfiles& profiles = *simulator->profiles();
    QVERIFY(!profiles.devices().isEmpty());
    QSignalSpy changed(&profiles, &WatchProfiles::devicesChanged);
    profiles.setDeviceDirectory(dir.path());
    QVERIFY(changed.size() >= 1);
    QVERIFY2(profiles.loadError().contains(QStringLiteral("fr255.json")),
             qPrintable(profiles.loadError()));
    QVERIFY2(profiles.loadError().contains(QStringLiteral("display.width")),
             qPrintable(profiles.loadError()));
    QVERIFY(profiles.devices().isEmpty());
    QCOMPARE(profiles.deviceId(), QString());
    QVERIFY(!profiles.device().drawable);
    QVERIFY(simulator->costs()->operations().isEmpty());
    QVERIFY(!simulator->exportFile()->create(m_fixture.accountIds(), watchPin, watchPin));
    QVERIFY(!simulator->exportFile()->loaded());
}

int main(int argc, char** argv)
{
    return runWatchTest<TestWatchProfiles>(argc, argv, "TestWatchProfiles");
}

#include "TestWatchProfiles.moc"
