// The simulator's screen arithmetic: which pixels are on the glass, the room a
// line of text has, the colours a palette shows and the countdown's form and
// colour. Expected values are worked out by hand in the comments, not taken
// from the code under test.
#include "watch/Device.h"
#include "watch/Screen.h"

#include <QRandomGenerator>
#include <QtTest>
#include <cmath>
#include <numbers>
#include <vector>

using namespace watchword;
using namespace watchword::watch;

Q_DECLARE_METATYPE(watchword::watch::Palette)
Q_DECLARE_METATYPE(watchword::watch::Urgency)

namespace {

const QString shippedDirectory = QStringLiteral(WATCHWORD_SHIPPED_DEVICES_DIR);

ScreenGeometry round260()
{
    return {Shape::Round, 260, 260, std::nullopt};
}

// The shipped Instinct 2: 176 x 176, subscreen 62 x 62 at (114, 0). The
// octagon's corner legs are round(176 / (2 + sqrt 2)) = round(51.55) = 52.
ScreenGeometry instinct2()
{
    return {Shape::SemiOctagon, 176, 176, Subscreen{114, 0, 62, 62, false}};
}

int insideCount(const ScreenGeometry& screen)
{
    int count = 0;
    for (int y = 0; y < screen.height; ++y)
        for (int x = 0; x < screen.width; ++x)
            count += insideScreen(screen, x, y) ? 1 : 0;
    return count;
}

} // namespace

