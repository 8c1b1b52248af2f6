// The HTML report's style sheet: resources/report/report.css, compiled in at
// build time (src/core/perf/CMakeLists.txt), so the file stays the one source.
#pragma once

#include <string_view>

namespace watchword::perf::detail {

std::string_view reportStyleSheet() noexcept;

} // namespace watchword::perf::detail
