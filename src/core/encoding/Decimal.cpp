#include "encoding/Decimal.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <string_view>
#include <system_error>

namespace watchword::encoding {

std::string fixedNumber(double value, int decimals)
{
    // Room for any double in fixed notation (DBL_MAX has 309 digits).
    std::array<char, 512> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                      std::chars_format::fixed, decimals);
    if (result.ec != std::errc())
        return "n/a";
    return std::string(buffer.data(), result.ptr);
}

std::string groupedNumber(double value, int decimals)
{
    const std::string fixed = fixedNumber(value, decimals);
    if (fixed == "n/a")
        return fixed;
    const std::string_view digits = fixed;
    const std::size_t sign = digits.starts_with('-') ? 1 : 0;
    const std::size_t whole = std::min(digits.find('.'), digits.size()) - sign;
    std::string out(digits.substr(0, sign));
    for (std::size_t i = 0; i < whole; ++i) {
        if (i != 0 && (whole - i) % 3 == 0)
            out.push_back(',');
        out.push_back(digits[sign + i]);
    }
    out.append(digits.substr(sign + whole));
    return out;
}

std::string shortestNumber(double value)
{
    std::array<char, 64> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    return std::string(buffer.data(), result.ptr);
}

} // namespace watchword::encoding
