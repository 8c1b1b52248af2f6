// The watch app running on the simulated watch (watch::WatchApp): its view,
// driven by the pane's buttons, touch and keys, and the frame its screen
// draws. A submitted PIN opens the loaded export with watch::openExport over
// the four native primitives only (watch/WatchOpener.h), on the thread pool;
// the opened accounts live on as OTP generators (the secrets only as HMAC
// states) until the watch app is closed, the export replaced or the vault
// locked.
#pragma once

#include "app/watch/WatchScreenRenderer.h"
#include "otp/OtpGenerator.h"
#include "watch/WatchApp.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QtQml/qqmlregistration.h>
#include <cstdint>
#include <optional>
#include <vector>

namespace watchword::app {

class Clock;
class VaultController;
class WatchSimulator;

class SimulatedWatch : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the simulated watch belongs to a WatchSimulator")
    // The watch app's view: "noExport", "pin", "unlocking", "code", "list",
    // "glance".
    Q_PROPERTY(QString view READ view NOTIFY frameChanged)
    // The selected account's title on the watch, and how many are open.
    Q_PROPERTY(QString selectedTitle READ selectedTitle NOTIFY frameChanged)
    Q_PROPERTY(int openedAccounts READ openedAccounts NOTIFY frameChanged)
    // A PIN is being checked on the pool.
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)

public:
    // Follows the simulator's export, chosen watch, clock and vault.
    explicit SimulatedWatch(WatchSimulator& simulator);

    QString view() const;
    QString selectedTitle() const;
    int openedAccounts() const;
    bool busy() const { return m_busy; }

    // The frame the screen draws now (WatchScreenItem reads it on
    // frameChanged).
    WatchFrame frame() const;

    // The watch's inputs: "up", "down", "select", "back"; touch "tap",
    // "swipeUp", "swipeDown", "swipeRight"; keyboard digits and Enter. Each
    // clears the simulator's error; a button it does not have sets it.
    Q_INVOKABLE void press(const QString& button);
    Q_INVOKABLE void typeDigit(int digit);
    Q_INVOKABLE void enter();
    // Closes the watch app: back to the PIN screen, accounts dropped.
    Q_INVOKABLE void lock();

signals:
    void frameChanged();
    void busyChanged();
    // A submitted PIN was checked (for tests and the view).
    void unlockFinished(bool opened);

private:
    // Another export, or none: the app starts again on it.
    void reload();
    void handle(watch::Action action);
    void submitPin();
    // Forgets a PIN check still running: its answer will be dropped.
    void dropPendingUnlock();
    void setBusy(bool busy);
    // Listen to the simulator's clock (redraws) and vault (locks).
    void followClock();
    void followVault();

    WatchSimulator& m_simulator;
    QPointer<Clock> m_clock;
    QPointer<VaultController> m_vault;
    watch::WatchApp m_app;
    // The opened accounts' generators, in the app's order; none while
    // locked.
    std::optional<std::vector<otp::OtpGenerator>> m_opened;
    bool m_busy = false;
    // Counts PIN checks; an answer is used only if no check or lock came after.
    std::uint64_t m_unlockGeneration = 0;
};

} // namespace watchword::app
