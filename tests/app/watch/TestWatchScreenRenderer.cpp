#include "app/watch/WatchScreenItem.h"
#include "app/watch/WatchScreenRenderer.h"
#include "watch/Device.h"
#include "watch/Screen.h"

#include <QDir>
#include <QImage>
#include <QPainter>
#include <QSet>
#include <QtTest>
#include <cmath>
#include <numbers>
#include <vector>

using namespace watchword;
using watchword::app::WatchFrame;

namespace {

// A drawable screen: a shipped profile's, or the rectangle no shipped
// profile has (its countdown is the bar).
struct Screen
{
    QString id;
    watch::ScreenGeometry geometry;
    watch::Palette palette = watch::Palette::Full;
    watch::Technology technology = watch::Technology::Amoled;
};

const std::vector<Screen>& screens()
{
    static const std::vector<Screen> all = [] {
        std::vector<Screen> list;
        const auto devices =
            watch::loadDevices(QStringLiteral(WATCHWORD_SHIPPED_DEVICES_DIR).toStdString());
        if (!devices)
            qFatal("%s", devices.error().message.c_str());
        for (const auto& device : *devices) {
            const auto geometry = watch::geometryOf(device.display);
            if (!geometry)
                continue;
            list.push_back({QString::fromStdString(device.id), *geometry,
                            device.display.palette.value_or(watch::Palette::Full),
                            device.display.technology.value_or(watch::Technology::Amoled)});
        }
        watch::ScreenGeometry rectangle;
        rectangle.shape = watch::Shape::Rectangle;
        rectangle.width = 240;
        rectangle.height = 280;
        list.push_back({QStringLiteral("rectangle"), rectangle, watch::Palette::Mip64,
                        watch::Technology::Mip});
        return list;
    }();
    return all;
}

const Screen& screen(const QString& id)
{
    for (const auto& candidate : screens())
        if (candidate.id == id)
            return candidate;
    qFatal("no screen %s", qPrintable(id));
}

const std::vector<std::pair<const char*, watch::View>> views = {
    {"noExport", watch::View::NoExport},   {"pin", watch::View::Pin},
    {"unlocking", watch::View::Unlocking}, {"code", watch::View::Code},
    {"list", watch::View::List},           {"glance", watch::View::Glance},
};

WatchFrame frameFor(const Screen& screen, watch::View view)
{
    WatchFrame frame;
    frame.screen = screen.geometry;
    frame.palette = screen.palette;
    frame.technology = screen.technology;
    frame.view = view;
    frame.issuer = QStringLiteral("Example");
    frame.accountName = QStringLiteral("alice@example.com");
    frame.code = QStringLiteral("287 082");
    frame.remainingSeconds = 20;
    frame.period = 30;
    for (int row = 0; row < 9; ++row)
        frame.rows << QStringLiteral("Account %1").arg(row + 1);
    frame.selectedRow = 2;
    frame.firstRow = 0;
    frame.pinLength = 3;
    frame.picker = 4;
    frame.message = QStringLiteral("Wrong PIN");
    frame.unlockEstimate = QStringLiteral("2.1-8.4 s");
    return frame;
}

QRgb rgbAt(const QImage& image, int x, int y)
{
    return image.pixel(x, y) & 0xffffff;
}

bool lit(const QImage& image, int x, int y)
{
    return qAlpha(image.pixel(x, y)) == 255 && rgbAt(image, x, y) != 0;
}

// Pixels that differ between two frames, grouped 8-connected.
int differingBlobs(const QImage& a, const QImage& b)
{
    const int width = a.width();
    const int height = a.height();
    std::vector<char> seen(std::size_t(width * height), 0);
    int blobs = 0;
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            if (seen[std::size_t(y * width + x)] || a.pixel(x, y) == b.pixel(x, y))
                continue;
            ++blobs;
            std::vector<QPoint> stack{{x, y}};
            seen[std::size_t(y * width + x)] = 1;
            while (!stack.empty()) {
                const QPoint p = stack.back();
                stack.pop_back();
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx) {
                        const int nx = p.x() + dx;
                        const int ny = p.y() + dy;
                        if (nx < 0 || ny < 0 || nx >= width || ny >= height)
                            continue;
                        auto& mark = seen[std::size_t(ny * width + nx)];
                        if (mark || a.pixel(nx, ny) == b.pixel(nx, ny))
                            continue;
                        mark = 1;
                        stack.push_back({nx, ny});
                    }
            }
        }
    }
    return blobs;
}

