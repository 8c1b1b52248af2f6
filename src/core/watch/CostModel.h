// What an operation costs on a watch, on three bases: the reference notes'
// simulator figures, a per-device estimate (the simulator times a slowdown
// range), and a figure measured on the watch, which replaces the estimate.
// Pure arithmetic on a Device; formulas and their sources in docs/WATCH.md.
#pragma once

#include "watch/Device.h"
#include "watch/Limits.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace watchword::watch {

inline constexpr std::uint32_t defaultWatchTargetMilliseconds = 1000;
// The notes: memory after the first frame, 2.3 % of 768 KB and 3.4 % of
// 512 KB, "both are about 17.5 KB".
inline constexpr std::uint64_t appWorkingSetBytes = 17'920;
// An estimate until the payload's real size is known: a fixed part (format
// tag, PIN slot: salt, count, wrapped key, MAC) and one sealed record per
// account (IV, AES-256-CBC of the padded record, HMAC-SHA256, encoding).
inline constexpr std::uint64_t estimatedPayloadHeaderBytes = 512;
inline constexpr std::uint64_t estimatedPayloadBytesPerAccount = 256;

enum class Basis { Simulator, Estimate, Measured };
std::string_view basisName(Basis basis);

// Work that is mostly native calls, or mostly Monkey C (the VM).
enum class WorkClass { Native, Vm };
std::string_view workClassName(WorkClass workClass);

// Milliseconds, as a range; low == high for the simulator and measurements.
struct Span
{
    double low = 0;
    double high = 0;
};

struct Timing
{
    Basis basis = Basis::Simulator;
    Span ms;
};

struct OperationCost
{
    Operation operation = Operation::TotpSha1;
    double simulatorMs = 0;
    // Why the work is native or VM work (or empty when unknown).
    std::optional<WorkClass> workClass;
    std::string why;
    // On the device: an estimate or a measurement; nullopt, with
    // unavailable saying why, when neither can be given.
    std::optional<Timing> device;
    std::string unavailable;
};

// PBKDF2 over a round count: simulator and device times.
struct Unlock
{
    std::uint32_t iterations = 0;
    double simulatorMs = 0;
    std::optional<Timing> device;
};

// The round count for a target time. On the device, low and high are the
// counts for the slow (high) and fast (low) ends of the time range.
struct CalibratedCount
{
    std::uint32_t targetMs = defaultWatchTargetMilliseconds;
    std::uint32_t simulator = 0;
    std::optional<Basis> deviceBasis;
    std::uint32_t deviceLow = 0;
    std::uint32_t deviceHigh = 0;
    bool floorApplied = false; // on the device, at either end
    std::vector<std::string> warnings;
};

struct Memory
{
    std::uint64_t workingSetBytes = appWorkingSetBytes;
    std::uint64_t payloadBytes = 0;
    bool payloadEstimated = true;
    std::optional<std::uint64_t> limitBytes;
    std::optional<double> appPercent;   // the working set alone (the notes' figure)
    std::optional<double> totalPercent; // with the payload
    std::string unavailable;
    std::vector<std::string> warnings;
};

struct CostEstimate
{
    std::string deviceId;
    std::vector<OperationCost> operations;
    Unlock unlock;
    CalibratedCount calibration;
    Memory memory;
    // The notes' own figures that disagree, as data: 52 ms per 1,000 rounds
    // is about 19,231 rounds/s, against "about 12,000" for 1 s.
    double simulatorRoundsPerSecond = 0;
    double simulatorCalibrationRounds = 0;
    // That disagreement in words; empty when the two agree within 5 %.
    std::string inconsistency;
    // Everything a reader should know, the inconsistency first if any.
    std::vector<std::string> notes;
};

// The payload size estimate for an export of accounts accounts (0: no export).
std::uint64_t estimatedPayloadBytes(std::uint32_t accounts);

// Whether an operation is native or VM work on device (nullopt if its crypto
// is unknown), with the reason.
std::optional<WorkClass> workClassOf(const Device& device, Operation operation,
                                     std::string* why = nullptr);

OperationCost operationCost(const Device& device, Operation operation);
Unlock unlockTime(const Device& device, std::uint32_t iterations);
CalibratedCount calibratedCount(const Device& device,
                                std::uint32_t targetMs = defaultWatchTargetMilliseconds);
// The round count an export for device writes: the calibrated count for the
// slow end of the device's range (so the unlock stays near targetMs even on
// a slow watch), within the bounds. Every profile has a basis for it:
// PBKDF2 is VM work on any watch, so it is estimated even where the native
// crypto is unknown.
std::uint32_t exportIterations(const Device& device,
                               std::uint32_t targetMs = defaultWatchTargetMilliseconds);
// The round count for per1000Ms milliseconds per 1,000 rounds, in targetMs,
// clamped to [minimumIterations, maximumIterations].
std::uint32_t iterationsFor(double per1000Ms, std::uint32_t targetMs);
Memory memoryUse(const Device& device, std::uint64_t payloadBytes, bool payloadEstimated);

// Everything above, for one device. iterations: the round count to time the
// unlock at; nullopt: the device's calibrated count at the slow end (the
// count an export would choose), or the simulator's without a device basis.
// payloadBytes: the real payload size, if known; else the estimate for
// accounts.
CostEstimate estimate(const Device& device, std::optional<std::uint32_t> iterations,
                      std::uint32_t targetMs, std::uint32_t accounts,
                      std::optional<std::uint64_t> payloadBytes = std::nullopt);

} // namespace watchword::watch
