#include "Arguments.h"

#include <algorithm>
#include <charconv>
#include <limits>

namespace watchword::cli {

Arguments Arguments::parse(const std::vector<std::string>& args,
                           const std::vector<OptionSpec>& specs)
{
    Arguments result;
    bool optionsEnded = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& word = args[i];
        if (optionsEnded || word.size() < 2 || word.compare(0, 2, "--") != 0 || word == "-") {
            result.m_positionals.push_back(word);
            continue;
        }
        if (word == "--") {
            optionsEnded = true;
            continue;
        }
        const auto equals = word.find('=');
        const std::string name =
            word.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
        const auto spec = std::find_if(specs.begin(), specs.end(),
                                       [&](const OptionSpec& s) { return s.name == name; });
        if (spec == specs.end()) {
            result.m_error = "unknown option --" + name;
            return result;
        }
        if (!spec->repeatable && result.m_options.contains(name)) {
            result.m_error = "option --" + name + " is given more than once";
            return result;
        }
        std::string value;
        if (spec->takesValue) {
            if (equals != std::string::npos) {
                value = word.substr(equals + 1);
            } else if (i + 1 < args.size() && args[i + 1].compare(0, 2, "--") != 0) {
                // "--secret --json" is a missing value, not the secret "--json";
                // a value that does start with "--" can be given as --name=value.
                value = args[++i];
            } else {
                result.m_error = "option --" + name + " needs a value";
                return result;
            }
        } else if (equals != std::string::npos) {
            result.m_error = "option --" + name + " takes no value";
            return result;
        }
        result.m_options[name].push_back(std::move(value));
    }
    return result;
}

std::optional<std::string> Arguments::value(std::string_view name) const
{
    const auto found = m_options.find(std::string(name));
    if (found == m_options.end())
        return std::nullopt;
    return found->second.front();
}

std::vector<std::string> Arguments::values(std::string_view name) const
{
    const auto found = m_options.find(std::string(name));
    return found == m_options.end() ? std::vector<std::string>{} : found->second;
}

std::optional<long long> parseInteger(std::string_view text, long long minimum, long long maximum)
{
    if (text.empty() || text.front() == '+')
        return std::nullopt;
    long long value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    if (value < minimum || value > maximum)
        return std::nullopt;
    return value;
}

Result<std::optional<std::int64_t>, std::string> parseAtOption(const Arguments& arguments)
{
    const auto text = arguments.value("at");
    if (!text)
        return std::optional<std::int64_t>{};
    const auto value = parseInteger(*text, 0, std::numeric_limits<std::int64_t>::max());
    if (!value)
        return fail("--at: '" + *text + "' is not a whole number of seconds since 1970 (>= 0)");
    return std::optional<std::int64_t>{*value};
}

} // namespace watchword::cli
