// Device profiles: every shipped profile loads with the SDK's figures, and a
// bad profile is refused with its file and field named, one field per row.
#include "common/TestSupport.h"
#include "watch/Device.h"

#include <QFile>
#include <QtTest>

using namespace watchword;
using namespace watchword::watch;

namespace {

const QString shippedDirectory = QStringLiteral(WATCHWORD_SHIPPED_DEVICES_DIR);

QByteArray goodFr255()
{
    QFile file(test::dataPath(QStringLiteral("devices/good/fr255.json")));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read devices/good/fr255.json");
    return file.readAll();
}

const Device* find(const std::vector<Device>& devices, const std::string& id)
{
    for (const auto& device : devices)
        if (device.id == id)
            return &device;
    return nullptr;
}

} // namespace

class TestDevice : public QObject
{
    Q_OBJECT

private slots:
    void everyShippedProfileLoads()
    {
        const auto devices = loadDevices(shippedDirectory.toStdString());
        QVERIFY2(devices.ok(), devices.ok() ? "" : devices.error().message.c_str());
        QStringList ids;
        for (const auto& device : *devices)
            ids << QString::fromStdString(device.id);
        QCOMPARE(ids, QStringList({"epix2", "fenix7", "fr165", "fr255", "fr255s", "fr265", "fr55",
                                   "fr70", "fr965", "instinct2", "venu3", "venusq2"}));
        for (const auto& device : *devices) {
            QCOMPARE(device.performance.simulatorMs.size(), allOperations.size());
            QVERIFY(device.performance.measuredMs.empty()); // nobody has measured a watch
            // fr70 and venusq2 are not in the SDK data the project has.
            QCOMPARE(device.verified, device.id != "fr70" && device.id != "venusq2");
            if (device.verified) {
                QVERIFY(device.crypto.has_value());
                QVERIFY(device.hasNative("hmac-sha256"));
                QVERIFY(!device.hasNative("sha512"));
            }
        }
    }