class TestScreen : public QObject
{
    Q_OBJECT

private slots:
    void geometryOfShippedProfiles_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<bool>("drawable");
        QTest::addColumn<int>("shape");
        QTest::addColumn<int>("size");
        QTest::addColumn<bool>("subscreen");
        const auto round = static_cast<int>(Shape::Round);
        const auto semiOctagon = static_cast<int>(Shape::SemiOctagon);
        QTest::newRow("epix2") << "epix2" << true << round << 416 << false;
        QTest::newRow("fenix7") << "fenix7" << true << round << 260 << false;
        QTest::newRow("fr165") << "fr165" << true << round << 390 << false;
        QTest::newRow("fr255") << "fr255" << true << round << 260 << false;
        QTest::newRow("fr255s") << "fr255s" << true << round << 218 << false;
        QTest::newRow("fr265") << "fr265" << true << round << 416 << false;
        QTest::newRow("fr55") << "fr55" << true << round << 208 << false;
        QTest::newRow("fr70") << "fr70" << false << 0 << 0 << false;
        QTest::newRow("fr965") << "fr965" << true << round << 454 << false;
        QTest::newRow("instinct2") << "instinct2" << true << semiOctagon << 176 << true;
        QTest::newRow("venu3") << "venu3" << true << round << 454 << false;
    }

    void geometryOfShippedProfiles()
    {
        QFETCH(QString, id);
        QFETCH(bool, drawable);
        QFETCH(int, shape);
        QFETCH(int, size);
        QFETCH(bool, subscreen);
        const auto devices = loadDevices(shippedDirectory.toStdString());
        QVERIFY2(devices.ok(), devices.ok() ? "" : devices.error().message.c_str());
        const Device* device = nullptr;
        for (const auto& candidate : *devices)
            if (candidate.id == id.toStdString())
                device = &candidate;
        QVERIFY(device);
        const auto geometry = geometryOf(device->display);
        QCOMPARE(geometry.has_value(), drawable);
        if (!drawable)
            return;
        QCOMPARE(static_cast<int>(geometry->shape), shape);
        QCOMPARE(geometry->width, size);
        QCOMPARE(geometry->height, size);
        QCOMPARE(geometry->subscreen.has_value(), subscreen);
        if (subscreen) {
            QCOMPARE(geometry->subscreen->x, 114);
            QCOMPARE(geometry->subscreen->y, 0);
            QCOMPARE(geometry->subscreen->width, 62);
        }
    }

    void geometryNeedsShapeAndSize()
    {
        Display display;
        display.shape = Shape::Round;
        display.width = 260;
        QVERIFY(!geometryOf(display)); // no height
        display.height = 0;
        QVERIFY(!geometryOf(display));
        display.height = 260;
        display.subscreen = Subscreen{1, 2, 3, 4, false};
        const auto geometry = geometryOf(display);
        QVERIFY(geometry);
        QVERIFY(!geometry->subscreen); // only semi-octagon screens have one
    }

    // Round 260: centre (130, 130), radius 130; a pixel is inside if
    // (x + 0.5 - 130)^2 + (y + 0.5 - 130)^2 <= 130^2 = 16900.
    void roundMask_data()
    {
        QTest::addColumn<int>("x");
        QTest::addColumn<int>("y");
        QTest::addColumn<bool>("inside");
        QTest::newRow("centre") << 130 << 130 << true;
        QTest::newRow("top left corner") << 0 << 0 << false;
        QTest::newRow("top right corner") << 259 << 0 << false;
        QTest::newRow("bottom left corner") << 0 << 259 << false;
        QTest::newRow("bottom right corner") << 259 << 259 << false;
        // 129.5^2 + 0.5^2 = 16770.5 <= 16900
        QTest::newRow("left edge middle") << 0 << 130 << true;
        QTest::newRow("top edge middle") << 130 << 0 << true;
        QTest::newRow("right edge middle") << 259 << 129 << true;
        // 129.5^2 + 29.5^2 = 17640.5 > 16900
        QTest::newRow("left edge off middle") << 0 << 100 << false;
        // row 0: |x + 0.5 - 130| <= sqrt(129.75) = 11.39: x from 119 to 140
        QTest::newRow("row 0 first") << 119 << 0 << true;
        QTest::newRow("row 0 before first") << 118 << 0 << false;
        QTest::newRow("row 0 last") << 140 << 0 << true;
        QTest::newRow("row 0 after last") << 141 << 0 << false;
        QTest::newRow("left of the grid") << -1 << 130 << false;
        QTest::newRow("right of the grid") << 260 << 130 << false;
        QTest::newRow("below the grid") << 130 << 260 << false;
    }

    void roundMask()
    {
        QFETCH(int, x);
        QFETCH(int, y);
        QFETCH(bool, inside);
        QCOMPARE(insideScreen(round260(), x, y), inside);
    }

    void roundMaskHasTheCirclesArea()
    {
        const double area = std::numbers::pi * 130 * 130;
        const int count = insideCount(round260());
        QVERIFY2(std::abs(count - area) < area * 0.005,
                 qPrintable(QStringLiteral("%1 pixels, area %2").arg(count).arg(area)));
    }

    void rectangleIsAllInside()
    {
        const ScreenGeometry screen{Shape::Rectangle, 200, 100, std::nullopt};
        QCOMPARE(insideCount(screen), 200 * 100);
        QVERIFY(!insideScreen(screen, 200, 0));
        QVERIFY(!insideScreen(screen, 0, 100));
        QVERIFY(!insideScreen(screen, -1, 0));
        const auto room = textRoom(screen, 0, 100);
        QCOMPARE(room.left, 0);
        QCOMPARE(room.right, 200);
    }

    // Legs of 52: a corner pixel is cut when its centre's distances to the
    // corner's two edges sum to less than 52. The top right holds the
    // subscreen and is not cut.
    void semiOctagonMask_data()
    {
        QTest::addColumn<int>("x");
        QTest::addColumn<int>("y");
        QTest::addColumn<bool>("inside");
        QTest::newRow("centre") << 88 << 88 << true;
        QTest::newRow("top left corner") << 0 << 0 << false;
        QTest::newRow("top left 25,25 (51)") << 25 << 25 << false;
        QTest::newRow("top left 25,26 (52)") << 25 << 26 << true;
        QTest::newRow("top left 0,50 (51)") << 0 << 50 << false;
        QTest::newRow("top left 0,51 (52)") << 0 << 51 << true;
        QTest::newRow("top right corner kept") << 175 << 0 << true;
        QTest::newRow("top right 150,10 kept") << 150 << 10 << true;
        QTest::newRow("bottom left corner") << 0 << 175 << false;
        QTest::newRow("bottom left 25,150 (51)") << 25 << 150 << false;
        QTest::newRow("bottom left 25,149 (52)") << 25 << 149 << true;
        QTest::newRow("bottom right corner") << 175 << 175 << false;
        QTest::newRow("bottom right 150,150 (51)") << 150 << 150 << false;
        QTest::newRow("bottom right 150,149 (52)") << 150 << 149 << true;
        QTest::newRow("top edge middle") << 88 << 0 << true;
        QTest::newRow("off the grid") << 176 << 0 << false;
    }

    void semiOctagonMask()
    {
        QFETCH(int, x);
        QFETCH(int, y);
        QFETCH(bool, inside);
        QCOMPARE(insideScreen(instinct2(), x, y), inside);
    }

    // Each cut corner loses the pixels with i + j <= 50: 51 * 52 / 2 = 1326.
    void semiOctagonCutsThreeCorners()
    {
        QCOMPARE(insideCount(instinct2()), 176 * 176 - 3 * 1326);
        ScreenGeometry noSubscreen = instinct2();
        noSubscreen.subscreen.reset();
        QCOMPARE(insideCount(noSubscreen), 176 * 176 - 4 * 1326);
    }

    // The subscreen's circle: centre (145, 31), radius 31.
    void subscreenCircle_data()
    {
        QTest::addColumn<int>("x");
        QTest::addColumn<int>("y");
        QTest::addColumn<bool>("inside");
        QTest::newRow("centre") << 145 << 31 << true;
        QTest::newRow("its rectangle's corner") << 114 << 0 << false;
        QTest::newRow("the screen's corner") << 175 << 0 << false;
        QTest::newRow("left edge middle") << 114 << 31 << true;
        QTest::newRow("right edge middle") << 175 << 31 << true;
        QTest::newRow("below it") << 145 << 62 << false;
        QTest::newRow("main area") << 88 << 88 << false;
    }

    void subscreenCircle()
    {
        QFETCH(int, x);
        QFETCH(int, y);
        QFETCH(bool, inside);
        QCOMPARE(insideSubscreen(instinct2(), x, y), inside);
        QVERIFY(!insideSubscreen(round260(), x, y));
    }

    void textRoomOfBands_data()
    {
        QTest::addColumn<bool>("instinct");
        QTest::addColumn<int>("top");
        QTest::addColumn<int>("bottom");
        QTest::addColumn<int>("left");
        QTest::addColumn<int>("right");
        // Rows 125..134 reach |dy| <= 4.5: sqrt(16900 - 20.25) = 129.92, so
        // every pixel of the row is inside.
        QTest::newRow("round, centre") << false << 125 << 135 << 0 << 260;
        // Row 10 is the narrowest: sqrt(16900 - 119.5^2) = 51.18, x + 0.5
        // within 130 -+ 51.18: x from 79 to 180.
        QTest::newRow("round, near the top") << false << 10 << 30 << 79 << 181;
        QTest::newRow("round, near the bottom") << false << 230 << 250 << 79 << 181;
        QTest::newRow("round, row 0") << false << 0 << 1 << 119 << 141;
        QTest::newRow("round, above the screen") << false << -1 << 10 << 0 << 0;
        QTest::newRow("round, below the screen") << false << 250 << 261 << 0 << 0;
        QTest::newRow("round, no rows") << false << 100 << 100 << 0 << 0;
        // Row 10: x + 0.5 + 10.5 >= 52 from x = 41; the subscreen's
        // rectangle ends the row at 114.
        QTest::newRow("instinct, beside the subscreen") << true << 10 << 20 << 41 << 114;
        QTest::newRow("instinct, last rows of the subscreen") << true << 60 << 70 << 0 << 114;
        QTest::newRow("instinct, middle") << true << 80 << 100 << 0 << 176;
        // Row 175: 0.5 from the bottom, so x + 1 >= 52 and 176 - x >= 52.
        QTest::newRow("instinct, bottom") << true << 170 << 176 << 51 << 125;
    }

    void textRoomOfBands()
    {
        QFETCH(bool, instinct);
        QFETCH(int, top);
        QFETCH(int, bottom);
        QFETCH(int, left);
        QFETCH(int, right);
        const auto room = watch::textRoom(instinct ? instinct2() : round260(), top, bottom);
        QCOMPARE(room.left, left);
        QCOMPARE(room.right, right);
        QCOMPARE(room.width(), right - left);
    }

    void textRoomOnRoundIsSymmetric()
    {
        for (int top = 0; top < 250; top += 7) {
            const auto room = watch::textRoom(round260(), top, top + 10);
            QVERIFY(room.width() > 0);
            QCOMPARE(room.left, 260 - room.right);
            for (int y = top; y < top + 10; ++y) {
                QVERIFY(insideScreen(round260(), room.left, y));
                QVERIFY(insideScreen(round260(), room.right - 1, y));
            }
        }
    }

    void textRoomAvoidsTheSubscreen()
    {
        const auto screen = instinct2();
        for (int top = 0; top < 166; top += 5) {
            const auto room = watch::textRoom(screen, top, top + 10);
            for (int y = top; y < top + 10; ++y)
                for (int x = room.left; x < room.right; ++x) {
                    QVERIFY(insideScreen(screen, x, y));
                    QVERIFY(!insideSubscreen(screen, x, y));
                }
        }
    }

    // Mip64 has 0x00, 0x55, 0xaa, 0xff per channel and is a product of its
    // channels, so the nearest colour is the nearest level per channel
    // (midpoints 42.5, 127.5, 212.5). Mono: white from luma 128.
    void nearestColourPerPalette_data()
    {
        QTest::addColumn<Palette>("palette");
        QTest::addColumn<quint32>("rgb");
        QTest::addColumn<quint32>("expected");
        const auto row = [](const char* name, Palette palette, quint32 rgb, quint32 expected) {
            QTest::newRow(name) << palette << rgb << expected;
        };
        // 0x12 = 18 -> 0x00, 0x34 = 52 -> 0x55, 0x56 = 86 -> 0x55
        row("mip64 0x123456", Palette::Mip64, 0x123456, 0x005555);
        row("mip64 42 -> 0x00", Palette::Mip64, 0x2a2a2a, 0x000000);
        row("mip64 43 -> 0x55", Palette::Mip64, 0x2b2b2b, 0x555555);
        row("mip64 127 -> 0x55", Palette::Mip64, 0x7f7f7f, 0x555555);
        row("mip64 128 -> 0xaa", Palette::Mip64, 0x808080, 0xaaaaaa);
        row("mip64 213 -> 0xff", Palette::Mip64, 0xd5d5d5, 0xffffff);
        row("mip64 orange is in it", Palette::Mip64, 0xff5500, 0xff5500);
        row("mip64 mixed", Palette::Mip64, 0xf01080, 0xff00aa);
        row("mip64 ignores alpha bits", Palette::Mip64, 0xff123456, 0x005555);
        row("mip16 stand-in is mip64", Palette::Mip16, 0x123456, 0x005555);
        // luma(0x808080) = 128 exactly, luma(0x7f7f7f) = 127
        row("mono grey 128", Palette::Mono, 0x808080, 0xffffff);
        row("mono grey 127", Palette::Mono, 0x7f7f7f, 0x000000);
        // 0.587 * 255 = 149.7; 0.299 * 255 = 76.2; 0.114 * 255 = 29.1
        row("mono green", Palette::Mono, 0x00ff00, 0xffffff);
        row("mono red", Palette::Mono, 0xff0000, 0x000000);
        row("mono blue", Palette::Mono, 0x0000ff, 0x000000);
        // 76.245 + 0.587 * 85 = 126.14
        row("mono orange", Palette::Mono, 0xff5500, 0x000000);
        // 76.245 + 0.587 * 88 = 127.9; + 0.587 * 89 = 128.5
        row("mono ff5800", Palette::Mono, 0xff5800, 0x000000);
        row("mono ff5900", Palette::Mono, 0xff5900, 0xffffff);
        row("full identity", Palette::Full, 0x123456, 0x123456);
        row("full identity white", Palette::Full, 0xffffff, 0xffffff);
    }

    void nearestColourPerPalette()
    {
        QFETCH(Palette, palette);
        QFETCH(quint32, rgb);
        QFETCH(quint32, expected);
        QCOMPARE(quint32(watch::nearestColour(palette, rgb)), expected);
    }

    void reduceToPaletteKeepsAlpha_data()
    {
        QTest::addColumn<Palette>("palette");
        QTest::newRow("mip64") << Palette::Mip64;
        QTest::newRow("mip16") << Palette::Mip16;
        QTest::newRow("mono") << Palette::Mono;
        QTest::newRow("full") << Palette::Full;
    }

    // Random colours defeat the cache; runs and repeats use it.
    void reduceToPaletteKeepsAlpha()
    {
        QFETCH(Palette, palette);
        QRandomGenerator random(20261203);
        std::vector<std::uint32_t> frame;
        for (int i = 0; i < 20000; ++i)
            frame.push_back(random.generate());
        for (int i = 0; i < 2000; ++i)
            frame.push_back(frame[static_cast<std::size_t>(i % 97)]);
        for (int i = 0; i < 300; ++i)
            frame.push_back(0x80000000u | static_cast<std::uint32_t>(i / 50) * 0x111111u);
        const std::vector<std::uint32_t> original = frame;
        reduceToPalette(palette, frame);
        for (std::size_t i = 0; i < frame.size(); ++i) {
            const std::uint32_t expected =
                (original[i] & 0xff000000u) | watch::nearestColour(palette, original[i] & 0xffffff);
            if (frame[i] != expected)
                QFAIL(qPrintable(QStringLiteral("pixel %1: %2 became %3, expected %4")
                                     .arg(i)
                                     .arg(original[i], 8, 16, QLatin1Char('0'))
                                     .arg(frame[i], 8, 16, QLatin1Char('0'))
                                     .arg(expected, 8, 16, QLatin1Char('0'))));
        }
    }

    void urgencyBoundaries_data()
    {
        QTest::addColumn<double>("remaining");
        QTest::addColumn<Urgency>("urgency");
        QTest::newRow("30") << 30.0 << Urgency::Normal;
        QTest::newRow("10.0001") << 10.0001 << Urgency::Normal;
        QTest::newRow("10") << 10.0 << Urgency::Warning;
        QTest::newRow("5.0001") << 5.0001 << Urgency::Warning;
        QTest::newRow("5") << 5.0 << Urgency::Critical;
        QTest::newRow("0.5") << 0.5 << Urgency::Critical;
        QTest::newRow("0") << 0.0 << Urgency::Critical;
    }

    void urgencyBoundaries()
    {
        QFETCH(double, remaining);
        QFETCH(Urgency, urgency);
        QCOMPARE(urgencyOf(remaining), urgency);
    }

    // COLOR_GREEN, COLOR_ORANGE and COLOR_RED are all in the 64-colour
    // palette; on a 1-bit screen all three are white.
    void urgencyColourPerPalette_data()
    {
        QTest::addColumn<Palette>("palette");
        QTest::addColumn<Urgency>("urgency");
        QTest::addColumn<quint32>("colour");
        for (const auto& [name, palette] :
             {std::pair{"mip64", Palette::Mip64}, std::pair{"mip16", Palette::Mip16},
              std::pair{"full", Palette::Full}}) {
            QTest::addRow("%s normal", name) << palette << Urgency::Normal << 0x00ff00u;
            QTest::addRow("%s warning", name) << palette << Urgency::Warning << 0xff5500u;
            QTest::addRow("%s critical", name) << palette << Urgency::Critical << 0xff0000u;
        }
        QTest::newRow("mono normal") << Palette::Mono << Urgency::Normal << 0xffffffu;
        QTest::newRow("mono warning") << Palette::Mono << Urgency::Warning << 0xffffffu;
        QTest::newRow("mono critical") << Palette::Mono << Urgency::Critical << 0xffffffu;
    }

    void urgencyColourPerPalette()
    {
        QFETCH(Palette, palette);
        QFETCH(Urgency, urgency);
        QFETCH(quint32, colour);
        QCOMPARE(quint32(urgencyColour(urgency, palette)), colour);
    }

    void countdownFormPerShape()
    {
        QCOMPARE(countdownForm(round260()), CountdownForm::Arc);
        QCOMPARE(countdownForm({Shape::Rectangle, 200, 100, std::nullopt}), CountdownForm::Bar);
        QCOMPARE(countdownForm(instinct2()), CountdownForm::SubscreenPie);
        ScreenGeometry noSubscreen = instinct2();
        noSubscreen.subscreen.reset();
        QCOMPARE(countdownForm(noSubscreen), CountdownForm::Bar);
    }
};

QTEST_GUILESS_MAIN(TestScreen)
#include "TestScreen.moc"
