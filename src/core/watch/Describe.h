// How watch figures are written, one way for the command line and the
// simulator pane: times as the reference notes write them, ranges, a
// display's technology and size, memory.
#pragma once

#include "watch/CostModel.h"
#include "watch/Device.h"

#include <string>

namespace watchword::watch {

// 0.35, 17.5, 52, 1,040: two decimals at most below 100 with trailing zeros
// dropped, whole numbers from 100, grouped by commas.
std::string timeText(double milliseconds);
// "0.35 ms".
std::string millisecondsText(double milliseconds);
// "1.8 - 7 ms", or one figure when both ends agree.
std::string spanText(const Span& milliseconds);
// "MIP, 64 colours", "AMOLED, full colour", "unknown".
std::string displayText(const Device& device);
// "260x260", "unknown".
std::string resolutionText(const Device& device);
// "512 KB", "unknown".
std::string memoryText(const Device& device);

} // namespace watchword::watch
