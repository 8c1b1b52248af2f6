#pragma once

// The desktop portal's file chooser as a test's fake, on a private bus
// (PrivateBus): it owns org.freedesktop.portal.Desktop, takes OpenFile and
// SaveFile as the portal documents them, remembers what it was asked, and
// answers with the request's Response signal, as a person choosing a file
// in GNOME's or KDE's dialog would.

#include <QDBusAbstractAdaptor>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusObjectPath>
#include <QObject>
#include <QStringList>
#include <QVariantMap>

namespace watchword::test {

class FakeFileChooser : public QObject
{
    Q_OBJECT

public:
    // Registers the portal's object and name on bus.
    explicit FakeFileChooser(QDBusConnection bus);
    ~FakeFileChooser() override;
    bool registered() const { return m_registered; }

    // What the chooser answers: Response's code (0 chosen, 1 cancelled,
    // 2 other) and the URIs chosen.
    uint response = 0;
    QStringList uris;
    uint version = 4;
    // Answers on a request path of its own choosing (portals before 0.9),
    // not the one the token names.
    bool legacyHandle = false;

    // The last question: "OpenFile" or "SaveFile", and its arguments. The
    // options' filters, a(sa(us)), are plain lists here:
    // [[name, [[kind, pattern], ...]], ...]; current_filter likewise.
    QString method;
    QString parentWindow;
    QString title;
    QVariantMap options;
    int calls = 0;

    // Called by the adaptor.
    QDBusObjectPath ask(const QString& method, const QString& parentWindow, const QString& title,
                        const QVariantMap& options, const QDBusMessage& message);

private:
    QDBusConnection m_bus;
    bool m_registered = false;
};

class FakeFileChooserAdaptor : public QDBusAbstractAdaptor
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.portal.FileChooser")
    Q_PROPERTY(uint version READ version)

public:
    explicit FakeFileChooserAdaptor(FakeFileChooser* chooser);
    uint version() const { return m_chooser->version; }

public slots:
    QDBusObjectPath OpenFile(const QString& parentWindow, const QString& title,
                             const QVariantMap& options, const QDBusMessage& message);
    QDBusObjectPath SaveFile(const QString& parentWindow, const QString& title,
                             const QVariantMap& options, const QDBusMessage& message);

private:
    FakeFileChooser* m_chooser;
};

} // namespace watchword::test
