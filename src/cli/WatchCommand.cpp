// watchword-cli watch: the Garmin device profiles and what the watch app's
// operations cost on each (src/core/watch; docs/WATCH.md).
#include "WatchCommand.h"

#include "Cli.h"
#include "encoding/Decimal.h"
#include "watch/CostModel.h"
#include "watch/Describe.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace watchword::cli {

namespace {

constexpr const char* usage = R"(usage: watchword-cli watch devices [--json] [--devices-dir DIR]
       watchword-cli watch estimate --device ID [--iterations N | --target-ms MS]
                                    [--accounts N] [--json] [--devices-dir DIR]
       watchword-cli watch export --device ID --vault FILE --out PAYLOAD
                                  [--account ID ...] [--iterations N] [--force]
                                  [--password-stdin] [--devices-dir DIR]

The watch companion's device profiles and cost model (docs/WATCH.md).

  devices            list the profiles: id, name, shape, resolution, display,
                     app memory, and whether the profile is verified
  estimate           the cost of each operation on the device: the reference
                     notes' simulator time, and the estimate (a slowdown
                     range) or the time measured on the watch; the unlock
                     time; the PBKDF2 count calibrated for the target, never
                     under the floor of 2,000 rounds; memory in percent

  --device ID        the device (see 'watch devices')
  --iterations N     time the unlock at N PBKDF2 rounds (1 to 500,000);
                     without it, at the count calibrated for the target on
                     the watch's slow end
  --target-ms MS     the unlock target for the calibration (1 to 60,000;
                     default 1,000)
  --accounts N       accounts in the export, for its estimated size (0 to
                     10,000; default 0: no export, the app alone)
  --json             one line of JSON instead of the table
  --devices-dir DIR  read the profiles from DIR instead of the installed ones

  export             the payload the watch app loads (docs/FORMAT.md section 8):
                     the vault's OTP accounts, or those given with --account
                     (record ids, repeatable), sealed under a watch PIN of 4 to
                     12 digits; --iterations (2,000 to 500,000) defaults to the
                     cost model's count for a 1 s unlock at the device's slow
                     end; --force replaces an existing PAYLOAD. The vault
                     password and the PIN twice come from hidden prompts, or
                     one per line from stdin with --password-stdin; exit
                     status 1 if the vault does not open (wrong password)
                     or PAYLOAD cannot be written

Profiles are read from --devices-dir, else from the source tree's
resources/devices if the build is not installed, else from the installed
share/watchword/devices. Exit status: 0 on success, 1 if the installed
profiles cannot be read, 2 on bad input.
)";

template <typename T> nlohmann::json optionalNumber(const std::optional<T>& value)
{
    return value ? nlohmann::json(static_cast<double>(*value)) : nlohmann::json(nullptr);
}

nlohmann::json optionalText(const std::optional<std::string>& value)
{
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// A reason, or null where there is none.
nlohmann::json textOrNull(const std::string& text)
{
    return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);
}

template <typename Enum, typename Namer>
std::optional<std::string> named(const std::optional<Enum>& value, Namer name)
{
    return value ? std::optional<std::string>(std::string(name(*value))) : std::nullopt;
}

struct Profiles
{
    std::vector<watch::Device> devices;
    std::string directory;
    std::string error;
    int status = exitOk;
};

Profiles loadProfiles(const Arguments& arguments)
{
    Profiles profiles;
    const auto given = arguments.value("devices-dir");
    if (given) {
        profiles.directory = *given;
    } else if (const auto found = watch::defaultDeviceDirectory()) {
        profiles.directory = *found;
    } else {
        std::string looked;
        for (const auto& directory : watch::deviceSearchPath())
            looked += (looked.empty() ? "" : ", ") + directory;
        profiles.error = "no device profiles: looked in " + looked + " (give --devices-dir)";
        profiles.status = exitFailure;
        return profiles;
    }
    auto loaded = watch::loadDevices(profiles.directory);
    if (!loaded) {
        profiles.error = loaded.error().message;
        // A bad directory given on the command line is bad input; a broken
        // installation is a failure.
        profiles.status = given ? exitUsage : exitFailure;
        return profiles;
    }
    profiles.devices = std::move(loaded).value();
    return profiles;
}

