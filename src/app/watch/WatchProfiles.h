// The watch simulator's device profiles (watch::loadDevices) and the watch
// chosen among them, with the times the user measured on a real watch.
// The choice and the measured times are kept in the simulator's settings,
// by device and operation: they are timings, not secrets.
#pragma once

#include "app/watch/WatchValues.h"
#include "watch/Device.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QtQml/qqmlregistration.h>
#include <string_view>
#include <vector>

namespace watchword::app {

class WatchSimulator;

class WatchProfiles : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the device profiles belong to a WatchSimulator")
    // Where profiles are read from; defaults to watch::defaultDeviceDirectory().
    Q_PROPERTY(
        QString deviceDirectory READ deviceDirectory WRITE setDeviceDirectory NOTIFY devicesChanged)
    // Every profile loaded, in the folder's order.
    Q_PROPERTY(QList<watchword::app::WatchProfile> devices READ devices NOTIFY devicesChanged)
    // Why the profiles could not be loaded (the file and field named); "".
    Q_PROPERTY(QString loadError READ loadError NOTIFY devicesChanged)
    Q_PROPERTY(QString deviceId READ deviceId WRITE setDeviceId NOTIFY deviceChanged)
    // The chosen profile; default-made (id "") if none is. Whether its
    // screen can be drawn is device.drawable; why not ("fr70: the shape and
    // the resolution are unknown"), or why there is no device, is this.
    Q_PROPERTY(watchword::app::WatchProfile device READ device NOTIFY deviceChanged)
    Q_PROPERTY(QString undrawableReason READ undrawableReason NOTIFY deviceChanged)

public:
    // Reads the profiles of the default folder, and follows the simulator's
    // settings.
    explicit WatchProfiles(WatchSimulator& simulator);

    const QString& deviceDirectory() const { return m_deviceDirectory; }
    void setDeviceDirectory(const QString& directory);
    QList<WatchProfile> devices() const;
    const QString& loadError() const { return m_loadError; }
    QString deviceId() const;
    void setDeviceId(const QString& id);
    WatchProfile device() const;
    QString undrawableReason() const;

    // A time measured on the real watch for an operation key ("totp-sha1",
    // "pbkdf2-1000", ...), in ms; 0 or less clears it. Kept per device.
    // False with the simulator's error set for an unknown operation or a
    // time that is not 0 to an hour.
    Q_INVOKABLE bool setMeasured(const QString& operation, double milliseconds);

    // For the other parts: the chosen watch (null if none), and the profile
    // with this id (null if none is loaded).
    const watch::Device* current() const;
    const watch::Device* find(std::string_view id) const;

signals:
    void devicesChanged();
    void deviceChanged();
    // A measured time of the chosen watch was set or cleared.
    void measuredChanged();

private:
    // keepCurrent: stay on the device shown (a new folder); otherwise the
    // one last chosen in the settings.
    void loadDevices(bool keepCurrent = true);

    WatchSimulator& m_simulator;
    QString m_deviceDirectory;
    QString m_loadError;
    std::vector<watch::Device> m_devices;
    std::size_t m_current = 0;
};

} // namespace watchword::app
