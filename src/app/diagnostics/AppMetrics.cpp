#include "app/diagnostics/AppMetrics.h"

#include "app/codes/Clock.h"
#include "app/vault/VaultController.h"

#include <QDateTime>
#include <QFile>
#include <QJSEngine>
#include <QMetaEnum>
#include <QQmlEngine>
#include <QQuickWindow>
#include <algorithm>
#include <ctime>
#include <unistd.h>
#include <vector>

namespace watchword::app {

namespace {

AppMetrics* g_instance = nullptr;

std::int64_t clockNanoseconds(clockid_t clock)
{
    timespec now{};
    clock_gettime(clock, &now);
    return std::int64_t(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

double milliseconds(qint64 nanoseconds)
{
    return double(nanoseconds) / 1e6;
}

// The number that starts a "Key:   1234 kB" line's value.
qint64 statusNumber(QByteArrayView line, QByteArrayView key)
{
    QByteArrayView value = line.sliced(key.size()).trimmed();
    const qsizetype space = value.indexOf(' ');
    if (space >= 0)
        value = value.first(space);
    bool ok = false;
    const qint64 number = value.toLongLong(&ok);
    return ok ? number : -1;
}

QString secondsText(qint64 count)
{
    return count == 1 ? AppMetrics::tr("1 second") : AppMetrics::tr("%1 seconds").arg(count);
}

bool sameValue(double a, double b)
{
    return a == b || (std::isnan(a) && std::isnan(b));
}

} // namespace

// --- /proc ---------------------------------------------------------------

namespace procfs {

Memory parseStatus(QByteArrayView status)
{
    Memory memory;
    constexpr QByteArrayView peakKey("VmHWM:");
    constexpr QByteArrayView residentKey("VmRSS:");
    for (qsizetype start = 0; start < status.size();) {
        qsizetype end = status.indexOf('\n', start);
        if (end < 0)
            end = status.size();
        const QByteArrayView line = status.sliced(start, end - start);
        if (line.startsWith(peakKey))
            memory.peakKilobytes = statusNumber(line, peakKey);
        else if (line.startsWith(residentKey))
            memory.residentKilobytes = statusNumber(line, residentKey);
        start = end + 1;
    }
    return memory;
}

Memory readMemory()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return {};
    return parseStatus(status.readAll());
}

qint64 parseStartTicks(QByteArrayView stat)
{
    // The command name (field 2) may hold spaces and parentheses: the fields
    // after it start at the last ')'.
    const qsizetype close = stat.lastIndexOf(')');
    if (close < 0 || close + 2 > stat.size())
        return -1;
    constexpr int startTimeField = 22 - 3; // fields 3.. follow the name
    QByteArrayView rest = stat.sliced(close + 2);
    for (int field = 0; field < startTimeField; ++field) {
        const qsizetype space = rest.indexOf(' ');
        if (space < 0)
            return -1;
        rest = rest.sliced(space + 1);
    }
    const qsizetype space = rest.indexOf(' ');
    bool ok = false;
    const qint64 ticks = (space < 0 ? rest : rest.first(space)).trimmed().toLongLong(&ok);
    return ok && ticks >= 0 ? ticks : -1;
}

double processStartToMainMilliseconds(const QElapsedTimer& sinceMain)
{
    const std::int64_t mainBoot = clockNanoseconds(CLOCK_BOOTTIME) - sinceMain.nsecsElapsed();
    QFile file(QStringLiteral("/proc/self/stat"));
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    const qint64 ticks = parseStartTicks(file.readAll());
    const long ticksPerSecond = sysconf(_SC_CLK_TCK);
    if (ticks < 0 || ticksPerSecond <= 0)
        return -1;
    const double startMilliseconds = double(ticks) * 1000.0 / double(ticksPerSecond);
    return milliseconds(mainBoot) - startMilliseconds;
}

} // namespace procfs

// --- TickStopwatch ---------------------------------------------------------

void TickStopwatch::start()
{
    m_running = true;
    if (m_cpu)
        m_startCpuNanoseconds = clockNanoseconds(CLOCK_THREAD_CPUTIME_ID);
    m_startNanoseconds = m_origin.nsecsElapsed();
}

std::optional<TickStopwatch::Span> TickStopwatch::stop()
{
    // Read first: the bookkeeping below is not the receivers' time.
    const qint64 end = m_origin.nsecsElapsed();
    const std::int64_t cpuEnd = m_cpu ? clockNanoseconds(CLOCK_THREAD_CPUTIME_ID) : 0;
    if (!m_running)
        return std::nullopt;
    m_running = false;
    return Span{m_startNanoseconds, end - m_startNanoseconds,
                m_cpu ? cpuEnd - m_startCpuNanoseconds : -1};
}

// --- AppMetrics ------------------------------------------------------------

AppMetrics::AppMetrics(const QElapsedTimer& sinceMain, QObject* parent)
    : QAbstractListModel(parent), m_sinceMain(sinceMain),
      m_processStartToMain(procfs::processStartToMainMilliseconds(sinceMain)),
      m_stopwatch(sinceMain, TickStopwatch::Cpu::NotMeasured)
{
    m_refreshTimer.setInterval(1000);
    connect(&m_refreshTimer, &QTimer::timeout, this, &AppMetrics::refresh);
    // The rows' targets and texts, nothing measured yet.
    publish({}, 0);
}

void AppMetrics::setInstance(AppMetrics* instance)
{
    g_instance = instance;
}

AppMetrics* AppMetrics::create(QQmlEngine*, QJSEngine*)
{
    Q_ASSERT(g_instance != nullptr);
    // main() owns it; QML must not delete it.
    QJSEngine::setObjectOwnership(g_instance, QJSEngine::CppOwnership);
    return g_instance;
}

void AppMetrics::beginTicks(Clock* clock)
{
    m_clock = clock;
    connect(clock, &Clock::secondChanged, this, &AppMetrics::beginTick);
}

void AppMetrics::endTicks(Clock* clock)
{
    connect(clock, &Clock::secondChanged, this, &AppMetrics::endTick);
}

void AppMetrics::beginTick()
{
    m_stopwatch.start();
}

void AppMetrics::endTick(qint64 second)
{
    const auto span = m_stopwatch.stop();
    if (span && codesShown())
        recordSecond(second, span->wallNanoseconds);
}

bool AppMetrics::codesShown() const
{
    const VaultController* vault = m_vault.data();
    return vault == nullptr || vault->state() == VaultController::State::Unlocked;
}

void AppMetrics::watch(QQuickWindow* window, VaultController* vault, QAbstractItemModel* accounts)
{
    m_vault = vault;
    m_accountList = accounts;
    if (window != nullptr) {
        // Direct: with the threaded render loop these come from the render
        // thread, and a queued frameSwapped would arrive late, and after an
        // unlock that its frame predates. A frame shows the codes if the
        // unlock had finished when its scene was synchronized (the GUI thread
        // waits meanwhile).
        connect(
            window, &QQuickWindow::afterSynchronizing, this, [this] { frameSynchronized(); },
            Qt::DirectConnection);
        connect(
            window, &QQuickWindow::frameSwapped, this,
            [this] { frameSwapped(m_sinceMain.nsecsElapsed()); }, Qt::DirectConnection);
    }
    if (vault != nullptr) {
        connect(vault, &VaultController::stateChanged, this, [this, vault] {
            if (vault->state() == VaultController::State::Unlocking)
                unlockStarted(m_sinceMain.nsecsElapsed());
        });
        connect(vault, &VaultController::unlockFinished, this, [this](bool unlocked) {
            if (unlocked)
                unlockFinished(m_sinceMain.nsecsElapsed());
        });
    }
}

void AppMetrics::frameSynchronized()
{
    if (!m_codesSynchronized.load(std::memory_order_relaxed) &&
        m_unlockFinished.load(std::memory_order_acquire) >= 0)
        m_codesSynchronized.store(true, std::memory_order_release);
}

void AppMetrics::frameSwapped(qint64 nanoseconds)
{
    // Once both are set, a frame costs loads only, no read-modify-write.
    const auto setOnce = [nanoseconds](std::atomic<qint64>& mark) {
        qint64 unset = -1;
        if (mark.load(std::memory_order_relaxed) < 0)
            mark.compare_exchange_strong(unset, nanoseconds);
    };
    setOnce(m_firstFrame);
    if (m_codesSynchronized.load(std::memory_order_acquire))
        setOnce(m_codesFrame);
}

void AppMetrics::unlockStarted(qint64 nanoseconds)
{
    // The session's first unlock only: the launch is about that one.
    if (m_unlockFinished.load() < 0)
        m_unlockStarted = nanoseconds;
}

void AppMetrics::unlockFinished(qint64 nanoseconds)
{
    if (m_unlockFinished.load() >= 0)
        return;
    m_unlockJob = m_unlockStarted >= 0 ? nanoseconds - m_unlockStarted : -1;
    m_unlockFinished.store(nanoseconds, std::memory_order_release);
}

void AppMetrics::recordSecond(qint64 second, qint64 wallNanoseconds)
{
    if (m_seconds == 0 || wallNanoseconds > m_slowest.wallNanoseconds)
        m_slowest = {second, wallNanoseconds};
    ++m_seconds;
    m_recent[m_recentNext] = {second, wallNanoseconds};
    m_recentNext = (m_recentNext + 1) % m_recent.size();
    m_recentCount = std::min(m_recentCount + 1, m_recent.size());
}

void AppMetrics::refresh()
{
    qint64 now = 0;
    if (m_clock != nullptr) {
        now = m_clock->second();
    } else if (m_recentCount > 0) {
        now = m_recent[(m_recentNext + m_recent.size() - 1) % m_recent.size()].second;
    }
    publish(procfs::readMemory(), now);
}

void AppMetrics::publish(const procfs::Memory& memory, qint64 nowSecond)
{
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    std::array<Row, figureCount> rows;
    const auto set = [&rows](Figure figure, double measured, double target, QString detail) {
        rows[std::size_t(figure)] = {measured, target, std::move(detail)};
    };

    const qint64 firstFrame = m_firstFrame.load();
    const qint64 unlockFinished = m_unlockFinished.load();
    const qint64 codesFrame = m_codesFrame.load();
    const double toCodes =
        codesFrame >= 0 && unlockFinished >= 0 ? milliseconds(codesFrame - unlockFinished) : nan;

    set(Figure::FirstFrame, firstFrame >= 0 ? milliseconds(firstFrame) : nan, 0,
        tr("From main()'s first statement to the window's first frame on screen."));
    set(Figure::UnlockJob, m_unlockJob >= 0 ? milliseconds(m_unlockJob) : nan, 0,
        tr("The session's first unlock (or the vault's creation or recovery), asked to "
           "finished: on a worker, the key derivation (KDF, slow on purpose), reading and "
           "opening the records."));
    set(Figure::UnlockToCodesFrame, toCodes, 0,
        tr("From the first unlock's end to the first frame that shows the codes."));
    const bool launchKnown = m_processStartToMain >= 0 && firstFrame >= 0 && !std::isnan(toCodes);
    set(Figure::LaunchToCodesFrame,
        launchKnown ? m_processStartToMain + milliseconds(firstFrame) + toCodes : nan,
        launchTargetMilliseconds,
        tr("The process's start to main() (%1 ms, in 10-ms steps), main() to the first frame, "
           "and the first unlock's end to the codes' first frame. Left out: the time until the "
           "password was given, and the unlock job, whose KDF cannot be timed apart from the "
           "rest of it here, so this can only understate the target's figure; "
           "bench/app_performance.py measures the whole.")
            .arg(m_processStartToMain, 0, 'f', 0));

    set(Figure::SlowestSecond, m_seconds > 0 ? milliseconds(m_slowest.wallNanoseconds) : nan,
        secondTargetMilliseconds,
        m_seconds > 0
            ? tr("The GUI thread's time in the receivers of the clock's second (the codes' model "
                 "and what it sets off), the most of %1 with the codes shown; at %2.")
                  .arg(secondsText(m_seconds), QDateTime::fromSecsSinceEpoch(m_slowest.second)
                                                   .toString(QStringLiteral("HH:mm:ss")))
            : tr("The GUI thread's time in the receivers of the clock's second, the most of any "
                 "second with the codes shown."));

    std::vector<qint64> window;
    window.reserve(m_recentCount);
    for (std::size_t i = 0; i < m_recentCount; ++i) {
        const Second& sample = m_recent[i];
        if (sample.second > nowSecond - medianSeconds && sample.second <= nowSecond)
            window.push_back(sample.wallNanoseconds);
    }
    double median = nan;
    if (!window.empty()) {
        const auto middle = window.begin() + std::ptrdiff_t(window.size() / 2);
        std::nth_element(window.begin(), middle, window.end());
        median = milliseconds(*middle);
        if (window.size() % 2 == 0)
            median = (median + milliseconds(*std::max_element(window.begin(), middle))) / 2;
    }
    set(Figure::MedianSecond, median, secondTargetMilliseconds,
        tr("The same, the median of the last %1 seconds: %2 with the codes shown.")
            .arg(medianSeconds)
            .arg(secondsText(qint64(window.size()))));

    const auto megabytes = [nan](qint64 kilobytes) {
        return kilobytes >= 0 ? double(kilobytes) / 1024.0 : nan;
    };
    set(Figure::PeakMemory, megabytes(memory.peakKilobytes), memoryTargetMegabytes,
        tr("The most resident memory the process has had (VmHWM, /proc/self/status)."));
    set(Figure::MemoryNow, megabytes(memory.residentKilobytes), memoryTargetMegabytes,
        tr("Resident memory now (VmRSS)."));

    bool changed = false;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& before = m_rows[i];
        const Row& after = rows[i];
        if (!sameValue(before.measured, after.measured) || before.target != after.target ||
            before.detail != after.detail)
            changed = true;
    }
    const QAbstractItemModel* list = m_accountList.data();
    const int accounts = list != nullptr ? list->rowCount() : 0;
    if (!changed && accounts == m_accounts)
        return;
    m_rows = std::move(rows);
    m_accounts = accounts;
    if (changed)
        emit dataChanged(index(0), index(figureCount - 1));
    emit refreshed();
}

void AppMetrics::setActive(bool active)
{
    if (m_active == active)
        return;
    m_active = active;
    if (active) {
        refresh();
        m_refreshTimer.start();
    } else {
        m_refreshTimer.stop();
    }
    emit activeChanged();
}

int AppMetrics::targets() const
{
    return int(
        std::count_if(m_rows.begin(), m_rows.end(), [](const Row& row) { return row.target > 0; }));
}

int AppMetrics::targetsMeasured() const
{
    return int(std::count_if(m_rows.begin(), m_rows.end(),
                             [](const Row& row) { return row.target > 0 && row.available(); }));
}

int AppMetrics::targetsMet() const
{
    return int(std::count_if(m_rows.begin(), m_rows.end(), [](const Row& row) {
        return row.target > 0 && row.available() && row.met();
    }));
}

int AppMetrics::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : figureCount;
}

