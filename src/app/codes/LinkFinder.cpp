#include "app/codes/LinkFinder.h"

#include "base/SecureBuffer.h"
#include "otp/OtpauthUri.h"

#include <QByteArray>
#include <string_view>

namespace watchword::app {

namespace {

LinkAction act(QString action, QString link, QString message)
{
    return {std::move(action), std::move(link), {}, std::move(message)};
}

} // namespace

LinkFinder::LinkFinder(QObject* parent) : QObject(parent) {}

LinkAction LinkFinder::fromScan(const QStringList& texts) const
{
    QStringList links;
    for (const auto& text : texts)
        if (looksLikeOtpauthUri(text))
            links << text;
    if (links.size() == 1)
        return act(QStringLiteral("fill"), links.front(), tr("Filled in from the QR code."));
    if (links.size() > 1) {
        LinkAction choice = act(QStringLiteral("choose"), {},
                                tr("The image holds %1 codes: choose one.").arg(links.size()));
        choice.links = links;
        return choice;
    }
    for (const auto& text : texts)
        if (text.trimmed().startsWith(QStringLiteral("otpauth-migration:"), Qt::CaseInsensitive))
            return act(QStringLiteral("import"), text.trimmed(), {});
    return act(QStringLiteral("explain"), {}, tr("The QR code holds no otpauth:// link."));
}

LinkAction LinkFinder::fromDrop(const QStringList& uris, const QString& text) const
{
    const QString dropped = tr("Filled in from the dropped link.");
    if (looksLikeOtpauthUri(text))
        return act(QStringLiteral("fill"), text.trimmed(), dropped);
    // A text/uri-list's lines: comments (#) and empty lines aside.
    QStringList entries;
    for (const auto& entry : uris)
        if (const QString line = entry.trimmed(); !line.isEmpty() && !line.startsWith(u'#'))
            entries << line;
    for (const auto& entry : entries)
        if (looksLikeOtpauthUri(entry))
            return act(QStringLiteral("fill"), entry, dropped);
    for (const auto& entry : entries)
        if (entry.startsWith(QStringLiteral("file:"), Qt::CaseInsensitive))
            return act(QStringLiteral("read"), entry, {});
    return act(QStringLiteral("explain"), {},
               tr("Drop an image with a QR code, or an otpauth:// link."));
}

bool LinkFinder::looksLikeOtpauthUri(const QString& text)
{
    return QStringView(text).trimmed().startsWith(QLatin1String("otpauth://"), Qt::CaseInsensitive);
}

QString LinkFinder::describeUri(const QString& text)
{
    QByteArray utf8 = text.toUtf8();
    const auto parsed =
        otp::parseOtpauthUri(std::string_view(utf8.constData(), std::size_t(utf8.size())));
    secureWipe(utf8.data(), static_cast<std::size_t>(utf8.size()));
    if (!parsed)
        return {};
    const QString issuer = QString::fromStdString(parsed->issuer());
    const QString account = QString::fromStdString(parsed->account);
    if (issuer.isEmpty())
        return account;
    if (account.isEmpty())
        return issuer;
    return tr("%1 (%2)").arg(issuer, account);
}

} // namespace watchword::app
