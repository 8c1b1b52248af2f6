#include "watch/Device.h"

#include "watch/StrictJson.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>

namespace watchword::watch {

namespace {

using Json = nlohmann::json;

// The names a profile spells each enumerator with, in the enum's order: one
// list for parsing and for the *Name() functions.
constexpr std::array<std::string_view, 3> shapeNames = {"round", "semi-octagon", "rectangle"};
constexpr std::array<std::string_view, 3> technologyNames = {"mip", "amoled", "lcd"};
constexpr std::array<std::string_view, 4> paletteNames = {"mip64", "mip16", "mono", "full"};
constexpr std::array<std::string_view, allOperations.size()> operationKeys = {
    "totp-sha1", "totp-sha256", "totp-sha512", "pbkdf2-1000", "seal-open", "self-test"};

static_assert(shapeNames.size() == static_cast<std::size_t>(Shape::Rectangle) + 1);
static_assert(technologyNames.size() == static_cast<std::size_t>(Technology::Lcd) + 1);
static_assert(paletteNames.size() == static_cast<std::size_t>(Palette::Full) + 1);
static_assert(operationKeys.size() == static_cast<std::size_t>(Operation::SelfTest) + 1);

template <typename Enum, std::size_t N>
std::string_view nameIn(const std::array<std::string_view, N>& names, Enum value)
{
    const auto index = static_cast<std::size_t>(value);
    return index < N ? names[index] : "?";
}

// A field that failed its check: where and why. Thrown inside this file
// only, caught at parseDevice's boundary.
struct FieldError
{
    std::string path;
    std::string message;
};

std::string shown(const Json& value)
{
    std::string text = value.dump();
    if (text.size() > 40)
        text = text.substr(0, 37) + "...";
    return text;
}

std::string join(const std::string& parent, std::string_view key)
{
    return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

// One JSON object whose keys are checked against a list: a key it does not
// know is an error (a misspelt "bitsPerPixle" must not pass as absent).
class Object
{
public:
    Object(const Json& value, std::string path, std::initializer_list<std::string_view> keys)
        : Object(value, std::move(path),
                 std::span<const std::string_view>(keys.begin(), keys.size()))
    {}
    Object(const Json& value, std::string path, std::span<const std::string_view> keys)
        : m_value(value), m_path(std::move(path))
    {
        if (!value.is_object())
            throw FieldError{m_path.empty() ? "(top level)" : m_path,
                             "must be an object, got " + shown(value)};
        for (const auto& [key, item] : value.items())
            if (std::find(keys.begin(), keys.end(), key) == keys.end())
                throw FieldError{join(m_path, key), "unknown field"};
    }

    const std::string& path() const { return m_path; }
    std::string pathOf(std::string_view key) const { return join(m_path, key); }
    bool has(std::string_view key) const { return m_value.contains(std::string(key)); }

    const Json& required(std::string_view key) const
    {
        const auto found = m_value.find(std::string(key));
        if (found == m_value.end())
            throw FieldError{pathOf(key), "missing"};
        return *found;
    }

    std::string string(std::string_view key, std::size_t maxLength) const
    {
        const Json& value = required(key);
        if (!value.is_string() || value.get<std::string>().empty())
            throw FieldError{pathOf(key), "must be a non-empty string, got " + shown(value)};
        auto text = value.get<std::string>();
        if (text.size() > maxLength)
            throw FieldError{pathOf(key),
                             "must be at most " + std::to_string(maxLength) + " characters"};
        return text;
    }

    bool boolean(std::string_view key) const
    {
        const Json& value = required(key);
        if (!value.is_boolean())
            throw FieldError{pathOf(key), "must be true or false, got " + shown(value)};
        return value.get<bool>();
    }

    std::optional<bool> nullableBoolean(std::string_view key) const
    {
        const Json& value = required(key);
        if (value.is_null())
            return std::nullopt;
        if (!value.is_boolean())
            throw FieldError{pathOf(key), "must be true, false or null, got " + shown(value)};
        return value.get<bool>();
    }

    // A whole number in [minimum, maximum]; null (unknown) if nullable.
    std::optional<long long> integer(std::string_view key, long long minimum, long long maximum,
                                     bool nullable, std::string_view unit = {}) const
    {
        const Json& value = required(key);
        if (value.is_null() && nullable)
            return std::nullopt;
        const std::string kind = std::string(minimum >= 1 ? "a positive integer" : "an integer") +
                                 (nullable ? " or null" : "");
        if (!value.is_number_integer() || (minimum >= 1 && !value.is_number_unsigned()) ||
            (minimum >= 1 && value.get<unsigned long long>() == 0))
            throw FieldError{pathOf(key), "must be " + kind + ", got " + shown(value)};
        const std::string range =
            "must be from " + std::to_string(minimum) + " to " + std::to_string(maximum) +
            (unit.empty() ? "" : " " + std::string(unit)) + ", got " + shown(value);
        if (value.is_number_unsigned() &&
            value.get<unsigned long long>() > static_cast<unsigned long long>(maximum))
            throw FieldError{pathOf(key), range};
        const long long number = value.get<long long>();
        if (number < minimum || number > maximum)
            throw FieldError{pathOf(key), range};
        return number;
    }

    // integer() as T: required, or null (unknown) allowed.
    template <typename T>
    T integerAs(std::string_view key, long long minimum, long long maximum,
                std::string_view unit = {}) const
    {
        return static_cast<T>(*integer(key, minimum, maximum, false, unit));
    }
    template <typename T>
    std::optional<T> nullableInteger(std::string_view key, long long minimum, long long maximum,
                                     std::string_view unit = {}) const
    {
        const auto number = integer(key, minimum, maximum, true, unit);
        return number ? std::optional<T>(static_cast<T>(*number)) : std::nullopt;
    }

    // A finite number in (0, maximum].
    double positive(std::string_view key, double maximum) const
    {
        const Json& value = required(key);
        if (!value.is_number() || !(value.get<double>() > 0) || !std::isfinite(value.get<double>()))
            throw FieldError{pathOf(key), "must be a number above 0, got " + shown(value)};
        if (value.get<double>() > maximum)
            throw FieldError{pathOf(key),
                             "must be at most " + shown(Json(maximum)) + ", got " + shown(value)};
        return value.get<double>();
    }

    // One of names (its index), or nullopt for null if nullable.
    template <typename Enum, std::size_t N>
    std::optional<Enum> choice(std::string_view key, const std::array<std::string_view, N>& names,
                               std::string_view what, bool nullable) const
    {
        const Json& value = required(key);
        if (value.is_null() && nullable)
            return std::nullopt;
        std::string list;
        std::size_t i = 0;
        for (const auto name : names) {
            if (i != 0)
                list += i + 1 == names.size() ? " or " : ", ";
            list += name;
            ++i;
        }
        if (!value.is_string())
            throw FieldError{pathOf(key), "must be " + list + (nullable ? " or null" : "") +
                                              ", got " + shown(value)};
        const auto text = value.get<std::string>();
        const auto found = std::find(names.begin(), names.end(), text);
        if (found == names.end())
            throw FieldError{pathOf(key),
                             "unknown " + std::string(what) + " '" + text + "' (" + list + ")"};
        return static_cast<Enum>(found - names.begin());
    }

private:
    const Json& m_value;
    std::string m_path;
};

// Connect IQ API levels as the SDK writes them: "4.1.2".
bool isApiLevel(const std::string& text)
{
    int parts = 0;
    std::size_t digits = 0;
    for (const char c : text) {
        if (c >= '0' && c <= '9') {
            if (++digits > 3)
                return false;
        } else if (c == '.' && digits > 0) {
            ++parts;
            digits = 0;
        } else {
            return false;
        }
    }
    return digits > 0 && parts == 2;
}

std::array<int, 3> apiParts(const std::string& text)
{
    std::array<int, 3> parts{};
    std::istringstream in(text);
    char dot = 0;
    in >> parts[0] >> dot >> parts[1] >> dot >> parts[2];
    return parts;
}

std::map<Operation, double> operationTimes(const Object& parent, std::string_view key, bool all)
{
    const Object block(parent.required(key), parent.pathOf(key), operationKeys);
    std::map<Operation, double> times;
    for (const auto operation : allOperations) {
        const auto name = operationKey(operation);
        if (!all && !block.has(name))
            continue;
        // An hour per call is far beyond any watch: a typo, not a measurement.
        times[operation] = block.positive(name, 3'600'000);
    }
    return times;
}

Factor factor(const Object& parent, std::string_view key)
{
    const Object block(parent.required(key), parent.pathOf(key), {"low", "high"});
    Factor result{block.positive("low", 10'000), block.positive("high", 10'000)};
    if (result.low < 1)
        throw FieldError{block.pathOf("low"), "a slowdown is at least 1 (the simulator's speed)"};
    if (result.high < result.low)
        throw FieldError{block.pathOf("high"), "must not be below low"};
    return result;
}

Display display(const Object& top)
{
    const Object block(top.required("display"), "display",
                       {"shape", "width", "height", "technology", "palette", "bitsPerPixel",
                        "colours", "subscreen"});
    Display result;
    result.shape = block.choice<Shape>("shape", shapeNames, "shape", true);
    result.width = block.nullableInteger<int>("width", 16, 2048, "pixels");
    result.height = block.nullableInteger<int>("height", 16, 2048, "pixels");
    if (result.shape == Shape::Round && result.width && result.height &&
        *result.width != *result.height)
        throw FieldError{block.pathOf("height"), "a round display is as high as it is wide (" +
                                                     std::to_string(*result.width) + "), got " +
                                                     std::to_string(*result.height)};
    result.technology =
        block.choice<Technology>("technology", technologyNames, "display technology", true);
    result.palette = block.choice<Palette>("palette", paletteNames, "palette", true);
    result.bitsPerPixel = block.nullableInteger<int>("bitsPerPixel", 1, 32);
    result.colours = block.nullableInteger<std::uint32_t>("colours", 2, 1LL << 24);

    if (result.palette && result.technology) {
        const bool mipPalette = *result.palette != Palette::Full;
        if (mipPalette != (*result.technology == Technology::Mip))
            throw FieldError{block.pathOf("palette"),
                             "'" + std::string(paletteName(*result.palette)) +
                                 "' does not go with a " +
                                 std::string(technologyName(*result.technology)) + " display"};
    }
    if (result.palette && result.colours) {
        std::optional<std::uint32_t> size;
        if (*result.palette == Palette::Mip64)
            size = 64;
        else if (*result.palette == Palette::Mip16)
            size = 16;
        else if (*result.palette == Palette::Mono)
            size = 2;
        if (size && *size != *result.colours)
            throw FieldError{block.pathOf("colours"),
                             "palette '" + std::string(paletteName(*result.palette)) + "' has " +
                                 std::to_string(*size) + " colours, got " +
                                 std::to_string(*result.colours)};
    }
    if (result.bitsPerPixel && result.colours && *result.bitsPerPixel < 25 &&
        (1U << *result.bitsPerPixel) != *result.colours)
        throw FieldError{block.pathOf("colours"), "must be 2^bitsPerPixel (" +
                                                      std::to_string(1U << *result.bitsPerPixel) +
                                                      "), got " + std::to_string(*result.colours)};

    const bool semiOctagon = result.shape == Shape::SemiOctagon;
    const Json* subscreen =
        block.has("subscreen") ? &block.required("subscreen") : static_cast<const Json*>(nullptr);
    if (subscreen && !subscreen->is_null()) {
        if (!semiOctagon)
            throw FieldError{block.pathOf("subscreen"), "only a semi-octagon display has one"};
        const Object box(*subscreen, block.pathOf("subscreen"),
                         {"x", "y", "width", "height", "positionVerified"});
        Subscreen area;
        area.x = box.integerAs<int>("x", 0, 2048);
        area.y = box.integerAs<int>("y", 0, 2048);
        area.width = box.integerAs<int>("width", 1, 2048, "pixels");
        area.height = box.integerAs<int>("height", 1, 2048, "pixels");
        area.positionVerified = box.boolean("positionVerified");
        if (result.width && result.height &&
            (area.x + area.width > *result.width || area.y + area.height > *result.height))
            throw FieldError{box.path(), "lies outside the " + std::to_string(*result.width) + "x" +
                                             std::to_string(*result.height) + " screen (x " +
                                             std::to_string(area.x) + " + width " +
                                             std::to_string(area.width) + ", y " +
                                             std::to_string(area.y) + " + height " +
                                             std::to_string(area.height) + ")"};
        result.subscreen = area;
    } else if (semiOctagon) {
        throw FieldError{block.pathOf("subscreen"), "a semi-octagon display needs its subscreen"};
    }
    return result;
}

Device parse(const Json& root, std::string_view fileName)
{
    const Object top(root, "",
                     {"id", "name", "verified", "source", "display", "input", "memory", "api",
                      "crypto", "performance"});
    Device device;
    device.fileName = std::string(fileName);
    device.id = top.string("id", 32);
    if (!std::all_of(device.id.begin(), device.id.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }))
        throw FieldError{"id",
                         "must be lower-case letters and digits, got " + shown(Json(device.id))};
    device.name = top.string("name", 64);
    device.verified = top.boolean("verified");
    device.source = top.string("source", 200);
    device.display = display(top);

    {
        const Object input(top.required("input"), "input", {"buttons", "touch"});
        device.input.buttons = input.nullableInteger<int>("buttons", 0, 16);
        device.input.touch = input.nullableBoolean("touch");
    }
    {
        const Object memory(top.required("memory"), "memory", {"appBytes"});
        // 16 KiB to 64 MiB: below, no app fits; above, no watch has it.
        device.appBytes = memory.nullableInteger<std::uint64_t>("appBytes", 16 * 1024,
                                                                64LL * 1024 * 1024, "bytes");
    }
    {
        const Object api(top.required("api"), "api", {"min", "max"});
        for (const auto key : {"min", "max"}) {
            const Json& value = api.required(key);
            if (value.is_null())
                continue;
            if (!value.is_string() || !isApiLevel(value.get<std::string>()))
                throw FieldError{api.pathOf(key),
                                 "must be an API level such as \"4.1.2\" or null, got " +
                                     shown(value)};
            (std::string_view(key) == "min" ? device.apiMin : device.apiMax) =
                value.get<std::string>();
        }
        if (device.apiMin && device.apiMax && apiParts(*device.apiMax) < apiParts(*device.apiMin))
            throw FieldError{"api.max", "is below api.min (" + *device.apiMin + ")"};
    }
    {
        const Json& crypto = top.required("crypto");
        if (!crypto.is_null()) {
            if (!crypto.is_array())
                throw FieldError{"crypto",
                                 "must be a list of primitive names or null, got " + shown(crypto)};
            std::vector<std::string> names;
            for (std::size_t i = 0; i < crypto.size(); ++i) {
                const std::string path = "crypto[" + std::to_string(i) + "]";
                const Json& item = crypto[i];
                if (!item.is_string() ||
                    std::find(knownPrimitives.begin(), knownPrimitives.end(),
                              item.get<std::string>()) == knownPrimitives.end())
                    throw FieldError{path, "unknown primitive " + shown(item)};
                if (std::find(names.begin(), names.end(), item.get<std::string>()) != names.end())
                    throw FieldError{path, "repeats " + shown(item)};
                names.push_back(item.get<std::string>());
            }
            device.crypto = std::move(names);
        }
    }
    {
        const Object performance(
            top.required("performance"), "performance",
            {"simulator", "simulatorCalibrationRounds", "slowdown", "measured", "measuredSource"});
        device.performance.simulatorMs = operationTimes(performance, "simulator", true);
        device.performance.simulatorCalibrationRounds =
            performance.integerAs<double>("simulatorCalibrationRounds", 1, 50'000'000, "rounds");
        const Object slowdown(performance.required("slowdown"), "performance.slowdown",
                              {"native", "vm"});
        device.performance.nativeSlowdown = factor(slowdown, "native");
        device.performance.vmSlowdown = factor(slowdown, "vm");
        if (performance.has("measured"))
            device.performance.measuredMs = operationTimes(performance, "measured", false);
        if (performance.has("measuredSource"))
            device.performance.measuredSource = performance.string("measuredSource", 200);
    }

    if (device.verified) {
        // A full-colour panel's depth is not in the SDK data we have, and
        // nothing depends on it: it may stay unknown on a verified profile.
        const bool fullColour = device.display.palette == Palette::Full;
        for (const auto& field : device.unknownFields()) {
            if (fullColour && (field == "display.bitsPerPixel" || field == "display.colours"))
                continue;
            throw FieldError{field, "is unknown (null), but the profile says \"verified\": true"};
        }
    }
    return device;
}

} // namespace

std::string_view operationKey(Operation operation)
{
    return nameIn(operationKeys, operation);
}

std::string_view operationTitle(Operation operation)
{
    switch (operation) {
    case Operation::TotpSha1:
        return "TOTP, SHA-1";
    case Operation::TotpSha256:
        return "TOTP, SHA-256";
    case Operation::TotpSha512:
        return "TOTP, SHA-512";
    case Operation::Pbkdf2Per1000:
        return "PBKDF2, 1000 iterations";
    case Operation::SealOpen:
        return "Seal + open a record";
    case Operation::SelfTest:
        return "Start-up self-test";
    }
    return "?";
}

std::string_view shapeName(Shape shape)
{
    return nameIn(shapeNames, shape);
}

std::string_view technologyName(Technology technology)
{
    return nameIn(technologyNames, technology);
}

std::string_view paletteName(Palette palette)
{
    return nameIn(paletteNames, palette);
}

bool Device::hasNative(std::string_view primitive) const
{
    return crypto && std::find(crypto->begin(), crypto->end(), primitive) != crypto->end();
}

std::vector<std::string> Device::unknownFields() const
{
    std::vector<std::string> unknown;
    const auto note = [&](bool known, const char* path) {
        if (!known)
            unknown.emplace_back(path);
    };
    note(display.shape.has_value(), "display.shape");
    note(display.width.has_value(), "display.width");
    note(display.height.has_value(), "display.height");
    note(display.technology.has_value(), "display.technology");
    note(display.palette.has_value(), "display.palette");
    note(display.bitsPerPixel.has_value(), "display.bitsPerPixel");
    note(display.colours.has_value(), "display.colours");
    note(input.buttons.has_value(), "input.buttons");
    note(input.touch.has_value(), "input.touch");
    note(appBytes.has_value(), "memory.appBytes");
    note(apiMin.has_value(), "api.min");
    note(apiMax.has_value(), "api.max");
    note(crypto.has_value(), "crypto");
    return unknown;
}

Result<Device, Error<DeviceError>> parseDevice(std::string_view text, std::string_view fileName)
{
    const std::string name(fileName);
    std::string repeated;
    Json root;
    try {
        root = detail::parseStrictJson(text, repeated);
    } catch (const Json::exception& error) {
        return fail(DeviceError::Malformed, name + ": not valid JSON (" + error.what() + ")");
    }
    // A profile with two "width"s is refused.
    if (!repeated.empty())
        return fail(DeviceError::Malformed,
                    name + ": the key \"" + repeated + "\" appears twice in one object");
    try {
        return parse(root, fileName);
    } catch (const FieldError& error) {
        return fail(DeviceError::Invalid, name + ": " + error.path + ": " + error.message);
    } catch (const Json::exception& error) {
        return fail(DeviceError::Invalid, name + ": " + error.what());
    }
}

Result<std::vector<Device>, Error<DeviceError>> loadDevices(const std::string& directory)
{
    namespace fs = std::filesystem;
    std::error_code error;
    std::vector<fs::path> files;
    for (fs::directory_iterator it(directory, error), end; !error && it != end;
         it.increment(error)) {
        if (it->path().extension() == ".json" && it->is_regular_file(error))
            files.push_back(it->path());
    }
    if (error)
        return fail(DeviceError::Unreadable,
                    "cannot read the device directory " + directory + ": " + error.message());
    if (files.empty())
        return fail(DeviceError::Empty, "no device profiles (*.json) in " + directory);
    std::sort(files.begin(), files.end());

    std::vector<Device> devices;
    for (const auto& path : files) {
        const std::string name = path.filename().string();
        std::ifstream in(path, std::ios::binary);
        std::ostringstream text;
        // A profile is a page of JSON: anything over 1 MiB is not one.
        if (!in || !(text << in.rdbuf()) || text.str().size() > (1U << 20))
            return fail(DeviceError::Unreadable, name + ": cannot be read (or is over 1 MiB)");
        auto device = parseDevice(text.str(), name);
        if (!device)
            return device.failure();
        for (const auto& other : devices)
            if (other.id == device->id)
                return fail(DeviceError::Duplicate, name + ": id: '" + device->id +
                                                        "' is already the id of " + other.fileName);
        devices.push_back(std::move(device).value());
    }
    std::sort(devices.begin(), devices.end(),
              [](const Device& a, const Device& b) { return a.id < b.id; });
    return devices;
}

namespace {

// The directories searched, kept as data in the binary: an optimizer may
// otherwise build the strings from immediates, and the package check looks
// for the installed path in the installed binary.
[[gnu::used]] constexpr char sourceDevicesDir[] = WATCHWORD_SOURCE_DEVICES_DIR;
[[gnu::used]] constexpr char installedDevicesDir[] = WATCHWORD_INSTALLED_DEVICES_DIR;

} // namespace

std::vector<std::string> deviceSearchPath()
{
    return {sourceDevicesDir, installedDevicesDir};
}

std::optional<std::string> defaultDeviceDirectory()
{
    for (const auto& directory : deviceSearchPath()) {
        std::error_code error;
        if (std::filesystem::is_directory(directory, error))
            return directory;
    }
    return std::nullopt;
}

PaletteColours paletteColours(Palette palette)
{
    PaletteColours result;
    switch (palette) {
    case Palette::Mip64:
        for (std::uint32_t r = 0; r < 4; ++r)
            for (std::uint32_t g = 0; g < 4; ++g)
                for (std::uint32_t b = 0; b < 4; ++b)
                    result.colours.push_back((r * 0x55) << 16 | (g * 0x55) << 8 | (b * 0x55));
        result.note = "2 bits per channel: 0x00, 0x55, 0xaa, 0xff (see docs/WATCH.md)";
        break;
    case Palette::Mip16:
        // The 16 colours of 4 bpp MIP watches are not in our device data.
        result = paletteColours(Palette::Mip64);
        result.exact = false;
        result.note = "stand-in: the 16-colour palette is not known, the 64-colour one is used";
        break;
    case Palette::Mono:
        result.colours = {0x000000, 0xffffff};
        result.note = "1 bit per pixel: black and white";
        break;
    case Palette::Full:
        result.note = "full colour: no reduction";
        break;
    }
    return result;
}

} // namespace watchword::watch