// The colours seen along the bezel's radius at an angle clockwise from
// 12 o'clock, over its outer twentieth.
QSet<QRgb> bezelColours(const QImage& image, double degrees)
{
    QSet<QRgb> seen;
    const double centreX = image.width() / 2.0;
    const double centreY = image.height() / 2.0;
    const double radius = image.width() / 2.0;
    const double angle = degrees * std::numbers::pi / 180;
    for (double r = radius - 1; r > radius * 0.95; r -= 0.5) {
        const int x = int(std::floor(centreX + r * std::sin(angle)));
        const int y = int(std::floor(centreY - r * std::cos(angle)));
        if (image.valid(x, y) && qAlpha(image.pixel(x, y)) == 255)
            seen.insert(rgbAt(image, x, y));
    }
    return seen;
}

} // namespace

class TestWatchScreenRenderer : public QObject
{
    Q_OBJECT

private slots:
    void framesAreMaskedAndInPalette_data();
    void framesAreMaskedAndInPalette();
    void textKeepsOffTheEdge_data();
    void textKeepsOffTheEdge();
    void textKeepsOffTheArc_data();
    void textKeepsOffTheArc();
    void countdownColour_data();
    void countdownColour();
    void pieGrowsWithTime();
    void hotpHasNoCountdown();
    void pinDotsCount_data();
    void pinDotsCount();
    void pickerAndListDiffer();
    void listShowsTheRowsThatFit();
    void largestFittingPixelSizeIsMonotone();
    void itemScalesByWholeNumbers();
    void savesFramesToLookAt();
};

namespace {

void screensAndViews()
{
    QTest::addColumn<QString>("screen");
    QTest::addColumn<int>("view");
    for (const auto& screen : screens())
        for (const auto& [name, view] : views)
            QTest::addRow("%s-%s", qPrintable(screen.id), name) << screen.id << int(view);
}

} // namespace

void TestWatchScreenRenderer::framesAreMaskedAndInPalette_data()
{
    screensAndViews();
}

void TestWatchScreenRenderer::framesAreMaskedAndInPalette()
{
    QFETCH(QString, screen);
    QFETCH(int, view);
    const Screen& chosen = ::screen(screen);
    const QImage image = app::renderWatchFrame(frameFor(chosen, watch::View(view)));
    QCOMPARE(image.width(), chosen.geometry.width);
    QCOMPARE(image.height(), chosen.geometry.height);

    QSet<QRgb> palette;
    if (chosen.palette == watch::Palette::Mono)
        palette = {0x000000, 0xffffff};
    else if (chosen.palette != watch::Palette::Full)
        for (const auto colour : watch::paletteColours(chosen.palette).colours)
            palette.insert(colour);

    int litPixels = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QRgb pixel = image.pixel(x, y);
            if (!watch::insideScreen(chosen.geometry, x, y)) {
                if (pixel != 0)
                    QFAIL(qPrintable(QStringLiteral("(%1, %2) is off the glass but %3")
                                         .arg(x)
                                         .arg(y)
                                         .arg(pixel, 8, 16, QLatin1Char('0'))));
                continue;
            }
            if (qAlpha(pixel) != 255)
                QFAIL(qPrintable(QStringLiteral("(%1, %2) on the glass has alpha %3")
                                     .arg(x)
                                     .arg(y)
                                     .arg(qAlpha(pixel))));
            if (!palette.isEmpty() && !palette.contains(pixel & 0xffffff))
                QFAIL(qPrintable(QStringLiteral("(%1, %2): %3 is not in the palette")
                                     .arg(x)
                                     .arg(y)
                                     .arg(pixel & 0xffffff, 6, 16, QLatin1Char('0'))));
            if ((pixel & 0xffffff) != 0)
                ++litPixels;
        }
    // Something was drawn: at least a word's worth of pixels.
    QVERIFY2(litPixels > 100, qPrintable(QString::number(litPixels)));
}

void TestWatchScreenRenderer::textKeepsOffTheEdge_data()
{
    screensAndViews();
}

