#include "app/watch/WatchValues.h"

#include "app/codes/AccountListModel.h"
#include "text/CoreText.h"
#include "watch/Describe.h"
#include "watch/Screen.h"

namespace watchword::app {

using text::fromCore;

WatchProfile WatchProfile::from(const watch::Device& device)
{
    const auto& display = device.display;
    WatchProfile value;
    value.id = fromCore(device.id);
    value.name = fromCore(device.name);
    value.verified = device.verified;
    value.source = fromCore(device.source);
    value.shape = display.shape ? fromCore(shapeName(*display.shape)) : QString();
    value.width = display.width.value_or(0);
    value.height = display.height.value_or(0);
    value.resolution = fromCore(watch::resolutionText(device));
    value.technology = fromCore(watch::displayText(device));
    if (display.palette) {
        value.palette = fromCore(paletteName(*display.palette));
        value.paletteNote = fromCore(paletteColours(*display.palette).note);
    }
    value.touch = device.input.touch.value_or(false);
    value.buttons = device.input.buttons.value_or(-1);
    value.drawable = watch::geometryOf(display).has_value();
    value.appBytes = device.appBytes ? qint64(*device.appBytes) : -1;
    value.memory = fromCore(watch::memoryText(device));
    value.apiMin = fromCore(device.apiMin.value_or(std::string()));
    value.apiMax = fromCore(device.apiMax.value_or(std::string()));
    value.cryptoKnown = device.crypto.has_value();
    if (device.crypto)
        value.crypto = toQStringList(*device.crypto);
    value.unknownFields = toQStringList(device.unknownFields());
    value.measuredSource = fromCore(device.performance.measuredSource);
    return value;
}

WatchTiming WatchTiming::from(double simulatorMs, const std::optional<watch::Timing>& device)
{
    WatchTiming value;
    value.simulatorMs = simulatorMs;
    value.simulatorText = fromCore(watch::millisecondsText(simulatorMs));
    if (!device)
        return value;
    value.basis = fromCore(basisName(device->basis));
    value.lowMs = device->ms.low;
    value.highMs = device->ms.high;
    value.text = fromCore(watch::spanText(device->ms));
    return value;
}

WatchCost WatchCost::from(const watch::OperationCost& cost, const watch::Device& device)
{
    WatchCost value;
    static_cast<WatchTiming&>(value) = WatchTiming::from(cost.simulatorMs, cost.device);
    value.key = fromCore(operationKey(cost.operation));
    value.title = fromCore(operationTitle(cost.operation));
    if (cost.workClass)
        value.workClass = fromCore(workClassName(*cost.workClass));
    value.why = fromCore(cost.why);
    value.unavailable = fromCore(cost.unavailable);
    const auto& measured = device.performance.measuredMs;
    if (const auto found = measured.find(cost.operation); found != measured.end())
        value.measuredMs = found->second;
    return value;
}

WatchUnlock WatchUnlock::from(const watch::Unlock& unlock)
{
    WatchUnlock value;
    static_cast<WatchTiming&>(value) = WatchTiming::from(unlock.simulatorMs, unlock.device);
    value.iterations = unlock.iterations;
    return value;
}

WatchCalibration WatchCalibration::from(const watch::CalibratedCount& count)
{
    WatchCalibration value;
    value.targetMs = count.targetMs;
    value.simulator = count.simulator;
    if (count.deviceBasis)
        value.basis = fromCore(basisName(*count.deviceBasis));
    value.low = count.deviceLow;
    value.high = count.deviceHigh;
    value.floor = watch::minimumIterations;
    value.floorApplied = count.floorApplied;
    value.warnings = toQStringList(count.warnings);
    return value;
}

WatchMemory WatchMemory::from(const watch::Memory& memory)
{
    WatchMemory value;
    value.workingSetBytes = qint64(memory.workingSetBytes);
    value.payloadBytes = qint64(memory.payloadBytes);
    value.payloadEstimated = memory.payloadEstimated;
    value.limitBytes = memory.limitBytes ? qint64(*memory.limitBytes) : -1;
    value.appPercent = memory.appPercent.value_or(-1.0);
    value.totalPercent = memory.totalPercent.value_or(-1.0);
    value.unavailable = fromCore(memory.unavailable);
    value.warnings = toQStringList(memory.warnings);
    return value;
}

WatchInconsistency WatchInconsistency::from(const watch::CostEstimate& estimate)
{
    WatchInconsistency value;
    value.simulatorRoundsPerSecond = estimate.simulatorRoundsPerSecond;
    value.simulatorCalibrationRounds = estimate.simulatorCalibrationRounds;
    value.text = fromCore(estimate.inconsistency);
    return value;
}

} // namespace watchword::app
