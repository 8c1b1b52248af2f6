import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App
import Watchword.Ui

// Diagnostics: the benchmarks measured here and now (chosen, run on a
// worker, shown as they finish, compared with a saved baseline, exported),
// the ratios to the references, the start-up self-test and this machine.
// Presentation only: every figure comes from the DiagnosticsController and
// its parts (run, baselines, reports).
Pane {
    id: page

    // A DiagnosticsController, or anything with the same properties.
    required property var controller
    // The app's own targets (launch, tick, memory), shown in their own
    // section when set.
    property Component appTargets: null

    readonly property bool dark: palette.window.hslLightness < 0.5
    readonly property color errorColor: dark ? "#f2b8b5" : "#b3261e"
    readonly property color goodColor: dark ? "#81c995" : "#137333"
    readonly property color improvedTint: Qt.rgba(0.2, 0.66, 0.33, dark ? 0.28 : 0.16)
    readonly property color regressedTint: Qt.rgba(0.85, 0.19, 0.15, dark ? 0.3 : 0.14)
    readonly property color mutedText: palette.placeholderText
    // The results table's columns, in characters; the operation takes the rest.
    readonly property real charWidth: metrics.averageCharacterWidth
    readonly property var columnChars: ({ time: 9, outliers: 10, reference: 11, ratio: 13, change: 17 })

    function verdictColor(verdict) {
        return verdict === "improved" ? page.goodColor
             : verdict === "regressed" ? page.errorColor : page.palette.text
    }
    function verdictTint(verdict) {
        return verdict === "improved" ? page.improvedTint
             : verdict === "regressed" ? page.regressedTint : "transparent"
    }
    function openExport(format) {
        exportDialog.format = format
        exportDialog.currentFolder = page.controller.reports.exportFolder()
        exportDialog.currentFile = page.controller.reports.suggestedFile(format)
        exportDialog.ask()
    }

    padding: Math.round(metrics.height * 0.8)

    FontMetrics {
        id: metrics
        font: page.font
    }

    ScrollView {
        id: scroll
        anchors.fill: parent
        contentWidth: availableWidth

        ColumnLayout {
            width: scroll.availableWidth
            spacing: Math.round(metrics.height * 0.8)

            // --- Run: profile, Run / Cancel, progress.
            GroupBox {
                title: qsTr("Benchmarks")
                Layout.fillWidth: true

                ColumnLayout {
                    anchors.fill: parent
                    spacing: Math.round(metrics.height * 0.4)

                    RowLayout {
                        spacing: metrics.averageCharacterWidth
                        Layout.fillWidth: true
                        Label {
                            text: qsTr("Profile")
                        }
                        ComboBox {
                            id: profileBox
                            objectName: "profileBox"
                            readonly property var choices: [
                                { value: "quick", text: qsTr("Quick: about 1 s per benchmark") },
                                { value: "full", text: qsTr("Full: the reference settings (50 samples, 2 s + 10 s)") },
                            ]
                            model: choices
                            textRole: "text"
                            valueRole: "value"
                            currentIndex: page.controller.run.profile === "full" ? 1 : 0
                            displayText: page.controller.run.profile === "quick" || page.controller.run.profile === "full"
                                         ? currentText : page.controller.run.profile
                            enabled: !page.controller.run.running
                            implicitContentWidthPolicy: ComboBox.WidestText
                            Layout.fillWidth: true
                            Layout.maximumWidth: metrics.averageCharacterWidth * 60
                            Accessible.name: qsTr("Benchmark profile")
                            onActivated: (index) => page.controller.run.profile = choices[index].value
                        }
                        CheckBox {
                            objectName: "interleaveBox"
                            text: qsTr("Interleave")
                            checked: page.controller.run.interleaved
                            enabled: !page.controller.run.running
                            Accessible.name: qsTr("Interleave the benchmarks' samples")
                            ToolTip.visible: hovered
                            ToolTip.text: qsTr("Take the samples of all chosen benchmarks in turn, so a busy moment of the machine falls on ours and its reference alike: sturdier ratios, results at the end.")
                            onToggled: page.controller.run.interleaved = checked
                        }
                        Item {
                            Layout.fillWidth: true
                        }
                        Button {
                            id: runButton
                            objectName: "runButton"
                            text: qsTr("Run")
                            highlighted: true
                            enabled: !page.controller.busy && page.controller.benchmarks.checkedCount > 0
                            Accessible.name: qsTr("Run the chosen benchmarks")
                            onClicked: page.controller.run.start()
                        }
                        Button {
                            objectName: "cancelButton"
                            text: qsTr("Cancel")
                            enabled: page.controller.run.running
                            Accessible.name: qsTr("Cancel the run")
                            onClicked: page.controller.run.cancel()
                        }
                    }

                    GridLayout {
                        columns: 3
                        columnSpacing: metrics.averageCharacterWidth
                        rowSpacing: Math.round(metrics.height * 0.2)
                        Layout.fillWidth: true

                        Label {
                            text: qsTr("Overall")
                        }
                        ProgressBar {
                            id: overallBar
                            objectName: "overallProgress"
                            from: 0
                            to: 1
                            value: page.controller.run.overallProgress
                            Layout.fillWidth: true
                            Accessible.name: qsTr("Overall progress")
                        }
                        Label {
                            text: qsTr("%1 %").arg(Math.round(overallBar.value * 100))
                            horizontalAlignment: Text.AlignRight
                            Layout.preferredWidth: metrics.averageCharacterWidth * 6
                        }

                        Label {
                            objectName: "currentNameLabel"
                            text: page.controller.run.currentName !== "" ? page.controller.run.currentName : qsTr("Benchmark")
                            elide: Text.ElideMiddle
                            Layout.preferredWidth: metrics.averageCharacterWidth * 30
                        }
                        ProgressBar {
                            id: currentBar
                            objectName: "currentProgress"
                            from: 0
                            to: 1
                            value: page.controller.run.currentProgress
                            Layout.fillWidth: true
                            Accessible.name: qsTr("Progress of %1").arg(page.controller.run.currentName)
                        }
                        Label {
                            text: qsTr("%1 %").arg(Math.round(currentBar.value * 100))
                            horizontalAlignment: Text.AlignRight
                            Layout.preferredWidth: metrics.averageCharacterWidth * 6
                        }
                    }

                    Label {
                        objectName: "statusLabel"
                        visible: text !== ""
                        text: page.controller.statusText
                        color: page.mutedText
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                        Accessible.name: qsTr("Status: %1").arg(text)
                    }
                    Label {
                        objectName: "errorLabel"
                        visible: text !== ""
                        text: page.controller.error
                        color: page.errorColor
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                        Accessible.name: qsTr("Error: %1").arg(text)
                    }

                    // --- The benchmark chooser.
                    RowLayout {
                        spacing: metrics.averageCharacterWidth
                        Layout.fillWidth: true
                        TextField {
                            id: filterField
                            objectName: "filterField"
                            placeholderText: qsTr("Filter (a regular expression, such as totp|pbkdf2)")
                            Layout.fillWidth: true
                            Accessible.name: qsTr("Benchmark filter")
                            onAccepted: page.controller.benchmarks.selectMatching(text)
                        }
                        Button {
                            objectName: "selectMatchingButton"
                            text: qsTr("Choose matching")
                            enabled: !page.controller.run.running
                            Accessible.name: qsTr("Choose the benchmarks matching the filter")
                            onClicked: page.controller.benchmarks.selectMatching(filterField.text)
                        }
                        Button {
                            objectName: "selectAllButton"
                            text: qsTr("All")
                            enabled: !page.controller.run.running
                            Accessible.name: qsTr("Choose every benchmark")
                            onClicked: page.controller.benchmarks.selectAll()
                        }
                        Button {
                            objectName: "selectNoneButton"
                            text: qsTr("None")
                            enabled: !page.controller.run.running
                            Accessible.name: qsTr("Choose no benchmark")
                            onClicked: page.controller.benchmarks.selectNone()
                        }
                        ToolButton {
                            id: chooserToggle
                            objectName: "chooserToggle"
                            checkable: true
                            checked: false
                            text: checked ? qsTr("Hide list") : qsTr("Show list")
                            Accessible.name: checked ? qsTr("Hide the list of benchmarks")
                                                     : qsTr("Show the list of benchmarks")
                        }
                    }
                    Label {
                        objectName: "filterErrorLabel"
                        visible: text !== ""
                        text: page.controller.benchmarks.filterError
                        color: page.errorColor
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                    }
                    Label {
                        objectName: "chosenLabel"
                        text: qsTr("%1 of %2 benchmarks chosen").arg(page.controller.benchmarks.checkedCount)
                                                               .arg(page.controller.benchmarks.count)
                        color: page.mutedText
                    }
                    ListView {
                        id: chooser
                        objectName: "benchmarkChooser"
                        visible: chooserToggle.checked
                        clip: true
                        model: page.controller.benchmarks
                        Layout.fillWidth: true
                        Layout.preferredHeight: Math.min(contentHeight, metrics.height * 18)
                        ScrollBar.vertical: ScrollBar {}
                        delegate: CheckDelegate {
                            id: choice
                            required property var model
                            required property int index
                            width: ListView.view.width
                            enabled: !page.controller.run.running
                            checked: model.checked
                            text: model.name
                            font.italic: model.isReference
                            Accessible.name: qsTr("Run %1").arg(model.name)
                            Accessible.description: model.description
                            ToolTip.visible: hovered && model.description !== ""
                            ToolTip.delay: 600
                            ToolTip.text: model.description
                            onToggled: page.controller.benchmarks.setChecked(index, checked)
                        }
                    }
                }
            }

            // --- Results.
            GroupBox {
                title: page.controller.baselines.comparedWith !== ""
                       ? qsTr("Results, compared with %1").arg(page.controller.baselines.comparedWith)
                       : qsTr("Results")
                Layout.fillWidth: true

                ColumnLayout {
                    anchors.fill: parent
                    spacing: Math.round(metrics.height * 0.4)

                    Label {
                        visible: resultsList.count === 0
                        text: qsTr("Choose a profile and the benchmarks, then Run. The table fills in as each benchmark ends.")
                        color: page.mutedText
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                    }

                    ListView {
                        id: resultsList
                        objectName: "resultsList"
                        visible: count > 0
                        interactive: false
                        model: page.controller.results
                        Layout.fillWidth: true
                        Layout.preferredHeight: contentHeight
                        header: ResultRow {
                            width: ListView.view.width
                            heading: true
                            name: qsTr("Operation")
                            low: qsTr("low")
                            point: qsTr("point")
                            high: qsTr("high")
                            outliers: qsTr("outliers (mild + severe)")
                            reference: qsTr("reference")
                            ratio: qsTr("ratio")
                            change: qsTr("change")
                        }
                        delegate: ResultRow {
                            required property var model
                            required property int index
                            width: ListView.view.width
                            objectName: "resultRow" + index
                            status: model.status
                            verdict: model.verdict
                            name: model.name
                            detail: model.detailText
                            low: model.lowText
                            point: model.pointText
                            high: model.highText
                            outliers: model.status === "measured"
                                      ? qsTr("%1 + %2").arg(model.mildOutliers).arg(model.severeOutliers) : ""
                            reference: model.referenceText
                            ratio: model.ratioText
                            ratioMet: model.targetMet
                            ratioTip: model.targetText
                            change: model.hasChange ? qsTr("%1 %2").arg(model.changeText).arg(model.verdict) : ""
                            changeTip: model.hasChange ? qsTr("95 % interval: %1").arg(model.changeIntervalText) : ""
                            isReference: model.isReference
                            tip: model.description
                            published: model.publishedText
                            publishedSource: model.publishedSource
                            publishedRatio: model.publishedRatioText
                        }
                    }

                    // What each figure means, in a sentence each.
                    Label {
                        objectName: "columnHelp"
                        visible: resultsList.count > 0
                        text: [qsTr("<b>low, point, high</b>: the time one operation takes: the best estimate (point) and the range it lies in with 95 % confidence."),
                               qsTr("<b>outliers</b>: samples far from the others (mild + severe); many mean the computer was busy: run again."),
                               qsTr("<b>reference, ratio</b>: the same work done the usual way (a ref/ row) and ours divided by it: below 1\u00d7 is faster. The line under the name says which target the ratio is held to, and whether it is met."),
                               qsTr("<b>ref/ rows</b>: those usual ways (OpenSSL's plain calls, the raw libraries), measured only to compare with; not part of the app."),
                               qsTr("<b>published</b>: the figure a reference document gave for the operation on its own machine: it says how this computer compares, not which code is faster."),
                               qsTr("<b>change</b>: against the baseline chosen below.")].join("<br>")
                        textFormat: Text.StyledText
                        color: page.mutedText
                        font.pixelSize: Math.round(metrics.font.pixelSize * 0.9)
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                    }

                    // --- Baselines.
                    RowLayout {
                        spacing: metrics.averageCharacterWidth
                        Layout.fillWidth: true

                        Label {
                            text: qsTr("Baseline")
                        }
                        ComboBox {
                            id: baselineBox
                            objectName: "baselineBox"
                            model: page.controller.baselines.names
                            enabled: count > 0
                            displayText: count > 0 ? currentText : qsTr("None saved yet")
                            Layout.preferredWidth: metrics.averageCharacterWidth * 24
                            Accessible.name: qsTr("Saved baseline")
                        }
                        Button {
                            objectName: "compareButton"
                            text: qsTr("Compare")
                            enabled: baselineBox.count > 0 && !page.controller.busy
                                     && page.controller.results.measuredCount > 0
                            Accessible.name: qsTr("Compare the results with the chosen baseline")
                            onClicked: page.controller.baselines.compareWith(baselineBox.currentText)
                        }
                        Button {
                            objectName: "clearComparisonButton"
                            text: qsTr("Clear comparison")
                            visible: page.controller.baselines.comparedWith !== ""
                            enabled: !page.controller.busy
                            Accessible.name: qsTr("Stop comparing with the baseline")
                            onClicked: page.controller.baselines.clearComparison()
                        }
                        Item {
                            Layout.fillWidth: true
                        }
                        Button {
                            objectName: "saveBaselineButton"
                            text: qsTr("Save as baseline\u2026")
                            enabled: !page.controller.busy && page.controller.results.measuredCount > 0
                            Accessible.name: qsTr("Save the results as a named baseline")
                            onClicked: saveDialog.open()
                        }
                    }

                    // --- Reports.
                    RowLayout {
                        spacing: metrics.averageCharacterWidth
                        Layout.fillWidth: true

                        Label {
                            text: qsTr("Report")
                        }
                        Button {
                            objectName: "exportMarkdownButton"
                            text: qsTr("Markdown\u2026")
                            enabled: !page.controller.run.running && resultsList.count > 0
                            Accessible.name: qsTr("Export the report as Markdown")
                            onClicked: page.openExport("markdown")
                        }
                        Button {
                            objectName: "exportJsonButton"
                            text: qsTr("JSON\u2026")
                            enabled: !page.controller.run.running && resultsList.count > 0
                            Accessible.name: qsTr("Export the report as JSON")
                            onClicked: page.openExport("json")
                        }
                        Button {
                            objectName: "exportHtmlButton"
                            text: qsTr("HTML\u2026")
                            enabled: !page.controller.run.running && resultsList.count > 0
                            Accessible.name: qsTr("Export the report as HTML")
                            onClicked: page.openExport("html")
                        }
                        Item {
                            Layout.fillWidth: true
                        }
                        Button {
                            objectName: "copyTableButton"
                            text: qsTr("Copy table")
                            enabled: !page.controller.run.running && resultsList.count > 0
                            Accessible.name: qsTr("Copy the results table as Markdown")
                            onClicked: page.controller.reports.copyTable()
                        }
                    }
                }
            }

            // --- The chart: ours beside each reference.
            GroupBox {
                objectName: "chartSection"
                title: qsTr("Ours beside the references")
                visible: page.controller.comparisons.bars.length > 0
                Layout.fillWidth: true

                ColumnLayout {
                    anchors.fill: parent
                    CheckBox {
                        id: logScaleCheck
                        objectName: "logScaleCheck"
                        text: qsTr("Log scale")
                        checked: true
                        Accessible.name: qsTr("Show the chart on a log scale")
                    }
                    // Qt Charts is loaded once there is a bar to draw.
                    Loader {
                        id: chartLoader
                        objectName: "chartLoader"
                        active: page.controller.comparisons.bars.length > 0
                        source: "BenchmarkChart.qml"
                        Layout.fillWidth: true
                        Layout.preferredHeight: item ? item.implicitHeight : 0
                    }
                    Binding {
                        target: chartLoader.item
                        when: chartLoader.item !== null
                        property: "bars"
                        value: page.controller.comparisons.bars
                    }
                    Binding {
                        target: chartLoader.item
                        when: chartLoader.item !== null
                        property: "logScale"
                        value: logScaleCheck.checked
                    }
                }
            }

            // --- Every ratio and budget the project claims.
            GroupBox {
                objectName: "targetsSection"
                title: qsTr("Targets: %1 of %2 measured, %3 met")
                           .arg(page.controller.comparisons.measuredCount)
                           .arg(page.controller.comparisons.count)
                           .arg(page.controller.comparisons.metCount)
                Layout.fillWidth: true

                ListView {
                    id: targetsList
                    objectName: "targetsList"
                    anchors.fill: parent
                    interactive: false
                    implicitHeight: contentHeight
                    model: page.controller.comparisons
                    delegate: ItemDelegate {
                        required property string subject
                        required property string what
                        required property string source
                        required property string targetText
                        required property bool measured
                        required property string ratioText
                        required property bool met
                        width: ListView.view.width
                        topPadding: Math.round(metrics.height * 0.2)
                        bottomPadding: topPadding
                        // Not the style's 40-pixel minimum: sixteen rows of them.
                        implicitHeight: implicitContentHeight + topPadding + bottomPadding
                        Accessible.name: qsTr("%1, %2: %3").arg(subject).arg(targetText)
                                            .arg(measured ? ratioText : qsTr("not measured"))
                        ToolTip.visible: hovered && what !== ""
                        ToolTip.delay: 600
                        ToolTip.text: qsTr("%1 (%2)").arg(what).arg(source)
                        contentItem: RowLayout {
                            spacing: metrics.averageCharacterWidth * 1.5
                            Label {
                                text: !measured ? "\u2013" : met ? "\u2713" : "\u2717"
                                color: !measured ? page.mutedText : met ? page.goodColor : page.errorColor
                                font.bold: true
                                Layout.preferredWidth: metrics.averageCharacterWidth * 2
                            }
                            Label {
                                text: subject
                                elide: Text.ElideRight
                                Layout.preferredWidth: metrics.averageCharacterWidth * 26
                            }
                            Label {
                                text: targetText
                                color: page.mutedText
                                elide: Text.ElideRight
                                Layout.fillWidth: true
                            }
                            Label {
                                text: measured ? ratioText : qsTr("not measured")
                                color: measured ? page.palette.text : page.mutedText
                                horizontalAlignment: Text.AlignRight
                                Layout.preferredWidth: metrics.averageCharacterWidth * 18
                            }
                        }
                    }
                }
            }

            // --- Targets of the app itself: the app's own panel goes here.
            GroupBox {
                objectName: "appTargetsSection"
                title: qsTr("Targets of the app itself")
                visible: page.appTargets !== null
                Layout.fillWidth: true
                Loader {
                    objectName: "appTargetsLoader"
                    anchors.fill: parent
                    sourceComponent: page.appTargets
                }
            }

            // --- The start-up self-test.
            GroupBox {
                objectName: "selfTestSection"
                title: qsTr("Self-test")
                Layout.fillWidth: true
                SelfTestPage {
                    anchors.fill: parent
                    padding: 0
                    background: null
                }
            }

            // --- This machine.
            GroupBox {
                objectName: "systemSection"
                title: qsTr("System")
                Layout.fillWidth: true

                GridLayout {
                    id: systemGrid
                    anchors.fill: parent
                    columns: 2
                    columnSpacing: metrics.averageCharacterWidth * 2
                    rowSpacing: Math.round(metrics.height * 0.2)
                    readonly property var info: page.controller.systemInfo
                    readonly property var rows: [
                        [qsTr("Processor"), qsTr("%1 (%2 logical CPUs)").arg(info.cpuModel).arg(info.logicalCpus)],
                        [qsTr("Instructions"), [info.shaNi ? "SHA-NI" : qsTr("no SHA-NI"),
                                                info.aesNi ? "AES-NI" : qsTr("no AES-NI")].join(", ")],
                        [qsTr("System"), qsTr("%1, kernel %2").arg(info.os).arg(info.kernel)],
                        [qsTr("Compiler"), qsTr("%1 (%2)").arg(info.compiler).arg(info.buildType)],
                        [qsTr("Libraries"), qsTr("OpenSSL %1, libsecp256k1 %2, Qt %3")
                                                .arg(info.openssl).arg(info.secp256k1).arg(info.qt)],
                    ]
                    Repeater {
                        model: systemGrid.rows.length * 2
                        Label {
                            required property int index
                            readonly property bool isValue: index % 2 === 1
                            text: systemGrid.rows[Math.floor(index / 2)][index % 2]
                            color: isValue ? page.palette.text : page.mutedText
                            wrapMode: isValue ? Text.Wrap : Text.NoWrap
                            Layout.fillWidth: isValue
                            Accessible.name: text
                        }
                    }
                }
            }
        }
    }

    // One row of the results table (and its header).
    component ResultRow: ItemDelegate {
        id: row
        property bool heading: false
        property string status: ""
        property string verdict: ""
        property string name
        property string detail: ""
        property string low
        property string point
        property string high
        property string outliers
        property string reference
        property string ratio
        property bool ratioMet: false
        property string ratioTip: ""
        property string change
        property string changeTip: ""
        property bool isReference: false
        property string tip: ""
        property string published: ""
        property string publishedSource: ""
        property string publishedRatio: ""

        readonly property color textColor: heading ? page.mutedText : page.palette.text
        hoverEnabled: !heading
        focusPolicy: heading ? Qt.NoFocus : Qt.StrongFocus
        topPadding: heading ? 2 : 4
        bottomPadding: topPadding
        background: Rectangle {
            color: row.heading ? "transparent" : page.verdictTint(row.verdict)
            Rectangle {
                anchors.left: parent.left
                anchors.right: parent.right
                anchors.bottom: parent.bottom
                height: 1
                color: page.palette.mid
                opacity: 0.5
            }
        }
        Accessible.name: heading ? "" : [name, point !== "" ? qsTr("point %1, from %2 to %3").arg(point).arg(low).arg(high) : detail,
                                         ratio, change].filter((part) => part !== "").join(", ")
        ToolTip.visible: hovered && (tip !== "" || changeTip !== "" || ratioTip !== "")
        ToolTip.delay: 600
        ToolTip.text: [tip, ratioTip !== "" ? qsTr("Target: %1").arg(ratioTip) : "", changeTip]
                          .filter((part) => part !== "").join("\n")

        // In a narrow window the name takes a line of its own above the
        // figures, so it is never cut; in a wide one they share the line.
        contentItem: GridLayout {
            columns: row.width < page.charWidth * 120 ? 1 : 2
            columnSpacing: metrics.averageCharacterWidth
            rowSpacing: 0
            ColumnLayout {
                spacing: 0
                Layout.fillWidth: true
                Label {
                    text: row.name
                    font.bold: row.heading
                    font.italic: row.isReference
                    color: row.textColor
                    wrapMode: Text.WrapAtWordBoundaryOrAnywhere
                    Layout.fillWidth: true
                }
                Label {
                    visible: text !== ""
                    text: row.detail
                    color: row.status === "failed" ? page.errorColor : page.mutedText
                    font.pixelSize: Math.round(metrics.font.pixelSize * 0.85)
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                }
                // Why the ratio is red or green: the target it is held to.
                Label {
                    objectName: "targetLine"
                    visible: !row.heading && row.ratioTip !== "" && row.ratio !== ""
                    text: row.ratioMet ? qsTr("\u2713 target %1: met").arg(row.ratioTip)
                                       : qsTr("\u2717 target %1: missed").arg(row.ratioTip)
                    color: row.ratioMet ? page.goodColor : page.errorColor
                    font.pixelSize: Math.round(metrics.font.pixelSize * 0.85)
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                }
                // The reference document's own figure for the operation.
                Label {
                    objectName: "publishedLine"
                    visible: !row.heading && row.published !== ""
                    text: qsTr("%1 published %2%3").arg(row.publishedSource).arg(row.published)
                          .arg(row.publishedRatio !== "" ? qsTr("; ours is %1 of it").arg(row.publishedRatio) : "")
                    color: page.mutedText
                    font.pixelSize: Math.round(metrics.font.pixelSize * 0.85)
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                }
            }
            RowLayout {
                spacing: metrics.averageCharacterWidth
                Layout.alignment: Qt.AlignRight | Qt.AlignTop
                Repeater {
                    model: [[row.low, page.columnChars.time], [row.point, page.columnChars.time],
                            [row.high, page.columnChars.time], [row.outliers, page.columnChars.outliers],
                            [row.reference, page.columnChars.reference]]
                    Label {
                        required property var modelData
                        text: modelData[0]
                        font.bold: row.heading
                        color: row.textColor
                        wrapMode: row.heading ? Text.WordWrap : Text.NoWrap
                        horizontalAlignment: Text.AlignRight
                        Layout.preferredWidth: page.charWidth * modelData[1]
                    }
                }
                Label {
                    text: row.ratio
                    font.bold: row.heading
                    color: row.heading ? row.textColor : row.ratioTip !== "" && !row.ratioMet ? page.errorColor : row.textColor
                    horizontalAlignment: Text.AlignRight
                    Layout.preferredWidth: page.charWidth * page.columnChars.ratio
                }
                Label {
                    visible: page.controller.baselines.comparedWith !== ""
                    text: row.change
                    font.bold: row.heading || row.verdict === "improved" || row.verdict === "regressed"
                    color: row.heading ? row.textColor : page.verdictColor(row.verdict)
                    horizontalAlignment: Text.AlignRight
                    Layout.preferredWidth: page.charWidth * page.columnChars.change
                }
            }
        }
    }

    Dialog {
        id: saveDialog
        objectName: "saveBaselineDialog"
        title: qsTr("Save as baseline")
        parent: Overlay.overlay
        anchors.centerIn: parent
        modal: true
        focus: true
        width: Math.min(page.width, metrics.averageCharacterWidth * 56)

        readonly property bool nameValid: page.controller.baselines.isValidName(nameField.text)
        function submit() {
            if (!nameValid)
                return
            if (page.controller.baselines.save(nameField.text))
                saveDialog.close()
        }

        onAboutToShow: {
            page.controller.clearError()
            nameField.text = ""
        }
        onOpened: nameField.forceActiveFocus()

        ColumnLayout {
            anchors.fill: parent
            spacing: Math.round(metrics.height * 0.4)
            Label {
                text: qsTr("A later run can be compared with it. A baseline of the same name is replaced.")
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            TextField {
                id: nameField
                objectName: "baselineNameField"
                placeholderText: qsTr("Name, such as before-change")
                Layout.fillWidth: true
                Accessible.name: qsTr("Baseline name")
                onAccepted: saveDialog.submit()
            }
            Label {
                objectName: "baselineNameHint"
                visible: nameField.text !== "" && !saveDialog.nameValid
                text: qsTr("Use 1 to 64 letters, digits, dots, dashes or underscores, not starting with a dot.")
                color: page.errorColor
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            Label {
                visible: text !== "" && saveDialog.visible
                text: page.controller.error
                color: page.errorColor
                wrapMode: Text.Wrap
                Layout.fillWidth: true
                Accessible.name: qsTr("Error: %1").arg(text)
            }
        }

        footer: DialogButtonBox {
            Button {
                objectName: "saveBaselineConfirm"
                text: qsTr("Save")
                enabled: saveDialog.nameValid
                DialogButtonBox.buttonRole: DialogButtonBox.ActionRole
                Accessible.name: qsTr("Save the baseline")
                onClicked: saveDialog.submit()
            }
            Button {
                text: qsTr("Cancel")
                DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
                Accessible.name: qsTr("Do not save a baseline")
            }
        }
    }

    FilePicker {
        id: exportDialog
        objectName: "exportDialog"
        property string format: "markdown"
        title: qsTr("Export the report")
        fileMode: FilePicker.SaveFile
        defaultSuffix: page.controller.reports.fileSuffix(format)
        nameFilters: page.controller.reports.nameFilters(format)
        onAccepted: page.controller.reports.exportTo(format, selectedFile)
    }
}
