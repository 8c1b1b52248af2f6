// The watch-simulator pane's controller: the device profiles, the chosen
// watch's costs (watch::estimate) with their basis, values the user measured
// on a real watch, the export made from the vault's accounts, and the watch
// app itself (watch::WatchApp) driven by the pane's buttons and keyboard.
//
// The export is held in memory as the payload text a watch would load. The
// simulated watch opens it with watch::openExport over the four native
// primitives only (watch/WatchOpener.h), on the thread pool, and keeps the
// opened accounts (secrets in SecureBuffers) until the watch app is locked,
// the export replaced or the vault locked. Measured values are kept in the
// settings by device and operation: they are timings, not secrets.
#pragma once

#include "app/codes/AccountListModel.h"
#include "app/codes/Clock.h"
#include "app/desktop/AppSettings.h"
#include "app/vault/VaultController.h"
#include "app/watch/WatchScreenRenderer.h"
#include "app/watch/WatchValues.h"
#include "watch/CostModel.h"
#include "watch/Device.h"
#include "watch/WatchApp.h"
#include "watch/WatchExport.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <QtQml/qqmlregistration.h>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace watchword::app {

class WatchSimulator : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    // Set by the page; the export reads the vault's accounts, chosen from
    // the accounts list; the codes tick with the clock.
    Q_PROPERTY(watchword::app::VaultController* vault READ vault WRITE setVault NOTIFY vaultChanged)
    Q_PROPERTY(watchword::app::AccountListModel* accounts READ accounts WRITE setAccounts NOTIFY
                   accountsChanged)
    Q_PROPERTY(watchword::app::Clock* clock READ clock WRITE setClock NOTIFY clockChanged)
    // Where the device chosen and the times measured on a real watch are
    // kept; without it (tests) they last as long as the simulator.
    Q_PROPERTY(watchword::app::AppSettings* settings READ settings WRITE setSettings NOTIFY
                   settingsChanged)
    // Where profiles are read from; defaults to watch::defaultDeviceDirectory().
    Q_PROPERTY(
        QString deviceDirectory READ deviceDirectory WRITE setDeviceDirectory NOTIFY devicesChanged)
    // Every profile loaded, in the folder's order.
    Q_PROPERTY(QList<watchword::app::WatchProfile> devices READ devices NOTIFY devicesChanged)
    // Why the profiles could not be loaded (the file and field named); "".
    Q_PROPERTY(QString loadError READ loadError NOTIFY devicesChanged)
    Q_PROPERTY(QString deviceId READ deviceId WRITE setDeviceId NOTIFY deviceChanged)
    // The chosen profile; default-made (id "") if none is.
    Q_PROPERTY(watchword::app::WatchProfile device READ device NOTIFY deviceChanged)
    // Whether the screen can be drawn, and why not ("fr70: the shape and the
    // resolution are unknown").
    Q_PROPERTY(bool drawable READ drawable NOTIFY deviceChanged)
    Q_PROPERTY(QString undrawableReason READ undrawableReason NOTIFY deviceChanged)
    Q_PROPERTY(int screenWidth READ screenWidth NOTIFY deviceChanged)
    Q_PROPERTY(int screenHeight READ screenHeight NOTIFY deviceChanged)
    Q_PROPERTY(bool touch READ touch NOTIFY deviceChanged)

    // The chosen watch's estimate (WatchValues.h); without a watch, no rows
    // and the values as default-made: the cost table, one row per
    // operation; the unlock; the calibrated count; the memory.
    Q_PROPERTY(QList<watchword::app::WatchCost> costs READ costs NOTIFY costsChanged)
    Q_PROPERTY(watchword::app::WatchUnlock unlock READ unlock NOTIFY costsChanged)
    Q_PROPERTY(watchword::app::WatchCalibration calibration READ calibration NOTIFY costsChanged)
    Q_PROPERTY(watchword::app::WatchMemory memory READ memory NOTIFY costsChanged)
    // The notes' inconsistency, stated; and the estimate's other notes (the
    // basis of estimates, unknown fields).
    Q_PROPERTY(
        watchword::app::WatchInconsistency inconsistency READ inconsistency NOTIFY costsChanged)
    Q_PROPERTY(QStringList notes READ notes NOTIFY costsChanged)
    // The unlock target the calibrated count aims at (ms, 100..10,000).
    Q_PROPERTY(int targetMs READ targetMs WRITE setTargetMs NOTIFY costsChanged)
    // The round count the unlock row is timed at; 0: the calibrated count.
    Q_PROPERTY(int iterations READ iterations WRITE setIterations NOTIFY costsChanged)

    // The export: whether one is loaded, and what it holds.
    Q_PROPERTY(bool exportLoaded READ exportLoaded NOTIFY exportChanged)
    // Default-made if none is.
    Q_PROPERTY(watchword::app::WatchExportInfo exportInfo READ exportInfo NOTIFY exportChanged)
    // The vault's OTP accounts to choose from, in the vault's order.
    Q_PROPERTY(QList<watchword::app::WatchExportChoice> exportChoices READ exportChoices NOTIFY
                   exportChoicesChanged)

    // The watch app: "noExport", "pin", "unlocking", "code", "list", "glance".
    Q_PROPERTY(QString view READ view NOTIFY frameChanged)
    // The selected account's title on the watch, and how many are open.
    Q_PROPERTY(QString selectedTitle READ selectedTitle NOTIFY frameChanged)
    Q_PROPERTY(int openedAccounts READ openedAccounts NOTIFY frameChanged)
    // A PIN is being checked on the pool.
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    // The last error (bad PIN format, a file that could not be read or
    // written, a payload that is not an export); "" if none.
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)

