#include "app/codes/LinkFinder.h"

#include "app/codes/AccountDraft.h"

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
        if (AccountDraft::looksLikeOtpauthUri(text))
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
    if (AccountDraft::looksLikeOtpauthUri(text))
        return act(QStringLiteral("fill"), text.trimmed(), dropped);
    // A text/uri-list's lines: comments (#) and empty lines aside.
    QStringList entries;
    for (const auto& entry : uris)
        if (const QString line = entry.trimmed(); !line.isEmpty() && !line.startsWith(u'#'))
            entries << line;
    for (const auto& entry : entries)
        if (AccountDraft::looksLikeOtpauthUri(entry))
            return act(QStringLiteral("fill"), entry, dropped);
    for (const auto& entry : entries)
        if (entry.startsWith(QStringLiteral("file:"), Qt::CaseInsensitive))
            return act(QStringLiteral("read"), entry, {});
    return act(QStringLiteral("explain"), {},
               tr("Drop an image with a QR code, or an otpauth:// link."));
}

} // namespace watchword::app
