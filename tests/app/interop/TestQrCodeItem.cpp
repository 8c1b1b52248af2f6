#include "app/AppVaultFixture.h"
#include "app/interop/QrCodeItem.h"
#include "encoding/Hex.h"
#include "interop/exporters/Export.h"
#include "qr/QrCode.h"

#include <QGuiApplication>
#include <QImage>
#include <QQuickWindow>
#include <QtTest>

using namespace watchword;
using watchword::app::QrCodeItem;

namespace {

QString hexOf(const vault::RecordId& id)
{
    return QString::fromStdString(encoding::toHex(id));
}

// The texts decodeQr finds in a grey image.
std::vector<std::string> decode(const QImage& image)
{
    const QImage grey = image.convertToFormat(QImage::Format_Grayscale8);
    auto found =
        qr::decodeQr({grey.constBits(), grey.width(), grey.height(), int(grey.bytesPerLine())});
    return found ? std::move(*found) : std::vector<std::string>{};
}

} // namespace

class TestQrCodeItem : public QObject
{
    Q_OBJECT

private slots:
    void modulesAreWholePixelSquaresInAQuietZone();
    void theDrawnCodeDecodesToTheAccountsUri();
    void migrationCodesGoOneByOne();
    void lockingDropsTheCodes();
    void publicTextNeedsNoVault();
};

void TestQrCodeItem::modulesAreWholePixelSquaresInAQuietZone()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    const auto accounts = fixture.copies();
    QrCodeItem item;
    item.setVault(fixture.controller.get());
    QVERIFY(item.showAccount(hexOf(accounts[0].id)));
    QCOMPARE(item.count(), 1);
    QVERIFY(!item.revealed()); // shown only on request
    const int modules = item.moduleCount();
    QVERIFY(modules >= 21 + 2 * qr::quietZoneModules);
    for (const int scale : {1, 3, 5}) {
        const QImage image = item.currentImage(scale);
        QCOMPARE(image.width(), modules * scale);
        QCOMPARE(image.height(), modules * scale);
        int dark = 0;
        for (int my = 0; my < modules; ++my) {
            for (int mx = 0; mx < modules; ++mx) {
                const int value = qGray(image.pixel(mx * scale, my * scale));
                QVERIFY(value == 0 || value == 255);
                const bool quiet = mx < qr::quietZoneModules || my < qr::quietZoneModules ||
                                   mx >= modules - qr::quietZoneModules ||
                                   my >= modules - qr::quietZoneModules;
                if (quiet)
                    QCOMPARE(value, 255);
                dark += value == 0 ? 1 : 0;
                // Every pixel of the module is the same.
                for (int y = 0; y < scale; ++y)
                    for (int x = 0; x < scale; ++x)
                        QCOMPARE(qGray(image.pixel(mx * scale + x, my * scale + y)), value);
            }
        }
        QVERIFY(dark > 0);
    }
}

void TestQrCodeItem::theDrawnCodeDecodesToTheAccountsUri()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    const auto accounts = fixture.copies();
    auto uri = exporters::otpauthUriOf(accounts[1]);
    QVERIFY(uri.ok());
    const std::string expected(reinterpret_cast<const char*>(uri->data()), uri->size());

    // Drawn by the item in a window, as the dialog shows it.
    QQuickWindow window;
    window.resize(400, 400);
    QrCodeItem item(window.contentItem());
    item.setSize(QSizeF(330, 330));
    item.setVault(fixture.controller.get());
    QVERIFY(item.showAccount(hexOf(accounts[1].id)));
    QVERIFY(item.scale() >= 2);
    QCOMPARE(decode(item.currentImage(item.scale())), std::vector<std::string>{expected});
    // Unrevealed, nothing of it is drawn.
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(decode(window.grabWindow()).empty());
    item.setRevealed(true);
    QTRY_COMPARE(decode(window.grabWindow()), std::vector<std::string>{expected});
}

void TestQrCodeItem::migrationCodesGoOneByOne()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    QrCodeItem item;
    item.setVault(fixture.controller.get());
    QVERIFY2(item.showMigration({}), qPrintable(item.error()));
    QCOMPARE(item.count(), 1); // two accounts fit in one transfer code
    const auto texts = decode(item.currentImage(3));
    QCOMPARE(texts.size(), std::size_t(1));
    QVERIFY(texts[0].starts_with("otpauth-migration://offline?data="));
    item.setIndex(5); // clamped
    QCOMPARE(item.index(), 0);
}

void TestQrCodeItem::lockingDropsTheCodes()
{
    test::VaultFixture fixture;
    QVERIFY(fixture.unlock());
    const auto accounts = fixture.copies();
    QrCodeItem item;
    item.setVault(fixture.controller.get());
    QVERIFY(item.showAccount(hexOf(accounts[0].id)));
    item.setRevealed(true);
    fixture.controller->lock();
    QCOMPARE(item.count(), 0);
    QVERIFY(!item.revealed());
    QVERIFY(item.currentImage(2).isNull());
}

// The sharing identity: one code of exactly its text, with no vault needed;
// clear() drops it.
void TestQrCodeItem::publicTextNeedsNoVault()
{
    const QString identity = QStringLiteral(
        "watchword-id:ww1q0l59n7eg2zpur9hng2ey2pqscwuc93pdtny3gmaxevaxyfay520cewspg5");
    QrCodeItem item;
    item.setSize(QSizeF(300, 300));
    QVERIFY(item.showText(identity));
    QCOMPARE(item.count(), 1);
    QVERIFY(item.error().isEmpty());
    QCOMPARE(decode(item.currentImage(item.scale())),
             std::vector<std::string>{identity.toStdString()});
    item.clear();
    QCOMPARE(item.count(), 0);
    QVERIFY(!item.showText(QString(3000, QLatin1Char('x'))));
    QVERIFY(!item.error().isEmpty());
}

QTEST_MAIN(TestQrCodeItem)
#include "TestQrCodeItem.moc"