public:
    explicit WatchSimulator(QObject* parent = nullptr);
    ~WatchSimulator() override;

    VaultController* vault() const { return m_vault; }
    void setVault(VaultController* vault);
    AccountListModel* accounts() const { return m_accounts; }
    void setAccounts(AccountListModel* accounts);
    Clock* clock() const { return m_clock; }
    void setClock(Clock* clock);
    AppSettings* settings() const { return m_settings; }
    void setSettings(AppSettings* settings);
    const QString& deviceDirectory() const { return m_deviceDirectory; }
    void setDeviceDirectory(const QString& directory);
    QList<WatchProfile> devices() const;
    const QString& loadError() const { return m_loadError; }
    QString deviceId() const;
    void setDeviceId(const QString& id);
    WatchProfile device() const;
    bool drawable() const;
    QString undrawableReason() const;
    int screenWidth() const;
    int screenHeight() const;
    bool touch() const;

    QList<WatchCost> costs() const;
    WatchUnlock unlock() const;
    WatchCalibration calibration() const;
    WatchMemory memory() const;
    WatchInconsistency inconsistency() const;
    QStringList notes() const;
    int targetMs() const { return int(m_targetMs); }
    void setTargetMs(int milliseconds);
    int iterations() const { return int(m_iterations); }
    void setIterations(int iterations);

    bool exportLoaded() const { return m_payload.has_value(); }
    WatchExportInfo exportInfo() const;
    QList<WatchExportChoice> exportChoices() const;

    QString view() const;
    QString selectedTitle() const;
    int openedAccounts() const;
    bool busy() const { return m_busy; }
    const QString& error() const { return m_error; }

    // The frame the screen draws now (WatchScreenItem reads it on
    // frameChanged).
    WatchFrame frame() const;

    // A time measured on the real watch for an operation key ("totp-sha1",
    // "pbkdf2-1000", ...), in ms; 0 or less clears it. Kept per device.
    Q_INVOKABLE bool setMeasured(const QString& operation, double milliseconds);

    // Makes an export of the chosen accounts (record ids) sealed under pin,
    // with the count calibrated for the chosen watch, and loads it into the
    // simulated watch (its PIN screen). False with error set if the PIN is
    // not 4 to 12 digits, the two differ, no account is chosen, or the vault
    // is not unlocked.
    Q_INVOKABLE bool createExport(const QStringList& recordIds, const QString& pin,
                                  const QString& repeat);
    // Writes the loaded payload to a file (mode 0600; replaces only with
    // replace true), or reads one and loads it. A failed read keeps what was
    // loaded; a failed write leaves the file as it was.
    Q_INVOKABLE bool saveExport(const QUrl& file, bool replace);
    Q_INVOKABLE bool openExportFile(const QUrl& file);
    Q_INVOKABLE void unloadExport();

    // The watch's inputs: "up", "down", "select", "back"; touch "tap",
    // "swipeUp", "swipeDown", "swipeRight"; keyboard digits and Enter.
    Q_INVOKABLE void press(const QString& button);
    Q_INVOKABLE void typeDigit(int digit);
    Q_INVOKABLE void enter();
    // Closes the watch app: back to the PIN screen, accounts dropped.
    Q_INVOKABLE void lockWatch();
    Q_INVOKABLE void clearError();

signals:
    void vaultChanged();
    void accountsChanged();
    void settingsChanged();
    void clockChanged();
    void devicesChanged();
    void deviceChanged();
    void costsChanged();
    void exportChanged();
    void exportChoicesChanged();
    void frameChanged();
    void busyChanged();
    void errorChanged();
    // A submitted PIN was checked (for tests and the view).
    void unlockFinished(bool opened);

private:
    struct Opened;
    // keepCurrent: stay on the device shown (a new folder); otherwise the
    // one last chosen in the settings.
    void loadDevices(bool keepCurrent = true);
    void recompute();
    // Loads a payload into the watch, or keeps what was loaded and sets error.
    bool loadPayload(std::string payload, bool fromFile);
    void submitPin();
    void handle(watch::Action action);
    // Forgets a PIN check still running: its answer will be dropped.
    void dropPendingUnlock();
    // The clock's second, or the system's without a clock.
    qint64 nowSeconds() const;
    void setBusy(bool busy);
    void setError(QString error);
    const watch::Device* current() const;

    QPointer<VaultController> m_vault;
    QPointer<AccountListModel> m_accounts;
    QPointer<Clock> m_clock;
    QPointer<AppSettings> m_settings;
    QString m_deviceDirectory;
    QString m_loadError;
    std::vector<watch::Device> m_devices;
    std::size_t m_current = 0;
    std::uint32_t m_targetMs = watch::defaultWatchTargetMilliseconds;
    std::uint32_t m_iterations = 0;
    std::optional<watch::CostEstimate> m_estimate;
    std::optional<std::string> m_payload;
    bool m_payloadFromFile = false;
    std::optional<watch::ExportHeader> m_header;
    std::size_t m_payloadAccounts = 0;
    watch::WatchApp m_app;
    std::unique_ptr<Opened> m_opened;
    bool m_busy = false;
    // Counts PIN checks; an answer is used only if no check or lock came after.
    std::uint64_t m_unlockGeneration = 0;
    QString m_error;
};

} // namespace watchword::app
