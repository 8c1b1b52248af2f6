// QR codes without Qt: what libqrencode makes, ZXing reads back; the Google
// Authenticator transfer code of the test files decodes to the URI its
// EXPECTED.json names and imports to its accounts; PNG files that are not
// PNG, are cut short or are too large are refused before decoding.
#include "common/PngImage.h"
#include "common/TestSupport.h"
#include "encoding/Base32.h"
#include "interop/importers/Import.h"
#include "qr/QrCode.h"

#include <QFile>
#include <QJsonArray>
#include <QtTest>
#include <string>
#include <vector>

using namespace watchword;
using namespace watchword::qr;
using watchword::test::writePng;

Q_DECLARE_METATYPE(watchword::qr::Correction)

namespace {

QByteArray readData(const QString& relative)
{
    QFile file(test::dataPath(relative));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("test data %s: %s", qPrintable(file.fileName()), qPrintable(file.errorString()));
    return file.readAll();
}

test::SeededRandom& seeded()
{
    static test::SeededRandom source(test::testSeed());
    return source;
}

// matrix drawn as grey pixels: dark modules of scale pixels on white, with
// the quiet zone.
GreyPixels draw(const QrMatrix& matrix, int scale = 4)
{
    GreyPixels image;
    image.width = image.height = (matrix.size() + 2 * quietZoneModules) * scale;
    image.pixels.assign(std::size_t(image.width) * std::size_t(image.height), 255);
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x)
            if (matrix.dark(x / scale - quietZoneModules, y / scale - quietZoneModules))
                image.pixels[std::size_t(y) * std::size_t(image.width) + std::size_t(x)] = 0;
    return image;
}

// The valid otpauth URIs of tests/data/otpauth/uris.json.
QList<QByteArray> validUris()
{
    QList<QByteArray> uris;
    const auto cases =
        test::loadJson(QStringLiteral("otpauth/uris.json")).value(QLatin1String("cases")).toArray();
    for (const auto& value : cases)
        if (value.toObject().value(QLatin1String("valid")).toBool())
            uris << value.toObject().value(QLatin1String("uri")).toString().toUtf8();
    if (uris.size() < 3)
        qFatal("otpauth/uris.json has fewer valid URIs than the tests use");
    return uris;
}

ByteView bytesOf(const QByteArray& data)
{
    return test::view(data);
}

QByteArray bigEndian(quint32 value)
{
    QByteArray out(4, '\0');
    for (int i = 0; i < 4; ++i)
        out[i] = char(value >> (24 - 8 * i));
    return out;
}

