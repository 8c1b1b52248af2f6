#include "Secrets.h"

#include "encoding/DisplayText.h"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <iterator>
#include <optional>
#include <termios.h>
#include <unistd.h>

namespace watchword::cli {

namespace {

// Echo off on the terminal for as long as the object lives. A signal that
// ends the process meanwhile (Ctrl-C, Ctrl-\\, a hang-up, kill) must not
// leave the user's shell without echo: the handlers put the settings back,
// then let the signal do what it would have done.
class EchoOff
{
public:
    explicit EchoOff(int terminal)
    {
        if (::tcgetattr(terminal, &s_original) != 0)
            return;
        s_terminal = terminal;
        struct sigaction restore
        {};
        restore.sa_handler = &EchoOff::restoreAndReraise;
        sigemptyset(&restore.sa_mask);
        // A signal the caller ignores (nohup, a shell's background job)
        // stays ignored: it would not end the process, so nothing to restore.
        for (std::size_t i = 0; i < std::size(endingSignals); ++i) {
            ::sigaction(endingSignals[i], nullptr, &m_previous[i]);
            m_replaced[i] = m_previous[i].sa_handler != SIG_IGN;
            if (m_replaced[i])
                ::sigaction(endingSignals[i], &restore, nullptr);
        }
        termios silent = s_original;
        silent.c_lflag &= ~static_cast<tcflag_t>(ECHO);
        silent.c_lflag |= ECHONL;
        ::tcsetattr(terminal, TCSAFLUSH, &silent);
    }
    ~EchoOff()
    {
        if (s_terminal < 0)
            return;
        ::tcsetattr(s_terminal, TCSAFLUSH, &s_original);
        s_terminal = -1;
        for (std::size_t i = 0; i < std::size(endingSignals); ++i)
            if (m_replaced[i])
                ::sigaction(endingSignals[i], &m_previous[i], nullptr);
    }
    EchoOff(const EchoOff&) = delete;
    EchoOff& operator=(const EchoOff&) = delete;

private:
    static constexpr int endingSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

    // Async-signal-safe: tcsetattr, signal and raise are on the POSIX list.
    static void restoreAndReraise(int signal)
    {
        if (s_terminal >= 0)
            ::tcsetattr(s_terminal, TCSAFLUSH, &s_original);
        std::signal(signal, SIG_DFL);
        std::raise(signal);
    }

    static inline volatile std::sig_atomic_t s_terminal = -1;
    static inline termios s_original{};
    struct sigaction m_previous[std::size(endingSignals)]{};
    bool m_replaced[std::size(endingSignals)] = {};
};

} // namespace

Result<SecureBuffer, std::string> promptHidden(std::string_view prompt)
{
    const int terminal = ::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (terminal < 0)
        return fail(std::string("no terminal to ask for a secret on: use --password-stdin"));
    std::optional<EchoOff> echoOff(std::in_place, terminal);
    // The prompt may name a file: escaped like everything else shown.
    const std::string shown = encoding::escapeForTerminal(prompt);
    [[maybe_unused]] const ssize_t written = ::write(terminal, shown.data(), shown.size());
    constexpr std::size_t limit = 4096;
    SecureBuffer line(limit);
    std::size_t size = 0;
    bool ended = false;
    bool failed = false;
    bool endOfInput = false;
    while (!ended) {
        std::uint8_t byte = 0;
        const ssize_t got = ::read(terminal, &byte, 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            // Ctrl-D, a closed terminal: only Enter confirms a secret, so
            // whatever was typed before is dropped, not taken.
            endOfInput = true;
            ended = true;
        } else if (byte == '\n') {
            ended = true;
        } else if (size == limit) {
            failed = true;
            ended = true;
        } else {
            line[size++] = byte;
        }
    }
    echoOff.reset();
    if (endOfInput) // so the error starts on a line of its own
        [[maybe_unused]]
        const ssize_t newline = ::write(terminal, "\n", 1);
    ::close(terminal);
    if (endOfInput)
        return fail(std::string("end of input at the prompt: nothing was entered"));
    if (failed)
        return fail(std::string("the line typed is longer than 4096 bytes"));
    if (size > 0 && line[size - 1] == '\r')
        --size;
    line.truncate(size);
    return line;
}

} // namespace watchword::cli