    // WATCH.md's table, row by row.
    void shippedProfilesHoldTheSdkFigures_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("shape");
        QTest::addColumn<int>("width");
        QTest::addColumn<QString>("palette");
        QTest::addColumn<int>("buttons");
        QTest::addColumn<bool>("touch");
        QTest::addColumn<quint64>("appKiB");
        QTest::addColumn<QString>("apiMin");
        QTest::addColumn<QString>("apiMax");
        QTest::newRow("fr55") << "fr55"
                              << "round" << 208 << "mip16" << 5 << false << quint64(128) << "3.2.0"
                              << "3.4.6";
        QTest::newRow("fr165") << "fr165"
                               << "round" << 390 << "full" << 5 << true << quint64(768) << "4.2.2"
                               << "5.2.0";
        QTest::newRow("fr255") << "fr255"
                               << "round" << 260 << "mip64" << 5 << false << quint64(512) << "4.1.2"
                               << "5.2.0";
        QTest::newRow("fr255s") << "fr255s"
                                << "round" << 218 << "mip64" << 5 << false << quint64(512)
                                << "4.1.2"
                                << "5.2.0";
        QTest::newRow("fr265") << "fr265"
                               << "round" << 416 << "full" << 5 << true << quint64(768) << "4.2.0"
                               << "5.2.0";
        QTest::newRow("fr965") << "fr965"
                               << "round" << 454 << "full" << 5 << true << quint64(768) << "4.2.0"
                               << "5.2.0";
        QTest::newRow("fenix7") << "fenix7"
                                << "round" << 260 << "mip64" << 5 << true << quint64(768) << "4.0.4"
                                << "5.2.0";
        QTest::newRow("epix2") << "epix2"
                               << "round" << 416 << "full" << 5 << true << quint64(768) << "4.0.0"
                               << "5.2.0";
        QTest::newRow("venu3") << "venu3"
                               << "round" << 454 << "full" << 2 << true << quint64(768) << "4.2.3"
                               << "5.2.0";
        QTest::newRow("instinct2")
            << "instinct2"
            << "semi-octagon" << 176 << "mono" << 5 << false << quint64(96) << "3.2.7"
            << "3.4.3";
    }

    void shippedProfilesHoldTheSdkFigures()
    {
        QFETCH(QString, id);
        QFETCH(QString, shape);
        QFETCH(int, width);
        QFETCH(QString, palette);
        QFETCH(int, buttons);
        QFETCH(bool, touch);
        QFETCH(quint64, appKiB);
        QFETCH(QString, apiMin);
        QFETCH(QString, apiMax);
        const auto devices = loadDevices(shippedDirectory.toStdString());
        QVERIFY(devices.ok());
        const Device* device = find(*devices, id.toStdString());
        QVERIFY(device);
        QCOMPARE(QString::fromStdString(std::string(shapeName(*device->display.shape))), shape);
        QCOMPARE(*device->display.width, width);
        QCOMPARE(*device->display.height, width);
        QCOMPARE(QString::fromStdString(std::string(paletteName(*device->display.palette))),
                 palette);
        QCOMPARE(*device->input.buttons, buttons);
        QCOMPARE(*device->input.touch, touch);
        QCOMPARE(*device->appBytes, appKiB * 1024);
        QCOMPARE(QString::fromStdString(*device->apiMin), apiMin);
        QCOMPARE(QString::fromStdString(*device->apiMax), apiMax);
    }

    void instinctHasItsSubscreen()
    {
        const auto devices = loadDevices(shippedDirectory.toStdString());
        QVERIFY(devices.ok());
        const Device* instinct = find(*devices, "instinct2");
        QVERIFY(instinct && instinct->display.subscreen);
        QCOMPARE(instinct->display.subscreen->width, 62);
        QCOMPARE(instinct->display.subscreen->height, 62);
        QVERIFY(!instinct->display.subscreen->positionVerified);
        QCOMPARE(*instinct->display.colours, 2u);
    }

    void venuSq2IsTheRectangleWithItsGaps()
    {
        const auto devices = loadDevices(shippedDirectory.toStdString());
        QVERIFY(devices.ok());
        const Device* venu = find(*devices, "venusq2");
        QVERIFY(venu);
        QVERIFY(!venu->verified);
        QCOMPARE(venu->display.shape, std::optional<Shape>(Shape::Rectangle));
        QCOMPARE(venu->display.width, std::optional<int>(320));
        QCOMPARE(venu->display.height, std::optional<int>(360));
        QCOMPARE(venu->input.touch, std::optional<bool>(true));
        // What its specification sheet does not give stays unknown.
        QVERIFY(!venu->appBytes && !venu->crypto && !venu->apiMin);
    }

    void fr70IsUnknownNotInvented()
    {
        const auto devices = loadDevices(shippedDirectory.toStdString());
        QVERIFY(devices.ok());
        const Device* fr70 = find(*devices, "fr70");
        QVERIFY(fr70);
        QVERIFY(!fr70->verified);
        QVERIFY(!fr70->display.shape && !fr70->display.width && !fr70->appBytes && !fr70->crypto);
        QCOMPARE(fr70->unknownFields().size(), std::size_t(13));
    }

    void mip64PaletteHasTwoBitsPerChannel()
    {
        const auto palette = paletteColours(Palette::Mip64);
        QCOMPARE(palette.colours.size(), std::size_t(64));
        QVERIFY(palette.exact);
        for (const auto colour : palette.colours)
            for (const int shift : {0, 8, 16}) {
                const auto channel = (colour >> shift) & 0xff;
                QVERIFY(channel == 0x00 || channel == 0x55 || channel == 0xaa || channel == 0xff);
            }
        QCOMPARE(paletteColours(Palette::Mono).colours, (std::vector<std::uint32_t>{0, 0xffffff}));
        QVERIFY(!paletteColours(Palette::Mip16).exact);
        QVERIFY(paletteColours(Palette::Full).colours.empty());
    }

    void goodProfileParses()
    {
        const auto device = parseDevice(goodFr255().toStdString(), "fr255.json");
        QVERIFY2(device.ok(), device.ok() ? "" : device.error().message.c_str());
        QCOMPARE(device->performance.simulatorMs.at(Operation::TotpSha512), 17.5);
        QCOMPARE(device->performance.simulatorCalibrationRounds, 12000.0);
        QCOMPARE(device->performance.vmSlowdown.high, 100.0);
    }

    // One change to good/fr255.json per row; the message is checked whole.
    void badProfileNamesFileAndField_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("message");
        const auto row = [](const char* name, const char* from, const char* to,
                            const char* message) {
            QTest::newRow(name) << from << to << message;
        };
        row("negative width", R"("width": 260)", R"("width": -3)",
            "fr255.json: display.width: must be a positive integer or null, got -3");
        row("huge width", R"("width": 260)", R"("width": 5000)",
            "fr255.json: display.width: must be from 16 to 2048 pixels, got 5000");
        row("fractional height", R"("height": 260)", R"("height": 260.5)",
            "fr255.json: display.height: must be a positive integer or null, got 260.5");
        row("round but not square", R"("height": 260)", R"("height": 240)",
            "fr255.json: display.height: a round display is as high as it is wide (260), got "
            "240");
        row("unknown shape", R"("shape": "round")", R"("shape": "square")",
            "fr255.json: display.shape: unknown shape 'square' (round, semi-octagon or "
            "rectangle)");
        row("unknown technology", R"("technology": "mip")", R"("technology": "e-ink")",
            "fr255.json: display.technology: unknown display technology 'e-ink' (mip, amoled or "
            "lcd)");
        row("palette against technology", R"("palette": "mip64")", R"("palette": "full")",
            "fr255.json: display.palette: 'full' does not go with a mip display");
        row("colours against palette", R"("colours": 64)", R"("colours": 16)",
            "fr255.json: display.colours: palette 'mip64' has 64 colours, got 16");
        row("colours against depth", R"("bitsPerPixel": 6)", R"("bitsPerPixel": 5)",
            "fr255.json: display.colours: must be 2^bitsPerPixel (32), got 64");
        row("subscreen on a round screen", R"("colours": 64)",
            R"("colours": 64, "subscreen": {"x": 0, "y": 0, "width": 10, "height": 10, )"
            R"("positionVerified": true})",
            "fr255.json: display.subscreen: only a semi-octagon display has one");
        row("semi-octagon without subscreen", R"("shape": "round")", R"("shape": "semi-octagon")",
            "fr255.json: display.subscreen: a semi-octagon display needs its subscreen");
        row("subscreen outside", R"("shape": "round")",
            R"("shape": "semi-octagon", "subscreen": {"x": 220, "y": 0, "width": 62, )"
            R"("height": 62, "positionVerified": false})",
            "fr255.json: display.subscreen: lies outside the 260x260 screen (x 220 + width 62, "
            "y 0 + height 62)");
        row("misspelt field", R"("bitsPerPixel": 6)", R"("bitsPerPixle": 6)",
            "fr255.json: display.bitsPerPixle: unknown field");
        row("missing field", R"("buttons": 5,)", "", "fr255.json: input.buttons: missing");
        row("touch as a string", R"("touch": false)", R"("touch": "no")",
            "fr255.json: input.touch: must be true, false or null, got \"no\"");
        row("tiny memory", R"("appBytes": 524288)", R"("appBytes": 1024)",
            "fr255.json: memory.appBytes: must be from 16384 to 67108864 bytes, got 1024");
        row("bad API level", R"("min": "4.1.2")", R"("min": "4.1")",
            "fr255.json: api.min: must be an API level such as \"4.1.2\" or null, got \"4.1\"");
        row("API range reversed", R"("max": "5.2.0")", R"("max": "4.0.0")",
            "fr255.json: api.max: is below api.min (4.1.2)");
        row("unknown primitive", R"("md5")", R"("sha512")",
            "fr255.json: crypto[2]: unknown primitive \"sha512\"");
        row("repeated primitive", R"("md5")", R"("sha1")",
            "fr255.json: crypto[2]: repeats \"sha1\"");
        row("missing simulator figure", R"("totp-sha512": 17.5,)", "",
            "fr255.json: performance.simulator.totp-sha512: missing");
        row("zero time", R"("seal-open": 0.25)", R"("seal-open": 0)",
            "fr255.json: performance.simulator.seal-open: must be a number above 0, got 0");
        row("slowdown below 1", R"("low": 5)", R"("low": 0.5)",
            "fr255.json: performance.slowdown.native.low: a slowdown is at least 1 (the "
            "simulator's speed)");
        row("slowdown reversed", R"("high": 100)", R"("high": 10)",
            "fr255.json: performance.slowdown.vm.high: must not be below low");
        row("unknown operation measured", R"("simulatorCalibrationRounds")",
            R"("measured": {"totp-md5": 1}, "simulatorCalibrationRounds")",
            "fr255.json: performance.measured.totp-md5: unknown field");
        row("verified but unknown", R"("appBytes": 524288)", R"("appBytes": null)",
            "fr255.json: memory.appBytes: is unknown (null), but the profile says \"verified\": "
            "true");
        row("bad id", R"("id": "fr255")", R"("id": "FR-255")",
            "fr255.json: id: must be lower-case letters and digits, got \"FR-255\"");
        row("empty name", R"("name": "Forerunner 255")", R"("name": "")",
            "fr255.json: name: must be a non-empty string, got \"\"");
        row("verified as text", R"("verified": true)", R"("verified": "yes")",
            "fr255.json: verified: must be true or false, got \"yes\"");
        row("duplicate key", R"("width": 260,)", R"("width": 260, "width": 261,)",
            "fr255.json: the key \"width\" appears twice in one object");
    }

    void badProfileNamesFileAndField()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, message);
        QByteArray text = goodFr255();
        QCOMPARE(text.count(from.toUtf8()), 1); // the row changes one place
        text.replace(from.toUtf8(), to.toUtf8());
        const auto device = parseDevice(text.toStdString(), "fr255.json");
        QVERIFY(!device.ok());
        QCOMPARE(QString::fromStdString(device.error().message), message);
    }

    void malformedJsonIsRefused_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("comment") << QByteArray("// a comment\n") + goodFr255();
        QTest::newRow("trailing data") << goodFr255() + "{}";
        QTest::newRow("truncated") << goodFr255().left(100);
        QTest::newRow("empty") << QByteArray();
    }

    void malformedJsonIsRefused()
    {
        QFETCH(QByteArray, text);
        const auto device = parseDevice(text.toStdString(), "fr255.json");
        QVERIFY(!device.ok());
        QCOMPARE(device.error().code, DeviceError::Malformed);
        QVERIFY(device.error().message.starts_with("fr255.json: not valid JSON ("));
    }

    void topLevelMustBeAnObject()
    {
        const auto device = parseDevice("[1, 2]", "x.json");
        QVERIFY(!device.ok());
        QCOMPARE(QString::fromStdString(device.error().message),
                 QStringLiteral("x.json: (top level): must be an object, got [1,2]"));
    }

    void duplicateIdsAreRefused()
    {
        const auto devices = loadDevices(test::dataPath("devices/duplicate").toStdString());
        QVERIFY(!devices.ok());
        QCOMPARE(devices.error().code, DeviceError::Duplicate);
        QCOMPARE(QString::fromStdString(devices.error().message),
                 QStringLiteral("fr255.json: id: 'fr255' is already the id of fr255-copy.json"));
    }

    void directoryErrors()
    {
        const auto empty = loadDevices(test::dataPath("devices/empty-has-no-json").toStdString());
        QVERIFY(!empty.ok());
        QCOMPARE(empty.error().code, DeviceError::Empty);
        const auto missing = loadDevices(test::dataPath("devices/no-such-dir").toStdString());
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, DeviceError::Unreadable);
    }

    void searchPathStartsWithTheSourceTree()
    {
        const auto path = deviceSearchPath();
        QCOMPARE(path.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(path[0]), shippedDirectory);
        QVERIFY(path[1].ends_with("/watchword/devices"));
        QCOMPARE(defaultDeviceDirectory().value_or(""), path[0]);
    }
};

QTEST_GUILESS_MAIN(TestDevice)
#include "TestDevice.moc"
