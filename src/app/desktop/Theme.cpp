#include "app/desktop/Theme.h"

#include "app/desktop/AppSettings.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDBusVariant>
#include <QEvent>
#include <QGuiApplication>
#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace watchword::app {

namespace {

const QString portalService = QStringLiteral("org.freedesktop.portal.Desktop");
const QString portalPath = QStringLiteral("/org/freedesktop/portal/desktop");
const QString portalInterface = QStringLiteral("org.freedesktop.portal.Settings");
const QString appearanceGroup = QStringLiteral("org.freedesktop.appearance");
const QString colorSchemeKey = QStringLiteral("color-scheme");

// The palette roles a QML palette has, by their QML names.
constexpr std::array<std::pair<const char*, QPalette::ColorRole>, 20> roles{{
    {"alternateBase", QPalette::AlternateBase},
    {"base", QPalette::Base},
    {"brightText", QPalette::BrightText},
    {"button", QPalette::Button},
    {"buttonText", QPalette::ButtonText},
    {"dark", QPalette::Dark},
    {"highlight", QPalette::Highlight},
    {"highlightedText", QPalette::HighlightedText},
    {"light", QPalette::Light},
    {"link", QPalette::Link},
    {"linkVisited", QPalette::LinkVisited},
    {"mid", QPalette::Mid},
    {"midlight", QPalette::Midlight},
    {"placeholderText", QPalette::PlaceholderText},
    {"shadow", QPalette::Shadow},
    {"text", QPalette::Text},
    {"toolTipBase", QPalette::ToolTipBase},
    {"toolTipText", QPalette::ToolTipText},
    {"window", QPalette::Window},
    {"windowText", QPalette::WindowText},
}};

QVariantMap colorMap(const QPalette& palette, QPalette::ColorGroup group)
{
    QVariantMap map;
    for (const auto& [name, role] : roles)
        map.insert(QLatin1String(name), palette.color(group, role));
    return map;
}

// Active and inactive alike; disabled, the texts are dimmed and the
// highlighted button's fill is too.
QPalette makePalette(const std::array<QColor, 20>& active, const QColor& disabledText)
{
    QPalette palette;
    for (std::size_t i = 0; i < roles.size(); ++i) {
        palette.setColor(QPalette::Active, roles[i].second, active[i]);
        palette.setColor(QPalette::Inactive, roles[i].second, active[i]);
        palette.setColor(QPalette::Disabled, roles[i].second, active[i]);
    }
    for (const auto role :
         {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::HighlightedText,
          QPalette::PlaceholderText, QPalette::BrightText})
        palette.setColor(QPalette::Disabled, role, disabledText);
    // The Basic style fills a highlighted (default) button with dark and
    // writes on it in brightText: disabled, it must not look like the live
    // one, so it takes the border colour and the dimmed text.
    palette.setColor(QPalette::Disabled, QPalette::Dark,
                     palette.color(QPalette::Active, QPalette::Mid));
    return palette;
}

} // namespace

Theme::Theme(AppSettings* settings, QObject* parent) : QObject(parent), m_settings(settings)
{
    connect(settings, &AppSettings::themeChanged, this, &Theme::update);
    // The platform palette changes when the desktop's colour scheme does.
    qApp->installEventFilter(this);
    update();
}

bool Theme::isDarkPalette(const QPalette& palette)
{
    return palette.color(QPalette::Active, QPalette::Window).lightnessF() < 0.5;
}

// In the order of `roles`. The Basic style draws borders in mid, a switch's
// track in midlight, and checked buttons, switches and progress in dark (under
// brightText), so those keep their contrast against window in both. The
// highlighted item of a drop-down is highlightedText on light and that of a
// menu windowText on light, so light is a pale tone under both in the light
// theme and a dark one under both in the dark theme; selected text is
// highlightedText on highlight. Every pair of textPairs() reaches 4.5:1.
QPalette Theme::lightPalette()
{
    return makePalette({QColor(0xeff0f1), QColor(0xfcfcfc), QColor(0xffffff), QColor(0xe3e5e7),
                        QColor(0x232629), QColor(0x4d5257), QColor(0x3d9be9), QColor(0x1b1e20),
                        QColor(0xcfe5f8), QColor(0x1f6fb2), QColor(0x7a3fa0), QColor(0xb0b6bb),
                        QColor(0xd5d9dc), QColor(0x5f656a), QColor(0x474d52), QColor(0x232629),
                        QColor(0xf7f7f7), QColor(0x232629), QColor(0xeff0f1), QColor(0x232629)},
                       QColor(0xa0a4a8));
}

QPalette Theme::darkPalette()
{
    return makePalette({QColor(0x2a2e32), QColor(0x1b1e20), QColor(0xffffff), QColor(0x31363b),
                        QColor(0xfcfcfc), QColor(0x1f6fb2), QColor(0x2577b8), QColor(0xfcfcfc),
                        QColor(0x40464c), QColor(0x5eb4f5), QColor(0xb58ae0), QColor(0x5c6268),
                        QColor(0x363b40), QColor(0x9ba3ab), QColor(0x0b0c0d), QColor(0xfcfcfc),
                        QColor(0x31363b), QColor(0xfcfcfc), QColor(0x202326), QColor(0xfcfcfc)},
                       QColor(0x6e7175));
}