// Text cut by the glass's edge would leave lit pixels next to the mask:
// with long texts everywhere and no countdown (which is drawn on the edge
// on purpose), no lit pixel may touch a pixel off the glass.
void TestWatchScreenRenderer::textKeepsOffTheEdge()
{
    QFETCH(QString, screen);
    QFETCH(int, view);
    const Screen& chosen = ::screen(screen);
    WatchFrame frame = frameFor(chosen, watch::View(view));
    frame.timeBased = false;
    frame.counterText = QStringLiteral("#1234567890123");
    frame.issuer = QStringLiteral("An issuer with a name far too long for any watch");
    frame.accountName = QStringLiteral("someone.with.a.long.address@example.com");
    frame.code = QStringLiteral("1234 5678 90");
    frame.rows = {QStringLiteral("A title far too long for a watch's list row"),
                  QStringLiteral("WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW"), QStringLiteral("x")};
    frame.selectedRow = 1;
    frame.pinLength = 12;
    frame.message = QStringLiteral("Wrong PIN, and a long explanation that cannot fit");
    frame.unlockEstimate = QStringLiteral("2,100.5-8,400.25 s (an estimate from the simulator)");
    const QImage image = app::renderWatchFrame(frame);

    int litPixels = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            if (!lit(image, x, y))
                continue;
            ++litPixels;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx)
                    if (!watch::insideScreen(chosen.geometry, x + dx, y + dy))
                        QFAIL(qPrintable(
                            QStringLiteral("(%1, %2) is lit next to the edge").arg(x).arg(y)));
        }
    QVERIFY2(litPixels > 100, qPrintable(QString::number(litPixels)));
}

void TestWatchScreenRenderer::textKeepsOffTheArc_data()
{
    QTest::addColumn<QString>("screen");
    int rows = 0;
    for (const auto& screen : screens())
        if (watch::countdownForm(screen.geometry) == watch::CountdownForm::Arc) {
            QTest::addRow("%s", qPrintable(screen.id)) << screen.id;
            ++rows;
        }
    QVERIFY2(rows > 0, "no round screen to check");
}

// On round screens the text (white) stays inside the countdown's ring,
// which is about a 28th of the width thick.
void TestWatchScreenRenderer::textKeepsOffTheArc()
{
    QFETCH(QString, screen);
    const Screen& chosen = ::screen(screen);
    WatchFrame frame = frameFor(chosen, watch::View::Code);
    frame.issuer = QStringLiteral("An issuer with a name far too long for any watch");
    frame.code = QStringLiteral("1234 5678 90");
    const QImage image = app::renderWatchFrame(frame);
    const double centre = image.width() / 2.0;
    const double inner = centre - std::max(3, image.width() / 28);
    int white = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            if (rgbAt(image, x, y) != 0xffffff || qAlpha(image.pixel(x, y)) != 255)
                continue;
            ++white;
            const double distance = std::hypot(x + 0.5 - centre, y + 0.5 - centre);
            if (distance > inner)
                QFAIL(qPrintable(QStringLiteral("(%1, %2) is white in the ring").arg(x).arg(y)));
        }
    QVERIFY(white > 100);
}

void TestWatchScreenRenderer::countdownColour_data()
{
    QTest::addColumn<QString>("screen");
    QTest::addColumn<double>("remaining");
    QTest::addColumn<int>("urgency");
    int screensWithColour = 0;
    for (const auto& screen : screens()) {
        if (watch::countdownForm(screen.geometry) == watch::CountdownForm::SubscreenPie)
            continue; // 1-bit: pieGrowsWithTime
        ++screensWithColour;
        QTest::addRow("%s-20s", qPrintable(screen.id))
            << screen.id << 20.0 << int(watch::Urgency::Normal);
        QTest::addRow("%s-8s", qPrintable(screen.id))
            << screen.id << 8.0 << int(watch::Urgency::Warning);
        QTest::addRow("%s-3s", qPrintable(screen.id))
            << screen.id << 3.0 << int(watch::Urgency::Critical);
    }
    QVERIFY2(screensWithColour > 0, "no screen with a coloured countdown to check");
}

