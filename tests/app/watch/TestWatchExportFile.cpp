// The watch export over the demo vault: bad input refused, made from the
// vault's accounts and loaded into the watch, saved (0600, replaced only when
// asked) and opened again, and what is not an export or not a local file
// refused with the loaded export kept.
#include "app/watch/WatchCosts.h"
#include "app/watch/WatchFixture.h"
#include "watch/CostModel.h"
#include "watch/WatchOpener.h"

#include <sys/stat.h>

using watchword::app::WatchExportFile;
using watchword::app::WatchExportInfo;
using watchword::app::WatchSimulator;
using namespace watchword::test;
namespace watch = watchword::watch;

class TestWatchExportFile : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { m_fixture.initTestCase(); }
    void init() { m_fixture.init(); }
    void cleanupTestCase() { m_fixture.cleanupTestCase(); }

    void createExportRefusesBadInput_data();
    void createExportRefusesBadInput();
    void createExportNeedsAnUnlockedVault();
    void createExportLoadsTheWatch();

    void saveAndOpenExportFiles();
    void openingANonExportKeepsTheLoadedOne_data();
    void openingANonExportKeepsTheLoadedOne();
    void openingAMissingFileNamesIt();
    void onlyLocalFiles();

private:
    WatchFixture m_fixture;
};

void TestWatchExportFile::createExportRefusesBadInput_data()
{
    QTest::addColumn<int>("accounts"); // -1: an id not in the vault
    QTest::addColumn<QString>("pin");
    QTest::addColumn<QString>("repeat");
    QTest::addColumn<QString>("error");
    QTest::newRow("PIN too short")
        << 2 << QStringLiteral("123") << QStringLiteral("123") << QStringLiteral("4 to 12 digits");
    QTest::newRow("PIN too long") << 2 << QStringLiteral("1234567890123")
                                  << QStringLiteral("1234567890123")
                                  << QStringLiteral("4 to 12 digits");
    QTest::newRow("PIN not digits") << 2 << QStringLiteral("12ab") << QStringLiteral("12ab")
                                    << QStringLiteral("4 to 12 digits");
    QTest::newRow("PIN in other digits")
        << 2 << QStringLiteral("\u0661\u0662\u0663\u0664")
        << QStringLiteral("\u0661\u0662\u0663\u0664") << QStringLiteral("4 to 12 digits");
    QTest::newRow("PINs differ") << 2 << QStringLiteral("4821") << QStringLiteral("4812")
                                 << QStringLiteral("not the same");
    QTest::newRow("no accounts") << 0 << QStringLiteral("4821") << QStringLiteral("4821")
                                 << QStringLiteral("at least one account");
    QTest::newRow("unknown account")
        << -1 << QStringLiteral("4821") << QStringLiteral("4821") << QStringLiteral("No account");
}

void TestWatchExportFile::createExportRefusesBadInput()
{
    QFETCH(int, accounts);
    QFETCH(QString, pin);
    QFETCH(QString, repeat);
    QFETCH(QString, error);
    const auto simulator = m_fixture.makeSimulator();
    WatchExportFile& exportFile = *simulator->exportFile();
    QStringList ids = m_fixture.accountIds().mid(0, std::max(accounts, 0));
    if (accounts < 0)
        ids = QStringList{m_fixture.accountIds().first(), QStringLiteral("no-such-record")};
    QSignalSpy exported(&exportFile, &WatchExportFile::exportChanged);
    QVERIFY(!exportFile.create(ids, pin, repeat));
    QVERIFY2(simulator->error().contains(error), qPrintable(simulator->error()));
    QVERIFY(!exportFile.loaded());
    QCOMPARE(exportFile.info(), WatchExportInfo());
    QCOMPARE(exported.size(), 0);
    QCOMPARE(simulator->watch()->view(), QStringLiteral("noExport"));
}

void TestWatchExportFile::createExportNeedsAnUnlockedVault()
{
    const auto simulator = m_fixture.makeSimulator();
    const QStringList ids = m_fixture.accountIds();
    m_fixture.vault->lock();
    QCOMPARE(m_fixture.vault->state(), watchword::app::VaultController::State::Locked);
    QVERIFY(!simulator->exportFile()->create(ids, watchPin, watchPin));
    QVERIFY2(simulator->error().contains(QStringLiteral("Unlock the vault")),
             qPrintable(simulator->error()));
    QVERIFY(!simulator->exportFile()->loaded());

    // Without a vault at all.
    WatchSimulator alone;
    alone.profiles()->setDeviceDirectory(devicesDir);
    QVERIFY(!alone.exportFile()->create(ids, watchPin, watchPin));
    QVERIFY(!alone.error().isEmpty());
    QVERIFY(!alone.exportFile()->loaded());
}

