#include "app/interop/QrReader.h"
#include "common/QrImage.h"
#include "common/TestSupport.h"

#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QMimeData>
#include <QPainter>
#include <QRasterWindow>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QtTest>

using watchword::app::decodeQrCodes;
using watchword::app::QrReader;
using watchword::app::QrScan;
using watchword::app::readQrFile;
using watchword::test::qrImage;

namespace {

// images side by side (horizontal) or stacked, on one white canvas.
QImage combine(const QList<QImage>& images, bool horizontal)
{
    int width = 0;
    int height = 0;
    for (const auto& image : images) {
        width = horizontal ? width + image.width() : std::max(width, image.width());
        height = horizontal ? std::max(height, image.height()) : height + image.height();
    }
    QImage canvas(width, height, QImage::Format_RGB32);
    canvas.fill(Qt::white);
    QPainter painter(&canvas);
    int at = 0;
    for (const auto& image : images) {
        painter.drawImage(horizontal ? QPoint(at, 0) : QPoint(0, at), image);
        at += horizontal ? image.width() : image.height();
    }
    return canvas;
}

QImage rotated(const QImage& image, double degrees, double scale)
{
    QImage source = image.convertToFormat(QImage::Format_RGB32);
    QTransform transform;
    transform.rotate(degrees);
    transform.scale(scale, scale);
    const QImage turned = source.transformed(transform, Qt::SmoothTransformation);
    // transformed() leaves the corners transparent or black: paint on white.
    QImage out(turned.size() + QSize(40, 40), QImage::Format_RGB32);
    out.fill(Qt::white);
    QPainter painter(&out);
    painter.drawImage(20, 20, turned.convertToFormat(QImage::Format_ARGB32));
    return out;
}

// The valid otpauth URIs of the shared vectors, by case name.
QList<std::pair<QByteArray, QByteArray>> validCases()
{
    QList<std::pair<QByteArray, QByteArray>> uris;
    const auto cases = watchword::test::loadJson(QStringLiteral("otpauth/uris.json"))
                           .value(QLatin1String("cases"))
                           .toArray();
    for (const auto& value : cases) {
        const auto entry = value.toObject();
        if (entry.value(QLatin1String("valid")).toBool())
            uris.append({entry.value(QLatin1String("id")).toString().toUtf8(),
                         entry.value(QLatin1String("uri")).toString().toUtf8()});
    }
    if (uris.size() < 3)
        qFatal("otpauth/uris.json has fewer valid URIs than the tests use");
    return uris;
}

QList<QByteArray> validUris()
{
    QList<QByteArray> uris;
    for (const auto& [id, uri] : validCases())
        uris << uri;
    return uris;
}

// CRC-32 (ISO-HDLC) as PNG chunks carry it.
quint32 crc32(const QByteArray& bytes)
{
    quint32 crc = 0xffffffffu;
    for (const char c : bytes) {
        crc ^= static_cast<quint8>(c);
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

QByteArray bigEndian(quint32 value)
{
    QByteArray out(4, '\0');
    for (int i = 0; i < 4; ++i)
        out[i] = static_cast<char>(value >> (24 - 8 * i));
    return out;
}

QByteArray pngChunk(const QByteArray& type, const QByteArray& data)
{
    return bigEndian(quint32(data.size())) + type + data + bigEndian(crc32(type + data));
}

// A PNG whose header claims width x height pixels: what a decompression
// bomb looks like before its pixels are inflated.
QByteArray pngHeader(quint32 width, quint32 height)
{
    const QByteArray header =
        bigEndian(width) + bigEndian(height) + QByteArray("\x08\x00\x00\x00\x00", 5);
    return QByteArray("\x89PNG\r\n\x1a\n", 8) + pngChunk("IHDR", header) +
           pngChunk("IDAT", QByteArray(16, '\0')) + pngChunk("IEND", {});
}

// A window that shows one image on white, as a web page shows a code.
class ImageWindow : public QRasterWindow
{
public:
    explicit ImageWindow(QImage shown) : image(std::move(shown)) {}
    QImage image;

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        painter.fillRect(QRect(QPoint(), size()), Qt::white);
        painter.drawImage(30, 30, image);
    }
};

} // namespace

class TestQrReader : public QObject
{
    Q_OBJECT

private slots:
    void decodesEveryValidUri_data();
    void decodesEveryValidUri();
    void decodesRotatedAndScaled_data();
    void decodesRotatedAndScaled();
    void decodesTransparentAndInverted();
    void findsEveryCodeInOrder();
    void noCode();
    void readsFiles();
    void refusesDamagedAndMissingFiles();
    void refusesHugeImages();
    void readerAnswersAsynchronously();
    void newerReadSupersedesOlder();
    void screenCaptureUnavailableIsAnError();
    void screenCaptureFindsACodeInAWindow();
    void readsTheClipboard();

private:
    QTemporaryDir m_dir;
};

void TestQrReader::decodesEveryValidUri_data()
{
    QTest::addColumn<QByteArray>("uri");
    for (const auto& [id, uri] : validCases())
        QTest::newRow(id.constData()) << uri;
}

void TestQrReader::decodesEveryValidUri()
{
    QFETCH(QByteArray, uri);
    const QrScan scan = decodeQrCodes(qrImage(uri));
    QVERIFY2(scan.error.isEmpty(), qPrintable(scan.error));
    QCOMPARE(scan.texts, QStringList{QString::fromUtf8(uri)});
}

void TestQrReader::decodesRotatedAndScaled_data()
{
    QTest::addColumn<double>("degrees");
    QTest::addColumn<double>("scale");
    QTest::newRow("90 degrees") << 90.0 << 1.0;
    QTest::newRow("180 degrees, half size") << 180.0 << 0.75;
    QTest::newRow("20 degrees, larger") << 20.0 << 1.6;
    QTest::newRow("-35 degrees") << -35.0 << 1.0;
}

void TestQrReader::decodesRotatedAndScaled()
{
    QFETCH(double, degrees);
    QFETCH(double, scale);
    const QByteArray uri = validUris().at(1);
    const QrScan scan = decodeQrCodes(rotated(qrImage(uri), degrees, scale));
    QVERIFY2(scan.error.isEmpty(), qPrintable(scan.error));
    QCOMPARE(scan.texts, QStringList{QString::fromUtf8(uri)});
}

void TestQrReader::decodesTransparentAndInverted()
{
    const QByteArray uri = validUris().at(0);
    const QImage code = qrImage(uri);

    // Dark modules on a transparent background, as some generators save them.
    QImage transparent(code.size(), QImage::Format_ARGB32);
    for (int y = 0; y < code.height(); ++y)
        for (int x = 0; x < code.width(); ++x)
            transparent.setPixel(x, y, qGray(code.pixel(x, y)) < 128 ? 0xff000000u : 0x00000000u);
    QCOMPARE(decodeQrCodes(transparent).texts, QStringList{QString::fromUtf8(uri)});

    QImage inverted = code;
    inverted.invertPixels();
    QCOMPARE(decodeQrCodes(inverted).texts, QStringList{QString::fromUtf8(uri)});
}

void TestQrReader::findsEveryCodeInOrder()
{
    const auto uris = validUris();
    const QStringList expected{QString::fromUtf8(uris.at(0)), QString::fromUtf8(uris.at(2))};

    const QrScan sideBySide =
        decodeQrCodes(combine({qrImage(uris.at(0)), qrImage(uris.at(2))}, true));
    QVERIFY2(sideBySide.error.isEmpty(), qPrintable(sideBySide.error));
    QCOMPARE(sideBySide.texts, expected);

    // Top to bottom, whichever is larger.
    const QrScan stacked =
        decodeQrCodes(combine({qrImage(uris.at(0), 3), qrImage(uris.at(2), 5)}, false));
    QCOMPARE(stacked.texts, expected);

    // The same code twice is one result.
    const QrScan twice = decodeQrCodes(combine({qrImage(uris.at(0)), qrImage(uris.at(0))}, true));
    QCOMPARE(twice.texts, QStringList{expected.at(0)});
}

void TestQrReader::noCode()
{
    QImage picture(400, 300, QImage::Format_RGB32);
    picture.fill(Qt::white);
    QPainter painter(&picture);
    painter.fillRect(40, 40, 120, 80, Qt::black);
    painter.drawEllipse(200, 100, 150, 150);
    painter.end();
    const QrScan scan = decodeQrCodes(picture);
    QVERIFY(scan.texts.isEmpty());
    QCOMPARE(scan.error, QStringLiteral("No QR code found in the image."));

    const QrScan empty = decodeQrCodes(QImage());
    QVERIFY(empty.texts.isEmpty());
    QVERIFY2(empty.error.startsWith(QLatin1String("The image could not be read")),
             qPrintable(empty.error));
}

void TestQrReader::readsFiles()
{
    QVERIFY(m_dir.isValid());
    const auto uris = validUris();
    for (const char* format : {"PNG", "JPG", "BMP"}) {
        const QString path =
            m_dir.filePath(QStringLiteral("code.") + QString::fromLatin1(format).toLower());
        QVERIFY(qrImage(uris.at(1), 6).save(path, format));
        const QrScan scan = readQrFile(path);
        QVERIFY2(scan.error.isEmpty(), qPrintable(scan.error));
        QCOMPARE(scan.texts, QStringList{QString::fromUtf8(uris.at(1))});
    }
}

void TestQrReader::refusesDamagedAndMissingFiles()
{
    QVERIFY(m_dir.isValid());
    const QString damaged = m_dir.filePath(QStringLiteral("damaged.png"));
    QFile file(damaged);
    QVERIFY(file.open(QIODevice::WriteOnly));
    // A PNG signature, then noise where the chunks should be.
    file.write(QByteArray("\x89PNG\r\n\x1a\n", 8) + QByteArray(200, '\x5a'));
    file.close();
    const QrScan scan = readQrFile(damaged);
    QVERIFY(scan.texts.isEmpty());
    QVERIFY2(scan.error.startsWith(QLatin1String("The image could not be read: ")),
             qPrintable(scan.error));

    const QString text = m_dir.filePath(QStringLiteral("notes.txt"));
    QFile notes(text);
    QVERIFY(notes.open(QIODevice::WriteOnly));
    notes.write("otpauth://totp/not-an-image?secret=JBSWY3DPEHPK3PXP\n");
    notes.close();
    QVERIFY(readQrFile(text).error.startsWith(QLatin1String("The image could not be read: ")));

    const QrScan missing = readQrFile(m_dir.filePath(QStringLiteral("missing.png")));
    QCOMPARE(missing.error,
             QStringLiteral("The image could not be read: there is no file missing.png."));
}

void TestQrReader::refusesHugeImages()
{
    QVERIFY(m_dir.isValid());
    const QString bomb = m_dir.filePath(QStringLiteral("bomb.png"));
    QFile file(bomb);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(pngHeader(60000, 60000));
    file.close();
    const QrScan scan = readQrFile(bomb);
    QVERIFY(scan.texts.isEmpty());
    QVERIFY2(scan.error.startsWith(
                 QStringLiteral("The image is too large to scan (60000 \u00d7 60000 pixels")),
             qPrintable(scan.error));

    // The limit is on pixels, whatever the file's size.
    const QString small = m_dir.filePath(QStringLiteral("small.png"));
    const QImage code = qrImage(validUris().at(0));
    QVERIFY(code.save(small, "PNG"));
    QVERIFY(readQrFile(small, qint64(code.width()) * code.height()).error.isEmpty());
    QVERIFY(readQrFile(small, qint64(code.width()) * code.height() - 1)
                .error.startsWith(QLatin1String("The image is too large to scan")));
}

void TestQrReader::readerAnswersAsynchronously()
{
    QVERIFY(m_dir.isValid());
    const QByteArray uri = validUris().at(0);
    const QString path = m_dir.filePath(QStringLiteral("async.png"));
    QVERIFY(qrImage(uri).save(path, "PNG"));

    QrReader reader;
    QSignalSpy found(&reader, &QrReader::found);
    QSignalSpy failed(&reader, &QrReader::failed);
    QSignalSpy busy(&reader, &QrReader::busyChanged);
    reader.readFile(QUrl::fromLocalFile(path));
    // The answer never comes before the call returns.
    QVERIFY(reader.busy());
    QCOMPARE(found.count(), 0);
    QVERIFY(found.wait(10000));
    QCOMPARE(found.at(0).at(0).toStringList(), QStringList{QString::fromUtf8(uri)});
    QCOMPARE(failed.count(), 0);
    QVERIFY(!reader.busy());
    QCOMPARE(busy.count(), 2);

    reader.readFile(QUrl(QStringLiteral("https://example.com/code.png")));
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed.at(0).at(0).toString(),
             QStringLiteral("Only image files on this computer can be scanned."));