// The countdown's colour is the urgency's, where the remaining time reaches
// (its middle), and not where it does not (the middle of the rest).
void TestWatchScreenRenderer::countdownColour()
{
    QFETCH(QString, screen);
    QFETCH(double, remaining);
    QFETCH(int, urgency);
    const Screen& chosen = ::screen(screen);
    WatchFrame frame = frameFor(chosen, watch::View::Code);
    frame.remainingSeconds = remaining;
    const QImage image = app::renderWatchFrame(frame);
    const QRgb expected = watch::urgencyColour(watch::Urgency(urgency), chosen.palette);
    const double fraction = remaining / frame.period;

    if (watch::countdownForm(chosen.geometry) == watch::CountdownForm::Arc) {
        QVERIFY2(bezelColours(image, 2).contains(expected), "not just clockwise of 12 o'clock");
        QVERIFY(bezelColours(image, fraction * 180).contains(expected));
        QVERIFY(!bezelColours(image, 180 + fraction * 180).contains(expected));
        QVERIFY(!bezelColours(image, 358).contains(expected));
    } else {
        // The bar: lit on the left for the remaining share, not on the right.
        const auto rowHas = [&](int x) {
            for (int y = image.height() * 9 / 10; y < image.height(); ++y)
                if (rgbAt(image, x, y) == expected)
                    return true;
            return false;
        };
        QVERIFY(rowHas(int(image.width() * fraction / 2)));
        QVERIFY(!rowHas(int(image.width() * (1 + fraction) / 2)));
    }
}

void TestWatchScreenRenderer::pieGrowsWithTime()
{
    int checked = 0;
    for (const auto& chosen : screens()) {
        if (watch::countdownForm(chosen.geometry) != watch::CountdownForm::SubscreenPie)
            continue;
        ++checked;
        const auto whiteInSubscreen = [&](double remaining) {
            WatchFrame frame = frameFor(chosen, watch::View::Code);
            frame.remainingSeconds = remaining;
            const QImage image = app::renderWatchFrame(frame);
            int white = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    if (watch::insideSubscreen(chosen.geometry, x, y) &&
                        rgbAt(image, x, y) == 0xffffff)
                        ++white;
            return white;
        };
        const int at25 = whiteInSubscreen(25);
        const int at15 = whiteInSubscreen(15);
        const int at5 = whiteInSubscreen(5);
        QVERIFY2(at25 > at15 && at15 > at5,
                 qPrintable(
                     QStringLiteral("%1: %2, %3, %4").arg(chosen.id).arg(at25).arg(at15).arg(at5)));
    }
    QVERIFY2(checked > 0, "no screen with a subscreen pie was checked");
}

void TestWatchScreenRenderer::hotpHasNoCountdown()
{
    for (const auto& chosen : screens()) {
        WatchFrame frame = frameFor(chosen, watch::View::Code);
        frame.timeBased = false;
        frame.counterText = QStringLiteral("#12");
        const QImage image = app::renderWatchFrame(frame);
        const QRgb green = watch::urgencyColour(watch::Urgency::Normal, chosen.palette);
        if (chosen.palette == watch::Palette::Mono)
            continue; // green is white there: text
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                if (rgbAt(image, x, y) == green)
                    QFAIL(qPrintable(chosen.id + QStringLiteral(": a countdown is drawn")));
        frame.counterText.clear();
        QVERIFY2(app::renderWatchFrame(frame) != image,
                 qPrintable(chosen.id + QStringLiteral(": the counter is not drawn")));
    }
}

void TestWatchScreenRenderer::pinDotsCount_data()
{
    QTest::addColumn<QString>("screen");
    for (const auto& screen : screens())
        QTest::addRow("%s", qPrintable(screen.id)) << screen.id;
}

// Each digit entered adds one dot, up to twelve.
void TestWatchScreenRenderer::pinDotsCount()
{
    QFETCH(QString, screen);
    const Screen& chosen = ::screen(screen);
    WatchFrame frame = frameFor(chosen, watch::View::Pin);
    frame.pinLength = 0;
    const QImage none = app::renderWatchFrame(frame);
    for (int length = 1; length <= 12; ++length) {
        frame.pinLength = length;
        QCOMPARE(differingBlobs(none, app::renderWatchFrame(frame)), length);
    }
    frame.pinLength = 20;
    QCOMPARE(differingBlobs(none, app::renderWatchFrame(frame)), 12);
}

