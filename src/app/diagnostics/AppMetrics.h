// The app's own performance targets (issue 4's, docs/PERFORMANCE.md), as the
// running session measures them, for the Diagnostics view: one row per
// figure, with its target, the ratio to it and whether it is met.
//
// The reference figures come from bench/app_performance.py on a vault of
// 1,000 accounts, with the password given at the first frame; these are the
// user's own session, whatever its vault and however long the password
// took to type, and are labelled so. What a live session can measure:
//   - main() to the window's first frame, and the process's start to main()
//     (from /proc/self/stat, in 10-ms steps);
//   - the first unlock of the session (or the vault's creation, recovery,
//     the demo's making): asked to finished, which holds the KDF, and
//     finished to the first frame that shows the codes;
//   - launch to the codes' first frame without the unlock job: the KDF runs
//     inside the job on a worker and cannot be timed apart here, so the
//     job's other work (reading and opening the records) is left out too
//     and this figure can only understate the target's;
//   - each second of the clock: the GUI-thread time spent in the receivers
//     of Clock::secondChanged while the codes are shown, as LaunchTiming
//     times it: the slowest second so far and the median of the last 60;
//   - VmHWM (the peak) and VmRSS (now) from /proc/self/status.
//
// Cost. A second's bookkeeping is two reads of the monotonic clock (no
// system call) and a store into a fixed ring, with no signal; a frame,
// once the first and the codes' first are recorded, costs four atomic
// loads. The rows are worked out and signalled only while `active` (the
// view is shown), at most once a second.
//
// The process-level readings (/proc) and the stopwatch of the clock's
// seconds are shared with LaunchTiming, which writes `--timing`'s JSON.
#pragma once

#include <QAbstractListModel>
#include <QByteArrayView>
#include <QElapsedTimer>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <QtQml/qqmlregistration.h>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

class QJSEngine;
class QQmlEngine;
class QQuickWindow;

namespace watchword::app {

class Clock;
class VaultController;

namespace procfs {

// Kilobytes as /proc/self/status gives them (kB are KiB); -1 when missing.
struct Memory
{
    qint64 peakKilobytes = -1;     // VmHWM
    qint64 residentKilobytes = -1; // VmRSS
};

Memory parseStatus(QByteArrayView status);
Memory readMemory();

// The process's start time in clock ticks since boot (field 22 of
// /proc/<pid>/stat), or -1.
qint64 parseStartTicks(QByteArrayView stat);
// How long the process existed before sinceMain was started (by main()'s
// first statement), in milliseconds, in the kernel's clock-tick steps
// (10 ms); -1 if unknown.
double processStartToMainMilliseconds(const QElapsedTimer& sinceMain);

} // namespace procfs

// Times one emission of Clock::secondChanged across all its receivers:
// start() from a receiver connected before every other, stop() from one
// connected after every other (receivers run in the order they were
// connected). Wall time since origin, and if asked the calling thread's CPU
// time, which costs a system call at each end, where the wall clock is
// read without one.
class TickStopwatch
{
public:
    enum class Cpu { Measured, NotMeasured };
    struct Span
    {
        qint64 startNanoseconds = 0; // since origin
        qint64 wallNanoseconds = 0;
        std::int64_t cpuNanoseconds = -1; // -1: not measured
    };

    explicit TickStopwatch(const QElapsedTimer& origin, Cpu cpu = Cpu::Measured)
        : m_origin(origin), m_cpu(cpu == Cpu::Measured)
    {}

    void start();
    // The span since start(), or nothing if no start() came first.
    std::optional<Span> stop();
    bool running() const { return m_running; }

private:
    QElapsedTimer m_origin;
    bool m_cpu;
    bool m_running = false;
    qint64 m_startNanoseconds = 0;
    std::int64_t m_startCpuNanoseconds = 0;
};

class AppMetrics : public QAbstractListModel
{
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
    // While true, the rows are worked out again once a second (and at once
    // when it turns true); the view sets it while it is shown.
    Q_PROPERTY(bool active READ active WRITE setActive NOTIFY activeChanged)
    // Accounts in the vault now (the reference figures are for 1,000).
    Q_PROPERTY(int accounts READ accounts NOTIFY refreshed)
    // Rows with a target: how many, how many measured, how many met.
    Q_PROPERTY(int targets READ targets CONSTANT)
    Q_PROPERTY(int targetsMeasured READ targetsMeasured NOTIFY refreshed)
    Q_PROPERTY(int targetsMet READ targetsMet NOTIFY refreshed)

public:
    // The targets of issue 4 (docs/PERFORMANCE.md, "Desktop app").
    static constexpr double launchTargetMilliseconds = 400;
    static constexpr double secondTargetMilliseconds = 2;
    static constexpr double memoryTargetMegabytes = 150; // MiB, as the script counts
    // The window of the median second.
    static constexpr int medianSeconds = 60;