const std::vector<Theme::TextPair>& Theme::textPairs()
{
    static const std::vector<TextPair> pairs{
        {"text on base (fields, lists)", QPalette::Text, QPalette::Base},
        {"window text on window (labels)", QPalette::WindowText, QPalette::Window},
        {"secondary text on window", QPalette::PlaceholderText, QPalette::Window},
        {"placeholder text on base", QPalette::PlaceholderText, QPalette::Base},
        {"button text on button", QPalette::ButtonText, QPalette::Button},
        {"selected text on highlight", QPalette::HighlightedText, QPalette::Highlight},
        {"drop-down's current item", QPalette::HighlightedText, QPalette::Light},
        {"menu's current item", QPalette::WindowText, QPalette::Light},
        {"default button's label", QPalette::BrightText, QPalette::Dark},
        {"tooltip", QPalette::ToolTipText, QPalette::ToolTipBase},
        {"link on base", QPalette::Link, QPalette::Base},
        {"text on alternate rows", QPalette::Text, QPalette::AlternateBase},
    };
    return pairs;
}

double Theme::contrastRatio(const QColor& first, const QColor& second)
{
    // Relative luminance of sRGB (WCAG 2.x).
    const auto luminance = [](const QColor& colour) {
        const auto channel = [](double value) {
            return value <= 0.04045 ? value / 12.92 : std::pow((value + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF()) +
               0.0722 * channel(colour.blueF());
    };
    const double a = luminance(first);
    const double b = luminance(second);
    return (std::max(a, b) + 0.05) / (std::min(a, b) + 0.05);
}

void Theme::update()
{
    const QString& choice = m_settings->theme();
    const QPalette system = QGuiApplication::palette();
    QPalette palette;
    if (choice == QLatin1String("light")) {
        palette = lightPalette();
    } else if (choice == QLatin1String("dark")) {
        palette = darkPalette();
    } else {
        const bool systemDark = isDarkPalette(system);
        const bool wantDark = m_systemScheme == SystemScheme::NoPreference
                                  ? systemDark
                                  : m_systemScheme == SystemScheme::Dark;
        // The platform's own palette, unless its buttons are the colour of
        // the window (Qt's built-in default, as offscreen): the Basic style
        // draws a button as a plain rectangle, which would then vanish.
        const double buttonContrast =
            std::abs(system.color(QPalette::Active, QPalette::Button).lightnessF() -
                     system.color(QPalette::Active, QPalette::Window).lightnessF());
        if (wantDark == systemDark && buttonContrast >= 0.03)
            palette = system;
        else
            palette = wantDark ? darkPalette() : lightPalette();
    }
    const bool dark = isDarkPalette(palette);
    if (palette == m_palette && dark == m_dark && !m_colors.isEmpty())
        return;
    m_palette = palette;
    m_dark = dark;
    m_colors = colorMap(palette, QPalette::Active);
    m_disabledColors = colorMap(palette, QPalette::Disabled);
    emit changed();
}

void Theme::setSystemScheme(SystemScheme scheme)
{
    if (scheme == m_systemScheme)
        return;
    m_systemScheme = scheme;
    update();
}

bool Theme::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == qApp && event->type() == QEvent::ApplicationPaletteChange)
        update();
    return QObject::eventFilter(watched, event);
}

void Theme::watchPortal(const QDBusConnection& bus)
{
    if (!bus.isConnected())
        return;
    QDBusConnection connection(bus);
    // Qt 6.4 finds a slot's parameter types by name, and QDBusVariant has no
    // name until it is registered: without this the connection fails.
    qRegisterMetaType<QDBusVariant>();
    connection.connect(portalService, portalPath, portalInterface, QStringLiteral("SettingChanged"),
                       this, SLOT(portalSettingChanged(QString, QString, QDBusVariant)));
    auto message = QDBusMessage::createMethodCall(portalService, portalPath, portalInterface,
                                                  QStringLiteral("Read"));
    message << appearanceGroup << colorSchemeKey;
    // Asynchronous: starting the portal may take a moment, and the window
    // should not wait for it; until it answers, the palette decides.
    auto* watcher = new QDBusPendingCallWatcher(connection.asyncCall(message), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this](QDBusPendingCallWatcher* call) {
                call->deleteLater();
                const QDBusPendingReply<QDBusVariant> reply = *call;
                if (!reply.isError())
                    setPortalValue(reply.value().variant());
            });
}

void Theme::portalSettingChanged(const QString& group, const QString& key,
                                 const QDBusVariant& value)
{
    if (group == appearanceGroup && key == colorSchemeKey)
        setPortalValue(value.variant());
}

void Theme::setPortalValue(const QVariant& value)
{
    // Older portals wrap the value in a second variant.
    QVariant inner = value;
    while (inner.canConvert<QDBusVariant>() && inner.userType() == qMetaTypeId<QDBusVariant>())
        inner = qvariant_cast<QDBusVariant>(inner).variant();
    bool ok = false;
    const uint scheme = inner.toUInt(&ok);
    if (!ok)
        return;
    // 1: prefers dark, 2: prefers light, anything else: no preference.
    setSystemScheme(scheme == 1   ? SystemScheme::Dark
                    : scheme == 2 ? SystemScheme::Light
                                  : SystemScheme::NoPreference);
}

} // namespace watchword::app
