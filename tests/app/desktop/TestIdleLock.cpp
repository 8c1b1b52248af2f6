#include "app/desktop/IdleLock.h"
#include "common/PrivateBus.h"

#include <QDBusAbstractAdaptor>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusObjectPath>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QWindow>
#include <QtTest>
#include <memory>

using watchword::app::IdleLock;

namespace {

// A clock the test moves by hand.
struct FakeClock
{
    qint64 now = 1'000'000;
    std::function<qint64()> function()
    {
        return [this] {
            return now;
        };
    }
};

constexpr qint64 minute = 60'000;

void pressKey(QObject* target)
{
    QKeyEvent press(QEvent::KeyPress, Qt::Key_A, Qt::NoModifier, QStringLiteral("a"));
    QCoreApplication::sendEvent(target, &press);
}

QStringList captured;

void captureMessages(QtMsgType, const QMessageLogContext&, const QString& message)
{
    captured.append(message);
}

const QString sessionPath = QStringLiteral("/org/freedesktop/login1/session/_3");

} // namespace

// logind's manager as far as IdleLock asks it: our session, by pid.
class FakeLogindManager : public QDBusAbstractAdaptor
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.login1.Manager")

public:
    explicit FakeLogindManager(QObject* parent) : QDBusAbstractAdaptor(parent) {}

    uint askedPid = 0;

public slots:
    QDBusObjectPath GetSessionByPID(uint pid)
    {
        askedPid = pid;
        return QDBusObjectPath(sessionPath);
    }
};

class TestIdleLock : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void idleFiresOnceAfterTheLimit();
    void inputResetsTheTimer();
    void everyKindOfInputCounts();
    void zeroDisables();
    void realTimerFires();
    void sleptPastTheLimitLocksAtTheFirstInput();
    void sessionLockSlotFires();
    void noBusNoWarning();
    void busWithoutTheDesktopNoWarning();
    void screenSaverAndLogindOverABus();

private:
    std::unique_ptr<watchword::test::PrivateBus> m_bus;
    QTemporaryDir m_dir;
};

void TestIdleLock::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // The process's own buses are made unreachable, whatever the machine
    // has: what CI and a bare container look like.
    const QByteArray nowhere = "unix:path=" + QFile::encodeName(m_dir.filePath("no-bus"));
    qputenv("DBUS_SESSION_BUS_ADDRESS", nowhere);
    qputenv("DBUS_SYSTEM_BUS_ADDRESS", nowhere);
    qunsetenv("DISPLAY"); // no X11 autolaunch of a session bus either
    qunsetenv("XDG_SESSION_ID");

    // A private bus for the D-Bus paths.
    m_bus = std::make_unique<watchword::test::PrivateBus>();
    QVERIFY2(!m_bus->address().isEmpty(), qPrintable(m_bus->error()));
}

void TestIdleLock::cleanupTestCase()
{
    m_bus.reset();
}

void TestIdleLock::idleFiresOnceAfterTheLimit()
{
    FakeClock clock;
    IdleLock idle;
    idle.setClock(clock.function());
    idle.setIdleMinutes(5);
    QSignalSpy locks(&idle, &IdleLock::lockRequested);

    clock.now += 5 * minute - 1;
    idle.checkIdle();
    QCOMPARE(locks.count(), 0);
    clock.now += 1;
    idle.checkIdle();
    QCOMPARE(locks.count(), 1);
    // Still idle, an hour later: asked once, not again and again.
    clock.now += 60 * minute;
    idle.checkIdle();
    QCOMPARE(locks.count(), 1);
}

void TestIdleLock::inputResetsTheTimer()
{
    FakeClock clock;
    IdleLock idle;
    idle.setClock(clock.function());
    idle.setIdleMinutes(5);
    QSignalSpy locks(&idle, &IdleLock::lockRequested);
    QObject target;

    clock.now += 4 * minute;
    pressKey(&target);
    clock.now += 4 * minute; // 8 minutes since the start, 4 since the key
    idle.checkIdle();
    QCOMPARE(locks.count(), 0);
    clock.now += minute;
    idle.checkIdle();
    QCOMPARE(locks.count(), 1);

    // After the lock, the next input starts a new stretch.
    clock.now += 10 * minute;
    pressKey(&target);
    clock.now += 4 * minute;
    idle.checkIdle();
    QCOMPARE(locks.count(), 1);
    clock.now += minute;
    idle.checkIdle();
    QCOMPARE(locks.count(), 2);
}

