// The CLI run on a pseudo-terminal, as at a user's terminal: the terminal is
// its controlling terminal (what /dev/tty opens) and, unless a file is given,
// its standard input. Standard output and error go to files, so the terminal
// shows only what the CLI writes to /dev/tty and what the terminal echoes:
// a secret typed at a hidden prompt must never show there.
#pragma once

#include "CliTestSupport.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include <vector>

namespace watchword::test {

// How a command on a terminal ended, and what its terminal showed.
struct TerminalOutcome
{
    Outcome outcome; // exitCode -1 if a signal ended it
    int signal = 0;  // that signal, else 0
    QByteArray shown;
};

inline QString describe(const TerminalOutcome& ended)
{
    return describe(ended.outcome) +
           QStringLiteral(", signal %1, terminal [%2]")
               .arg(ended.signal)
               .arg(QString::fromUtf8(ended.shown.toPercentEncoding(" :,.'")));
}

inline bool sameSettings(const termios& left, const termios& right)
{
    return left.c_iflag == right.c_iflag && left.c_oflag == right.c_oflag &&
           left.c_cflag == right.c_cflag && left.c_lflag == right.c_lflag &&
           std::equal(std::begin(left.c_cc), std::end(left.c_cc), std::begin(right.c_cc));
}

inline QString describeSettings(const termios& settings)
{
    return QStringLiteral("iflag %1 oflag %2 cflag %3 lflag %4 (echo %5)")
        .arg(settings.c_iflag, 0, 16)
        .arg(settings.c_oflag, 0, 16)
        .arg(settings.c_cflag, 0, 16)
        .arg(settings.c_lflag, 0, 16)
        .arg((settings.c_lflag & ECHO) != 0 ? QStringLiteral("on") : QStringLiteral("off"));
}

struct TerminalOptions
{
    // Standard input from a file holding these bytes, not the terminal.
    std::optional<QByteArray> standardInput;
    // Signals the CLI starts with ignored, as nohup ignores SIGHUP (a
    // hang-up is then only an end of input) or a script SIGINT.
    std::vector<int> ignoredSignals;
};

class PseudoTerminal
{
public:
    using Options = TerminalOptions;

    PseudoTerminal() = default;
    PseudoTerminal(const PseudoTerminal&) = delete;
    PseudoTerminal& operator=(const PseudoTerminal&) = delete;

    ~PseudoTerminal()
    {
        if (m_pid > 0 && !m_ended) {
            ::kill(m_pid, SIGKILL);
            int status = 0;
            ::waitpid(m_pid, &status, 0);
        }
        for (int descriptor : {m_master, m_slave, m_processDescriptor}) {
            if (descriptor >= 0)
                ::close(descriptor);
        }
    }

