#include "JsonText.h"

#include "base/SecureBuffer.h"
#include "encoding/Decimal.h"
#include "encoding/Utf8.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

namespace watchword::cli {

namespace {

void appendText(std::string& out, std::string_view text)
{
    constexpr std::string_view byteOrderMark = "\xef\xbb\xbf";
    if (text.starts_with(byteOrderMark))
        text.remove_prefix(byteOrderMark.size());
    nlohmann::json value = encoding::withValidUtf8(text);
    std::string quoted = value.dump();
    out += quoted;
    // The text may be a secret (a new recovery phrase): wipe the copies made.
    auto& valid = value.get_ref<std::string&>();
    secureWipe(valid.data(), valid.size());
    secureWipe(quoted.data(), quoted.size());
}

std::string numberText(double value)
{
    constexpr double exactIntegers = 9007199254740992.0; // 2^53
    if (!std::isfinite(value))
        return "null";
    if (std::abs(value) <= exactIntegers && std::trunc(value) == value)
        return std::to_string(static_cast<std::int64_t>(value));
    std::string text = encoding::shortestNumber(value);
    if (std::abs(value) <= exactIntegers || text.find('e') != std::string::npos)
        return text;
    // A whole number past 2^53 in fixed notation, where std::to_chars writes
    // every digit of its exact value: its shortest digits, then zeros.
    std::array<char, 32> buffer{};
    const auto written = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                       std::chars_format::scientific);
    const std::string_view scientific(buffer.data(), written.ptr);
    const std::size_t e = scientific.find('e'); // "-d.ddde+XX": the exponent is positive
    std::size_t exponent = 0;
    std::from_chars(scientific.data() + e + 2, written.ptr, exponent);
    std::string digits;
    for (const char c : scientific.substr(0, e))
        if (c != '.')
            digits += c;
    const std::size_t sign = value < 0 ? 1 : 0;
    digits.append(sign + exponent + 1 - digits.size(), '0');
    return digits;
}

void appendJson(std::string& out, const nlohmann::json& value)
{
    switch (value.type()) {
    case nlohmann::json::value_t::object:
        out += '{';
        for (auto member = value.begin(); member != value.end(); ++member) {
            if (member != value.begin())
                out += ',';
            appendText(out, member.key());
            out += ':';
            appendJson(out, member.value());
        }
        out += '}';
        break;
    case nlohmann::json::value_t::array:
        out += '[';
        for (auto item = value.begin(); item != value.end(); ++item) {
            if (item != value.begin())
                out += ',';
            appendJson(out, *item);
        }
        out += ']';
        break;
    case nlohmann::json::value_t::string:
        appendText(out, value.get_ref<const std::string&>());
        break;
    case nlohmann::json::value_t::number_float:
        out += numberText(value.get<double>());
        break;
    default: // null, booleans, integers
        out += value.dump();
        break;
    }
}

} // namespace

std::string compactJson(const nlohmann::json& value)
{
    std::string out;
    // Room for the documents that carry a secret (keychain new: a few hundred
    // bytes), so that growing leaves no copy of it behind.
    out.reserve(4096);
    appendJson(out, value);
    return out;
}

} // namespace watchword::cli
