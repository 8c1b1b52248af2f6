#include "perf/Machine.h"

#include <fstream>
#include <openssl/crypto.h>
#include <string_view>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define WATCHWORD_HAVE_CPUID 1
#endif

// Set on this file only by src/core/perf/CMakeLists.txt; a build without them
// still compiles, with the fields left empty.
#ifndef WATCHWORD_BUILD_TYPE
#define WATCHWORD_BUILD_TYPE ""
#endif
#ifndef WATCHWORD_SECP256K1_VERSION
#define WATCHWORD_SECP256K1_VERSION ""
#endif

namespace watchword::perf {

namespace {

std::string trimmed(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return std::string(text.substr(first, last - first + 1));
}

// Runs of white space to one space: CPU brand strings pad with blanks.
std::string collapsed(std::string_view text)
{
    std::string out;
    bool space = false;
    for (const char c : text) {
        if (c == ' ' || c == '\t') {
            space = true;
            continue;
        }
        if (space && !out.empty())
            out += ' ';
        space = false;
        out += c;
    }
    return out;
}

// The value of the first "key : value" line of /proc/cpuinfo with that key.
std::string cpuinfoField(const std::string& key)
{
    std::ifstream file("/proc/cpuinfo");
    std::string line;
    // /proc/cpuinfo of a big machine is long but finite; stop at the first hit.
    while (std::getline(file, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        if (trimmed(std::string_view(line).substr(0, colon)) == key)
            return collapsed(trimmed(std::string_view(line).substr(colon + 1)));
    }
    return {};
}

// os-release values may be quoted with shell quoting; only the forms the
// specification allows (double or single quotes, backslash escapes in
// double quotes) are undone.
std::string unquoted(std::string_view value)
{
    if (value.size() >= 2 && value.front() == '\'' && value.back() == '\'')
        return std::string(value.substr(1, value.size() - 2));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
        std::string out;
        const std::string_view inner = value.substr(1, value.size() - 2);
        for (std::size_t i = 0; i < inner.size(); ++i) {
            if (inner[i] == '\\' && i + 1 < inner.size())
                ++i;
            out += inner[i];
        }
        return out;
    }
    return std::string(value);
}

std::string osReleaseName()
{
    for (const char* path : {"/etc/os-release", "/usr/lib/os-release"}) {
        std::ifstream file(path);
        if (!file)
            continue;
        std::string line;
        while (std::getline(file, line)) {
            if (line.starts_with("PRETTY_NAME="))
                return trimmed(unquoted(trimmed(std::string_view(line).substr(12))));
        }
    }
    return {};
}

#ifdef WATCHWORD_HAVE_CPUID
// The brand string from CPUID leaves 0x80000002..4, for machines whose
// /proc/cpuinfo has no "model name" (containers that hide it).
std::string cpuidBrand()
{
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) || eax < 0x80000004u)
        return {};
    std::string brand;
    for (unsigned leaf = 0x80000002u; leaf <= 0x80000004u; ++leaf) {
        unsigned registers[4] = {};
        __get_cpuid(leaf, &registers[0], &registers[1], &registers[2], &registers[3]);
        for (const unsigned value : registers)
            for (int shift = 0; shift < 32; shift += 8)
                if (const char c = static_cast<char>((value >> shift) & 0xffu); c != '\0')
                    brand += c;
    }
    return collapsed(trimmed(brand));
}
#endif

std::string compilerName()
{
#if defined(__clang__)
    return "Clang " + trimmed(__clang_version__);
#elif defined(__GNUC__)
    return "GCC " + trimmed(__VERSION__);
#else
    return trimmed(__VERSION__);
#endif
}

} // namespace

MachineInfo currentMachine(std::string qtVersion)
{
    MachineInfo machine;
    machine.cpuModel = cpuinfoField("model name");
#ifdef WATCHWORD_HAVE_CPUID
    if (machine.cpuModel.empty())
        machine.cpuModel = cpuidBrand();
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx))
        machine.aesNi = (ecx & (1u << 25)) != 0;
    if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
        machine.shaNi = (ebx & (1u << 29)) != 0;
#else
    if (machine.cpuModel.empty())
        machine.cpuModel = cpuinfoField("Model"); // ARM boards
#endif
    const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
    machine.logicalCpus =
        online > 0 ? static_cast<unsigned>(online) : std::thread::hardware_concurrency();

    machine.os = osReleaseName();
    struct utsname names
    {};
    if (::uname(&names) == 0) {
        machine.kernel = names.release;
        if (machine.os.empty())
            machine.os = names.sysname;
    }
    machine.compiler = compilerName();
    machine.buildType = WATCHWORD_BUILD_TYPE;
    // The version string of the library loaded, which may be newer than the
    // headers we were compiled with.
    if (const char* version = OpenSSL_version(OPENSSL_VERSION_STRING))
        machine.openssl = version;
    machine.secp256k1 = WATCHWORD_SECP256K1_VERSION;
    machine.qt = std::move(qtVersion);
    return machine;
}

std::string machineLine(const MachineInfo& machine)
{
    std::vector<std::string> parts;
    {
        std::string cpu = "CPU: " + (machine.cpuModel.empty() ? "unknown" : machine.cpuModel);
        std::string details;
        if (machine.logicalCpus > 0)
            details = std::to_string(machine.logicalCpus) +
                      (machine.logicalCpus == 1 ? " logical CPU" : " logical CPUs") + ", ";
        details += machine.shaNi ? "SHA-NI" : "no SHA-NI";
        details += machine.aesNi ? ", AES-NI" : ", no AES-NI";
        parts.push_back(cpu + " (" + details + ")");
    }
    if (!machine.os.empty() || !machine.kernel.empty()) {
        std::string os = "OS: " + machine.os;
        if (!machine.kernel.empty())
            os += (machine.os.empty() ? "Linux " : ", Linux ") + machine.kernel;
        parts.push_back(os);
    }
    if (!machine.compiler.empty() || !machine.buildType.empty()) {
        std::string compiler =
            "compiler " + (machine.compiler.empty() ? "unknown" : machine.compiler);
        if (!machine.buildType.empty())
            compiler += " (" + machine.buildType + ")";
        parts.push_back(compiler);
    }
    if (!machine.openssl.empty())
        parts.push_back("OpenSSL " + machine.openssl);
    if (!machine.secp256k1.empty())
        parts.push_back("libsecp256k1 " + machine.secp256k1);
    if (!machine.qt.empty())
        parts.push_back("Qt " + machine.qt);
    if (!machine.harness.empty())
        parts.push_back(machine.harness);

    std::string line;
    for (const auto& part : parts) {
        if (!line.empty())
            line += " · ";
        line += part;
    }
    return line;
}

} // namespace watchword::perf