// CRC-32 (ISO-HDLC) as PNG chunks carry it.
quint32 crc32(const QByteArray& bytes)
{
    quint32 crc = 0xffffffffu;
    for (const char c : bytes) {
        crc ^= quint8(c);
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

} // namespace

class TestQrCode : public QObject
{
    Q_OBJECT

private slots:
    void roundTripsOtpauthUris_data();
    void roundTripsOtpauthUris();
    void roundTripsLongMigrationUri();
    void refusesTextOverCapacity();
    void migrationPngDecodesAndImports();
    void codeWithoutOtp();
    void transparentAndInvertedCodes();
    void loadPngRefusesBadFiles();
    void decodeQrRefusesBadImages();
    void encodePngReadsBack_data();
    void encodePngReadsBack();
};

void TestQrCode::roundTripsOtpauthUris_data()
{
    QTest::addColumn<QByteArray>("uri");
    QTest::addColumn<Correction>("correction");
    const auto uris = validUris();
    const Correction levels[] = {Correction::Low, Correction::Medium, Correction::Quartile,
                                 Correction::High};
    for (qsizetype i = 0; i < uris.size(); ++i)
        QTest::addRow("uri %d", int(i)) << uris[i] << levels[i % 4];
}

void TestQrCode::roundTripsOtpauthUris()
{
    QFETCH(QByteArray, uri);
    QFETCH(Correction, correction);
    const auto matrix = encodeQr(uri.toStdString(), correction);
    QVERIFY2(matrix.ok(), matrix ? "" : matrix.error().message.c_str());
    // Versions 1 to 40: 21 to 177 modules a side.
    QVERIFY(matrix->size() >= 21 && matrix->size() <= 177 && (matrix->size() - 17) % 4 == 0);
    const GreyPixels image = draw(*matrix);
    const auto texts = decodeQr(image.view());
    QVERIFY2(texts.ok(), texts ? "" : texts.error().message.c_str());
    QCOMPARE(texts->size(), std::size_t(1));
    QCOMPARE(QByteArray::fromStdString(texts->front()), uri);
}

void TestQrCode::roundTripsLongMigrationUri()
{
    // A transfer of many accounts: about 1,400 characters, a version 30-odd code.
    Bytes payload(1000);
    seeded().fill(payload);
    const QByteArray uri =
        "otpauth-migration://offline?data=" +
        QByteArray(reinterpret_cast<const char*>(payload.data()), qsizetype(payload.size()))
            .toBase64()
            .toPercentEncoding();
    QVERIFY(uri.size() > 1300);
    const auto matrix = encodeQr(uri.toStdString(), Correction::Low);
    QVERIFY2(matrix.ok(), matrix ? "" : matrix.error().message.c_str());
    QVERIFY(matrix->size() > 100);
    const auto texts = decodeQr(draw(*matrix, 3).view());
    QVERIFY2(texts.ok(), texts ? "" : texts.error().message.c_str());
    QCOMPARE(texts->size(), std::size_t(1));
    QCOMPARE(QByteArray::fromStdString(texts->front()), uri);
}

void TestQrCode::refusesTextOverCapacity()
{
    // Version 40 holds 2,953 bytes at Low and 1,273 at High (ISO/IEC 18004 table 7).
    const std::string full(2953, 'a');
    const auto largest = encodeQr(full, Correction::Low);
    QVERIFY2(largest.ok(), largest ? "" : largest.error().message.c_str());
    QCOMPARE(largest->size(), 177);

    const auto over = encodeQr(full + "a", Correction::Low);
    QVERIFY(!over.ok());
    QCOMPARE(over.error().code, QrError::TooLong);
    QVERIFY(over.error().message.find("2954 bytes") != std::string::npos);

    QVERIFY(encodeQr(std::string(1273, 'a'), Correction::High).ok());
    const auto high = encodeQr(std::string(1274, 'a'), Correction::High);
    QVERIFY(!high.ok());
    QCOMPARE(high.error().code, QrError::TooLong);

    QVERIFY(!encodeQr("").ok());
}

void TestQrCode::migrationPngDecodesAndImports()
{
    const QJsonObject expected =
        test::loadJson(QStringLiteral("import/google_authenticator_migration/EXPECTED.json"))
            .value(QLatin1String("files"))
            .toObject()
            .value(QLatin1String("test_googleauth_export.png"))
            .toObject();
    const QByteArray uri = expected.value(QLatin1String("qr_payload")).toString().toUtf8();
    QVERIFY(uri.startsWith("otpauth-migration://"));

    const QByteArray file = readData(
        QStringLiteral("import/google_authenticator_migration/test_googleauth_export.png"));
    const auto image = loadPng(bytesOf(file));
    QVERIFY2(image.ok(), image ? "" : image.error().message.c_str());
    QCOMPARE(image->width, 523);
    QCOMPARE(image->height, 942);
    const auto texts = decodeQr(image->view());
    QVERIFY2(texts.ok(), texts ? "" : texts.error().message.c_str());
    QCOMPARE(texts->size(), std::size_t(1));
    QCOMPARE(QByteArray::fromStdString(texts->front()), uri);

    const auto imported =
        importers::importAccounts(importers::Format::GoogleMigration, asBytes(texts->front()));
    QVERIFY2(imported.ok(), imported ? "" : imported.error().message.c_str());
    const QJsonArray entries = expected.value(QLatin1String("payload"))
                                   .toObject()
                                   .value(QLatin1String("otp_parameters"))
                                   .toArray();
    QCOMPARE(imported->accounts.size(), std::size_t(entries.size()));
    QVERIFY(entries.size() >= 2);
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const QJsonObject entry = entries[i].toObject();
        const auto& account = imported->accounts[std::size_t(i)];
        const QString issuer = entry.value(QLatin1String("issuer")).toString();
        QString name = entry.value(QLatin1String("name")).toString();
        // Google writes "Issuer:account"; the importer keeps the account.
        if (name.startsWith(issuer + QLatin1Char(':')))
            name = name.mid(issuer.size() + 1);
        QCOMPARE(QString::fromStdString(account.issuer), issuer);
        QCOMPARE(QString::fromStdString(account.accountName), name);
        const auto secret =
            encoding::fromBase32(entry.value(QLatin1String("secret_b32")).toString().toStdString());
        QVERIFY(secret.ok());
        QVERIFY(constantTimeEqual(account.secret.span(), secret->span()));
        QCOMPARE(account.parameters.kind, otp::OtpKind::Totp);
        QCOMPARE(account.parameters.digits, 6);
        QCOMPARE(account.parameters.period, 30u);
    }
}

