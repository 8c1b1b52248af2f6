#pragma once

// A D-Bus of the test's own: a dbus-daemon started for it, so that the
// paths over the session bus (the desktop portal, logind) run against fakes
// instead of the machine's services, and CI (which has no bus) runs them
// too. Its configuration is its own as well: no service directories, so
// nothing installed on the machine (a real portal, say) is started on it.
// dbus-daemon comes from scripts/deps.sh.

#include <QDBusConnection>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

namespace watchword::test {

class PrivateBus
{
public:
    // Starts the daemon; address() is empty if it could not (error() says
    // why).
    PrivateBus();
    ~PrivateBus();
    PrivateBus(const PrivateBus&) = delete;
    PrivateBus& operator=(const PrivateBus&) = delete;

    QString address() const { return m_address; }
    QString error() const { return m_error; }
    // A connection to it under name (closed with the bus).
    QDBusConnection connect(const QString& name);

private:
    QTemporaryDir m_dir; // the configuration and the socket
    QProcess m_daemon;
    QString m_address;
    QString m_error;
    QStringList m_names;
};

} // namespace watchword::test
