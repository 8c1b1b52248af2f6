// A small, strict command-line parser: every option is declared, every
// mistake gets its own one-line message, and nothing is guessed.
#pragma once

#include "base/Result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::cli {

struct OptionSpec
{
    std::string name; // without the leading "--"
    bool takesValue = false;
    bool repeatable = false; // may be given more than once (values() has them all)
};

class Arguments
{
public:
    // Parses args (the words after the command) against specs. Options may be
    // given as "--name value" or "--name=value"; "--" ends the options. An
    // unknown option, a missing value, a value given to a flag and a repeated
    // option are errors. In the "--name value" form a value may not start
    // with "--" (that is the next option: the value is missing).
    static Arguments parse(const std::vector<std::string>& args,
                           const std::vector<OptionSpec>& specs);

    bool ok() const { return m_error.empty(); }
    const std::string& error() const { return m_error; }

    bool has(std::string_view name) const { return m_options.contains(std::string(name)); }
    // The value given (the first, for a repeatable option).
    std::optional<std::string> value(std::string_view name) const;
    // Every value given, in order (a repeatable option's; one for any other).
    std::vector<std::string> values(std::string_view name) const;
    const std::vector<std::string>& positionals() const { return m_positionals; }

private:
    std::map<std::string, std::vector<std::string>> m_options;
    std::vector<std::string> m_positionals;
    std::string m_error;
};

// Strict whole-number parsing for option values: optional '-' (if allowed),
// digits only, no overflow. nullopt on anything else.
std::optional<long long> parseInteger(std::string_view text, long long minimum, long long maximum);

// --at UNIX_SECONDS, the moment codes are computed for: nullopt if not given;
// the error message if it is not a whole number of seconds since 1970.
Result<std::optional<std::int64_t>, std::string> parseAtOption(const Arguments& arguments);

} // namespace watchword::cli