void TestWatchExportFile::createExportLoadsTheWatch()
{
    const auto simulator = m_fixture.makeSimulator();
    const WatchExportFile& exportFile = *simulator->exportFile();
    QCOMPARE(exportFile.choices().size(), m_fixture.accounts->model()->rowCount());
    simulator->costs()->setTargetMs(2000);
    const QStringList ids = m_fixture.accountIds().mid(0, 3);
    QSignalSpy exported(&exportFile, &WatchExportFile::exportChanged);
    exportAccounts(*simulator, ids);
    QCOMPARE(exported.size(), 1);
    QCOMPARE(simulator->error(), QString());
    const WatchExportInfo info = exportFile.info();
    QCOMPARE(info.accounts, 3);
    QCOMPARE(info.deviceId, QStringLiteral("fr255"));
    QCOMPARE(info.iterations, qint64(watch::exportIterations(shippedDevice("fr255"), 2000)));
    QCOMPARE(info.fromFile, false);
    QVERIFY(info.bytes > 0);
    QCOMPARE(info.createdAt,
             QDateTime::fromMSecsSinceEpoch(startMilliseconds, Qt::UTC).toString(Qt::ISODate));
    QCOMPARE(simulator->watch()->view(), QStringLiteral("pin"));
    QCOMPARE(simulator->watch()->openedAccounts(), 0);
    // The memory row now uses the payload's real size.
    QCOMPARE(simulator->costs()->memory().payloadBytes, info.bytes);
    QCOMPARE(simulator->costs()->memory().payloadEstimated, false);
    QVERIFY(!simulator->watch()->frame().unlockEstimate.isEmpty());
    QCOMPARE(info.deviceName, QString::fromStdString(shippedDevice("fr255").name));
    QVERIFY(info.forThisDevice);

    // Another watch chosen: what is said of the loaded export follows.
    simulator->profiles()->setDeviceId(QStringLiteral("epix2"));
    QCOMPARE(exported.size(), 2);
    QVERIFY(!exportFile.info().forThisDevice);
    QCOMPARE(exportFile.info().deviceName, info.deviceName);
    simulator->profiles()->setDeviceId(QStringLiteral("fr255"));
    QCOMPARE(exported.size(), 3);
    QVERIFY(exportFile.info().forThisDevice);
}

void TestWatchExportFile::saveAndOpenExportFiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("watch.json"));
    const auto simulator = m_fixture.makeSimulator();
    WatchExportFile& exportFile = *simulator->exportFile();
    QVERIFY(!exportFile.save(QUrl::fromLocalFile(path), false));
    QVERIFY(!QFile::exists(path));
    exportAccounts(*simulator, m_fixture.accountIds().mid(0, 2));
    const WatchExportInfo info = exportFile.info();

    QVERIFY2(exportFile.save(QUrl::fromLocalFile(path), false), qPrintable(simulator->error()));
    QVERIFY(QFile::exists(path));
    struct stat status = {};
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &status), 0);
    QCOMPARE(status.st_mode & 0777, mode_t(0600));
    const QByteArray saved = readBytes(path);
    QCOMPARE(saved.size(), info.bytes);
    const auto summary = watch::inspectExport(saved.toStdString());
    QVERIFY(summary);
    QCOMPARE(qint64(summary->accounts), 2);
    QCOMPARE(QString::fromStdString(summary->header.deviceId), QStringLiteral("fr255"));
    QCOMPARE(qint64(summary->header.iterations), info.iterations);

    // Not replaced without being asked.
    QVERIFY(!exportFile.save(QUrl::fromLocalFile(path), false));
    QVERIFY(!simulator->error().isEmpty());
    QCOMPARE(readBytes(path), saved);

    // Read back: the same export, from a file, and it opens with its PIN.
    const auto reader = m_fixture.makeSimulator();
    WatchExportFile& read = *reader->exportFile();
    QVERIFY2(read.open(QUrl::fromLocalFile(path)), qPrintable(reader->error()));
    QVERIFY(read.loaded());
    const WatchExportInfo readInfo = read.info();
    QCOMPARE(readInfo.fromFile, true);
    QCOMPARE(readInfo.accounts, info.accounts);
    QCOMPARE(readInfo.bytes, info.bytes);
    QCOMPARE(readInfo.iterations, info.iterations);
    QCOMPARE(readInfo.deviceId, info.deviceId);
    QCOMPARE(readInfo.createdAt, info.createdAt);
    QCOMPARE(reader->watch()->view(), QStringLiteral("pin"));
    enterPinWithButtons(*reader->watch(), watchPin);
    QCOMPARE(reader->watch()->openedAccounts(), 2);

    // Replaced when asked: a new export (new salt and IVs) overwrites it.
    exportAccounts(*simulator, m_fixture.accountIds().mid(0, 3));
    QVERIFY2(exportFile.save(QUrl::fromLocalFile(path), true), qPrintable(simulator->error()));
    const QByteArray replaced = readBytes(path);
    QVERIFY(replaced != saved);
    QCOMPARE(replaced.size(), exportFile.info().bytes);
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &status), 0);
    QCOMPARE(status.st_mode & 0777, mode_t(0600));
    QVERIFY(read.open(QUrl::fromLocalFile(path)));
    QCOMPARE(read.info().accounts, 3);
    // A new export closes what the watch had opened.
    QCOMPARE(reader->watch()->openedAccounts(), 0);
    QCOMPARE(reader->watch()->view(), QStringLiteral("pin"));
}

