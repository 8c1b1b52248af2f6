// Fuzz target: watchword-cli's command-line parser (src/cli/Arguments.h),
// which reads what a script or a user types, and its whole-number parser.
// The input is split at NUL bytes into arguments, parsed against the
// options of `vault export` (flags and options with values).
//
// Properties besides not crashing:
//  1. A parse that succeeds knows only declared options, gives no flag a
//     value (a flag reads as ""), and reads the same when its result is
//     written back as "--flag" and "--name=value" options, "--" and the
//     positionals.
//  2. A parse that fails says why (a non-empty message).
//  3. parseInteger gives only values within its bounds, and reads back the
//     decimal text of any value it gave.
#include "../src/cli/Arguments.h"
#include "FuzzCheck.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace watchword::cli;
using watchword::fuzz::expect;

const std::vector<OptionSpec> specs = {{"to", true, true},  {"ids", true},
                                       {"force", false},    {"plaintext", false},
                                       {"target-ms", true}, {"password-stdin", false},
                                       {"wait", true},      {"json", false}};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> args;
    std::size_t start = 0;
    while (start <= input.size()) {
        const std::size_t end = std::min(input.find('\0', start), input.size());
        args.emplace_back(input.substr(start, end - start));
        start = end + 1;
    }

    const Arguments parsed = Arguments::parse(args, specs);
    if (!parsed.ok()) {
        expect(!parsed.error().empty(), "a parse failed without a message");
    } else {
        std::vector<std::string> rebuilt;
        for (const auto& spec : specs) {
            const auto value = parsed.value(spec.name);
            if (!parsed.has(spec.name)) {
                expect(!value.has_value(), "an option not given has a value");
                continue;
            }
            expect(value.has_value(), "an option given has no value");
            expect(spec.takesValue || value->empty(), "a flag has a value");
            const auto values = parsed.values(spec.name);
            expect(!values.empty() && values.front() == *value,
                   "value() is not the first of values()");
            expect(spec.repeatable || values.size() == 1, "an option that does not repeat did");
            for (const auto& each : values)
                rebuilt.push_back("--" + spec.name +
                                  (spec.takesValue ? "=" + each : std::string()));
        }
        rebuilt.emplace_back("--");
        for (const auto& positional : parsed.positionals())
            rebuilt.push_back(positional);
        const Arguments again = Arguments::parse(rebuilt, specs);
        expect(again.ok(), "the parse written back does not parse");
        expect(again.positionals() == parsed.positionals(), "positionals changed on reparse");
        for (const auto& spec : specs)
            expect(again.has(spec.name) == parsed.has(spec.name) &&
                       again.values(spec.name) == parsed.values(spec.name),
                   "an option changed on reparse");
    }

    for (const auto& arg : args) {
        for (const auto& [low, high] :
             {std::pair{0LL, 3600LL}, std::pair{-5LL, 5LL}, std::pair{1LL, 60000LL}}) {
            const auto value = parseInteger(arg, low, high);
            if (!value)
                continue;
            expect(*value >= low && *value <= high, "parseInteger went out of its bounds");
            expect(parseInteger(std::to_string(*value), low, high) == value,
                   "parseInteger does not read back its own value");
        }
    }
    return 0;
}
