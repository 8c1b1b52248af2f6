import QtQuick
import QtQuick.Controls
import QtCharts
import Watchword.Ui

// Each of our operations beside its reference, as pairs of horizontal bars
// (microseconds per operation). The times span six orders of magnitude (a
// TOTP code against a PBKDF2 run), so a log scale is offered.
//
// The Diagnostics page loads this file only once there is something to draw:
// Qt Charts stays out of the app's start-up. A Control, for the page's font
// and palette.
Control {
    id: root
    objectName: "benchmarkChart"

    // [{name, reference, ours, theirs}] in nanoseconds, as
    // ComparisonListModel.bars gives them.
    property var bars: []
    property bool logScale: false
    // The value axis in use (for tests): a LogValueAxis ("logAxis") or a
    // ValueAxis ("linearAxis").
    readonly property var valueAxis: current ? current.valueAxis : null
    property Bars current: null

    readonly property bool dark: palette.window.hslLightness < 0.5
    // The axis counts categories from the bottom: reversed, the first bar is on top.
    readonly property var rows: bars.slice().reverse()

    // A round end for the linear axis: 1, 2 or 5 times a power of ten.
    function niceCeiling(value) {
        if (!(value > 0))
            return 1
        const power = Math.pow(10, Math.floor(Math.log10(value)))
        for (const step of [1, 2, 5]) {
            if (value <= step * power)
                return step * power
        }
        return 10 * power
    }

    FontMetrics {
        id: metrics
        font: root.font
    }

    implicitHeight: Math.max(metrics.height * 12, rows.length * metrics.height * 3.2 + metrics.height * 7)
    Accessible.name: qsTr("Chart of our times beside the references'")

    // Qt Charts cannot take new data on a log axis without warning that
    // it took the logarithm of 0 (a bar's base), and deletes the axis a
    // series lets go of, so that a series' value axis cannot be swapped
    // either. So every change of the bars or of the scale makes a chart
    // anew, from a copy of the rows that never changes.
    contentItem: Item {
        Repeater {
            model: root.rows.length > 0 && !root.logScale ? [root.rows] : []
            onItemAdded: (index, item) => root.current = item
            Bars {
                id: linearBars
                valueAxis: ValueAxis {
                    objectName: "linearAxis"
                    min: 0
                    max: root.niceCeiling(linearBars.largest * 1.05)
                    labelFormat: "%.4g"
                    titleText: qsTr("\u00b5s per operation")
                    titleBrush: root.palette.text
                    titleFont: root.font
                    labelsColor: root.palette.text
                    labelsFont: root.font
                    gridLineColor: root.palette.mid
                }
            }
        }
        Repeater {
            model: root.rows.length > 0 && root.logScale ? [root.rows] : []
            onItemAdded: (index, item) => root.current = item
            Bars {
                id: logBars
                valueAxis: LogValueAxis {
                    objectName: "logAxis"
                    base: 10
                    min: Math.pow(10, Math.floor(Math.log10(logBars.smallest)))
                    max: Math.pow(10, Math.ceil(Math.log10(logBars.largest * 1.05)))
                    labelFormat: "%.4g"
                    titleText: qsTr("\u00b5s per operation (log scale)")
                    titleBrush: root.palette.text
                    titleFont: root.font
                    labelsColor: root.palette.text
                    labelsFont: root.font
                    gridLineColor: root.palette.mid
                    minorTickCount: 0
                }
            }
        }
    }

    component Bars: ChartView {
        id: chart
        required property AbstractAxis valueAxis
        // The rows this chart draws: its copy, which never changes.
        required property var modelData
        readonly property var ours: modelData.map((bar) => bar.ours / 1000)
        readonly property var theirs: modelData.map((bar) => bar.theirs / 1000)
        readonly property real smallest: Math.min.apply(null, ours.concat(theirs))
        readonly property real largest: Math.max.apply(null, ours.concat(theirs))

        anchors.fill: parent

        antialiasing: true
        backgroundColor: root.palette.base
        backgroundRoundness: 4
        legend.alignment: Qt.AlignBottom
        legend.labelColor: root.palette.text
        legend.font: root.font
        margins.top: 0
        margins.bottom: 0

        HorizontalBarSeries {
            axisX: chart.valueAxis
            axisY: BarCategoryAxis {
                categories: chart.modelData.map((bar) => bar.name)
                labelsColor: root.palette.text
                labelsFont: root.font
                gridVisible: false
                lineVisible: false
            }
            barWidth: 0.8
            labelsVisible: false

            BarSet {
                label: qsTr("Watchword")
                values: chart.ours
                color: root.dark ? "#8ab4f8" : "#1a73e8"
                borderColor: color
            }
            BarSet {
                label: qsTr("Reference")
                values: chart.theirs
                color: root.dark ? "#9aa0a6" : "#80868b"
                borderColor: color
            }
        }
    }
}
