#include "watch/CostModel.h"

#include "encoding/Decimal.h"

#include <algorithm>
#include <cmath>

namespace watchword::watch {

namespace {

// The notes' way with numbers: 19,231.
using encoding::groupedNumber;

std::optional<Timing> deviceTiming(const Device& device, Operation operation,
                                   std::optional<WorkClass> workClass)
{
    const auto& performance = device.performance;
    if (const auto measured = performance.measuredMs.find(operation);
        measured != performance.measuredMs.end())
        return Timing{Basis::Measured, {measured->second, measured->second}};
    if (!workClass)
        return std::nullopt;
    const double simulator = performance.simulatorMs.at(operation);
    const Factor& factor =
        *workClass == WorkClass::Native ? performance.nativeSlowdown : performance.vmSlowdown;
    return Timing{Basis::Estimate, {simulator * factor.low, simulator * factor.high}};
}

} // namespace

std::string_view basisName(Basis basis)
{
    switch (basis) {
    case Basis::Simulator:
        return "simulator";
    case Basis::Estimate:
        return "estimate";
    case Basis::Measured:
        return "measured";
    }
    return "?";
}

std::string_view workClassName(WorkClass workClass)
{
    return workClass == WorkClass::Native ? "native" : "vm";
}

std::uint64_t estimatedPayloadBytes(std::uint32_t accounts)
{
    if (accounts == 0)
        return 0;
    return estimatedPayloadHeaderBytes + estimatedPayloadBytesPerAccount * accounts;
}

std::optional<WorkClass> workClassOf(const Device& device, Operation operation, std::string* why)
{
    const auto say = [why](const char* text) {
        if (why)
            *why = text;
    };
    switch (operation) {
    case Operation::TotpSha512:
        say("no native SHA-512: written in Monkey C");
        return WorkClass::Vm;
    case Operation::Pbkdf2Per1000:
        say("a Monkey C loop around the HMAC: the loop dominates");
        return WorkClass::Vm;
    case Operation::SelfTest:
        say("includes the SHA-512 and PBKDF2 known-answer tests, in Monkey C");
        return WorkClass::Vm;
    case Operation::TotpSha1:
        if (!device.crypto)
            break;
        if (device.hasNative("sha1")) {
            say("HMAC in Monkey C over the native SHA-1");
            return WorkClass::Native;
        }
        say("no native SHA-1");
        return WorkClass::Vm;
    case Operation::TotpSha256:
        if (!device.crypto)
            break;
        if (device.hasNative("hmac-sha256")) {
            say("native HMAC-SHA256");
            return WorkClass::Native;
        }
        say("no native HMAC-SHA256");
        return WorkClass::Vm;
    case Operation::SealOpen:
        if (!device.crypto)
            break;
        if (device.hasNative("aes-256-cbc") && device.hasNative("hmac-sha256")) {
            say("native AES-256-CBC and HMAC-SHA256");
            return WorkClass::Native;
        }
        say("no native AES-256-CBC or HMAC-SHA256");
        return WorkClass::Vm;
    }
    say("");
    return std::nullopt;
}

OperationCost operationCost(const Device& device, Operation operation)
{
    OperationCost cost;
    cost.operation = operation;
    cost.simulatorMs = device.performance.simulatorMs.at(operation);
    cost.workClass = workClassOf(device, operation, &cost.why);
    cost.device = deviceTiming(device, operation, cost.workClass);
    if (!cost.device)
        cost.unavailable = "the native crypto of " + device.id +
                           " is unknown, so whether this is native or VM work is too";
    return cost;
}

Unlock unlockTime(const Device& device, std::uint32_t iterations)
{
    const double rounds = static_cast<double>(iterations) / 1000.0;
    const OperationCost per1000 = operationCost(device, Operation::Pbkdf2Per1000);
    Unlock unlock;
    unlock.iterations = iterations;
    unlock.simulatorMs = per1000.simulatorMs * rounds;
    if (per1000.device)
        unlock.device = Timing{per1000.device->basis,
                               {per1000.device->ms.low * rounds, per1000.device->ms.high * rounds}};
    return unlock;
}

std::uint32_t exportIterations(const Device& device, std::uint32_t targetMs)
{
    // iterationsFor keeps both ends within the bounds.
    return calibratedCount(device, targetMs).deviceLow;
}

std::uint32_t iterationsFor(double per1000Ms, std::uint32_t targetMs)
{
    if (!(per1000Ms > 0))
        return minimumIterations;
    const double wanted = std::floor(static_cast<double>(targetMs) * 1000.0 / per1000Ms);
    return static_cast<std::uint32_t>(
        std::clamp(wanted, double(minimumIterations), double(maximumIterations)));
}

CalibratedCount calibratedCount(const Device& device, std::uint32_t targetMs)
{
    CalibratedCount count;
    count.targetMs = targetMs;
    const OperationCost per1000 = operationCost(device, Operation::Pbkdf2Per1000);
    count.simulator = iterationsFor(per1000.simulatorMs, targetMs);
    if (count.simulator == minimumIterations &&
        per1000.simulatorMs * 2.0 > static_cast<double>(targetMs))
        count.warnings.push_back("in the simulator the floor of 2,000 rounds takes " +
                                 groupedNumber(per1000.simulatorMs * 2.0, 1) + " ms, over the " +
                                 groupedNumber(targetMs, 0) + " ms target");
    if (!per1000.device)
        return count;
    const Span ms = per1000.device->ms;
    count.deviceBasis = per1000.device->basis;
    count.deviceLow = iterationsFor(ms.high, targetMs);
    count.deviceHigh = iterationsFor(ms.low, targetMs);
    const double floorMsAtSlowEnd = ms.high * minimumIterations / 1000.0;
    count.floorApplied = floorMsAtSlowEnd > static_cast<double>(targetMs);
    if (count.floorApplied) {
        const double floorMsAtFastEnd = ms.low * minimumIterations / 1000.0;
        const std::string time = floorMsAtFastEnd == floorMsAtSlowEnd
                                     ? groupedNumber(floorMsAtSlowEnd, 0) + " ms"
                                     : groupedNumber(floorMsAtFastEnd, 0) + " to " +
                                           groupedNumber(floorMsAtSlowEnd, 0) + " ms";
        count.warnings.push_back(
            "on the " + device.name + " (" + std::string(basisName(count.deviceBasis.value())) +
            ") the floor of 2,000 rounds takes " + time + ", over the " +
            groupedNumber(targetMs, 0) +
            " ms target: the floor is kept for security, so unlocking is slower than the target");
    }
    return count;
}

Memory memoryUse(const Device& device, std::uint64_t payloadBytes, bool payloadEstimated)
{
    Memory memory;
    memory.payloadBytes = payloadBytes;
    memory.payloadEstimated = payloadEstimated;
    memory.limitBytes = device.appBytes;
    if (!device.appBytes) {
        memory.unavailable = "the app memory limit of " + device.id + " is unknown";
        return memory;
    }
    const double limit = static_cast<double>(*device.appBytes);
    memory.appPercent = static_cast<double>(memory.workingSetBytes) / limit * 100.0;
    memory.totalPercent =
        static_cast<double>(memory.workingSetBytes + payloadBytes) / limit * 100.0;
    if (*memory.totalPercent > 100.0)
        memory.warnings.push_back("the app and the payload need " +
                                  groupedNumber(double(memory.workingSetBytes + payloadBytes), 0) +
                                  " bytes, more than the " + groupedNumber(limit, 0) +
                                  " bytes of " + device.id);
    return memory;
}

CostEstimate estimate(const Device& device, std::optional<std::uint32_t> iterations,
                      std::uint32_t targetMs, std::uint32_t accounts,
                      std::optional<std::uint64_t> payloadBytes)
{
    CostEstimate result;
    result.deviceId = device.id;
    for (const auto operation : allOperations)
        result.operations.push_back(operationCost(device, operation));
    result.calibration = calibratedCount(device, targetMs);
    const std::uint32_t unlockAt =
        iterations.value_or(result.calibration.deviceBasis ? result.calibration.deviceLow
                                                           : result.calibration.simulator);
    result.unlock = unlockTime(device, unlockAt);
    result.memory = payloadBytes ? memoryUse(device, *payloadBytes, false)
                                 : memoryUse(device, estimatedPayloadBytes(accounts), true);

    const auto& performance = device.performance;
    const double per1000 = performance.simulatorMs.at(Operation::Pbkdf2Per1000);
    result.simulatorRoundsPerSecond = 1'000'000.0 / per1000;
    result.simulatorCalibrationRounds = performance.simulatorCalibrationRounds;
    if (std::fabs(result.simulatorRoundsPerSecond - result.simulatorCalibrationRounds) >
        0.05 * result.simulatorCalibrationRounds) {
        result.inconsistency =
            "The reference notes disagree with themselves: " + groupedNumber(per1000, 1) +
            " ms per 1,000 PBKDF2 iterations in the simulator is about " +
            groupedNumber(result.simulatorRoundsPerSecond, 0) +
            " iterations per second, but they give "
            "about " +
            groupedNumber(result.simulatorCalibrationRounds, 0) +
            " iterations for a 1 s calibration (" +
            groupedNumber(result.simulatorRoundsPerSecond / result.simulatorCalibrationRounds, 2) +
            " times fewer). The counts here follow the per-call figure.";
        result.notes.push_back(result.inconsistency);
    }
    result.notes.push_back(
        "Estimates are the simulator's times multiplied by a slowdown (native work " +
        groupedNumber(performance.nativeSlowdown.low, 0) + "-" +
        groupedNumber(performance.nativeSlowdown.high, 0) + "x, VM work " +
        groupedNumber(performance.vmSlowdown.low, 0) + "-" +
        groupedNumber(performance.vmSlowdown.high, 0) +
        "x): no ratio between a watch and the simulator has been published. A figure measured "
        "on the watch replaces the estimate.");
    if (!device.verified) {
        std::string unknown;
        for (const auto& field : device.unknownFields())
            unknown += (unknown.empty() ? "" : ", ") + field;
        result.notes.push_back(device.id + " is not verified" +
                               (unknown.empty() ? "" : "; unknown: " + unknown) + ".");
    }
    return result;
}

} // namespace watchword::watch
