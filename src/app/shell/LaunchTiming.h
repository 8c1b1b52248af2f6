// What a launch of the app costs, measured from inside: `watchword --timing
// FILE` writes it as JSON when the app quits (bench/app_performance.py reads
// it; docs/PERFORMANCE.md reports it). Measuring changes nothing the app does.
//
// Times are milliseconds since main()'s first statement, on the monotonic
// clock. What is recorded:
//   - how long the process existed before main() (from /proc/self/stat:
//     10-ms resolution), and main()'s start on CLOCK_MONOTONIC, so that a
//     script that noted the time before it started the process can compute
//     the exact time to main();
//   - the first frame the window swapped, the unlock request and its end,
//     and the first frame swapped after the vault showed as unlocked;
//   - every second of the clock: the GUI-thread time (wall and the thread's
//     CPU time) spent in the receivers of Clock::secondChanged, which is the
//     account model's tick and whatever the rows it signals set off
//     synchronously, and how many rows it signalled;
//   - the GUI thread's CPU time from the unlocked first frame to the end;
//   - VmHWM and VmRSS (/proc/self/status) at the unlocked first frame and
//     at the end;
//   - the password KDF at the vault's iteration count, run three more times
//     on the GUI thread at the end, the fastest kept: the unlock runs it
//     inside Vault::unlockWithPassword, where it cannot be timed apart, and
//     the measurements subtract it (the fastest run, so that what is left
//     is not flattered).
// The /proc readings and the stopwatch of the clock's seconds are shared
// with AppMetrics (AppMetrics.h), which shows the same figures live in the
// Diagnostics view.
#pragma once

#include "app/diagnostics/AppMetrics.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <cstdint>

class QQuickWindow;

namespace watchword::app {

class Clock;
class VaultController;

class LaunchTiming : public QObject
{
    Q_OBJECT

public:
    // sinceMain was started by main()'s first statement; file is where the
    // JSON goes.
    LaunchTiming(const QElapsedTimer& sinceMain, QString file, QObject* parent = nullptr);

    // Brackets the clock's seconds: beginTicks before any other receiver of
    // Clock::secondChanged is connected (receivers run in the order they
    // were connected), endTicks after every other one.
    void beginTicks(Clock* clock);
    void endTicks(Clock* clock);
    // Follows the window's frames, the vault's unlocking and the rows of
    // its accounts list.
    void watch(QQuickWindow* window, VaultController* vault, QAbstractItemModel* accounts);
    // The moment the unlock was asked for.
    void markUnlockRequested();

    // Samples the memory, runs the KDF and writes the file. True if it
    // was written.
    bool finish();

private:
    double sinceMainMilliseconds() const;
    void beginTick();
    void endTick(qint64 second);

    QElapsedTimer m_sinceMain;
    QString m_file;
    VaultController* m_vault = nullptr;
    QAbstractItemModel* m_accounts = nullptr;
    QJsonObject m_marks;
    QJsonArray m_ticks;
    TickStopwatch m_stopwatch;
    bool m_unlockedSeen = false;
    bool m_finished = false;
    int m_tickRows = 0;
    std::int64_t m_steadyStartCpuNanoseconds = -1;
    qint64 m_steadyStartNanoseconds = 0;
    int m_framesAfterUnlock = 0;
};

// `--unlock-stdin`: reads the first line of standard input now (byte by
// byte with read(2), so no stdio buffer keeps a copy) and hands it to
// vault->unlock() once the window has swapped its first frame, as a person
// would type it on the unlock page; timing (may be null) marks the request.
// The controller wipes the password; if the frame never comes, it is wiped
// when the app ends.
void unlockAfterFirstFrame(QQuickWindow* window, VaultController* vault, LaunchTiming* timing);

} // namespace watchword::app
