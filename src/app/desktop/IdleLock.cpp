#include "app/desktop/IdleLock.h"

#include "app/common/Notify.h"

#include <QCoreApplication>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusObjectPath>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QEvent>
#include <algorithm>
#include <ctime>
#include <limits>

namespace watchword::app {

namespace {

const QString login1Service = QStringLiteral("org.freedesktop.login1");
const QString login1Path = QStringLiteral("/org/freedesktop/login1");
const QString login1Manager = QStringLiteral("org.freedesktop.login1.Manager");
const QString login1Session = QStringLiteral("org.freedesktop.login1.Session");

qint64 bootClockMilliseconds()
{
    timespec now{};
#ifdef CLOCK_BOOTTIME
    clock_gettime(CLOCK_BOOTTIME, &now);
#else
    clock_gettime(CLOCK_MONOTONIC, &now);
#endif
    return static_cast<qint64>(now.tv_sec) * 1000 + now.tv_nsec / 1'000'000;
}

// Only what a person does. Hover events are left out on purpose: Qt Quick
// synthesizes them after every frame while the pointer rests over the window,
// and the countdown rings draw frames all the time.
bool isInput(QEvent::Type type)
{
    switch (type) {
    case QEvent::KeyPress:
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick:
    case QEvent::MouseMove:
    case QEvent::Wheel:
    case QEvent::TouchBegin:
    case QEvent::TouchUpdate:
    case QEvent::TabletPress:
    case QEvent::TabletMove:
        return true;
    default:
        return false;
    }
}

} // namespace

IdleLock::IdleLock(QObject* parent) : QObject(parent), m_clock(bootClockMilliseconds)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &IdleLock::checkIdle);
    QCoreApplication::instance()->installEventFilter(this);
    setIdleMinutes(defaultIdleMinutes);
}

IdleLock::~IdleLock() = default;

