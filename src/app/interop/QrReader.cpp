#include "app/interop/QrReader.h"

#include "app/common/Notify.h"
#include "qr/QrCode.h"

#include <QClipboard>
#include <QCoreApplication>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImageReader>
#include <QMimeData>
#include <QMimeDatabase>
#include <QPainter>
#include <QPixmap>
#include <QPointer>
#include <QScreen>
#include <QThreadPool>
#include <utility>

namespace watchword::app {

QrScan decodeQrCodes(const QImage& image)
{
    if (image.isNull() || image.width() <= 0 || image.height() <= 0)
        return {{}, QrReader::tr("The image could not be read: it is empty.")};
    if (qint64(image.width()) * qint64(image.height()) > maximumQrImagePixels)
        return {{},
                QrReader::tr("The image is too large to scan (%1 \u00d7 %2 pixels; at most "
                             "%3 million pixels).")
                    .arg(image.width())
                    .arg(image.height())
                    .arg(double(maximumQrImagePixels) / 1e6)};
    QImage grey;
    if (image.hasAlphaChannel()) {
        // Codes saved with a transparent background would turn black on
        // black as grey; on white they read as they look.
        grey = QImage(image.size(), QImage::Format_Grayscale8);
        grey.fill(Qt::white);
        QPainter painter(&grey);
        painter.drawImage(0, 0, image);
    } else {
        grey = image.convertToFormat(QImage::Format_Grayscale8);
    }
    const auto decoded = qr::decodeQr(
        {grey.constBits(), grey.width(), grey.height(), static_cast<int>(grey.bytesPerLine())});
    if (!decoded) {
        if (decoded.error().code == qr::QrError::NoCode)
            return {{}, QrReader::tr("No QR code found in the image.")};
        return {{}, QString::fromStdString(decoded.error().message)};
    }
    QrScan scan;
    for (const auto& text : *decoded)
        scan.texts << QString::fromStdString(text);
    return scan;
}

QrScan readQrFile(const QString& path, qint64 maximumPixels)
{
    const QFileInfo info(path);
    if (!info.exists() || !info.isFile())
        return {
            {},
            QrReader::tr("The image could not be read: there is no file %1.").arg(info.fileName())};
    if (info.size() > maximumQrFileBytes)
        return {{},
                QrReader::tr("The image could not be read: the file has %1 MB; at most %2 MB "
                             "are scanned.")
                    .arg(info.size() / (1024 * 1024))
                    .arg(maximumQrFileBytes / (1024 * 1024))};
    QImageReader reader(path);
    // Photos of a code are often stored sideways with an orientation tag.
    reader.setAutoTransform(true);
    if (const QSize size = reader.size();
        size.isValid() && qint64(size.width()) * qint64(size.height()) > maximumPixels)
        return {{},
                QrReader::tr("The image is too large to scan (%1 \u00d7 %2 pixels; at most "
                             "%3 million pixels).")
                    .arg(size.width())
                    .arg(size.height())
                    .arg(double(maximumPixels) / 1e6)};
    const QImage image = reader.read();
    if (image.isNull())
        return {{}, QrReader::tr("The image could not be read: %1.").arg(reader.errorString())};
    return decodeQrCodes(image);
}

Result<QImage, QString> grabPrimaryScreen()
{
    QScreen* screen = qobject_cast<QGuiApplication*>(QCoreApplication::instance()) != nullptr
                          ? QGuiApplication::primaryScreen()
                          : nullptr;
    QPixmap pixels = screen != nullptr ? screen->grabWindow(0) : QPixmap();
    if (pixels.isNull()) {
        // Wayland compositors refuse applications a picture of the screen;
        // offscreen there is none.
        return fail(QrReader::tr("Screen capture is not available on this desktop. Take a "
                                 "screenshot with the desktop's own tool and scan it from the "
                                 "image file."));
    }
    return pixels.toImage();
}

QrReader::QrReader(QObject* parent) : QObject(parent) {}

QrReader::~QrReader() = default;

template <typename Work> void QrReader::start(Work work)
{
    const std::uint64_t request = ++m_request;
    setBusy(true);
    QPointer<QrReader> guard(this);
    QThreadPool::globalInstance()->start([guard, request, work = std::move(work)]() mutable {
        const QrScan scan = work();
        // Back to the GUI thread, unless the reader is gone by then.
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [guard, request, scan] {
                if (guard)
                    guard->finish(request, scan);
            },
            Qt::QueuedConnection);
    });
}

void QrReader::readFile(const QUrl& url)
{
    if (!url.isLocalFile() && !url.scheme().isEmpty()) {
        const QString error = tr("Only image files on this computer can be scanned.");
        start([error] { return QrScan{{}, error}; });
        return;
    }
    const QString path = url.isLocalFile() ? url.toLocalFile() : url.path();
    start([path] { return readQrFile(path); });
}

void QrReader::readScreen()
{
    const auto grabbed = m_grabScreen();
    if (!grabbed || grabbed->isNull()) {
        QString error = grabbed ? QString() : grabbed.error();
        if (error.isEmpty())
            error = tr("Screen capture is not available on this desktop.");
        start([error] { return QrScan{{}, error}; });
        return;
    }
    readImage(*grabbed);
}

void QrReader::readClipboard()
{
    const QMimeData* data = nullptr;
    if (qobject_cast<QGuiApplication*>(QCoreApplication::instance()) != nullptr)
        if (const QClipboard* clipboard = QGuiApplication::clipboard())
            data = clipboard->mimeData();
    if (data != nullptr && data->hasImage()) {
        const QImage image = qvariant_cast<QImage>(data->imageData());
        if (!image.isNull()) {
            readImage(image);
            return;
        }
    }
    // A file manager's "Copy" puts the file's URL there, not its pixels.
    if (data != nullptr && data->hasUrls()) {
        const QMimeDatabase types;
        for (const QUrl& url : data->urls()) {
            if (!url.isLocalFile())
                continue;
            const QFileInfo info(url.toLocalFile());
            if (info.isFile() &&
                types.mimeTypeForFile(info).name().startsWith(QLatin1String("image/"))) {
                readFile(url);
                return;
            }
        }
    }
    const QString error = tr("The clipboard holds no image.");
    start([error] { return QrScan{{}, error}; });
}

void QrReader::readImage(const QImage& image)
{
    start([image] { return decodeQrCodes(image); });
}

void QrReader::finish(std::uint64_t request, const QrScan& scan)
{
    if (request != m_request)
        return; // superseded
    setBusy(false);
    if (scan.texts.isEmpty())
        emit failed(scan.error);
    else
        emit found(scan.texts);
}

void QrReader::setBusy(bool busy)
{
    assignAndNotify(this, m_busy, busy, &QrReader::busyChanged);
}

} // namespace watchword::app
