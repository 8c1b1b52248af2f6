// The machine a run was measured on, for the line every report opens with:
// numbers without their machine mean nothing.
#pragma once

#include <string>

namespace watchword::perf {

struct MachineInfo
{
    std::string cpuModel; // /proc/cpuinfo "model name"
    unsigned logicalCpus = 0;
    bool shaNi = false; // x86 SHA extensions (CPUID leaf 7, EBX bit 29)
    bool aesNi = false; // CPUID leaf 1, ECX bit 25
    std::string os;     // /etc/os-release PRETTY_NAME
    std::string kernel; // uname -r
    std::string compiler;
    std::string buildType; // CMake's build type of watchword_core
    std::string openssl;   // the library running, not the headers
    std::string secp256k1; // pkg-config's version at build time (the library has no version call)
    std::string qt;        // empty where the front end has no Qt
    std::string harness;   // what timed the run, e.g. "Criterion-model runner, quick profile"
};

// Reads this machine. qtVersion is the front end's qVersion(), if any.
MachineInfo currentMachine(std::string qtVersion = {});

// One line: "CPU: ... (2 logical CPUs, SHA-NI, AES-NI) · OS: ... · compiler
// ... (Release) · OpenSSL ... · libsecp256k1 ... · Qt ..." (fields that are
// empty are left out).
std::string machineLine(const MachineInfo& machine);

} // namespace watchword::perf
