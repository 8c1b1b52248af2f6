import QtQuick
import QtQuick.Controls
import QtTest
import Watchword.App
import Watchword.Ui

// The panel of the app's own targets: against a fake model with figures
// chosen here, in the light and the dark theme, and against the real
// AppMetrics of the test setup. `testSettings` and `testTheme` come from
// the test setup.
TestCase {
    id: testCase
    name: "AppTargetsPanel"
    when: windowShown
    width: 720
    height: 560

    // What AppMetrics gives: one launch figure over its target, one within,
    // a context figure without a target, and one not measured yet.
    Component {
        id: fakeModelComponent
        ListModel {
            property bool active: false
            property int accounts: 12
            property int targets: 4
            property int targetsMeasured: 3
            property int targetsMet: 2

            Component.onCompleted: {
                append({ key: "launchToCodesFrame", figure: "Launch \u2192 codes", detail: "what the launch is",
                         measured: 217.4, unit: "ms", target: 400, ratio: 217.4 / 400, available: true, met: true })
                append({ key: "slowestSecond", figure: "Slowest second", detail: "what a second is",
                         measured: 2.5, unit: "ms", target: 2, ratio: 1.25, available: true, met: false })
                append({ key: "unlockJob", figure: "First unlock", detail: "what the unlock is",
                         measured: 1083.2, unit: "ms", target: 0, ratio: NaN, available: true, met: false })
                append({ key: "medianSecond", figure: "Median second", detail: "what the median is",
                         measured: NaN, unit: "ms", target: 2, ratio: NaN, available: false, met: false })
                append({ key: "peakMemory", figure: "Peak memory", detail: "what VmHWM is",
                         measured: 71.06, unit: "MB", target: 150, ratio: 71.06 / 150, available: true, met: true })
            }
        }
    }

    Component {
        id: windowComponent
        ApplicationWindow {
            id: window
            width: 720
            height: 560
            visible: true

            required property var metrics
            property alias panel: panel

            ThemePalette {
                theme: testTheme
                target: window
            }
            AppTargetsPanel {
                id: panel
                anchors.fill: parent
                model: window.metrics
            }
        }
    }

    function init() {
        failOnWarning(/.*/)
        testSettings.theme = "light"
    }

    function cleanup() {
        testSettings.theme = "system"
    }

    function labelText(panel, name) {
        const label = findChild(panel, name)
        verify(label, name)
        return label.text
    }

    function test_rowsShowTheFigures() {
        const model = createTemporaryObject(fakeModelComponent, testCase)
        const window = createTemporaryObject(windowComponent, testCase, { metrics: model })
        verify(window)
        const panel = window.panel
        tryCompare(findChild(panel, "appTargetsRows"), "count", 5)

        compare(labelText(panel, "measured_launchToCodesFrame"), "217 ms")
        compare(labelText(panel, "target_launchToCodesFrame"), "\u2264 400 ms")
        compare(labelText(panel, "ratio_launchToCodesFrame"), "0.54")
        compare(labelText(panel, "met_launchToCodesFrame"), "\u2713 met")

        compare(labelText(panel, "measured_slowestSecond"), "2.50 ms")
        compare(labelText(panel, "target_slowestSecond"), "\u2264 2 ms")
        compare(labelText(panel, "ratio_slowestSecond"), "1.25")
        compare(labelText(panel, "met_slowestSecond"), "\u2717 not met")

        // Context: a figure, no target, no verdict.
        compare(labelText(panel, "measured_unlockJob"), "1083 ms")
        compare(labelText(panel, "target_unlockJob"), "\u2014")
        compare(labelText(panel, "ratio_unlockJob"), "\u2014")
        compare(labelText(panel, "met_unlockJob"), "\u2014")

        // Not measured yet: said so, no ratio, no verdict.
        compare(labelText(panel, "measured_medianSecond"), "not yet")
        compare(labelText(panel, "ratio_medianSecond"), "\u2014")
        compare(labelText(panel, "met_medianSecond"), "\u2014")

        compare(labelText(panel, "measured_peakMemory"), "71.1 MB")
        compare(labelText(panel, "target_peakMemory"), "\u2264 150 MB")
        compare(labelText(panel, "ratio_peakMemory"), "0.47")

        // Labelled as this session's, with its vault's size.
        const caption = labelText(panel, "appTargetsCaption")
        verify(caption.indexOf("this session") >= 0, caption)
        verify(caption.indexOf("12 accounts") >= 0, caption)
        compare(labelText(panel, "appTargetsSummary"), "Targets: 3 of 4 measured, 2 met")
        model.accounts = 0
        // Locked, no vault's size to tell.
        verify(labelText(panel, "appTargetsCaption").indexOf("in the vault") < 0)

        // The row says it all to a screen reader.
        const row = findChild(panel, "appTarget_slowestSecond")
        verify(row.Accessible.name.indexOf("not met") >= 0, row.Accessible.name)
        compare(row.Accessible.description, "what a second is")
    }

    function test_followsTheModel() {
        const model = createTemporaryObject(fakeModelComponent, testCase)
        const window = createTemporaryObject(windowComponent, testCase, { metrics: model })
        const panel = window.panel
        tryCompare(findChild(panel, "appTargetsRows"), "count", 5)
        model.setProperty(3, "measured", 0.0376)
        model.setProperty(3, "ratio", 0.0376 / 2)
        model.setProperty(3, "available", true)
        model.setProperty(3, "met", true)
        compare(labelText(panel, "measured_medianSecond"), "0.038 ms")
        compare(labelText(panel, "ratio_medianSecond"), "0.02")
        compare(labelText(panel, "met_medianSecond"), "\u2713 met")
    }

    function test_activeOnlyWhileShown() {
        const model = createTemporaryObject(fakeModelComponent, testCase)
        const window = createTemporaryObject(windowComponent, testCase, { metrics: model })
        verify(model.active)
        window.panel.visible = false
        verify(!model.active)
        window.panel.visible = true
        verify(model.active)
    }

    function test_detailsOnRequest() {
        const model = createTemporaryObject(fakeModelComponent, testCase)
        const window = createTemporaryObject(windowComponent, testCase, { metrics: model })
        const panel = window.panel
        tryCompare(findChild(panel, "appTargetsRows"), "count", 5)
        const detail = findChild(panel, "detail_launchToCodesFrame")
        verify(detail)
        compare(detail.text, "what the launch is")
        verify(!detail.visible)
        const toggle = findChild(panel, "appTargetsDetails")
        mouseClick(toggle)
        verify(panel.showDetails)
        verify(detail.visible)
    }

    // Met and not met stay readable on the window's colour in both themes.
    function test_readableInBothThemes() {
        const model = createTemporaryObject(fakeModelComponent, testCase)
        const window = createTemporaryObject(windowComponent, testCase, { metrics: model })
        const panel = window.panel
        tryCompare(findChild(panel, "appTargetsRows"), "count", 5)
        for (const theme of ["light", "dark"]) {
            testSettings.theme = theme
            const background = window.palette.window.hslLightness
            compare(panel.dark, theme === "dark")
            for (const name of ["met_launchToCodesFrame", "met_slowestSecond", "measured_slowestSecond"]) {
                const label = findChild(panel, name)
                const contrast = Math.abs(label.color.hslLightness - background)
                verify(contrast > 0.35, theme + " " + name + ": " + contrast)
            }
            verify(!Qt.colorEqual(findChild(panel, "met_launchToCodesFrame").color,
                                  findChild(panel, "met_slowestSecond").color))
        }
    }

    // The real model of the test setup: every figure has a row, and the
    // memory is measured once the panel is shown.
    function test_realModel() {
        const window = createTemporaryObject(windowComponent, testCase, { metrics: AppMetrics })
        verify(window)
        const panel = window.panel
        tryCompare(findChild(panel, "appTargetsRows"), "count", AppMetrics.rowCount())
        verify(AppMetrics.active)
        compare(AppMetrics.targets, 5)
        tryVerify(() => labelText(panel, "measured_peakMemory").endsWith(" MB"))
        compare(labelText(panel, "measured_firstFrame"), "not yet")
        verify(labelText(panel, "met_peakMemory") !== "\u2014")
        compare(labelText(panel, "appTargetsSummary"),
                "Targets: %1 of 5 measured, %2 met".arg(AppMetrics.targetsMeasured).arg(AppMetrics.targetsMet))
        verify(AppMetrics.targetsMeasured >= 2)
    }
}
