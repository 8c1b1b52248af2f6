import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.Ui

// The app's own targets (launch, tick, memory) as this session measures
// them: each figure, what it measured, its target, the ratio and whether it
// is met. Presentation only: the figures come from AppMetrics.
Control {
    id: panel

    // AppMetrics, or anything with its roles (key, figure, detail, measured,
    // unit, target, ratio, available, met) and its properties (active,
    // accounts, targets, targetsMeasured, targetsMet).
    required property var model
    // The texts that say what each figure is, under its name.
    property bool showDetails: false

    readonly property bool dark: palette.window.hslLightness < 0.5
    readonly property color metColor: dark ? "#81c995" : "#137333"
    readonly property color missedColor: dark ? "#f2b8b5" : "#b3261e"
    readonly property color mutedText: palette.placeholderText
    // The columns after the figure's name, in characters.
    readonly property var columnChars: ({ measured: 11, target: 10, ratio: 7, met: 11 })

    function decimals(value, unit) {
        if (unit === "MB")
            return 1
        return value < 1 ? 3 : value < 10 ? 2 : value < 100 ? 1 : 0
    }
    function valueText(value, unit) {
        return isNaN(value) ? "" : qsTr("%1 %2").arg(value.toFixed(decimals(value, unit))).arg(unit)
    }
    function measuredText(available, value, unit) {
        return available ? valueText(value, unit) : qsTr("not yet")
    }
    function targetText(target, unit) {
        return target > 0 ? qsTr("\u2264 %1 %2").arg(target).arg(unit) : "\u2014"
    }
    function ratioText(available, target, ratio) {
        return available && target > 0 ? ratio.toFixed(2) : "\u2014"
    }
    function metText(available, target, met) {
        if (target <= 0 || !available)
            return "\u2014"
        return met ? qsTr("\u2713 met") : qsTr("\u2717 not met")
    }

    // Measured once a second while shown, not at all otherwise.
    Binding {
        target: panel.model
        property: "active"
        value: panel.visible
    }

    FontMetrics {
        id: metrics
        font: panel.font
    }

    contentItem: ColumnLayout {
        spacing: Math.round(metrics.height * 0.4)

        RowLayout {
            spacing: metrics.averageCharacterWidth
            Layout.fillWidth: true

            ColumnLayout {
                spacing: 0
                Layout.fillWidth: true

                Label {
                    objectName: "appTargetsSummary"
                    text: panel.model
                          ? qsTr("Targets: %1 of %2 measured, %3 met")
                                .arg(panel.model.targetsMeasured).arg(panel.model.targets)
                                .arg(panel.model.targetsMet)
                          : ""
                    font.bold: true
                    wrapMode: Text.WordWrap
                    Layout.fillWidth: true
                }
                Label {
                    objectName: "appTargetsCaption"
                    readonly property int accounts: panel.model ? panel.model.accounts : 0
                    text: (accounts === 0 ? qsTr("Measured live in this session.")
                           : accounts === 1 ? qsTr("Measured live in this session, with 1 account in the vault.")
                           : qsTr("Measured live in this session, with %1 accounts in the vault.").arg(accounts))
                          + " " + qsTr("The reference figures in docs/PERFORMANCE.md come from "
                                       + "bench/app_performance.py on a vault of 1,000 accounts.")
                    wrapMode: Text.WordWrap
                    color: panel.mutedText
                    Layout.fillWidth: true
                }
            }
            Switch {
                objectName: "appTargetsDetails"
                text: qsTr("What each figure is")
                checked: panel.showDetails
                Accessible.name: qsTr("Show what each of the app's figures is")
                onToggled: panel.showDetails = checked
            }
        }

        // The header.
        RowLayout {
            spacing: metrics.averageCharacterWidth
            Layout.fillWidth: true
            Layout.leftMargin: metrics.averageCharacterWidth / 2
            Layout.rightMargin: metrics.averageCharacterWidth / 2

            Label {
                text: qsTr("Figure")
                font.bold: true
                Layout.fillWidth: true
            }
            Label {
                text: qsTr("Measured")
                font.bold: true
                horizontalAlignment: Text.AlignRight
                Layout.preferredWidth: metrics.averageCharacterWidth * panel.columnChars.measured
            }
            Label {
                text: qsTr("Target")
                font.bold: true
                horizontalAlignment: Text.AlignRight
                Layout.preferredWidth: metrics.averageCharacterWidth * panel.columnChars.target
            }
            Label {
                text: qsTr("Ratio")
                font.bold: true
                horizontalAlignment: Text.AlignRight
                Layout.preferredWidth: metrics.averageCharacterWidth * panel.columnChars.ratio
            }
            Label {
                text: qsTr("Met")
                font.bold: true
                Layout.preferredWidth: metrics.averageCharacterWidth * panel.columnChars.met
            }
        }

        Repeater {
            objectName: "appTargetsRows"
            model: panel.model

            delegate: Rectangle {
                id: row

                required property int index
                required property string key
                required property string figure
                required property string detail
                required property double measured
                required property string unit
                required property double target
                required property double ratio
                required property bool available
                required property bool met

                objectName: "appTarget_" + key
                readonly property string measuredShown: panel.measuredText(available, measured, unit)
                readonly property string targetShown: panel.targetText(target, unit)
                readonly property string ratioShown: panel.ratioText(available, target, ratio)
                readonly property string metShown: panel.metText(available, target, met)

                Layout.fillWidth: true
                implicitHeight: cells.implicitHeight + Math.round(metrics.height * 0.3)
                color: index % 2 === 1 ? panel.palette.alternateBase : "transparent"
                radius: 2

                Accessible.role: Accessible.Row
                Accessible.name: target > 0
                                 ? qsTr("%1: %2, target %3, ratio %4, %5").arg(figure)
                                       .arg(measuredShown).arg(targetShown).arg(ratioShown).arg(metShown)
                                 : qsTr("%1: %2").arg(figure).arg(measuredShown)
                Accessible.description: detail

                RowLayout {
                    id: cells
                    anchors.left: parent.left
                    anchors.right: parent.right
                    anchors.verticalCenter: parent.verticalCenter
                    anchors.leftMargin: metrics.averageCharacterWidth / 2
                    anchors.rightMargin: metrics.averageCharacterWidth / 2
                    spacing: metrics.averageCharacterWidth

                    ColumnLayout {
                        spacing: 0
                        Layout.fillWidth: true

                        Label {
                            text: row.figure
                            // Context rows in the muted colour: no target of their own.
                            color: row.target > 0 ? panel.palette.windowText : panel.mutedText
                            wrapMode: Text.WordWrap
                            Layout.fillWidth: true
                        }
                        Label {
                            objectName: "detail_" + row.key
                            visible: panel.showDetails
                            text: row.detail
                            color: panel.mutedText
                            wrapMode: Text.WordWrap
                            Layout.fillWidth: true
                        }
                    }
                    Label {
                        objectName: "measured_" + row.key
                        text: row.measuredShown
                        color: row.available ? panel.palette.windowText : panel.mutedText
                        font.family: "monospace"
                        horizontalAlignment: Text.AlignRight
                        Layout.alignment: Qt.AlignTop
                        Layout.preferredWidth: metrics.averageCharacterWidth * panel.columnChars.measured
                    }
                    Label {
                        objectName: "target_" + row.key
                        text: row.targetShown
                        color: panel.mutedText
                        font.family: "monospace"
                        horizontalAlignment: Text.AlignRight
                        Layout.alignment: Qt.AlignTop
                        Layout.preferredWidth: metrics.averageCharacterWidth * panel.columnChars.target
                    }
                    Label {
                        objectName: "ratio_" + row.key
                        text: row.ratioShown
                        font.family: "monospace"
                        font.bold: row.available && row.target > 0
                        horizontalAlignment: Text.AlignRight
                        Layout.alignment: Qt.AlignTop
                        Layout.preferredWidth: metrics.averageCharacterWidth * panel.columnChars.ratio
                    }
                    Label {
                        objectName: "met_" + row.key
                        text: row.metShown
                        color: !row.available || row.target <= 0 ? panel.mutedText
                             : row.met ? panel.metColor : panel.missedColor
                        Layout.alignment: Qt.AlignTop
                        Layout.preferredWidth: metrics.averageCharacterWidth * panel.columnChars.met
                    }
                }
            }
        }

        // Rows keep their height when the panel is given more.
        Item {
            Layout.fillHeight: true
        }
    }
}