    // Starts the CLI with args in a new session whose controlling terminal is
    // a new pseudo-terminal. False (reported through QTest) if that failed.
    bool start(const QStringList& args, const Options& options = {})
    {
        if (!m_files.isValid())
            return fail(QStringLiteral("no temporary directory"));
        if (::openpty(&m_master, &m_slave, nullptr, nullptr, nullptr) != 0)
            return fail(QStringLiteral("openpty: ") + QString::fromLocal8Bit(std::strerror(errno)));
        // Not inherited: a later child holding the master open would keep the
        // terminal from hanging up when the test closes it.
        ::fcntl(m_master, F_SETFD, FD_CLOEXEC);
        ::fcntl(m_slave, F_SETFD, FD_CLOEXEC);
        ::tcgetattr(m_slave, &m_initialSettings);

        const QByteArray outPath = QFile::encodeName(m_files.filePath(QStringLiteral("out")));
        const QByteArray errPath = QFile::encodeName(m_files.filePath(QStringLiteral("err")));
        const int out = ::open(outPath.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        const int err = ::open(errPath.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        int in = -1;
        if (options.standardInput) {
            const QString inPath = m_files.filePath(QStringLiteral("in"));
            if (!writeBytes(inPath, *options.standardInput))
                return fail(QStringLiteral("could not write ") + inPath);
            in = ::open(QFile::encodeName(inPath).constData(), O_RDONLY | O_CLOEXEC);
        }
        if (out < 0 || err < 0 || (options.standardInput && in < 0))
            return fail(QStringLiteral("could not open the output files"));
        m_outPath = QFile::decodeName(outPath);
        m_errPath = QFile::decodeName(errPath);

        // Everything the child needs is made before fork: between fork and
        // exec only async-signal-safe calls are allowed.
        std::vector<QByteArray> strings{QFile::encodeName(cliPath)};
        for (const auto& arg : args)
            strings.push_back(arg.toUtf8());
        std::vector<char*> argv;
        for (auto& string : strings)
            argv.push_back(string.data());
        argv.push_back(nullptr);
        struct sigaction defaultAction
        {};
        defaultAction.sa_handler = SIG_DFL;
        struct sigaction ignoreAction
        {};
        ignoreAction.sa_handler = SIG_IGN;
        sigset_t noSignals;
        sigemptyset(&noSignals);
        const int slave = m_slave;

        const pid_t pid = ::fork();
        if (pid == 0) {
            // A new session with the terminal as its controlling terminal,
            // in the foreground: what login_tty does, by hand.
            if (::setsid() < 0 || ::ioctl(slave, TIOCSCTTY, 0) != 0)
                ::_exit(126);
            if (::dup2(in >= 0 ? in : slave, STDIN_FILENO) < 0 || ::dup2(out, STDOUT_FILENO) < 0 ||
                ::dup2(err, STDERR_FILENO) < 0)
                ::_exit(126);
            // Whatever the test runner ignores or blocks, the CLI starts as
            // from a login shell.
            for (int signal :
                 {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE})
                ::sigaction(signal, &defaultAction, nullptr);
            for (int signal : options.ignoredSignals)
                ::sigaction(signal, &ignoreAction, nullptr);
            ::sigprocmask(SIG_SETMASK, &noSignals, nullptr);
            ::execv(argv[0], argv.data());
            ::_exit(127);
        }
        for (int descriptor : {out, err, in}) {
            if (descriptor >= 0)
                ::close(descriptor);
        }
        if (pid < 0)
            return fail(QStringLiteral("fork: ") + QString::fromLocal8Bit(std::strerror(errno)));
        m_pid = pid;
        // Lets a wait wake up when the CLI ends, not only on output; older
        // kernels lack it, and waits then look every 20 ms.
        m_processDescriptor = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
        return true;
    }

    pid_t pid() const { return m_pid; }
    // The settings of the terminal now, and before the CLI started.
    termios settings() const
    {
        termios now{};
        ::tcgetattr(m_slave, &now);
        return now;
    }
    const termios& initialSettings() const { return m_initialSettings; }

    // Reads what the terminal shows until text appears after what earlier
    // waits consumed. False (reported through QTest) if the CLI ends or
    // timeoutMs pass first.
    bool waitFor(const QByteArray& text, int timeoutMs = 30000)
    {
        const QDeadlineTimer deadline(timeoutMs);
        for (;;) {
            const qsizetype at = m_shown.indexOf(text, m_consumed);
            if (at >= 0) {
                m_consumed = at + text.size();
                return true;
            }
            if (m_ended) {
                collectRemainingOutput();
                if (m_shown.indexOf(text, m_consumed) >= 0)
                    continue;
                return fail(QStringLiteral("the CLI ended before the terminal showed [%1]; it "
                                           "showed [%2], stderr [%3]")
                                .arg(QString::fromUtf8(text), QString::fromUtf8(m_shown),
                                     QString::fromUtf8(readBytes(m_errPath))));
            }
            if (deadline.hasExpired())
                return fail(QStringLiteral("the terminal did not show [%1] within %2 ms; it "
                                           "showed [%3]")
                                .arg(QString::fromUtf8(text))
                                .arg(timeoutMs)
                                .arg(QString::fromUtf8(m_shown)));
            pump(deadline);
        }
    }

    // Types bytes at the keyboard ("\r" is Enter, "\x04" Ctrl-D, "\x03" Ctrl-C).
    void type(const QByteArray& bytes)
    {
        qsizetype done = 0;
        while (done < bytes.size() && m_master >= 0) {
            const ssize_t written = ::write(m_master, bytes.constData() + done,
                                            static_cast<std::size_t>(bytes.size() - done));
            if (written < 0 && errno == EINTR)
                continue;
            if (written <= 0) {
                fail(QStringLiteral("could not type at the terminal"));
                return;
            }
            done += written;
        }
    }

    // Waits for a prompt for a secret and checks that the terminal no longer
    // echoes what is typed.
    bool waitForHiddenPrompt(const QByteArray& prompt)
    {
        if (!waitFor(prompt))
            return false;
        if ((settings().c_lflag & ECHO) != 0)
            return fail(QStringLiteral("the terminal echoes at the prompt [%1]: %2")
                            .arg(QString::fromUtf8(prompt), describeSettings(settings())));
        return true;
    }

    // Answers a prompt for a secret: waits for it, then types secret and Enter.
    bool answer(const QByteArray& prompt, const QByteArray& secret)
    {
        if (!waitForHiddenPrompt(prompt))
            return false;
        type(secret + '\r');
        return true;
    }

    // Closes the terminal (its master side): it hangs up, as when the window
    // of a terminal emulator is closed.
    void hangUp()
    {
        collectAvailableOutput();
        ::close(m_master);
        m_master = -1;
    }

    // Waits for the CLI to end (killed after timeoutMs: a test failure) and
    // returns how it ended and everything the terminal showed.
    TerminalOutcome finish(int timeoutMs = 60000)
    {
        TerminalOutcome ended;
        const QDeadlineTimer deadline(timeoutMs);
        while (!m_ended) {
            if (deadline.hasExpired()) {
                ::kill(m_pid, SIGKILL);
                reap(true);
                fail(QStringLiteral("watchword-cli did not finish within %1 ms; the terminal "
                                    "showed [%2]")
                         .arg(timeoutMs)
                         .arg(QString::fromUtf8(m_shown)));
                break;
            }
            pump(deadline);
        }
        collectRemainingOutput();
        ended.outcome.out = readBytes(m_outPath);
        ended.outcome.err = readBytes(m_errPath);
        if (WIFEXITED(m_status))
            ended.outcome.exitCode = WEXITSTATUS(m_status);
        else if (WIFSIGNALED(m_status))
            ended.signal = WTERMSIG(m_status);
        ended.shown = m_shown;
        return ended;
    }

private:
    bool fail(const QString& message)
    {
        QTest::qFail(qPrintable(message), __FILE__, __LINE__);
        return false;
    }

    void reap(bool block)
    {
        if (m_ended || m_pid <= 0)
            return;
        int status = 0;
        pid_t got;
        do {
            got = ::waitpid(m_pid, &status, block ? 0 : WNOHANG);
        } while (got < 0 && errno == EINTR);
        if (got == m_pid) {
            m_status = status;
            m_ended = true;
        }
    }

    void readOnce()
    {
        char buffer[4096];
        const ssize_t got = ::read(m_master, buffer, sizeof buffer);
        if (got > 0)
            m_shown.append(buffer, got);
    }

    // Waits (until deadline at most) for output or for the CLI to end.
    void pump(const QDeadlineTimer& deadline)
    {
        pollfd watched[2] = {{m_master, POLLIN, 0}, {m_processDescriptor, POLLIN, 0}};
        const int count = m_processDescriptor >= 0 ? 2 : 1;
        int timeout = static_cast<int>(std::min<qint64>(deadline.remainingTime(), 60000));
        if (m_processDescriptor < 0)
            timeout = std::min(timeout, 20);
        if (m_master < 0)
            watched[0].fd = -1; // hung up: only the end of the CLI to wait for
        if (::poll(watched, count, std::max(timeout, 0)) > 0 && (watched[0].revents & POLLIN))
            readOnce();
        reap(false);
    }

    void collectAvailableOutput()
    {
        pollfd watched{m_master, POLLIN, 0};
        while (m_master >= 0 && ::poll(&watched, 1, 0) > 0 && (watched.revents & POLLIN))
            readOnce();
    }

    // After the CLI ended its last output may still be on its way through
    // the terminal: a marker written behind it, by the test's own descriptor
    // of the terminal, shows when everything has arrived.
    void collectRemainingOutput()
    {
        if (m_master < 0 || m_drained)
            return;
        m_drained = true;
        const QByteArray marker = "\001end of output " + QByteArray::number(m_pid) + '\001';
        if (::write(m_slave, marker.constData(), static_cast<std::size_t>(marker.size())) !=
            marker.size()) {
            collectAvailableOutput();
            return;
        }
        const QDeadlineTimer deadline(10000);
        while (!m_shown.contains(marker) && !deadline.hasExpired()) {
            pollfd watched{m_master, POLLIN, 0};
            if (::poll(&watched, 1, static_cast<int>(deadline.remainingTime())) > 0)
                readOnce();
        }
        const qsizetype at = m_shown.indexOf(marker);
        if (at < 0)
            fail(QStringLiteral("the terminal's output did not drain"));
        else
            m_shown.remove(at, marker.size());
    }

    QTemporaryDir m_files;
    QString m_outPath;
    QString m_errPath;
    int m_master = -1;
    int m_slave = -1; // kept open: settings() reads it, and the master never sees EIO
    int m_processDescriptor = -1;
    termios m_initialSettings{};
    pid_t m_pid = -1;
    bool m_ended = false;
    bool m_drained = false;
    int m_status = 0;
    QByteArray m_shown;
    qsizetype m_consumed = 0;
};

} // namespace watchword::test
