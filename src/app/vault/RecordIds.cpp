#include "app/vault/RecordIds.h"

#include "crypto/Random.h"
#include "encoding/Hex.h"
#include "vault/Device.h"

#include <QDateTime>
#include <QFile>
#include <QStandardPaths>
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

const vault::DeviceId& appDevice()
{
    static const vault::DeviceId device = [] {
        auto& random = crypto::systemRandom();
        // Where the app's settings live (so tests, in Qt's test mode, keep
        // it away from the user's own).
        const QString directory =
            QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
        if (!directory.isEmpty())
            if (auto kept = vault::loadOrCreateDeviceId(
                    QFile::encodeName(directory + QStringLiteral("/watchword/app.device"))
                        .toStdString(),
                    random))
                return *kept;
        vault::DeviceId fresh{};
        do
            random.fill(fresh);
        while (fresh == vault::DeviceId{} || fresh == vault::mergeDevice);
        return fresh;
    }();
    return device;
}

std::int64_t nowSeconds()
{
    return QDateTime::currentSecsSinceEpoch();
}

} // namespace watchword::app
