// Decides when the vault locks by itself: after a stretch without user input,
// when the desktop session locks, and when the machine is about to sleep. It
// only asks (lockRequested); main() connects that to VaultController::lock(),
// which ignores it unless the vault is unlocked.
//
// Input is seen by an event filter on the application: keys, mouse buttons
// and movement, the wheel and touch. Recording it costs one clock read, no
// timer restart: the timer wakes at the earliest moment the limit could be
// reached and, if there was input since, sleeps again for the rest. The clock
// is CLOCK_BOOTTIME, which keeps counting while the machine sleeps, so a
// laptop that slept past the limit locks at the first input after waking.
//
// The session and the machine are watched over D-Bus, where there is one:
// logind's PrepareForSleep on the system bus and our session's Lock signal and
// LockedHint, plus the ActiveChanged signal of org.freedesktop.ScreenSaver and
// org.gnome.ScreenSaver on the session bus. With no bus (CI, a bare
// container) nothing is watched and nothing is printed.
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>
#include <QVariantMap>
#include <QtQml/qqmlregistration.h>
#include <functional>

class QDBusConnection;

namespace watchword::app {

class IdleLock : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the idle lock is made by main()")
    Q_PROPERTY(int idleMinutes READ idleMinutes WRITE setIdleMinutes NOTIFY idleMinutesChanged)
    Q_PROPERTY(bool lockOnSessionLock READ lockOnSessionLock WRITE setLockOnSessionLock NOTIFY
                   lockOnSessionLockChanged)

public:
    static constexpr int defaultIdleMinutes = 5;

    explicit IdleLock(QObject* parent = nullptr);
    ~IdleLock() override;

    int idleMinutes() const { return m_idleMinutes; }
    // 0: never lock for idleness.
    void setIdleMinutes(int minutes);
    // The limit in milliseconds instead, for tests; 0 disables.
    void setIdleMilliseconds(qint64 milliseconds);
    qint64 idleMilliseconds() const { return m_idleMilliseconds; }

    // Lock when the session locks or the machine sleeps (on by default).
    bool lockOnSessionLock() const { return m_lockOnSessionLock; }
    void setLockOnSessionLock(bool lock);

    // A monotonic clock in milliseconds, for tests; the default counts time
    // asleep (CLOCK_BOOTTIME).
    void setClock(std::function<qint64()> clock);

    // Watches a bus if it is connected: the session bus for screen savers,
    // the system bus for logind (our session is looked up by our pid, else by
    // XDG_SESSION_ID). Tests pass private buses.
    void watchSessionBus(const QDBusConnection& bus);
    void watchSystemBus(const QDBusConnection& bus);
    // Both of the process's own buses: what main() calls.
    void watchDesktop();

    // The logind session object we listen to, once found (for tests).
    const QString& sessionPath() const { return m_sessionPath; }

public slots:
    // Input happened now: what the event filter calls.
    void activity();
    // Compares the time since the last input with the limit and asks for a
    // lock once when it is reached; the timer calls it, and so may tests.
    void checkIdle();
    // The session was locked or the screen saver started.
    void sessionLocked();
    // The machine is about to sleep.
    void systemSuspending();

signals:
    void lockRequested();
    void idleMinutesChanged();
    void lockOnSessionLockChanged();
    // The logind session was found and is watched (for tests).
    void sessionWatched();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private slots:
    void prepareForSleep(bool start);
    void screenSaverActiveChanged(bool active);
    void sessionPropertiesChanged(const QString& interface, const QVariantMap& changed,
                                  const QStringList& invalidated);

private:
    void arm();
    void watchSession(const QDBusConnection& bus, const QString& path);

    std::function<qint64()> m_clock;
    QTimer m_timer;
    qint64 m_idleMilliseconds = 0;
    qint64 m_lastActivity = 0;
    int m_idleMinutes = 0;
    bool m_lockOnSessionLock = true;
    // Counting towards a lock: from an input (or a new limit) until the
    // lock is asked for.
    bool m_armed = false;
    // Set from the moment the limit is known to be reached until the lock
    // has been asked for, so input in between does not undo it.
    bool m_expired = false;
    QString m_sessionPath;
};

} // namespace watchword::app
