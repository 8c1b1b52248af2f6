// The colours the window uses: light, dark, or what the system prefers, from
// the theme setting.
//
// Qt 6.4 has no colour-scheme hint (QStyleHints::colorScheme came in 6.5),
// and the Basic style paints with its own light palette whatever the desktop
// does. So "system" is worked out here: the desktop portal's
// org.freedesktop.appearance color-scheme when there is one (GNOME's dark
// style sets it without touching Qt's palette), otherwise the lightness of the
// platform palette's window colour (KDE's colour schemes reach Qt that way).
// When the system palette already matches the preferred scheme it is used
// as is, so a desktop's own colours carry over; otherwise a built-in light or
// dark palette stands in. The window binds its palette roles to `colors` (and
// `disabledColors`), which change together with `dark`.
#pragma once

#include <QColor>
#include <QDBusVariant>
#include <QObject>
#include <QPalette>
#include <QVariantMap>
#include <QtQml/qqmlregistration.h>
#include <vector>

class QDBusConnection;

namespace watchword::app {

class AppSettings;

class Theme : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the theme is made by main()")
    Q_PROPERTY(bool dark READ dark NOTIFY changed)
    Q_PROPERTY(QVariantMap colors READ colors NOTIFY changed)
    Q_PROPERTY(QVariantMap disabledColors READ disabledColors NOTIFY changed)

public:
    // What the desktop portal says the user prefers.
    enum class SystemScheme { NoPreference, Dark, Light };

    explicit Theme(AppSettings* settings, QObject* parent = nullptr);

    bool dark() const { return m_dark; }
    const QVariantMap& colors() const { return m_colors; }
    const QVariantMap& disabledColors() const { return m_disabledColors; }
    const QPalette& palette() const { return m_palette; }

    // Asks the desktop portal on bus for the colour scheme and follows its
    // changes; without a portal nothing happens. main() passes the session
    // bus.
    void watchPortal(const QDBusConnection& bus);
    // What the portal said; also how tests stand in for one.
    void setSystemScheme(SystemScheme scheme);

    static bool isDarkPalette(const QPalette& palette);
    static QPalette lightPalette();
    static QPalette darkPalette();

    // A text colour and the background the window draws it on: the pairs
    // the Basic style and the pages use (a drop-down's current item is
    // highlightedText on light, a menu's is windowText on light, a default
    // button's label is brightText on dark, and so on).
    struct TextPair
    {
        const char* name;
        QPalette::ColorRole text;
        QPalette::ColorRole background;
    };
    static const std::vector<TextPair>& textPairs();
    // WCAG 2's contrast ratio, 1 to 21 (AA asks 4.5 for text).
    static double contrastRatio(const QColor& first, const QColor& second);

signals:
    void changed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private slots:
    void portalSettingChanged(const QString& group, const QString& key, const QDBusVariant& value);

private:
    void update();
    void setPortalValue(const QVariant& value);

    AppSettings* m_settings;
    SystemScheme m_systemScheme = SystemScheme::NoPreference;
    bool m_dark = false;
    QPalette m_palette;
    QVariantMap m_colors;
    QVariantMap m_disabledColors;
};

} // namespace watchword::app
