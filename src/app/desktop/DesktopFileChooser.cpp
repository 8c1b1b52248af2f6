#include "app/desktop/DesktopFileChooser.h"

#include "app/common/Notify.h"
#include "app/desktop/Places.h"

#include <QDBusArgument>
#include <QDBusError>
#include <QDBusMessage>
#include <QDBusMetaType>
#include <QDBusObjectPath>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDBusVariant>
#include <QFile>
#include <QGuiApplication>
#include <QTimer>
#include <QWindow>

namespace {

const QString portalService = QStringLiteral("org.freedesktop.portal.Desktop");
const QString portalPath = QStringLiteral("/org/freedesktop/portal/desktop");
const QString chooserInterface = QStringLiteral("org.freedesktop.portal.FileChooser");
const QString requestInterface = QStringLiteral("org.freedesktop.portal.Request");

// How long a portal may take to answer a call (not the person: the dialog
// is asynchronous). Starting the portal by D-Bus activation takes a moment.
constexpr int callTimeoutMs = 10'000;

// The portal's filter: a name and its rules, a(us): 0 a glob, 1 a MIME type.
struct FilterRule
{
    uint kind = 0;
    QString pattern;
};

struct Filter
{
    QString name;
    QList<FilterRule> rules;
};

QDBusArgument& operator<<(QDBusArgument& argument, const FilterRule& rule)
{
    argument.beginStructure();
    argument << rule.kind << rule.pattern;
    argument.endStructure();
    return argument;
}

const QDBusArgument& operator>>(const QDBusArgument& argument, FilterRule& rule)
{
    argument.beginStructure();
    argument >> rule.kind >> rule.pattern;
    argument.endStructure();
    return argument;
}

QDBusArgument& operator<<(QDBusArgument& argument, const Filter& filter)
{
    argument.beginStructure();
    argument << filter.name << filter.rules;
    argument.endStructure();
    return argument;
}

const QDBusArgument& operator>>(const QDBusArgument& argument, Filter& filter)
{
    argument.beginStructure();
    argument >> filter.name >> filter.rules;
    argument.endStructure();
    return argument;
}

} // namespace

Q_DECLARE_METATYPE(FilterRule)
Q_DECLARE_METATYPE(Filter)

namespace watchword::app {

namespace {

// "Images (*.png *.jpg)" as the portal's filter: the name before the
// parentheses, each pattern a glob.
Filter portalFilter(const QString& nameFilter)
{
    Filter filter;
    const qsizetype open = nameFilter.indexOf(QLatin1Char('('));
    filter.name = (open > 0 ? nameFilter.left(open) : nameFilter).trimmed();
    if (filter.name.isEmpty())
        filter.name = nameFilter.trimmed();
    for (const QString& pattern : Places::patterns(nameFilter))
        filter.rules.append(FilterRule{0, pattern});
    return filter;
}

// The parent window as the portal names it: "x11:<hex id>" on X11; on
// Wayland naming a window needs xdg-foreign, so none (the chooser is then
// not attached to our window, but works).
QString parentWindowOf(QWindow* window)
{
    if (window == nullptr || QGuiApplication::platformName() != QLatin1String("xcb"))
        return {};
    return QStringLiteral("x11:") + QString::number(window->winId(), 16);
}

// A path as the portal takes it: bytes ending in a NUL.
QByteArray folderBytes(const QUrl& folder)
{
    QByteArray bytes = QFile::encodeName(folder.toLocalFile());
    bytes.append('\0');
    return bytes;
}

} // namespace

DesktopFileChooser::DesktopFileChooser(QObject* parent)
    : DesktopFileChooser(QDBusConnection::sessionBus(), parent)
{}

DesktopFileChooser::DesktopFileChooser(const QDBusConnection& bus, QObject* parent)
    : QObject(parent), m_bus(bus)
{
    qDBusRegisterMetaType<FilterRule>();
    qDBusRegisterMetaType<QList<FilterRule>>();
    qDBusRegisterMetaType<Filter>();
    qDBusRegisterMetaType<QList<Filter>>();
}

void DesktopFileChooser::setEnabled(bool enabled)
{
    assignAndNotify(this, m_enabled, enabled, &DesktopFileChooser::enabledChanged);
}

QString DesktopFileChooser::requestPath(const QString& uniqueName, const QString& token)
{
    QString sender = uniqueName;
    if (sender.startsWith(QLatin1Char(':')))
        sender.remove(0, 1);
    sender.replace(QLatin1Char('.'), QLatin1Char('_'));
    return portalPath + QStringLiteral("/request/") + sender + QLatin1Char('/') + token;
}

void DesktopFileChooser::fail(int request, const QString& reason)
{
    // Always later, as the portal's answers are: the caller has its number.
    QTimer::singleShot(0, this, [this, request, reason] { emit unavailable(request, reason); });
}

int DesktopFileChooser::ask(int mode, const QString& title, const QUrl& folder,
                            const QStringList& nameFilters, const QString& suggestedName,
                            QWindow* window)
{
    const int request = ++m_next;
    if (mode < int(Mode::OpenFile) || mode > int(Mode::Folder)) {
        fail(request, QStringLiteral("no such mode"));
        return request;
    }
    if (!m_enabled) {
        fail(request, QStringLiteral("turned off in the settings"));
        return request;
    }
    if (!m_bus.isConnected()) {
        fail(request, QStringLiteral("no session bus"));
        return request;
    }
    // The chooser's version first: it tells whether there is a portal with
    // a file-chooser backend at all, and whether it can choose folders
    // (version 3).
    auto message = QDBusMessage::createMethodCall(portalService, portalPath,
                                                  QStringLiteral("org.freedesktop.DBus.Properties"),
                                                  QStringLiteral("Get"));
    message << chooserInterface << QStringLiteral("version");
    auto* watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(message, callTimeoutMs), this);
    const QString parentWindow = parentWindowOf(window);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [=, this](QDBusPendingCallWatcher* finished) {
                finished->deleteLater();
                const QDBusPendingReply<QDBusVariant> reply = *finished;
                if (reply.isError()) {
                    emit unavailable(request, reply.error().message());
                    return;
                }
                bool number = false;
                const uint version = reply.value().variant().toUInt(&number);
                if (!number) {
                    emit unavailable(request, QStringLiteral("the portal gave no version"));
                    return;
                }
                if (Mode(mode) == Mode::Folder && version < 3) {
                    emit unavailable(request,
                                     QStringLiteral("the portal's chooser (version %1) cannot "
                                                    "choose folders")
                                         .arg(version));
                    return;
                }
                call(request, mode, title, folder, nameFilters, suggestedName, parentWindow);
            });
    return request;
}

