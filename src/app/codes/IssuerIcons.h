#pragma once

// The issuer icons shipped with the app (resources/issuers/issuers.json: a
// documented subset of the CC0 simple-icons set), matched by an account's
// issuer: its name, an alias, or a domain ("GitHub", "github.com",
// "accounts.google.com"), without regard to case, accents, spaces or
// punctuation. An account no icon matches gets a lettered one, drawn by the
// view from monogram() and the colour here.

#include <QColor>
#include <QHash>
#include <QString>
#include <vector>

namespace watchword::app {

class IssuerIcons
{
public:
    struct Icon
    {
        QString slug;
        QString title;
        QString path;  // SVG path data on a 24 x 24 grid
        QColor colour; // the brand's
        QColor glyph;  // white or near-black, whichever reads better on colour
    };

    // The shipped set, read once from the app's resources.
    static const IssuerIcons& shipped();
    // A set from JSON text in the shipped file's form (for tests).
    static IssuerIcons fromJson(const QByteArray& json);

    // The icon for issuer, or null.
    const Icon* match(const QString& issuer) const;
    std::size_t size() const { return m_icons.size(); }

    // The letter of the fallback icon: the title's first letter or digit,
    // upper case; "?" if it has none.
    static QString monogram(const QString& title);
    // The fallback icon's colour: one of a fixed set of hues, the same for
    // the same title every time; white letters read on each (4.5:1).
    static QColor monogramColour(const QString& title);
    // The form names are compared in: case, accents, spaces and
    // punctuation folded away.
    static QString key(const QString& name);

private:
    std::vector<Icon> m_icons;
    QHash<QString, std::size_t> m_byKey;
};

} // namespace watchword::app
