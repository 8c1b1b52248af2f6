// watchword-cli watch: the pieces its subcommands share (WatchCommand.cpp,
// WatchExportCommand.cpp).
#pragma once

#include "Arguments.h"
#include "watch/Device.h"

#include <optional>
#include <string>
#include <vector>

namespace watchword::cli {

// The profile with id deviceId, read from --devices-dir or else the default
// directory. nullopt once the reason is reported, with status set to the exit
// status: 2 for bad input (an unknown id, a bad --devices-dir), 1 if the
// installed profiles are missing or cannot be read.
std::optional<watch::Device> chooseDevice(const Arguments& arguments, const std::string& deviceId,
                                          int& status);

int runWatchExport(const std::vector<std::string>& args);

} // namespace watchword::cli
