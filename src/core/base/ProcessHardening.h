// Keeps the secrets in this process's memory out of core files and away from
// other processes of the same user. Called first thing by the app and the CLI.
//
//   RLIMIT_CORE = 0 (soft and hard): no core file, whatever the shell's ulimit.
//   PR_SET_DUMPABLE = 0: no core file either (even through a core_pattern
//     pipe), and another process of the same user cannot ptrace this one or
//     read /proc/<pid>/mem; only root can.
//   SIGXFSZ ignored: a write past RLIMIT_FSIZE (ulimit -f) would otherwise
//     kill the process mid-save, with no message and its temp file left
//     behind; ignored, the write fails with EFBIG, which every save reports
//     ("no room") after removing its temp file.
//
// What it cannot do: keep the memory out of swap (that needs mlock of every
// secret buffer, which RLIMIT_MEMLOCK limits to a few pages for most users;
// docs/SECURITY.md says to use encrypted swap), or stop root.
#pragma once

#include <string>

namespace watchword {

// Applies the three settings. Returns an empty string on success, or what failed
// (the other setting is still applied); callers report it and go on.
[[nodiscard]] std::string hardenProcess();

} // namespace watchword