void TestWatchScreenRenderer::pickerAndListDiffer()
{
    for (const auto& chosen : screens()) {
        WatchFrame frame = frameFor(chosen, watch::View::Pin);
        const QImage four = app::renderWatchFrame(frame);
        frame.picker = watch::WatchApp::pickerOk;
        QVERIFY(app::renderWatchFrame(frame) != four);
        frame.message.clear();
        QVERIFY(app::renderWatchFrame(frame) != four);

        // A highlighted row: a run of white across at least a quarter of the
        // width, also when the first row given would hide the selected one.
        frame = frameFor(chosen, watch::View::List);
        for (int row = 0; row < 30; ++row)
            frame.rows << QStringLiteral("More %1").arg(row);
        for (const int selected : {0, 1, 25}) {
            frame.selectedRow = selected;
            frame.firstRow = 0;
            const QImage image = app::renderWatchFrame(frame);
            int longest = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0, run = 0; x < image.width(); ++x) {
                    run = rgbAt(image, x, y) == 0xffffff ? run + 1 : 0;
                    longest = std::max(longest, run);
                }
            QVERIFY2(longest >= image.width() / 4,
                     qPrintable(QStringLiteral("%1: row %2").arg(chosen.id).arg(selected)));
        }
    }
}

// listRowsThatFit is what the List view draws: from firstRow, that many
// rows and no more.
void TestWatchScreenRenderer::listShowsTheRowsThatFit()
{
    for (const auto& chosen : screens()) {
        const int fitting = app::listRowsThatFit(chosen.geometry);
        QVERIFY2(fitting >= 3, qPrintable(chosen.id));
        WatchFrame frame = frameFor(chosen, watch::View::List);
        frame.rows.clear();
        for (int row = 0; row < 40; ++row)
            frame.rows << QStringLiteral("Account %1").arg(row);
        for (const int first : {0, 7}) {
            frame.firstRow = first;
            frame.selectedRow = first + 1;
            const QImage shown = app::renderWatchFrame(frame);
            const auto renamed = [&](int row) {
                WatchFrame changed = frame;
                changed.rows[row] = QStringLiteral("Renamed");
                return app::renderWatchFrame(changed);
            };
            const QString where = QStringLiteral("%1 from row %2").arg(chosen.id).arg(first);
            QVERIFY2(renamed(first) != shown, qPrintable(where));
            QVERIFY2(renamed(first + fitting - 1) != shown, qPrintable(where));
            QVERIFY2(renamed(first + fitting) == shown, qPrintable(where));
            if (first > 0)
                QVERIFY2(renamed(first - 1) == shown, qPrintable(where));
            // The "n/m" position: one more account changes the m.
            WatchFrame longer = frame;
            longer.rows << QStringLiteral("One more");
            QVERIFY2(app::renderWatchFrame(longer) != shown, qPrintable(where));
        }
    }
}

void TestWatchScreenRenderer::largestFittingPixelSizeIsMonotone()
{
    const auto sizeOr0 = [](const QString& text, int width, int maxHeight, bool bold) {
        return app::largestFittingPixelSize(text, width, maxHeight, bold).value_or(0);
    };
    for (const bool bold : {false, true}) {
        for (const QString& text : {QStringLiteral("287 082"), QStringLiteral("Example"),
                                    QStringLiteral("1234 5678 90")}) {
            int previous = 0;
            for (int width = 0; width <= 600; width += 7) {
                const int size = sizeOr0(text, width, 200, bold);
                QVERIFY2(size >= previous, qPrintable(QStringLiteral("%1 at %2 px: %3 < %4")
                                                          .arg(text)
                                                          .arg(width)
                                                          .arg(size)
                                                          .arg(previous)));
                previous = size;
            }
            QVERIFY(previous >= 12);
            QVERIFY(previous <= 100);
            previous = 0;
            for (int height = 0; height <= 150; height += 3) {
                const int size = sizeOr0(text, 400, height, bold);
                QVERIFY(size >= previous);
                QVERIFY(size <= height);
                previous = size;
            }
        }
        const QString longest = QStringLiteral("Example Issuer With A Longer Name");
        int previous = 1000;
        for (qsizetype length = 1; length <= longest.size(); ++length) {
            const int size = sizeOr0(longest.left(length), 240, 60, bold);
            QVERIFY2(size <= previous, qPrintable(longest.left(length)));
            previous = size;
        }
        QVERIFY(!app::largestFittingPixelSize(QStringLiteral("287 082"), 5, 100, bold));
        QVERIFY(!app::largestFittingPixelSize(QStringLiteral("287 082"), 500, 5, bold));
        QVERIFY(!app::largestFittingPixelSize(longest, 40, 100, bold));
    }
}

