// Garmin watch profiles: what the simulator draws and the cost model weighs,
// loaded at run time from resources/devices/<id>.json (schema in
// docs/WATCH.md). Unknown facts stay unknown (std::nullopt, null in the
// file): a profile never guesses what the SDK data does not say.
#pragma once

#include "base/Result.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::watch {

enum class Shape { Round, SemiOctagon, Rectangle };
enum class Technology { Mip, Amoled, Lcd };
// The colours a screen can show, which the simulator reduces a frame to.
enum class Palette {
    Mip64, // 2 bits per channel: 0x00, 0x55, 0xaa, 0xff
    Mip16, // 4 bpp MIP
    Mono,  // 1 bpp black and white
    Full,  // AMOLED or LCD: no reduction
};

// The operations the watch app's benchmark timed (the reference notes).
enum class Operation { TotpSha1, TotpSha256, TotpSha512, Pbkdf2Per1000, SealOpen, SelfTest };
inline constexpr std::array<Operation, 6> allOperations = {
    Operation::TotpSha1,      Operation::TotpSha256, Operation::TotpSha512,
    Operation::Pbkdf2Per1000, Operation::SealOpen,   Operation::SelfTest};

// "totp-sha1", ...: the key in a profile's performance blocks.
std::string_view operationKey(Operation operation);
// "TOTP, SHA-1", ...: as the notes' table names it.
std::string_view operationTitle(Operation operation);
std::string_view shapeName(Shape shape);
std::string_view technologyName(Technology technology);
std::string_view paletteName(Palette palette);

struct Subscreen
{
    int x = 0;
    int y = 0;
    int width = 0;
    int height = 0;
    // The SDK data gives the size; where it sits may be a stand-in.
    bool positionVerified = false;
};

struct Display
{
    std::optional<Shape> shape;
    std::optional<int> width;
    std::optional<int> height;
    std::optional<Technology> technology;
    std::optional<Palette> palette;
    std::optional<int> bitsPerPixel;
    std::optional<std::uint32_t> colours;
    std::optional<Subscreen> subscreen; // only on semi-octagon screens
};

struct Input
{
    std::optional<int> buttons;
    std::optional<bool> touch;
};

// A slowdown against the simulator, as a range (an estimate, never a fact).
struct Factor
{
    double low = 1;
    double high = 1;
};

struct Performance
{
    // Milliseconds per call in the Connect IQ simulator, one per operation.
    std::map<Operation, double> simulatorMs;
    // The notes' "about 12,000 iterations" for a 1 s calibration.
    double simulatorCalibrationRounds = 0;
    Factor nativeSlowdown; // work that is mostly native calls
    Factor vmSlowdown;     // work that is mostly Monkey C loops
    // Milliseconds per call measured on a real watch: each replaces both the
    // simulator-based estimate and its range for that operation.
    std::map<Operation, double> measuredMs;
    std::string measuredSource; // who measured, how (free text; may be empty)
};

struct Device
{
    std::string id;
    std::string name;
    bool verified = false;
    std::string source;
    Display display;
    Input input;
    std::optional<std::uint64_t> appBytes; // the watch app's memory limit
    std::optional<std::string> apiMin;
    std::optional<std::string> apiMax;
    // Native Toybox.Cryptography primitives; nullopt if unknown.
    std::optional<std::vector<std::string>> crypto;
    Performance performance;
    std::string fileName; // the profile it was read from

    // True only if crypto is known and lists primitive.
    bool hasNative(std::string_view primitive) const;
    // The field paths that are null ("display.shape", "memory.appBytes", ...).
    std::vector<std::string> unknownFields() const;
};

// The names a profile's crypto list may hold.
inline constexpr std::array<std::string_view, 10> knownPrimitives = {
    "sha1",        "sha256",      "md5",         "hmac-sha256", "aes-128-ecb",
    "aes-128-cbc", "aes-256-ecb", "aes-256-cbc", "cmac-aes128", "ecdh"};

enum class DeviceError {
    Unreadable, // the file or directory could not be read
    Malformed,  // not JSON
    Invalid,    // JSON, but a field is missing, of the wrong type or out of range
    Duplicate,  // two profiles with one id
    Empty,      // a directory without profiles
};

// Parses one profile. fileName ("fr255.json") names the file in every error,
// with the field path: "fr255.json: display.width: must be a positive
// integer, got -3".
[[nodiscard]] Result<Device, Error<DeviceError>> parseDevice(std::string_view text,
                                                             std::string_view fileName);

// Every *.json in directory, sorted by id. One bad profile fails the whole
// load: the profiles are shipped data, and a half-loaded list would hide it.
[[nodiscard]] Result<std::vector<Device>, Error<DeviceError>>
loadDevices(const std::string& directory);

// Where the shipped profiles are looked for, in order: the source tree's
// resources/devices (a build that is not installed), then the installed
// share/watchword/devices. Both are fixed when the project is configured.
std::vector<std::string> deviceSearchPath();
// The first directory of deviceSearchPath() that exists; nullopt if none.
std::optional<std::string> defaultDeviceDirectory();

// The colours a palette holds, 0xRRGGBB. exact is false when the list is a
// stand-in (note says which and why); Full has no list (no reduction).
struct PaletteColours
{
    std::vector<std::uint32_t> colours;
    bool exact = true;
    std::string note;
};
PaletteColours paletteColours(Palette palette);

} // namespace watchword::watch
