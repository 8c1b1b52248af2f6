// What the watch page reads from the simulator's parts (WatchProfiles,
// WatchCosts, WatchExportFile), as typed values: Q_GADGETs
// registered as QML value types (watchProfile, watchCost, ...), each made
// from the core's watch:: types. Every field is declared here with its type,
// not a key a map may lack; lists of them reach QML as arrays.
//
// Unknown is "" for a text; -1 for a button count, a memory size or a share
// of memory; 0 for a screen size or a time (whose basis is then "").
#pragma once

#include "watch/CostModel.h"
#include "watch/Device.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

namespace watchword::app {

// A device profile: an entry of the device list and the chosen watch alike.
struct WatchProfile
{
    Q_GADGET
    QML_VALUE_TYPE(watchProfile)
    Q_PROPERTY(QString id MEMBER id)
    Q_PROPERTY(QString name MEMBER name)
    Q_PROPERTY(bool verified MEMBER verified)
    // Where the profile's figures come from.
    Q_PROPERTY(QString source MEMBER source)
    // "round", "semi-octagon", "rectangle".
    Q_PROPERTY(QString shape MEMBER shape)
    Q_PROPERTY(int width MEMBER width)
    Q_PROPERTY(int height MEMBER height)
    // "260x260"; "MIP, 64 colours" (both "unknown" if not known).
    Q_PROPERTY(QString resolution MEMBER resolution)
    Q_PROPERTY(QString technology MEMBER technology)
    Q_PROPERTY(QString palette MEMBER palette)
    // How the palette is drawn (docs/WATCH.md); "" if the palette is unknown.
    Q_PROPERTY(QString paletteNote MEMBER paletteNote)
    Q_PROPERTY(bool touch MEMBER touch)
    Q_PROPERTY(int buttons MEMBER buttons)
    // The shape and the resolution are known: the screen can be drawn.
    Q_PROPERTY(bool drawable MEMBER drawable)
    // A watch app's memory limit, and as the page says it ("768 KB",
    // "unknown").
    Q_PROPERTY(qint64 appBytes MEMBER appBytes)
    Q_PROPERTY(QString memory MEMBER memory)
    // Connect IQ API levels ("4.0.4").
    Q_PROPERTY(QString apiMin MEMBER apiMin)
    Q_PROPERTY(QString apiMax MEMBER apiMax)
    // The native crypto; cryptoKnown false if the profile does not say.
    Q_PROPERTY(bool cryptoKnown MEMBER cryptoKnown)
    Q_PROPERTY(QStringList crypto MEMBER crypto)
    // The profile's fields it leaves unknown ("display.shape", ...).
    Q_PROPERTY(QStringList unknownFields MEMBER unknownFields)
    // Where the measured times in the profile come from.
    Q_PROPERTY(QString measuredSource MEMBER measuredSource)

public:
    [[nodiscard]] static WatchProfile from(const watch::Device& device);

    QString id;
    QString name;
    bool verified = false;
    QString source;
    QString shape;
    int width = 0;
    int height = 0;
    QString resolution;
    QString technology;
    QString palette;
    QString paletteNote;
    bool touch = false;
    int buttons = -1;
    bool drawable = false;
    qint64 appBytes = -1;
    QString memory;
    QString apiMin;
    QString apiMax;
    bool cryptoKnown = false;
    QStringList crypto;
    QStringList unknownFields;
    QString measuredSource;

    bool operator==(const WatchProfile&) const = default;
};

// A time in the simulator and on the watch, with the basis of the watch's
// figure: a cost row's and the unlock's.
struct WatchTiming
{
    Q_GADGET
    QML_VALUE_TYPE(watchTiming)
    Q_PROPERTY(double simulatorMs MEMBER simulatorMs)
    Q_PROPERTY(QString simulatorText MEMBER simulatorText)
    // "simulator", "estimate", "measured"; "" if the watch's is unknown.
    Q_PROPERTY(QString basis MEMBER basis)
    Q_PROPERTY(double lowMs MEMBER lowMs)
    Q_PROPERTY(double highMs MEMBER highMs)
    // "1.8 - 7 ms"; "" if unknown.
    Q_PROPERTY(QString text MEMBER text)

public:
    [[nodiscard]] static WatchTiming from(double simulatorMs,
                                          const std::optional<watch::Timing>& device);

    double simulatorMs = 0;
    QString simulatorText;
    QString basis;
    double lowMs = 0;
    double highMs = 0;
    QString text;

    bool operator==(const WatchTiming&) const = default;
};

// One operation of the cost table, timed.
struct WatchCost : WatchTiming
{
    Q_GADGET
    QML_VALUE_TYPE(watchCost)
    // "totp-sha1", as setMeasured names it; "TOTP, SHA-1".
    Q_PROPERTY(QString key MEMBER key)
    Q_PROPERTY(QString title MEMBER title)
    // "native", "vm"; "", and why the figure is unavailable, if unknown.
    Q_PROPERTY(QString workClass MEMBER workClass)
    Q_PROPERTY(QString why MEMBER why)
    Q_PROPERTY(QString unavailable MEMBER unavailable)
    // The time measured on a real watch; 0 if none.
    Q_PROPERTY(double measuredMs MEMBER measuredMs)

public:
    [[nodiscard]] static WatchCost from(const watch::OperationCost& cost,
                                        const watch::Device& device);

    QString key;
    QString title;
    QString workClass;
    QString why;
    QString unavailable;
    double measuredMs = 0;