bool DesktopFileChooser::listen(const QString& path)
{
    return m_bus.connect(portalService, path, requestInterface, QStringLiteral("Response"), this,
                         SLOT(portalResponse(QDBusMessage)));
}

void DesktopFileChooser::forget(const QString& path)
{
    m_bus.disconnect(portalService, path, requestInterface, QStringLiteral("Response"), this,
                     SLOT(portalResponse(QDBusMessage)));
    m_pending.remove(path);
}

void DesktopFileChooser::call(int request, int mode, const QString& title, const QUrl& folder,
                              const QStringList& nameFilters, const QString& suggestedName,
                              const QString& parentWindow)
{
    const bool saving = Mode(mode) == Mode::SaveFile;
    const QString token = QStringLiteral("watchword%1").arg(request);
    QVariantMap options;
    options.insert(QStringLiteral("handle_token"), token);
    options.insert(QStringLiteral("modal"), true);
    if (Mode(mode) == Mode::Folder) {
        options.insert(QStringLiteral("directory"), true);
        options.insert(QStringLiteral("accept_label"), tr("Choose"));
    } else {
        options.insert(QStringLiteral("accept_label"), saving ? tr("Save") : tr("Open"));
    }
    if (!nameFilters.isEmpty() && Mode(mode) != Mode::Folder) {
        QList<Filter> filters;
        for (const QString& nameFilter : nameFilters)
            filters.append(portalFilter(nameFilter));
        options.insert(QStringLiteral("filters"), QVariant::fromValue(filters));
        options.insert(QStringLiteral("current_filter"), QVariant::fromValue(filters.first()));
    }
    if (folder.isLocalFile() && !folder.toLocalFile().isEmpty())
        options.insert(QStringLiteral("current_folder"), folderBytes(folder));
    if (saving && !suggestedName.isEmpty())
        options.insert(QStringLiteral("current_name"), suggestedName);

    // Listen before asking: the answer may come before the call's reply.
    const QString expected = requestPath(m_bus.baseService(), token);
    if (!listen(expected)) {
        emit unavailable(request, QStringLiteral("cannot listen for the portal's answer"));
        return;
    }
    m_pending.insert(expected, request);

    auto message = QDBusMessage::createMethodCall(portalService, portalPath, chooserInterface,
                                                  saving ? QStringLiteral("SaveFile")
                                                         : QStringLiteral("OpenFile"));
    message << parentWindow << title << options;
    auto* watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(message, callTimeoutMs), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, request, expected](QDBusPendingCallWatcher* finished) {
                finished->deleteLater();
                const QDBusPendingReply<QDBusObjectPath> reply = *finished;
                if (reply.isError()) {
                    if (m_pending.value(expected) == request)
                        forget(expected);
                    emit unavailable(request, reply.error().message());
                    return;
                }
                // Portals before 0.9 chose the path themselves.
                const QString handle = reply.value().path();
                if (handle != expected && m_pending.value(expected) == request) {
                    forget(expected);
                    m_pending.insert(handle, request);
                    listen(handle);
                }
            });
}

void DesktopFileChooser::portalResponse(const QDBusMessage& message)
{
    const auto found = m_pending.constFind(message.path());
    if (found == m_pending.cend())
        return;
    const int request = found.value();
    forget(message.path());
    const QList<QVariant> arguments = message.arguments();
    if (arguments.size() < 2) {
        emit unavailable(request, QStringLiteral("the portal's answer has no results"));
        return;
    }
    const uint response = arguments.at(0).toUInt();
    if (response != 0) {
        // 1: cancelled; 2: ended some other way (also nothing chosen).
        emit cancelled(request);
        return;
    }
    QVariantMap results;
    arguments.at(1).value<QDBusArgument>() >> results;
    const QVariant urisValue = results.value(QStringLiteral("uris"));
    QStringList uris = urisValue.toStringList();
    if (uris.isEmpty() && urisValue.canConvert<QDBusArgument>())
        urisValue.value<QDBusArgument>() >> uris;
    if (uris.isEmpty()) {
        emit unavailable(request, QStringLiteral("the portal chose nothing"));
        return;
    }
    const QUrl file(uris.first());
    if (!file.isLocalFile()) {
        emit unavailable(request, QStringLiteral("the chooser gave a location that is not a "
                                                 "local file: %1")
                                      .arg(file.scheme()));
        return;
    }
    emit chosen(request, file);
}

} // namespace watchword::app
