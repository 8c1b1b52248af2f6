#include "base/ProcessHardening.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/prctl.h>
#include <sys/resource.h>

namespace watchword {

std::string hardenProcess()
{
    std::string failed;
    const rlimit noCore{0, 0};
    if (::setrlimit(RLIMIT_CORE, &noCore) != 0)
        failed = std::string("setrlimit(RLIMIT_CORE): ") + std::strerror(errno);
    if (::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
        if (!failed.empty())
            failed += "; ";
        failed += std::string("prctl(PR_SET_DUMPABLE): ") + std::strerror(errno);
    }
    std::signal(SIGXFSZ, SIG_IGN);
    return failed;
}

} // namespace watchword