    bool operator==(const WatchCost&) const = default;
};

// The unlock at a round count, timed.
struct WatchUnlock : WatchTiming
{
    Q_GADGET
    QML_VALUE_TYPE(watchUnlock)
    Q_PROPERTY(qint64 iterations MEMBER iterations)

public:
    [[nodiscard]] static WatchUnlock from(const watch::Unlock& unlock);

    qint64 iterations = 0;

    bool operator==(const WatchUnlock&) const = default;
};

// The round count calibrated for the unlock target, in the simulator and on
// the watch (low to high), never below floor.
struct WatchCalibration
{
    Q_GADGET
    QML_VALUE_TYPE(watchCalibration)
    Q_PROPERTY(qint64 targetMs MEMBER targetMs)
    Q_PROPERTY(qint64 simulator MEMBER simulator)
    // The basis of low and high; "" if the watch's speed is unknown.
    Q_PROPERTY(QString basis MEMBER basis)
    Q_PROPERTY(qint64 low MEMBER low)
    Q_PROPERTY(qint64 high MEMBER high)
    Q_PROPERTY(qint64 floor MEMBER floor)
    Q_PROPERTY(bool floorApplied MEMBER floorApplied)
    Q_PROPERTY(QStringList warnings MEMBER warnings)

public:
    [[nodiscard]] static WatchCalibration from(const watch::CalibratedCount& count);

    qint64 targetMs = 0;
    qint64 simulator = 0;
    QString basis;
    qint64 low = 0;
    qint64 high = 0;
    qint64 floor = 0;
    bool floorApplied = false;
    QStringList warnings;

    bool operator==(const WatchCalibration&) const = default;
};

// The app's memory on the watch: its working set and the payload against
// the watch's limit.
struct WatchMemory
{
    Q_GADGET
    QML_VALUE_TYPE(watchMemory)
    Q_PROPERTY(qint64 workingSetBytes MEMBER workingSetBytes)
    // The loaded export's size, or an estimate (payloadEstimated).
    Q_PROPERTY(qint64 payloadBytes MEMBER payloadBytes)
    Q_PROPERTY(bool payloadEstimated MEMBER payloadEstimated)
    Q_PROPERTY(qint64 limitBytes MEMBER limitBytes)
    // Shares of the limit: the working set alone, and with the payload.
    Q_PROPERTY(double appPercent MEMBER appPercent)
    Q_PROPERTY(double totalPercent MEMBER totalPercent)
    // Why the shares are unknown.
    Q_PROPERTY(QString unavailable MEMBER unavailable)
    Q_PROPERTY(QStringList warnings MEMBER warnings)

public:
    [[nodiscard]] static WatchMemory from(const watch::Memory& memory);

    qint64 workingSetBytes = 0;
    qint64 payloadBytes = 0;
    bool payloadEstimated = false;
    qint64 limitBytes = -1;
    double appPercent = -1;
    double totalPercent = -1;
    QString unavailable;
    QStringList warnings;

    bool operator==(const WatchMemory&) const = default;
};

// The reference notes' two simulator figures that disagree, and what is said
// of it ("" if they agree).
struct WatchInconsistency
{
    Q_GADGET
    QML_VALUE_TYPE(watchInconsistency)
    Q_PROPERTY(double simulatorRoundsPerSecond MEMBER simulatorRoundsPerSecond)
    Q_PROPERTY(double simulatorCalibrationRounds MEMBER simulatorCalibrationRounds)
    Q_PROPERTY(QString text MEMBER text)

public:
    [[nodiscard]] static WatchInconsistency from(const watch::CostEstimate& estimate);

    double simulatorRoundsPerSecond = 0;
    double simulatorCalibrationRounds = 0;
    QString text;

    bool operator==(const WatchInconsistency&) const = default;
};

// The export loaded into the simulated watch.
struct WatchExportInfo
{
    Q_GADGET
    QML_VALUE_TYPE(watchExportInfo)
    // The watch it was made for: its id, and its name where the app has its
    // profile (else the id again).
    Q_PROPERTY(QString deviceId MEMBER deviceId)
    Q_PROPERTY(QString deviceName MEMBER deviceName)
    // Made for the watch now chosen (its rounds were calibrated there).
    Q_PROPERTY(bool forThisDevice MEMBER forThisDevice)
    Q_PROPERTY(qint64 accounts MEMBER accounts)
    Q_PROPERTY(qint64 bytes MEMBER bytes)
    Q_PROPERTY(qint64 iterations MEMBER iterations)
    // When it was made, ISO 8601 in UTC.
    Q_PROPERTY(QString createdAt MEMBER createdAt)
    // Opened from a file rather than made here.
    Q_PROPERTY(bool fromFile MEMBER fromFile)

public:
    QString deviceId;
    QString deviceName;
    bool forThisDevice = false;
    qint64 accounts = 0;
    qint64 bytes = 0;
    qint64 iterations = 0;
    QString createdAt;
    bool fromFile = false;

    bool operator==(const WatchExportInfo&) const = default;
};

// A vault account that can go into an export.
struct WatchExportChoice
{
    Q_GADGET
    QML_VALUE_TYPE(watchExportChoice)
    // The record id WatchExportFile::create takes; "GitHub (alice)";
    // "totp", "hotp", "steam".
    Q_PROPERTY(QString id MEMBER id)
    Q_PROPERTY(QString title MEMBER title)
    Q_PROPERTY(QString kind MEMBER kind)

public:
    QString id;
    QString title;
    QString kind;

    bool operator==(const WatchExportChoice&) const = default;
};

} // namespace watchword::app
