#include "app/shell/LaunchTiming.h"

#include "app/codes/Clock.h"
#include "app/diagnostics/AppMetrics.h"
#include "app/vault/VaultController.h"
#include "base/SecureBuffer.h"
#include "crypto/Kdf.h"
#include "text/SecretText.h"
#include "vault/Calibration.h"
#include "vault/VaultFile.h"

#include <QFile>
#include <QJsonDocument>
#include <QMetaEnum>
#include <QPointer>
#include <QQuickWindow>
#include <QSaveFile>
#include <QTimer>
#include <array>
#include <ctime>
#include <memory>
#include <unistd.h>

namespace watchword::app {

namespace {

std::int64_t clockNanoseconds(clockid_t clock)
{
    timespec now{};
    clock_gettime(clock, &now);
    return std::int64_t(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

double milliseconds(std::int64_t nanoseconds)
{
    return double(nanoseconds) / 1e6;
}

// VmHWM and VmRSS in kB, as found in /proc/self/status.
QJsonObject memorySample()
{
    QJsonObject sample;
    const procfs::Memory memory = procfs::readMemory();
    if (memory.peakKilobytes >= 0)
        sample.insert(QStringLiteral("vmhwm_kb"), memory.peakKilobytes);
    if (memory.residentKilobytes >= 0)
        sample.insert(QStringLiteral("vmrss_kb"), memory.residentKilobytes);
    return sample;
}

// Runs the password KDF of the vault at path (the floor count for the
// demo's in-memory vault) and returns its iteration count and times.
QJsonObject replayKdf(const QString& path)
{
    std::uint32_t iterations = vault::minimumPasswordIterations;
    std::array<std::uint8_t, vault::saltSize> salt{};
    if (QFile file(path); !path.isEmpty() && file.open(QIODevice::ReadOnly)) {
        const QByteArray bytes = file.readAll();
        const auto header = vault::decodeHeader(
            {reinterpret_cast<const std::uint8_t*>(bytes.constData()), std::size_t(bytes.size())});
        if (header) {
            iterations = header->passwordSlot.iterations;
            salt = header->passwordSlot.salt;
        }
    }
    // The cost does not depend on the password: any will do.
    constexpr std::string_view password = "timing";
    // The fastest of three runs: the least the KDF can have cost in the
    // unlock, so that what is left after subtracting it is not flattered.
    SecureBuffer key(32);
    QJsonArray runs;
    qint64 fastest = -1;
    for (int run = 0; run < 3; ++run) {
        QElapsedTimer timer;
        timer.start();
        if (!crypto::pbkdf2(crypto::HashAlgorithm::Sha256, asBytes(password), salt, iterations,
                            key.span()))
            return {{QStringLiteral("iterations"), qint64(iterations)}};
        const qint64 elapsed = timer.nsecsElapsed();
        runs.append(milliseconds(elapsed));
        if (fastest < 0 || elapsed < fastest)
            fastest = elapsed;
    }
    return {{QStringLiteral("iterations"), qint64(iterations)},
            {QStringLiteral("ms"), milliseconds(fastest)},
            {QStringLiteral("runs_ms"), runs}};
}

} // namespace

LaunchTiming::LaunchTiming(const QElapsedTimer& sinceMain, QString file, QObject* parent)
    : QObject(parent), m_sinceMain(sinceMain), m_file(std::move(file)), m_stopwatch(sinceMain)
{
    const std::int64_t mainMonotonic =
        clockNanoseconds(CLOCK_MONOTONIC) - m_sinceMain.nsecsElapsed();
    m_marks.insert(QStringLiteral("main_monotonic_ns"), double(mainMonotonic));
    m_marks.insert(QStringLiteral("process_start_to_main_ms"),
                   procfs::processStartToMainMilliseconds(m_sinceMain));
    m_marks.insert(QStringLiteral("qt_version"), QString::fromLatin1(qVersion()));
}

double LaunchTiming::sinceMainMilliseconds() const
{
    return milliseconds(m_sinceMain.nsecsElapsed());
}

void LaunchTiming::beginTicks(Clock* clock)
{
    connect(clock, &Clock::secondChanged, this, &LaunchTiming::beginTick);
}

void LaunchTiming::endTicks(Clock* clock)
{
    connect(clock, &Clock::secondChanged, this, &LaunchTiming::endTick);
}

void LaunchTiming::beginTick()
{
    m_tickRows = 0;
    m_stopwatch.start();
}

void LaunchTiming::endTick(qint64 second)
{
    const auto span = m_stopwatch.stop();
    if (!span)
        return;
    const bool unlocked = m_vault && m_vault->state() == VaultController::State::Unlocked;
    m_ticks.append(QJsonObject{
        {QStringLiteral("second"), second},
        {QStringLiteral("at_ms"), milliseconds(span->startNanoseconds)},
        {QStringLiteral("wall_us"), double(span->wallNanoseconds) / 1e3},
        {QStringLiteral("cpu_us"), double(span->cpuNanoseconds) / 1e3},
        {QStringLiteral("rows_signalled"), m_tickRows},
        {QStringLiteral("unlocked"), unlocked},
    });
}

void LaunchTiming::watch(QQuickWindow* window, VaultController* vault, QAbstractItemModel* accounts)
{
    m_vault = vault;
    m_accounts = accounts;
    m_marks.insert(QStringLiteral("initial_state"),
                   QString::fromLatin1(QMetaEnum::fromType<VaultController::State>().valueToKey(
                       int(vault->state()))));
    // The software scene graph (what the offscreen platform gets) renders on
    // the GUI thread, so frameSwapped arrives there; a threaded render loop
    // would queue it here, a little later than the swap.
    connect(window, &QQuickWindow::frameSwapped, this, [this] {
        const double now = sinceMainMilliseconds();
        if (!m_marks.contains(QStringLiteral("first_frame_ms")))
            m_marks.insert(QStringLiteral("first_frame_ms"), now);
        if (!m_unlockedSeen)
            return;
        if (m_framesAfterUnlock++ > 0)
            return;
        m_marks.insert(QStringLiteral("codes_frame_ms"), now);
        m_marks.insert(QStringLiteral("accounts"), m_accounts->rowCount());
        m_marks.insert(QStringLiteral("memory_at_codes"), memorySample());
        m_steadyStartNanoseconds = m_sinceMain.nsecsElapsed();
        m_steadyStartCpuNanoseconds = clockNanoseconds(CLOCK_THREAD_CPUTIME_ID);
    });
    connect(vault, &VaultController::stateChanged, this, [this] {
        if (m_unlockedSeen || m_vault->state() != VaultController::State::Unlocked)
            return;
        m_unlockedSeen = true;
        m_marks.insert(QStringLiteral("unlocked_ms"), sinceMainMilliseconds());
    });
    connect(vault, &VaultController::unlockFinished, this, [this](bool unlocked) {
        if (m_marks.contains(QStringLiteral("unlock_finished_ms")))
            return;
        m_marks.insert(QStringLiteral("unlock_finished_ms"), sinceMainMilliseconds());
        m_marks.insert(QStringLiteral("unlock_succeeded"), unlocked);
    });
    connect(accounts, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex& topLeft, const QModelIndex& bottomRight) {
                if (m_stopwatch.running())
                    m_tickRows += bottomRight.row() - topLeft.row() + 1;
            });
}

void LaunchTiming::markUnlockRequested()
{
    if (!m_marks.contains(QStringLiteral("unlock_requested_ms")))
        m_marks.insert(QStringLiteral("unlock_requested_ms"), sinceMainMilliseconds());
}

bool LaunchTiming::finish()
{
    if (m_finished)
        return true;
    m_finished = true;
    QJsonObject out = m_marks;
    out.insert(QStringLiteral("end_ms"), sinceMainMilliseconds());
    out.insert(QStringLiteral("memory_at_end"), memorySample());
    if (m_steadyStartCpuNanoseconds >= 0) {
        out.insert(QStringLiteral("after_codes_wall_ms"),
                   milliseconds(m_sinceMain.nsecsElapsed() - m_steadyStartNanoseconds));
        out.insert(
            QStringLiteral("after_codes_gui_cpu_ms"),
            milliseconds(clockNanoseconds(CLOCK_THREAD_CPUTIME_ID) - m_steadyStartCpuNanoseconds));
        out.insert(QStringLiteral("frames_after_codes"), m_framesAfterUnlock);
    }
    out.insert(QStringLiteral("ticks"), m_ticks);
    // Last: the KDF must not sit inside anything measured above.
    out.insert(QStringLiteral("kdf"), replayKdf(m_vault ? m_vault->path() : QString()));
    QSaveFile file(m_file);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(QJsonDocument(out).toJson());
    return file.commit();
}

void unlockAfterFirstFrame(QQuickWindow* window, VaultController* vault, LaunchTiming* timing)
{
    SecureBuffer line(4096);
    std::size_t size = 0;
    std::uint8_t c = 0;
    while (size < line.size() && ::read(STDIN_FILENO, &c, 1) == 1 && c != '\n')
        line[size++] = c;
    secureWipe(&c, 1);
    if (size > 0 && line[size - 1] == '\r')
        --size;
    const auto wipe = [](QString* text) {
        text::wipe(*text);
        delete text;
    };
    std::shared_ptr<QString> password(
        new QString(QString::fromUtf8(reinterpret_cast<const char*>(line.data()), qsizetype(size))),
        wipe);
    QPointer<LaunchTiming> marks(timing);
    QObject::connect(
        window, &QQuickWindow::frameSwapped, vault,
        [vault, password, marks] {
            // Not inside the frame's signal: as an event of its own.
            QTimer::singleShot(0, vault, [vault, password, marks] {
                if (marks)
                    marks->markUnlockRequested();
                vault->unlock(std::move(*password));
            });
        },
        Qt::SingleShotConnection);
}

} // namespace watchword::app