QVariant AppMetrics::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto figure = Figure(index.row());
    const Row& row = m_rows[std::size_t(index.row())];
    switch (role) {
    case KeyRole: {
        // "firstFrame" for Figure::FirstFrame.
        QString key = QString::fromLatin1(QMetaEnum::fromType<Figure>().valueToKey(int(figure)));
        key[0] = key[0].toLower();
        return key;
    }
    case Qt::DisplayRole:
    case FigureRole:
        switch (figure) {
        case Figure::FirstFrame:
            return tr("main() → first frame");
        case Figure::UnlockJob:
            return tr("First unlock, KDF included");
        case Figure::UnlockToCodesFrame:
            return tr("Unlock finished → codes' first frame");
        case Figure::LaunchToCodesFrame:
            return tr("Launch → codes' first frame, unlock job left out");
        case Figure::SlowestSecond:
            return tr("Slowest second so far");
        case Figure::MedianSecond:
            return tr("Median second, last %1 s").arg(medianSeconds);
        case Figure::PeakMemory:
            return tr("Peak memory (VmHWM)");
        case Figure::MemoryNow:
            return tr("Memory now (VmRSS)");
        }
        return {};
    case DetailRole:
        return row.detail;
    case MeasuredRole:
        return row.measured;
    case UnitRole:
        return figure == Figure::PeakMemory || figure == Figure::MemoryNow ? QStringLiteral("MB")
                                                                           : QStringLiteral("ms");
    case TargetRole:
        return row.target;
    case RatioRole:
        return row.ratio();
    case AvailableRole:
        return row.available();
    case MetRole:
        return row.met();
    default:
        return {};
    }
}

QHash<int, QByteArray> AppMetrics::roleNames() const
{
    return {{KeyRole, "key"},           {FigureRole, "figure"},       {DetailRole, "detail"},
            {MeasuredRole, "measured"}, {UnitRole, "unit"},           {TargetRole, "target"},
            {RatioRole, "ratio"},       {AvailableRole, "available"}, {MetRole, "met"}};
}

} // namespace watchword::app
