// QR codes read from an image file, a dropped image or the screen: what the
// add-account form offers when a service shows its otpauth:// link as a code.
//
// The decoding functions are plain and synchronous, for a worker thread and
// for tests: every code found in the image (one screenshot may hold several),
// or one sentence saying why there is none. QrReader is their face for QML:
// it reads and decodes on the thread pool and answers with found() or
// failed(), so the window never waits for a large image. Only the screen grab
// itself runs on the GUI thread, since that is where Qt allows it.
//
// Decoded texts usually hold a secret: nothing here logs them.
#pragma once

#include "base/Result.h"

#include <QImage>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <QtQml/qqmlregistration.h>
#include <cstdint>
#include <functional>

namespace watchword::app {

struct QrScan
{
    QStringList texts; // every code's text, top to bottom; empty on failure
    QString error;     // why there is none; empty on success
};

// Larger images are refused before they are decoded: far above any screen or
// photo of a code, and a decompression bomb would otherwise take the memory.
inline constexpr qint64 maximumQrImagePixels = 50'000'000;
inline constexpr qint64 maximumQrFileBytes = 64ll * 1024 * 1024;

// Every QR code in image.
[[nodiscard]] QrScan decodeQrCodes(const QImage& image);
// Every QR code in the image file at path (any format Qt reads).
[[nodiscard]] QrScan readQrFile(const QString& path, qint64 maximumPixels = maximumQrImagePixels);
// The whole primary screen, or why the platform cannot capture it (Wayland,
// offscreen). GUI thread only.
[[nodiscard]] Result<QImage, QString> grabPrimaryScreen();

class QrReader : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)

public:
    explicit QrReader(QObject* parent = nullptr);
    ~QrReader() override;

    bool busy() const { return m_busy; }

    // Each starts a read; the answer is found() or failed(), always after
    // the call returns. A newer read supersedes one still running, whose
    // answer is then dropped.
    Q_INVOKABLE void readFile(const QUrl& url);
    Q_INVOKABLE void readScreen();
    // The image on the clipboard (a copied screenshot or picture), or the
    // first image file whose URL the clipboard holds.
    Q_INVOKABLE void readClipboard();
    void readImage(const QImage& image);

    // What readScreen() captures with; grabPrimaryScreen() unless replaced
    // (tests, or a desktop portal where the platform cannot grab). A null
    // image or an empty message is answered with a general one.
    using ScreenGrabber = std::function<Result<QImage, QString>()>;
    void setScreenGrabber(ScreenGrabber grabber) { m_grabScreen = std::move(grabber); }

signals:
    void busyChanged();
    void found(const QStringList& texts);
    void failed(const QString& error);

private:
    // Runs work (returning a QrScan) on the thread pool as the latest request.
    template <typename Work> void start(Work work);
    void finish(std::uint64_t request, const QrScan& scan);
    void setBusy(bool busy);

    ScreenGrabber m_grabScreen = grabPrimaryScreen;
    std::uint64_t m_request = 0; // the latest request
    bool m_busy = false;         // the latest request is unanswered
};

} // namespace watchword::app