void TestWatchExportFile::openingANonExportKeepsTheLoadedOne_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::newRow("empty object") << QByteArray("{}");
    QTest::newRow("empty file") << QByteArray();
    QTest::newRow("random bytes") << QByteArray::fromHex("8f01c2ffe3007a9b10d4aa5e6c0b31f2");
    QTest::newRow("a device profile") << readBytes(devicesDir + QStringLiteral("/fr255.json"));
}

void TestWatchExportFile::openingANonExportKeepsTheLoadedOne()
{
    QFETCH(QByteArray, contents);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("other.json"));
    QVERIFY(writeBytes(path, contents));

    const auto simulator = m_fixture.makeSimulator();
    WatchExportFile& exportFile = *simulator->exportFile();
    exportAccounts(*simulator, m_fixture.accountIds().mid(0, 2));
    const WatchExportInfo info = exportFile.info();
    QSignalSpy exported(&exportFile, &WatchExportFile::exportChanged);
    QVERIFY(!exportFile.open(QUrl::fromLocalFile(path)));
    QVERIFY(!simulator->error().isEmpty());
    QCOMPARE(exported.size(), 0);
    QVERIFY(exportFile.loaded());
    QCOMPARE(exportFile.info(), info);
    QCOMPARE(simulator->watch()->view(), QStringLiteral("pin"));
    // And it still opens.
    enterPinWithButtons(*simulator->watch(), watchPin);
    QCOMPARE(simulator->watch()->openedAccounts(), 2);
}

void TestWatchExportFile::openingAMissingFileNamesIt()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("missing.json"));
    const auto simulator = m_fixture.makeSimulator();
    QVERIFY(!simulator->exportFile()->open(QUrl::fromLocalFile(path)));
    QVERIFY2(simulator->error().contains(path), qPrintable(simulator->error()));
    QVERIFY(!simulator->exportFile()->loaded());
    QCOMPARE(simulator->watch()->view(), QStringLiteral("noExport"));
}

void TestWatchExportFile::onlyLocalFiles()
{
    const auto simulator = m_fixture.makeSimulator();
    WatchExportFile& exportFile = *simulator->exportFile();
    exportAccounts(*simulator, m_fixture.accountIds().mid(0, 1));
    const QUrl remote(QStringLiteral("https://example.com/export.json"));
    QVERIFY(!exportFile.save(remote, false));
    QVERIFY(simulator->error().contains(remote.toString()));
    QVERIFY(!exportFile.open(remote));
    QVERIFY(simulator->error().contains(remote.toString()));
    QVERIFY(exportFile.loaded());
    QVERIFY(!exportFile.info().fromFile);
}

int main(int argc, char** argv)
{
    return runWatchTest<TestWatchExportFile>(argc, argv, "TestWatchExportFile");
}

#include "TestWatchExportFile.moc"
