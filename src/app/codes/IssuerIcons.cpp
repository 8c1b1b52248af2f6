#include "app/codes/IssuerIcons.h"

#include "app/codes/AccountFilterModel.h"
#include "app/desktop/Theme.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <array>

namespace watchword::app {

QString IssuerIcons::key(const QString& name)
{
    const QString folded = foldForSearch(name);
    QString result;
    result.reserve(folded.size());
    for (const QChar c : folded)
        if (c.isLetterOrNumber())
            result += c;
    return result;
}

IssuerIcons IssuerIcons::fromJson(const QByteArray& json)
{
    IssuerIcons icons;
    const QJsonArray list =
        QJsonDocument::fromJson(json).object().value(QLatin1String("icons")).toArray();
    for (const QJsonValue& value : list) {
        const QJsonObject object = value.toObject();
        Icon icon;
        icon.slug = object.value(QLatin1String("slug")).toString();
        icon.title = object.value(QLatin1String("title")).toString();
        icon.path = object.value(QLatin1String("path")).toString();
        icon.colour = QColor(QLatin1Char('#') + object.value(QLatin1String("hex")).toString());
        if (icon.slug.isEmpty() || icon.path.isEmpty() || !icon.colour.isValid())
            continue;
        const QColor white(0xff, 0xff, 0xff);
        const QColor dark(0x1b, 0x1e, 0x20);
        icon.glyph =
            Theme::contrastRatio(white, icon.colour) >= Theme::contrastRatio(dark, icon.colour)
                ? white
                : dark;
        const std::size_t index = icons.m_icons.size();
        QStringList names{icon.slug, icon.title};
        for (const QJsonValue& name : object.value(QLatin1String("names")).toArray())
            names << name.toString();
        for (const QString& name : names) {
            const QString k = key(name);
            if (!k.isEmpty() && !icons.m_byKey.contains(k))
                icons.m_byKey.insert(k, index);
        }
        icons.m_icons.push_back(std::move(icon));
    }
    return icons;
}

const IssuerIcons& IssuerIcons::shipped()
{
    static const IssuerIcons icons = [] {
        QFile file(QStringLiteral(":/issuers/issuers.json"));
        return file.open(QIODevice::ReadOnly) ? fromJson(file.readAll()) : IssuerIcons();
    }();
    return icons;
}

const IssuerIcons::Icon* IssuerIcons::match(const QString& issuer) const
{
    const QString trimmed = issuer.trimmed();
    if (trimmed.isEmpty())
        return nullptr;
    QStringList candidates{trimmed};
    // A domain: also its name without "www." or a subdomain, and the label
    // before the top-level domain ("accounts.google.com" -> "google").
    if (trimmed.contains(QLatin1Char('.')) && !trimmed.contains(QLatin1Char(' '))) {
        QStringList labels = trimmed.toLower().split(QLatin1Char('.'), Qt::SkipEmptyParts);
        while (labels.size() > 2) {
            labels.removeFirst();
            candidates << labels.join(QLatin1Char('.'));
        }
        if (labels.size() == 2)
            candidates << labels.first();
    }
    for (const QString& candidate : candidates) {
        const std::size_t index = m_byKey.value(key(candidate), m_icons.size());
        if (index < m_icons.size())
            return &m_icons[index];
    }
    return nullptr;
}

QString IssuerIcons::monogram(const QString& title)
{
    for (const QChar c : title)
        if (c.isLetterOrNumber())
            return QString(c).toUpper();
    return QStringLiteral("?");
}

QColor IssuerIcons::monogramColour(const QString& title)
{
    // Dark enough for white letters at 4.5:1 or more.
    static const std::array<QColor, 8> hues{QColor(0x1f6fb2), QColor(0x2e7d32), QColor(0xad1457),
                                            QColor(0x6a1b9a), QColor(0xc62828), QColor(0x00695c),
                                            QColor(0x5d4037), QColor(0x37474f)};
    const QString k = key(title);
    uint hash = 0;
    for (const QChar c : k)
        hash = hash * 31u + c.unicode();
    return hues[hash % hues.size()];
}

} // namespace watchword::app
