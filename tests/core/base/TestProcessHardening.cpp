#include "base/ProcessHardening.h"

#include <QtTest>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace watchword;

class TestProcessHardening : public QObject
{
    Q_OBJECT

private slots:
    void noCoreFileAndNotDumpable();
};

void TestProcessHardening::noCoreFileAndNotDumpable()
{
    // In a child, so this test process keeps its own settings.
    const pid_t child = ::fork();
    QVERIFY(child >= 0);
    if (child == 0) {
        int status = 0;
        if (!hardenProcess().empty())
            status |= 1;
        rlimit core{};
        if (::getrlimit(RLIMIT_CORE, &core) != 0 || core.rlim_cur != 0 || core.rlim_max != 0)
            status |= 2;
        if (::prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0)
            status |= 4;
        // The hard limit cannot be raised again by an unprivileged process.
        const rlimit raised{RLIM_INFINITY, RLIM_INFINITY};
        if (::geteuid() != 0 && ::setrlimit(RLIMIT_CORE, &raised) == 0)
            status |= 8;
        ::_exit(status);
    }
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);
}

QTEST_GUILESS_MAIN(TestProcessHardening)
#include "TestProcessHardening.moc"