// The item shows each watch pixel as a square of pixelScale item pixels,
// centred, and scales down (pixelScale 0) only when it must.
void TestWatchScreenRenderer::itemScalesByWholeNumbers()
{
    const Screen& chosen = screen(QStringLiteral("fenix7"));
    const WatchFrame frame = frameFor(chosen, watch::View::Code);
    const QImage expected = app::renderWatchFrame(frame);
    app::WatchScreenItem item;
    QCOMPARE(item.nativeWidth(), 0);
    item.setFrame(frame);
    QCOMPARE(item.nativeWidth(), chosen.geometry.width);
    QCOMPARE(item.nativeHeight(), chosen.geometry.height);
    QCOMPARE(item.pixelAt(130, 60), QColor::fromRgba(expected.pixel(130, 60)));
    QCOMPARE(item.pixelAt(0, 0).alpha(), 0);
    QVERIFY(!item.pixelAt(-1, 0).isValid());
    QVERIFY(!item.pixelAt(0, chosen.geometry.height).isValid());

    const double bezel = 1 + 2 * app::WatchScreenItem::bezelShare;
    for (const int scale : {1, 2, 3}) {
        const int side = int(std::ceil(chosen.geometry.width * scale * bezel)) + 5;
        item.setSize(QSizeF(side, side + 40));
        QCOMPARE(item.pixelScale(), scale);

        QImage painted(side, side + 40, QImage::Format_ARGB32_Premultiplied);
        painted.fill(Qt::transparent);
        {
            QPainter painter(&painted);
            item.paint(&painter);
        }
        const int left = (side - chosen.geometry.width * scale) / 2;
        const int top = (side + 40 - chosen.geometry.height * scale) / 2;
        // Every item pixel of a few watch pixels on the glass is the watch
        // pixel's colour: crisp squares, not a blend.
        for (const QPoint watchPixel :
             {QPoint(130, 130), QPoint(130, 60), QPoint(20, 130), QPoint(200, 100), QPoint(130, 4)})
            for (int dy = 0; dy < scale; ++dy)
                for (int dx = 0; dx < scale; ++dx)
                    QCOMPARE(painted.pixel(left + watchPixel.x() * scale + dx,
                                           top + watchPixel.y() * scale + dy),
                             expected.pixel(watchPixel));
    }
    item.setSize(QSizeF(100, 100));
    QCOMPARE(item.pixelScale(), 0);
    item.setFrame(WatchFrame{});
    QCOMPARE(item.nativeWidth(), 0);
    QCOMPARE(item.pixelScale(), 0);
}

// With WATCHWORD_WATCH_FRAMES set to a directory, every screen's views are
// saved there as PNGs, to be looked at.
void TestWatchScreenRenderer::savesFramesToLookAt()
{
    const QString directory = qEnvironmentVariable("WATCHWORD_WATCH_FRAMES");
    if (directory.isEmpty())
        QSKIP("WATCHWORD_WATCH_FRAMES is not set");
    QVERIFY(QDir().mkpath(directory));
    for (const auto& chosen : screens()) {
        for (const auto& [name, view] : views) {
            WatchFrame frame = frameFor(chosen, view);
            const QString base = directory + QLatin1Char('/') + chosen.id + QLatin1Char('-') +
                                 QString::fromLatin1(name);
            if (view == watch::View::Code) {
                for (const double remaining : {20.0, 8.0, 3.0}) {
                    frame.remainingSeconds = remaining;
                    QVERIFY(app::renderWatchFrame(frame).save(
                        base + QStringLiteral("-%1s.png").arg(remaining)));
                }
                frame.timeBased = false;
                frame.counterText = QStringLiteral("#12");
                frame.issuer.clear();
                QVERIFY(app::renderWatchFrame(frame).save(base + QStringLiteral("-hotp.png")));
                continue;
            }
            QVERIFY(app::renderWatchFrame(frame).save(base + QStringLiteral(".png")));
        }
    }
}

QTEST_MAIN(TestWatchScreenRenderer)
#include "TestWatchScreenRenderer.moc"