void TestIdleLock::everyKindOfInputCounts()
{
    QWindow window;
    const QPointF point(5, 5);
    QMouseEvent move(QEvent::MouseMove, point, point, point, Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QMouseEvent press(QEvent::MouseButtonPress, point, point, point, Qt::LeftButton, Qt::LeftButton,
                      Qt::NoModifier);
    QWheelEvent wheel(point, point, QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QKeyEvent key(QEvent::KeyPress, Qt::Key_Space, Qt::NoModifier, QStringLiteral(" "));
    // Not input: the app's own doings, and the hover Qt Quick synthesizes
    // after each frame while the pointer rests on the window.
    QHoverEvent hover(QEvent::HoverMove, point, point, point);
    QEvent timer(QEvent::Timer);
    QEvent custom(QEvent::User);

    const QList<std::pair<QEvent*, bool>> events = {
        {&move, true},   {&press, true},  {&wheel, true},  {&key, true},
        {&hover, false}, {&timer, false}, {&custom, false}};
    for (const auto& [event, counts] : events) {
        FakeClock clock;
        IdleLock idle;
        idle.setClock(clock.function());
        idle.setIdleMinutes(1);
        QSignalSpy locks(&idle, &IdleLock::lockRequested);
        clock.now += minute / 2;
        QCoreApplication::sendEvent(&window, event);
        clock.now += minute / 2;
        idle.checkIdle();
        QCOMPARE(locks.count(), counts ? 0 : 1);
    }
}

void TestIdleLock::zeroDisables()
{
    FakeClock clock;
    IdleLock idle;
    idle.setClock(clock.function());
    QSignalSpy locks(&idle, &IdleLock::lockRequested);
    QSignalSpy changed(&idle, &IdleLock::idleMinutesChanged);
    idle.setIdleMinutes(0);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(idle.idleMinutes(), 0);
    clock.now += 24 * 60 * minute;
    idle.checkIdle();
    pressKey(&idle);
    idle.checkIdle();
    QCOMPARE(locks.count(), 0);
    // Turned on again: counts from then.
    idle.setIdleMinutes(2);
    clock.now += 2 * minute;
    idle.checkIdle();
    QCOMPARE(locks.count(), 1);
}

void TestIdleLock::realTimerFires()
{
    // The real clock and timer: the lock comes by itself, without calls.
    IdleLock idle;
    QSignalSpy locks(&idle, &IdleLock::lockRequested);
    idle.setIdleMilliseconds(50);
    QVERIFY(locks.wait(5000));
    QCOMPARE(locks.count(), 1);
}

void TestIdleLock::sleptPastTheLimitLocksAtTheFirstInput()
{
    // The machine slept: the timer (monotonic) has not fired, the boot clock
    // moved on. The first key after waking must lock, not extend.
    FakeClock clock;
    IdleLock idle;
    idle.setClock(clock.function());
    idle.setIdleMinutes(5);
    QSignalSpy locks(&idle, &IdleLock::lockRequested);
    clock.now += 8 * 60 * minute;
    pressKey(&idle);
    pressKey(&idle);
    QCOMPARE(locks.count(), 0); // queued: the key is still being delivered
    QVERIFY(locks.wait(5000));
    QCOMPARE(locks.count(), 1);
    // The keys after the lock start a new stretch.
    pressKey(&idle);
    idle.checkIdle();
    QCOMPARE(locks.count(), 1);
}

void TestIdleLock::sessionLockSlotFires()
{
    IdleLock idle;
    QSignalSpy locks(&idle, &IdleLock::lockRequested);
    idle.sessionLocked();
    QCOMPARE(locks.count(), 1);
    idle.systemSuspending();
    QCOMPARE(locks.count(), 2);

    QSignalSpy changed(&idle, &IdleLock::lockOnSessionLockChanged);
    idle.setLockOnSessionLock(false);
    QCOMPARE(changed.count(), 1);
    idle.sessionLocked();
    idle.systemSuspending();
    QCOMPARE(locks.count(), 2);
}

void TestIdleLock::noBusNoWarning()
{
    captured.clear();
    const auto previous = qInstallMessageHandler(captureMessages);
    {
        IdleLock idle;
        idle.watchDesktop();
        QCoreApplication::processEvents();
    }
    qInstallMessageHandler(previous);
    QVERIFY2(captured.isEmpty(), qPrintable(captured.join(QLatin1Char('\n'))));
    QVERIFY(!QDBusConnection::sessionBus().isConnected());
    QVERIFY(!QDBusConnection::systemBus().isConnected());
}

void TestIdleLock::busWithoutTheDesktopNoWarning()
{
    // A bus with no logind and no screen saver on it (a container's).
    QDBusConnection bare = m_bus->connect(QStringLiteral("bare"));
    QVERIFY(bare.isConnected());
    captured.clear();
    const auto previous = qInstallMessageHandler(captureMessages);
    {
        IdleLock idle;
        QSignalSpy watched(&idle, &IdleLock::sessionWatched);
        idle.watchSessionBus(bare);
        idle.watchSystemBus(bare);
        // The bus answers in order: once a later call has its reply, so has
        // the session lookup (with an error), and its handler has run.
        QVERIFY(bare.interface()->isServiceRegistered(QStringLiteral("org.freedesktop.DBus")));
        QCoreApplication::processEvents();
        QCOMPARE(watched.count(), 0);
        QVERIFY(idle.sessionPath().isEmpty());
    }
    qInstallMessageHandler(previous);
    QVERIFY2(captured.isEmpty(), qPrintable(captured.join(QLatin1Char('\n'))));
}

void TestIdleLock::screenSaverAndLogindOverABus()
{
    // One private bus stands in for both: the fakes own the desktop's names.
    QDBusConnection services = m_bus->connect(QStringLiteral("services"));
    QDBusConnection ours = m_bus->connect(QStringLiteral("ours"));
    QVERIFY(services.isConnected());
    QVERIFY(ours.isConnected());
    QObject manager;
    auto* adaptor = new FakeLogindManager(&manager);
    QVERIFY(services.registerObject(QStringLiteral("/org/freedesktop/login1"), &manager));
    QVERIFY(services.registerService(QStringLiteral("org.freedesktop.login1")));
    QVERIFY(services.registerService(QStringLiteral("org.freedesktop.ScreenSaver")));
    QVERIFY(services.registerService(QStringLiteral("org.gnome.ScreenSaver")));

    IdleLock idle;
    QSignalSpy watched(&idle, &IdleLock::sessionWatched);
    idle.watchSessionBus(ours);
    idle.watchSystemBus(ours);
    QVERIFY(watched.wait(5000));
    QCOMPARE(idle.sessionPath(), sessionPath);
    QCOMPARE(adaptor->askedPid, static_cast<uint>(QCoreApplication::applicationPid()));

    QSignalSpy locks(&idle, &IdleLock::lockRequested);
    const auto emitSignal = [&](const QString& path, const QString& interface, const QString& name,
                                const QVariantList& arguments) {
        auto message = QDBusMessage::createSignal(path, interface, name);
        message.setArguments(arguments);
        QVERIFY(services.send(message));
    };
    int expected = 0;
    const auto expectLock = [&] {
        ++expected;
        QTRY_COMPARE(locks.count(), expected);
    };

    emitSignal(QStringLiteral("/org/freedesktop/ScreenSaver"),
               QStringLiteral("org.freedesktop.ScreenSaver"), QStringLiteral("ActiveChanged"),
               {true});
    expectLock();
    emitSignal(QStringLiteral("/org/gnome/ScreenSaver"), QStringLiteral("org.gnome.ScreenSaver"),
               QStringLiteral("ActiveChanged"), {true});
    expectLock();
    emitSignal(QStringLiteral("/org/freedesktop/login1"),
               QStringLiteral("org.freedesktop.login1.Manager"), QStringLiteral("PrepareForSleep"),
               {true});
    expectLock();
    emitSignal(sessionPath, QStringLiteral("org.freedesktop.login1.Session"),
               QStringLiteral("Lock"), {});
    expectLock();
    emitSignal(sessionPath, QStringLiteral("org.freedesktop.DBus.Properties"),
               QStringLiteral("PropertiesChanged"),
               {QStringLiteral("org.freedesktop.login1.Session"),
                QVariantMap{{QStringLiteral("LockedHint"), true}}, QStringList()});
    expectLock();

    // What must not lock: the screen saver ending, waking up, the hint
    // cleared, another session's Lock. A last lock signal after them proves
    // they were delivered (and ignored) before it.
    emitSignal(QStringLiteral("/org/freedesktop/ScreenSaver"),
               QStringLiteral("org.freedesktop.ScreenSaver"), QStringLiteral("ActiveChanged"),
               {false});
    emitSignal(QStringLiteral("/org/freedesktop/login1"),
               QStringLiteral("org.freedesktop.login1.Manager"), QStringLiteral("PrepareForSleep"),
               {false});
    emitSignal(sessionPath, QStringLiteral("org.freedesktop.DBus.Properties"),
               QStringLiteral("PropertiesChanged"),
               {QStringLiteral("org.freedesktop.login1.Session"),
                QVariantMap{{QStringLiteral("LockedHint"), false}}, QStringList()});
    emitSignal(QStringLiteral("/org/freedesktop/login1/session/_9"),
               QStringLiteral("org.freedesktop.login1.Session"), QStringLiteral("Lock"), {});
    emitSignal(sessionPath, QStringLiteral("org.freedesktop.login1.Session"),
               QStringLiteral("Lock"), {});
    expectLock();
    QCOMPARE(locks.count(), expected);
}

QTEST_MAIN(TestIdleLock)
#include "TestIdleLock.moc"
