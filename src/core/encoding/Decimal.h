// Numbers as the reports and notes write them, never through the C locale (a
// Qt front end sets it from the environment).
#pragma once

#include <string>

namespace watchword::encoding {

// value in fixed notation with decimals digits after the point: "1234.50".
// "n/a" if it cannot be written (never for a finite double).
[[nodiscard]] std::string fixedNumber(double value, int decimals);

// value in fixed notation with decimals digits after the point and its whole
// part grouped in threes by commas: "19,231", "-1,234.50", "0.25". "inf" or
// "nan" for those values.
[[nodiscard]] std::string groupedNumber(double value, int decimals);

// The shortest text that reads back as the same double: "2", "0.25", "1e+300".
[[nodiscard]] std::string shortestNumber(double value);

} // namespace watchword::encoding
