#include "FakeFileChooser.h"

#include <QDBusArgument>
#include <QTimer>

namespace watchword::test {

namespace {

const QString service = QStringLiteral("org.freedesktop.portal.Desktop");
const QString objectPath = QStringLiteral("/org/freedesktop/portal/desktop");

// One filter, (sa(us)), as [name, [[kind, pattern], ...]].
QVariantList readFilter(const QDBusArgument& argument)
{
    QString name;
    QVariantList rules;
    argument.beginStructure();
    argument >> name;
    argument.beginArray();
    while (!argument.atEnd()) {
        uint kind = 0;
        QString pattern;
        argument.beginStructure();
        argument >> kind >> pattern;
        argument.endStructure();
        rules.append(QVariant(QVariantList{kind, pattern}));
    }
    argument.endArray();
    argument.endStructure();
    return {name, rules};
}

} // namespace

FakeFileChooser::FakeFileChooser(QDBusConnection bus) : m_bus(std::move(bus))
{
    new FakeFileChooserAdaptor(this);
    m_registered = m_bus.registerObject(objectPath, this, QDBusConnection::ExportAdaptors) &&
                   m_bus.registerService(service);
}

FakeFileChooser::~FakeFileChooser()
{
    m_bus.unregisterService(service);
    m_bus.unregisterObject(objectPath);
}

QDBusObjectPath FakeFileChooser::ask(const QString& askedMethod, const QString& parent,
                                     const QString& askedTitle, const QVariantMap& askedOptions,
                                     const QDBusMessage& message)
{
    ++calls;
    method = askedMethod;
    parentWindow = parent;
    title = askedTitle;
    options = askedOptions;
    // The nested values read once, here, while the message is at hand.
    if (const QVariant value = options.value(QStringLiteral("filters"));
        value.canConvert<QDBusArgument>()) {
        QVariantList list;
        const auto argument = value.value<QDBusArgument>();
        argument.beginArray();
        while (!argument.atEnd())
            list.append(QVariant(readFilter(argument)));
        argument.endArray();
        options.insert(QStringLiteral("filters"), list);
    }
    if (const QVariant value = options.value(QStringLiteral("current_filter"));
        value.canConvert<QDBusArgument>())
        options.insert(QStringLiteral("current_filter"), readFilter(value.value<QDBusArgument>()));
    QString sender = message.service();
    sender.remove(0, 1); // the leading ':'
    sender.replace(QLatin1Char('.'), QLatin1Char('_'));
    const QString token = options.value(QStringLiteral("handle_token")).toString();
    const QString path =
        legacyHandle ? objectPath + QStringLiteral("/request/legacy%1").arg(calls)
                     : objectPath + QStringLiteral("/request/") + sender + QLatin1Char('/') + token;
    // The person answers after the call has returned. Under the old protocol a
    // caller can listen only once it has read the reply, so an answer that comes
    // at once is lost there, as it was with such portals; a person takes longer.
    QTimer::singleShot(legacyHandle ? 500 : 0, this, [this, path] {
        auto signal = QDBusMessage::createSignal(
            path, QStringLiteral("org.freedesktop.portal.Request"), QStringLiteral("Response"));
        QVariantMap results;
        if (response == 0)
            results.insert(QStringLiteral("uris"), uris);
        signal << response << results;
        m_bus.send(signal);
    });
    return QDBusObjectPath(path);
}

FakeFileChooserAdaptor::FakeFileChooserAdaptor(FakeFileChooser* chooser)
    : QDBusAbstractAdaptor(chooser), m_chooser(chooser)
{}

QDBusObjectPath FakeFileChooserAdaptor::OpenFile(const QString& parentWindow, const QString& title,
                                                 const QVariantMap& options,
                                                 const QDBusMessage& message)
{
    return m_chooser->ask(QStringLiteral("OpenFile"), parentWindow, title, options, message);
}

QDBusObjectPath FakeFileChooserAdaptor::SaveFile(const QString& parentWindow, const QString& title,
                                                 const QVariantMap& options,
                                                 const QDBusMessage& message)
{
    return m_chooser->ask(QStringLiteral("SaveFile"), parentWindow, title, options, message);
}

} // namespace watchword::test
