#include "app/vault/RecordIds.h"

#include "encoding/Hex.h"

#include <QDateTime>
#include <algorithm>

namespace watchword::app {

QByteArray hexId(const vault::RecordId& id)
{
    return QByteArray::fromStdString(encoding::toHex(id));
}

std::optional<vault::RecordId> recordIdFrom(const QString& hex)
{
    const auto bytes = encoding::fromHex(hex.toStdString());
    vault::RecordId id{};
    if (!bytes || bytes->size() != id.size())
        return std::nullopt;
    std::copy(bytes->begin(), bytes->end(), id.begin());
    return id;
}

QString recordTitle(const vault::Record& record)
{
    if (const auto* account = std::get_if<vault::OtpAccount>(&record))
        return QString::fromStdString(vault::displayTitle(account->issuer, account->accountName));
    if (const auto* note = std::get_if<vault::SecureNote>(&record))
        return QString::fromStdString(note->title);
    return QString::fromStdString(std::get<vault::Contact>(record).name);
}

std::int64_t nowSeconds()
{
    return QDateTime::currentSecsSinceEpoch();
}

} // namespace watchword::app
