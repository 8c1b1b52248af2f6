// The watch simulator's controller over the shipped device profiles and the
// demo vault: the profiles and their costs, measured values kept in the
// settings, the export made from the vault's accounts, the watch app driven
// by its buttons, and the export's files.
#include "app/codes/AccountListModel.h"
#include "app/codes/AccountStore.h"
#include "app/codes/Clock.h"
#include "app/desktop/AppSettings.h"
#include "app/desktop/ClipboardService.h"
#include "app/vault/VaultController.h"
#include "app/watch/WatchSimulator.h"
#include "watch/CostModel.h"
#include "watch/Device.h"
#include "watch/WatchApp.h"
#include "watch/WatchOpener.h"

#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <limits>
#include <sys/stat.h>

using watchword::app::AccountListModel;
using watchword::app::AccountStore;
using watchword::app::AppSettings;
using watchword::app::ClipboardService;
using watchword::app::Clock;
using watchword::app::VaultController;
using watchword::app::WatchCalibration;
using watchword::app::WatchCost;
using watchword::app::WatchExportInfo;
using watchword::app::WatchSimulator;
namespace watch = watchword::watch;

namespace {

const QString devicesDir = QStringLiteral(WATCHWORD_SHIPPED_DEVICES_DIR);
const QString watchPin = QStringLiteral("4821");
// The folder main() keeps the settings in.
QString settingsFolder;

// 2027-01-15 08:00:07 UTC: 23 s left in a 30 s period.
constexpr qint64 startMilliseconds = 1'800'000'007'000;

// The cost row of operation key; a default-made one (key "") if none.
WatchCost costRow(const WatchSimulator& simulator, const QString& key)
{
    for (const auto& row : simulator.costs())
        if (row.key == key)
            return row;
    return {};
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

bool writeAll(const QString& path, const QByteArray& contents)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           file.write(contents) == contents.size();
}

} // namespace

class TestWatchSimulator : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void everyShippedProfileIsListed();
    void fr70IsNotDrawable();
    void drawableProfiles_data();
    void drawableProfiles();
    void aBadProfileFailsTheLoad();

    void costsOnTheNotesFigures();
    void aMeasuredValueReplacesTheEstimate();
    void badMeasuredValuesAreRefused_data();
    void badMeasuredValuesAreRefused();
    void theNotesInconsistencyIsStatedOnce();
    void targetAndIterations();

    void createExportRefusesBadInput_data();
    void createExportRefusesBadInput();
    void createExportNeedsAnUnlockedVault();
    void createExportLoadsTheWatch();

    void aWrongPinIsRefused();
    void aStaleAnswerIsDropped();
    void anInputClearsTheLastError();
    void theButtonsUnlockAndMoveAround();
    void lockingTheVaultLocksTheWatch();

    void saveAndOpenExportFiles();
    void openingANonExportKeepsTheLoadedOne_data();
    void openingANonExportKeepsTheLoadedOne();
    void openingAMissingFileNamesIt();
    void onlyLocalFiles();

    void theCodeCountsDownWithTheClock();

private:
    // A simulator on the shipped profiles, the demo vault and the clock,
    // with fr255 chosen.
    std::unique_ptr<WatchSimulator> makeSimulator();
    // The ids of the demo vault's accounts, in its order.
    QStringList accountIds() const;
    // Makes an export of ids under watchPin.
    void exportAccounts(WatchSimulator& simulator, const QStringList& ids);
    // Enters pin with Up and Select, then OK, and waits for the answer.
    void enterPinWithButtons(WatchSimulator& simulator, const QString& pin);
    // The code the vault's own list shows for record id now.
    QString vaultCode(const QString& id) const;
    watch::Device shippedDevice(const std::string& id) const;

    Clock m_clock;
    ClipboardService m_clipboard;
    std::unique_ptr<VaultController> m_vault;
    std::unique_ptr<AccountStore> m_accounts;
    // The app's settings on a file of each test's own: the device chosen
    // and the measured times are kept there.
    std::unique_ptr<AppSettings> m_settings;
};

