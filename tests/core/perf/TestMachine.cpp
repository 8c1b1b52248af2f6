// The machine a run was measured on: the fields this Linux machine must
// have, the CPU flags checked against the kernel's own list, and the line
// every report opens with.
#include "perf/Machine.h"

#include <QFile>
#include <QRegularExpression>
#include <QtTest>

using namespace watchword::perf;

namespace {

// The kernel's CPU flags, from the first "flags" line of /proc/cpuinfo;
// empty where there is none (not x86).
QStringList kernelFlags()
{
    QFile file("/proc/cpuinfo");
    if (!file.open(QIODevice::ReadOnly))
        return {};
    // Read whole: /proc files report a size of 0, so atEnd() is true at once.
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n');
    for (const QString& line : lines)
        if (line.startsWith("flags"))
            return line.section(':', 1).split(' ', Qt::SkipEmptyParts);
    return {};
}

} // namespace

class TestMachine : public QObject
{
    Q_OBJECT

private slots:
    void thisMachine()
    {
        const MachineInfo machine = currentMachine("6.4.2");
        QVERIFY(!machine.cpuModel.empty());
        QVERIFY(machine.logicalCpus > 0);
        QVERIFY(!machine.os.empty());
        QVERIFY(!machine.kernel.empty());
        QVERIFY2(machine.compiler.starts_with("GCC ") || machine.compiler.starts_with("Clang "),
                 machine.compiler.c_str());
        QVERIFY(!machine.buildType.empty());
        // The library's version, "3.0.x" on Debian 12.
        QVERIFY2(QRegularExpression("^3\\.\\d+\\.\\d+")
                     .match(QString::fromStdString(machine.openssl))
                     .hasMatch(),
                 machine.openssl.c_str());
        QVERIFY2(QRegularExpression("^\\d+\\.\\d+\\.\\d+$")
                     .match(QString::fromStdString(machine.secp256k1))
                     .hasMatch(),
                 machine.secp256k1.c_str());
        QCOMPARE(machine.qt, std::string("6.4.2"));
        QVERIFY(currentMachine().qt.empty());

        const std::string line = machineLine(machine);
        for (const std::string& field :
             {machine.cpuModel, machine.os, machine.kernel, machine.compiler, machine.buildType,
              machine.openssl, machine.secp256k1})
            QVERIFY2(line.find(field) != std::string::npos, (field + " not in " + line).c_str());
        QVERIFY(line.find("Qt 6.4.2") != std::string::npos);
        QVERIFY(line.find('\n') == std::string::npos);
    }

    void cpuFlagsAgreeWithTheKernel()
    {
        const QStringList flags = kernelFlags();
        if (flags.isEmpty())
            QSKIP("no CPU flags in /proc/cpuinfo");
        const MachineInfo machine = currentMachine();
        QCOMPARE(machine.shaNi, flags.contains("sha_ni"));
        QCOMPARE(machine.aesNi, flags.contains("aes"));
    }

    void line()
    {
        MachineInfo machine;
        machine.cpuModel = "Example CPU 3000";
        machine.logicalCpus = 2;
        machine.shaNi = true;
        machine.aesNi = true;
        machine.os = "Debian GNU/Linux 12 (bookworm)";
        machine.kernel = "6.1.0-18-amd64";
        machine.compiler = "GCC 12.2.0";
        machine.buildType = "Release";
        machine.openssl = "3.0.17";
        machine.secp256k1 = "0.2.0";
        machine.qt = "6.4.2";
        machine.harness = "Criterion-model runner, quick profile";
        QCOMPARE(QString::fromStdString(machineLine(machine)),
                 QString("CPU: Example CPU 3000 (2 logical CPUs, SHA-NI, AES-NI) · OS: Debian "
                         "GNU/Linux 12 (bookworm), Linux 6.1.0-18-amd64 · compiler GCC 12.2.0 "
                         "(Release) · OpenSSL 3.0.17 · libsecp256k1 0.2.0 · Qt 6.4.2 · "
                         "Criterion-model runner, quick profile"));

        // Empty fields are left out; the CPU flags are said either way.
        MachineInfo sparse;
        sparse.logicalCpus = 1;
        sparse.aesNi = true;
        sparse.openssl = "3.0.17";
        QCOMPARE(QString::fromStdString(machineLine(sparse)),
                 QString("CPU: unknown (1 logical CPU, no SHA-NI, AES-NI) · OpenSSL 3.0.17"));
    }
};

QTEST_GUILESS_MAIN(TestMachine)
#include "TestMachine.moc"