    // The rows, in this order.
    enum class Figure {
        FirstFrame,         // main() → first frame
        UnlockJob,          // first unlock, asked → finished (KDF included)
        UnlockToCodesFrame, // unlock finished → codes' first frame
        LaunchToCodesFrame, // start → codes' first frame, the unlock job left out
        SlowestSecond,
        MedianSecond,
        PeakMemory,
        MemoryNow,
    };
    Q_ENUM(Figure)
    static constexpr int figureCount = int(Figure::MemoryNow) + 1;

    enum Role {
        KeyRole = Qt::UserRole + 1,
        FigureRole,
        DetailRole,
        MeasuredRole, // NaN until measured
        UnitRole,
        TargetRole, // 0: no target (a figure shown for context)
        RatioRole,  // measured / target; NaN without both
        AvailableRole,
        MetRole,
    };

    struct Row
    {
        double measured = std::numeric_limits<double>::quiet_NaN();
        double target = 0;
        QString detail;

        bool available() const { return !std::isnan(measured); }
        double ratio() const
        {
            return target > 0 && available() ? measured / target
                                             : std::numeric_limits<double>::quiet_NaN();
        }
        // At the target counts as met; nothing measured is not met.
        bool met() const { return ratio() <= 1; }
    };

    // sinceMain was started by main()'s first statement.
    explicit AppMetrics(const QElapsedTimer& sinceMain, QObject* parent = nullptr);

    // The QML singleton is the instance main() made.
    static void setInstance(AppMetrics* instance);
    static AppMetrics* create(QQmlEngine* qmlEngine, QJSEngine* jsEngine);

    // --- Wiring, by main(). beginTicks before any other receiver of the
    // clock's seconds is connected, endTicks after every other (as with
    // LaunchTiming, whose brackets go outside these).
    void beginTicks(Clock* clock);
    void endTicks(Clock* clock);
    // Follows the window's frames and the vault's unlocking; the seconds
    // count only while the vault shows its codes (all of them without one),
    // the accounts the list holds.
    void watch(QQuickWindow* window, VaultController* vault, QAbstractItemModel* accounts);

    // --- What the connections record; tests call them directly. Times are
    // nanoseconds since main(). The two frame functions may be called on the
    // render thread.
    // The scene was synchronized with the items (the GUI thread is blocked).
    void frameSynchronized();
    void frameSwapped(qint64 nanoseconds);
    void unlockStarted(qint64 nanoseconds);
    void unlockFinished(qint64 nanoseconds);
    // One second of the clock that cost wallNanoseconds in its receivers.
    void recordSecond(qint64 second, qint64 wallNanoseconds);

    // Works the rows out again with the memory read now, and signals what
    // changed; the timer calls it while active.
    void refresh();
    // The same with the memory given and the seconds counted up to
    // nowSecond (the clock's second): for tests.
    void publish(const procfs::Memory& memory, qint64 nowSecond);

    const Row& row(Figure figure) const { return m_rows[std::size_t(figure)]; }
    double processStartToMainMilliseconds() const { return m_processStartToMain; }
    // Seconds counted so far (those with the codes shown).
    qint64 secondsRecorded() const { return m_seconds; }

    bool active() const { return m_active; }
    void setActive(bool active);
    int accounts() const { return m_accounts; }
    int targets() const;
    int targetsMeasured() const;
    int targetsMet() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

signals:
    void activeChanged();
    void refreshed();

private:
    struct Second
    {
        qint64 second = 0;
        qint64 wallNanoseconds = 0;
    };

    void beginTick();
    void endTick(qint64 second);
    bool codesShown() const;

    QElapsedTimer m_sinceMain;
    double m_processStartToMain = -1;
    TickStopwatch m_stopwatch;
    Clock* m_clock = nullptr;
    QPointer<VaultController> m_vault;
    QPointer<QAbstractItemModel> m_accountList;

    // Written on the GUI thread, read where frames are swapped; -1: not yet.
    std::atomic<qint64> m_unlockFinished{-1};
    std::atomic<bool> m_codesSynchronized{false};
    std::atomic<qint64> m_firstFrame{-1};
    std::atomic<qint64> m_codesFrame{-1};
    qint64 m_unlockStarted = -1;
    qint64 m_unlockJob = -1;

    // The seconds: the slowest, and a ring of the latest for the median.
    std::array<Second, medianSeconds> m_recent{};
    std::size_t m_recentCount = 0;
    std::size_t m_recentNext = 0;
    qint64 m_seconds = 0;
    Second m_slowest;

    std::array<Row, figureCount> m_rows;
    int m_accounts = 0;
    bool m_active = false;
    QTimer m_refreshTimer;
};

} // namespace watchword::app