void IdleLock::setIdleMinutes(int minutes)
{
    minutes = std::max(0, minutes);
    const bool changed = minutes != m_idleMinutes;
    m_idleMinutes = minutes;
    if (changed || m_idleMilliseconds != qint64{minutes} * 60'000)
        setIdleMilliseconds(qint64{minutes} * 60'000);
    if (changed)
        emit idleMinutesChanged();
}

void IdleLock::setIdleMilliseconds(qint64 milliseconds)
{
    m_idleMilliseconds = std::max<qint64>(0, milliseconds);
    m_expired = false;
    if (m_idleMilliseconds == 0) {
        m_armed = false;
        m_timer.stop();
        return;
    }
    // Changing the limit is the user at work: count from now.
    m_lastActivity = m_clock();
    arm();
}

void IdleLock::setLockOnSessionLock(bool lock)
{
    assignAndNotify(this, m_lockOnSessionLock, lock, &IdleLock::lockOnSessionLockChanged);
}

void IdleLock::setClock(std::function<qint64()> clock)
{
    m_clock = std::move(clock);
    m_lastActivity = m_clock();
}

void IdleLock::arm()
{
    m_armed = true;
    m_timer.start(
        static_cast<int>(std::min<qint64>(m_idleMilliseconds, std::numeric_limits<int>::max())));
}

bool IdleLock::eventFilter(QObject* watched, QEvent* event)
{
    if (isInput(event->type()))
        activity();
    return QObject::eventFilter(watched, event);
}

void IdleLock::activity()
{
    if (m_idleMilliseconds == 0 || m_expired)
        return;
    const qint64 now = m_clock();
    if (m_armed && now - m_lastActivity >= m_idleMilliseconds) {
        // The limit passed while the timer could not tell (the machine
        // slept): this input does not count, the lock comes first. Queued,
        // as the input is still being delivered.
        m_expired = true;
        QMetaObject::invokeMethod(this, &IdleLock::checkIdle, Qt::QueuedConnection);
        return;
    }
    m_lastActivity = now;
    if (!m_armed)
        arm();
}

void IdleLock::checkIdle()
{
    if (m_idleMilliseconds == 0 || (!m_armed && !m_expired)) {
        m_expired = false;
        m_timer.stop();
        return;
    }
    const qint64 idle = m_clock() - m_lastActivity;
    if (idle < m_idleMilliseconds && !m_expired) {
        m_timer.start(static_cast<int>(
            std::min<qint64>(m_idleMilliseconds - idle, std::numeric_limits<int>::max())));
        return;
    }
    // Once: the next input arms the timer again.
    m_expired = false;
    m_armed = false;
    m_timer.stop();
    emit lockRequested();
}

void IdleLock::sessionLocked()
{
    if (m_lockOnSessionLock)
        emit lockRequested();
}

void IdleLock::systemSuspending()
{
    if (m_lockOnSessionLock)
        emit lockRequested();
}

void IdleLock::prepareForSleep(bool start)
{
    if (start)
        systemSuspending();
    else
        checkIdle(); // awake again: the idle limit may have passed meanwhile
}

void IdleLock::screenSaverActiveChanged(bool active)
{
    if (active)
        sessionLocked();
}

void IdleLock::sessionPropertiesChanged(const QString& interface, const QVariantMap& changed,
                                        const QStringList& invalidated)
{
    Q_UNUSED(invalidated)
    if (interface != login1Session)
        return;
    const auto hint = changed.constFind(QStringLiteral("LockedHint"));
    if (hint != changed.constEnd() && hint->toBool())
        sessionLocked();
}

void IdleLock::watchDesktop()
{
    watchSessionBus(QDBusConnection::sessionBus());
    watchSystemBus(QDBusConnection::systemBus());
}

void IdleLock::watchSessionBus(const QDBusConnection& bus)
{
    if (!bus.isConnected())
        return;
    QDBusConnection connection(bus);
    // KDE, Xfce and others; GNOME has its own name. A screen saver that
    // starts later is still heard: the match follows the name's owner.
    connection.connect(QStringLiteral("org.freedesktop.ScreenSaver"),
                       QStringLiteral("/org/freedesktop/ScreenSaver"),
                       QStringLiteral("org.freedesktop.ScreenSaver"),
                       QStringLiteral("ActiveChanged"), this, SLOT(screenSaverActiveChanged(bool)));
    connection.connect(QStringLiteral("org.gnome.ScreenSaver"),
                       QStringLiteral("/org/gnome/ScreenSaver"),
                       QStringLiteral("org.gnome.ScreenSaver"), QStringLiteral("ActiveChanged"),
                       this, SLOT(screenSaverActiveChanged(bool)));
}

void IdleLock::watchSystemBus(const QDBusConnection& bus)
{
    if (!bus.isConnected())
        return;
    QDBusConnection connection(bus);
    connection.connect(login1Service, login1Path, login1Manager, QStringLiteral("PrepareForSleep"),
                       this, SLOT(prepareForSleep(bool)));

    // Our session, asked without blocking the start-up: by our pid, and if
    // logind does not know it (a process started outside the session), by
    // the id the session gave us.
    auto byPid = QDBusMessage::createMethodCall(login1Service, login1Path, login1Manager,
                                                QStringLiteral("GetSessionByPID"));
    byPid << static_cast<uint>(QCoreApplication::applicationPid());
    auto* watcher = new QDBusPendingCallWatcher(connection.asyncCall(byPid), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, connection](QDBusPendingCallWatcher* call) {
                call->deleteLater();
                const QDBusPendingReply<QDBusObjectPath> reply = *call;
                if (!reply.isError()) {
                    watchSession(connection, reply.value().path());
                    return;
                }
                const QString id = qEnvironmentVariable("XDG_SESSION_ID");
                if (id.isEmpty())
                    return;
                auto byId = QDBusMessage::createMethodCall(login1Service, login1Path, login1Manager,
                                                           QStringLiteral("GetSession"));
                byId << id;
                auto* second = new QDBusPendingCallWatcher(connection.asyncCall(byId), this);
                connect(second, &QDBusPendingCallWatcher::finished, this,
                        [this, connection](QDBusPendingCallWatcher* idCall) {
                            idCall->deleteLater();
                            const QDBusPendingReply<QDBusObjectPath> idReply = *idCall;
                            if (!idReply.isError())
                                watchSession(connection, idReply.value().path());
                        });
            });
}

void IdleLock::watchSession(const QDBusConnection& bus, const QString& path)
{
    if (path.isEmpty())
        return;
    QDBusConnection connection(bus);
    m_sessionPath = path;
    // Lock: `loginctl lock-session` and what asks the desktop to lock.
    // LockedHint: the desktop's locker says the screen is locked.
    connection.connect(login1Service, path, login1Session, QStringLiteral("Lock"), this,
                       SLOT(sessionLocked()));
    connection.connect(login1Service, path, QStringLiteral("org.freedesktop.DBus.Properties"),
                       QStringLiteral("PropertiesChanged"), this,
                       SLOT(sessionPropertiesChanged(QString, QVariantMap, QStringList)));
    emit sessionWatched();
}

} // namespace watchword::app
