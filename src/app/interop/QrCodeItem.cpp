#include "app/interop/QrCodeItem.h"

#include "app/vault/AccountCopies.h"
#include "app/vault/VaultController.h"
#include "base/SecureBuffer.h"
#include "crypto/Random.h"
#include "interop/exporters/Export.h"

#include <QPainter>
#include <algorithm>
#include <string_view>

namespace watchword::app {

namespace {

std::string_view textOf(const SecureBuffer& uri)
{
    return {reinterpret_cast<const char*>(uri.data()), uri.size()};
}

// Wipes an image's pixels (a QR code of a secret) before it goes.
void wipeImage(QImage& image)
{
    if (!image.isNull() && !image.isDetached())
        image.detach();
    if (!image.isNull())
        secureWipe(image.bits(), std::size_t(image.sizeInBytes()));
    image = QImage();
}

} // namespace

QImage renderQrMatrix(const qr::QrMatrix& matrix, int scale)
{
    if (matrix.size() <= 0 || scale <= 0)
        return {};
    const int modules = matrix.size() + 2 * qr::quietZoneModules;
    QImage image(modules * scale, modules * scale, QImage::Format_Grayscale8);
    image.fill(255);
    for (int y = 0; y < matrix.size(); ++y) {
        for (int x = 0; x < matrix.size(); ++x) {
            if (!matrix.dark(x, y))
                continue;
            const int left = (x + qr::quietZoneModules) * scale;
            const int top = (y + qr::quietZoneModules) * scale;
            for (int row = top; row < top + scale; ++row)
                std::fill_n(image.scanLine(row) + left, scale, std::uint8_t(0));
        }
    }
    return image;
}

QrCodeItem::QrCodeItem(QQuickItem* parent) : QQuickPaintedItem(parent)
{
    // Whole pixels, no blending: a module's edge is where a camera looks.
    setAntialiasing(false);
    setSmooth(false);
    setMipmap(false);
}

QrCodeItem::~QrCodeItem() = default;

void QrCodeItem::setVault(VaultController* vault)
{
    if (!bindVault(this, m_vault, vault))
        return;
    if (m_vault)
        connect(m_vault, &VaultController::stateChanged, this, [this] {
            if (m_vault && m_vault->state() != VaultController::State::Unlocked)
                clear();
        });
    emit vaultChanged();
}

void QrCodeItem::setRevealed(bool revealed)
{
    if (m_revealed == revealed)
        return;
    m_revealed = revealed;
    emit revealedChanged();
    update();
}

void QrCodeItem::setIndex(int index)
{
    index = std::clamp(index, 0, std::max(0, count() - 1));
    if (m_index == index)
        return;
    m_index = index;
    emit indexChanged();
    update();
}

int QrCodeItem::moduleCount() const
{
    if (m_codes.empty())
        return 0;
    return m_codes[std::size_t(m_index)].size() + 2 * qr::quietZoneModules;
}

bool QrCodeItem::showAccount(const QString& recordId)
{
    if (!m_vault) {
        setCodes({}, {}, tr("No vault."));
        return false;
    }
    const auto copies = accountCopies(*m_vault, {recordId});
    if (!copies) {
        setCodes({}, {}, copies.error());
        return false;
    }
    const auto& accounts = *copies;
    auto uri = exporters::otpauthUriOf(accounts.front());
    if (!uri) {
        setCodes({}, {}, QString::fromStdString(uri.error().message));
        return false;
    }
    return showOne(textOf(*uri));
}

bool QrCodeItem::showText(const QString& text)
{
    return showOne(text.toStdString());
}

bool QrCodeItem::showOne(std::string_view text)
{
    auto matrix = qr::encodeQr(text);
    if (!matrix) {
        setCodes({}, {}, QString::fromStdString(matrix.error().message));
        return false;
    }
    std::vector<qr::QrMatrix> codes;
    codes.push_back(std::move(*matrix));
    setCodes(std::move(codes), {}, {});
    return true;
}

bool QrCodeItem::showMigration(const QStringList& recordIds)
{
    if (!m_vault) {
        setCodes({}, {}, tr("No vault."));
        return false;
    }
    const auto copies = accountCopies(*m_vault, recordIds);
    if (!copies) {
        setCodes({}, {}, copies.error());
        return false;
    }
    const auto& accounts = *copies;
    auto made = exporters::googleMigrationUris(accounts, crypto::systemRandom());
    if (!made) {
        setCodes({}, {}, QString::fromStdString(made.error().message));
        return false;
    }
    QStringList warnings;
    for (const auto& warning : made->warnings)
        warnings << QString::fromStdString(warning);
    std::vector<qr::QrMatrix> codes;
    for (const auto& uri : made->uris) {
        auto matrix = qr::encodeQr(textOf(uri));
        if (!matrix) {
            setCodes({}, {}, QString::fromStdString(matrix.error().message));
            return false;
        }
        codes.push_back(std::move(*matrix));
    }
    if (codes.empty()) {
        setCodes({}, warnings, tr("None of these accounts can go to Google Authenticator."));
        return false;
    }
    setCodes(std::move(codes), std::move(warnings), {});
    return true;
}

void QrCodeItem::clear()
{
    setRevealed(false);
    setCodes({}, {}, {});
}

void QrCodeItem::setCodes(std::vector<qr::QrMatrix> codes, QStringList warnings, QString error)
{
    m_codes = std::move(codes); // the old matrices wipe themselves
    m_warnings = std::move(warnings);
    m_error = std::move(error);
    m_index = 0;
    setRevealed(false);
    emit codesChanged();
    emit indexChanged();
    update();
}

int QrCodeItem::scale() const
{
    const int modules = moduleCount();
    if (modules == 0)
        return 1;
    const qreal pixels = std::min(width(), height());
    return std::max(1, int(pixels) / modules);
}

QImage QrCodeItem::currentImage(int scale) const
{
    if (m_codes.empty())
        return {};
    return renderQrMatrix(m_codes[std::size_t(m_index)], scale);
}

void QrCodeItem::paint(QPainter* painter)
{
    if (!m_revealed || m_codes.empty())
        return;
    QImage image = currentImage(scale());
    // Centred on whole pixels and drawn 1:1: no sampling between modules.
    const int left = (int(width()) - image.width()) / 2;
    const int top = (int(height()) - image.height()) / 2;
    painter->setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter->setRenderHint(QPainter::Antialiasing, false);
    painter->drawImage(QPoint(left, top), image);
    wipeImage(image);
}

} // namespace watchword::app
