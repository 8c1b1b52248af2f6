// What the watch simulator's tests start from: the shipped device profiles,
// the demo vault unlocked with its accounts list, a clock at a second of the
// test's choosing, the app's settings on a file of each test's own (the
// device chosen and the measured times are kept there), and a simulator on
// all of them with fr255 chosen.
#pragma once

#include "app/codes/AccountListModel.h"
#include "app/codes/AccountStore.h"
#include "app/codes/Clock.h"
#include "app/desktop/AppSettings.h"
#include "app/desktop/ClipboardService.h"
#include "app/vault/VaultController.h"
#include "app/watch/SimulatedWatch.h"
#include "app/watch/WatchExportFile.h"
#include "app/watch/WatchProfiles.h"
#include "app/watch/WatchSimulator.h"
#include "common/TestSupport.h"
#include "watch/Device.h"
#include "watch/WatchApp.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>
#include <string>

namespace watchword::test {

inline const QString devicesDir = QStringLiteral(WATCHWORD_SHIPPED_DEVICES_DIR);
inline const QString watchPin = QStringLiteral("4821");
// The folder runWatchTest keeps the settings in.
inline QString settingsFolder;

// 2027-01-15 08:00:07 UTC: 23 s left in a 30 s period.
constexpr qint64 startMilliseconds = 1'800'000'007'000;

// The profile id of the shipped folder, default-made if there is none.
inline watch::Device shippedDevice(const std::string& id)
{
    auto devices = watch::loadDevices(devicesDir.toStdString());
    if (devices)
        for (auto& device : *devices)
            if (device.id == id)
                return device;
    return {};
}

class WatchFixture
{
public:
    // A test class's initTestCase, init and cleanupTestCase call these.
    void initTestCase()
    {
        QVERIFY(!settingsFolder.isEmpty());
        QVERIFY2(QSettings().fileName().startsWith(settingsFolder),
                 qPrintable(QSettings().fileName()));
        clock.setMilliseconds(startMilliseconds);
        vault = app::VaultController::makeDemo();
        accounts = std::make_unique<app::AccountStore>(*vault, clock, clipboard);
        QSignalSpy finished(vault.get(), &app::VaultController::unlockFinished);
        QVERIFY(finished.wait(10'000));
        QCOMPARE(vault->state(), app::VaultController::State::Unlocked);
        QVERIFY(accounts->model()->rowCount() >= 3);
    }

    // Nothing measured and no device chosen by an earlier test; the clock at
    // its start and the vault unlocked.
    void init()
    {
        QSettings().clear();
        const QString file = QDir(settingsFolder).filePath(QStringLiteral("watch-test.conf"));
        QFile::remove(file);
        settings = std::make_unique<app::AppSettings>(file);
        clock.setMilliseconds(startMilliseconds);
        if (vault->state() != app::VaultController::State::Unlocked) {
            QSignalSpy finished(vault.get(), &app::VaultController::unlockFinished);
            vault->unlock(QStringLiteral("demo"));
            QVERIFY(finished.wait(10'000));
        }
        QCOMPARE(vault->state(), app::VaultController::State::Unlocked);
    }

    void cleanupTestCase()
    {
        accounts.reset();
        vault.reset();
    }

    std::unique_ptr<app::WatchSimulator> makeSimulator()
    {
        auto simulator = std::make_unique<app::WatchSimulator>();
        simulator->profiles()->setDeviceDirectory(devicesDir);
        simulator->setVault(vault.get());
        simulator->setAccounts(accounts->model());
        simulator->setClock(&clock);
        simulator->setSettings(settings.get());
        simulator->profiles()->setDeviceId(QStringLiteral("fr255"));
        return simulator;
    }

    // The ids of the demo vault's accounts, in its order.
    QStringList accountIds() const
    {
        QStringList ids;
        const auto* model = accounts->model();
        for (int row = 0; row < model->rowCount(); ++row)
            ids << model->data(model->index(row), app::AccountListModel::IdRole).toString();
        return ids;
    }

    // The code the vault's own list shows for record id now.
    QString vaultCode(const QString& id) const
    {
        const auto* model = accounts->model();
        for (int row = 0; row < model->rowCount(); ++row) {
            const auto index = model->index(row);
            if (model->data(index, app::AccountListModel::IdRole).toString() == id)
                return model->data(index, app::AccountListModel::CodeRole).toString();
        }
        return {};
    }

    app::Clock clock;
    app::ClipboardService clipboard;
    std::unique_ptr<app::VaultController> vault;
    std::unique_ptr<app::AccountStore> accounts;
    std::unique_ptr<app::AppSettings> settings;
};

// Makes an export of ids under watchPin.
inline void exportAccounts(app::WatchSimulator& simulator, const QStringList& ids)
{
    QVERIFY2(simulator.exportFile()->create(ids, watchPin, watchPin),
             qPrintable(simulator.error()));
    QVERIFY(simulator.exportFile()->loaded());
    QCOMPARE(simulator.watch()->view(), QStringLiteral("pin"));
}

// Enters pin with Up and Select, then OK, and waits for the answer.
inline void enterPinWithButtons(app::SimulatedWatch& watch, const QString& pin)
{
    const auto moveTo = [&](int position) {
        const int presses = (position - watch.frame().picker + 11) % 11;
        for (int i = 0; i < presses; ++i)
            watch.press(QStringLiteral("up"));
        QCOMPARE(watch.frame().picker, position);
        watch.press(QStringLiteral("select"));
    };
    for (qsizetype i = 0; i < pin.size(); ++i) {
        moveTo(pin.at(i).digitValue());
        QCOMPARE(watch.frame().pinLength, int(i + 1));
    }
    QSignalSpy finished(&watch, &app::SimulatedWatch::unlockFinished);
    moveTo(watch::WatchApp::pickerOk);
    QCOMPARE(watch.view(), QStringLiteral("unlocking"));
    QVERIFY(finished.wait(30'000));
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), true);
}

// A watch test's main(): the settings in a folder of their own, never the
// user's, fixed before the first QSettings is made.
template <typename Test> int runWatchTest(int argc, char** argv, const char* name)
{
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
    QGuiApplication::setApplicationName(QString::fromLatin1(name));
    Test test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

} // namespace watchword::test
