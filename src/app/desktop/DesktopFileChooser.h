#pragma once

// The desktop's own file chooser, asked over the XDG desktop portal
// (org.freedesktop.portal.FileChooser on the session bus): GNOME's, KDE's or
// whichever the desktop provides, with its places, recent files and
// previews, and the only way to files outside a Flatpak sandbox. Where there
// is no such chooser (no session bus, no portal, no file-chooser backend, a
// portal too old to choose folders) it says so at once, and the caller
// shows the app's own picker (qml/FilePicker.qml) instead.
//
// The protocol: OpenFile or SaveFile returns a request object at once; the
// answer comes later as that request's Response signal: 0 with the chosen
// URIs, 1 when the person cancelled, 2 when the dialog ended otherwise.

#include <QDBusConnection>
#include <QDBusMessage>
#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <QWindow>
#include <QtQml/qqmlregistration.h>

namespace watchword::app {

class DesktopFileChooser : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
    // Off: ask() answers unavailable at once (the setting "Use the
    // desktop's file chooser").
    Q_PROPERTY(bool enabled READ enabled WRITE setEnabled NOTIFY enabledChanged)

public:
    // The values of FilePicker.Mode.
    enum class Mode { OpenFile = 0, SaveFile = 1, Folder = 2 };
    Q_ENUM(Mode)

    // On the session bus.
    explicit DesktopFileChooser(QObject* parent = nullptr);
    // On bus (a private bus in tests).
    explicit DesktopFileChooser(const QDBusConnection& bus, QObject* parent = nullptr);

    bool enabled() const { return m_enabled; }
    void setEnabled(bool enabled);

    // Asks the desktop's chooser; the answer is one of the signals below,
    // always later (never from within ask), carrying the number returned.
    // nameFilters as FilePicker's ("Images (*.png *.jpg)"; the first one
    // applies); folder: where it opens; suggestedName: save mode's name;
    // window: the dialog's parent, where the platform can name it.
    Q_INVOKABLE int ask(int mode, const QString& title, const QUrl& folder,
                        const QStringList& nameFilters, const QString& suggestedName,
                        QWindow* window = nullptr);

    // The portal's object path for a request, from the connection's unique
    // name and the handle token (the portal documents this form).
    static QString requestPath(const QString& uniqueName, const QString& token);

signals:
    void enabledChanged();
    // A local file (or folder) was chosen.
    void chosen(int request, const QUrl& file);
    // The person closed the chooser without choosing.
    void cancelled(int request);
    // There is no chooser to ask, or it failed: reason says why (for the
    // log of the caller, never shown as an error: the app's own picker
    // opens instead).
    void unavailable(int request, const QString& reason);

private slots:
    void portalResponse(const QDBusMessage& message);

private:
    void fail(int request, const QString& reason);
    void call(int request, int mode, const QString& title, const QUrl& folder,
              const QStringList& nameFilters, const QString& suggestedName,
              const QString& parentWindow);
    bool listen(const QString& path);
    void forget(const QString& path);

    QDBusConnection m_bus;
    bool m_enabled = true;
    int m_next = 0;
    QHash<QString, int> m_pending; // request path -> request number
};

} // namespace watchword::app