    QImage blank(200, 200, QImage::Format_RGB32);
    blank.fill(Qt::white);
    reader.readImage(blank);
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed.at(1).at(0).toString(), QStringLiteral("No QR code found in the image."));
    QCOMPARE(found.count(), 1);
}

void TestQrReader::newerReadSupersedesOlder()
{
    const auto uris = validUris();
    QrReader reader;
    QSignalSpy found(&reader, &QrReader::found);
    QSignalSpy failed(&reader, &QrReader::failed);
    reader.readImage(qrImage(uris.at(0)));
    reader.readImage(qrImage(uris.at(2)));
    QVERIFY(found.wait(10000));
    // Let the older answer arrive too, if it was going to.
    QThreadPool::globalInstance()->waitForDone();
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    QCOMPARE(found.count(), 1);
    QCOMPARE(found.at(0).at(0).toStringList(), QStringList{QString::fromUtf8(uris.at(2))});
    QCOMPARE(failed.count(), 0);
}

void TestQrReader::screenCaptureUnavailableIsAnError()
{
    // What Wayland gives an application that asks for the screen.
    QrReader reader;
    reader.setScreenGrabber([]() -> watchword::Result<QImage, QString> {
        return watchword::fail(QStringLiteral("no screen here"));
    });
    QSignalSpy failed(&reader, &QrReader::failed);
    QSignalSpy found(&reader, &QrReader::found);
    reader.readScreen();
    QVERIFY(reader.busy());
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("no screen here"));
    QCOMPARE(found.count(), 0);
    QVERIFY(!reader.busy());

    // A grabber that gives no picture and no reason gets the general one.
    reader.setScreenGrabber([]() -> watchword::Result<QImage, QString> { return QImage(); });
    reader.readScreen();
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed.at(1).at(0).toString(),
             QStringLiteral("Screen capture is not available on this desktop."));
    QCOMPARE(found.count(), 0);

    const auto grabbed = watchword::app::grabPrimaryScreen();
    if (!grabbed)
        QVERIFY(grabbed.error().startsWith(QLatin1String("Screen capture is not available")));
}