int runDevices(const std::vector<std::string>& args)
{
    const auto arguments = Arguments::parse(args, {{"json"}, {"devices-dir", true}});
    if (!arguments.ok())
        return reportError(arguments.error() + " (see watchword-cli watch --help)");
    if (!arguments.positionals().empty())
        return reportError("watch devices takes no arguments, got '" +
                           arguments.positionals().front() + "'");
    const auto profiles = loadProfiles(arguments);
    if (!profiles.error.empty())
        return reportError(profiles.error, profiles.status);

    if (arguments.has("json")) {
        auto list = nlohmann::json::array();
        for (const auto& device : profiles.devices) {
            auto unknown = nlohmann::json::array();
            for (const auto& field : device.unknownFields())
                unknown.push_back(field);
            list.push_back(nlohmann::json{
                {"id", device.id},
                {"name", device.name},
                {"verified", device.verified},
                {"source", device.source},
                {"shape", optionalText(named(device.display.shape, watch::shapeName))},
                {"width", optionalNumber(device.display.width)},
                {"height", optionalNumber(device.display.height)},
                {"technology",
                 optionalText(named(device.display.technology, watch::technologyName))},
                {"palette", optionalText(named(device.display.palette, watch::paletteName))},
                {"bitsPerPixel", optionalNumber(device.display.bitsPerPixel)},
                {"colours", optionalNumber(device.display.colours)},
                {"buttons", optionalNumber(device.input.buttons)},
                {"touch", device.input.touch ? nlohmann::json(*device.input.touch)
                                             : nlohmann::json(nullptr)},
                {"appBytes", optionalNumber(device.appBytes)},
                {"apiMin", optionalText(device.apiMin)},
                {"apiMax", optionalText(device.apiMax)},
                {"unknown", unknown}});
        }
        printJson({{"directory", profiles.directory}, {"devices", list}});
        return exitOk;
    }
    char line[256];
    std::snprintf(line, sizeof line, "%-10s %-18s %-13s %-10s %-20s %-8s %s", "id", "name", "shape",
                  "resolution", "display", "memory", "verified");
    printLine(line);
    for (const auto& device : profiles.devices) {
        const auto shape = named(device.display.shape, watch::shapeName).value_or("unknown");
        std::snprintf(line, sizeof line, "%-10s %-18s %-13s %-10s %-20s %-8s %s", device.id.c_str(),
                      device.name.c_str(), shape.c_str(), watch::resolutionText(device).c_str(),
                      watch::displayText(device).c_str(), watch::memoryText(device).c_str(),
                      device.verified ? "yes" : "no");
        printLine(line);
    }
    return exitOk;
}

nlohmann::json timingJson(const std::optional<watch::Timing>& timing)
{
    if (!timing)
        return nullptr;
    return {{"basis", basisName(timing->basis)},
            {"lowMs", timing->ms.low},
            {"highMs", timing->ms.high}};
}

nlohmann::json textList(const std::vector<std::string>& lines)
{
    auto list = nlohmann::json::array();
    for (const auto& text : lines)
        list.push_back(text);
    return list;
}

void printEstimateJson(const watch::Device& device, const watch::CostEstimate& result,
                       std::uint32_t accounts, const std::vector<std::string>& warnings)
{
    auto operations = nlohmann::json::array();
    for (const auto& cost : result.operations)
        operations.push_back(
            nlohmann::json{{"operation", operationKey(cost.operation)},
                           {"title", operationTitle(cost.operation)},
                           {"simulatorMs", cost.simulatorMs},
                           {"workClass", optionalText(named(cost.workClass, watch::workClassName))},
                           {"why", cost.why},
                           {"device", timingJson(cost.device)},
                           {"unavailable", textOrNull(cost.unavailable)}});
    const auto& calibration = result.calibration;
    const auto& memory = result.memory;
    printJson({{"device", device.id},
               {"name", device.name},
               {"verified", device.verified},
               {"operations", operations},
               {"unlock",
                {{"iterations", static_cast<double>(result.unlock.iterations)},
                 {"simulatorMs", result.unlock.simulatorMs},
                 {"device", timingJson(result.unlock.device)}}},
               {"calibration",
                {{"targetMs", static_cast<double>(calibration.targetMs)},
                 {"floor", static_cast<double>(watch::minimumIterations)},
                 {"simulator", static_cast<double>(calibration.simulator)},
                 {"deviceBasis", optionalText(named(calibration.deviceBasis, watch::basisName))},
                 {"deviceLow", calibration.deviceBasis
                                   ? nlohmann::json(static_cast<double>(calibration.deviceLow))
                                   : nlohmann::json(nullptr)},
                 {"deviceHigh", calibration.deviceBasis
                                    ? nlohmann::json(static_cast<double>(calibration.deviceHigh))
                                    : nlohmann::json(nullptr)},
                 {"floorApplied", calibration.floorApplied},
                 {"warnings", textList(calibration.warnings)}}},
               {"memory",
                {{"workingSetBytes", static_cast<double>(memory.workingSetBytes)},
                 {"payloadBytes", static_cast<double>(memory.payloadBytes)},
                 {"payloadEstimated", memory.payloadEstimated},
                 {"accounts", static_cast<double>(accounts)},
                 {"limitBytes", optionalNumber(memory.limitBytes)},
                 {"appPercent", optionalNumber(memory.appPercent)},
                 {"totalPercent", optionalNumber(memory.totalPercent)},
                 {"unavailable", textOrNull(memory.unavailable)},
                 {"warnings", textList(memory.warnings)}}},
               {"simulatorRoundsPerSecond", result.simulatorRoundsPerSecond},
               {"simulatorCalibrationRounds", result.simulatorCalibrationRounds},
               {"warnings", textList(warnings)},
               {"notes", textList(result.notes)}});
}