void TestQrCode::codeWithoutOtp()
{
    const QJsonObject expected =
        test::loadJson(QStringLiteral("import/google_authenticator_migration/EXPECTED.json"))
            .value(QLatin1String("files"))
            .toObject()
            .value(QLatin1String("qr_but_without_otp.png"))
            .toObject();
    const QByteArray file =
        readData(QStringLiteral("import/google_authenticator_migration/qr_but_without_otp.png"));
    const auto image = loadPng(bytesOf(file));
    QVERIFY2(image.ok(), image ? "" : image.error().message.c_str());
    const auto texts = decodeQr(image->view());
    QVERIFY2(texts.ok(), texts ? "" : texts.error().message.c_str());
    QCOMPARE(texts->size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(texts->front()),
             expected.value(QLatin1String("qr_payload")).toString());
    QVERIFY(!texts->front().starts_with("otpauth"));
    QVERIFY(!importers::importAccounts(importers::Format::GoogleMigration, asBytes(texts->front()))
                 .ok());
}

void TestQrCode::transparentAndInvertedCodes()
{
    const QByteArray uri = validUris().at(0);
    const auto matrix = encodeQr(uri.toStdString());
    QVERIFY(matrix.ok());
    const GreyPixels grey = draw(*matrix);

    // Dark modules on a transparent background, as some generators save them:
    // over white they read as they look.
    std::vector<std::uint8_t> rgba(grey.pixels.size() * 4);
    for (std::size_t i = 0; i < grey.pixels.size(); ++i) {
        const bool dark = grey.pixels[i] == 0;
        rgba[4 * i + 0] = rgba[4 * i + 1] = rgba[4 * i + 2] = 0;
        rgba[4 * i + 3] = dark ? 255 : 0;
    }
    const auto transparent =
        loadPng(bytesOf(writePng(rgba, grey.width, grey.height, PNG_FORMAT_RGBA)));
    QVERIFY2(transparent.ok(), transparent ? "" : transparent.error().message.c_str());
    const auto fromTransparent = decodeQr(transparent->view());
    QVERIFY2(fromTransparent.ok(), fromTransparent ? "" : fromTransparent.error().message.c_str());
    QCOMPARE(QByteArray::fromStdString(fromTransparent->front()), uri);

    // Light modules on dark.
    std::vector<std::uint8_t> inverted = grey.pixels;
    for (auto& pixel : inverted)
        pixel = std::uint8_t(255 - pixel);
    const auto fromInverted = decodeQr({inverted.data(), grey.width, grey.height, grey.width});
    QVERIFY2(fromInverted.ok(), fromInverted ? "" : fromInverted.error().message.c_str());
    QCOMPARE(QByteArray::fromStdString(fromInverted->front()), uri);

    // Two codes side by side, in a wider buffer (stride > width): left first.
    const QByteArray second = validUris().at(2);
    const auto other = encodeQr(second.toStdString());
    QVERIFY(other.ok());
    const GreyPixels right = draw(*other);
    const int height = std::max(grey.height, right.height);
    const int width = grey.width + right.width;
    const int stride = width + 13;
    std::vector<std::uint8_t> both(std::size_t(stride) * std::size_t(height), 255);
    for (int y = 0; y < grey.height; ++y)
        std::copy_n(&grey.pixels[std::size_t(y * grey.width)], grey.width,
                    &both[std::size_t(y * stride)]);
    for (int y = 0; y < right.height; ++y)
        std::copy_n(&right.pixels[std::size_t(y * right.width)], right.width,
                    &both[std::size_t(y * stride + grey.width)]);
    const auto pair = decodeQr({both.data(), width, height, stride});
    QVERIFY2(pair.ok(), pair ? "" : pair.error().message.c_str());
    QCOMPARE(pair->size(), std::size_t(2));
    QCOMPARE(QByteArray::fromStdString((*pair)[0]), uri);
    QCOMPARE(QByteArray::fromStdString((*pair)[1]), second);
}