void TestQrReader::screenCaptureFindsACodeInAWindow()
{
    // The offscreen platform's screen is the windows on it, nothing else:
    // a real desktop could show anything.
    if (QGuiApplication::platformName() != QLatin1String("offscreen"))
        QSKIP("needs the offscreen platform");
    const QByteArray uri = validUris().at(2);
    {
        QrReader reader;
        QSignalSpy failed(&reader, &QrReader::failed);
        reader.readScreen();
        QVERIFY(failed.wait(10000));
        QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("No QR code found in the image."));
    }
    ImageWindow window(qrImage(uri, 5));
    window.setGeometry(120, 80, window.image.width() + 60, window.image.height() + 60);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QrReader reader;
    QSignalSpy found(&reader, &QrReader::found);
    reader.readScreen();
    QVERIFY(found.wait(10000));
    QCOMPARE(found.at(0).at(0).toStringList(), QStringList{QString::fromUtf8(uri)});
}

void TestQrReader::readsTheClipboard()
{
    QVERIFY(m_dir.isValid());
    QClipboard* clipboard = QGuiApplication::clipboard();
    QVERIFY(clipboard != nullptr);
    const auto uris = validUris();

    // A copied picture: its pixels.
    clipboard->setImage(qrImage(uris.at(0)));
    {
        QrReader reader;
        QSignalSpy found(&reader, &QrReader::found);
        QSignalSpy failed(&reader, &QrReader::failed);
        reader.readClipboard();
        QVERIFY(reader.busy());
        QVERIFY(found.wait(10000));
        QCOMPARE(found.at(0).at(0).toStringList(), QStringList{QString::fromUtf8(uris.at(0))});
        QCOMPARE(failed.count(), 0);
    }

    // A file manager's copy: the file's URL, after one that is no image.
    const QString notes = m_dir.filePath(QStringLiteral("clipboard-notes.txt"));
    QFile text(notes);
    QVERIFY(text.open(QIODevice::WriteOnly));
    text.write("not an image\n");
    text.close();
    const QString path = m_dir.filePath(QStringLiteral("clipboard-code.png"));
    QVERIFY(qrImage(uris.at(2)).save(path, "PNG"));
    auto* urls = new QMimeData;
    urls->setUrls({QUrl::fromLocalFile(notes), QUrl::fromLocalFile(path)});
    clipboard->setMimeData(urls); // the clipboard owns it
    {
        QrReader reader;
        QSignalSpy found(&reader, &QrReader::found);
        reader.readClipboard();
        QVERIFY(found.wait(10000));
        QCOMPARE(found.at(0).at(0).toStringList(), QStringList{QString::fromUtf8(uris.at(2))});
    }

    // Text, even an otpauth URI, is not a picture of a code.
    clipboard->setText(QString::fromUtf8(uris.at(1)));
    {
        QrReader reader;
        QSignalSpy found(&reader, &QrReader::found);
        QSignalSpy failed(&reader, &QrReader::failed);
        reader.readClipboard();
        QVERIFY(reader.busy());
        QVERIFY(failed.wait(10000));
        QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("The clipboard holds no image."));
        QCOMPARE(found.count(), 0);
    }
    clipboard->clear();
}

QTEST_MAIN(TestQrReader)
#include "TestQrReader.moc"