void printEstimateTable(const watch::Device& device, const watch::CostEstimate& result,
                        std::uint32_t accounts, const std::vector<std::string>& warnings)
{
    printLine(device.name + " (" + device.id + "), " +
              (device.verified ? "verified" : "NOT verified") + "; source: " + device.source);
    printLine("");
    char line[512];
    std::snprintf(line, sizeof line, "%-24s %11s  %-22s %-9s %s", "operation", "simulator",
                  "on the watch", "basis", "work");
    printLine(line);
    for (const auto& cost : result.operations) {
        const std::string watchTime = cost.device ? watch::spanText(cost.device->ms) : "unknown";
        const std::string basis = cost.device ? std::string(basisName(cost.device->basis)) : "-";
        const std::string work = cost.workClass
                                     ? std::string(workClassName(*cost.workClass)) + ": " + cost.why
                                     : cost.unavailable;
        std::snprintf(line, sizeof line, "%-24s %11s  %-22s %-9s %s",
                      std::string(operationTitle(cost.operation)).c_str(),
                      watch::millisecondsText(cost.simulatorMs).c_str(), watchTime.c_str(),
                      basis.c_str(), work.c_str());
        printLine(line);
    }
    printLine("");
    const auto& unlock = result.unlock;
    std::string text = "unlock at " + encoding::groupedNumber(unlock.iterations, 0) +
                       " PBKDF2 rounds: simulator " + watch::millisecondsText(unlock.simulatorMs);
    text += unlock.device ? "; on the watch " + watch::spanText(unlock.device->ms) + " (" +
                                std::string(basisName(unlock.device->basis)) + ")"
                          : "; on the watch unknown";
    printLine(text);
    const auto& calibration = result.calibration;
    text = "calibrated for " + encoding::groupedNumber(calibration.targetMs, 0) +
           " ms: simulator " + encoding::groupedNumber(calibration.simulator, 0) + " rounds";
    if (calibration.deviceBasis)
        text += "; on the watch " +
                (calibration.deviceLow == calibration.deviceHigh
                     ? encoding::groupedNumber(calibration.deviceLow, 0)
                     : encoding::groupedNumber(calibration.deviceLow, 0) + " - " +
                           encoding::groupedNumber(calibration.deviceHigh, 0)) +
                " rounds (" + std::string(basisName(*calibration.deviceBasis)) + ")";
    text += "; floor " + encoding::groupedNumber(watch::minimumIterations, 0) +
            (calibration.floorApplied ? " rounds, applied" : " rounds");
    printLine(text);
    const auto& memory = result.memory;
    text = "memory: working set " + encoding::groupedNumber(double(memory.workingSetBytes), 0) +
           " bytes";
    if (accounts == 0 && memory.payloadEstimated)
        text += ", no export";
    else
        text += " + payload " + encoding::groupedNumber(double(memory.payloadBytes), 0) +
                " bytes (" +
                (memory.payloadEstimated ? "estimate for " + std::to_string(accounts) + " accounts"
                                         : std::string("actual size")) +
                ")";
    if (memory.totalPercent)
        text += ": " + encoding::groupedNumber(*memory.totalPercent, 1) + " % of " +
                encoding::groupedNumber(double(*memory.limitBytes), 0) + " bytes (the app alone " +
                encoding::groupedNumber(*memory.appPercent, 1) + " %)";
    else
        text += ": percentage unknown (" + memory.unavailable + ")";
    printLine(text);
    for (const auto& warning : calibration.warnings)
        printLine("warning: " + warning);
    for (const auto& warning : memory.warnings)
        printLine("warning: " + warning);
    for (const auto& warning : warnings)
        printLine("warning: " + warning);
    for (const auto& note : result.notes)
        printLine("note: " + note);
}

} // namespace