void TestQrCode::loadPngRefusesBadFiles()
{
    const QByteArray json = readData(QStringLiteral("import/EXPECTED.json"));
    const auto notPng = loadPng(bytesOf(json));
    QVERIFY(!notPng.ok());
    QCOMPARE(notPng.error().code, QrError::NotAnImage);
    QVERIFY(!loadPng({}).ok());

    const QByteArray file = readData(
        QStringLiteral("import/google_authenticator_migration/test_googleauth_export.png"));
    for (const qsizetype size : {qsizetype(8), qsizetype(40), file.size() / 2, file.size() - 20}) {
        const auto truncated = loadPng(bytesOf(file.left(size)));
        QVERIFY2(!truncated.ok(), qPrintable(QStringLiteral("%1 bytes").arg(size)));
        QCOMPARE(truncated.error().code, QrError::NotAnImage);
        QVERIFY(!truncated.error().message.empty());
    }

    // A header that claims 60000 x 60000 pixels, with no pixels behind it:
    // refused before anything is inflated.
    std::vector<std::uint8_t> small(16 * 16, 255);
    QByteArray bomb = writePng(small, 16, 16, PNG_FORMAT_GRAY);
    // IHDR's width and height are bytes 16..23; its CRC (bytes 29..32, over
    // type and data) is made right again, so that only the size is wrong.
    bomb.replace(16, 8, bigEndian(60000) + bigEndian(60000));
    bomb.replace(29, 4, bigEndian(crc32(bomb.mid(12, 17))));
    const auto huge = loadPng(bytesOf(bomb));
    QVERIFY(!huge.ok());
    QCOMPARE(huge.error().code, QrError::ImageTooLarge);
    QVERIFY2(huge.error().message.find("60000 x 60000") != std::string::npos,
             huge.error().message.c_str());

    QByteArray tooLong = file;
    tooLong.append(QByteArray(qsizetype(maximumImageFileBytes) - file.size() + 1, '\0'));
    const auto tooMany = loadPng(bytesOf(tooLong));
    QVERIFY(!tooMany.ok());
    QCOMPARE(tooMany.error().code, QrError::ImageTooLarge);
    // One byte less is within the bound (the PNG ends before the padding).
    tooLong.chop(1);
    QVERIFY(loadPng(bytesOf(tooLong)).ok());
}

void TestQrCode::decodeQrRefusesBadImages()
{
    const std::vector<std::uint8_t> white(200 * 100, 255);
    const auto none = decodeQr({white.data(), 200, 100, 200});
    QVERIFY(!none.ok());
    QCOMPARE(none.error().code, QrError::NoCode);
    QCOMPARE(none.error().message, std::string("No QR code found in the image."));

    QCOMPARE(decodeQr({}).error().code, QrError::NotAnImage);
    QCOMPARE(decodeQr({white.data(), 200, 100, 199}).error().code, QrError::NotAnImage);
    QCOMPARE(decodeQr({white.data(), 10000, 5001, 10000}).error().code, QrError::ImageTooLarge);
}

void TestQrCode::encodePngReadsBack_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("scale");
    QTest::addRow("identity, 8 px")
        << QByteArray("watchword-id:ww1q0l59n7eg2zpur9hng2ey2pqscwuc93pdtny3gmaxevaxyfay520cewspg5")
        << 8;
    QTest::addRow("one pixel a module")
        << QByteArray("otpauth://totp/A?secret=JBSWY3DPEHPK3PXP") << 1;
    QTest::addRow("2,000 bytes, 3 px") << QByteArray(2000, 'w') << 3;
}

// What encodePng writes is a PNG that loadPng reads and decodeQr scans back
// to the same text, with a white quiet zone of 4 modules around it.
void TestQrCode::encodePngReadsBack()
{
    QFETCH(QByteArray, text);
    QFETCH(int, scale);
    const auto matrix = encodeQr(text.toStdString());
    QVERIFY(matrix.ok());
    const auto png = encodePng(*matrix, scale);
    QVERIFY(png.ok());
    const auto image = loadPng(*png);
    QVERIFY(image.ok());
    const int side = (matrix->size() + 2 * quietZoneModules) * scale;
    QCOMPARE(image->width, side);
    QCOMPARE(image->height, side);
    QCOMPARE(image->pixels[0], std::uint8_t{255});
    const std::size_t firstModule =
        static_cast<std::size_t>(quietZoneModules * scale) * side + quietZoneModules * scale;
    QCOMPARE(image->pixels[firstModule], std::uint8_t{0}); // a finder pattern's corner
    if (scale >= 2) {
        const auto texts = decodeQr(image->view());
        QVERIFY(texts.ok());
        QCOMPARE(texts->size(), std::size_t{1});
        QCOMPARE(QByteArray::fromStdString(texts->front()), text);
    }
}

QTEST_GUILESS_MAIN(TestQrCode)
#include "TestQrCode.moc"