void TestWatchSimulator::initTestCase()
{
    QVERIFY(!settingsFolder.isEmpty());
    QVERIFY2(QSettings().fileName().startsWith(settingsFolder), qPrintable(QSettings().fileName()));
    m_clock.setMilliseconds(startMilliseconds);
    m_vault = VaultController::makeDemo();
    m_accounts = std::make_unique<AccountStore>(*m_vault, m_clock, m_clipboard);
    QSignalSpy finished(m_vault.get(), &VaultController::unlockFinished);
    QVERIFY(finished.wait(10'000));
    QCOMPARE(m_vault->state(), VaultController::State::Unlocked);
    QVERIFY(m_accounts->model()->rowCount() >= 3);
}

void TestWatchSimulator::init()
{
    // Nothing measured and no device chosen by an earlier test.
    QSettings().clear();
    const QString file = QDir(settingsFolder).filePath(QStringLiteral("watch-test.conf"));
    QFile::remove(file);
    m_settings = std::make_unique<AppSettings>(file);
    m_clock.setMilliseconds(startMilliseconds);
    if (m_vault->state() != VaultController::State::Unlocked) {
        QSignalSpy finished(m_vault.get(), &VaultController::unlockFinished);
        m_vault->unlock(QStringLiteral("demo"));
        QVERIFY(finished.wait(10'000));
    }
    QCOMPARE(m_vault->state(), VaultController::State::Unlocked);
}

void TestWatchSimulator::cleanupTestCase()
{
    m_accounts.reset();
    m_vault.reset();
}

std::unique_ptr<WatchSimulator> TestWatchSimulator::makeSimulator()
{
    auto simulator = std::make_unique<WatchSimulator>();
    simulator->setDeviceDirectory(devicesDir);
    simulator->setVault(m_vault.get());
    simulator->setAccounts(m_accounts->model());
    simulator->setClock(&m_clock);
    simulator->setSettings(m_settings.get());
    simulator->setDeviceId(QStringLiteral("fr255"));
    return simulator;
}

QStringList TestWatchSimulator::accountIds() const
{
    QStringList ids;
    const auto* model = m_accounts->model();
    for (int row = 0; row < model->rowCount(); ++row)
        ids << model->data(model->index(row), AccountListModel::IdRole).toString();
    return ids;
}

void TestWatchSimulator::exportAccounts(WatchSimulator& simulator, const QStringList& ids)
{
    QVERIFY2(simulator.createExport(ids, watchPin, watchPin), qPrintable(simulator.error()));
    QVERIFY(simulator.exportLoaded());
    QCOMPARE(simulator.view(), QStringLiteral("pin"));
}

void TestWatchSimulator::enterPinWithButtons(WatchSimulator& simulator, const QString& pin)
{
    const auto moveTo = [&](int position) {
        const int presses = (position - simulator.frame().picker + 11) % 11;
        for (int i = 0; i < presses; ++i)
            simulator.press(QStringLiteral("up"));
        QCOMPARE(simulator.frame().picker, position);
        simulator.press(QStringLiteral("select"));
    };
    for (qsizetype i = 0; i < pin.size(); ++i) {
        moveTo(pin.at(i).digitValue());
        QCOMPARE(simulator.frame().pinLength, int(i + 1));
    }
    QSignalSpy finished(&simulator, &WatchSimulator::unlockFinished);
    moveTo(watch::WatchApp::pickerOk);
    QCOMPARE(simulator.view(), QStringLiteral("unlocking"));
    QVERIFY(finished.wait(30'000));
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), true);
}

QString TestWatchSimulator::vaultCode(const QString& id) const
{
    const auto* model = m_accounts->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        const auto index = model->index(row);
        if (model->data(index, AccountListModel::IdRole).toString() == id)
            return model->data(index, AccountListModel::CodeRole).toString();
    }
    return {};
}

watch::Device TestWatchSimulator::shippedDevice(const std::string& id) const
{
    auto devices = watch::loadDevices(devicesDir.toStdString());
    if (devices)
        for (auto& device : *devices)
            if (device.id == id)
                return device;
    return {};
}

void TestWatchSimulator::everyShippedProfileIsListed()
{
    const auto simulator = makeSimulator();
    QCOMPARE(simulator->loadError(), QString());
    QStringList expected;
    const auto files = QDir(devicesDir).entryInfoList({QStringLiteral("*.json")}, QDir::Files);
    for (const auto& file : files)
        expected << file.completeBaseName();
    QVERIFY(expected.size() >= 2);
    QStringList listed;
    for (const auto& device : simulator->devices())
        listed << device.id;
    expected.sort();
    listed.sort();
    QCOMPARE(listed, expected);
}

void TestWatchSimulator::fr70IsNotDrawable()
{
    const auto simulator = makeSimulator();
    simulator->setDeviceId(QStringLiteral("fr70"));
    QCOMPARE(simulator->deviceId(), QStringLiteral("fr70"));
    QVERIFY(!simulator->drawable());
    const QString name = simulator->device().name;
    QVERIFY(!name.isEmpty());
    QVERIFY2(simulator->undrawableReason().contains(name),
             qPrintable(simulator->undrawableReason()));
    QCOMPARE(simulator->screenWidth(), 0);
    QCOMPARE(simulator->screenHeight(), 0);
    for (const auto& device : simulator->devices())
        if (device.id == QStringLiteral("fr70"))
            QVERIFY(!device.drawable);
    // Its costs are still given, from what is known.
    QCOMPARE(simulator->costs().size(), 6);
}

void TestWatchSimulator::drawableProfiles_data()
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

void TestWatchSimulator::drawableProfiles()
{
    QFETCH(QString, id);
    QFETCH(QString, shape);
    QFETCH(int, width);
    QFETCH(int, height);
    const auto simulator = makeSimulator();
    simulator->setDeviceId(QStringLiteral("fr70"));
    QSignalSpy changed(simulator.get(), &WatchSimulator::deviceChanged);
    simulator->setDeviceId(id);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(simulator->deviceId(), id);
    QVERIFY(simulator->drawable());
    QCOMPARE(simulator->undrawableReason(), QString());
    QCOMPARE(simulator->device().shape, shape);
    QCOMPARE(simulator->screenWidth(), width);
    QCOMPARE(simulator->screenHeight(), height);
    // The choice is remembered.
    QCOMPARE(m_settings->watchDevice(), id);
    // In the app's settings, not in a QSettings of its own.
    QVERIFY(!QSettings().contains(QStringLiteral("watch/device")));
}

void TestWatchSimulator::aBadProfileFailsTheLoad()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto files = QDir(devicesDir).entryInfoList({QStringLiteral("*.json")}, QDir::Files);
    for (const auto& file : files)
        QVERIFY(QFile::copy(file.filePath(), dir.filePath(file.fileName())));
    const QString victim = dir.filePath(QStringLiteral("fr255.json"));
    QByteArray contents = readAll(victim);
    const QByteArray width = "\"width\": 260";
    QVERIFY(contents.contains(width));
    contents.replace(width, "\"width\": -3");
    QFile::setPermissions(victim, QFile::ReadOwner | QFile::WriteOwner);
    QVERIFY(writeAll(victim, contents));

    const auto simulator = makeSimulator();
    QVERIFY(!simulator->devices().isEmpty());
    QSignalSpy changed(simulator.get(), &WatchSimulator::devicesChanged);
    simulator->setDeviceDirectory(dir.path());
    QVERIFY(changed.size() >= 1);
    QVERIFY2(simulator->loadError().contains(QStringLiteral("fr255.json")),
             qPrintable(simulator->loadError()));
    QVERIFY2(simulator->loadError().contains(QStringLiteral("display.width")),
             qPrintable(simulator->loadError()));
    QVERIFY(simulator->devices().isEmpty());
    QCOMPARE(simulator->deviceId(), QString());
    QVERIFY(!simulator->drawable());
    QVERIFY(simulator->costs().isEmpty());
    QVERIFY(!simulator->createExport(accountIds(), watchPin, watchPin));
    QVERIFY(!simulator->exportLoaded());
}

void TestWatchSimulator::costsOnTheNotesFigures()
{
    const auto simulator = makeSimulator();
    const QList<WatchCost> costs = simulator->costs();
    QCOMPARE(costs.size(), 6);
    const std::pair<const char*, double> figures[] = {
        {"totp-sha1", 0.35}, {"totp-sha256", 0.05}, {"totp-sha512", 17.5},
        {"pbkdf2-1000", 52}, {"seal-open", 0.25},   {"self-test", 6.7},
    };
    for (const auto& [key, ms] : figures) {
        const WatchCost row = costRow(*simulator, QString::fromLatin1(key));
        QCOMPARE(row.key, QString::fromLatin1(key));
        QCOMPARE(row.simulatorMs, ms);
        QCOMPARE(row.basis, QStringLiteral("estimate"));
        QCOMPARE(row.measuredMs, 0.0);
        QVERIFY(row.lowMs < row.highMs);
        QVERIFY(!row.text.isEmpty());
    }
}

void TestWatchSimulator::aMeasuredValueReplacesTheEstimate()
{
    const auto simulator = makeSimulator();
    const WatchCalibration calibrationBefore = simulator->calibration();
    QVERIFY(calibrationBefore.floorApplied);
    QSignalSpy costs(simulator.get(), &WatchSimulator::costsChanged);
    QVERIFY(simulator->setMeasured(QStringLiteral("pbkdf2-1000"), 10));
    QVERIFY(costs.size() >= 1);

    const WatchCost row = costRow(*simulator, QStringLiteral("pbkdf2-1000"));
    QCOMPARE(row.basis, QStringLiteral("measured"));
    QCOMPARE(row.lowMs, 10.0);
    QCOMPARE(row.highMs, 10.0);
    QCOMPARE(row.measuredMs, 10.0);
    // The other rows stay estimates.
    QCOMPARE(costRow(*simulator, QStringLiteral("totp-sha1")).basis, QStringLiteral("estimate"));

    // 1,000 ms at 10 ms per 1,000 rounds: 100,000 rounds, timed at 1 s.
    const WatchCalibration calibration = simulator->calibration();
    QCOMPARE(calibration.basis, QStringLiteral("measured"));
    QCOMPARE(calibration.low, 100'000);
    QCOMPARE(calibration.high, 100'000);
    QVERIFY(!calibration.floorApplied);
    QVERIFY(calibration.warnings.isEmpty());
    const auto unlock = simulator->unlock();
    QCOMPARE(unlock.iterations, 100'000);
    QCOMPARE(unlock.basis, QStringLiteral("measured"));
    QCOMPARE(unlock.lowMs, 1000.0);
    QCOMPARE(unlock.highMs, 1000.0);

    // Kept by device: a new simulator on the same settings shows it; another
    // watch does not.
    {
        const auto again = makeSimulator();
        const WatchCost kept = costRow(*again, QStringLiteral("pbkdf2-1000"));
        QCOMPARE(kept.basis, QStringLiteral("measured"));
        QCOMPARE(kept.measuredMs, 10.0);
        QCOMPARE(again->unlock().iterations, 100'000);
        again->setDeviceId(QStringLiteral("fr965"));
        QCOMPARE(costRow(*again, QStringLiteral("pbkdf2-1000")).basis, QStringLiteral("estimate"));
    }

    // 0 clears it, here and in the settings.
    QVERIFY(simulator->setMeasured(QStringLiteral("pbkdf2-1000"), 0));
    QCOMPARE(costRow(*simulator, QStringLiteral("pbkdf2-1000")).basis, QStringLiteral("estimate"));
    QCOMPARE(simulator->calibration(), calibrationBefore);
    const auto cleared = makeSimulator();
    QCOMPARE(costRow(*cleared, QStringLiteral("pbkdf2-1000")).basis, QStringLiteral("estimate"));
}

void TestWatchSimulator::badMeasuredValuesAreRefused_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<double>("milliseconds");
    QTest::newRow("unknown operation") << QStringLiteral("pbkdf2-2000") << 10.0;
    QTest::newRow("empty key") << QString() << 10.0;
    QTest::newRow("NaN") << QStringLiteral("totp-sha1") << std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("infinity") << QStringLiteral("totp-sha1")
                              << std::numeric_limits<double>::infinity();
    QTest::newRow("over an hour") << QStringLiteral("totp-sha1") << 3'600'001.0;
}

void TestWatchSimulator::badMeasuredValuesAreRefused()
{
    QFETCH(QString, key);
    QFETCH(double, milliseconds);
    const auto simulator = makeSimulator();
    const QList<WatchCost> before = simulator->costs();
    QSignalSpy costs(simulator.get(), &WatchSimulator::costsChanged);
    QVERIFY(!simulator->setMeasured(key, milliseconds));
    QVERIFY(!simulator->error().isEmpty());
    QCOMPARE(costs.size(), 0);
    QCOMPARE(simulator->costs(), before);
    QCOMPARE(m_settings->watchMeasuredMs(QStringLiteral("fr255"), key), 0.0);
}

void TestWatchSimulator::theNotesInconsistencyIsStatedOnce()
{
    const auto simulator = makeSimulator();
    const QString text = simulator->inconsistency().text;
    QVERIFY(!text.isEmpty());
    QVERIFY2(text.contains(QStringLiteral("19,231")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("12,000")), qPrintable(text));
    QCOMPARE(simulator->inconsistency().simulatorCalibrationRounds, 12000.0);
    QVERIFY(!simulator->notes().contains(text));
    for (const auto& note : simulator->notes())
        QVERIFY2(!note.contains(QStringLiteral("19,231")), qPrintable(note));
}

void TestWatchSimulator::targetAndIterations()
{
    const auto simulator = makeSimulator();
    const watch::Device fr255 = shippedDevice("fr255");
    QCOMPARE(fr255.id, std::string("fr255"));

    QCOMPARE(simulator->targetMs(), 1000);
    simulator->setTargetMs(5);
    QCOMPARE(simulator->targetMs(), 100);
    simulator->setTargetMs(20'000);
    QCOMPARE(simulator->targetMs(), 10'000);
    QCOMPARE(simulator->calibration().targetMs, 10'000);
    simulator->setTargetMs(-1);
    QCOMPARE(simulator->targetMs(), 100);
    simulator->setTargetMs(4000);
    QCOMPARE(simulator->targetMs(), 4000);

    // 0: the count an export would choose.
    QCOMPARE(simulator->iterations(), 0);
    QCOMPARE(simulator->unlock().iterations, qint64(watch::exportIterations(fr255, 4000)));
    QCOMPARE(simulator->unlock().iterations, simulator->calibration().low);

    // 12,000 rounds at 52 ms per 1,000.
    QSignalSpy costs(simulator.get(), &WatchSimulator::costsChanged);
    simulator->setIterations(12'000);
    QCOMPARE(costs.size(), 1);
    QCOMPARE(simulator->iterations(), 12'000);
    QCOMPARE(simulator->unlock().iterations, 12'000);
    QCOMPARE(simulator->unlock().simulatorMs, 624.0);

    simulator->setIterations(0);
    QCOMPARE(simulator->unlock().iterations, qint64(watch::exportIterations(fr255, 4000)));
}

void TestWatchSimulator::createExportRefusesBadInput_data()
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

void TestWatchSimulator::createExportRefusesBadInput()
{
    QFETCH(int, accounts);
    QFETCH(QString, pin);
    QFETCH(QString, repeat);
    QFETCH(QString, error);
    const auto simulator = makeSimulator();
    QStringList ids = accountIds().mid(0, std::max(accounts, 0));
    if (accounts < 0)
        ids = QStringList{accountIds().first(), QStringLiteral("no-such-record")};
    QSignalSpy exported(simulator.get(), &WatchSimulator::exportChanged);
    QVERIFY(!simulator->createExport(ids, pin, repeat));
    QVERIFY2(simulator->error().contains(error), qPrintable(simulator->error()));
    QVERIFY(!simulator->exportLoaded());
    QCOMPARE(simulator->exportInfo(), WatchExportInfo());
    QCOMPARE(exported.size(), 0);
    QCOMPARE(simulator->view(), QStringLiteral("noExport"));
}

void TestWatchSimulator::createExportNeedsAnUnlockedVault()
{
    const auto simulator = makeSimulator();
    const QStringList ids = accountIds();
    m_vault->lock();
    QCOMPARE(m_vault->state(), VaultController::State::Locked);
    QVERIFY(!simulator->createExport(ids, watchPin, watchPin));
    QVERIFY2(simulator->error().contains(QStringLiteral("Unlock the vault")),
             qPrintable(simulator->error()));
    QVERIFY(!simulator->exportLoaded());

    // Without a vault at all.
    WatchSimulator alone;
    alone.setDeviceDirectory(devicesDir);
    QVERIFY(!alone.createExport(ids, watchPin, watchPin));
    QVERIFY(!alone.error().isEmpty());
    QVERIFY(!alone.exportLoaded());
}

void TestWatchSimulator::createExportLoadsTheWatch()
{
    const auto simulator = makeSimulator();
    QCOMPARE(simulator->exportChoices().size(), m_accounts->model()->rowCount());
    simulator->setTargetMs(2000);
    const QStringList ids = accountIds().mid(0, 3);
    QSignalSpy exported(simulator.get(), &WatchSimulator::exportChanged);
    exportAccounts(*simulator, ids);
    QCOMPARE(exported.size(), 1);
    QCOMPARE(simulator->error(), QString());
    const WatchExportInfo info = simulator->exportInfo();
    QCOMPARE(info.accounts, 3);
    QCOMPARE(info.deviceId, QStringLiteral("fr255"));
    QCOMPARE(info.iterations, qint64(watch::exportIterations(shippedDevice("fr255"), 2000)));
    QCOMPARE(info.fromFile, false);
    QVERIFY(info.bytes > 0);
    QCOMPARE(info.createdAt,
             QDateTime::fromMSecsSinceEpoch(startMilliseconds, Qt::UTC).toString(Qt::ISODate));
    QCOMPARE(simulator->view(), QStringLiteral("pin"));
    QCOMPARE(simulator->openedAccounts(), 0);
    // The memory row now uses the payload's real size.
    QCOMPARE(simulator->memory().payloadBytes, info.bytes);
    QCOMPARE(simulator->memory().payloadEstimated, false);
    QVERIFY(!simulator->frame().unlockEstimate.isEmpty());
    QCOMPARE(info.deviceName, QString::fromStdString(shippedDevice("fr255").name));
    QVERIFY(info.forThisDevice);

    // Another watch chosen: what is said of the loaded export follows.
    simulator->setDeviceId(QStringLiteral("epix2"));
    QCOMPARE(exported.size(), 2);
    QVERIFY(!simulator->exportInfo().forThisDevice);
    QCOMPARE(simulator->exportInfo().deviceName, info.deviceName);
    simulator->setDeviceId(QStringLiteral("fr255"));
    QCOMPARE(exported.size(), 3);
    QVERIFY(simulator->exportInfo().forThisDevice);
}

void TestWatchSimulator::aWrongPinIsRefused()
{
    const auto simulator = makeSimulator();
    exportAccounts(*simulator, accountIds().mid(0, 2));
    QSignalSpy finished(simulator.get(), &WatchSimulator::unlockFinished);
    for (const int digit : {4, 8, 2, 2})
        simulator->typeDigit(digit);
    QCOMPARE(simulator->frame().pinLength, 4);
    simulator->enter();
    QCOMPARE(simulator->view(), QStringLiteral("unlocking"));
    QVERIFY(simulator->busy());
    QVERIFY(finished.wait(30'000));
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QVERIFY(!simulator->busy());
    QCOMPARE(simulator->view(), QStringLiteral("pin"));
    QCOMPARE(simulator->openedAccounts(), 0);
    QCOMPARE(simulator->frame().pinLength, 0);
    QVERIFY(!simulator->frame().message.isEmpty());
    QCOMPARE(simulator->frame().code, QString());
}

void TestWatchSimulator::aStaleAnswerIsDropped()
{
    // A wrong PIN is being checked when the watch app is closed; the right
    // PIN entered next must get its own answer, not the stale one.
    const auto simulator = makeSimulator();
    exportAccounts(*simulator, accountIds().mid(0, 2));
    QSignalSpy finished(simulator.get(), &WatchSimulator::unlockFinished);
    for (const int digit : {4, 8, 2, 2})
        simulator->typeDigit(digit);
    simulator->enter();
    QVERIFY(simulator->busy());
    simulator->lockWatch(); // before the check's answer can arrive
    QVERIFY(!simulator->busy());
    QCOMPARE(simulator->view(), QStringLiteral("pin"));
    for (const QChar digit : watchPin)
        simulator->typeDigit(digit.digitValue());
    simulator->enter();
    QVERIFY(finished.wait(30'000));
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), true);
    QCOMPARE(simulator->view(), QStringLiteral("code"));
    QCOMPARE(simulator->openedAccounts(), 2);
    // The stale check ends too, and changes nothing.
    QTest::qWait(200);
    QCOMPARE(finished.size(), 1);
    QCOMPARE(simulator->view(), QStringLiteral("code"));
}

void TestWatchSimulator::anInputClearsTheLastError()
{
    const auto simulator = makeSimulator();
    QVERIFY(!simulator->setMeasured(QStringLiteral("no-such-operation"), 1));
    QVERIFY(!simulator->error().isEmpty());
    QVERIFY(simulator->setMeasured(QStringLiteral("totp-sha1"), 1));
    QCOMPARE(simulator->error(), QString());
    simulator->press(QStringLiteral("sideways"));
    QVERIFY(simulator->error().contains(QStringLiteral("sideways")));
    simulator->press(QStringLiteral("up"));
    QCOMPARE(simulator->error(), QString());
}

void TestWatchSimulator::theButtonsUnlockAndMoveAround()
{
    const auto simulator = makeSimulator();
    // Every account, whatever its kind.
    const QStringList ids = accountIds();
    exportAccounts(*simulator, ids);
    enterPinWithButtons(*simulator, watchPin);
    QCOMPARE(simulator->view(), QStringLiteral("code"));
    QCOMPARE(simulator->openedAccounts(), ids.size());

    // Each account's code as the vault's own list shows it at this time.
    QStringList titles;
    for (qsizetype i = 0; i < ids.size(); ++i) {
        QCOMPARE(simulator->frame().selectedRow, int(i));
        const QString code = simulator->frame().code;
        QVERIFY(!code.isEmpty());
        QCOMPARE(code, vaultCode(ids.at(i)));
        titles << simulator->selectedTitle();
        simulator->press(QStringLiteral("down"));
    }
    QCOMPARE(titles.size(), ids.size());
    QVERIFY(titles.at(0) != titles.at(1));

    simulator->press(QStringLiteral("up"));
    const QString title = simulator->selectedTitle();
    simulator->press(QStringLiteral("up"));
    QVERIFY(simulator->selectedTitle() != title);
    simulator->press(QStringLiteral("down"));
    QCOMPARE(simulator->selectedTitle(), title);

    simulator->press(QStringLiteral("select"));
    QCOMPARE(simulator->view(), QStringLiteral("list"));
    QCOMPARE(simulator->frame().rows.size(), ids.size());
    simulator->press(QStringLiteral("back"));
    QCOMPARE(simulator->view(), QStringLiteral("code"));
    simulator->press(QStringLiteral("back"));
    QCOMPARE(simulator->view(), QStringLiteral("glance"));
    simulator->press(QStringLiteral("select"));
    QCOMPARE(simulator->view(), QStringLiteral("code"));
    QCOMPARE(simulator->selectedTitle(), title);

    simulator->press(QStringLiteral("wiggle"));
    QVERIFY(simulator->error().contains(QStringLiteral("wiggle")));
    QCOMPARE(simulator->view(), QStringLiteral("code"));

    simulator->lockWatch();
    QCOMPARE(simulator->view(), QStringLiteral("pin"));
    QCOMPARE(simulator->openedAccounts(), 0);
    QCOMPARE(simulator->frame().code, QString());
    QVERIFY(simulator->exportLoaded());
}

void TestWatchSimulator::lockingTheVaultLocksTheWatch()
{
    const auto simulator = makeSimulator();
    exportAccounts(*simulator, accountIds().mid(0, 2));
    enterPinWithButtons(*simulator, watchPin);
    QCOMPARE(simulator->openedAccounts(), 2);
    QSignalSpy frames(simulator.get(), &WatchSimulator::frameChanged);
    m_vault->lock();
    QVERIFY(frames.size() >= 1);
    QCOMPARE(simulator->view(), QStringLiteral("pin"));
    QCOMPARE(simulator->openedAccounts(), 0);
    QCOMPARE(simulator->frame().code, QString());
}

void TestWatchSimulator::saveAndOpenExportFiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("watch.json"));
    const auto simulator = makeSimulator();
    QVERIFY(!simulator->saveExport(QUrl::fromLocalFile(path), false));
    QVERIFY(!QFile::exists(path));
    exportAccounts(*simulator, accountIds().mid(0, 2));
    const WatchExportInfo info = simulator->exportInfo();

    QVERIFY2(simulator->saveExport(QUrl::fromLocalFile(path), false),
             qPrintable(simulator->error()));
    QVERIFY(QFile::exists(path));
    struct stat status = {};
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &status), 0);
    QCOMPARE(status.st_mode & 0777, mode_t(0600));
    const QByteArray saved = readAll(path);
    QCOMPARE(saved.size(), info.bytes);
    const auto summary = watch::inspectExport(saved.toStdString());
    QVERIFY(summary);
    QCOMPARE(qint64(summary->accounts), 2);
    QCOMPARE(QString::fromStdString(summary->header.deviceId), QStringLiteral("fr255"));
    QCOMPARE(qint64(summary->header.iterations), info.iterations);

    // Not replaced without being asked.
    QVERIFY(!simulator->saveExport(QUrl::fromLocalFile(path), false));
    QVERIFY(!simulator->error().isEmpty());
    QCOMPARE(readAll(path), saved);

    // Read back: the same export, from a file, and it opens with its PIN.
    const auto reader = makeSimulator();
    QVERIFY2(reader->openExportFile(QUrl::fromLocalFile(path)), qPrintable(reader->error()));
    QVERIFY(reader->exportLoaded());
    WatchExportInfo read = reader->exportInfo();
    QCOMPARE(read.fromFile, true);
    QCOMPARE(read.accounts, info.accounts);
    QCOMPARE(read.bytes, info.bytes);
    QCOMPARE(read.iterations, info.iterations);
    QCOMPARE(read.deviceId, info.deviceId);
    QCOMPARE(read.createdAt, info.createdAt);
    QCOMPARE(reader->view(), QStringLiteral("pin"));
    enterPinWithButtons(*reader, watchPin);
    QCOMPARE(reader->openedAccounts(), 2);

    // Replaced when asked: a new export (new salt and IVs) overwrites it.
    exportAccounts(*simulator, accountIds().mid(0, 3));
    QVERIFY2(simulator->saveExport(QUrl::fromLocalFile(path), true),
             qPrintable(simulator->error()));
    const QByteArray replaced = readAll(path);
    QVERIFY(replaced != saved);
    QCOMPARE(replaced.size(), simulator->exportInfo().bytes);
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &status), 0);
    QCOMPARE(status.st_mode & 0777, mode_t(0600));
    QVERIFY(reader->openExportFile(QUrl::fromLocalFile(path)));
    QCOMPARE(reader->exportInfo().accounts, 3);
    // A new export closes what the watch had opened.
    QCOMPARE(reader->openedAccounts(), 0);
    QCOMPARE(reader->view(), QStringLiteral("pin"));
}

void TestWatchSimulator::openingANonExportKeepsTheLoadedOne_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::newRow("empty object") << QByteArray("{}");
    QTest::newRow("empty file") << QByteArray();
    QTest::newRow("random bytes") << QByteArray::fromHex("8f01c2ffe3007a9b10d4aa5e6c0b31f2");
    QTest::newRow("a device profile") << readAll(devicesDir + QStringLiteral("/fr255.json"));
}

void TestWatchSimulator::openingANonExportKeepsTheLoadedOne()
{
    QFETCH(QByteArray, contents);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("other.json"));
    QVERIFY(writeAll(path, contents));

    const auto simulator = makeSimulator();
    exportAccounts(*simulator, accountIds().mid(0, 2));
    const WatchExportInfo info = simulator->exportInfo();
    QSignalSpy exported(simulator.get(), &WatchSimulator::exportChanged);
    QVERIFY(!simulator->openExportFile(QUrl::fromLocalFile(path)));
    QVERIFY(!simulator->error().isEmpty());
    QCOMPARE(exported.size(), 0);
    QVERIFY(simulator->exportLoaded());
    QCOMPARE(simulator->exportInfo(), info);
    QCOMPARE(simulator->view(), QStringLiteral("pin"));
    // And it still opens.
    enterPinWithButtons(*simulator, watchPin);
    QCOMPARE(simulator->openedAccounts(), 2);
}

void TestWatchSimulator::openingAMissingFileNamesIt()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("missing.json"));
    const auto simulator = makeSimulator();
    QVERIFY(!simulator->openExportFile(QUrl::fromLocalFile(path)));
    QVERIFY2(simulator->error().contains(path), qPrintable(simulator->error()));
    QVERIFY(!simulator->exportLoaded());
    QCOMPARE(simulator->view(), QStringLiteral("noExport"));
}

void TestWatchSimulator::onlyLocalFiles()
{
    const auto simulator = makeSimulator();
    exportAccounts(*simulator, accountIds().mid(0, 1));
    const QUrl remote(QStringLiteral("https://example.com/export.json"));
    QVERIFY(!simulator->saveExport(remote, false));
    QVERIFY(simulator->error().contains(remote.toString()));
    QVERIFY(!simulator->openExportFile(remote));
    QVERIFY(simulator->error().contains(remote.toString()));
    QVERIFY(simulator->exportLoaded());
    QVERIFY(!simulator->exportInfo().fromFile);
}

void TestWatchSimulator::theCodeCountsDownWithTheClock()
{
    const auto simulator = makeSimulator();
    const QStringList ids = accountIds().mid(0, 1);
    exportAccounts(*simulator, ids);
    enterPinWithButtons(*simulator, watchPin);
    QVERIFY(simulator->frame().timeBased);
    const int period = simulator->frame().period;
    QVERIFY(period > 0);

    QSignalSpy frames(simulator.get(), &WatchSimulator::frameChanged);
    qint64 milliseconds = startMilliseconds;
    // Across a period boundary.
    for (int step = 0; step < period + 2; ++step) {
        const double before = simulator->frame().remainingSeconds;
        QVERIFY(before >= 1 && before <= period);
        const int framesBefore = int(frames.size());
        milliseconds += 1000;
        m_clock.setMilliseconds(milliseconds);
        QCOMPARE(int(frames.size()), framesBefore + 1);
        const double after = simulator->frame().remainingSeconds;
        QCOMPARE(after, before == 1 ? double(period) : before - 1);
        QCOMPARE(simulator->frame().code, vaultCode(ids.first()));
    }
    // A locked watch does not redraw for the clock.
    simulator->lockWatch();
    frames.clear();
    m_clock.setMilliseconds(milliseconds + 1000);
    QCOMPARE(frames.size(), 0);
}

int main(int argc, char** argv)
{
    // Settings in a folder of their own, never the user's: fixed before the
    // first QSettings is made.
    QTemporaryDir config;
    if (!config.isValid())
        return 1;
    settingsFolder = config.path();
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(config.path()));
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, config.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, config.path());
    QGuiApplication app(argc, argv);
    QGuiApplication::setOrganizationName(QStringLiteral("WatchwordTests"));
    QGuiApplication::setApplicationName(QStringLiteral("TestWatchSimulator"));
    TestWatchSimulator test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "TestWatchSimulator.moc"