std::optional<watch::Device> chooseDevice(const Arguments& arguments, const std::string& deviceId,
                                          int& status)
{
    auto profiles = loadProfiles(arguments);
    if (!profiles.error.empty()) {
        status = reportError(profiles.error, profiles.status);
        return std::nullopt;
    }
    for (auto& candidate : profiles.devices)
        if (candidate.id == deviceId)
            return std::move(candidate);
    status = reportError("no device '" + deviceId + "' in " + profiles.directory +
                         " (watchword-cli watch devices lists them)");
    return std::nullopt;
}

namespace {

int runEstimate(const std::vector<std::string>& args)
{
    const auto arguments = Arguments::parse(args, {{"device", true},
                                                   {"iterations", true},
                                                   {"target-ms", true},
                                                   {"accounts", true},
                                                   {"json"},
                                                   {"devices-dir", true}});
    if (!arguments.ok())
        return reportError(arguments.error() + " (see watchword-cli watch --help)");
    if (!arguments.positionals().empty())
        return reportError("watch estimate takes no arguments, got '" +
                           arguments.positionals().front() +
                           "' (the device is given with --device)");
    const auto id = arguments.value("device");
    if (!id)
        return reportError("watch estimate needs --device ID (watchword-cli watch devices lists "
                           "them)");
    if (arguments.has("iterations") && arguments.has("target-ms"))
        return reportError("--iterations and --target-ms exclude each other");

    std::optional<std::uint32_t> iterations;
    if (const auto value = arguments.value("iterations")) {
        const auto parsed = parseInteger(*value, 1, watch::maximumIterations);
        if (!parsed)
            return reportError("--iterations takes a whole number from 1 to 500,000, got '" +
                               *value + "'");
        iterations = static_cast<std::uint32_t>(*parsed);
    }
    std::uint32_t targetMs = watch::defaultWatchTargetMilliseconds;
    if (const auto value = arguments.value("target-ms")) {
        const auto parsed = parseInteger(*value, 1, 60'000);
        if (!parsed)
            return reportError("--target-ms takes a whole number of milliseconds from 1 to "
                               "60,000, got '" +
                               *value + "'");
        targetMs = static_cast<std::uint32_t>(*parsed);
    }
    std::uint32_t accounts = 0;
    if (const auto value = arguments.value("accounts")) {
        const auto parsed = parseInteger(*value, 0, 10'000);
        if (!parsed)
            return reportError("--accounts takes a whole number from 0 to 10,000, got '" + *value +
                               "'");
        accounts = static_cast<std::uint32_t>(*parsed);
    }

    int status = exitOk;
    const auto device = chooseDevice(arguments, *id, status);
    if (!device)
        return status;

    std::vector<std::string> warnings;
    if (iterations && *iterations < watch::minimumIterations)
        warnings.push_back(
            encoding::groupedNumber(*iterations, 0) + " rounds is under the floor of " +
            encoding::groupedNumber(watch::minimumIterations, 0) + " that a watch export keeps");
    const auto result = watch::estimate(*device, iterations, targetMs, accounts);
    if (arguments.has("json"))
        printEstimateJson(*device, result, accounts, warnings);
    else
        printEstimateTable(*device, result, accounts, warnings);
    return exitOk;
}

} // namespace

int runWatch(const std::vector<std::string>& args)
{
    static const Subcommand subcommands[] = {
        {"devices", runDevices},
        {"estimate", runEstimate},
        {"export", runWatchExport},
    };
    return runSubcommand("watch", subcommands, usage, args);
}

} // namespace watchword::cli
