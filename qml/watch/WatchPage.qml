import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App
import Watchword.Ui

// The watch simulator: a Garmin watch chosen from the device profiles, its
// screen drawn by the watch app at the true resolution, what each operation
// and the unlock would cost on it (with the basis of every figure), and the
// export the watch would load, made from the vault's accounts.
// Presentation only: every figure comes from the WatchSimulator's parts.
Pane {
    id: page
    objectName: "watchPage"

    // The simulator, and its parts the page reads.
    required property WatchSimulator simulator
    readonly property WatchProfiles profiles: simulator.profiles
    readonly property WatchCosts costs: simulator.costs
    readonly property WatchExportFile exportFile: simulator.exportFile
    readonly property SimulatedWatch watch: simulator.watch

    readonly property bool dark: palette.window.hslLightness < 0.5
    readonly property color errorColor: dark ? "#f2b8b5" : "#b3261e"
    readonly property color warningColor: dark ? "#fdd663" : "#8a5300"
    readonly property color mutedText: palette.placeholderText
    readonly property watchProfile device: profiles.device
    // The account ids ticked for the export.
    property var chosen: ({})

    function basisText(basis) {
        switch (basis) {
        case "simulator": return qsTr("simulator")
        case "estimate": return qsTr("estimate")
        case "measured": return qsTr("measured")
        }
        return qsTr("unknown")
    }
    function bytesText(bytes) {
        return bytes >= 10240 ? qsTr("%1 KB").arg(Math.round(bytes / 1024))
                              : qsTr("%1 bytes").arg(bytes.toLocaleString(Qt.locale("en_US"), "f", 0))
    }
    function chosenIds() {
        return Object.keys(page.chosen).filter(id => page.chosen[id])
    }
    function chooseAll() {
        const all = {}
        for (const choice of page.exportFile.choices)
            all[choice.id] = true
        page.chosen = all
    }
    // The watch's keys: arrows for up and down, Enter for select (in the PIN
    // view it submits), Escape or Backspace for back, digits for the PIN.
    function handleKey(event) {
        const watch = page.watch
        if (event.key === Qt.Key_Up) watch.press("up")
        else if (event.key === Qt.Key_Down) watch.press("down")
        else if (event.key === Qt.Key_Return || event.key === Qt.Key_Enter) {
            if (watch.view === "pin") watch.enter()
            else watch.press("select")
        } else if (event.key === Qt.Key_Escape || event.key === Qt.Key_Backspace) watch.press("back")
        else if (event.key >= Qt.Key_0 && event.key <= Qt.Key_9) watch.typeDigit(event.key - Qt.Key_0)
        else return
        event.accepted = true
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

        GridLayout {
            width: scroll.availableWidth
            // From the page's width, not the scrolled area's: that one changes
            // as the scroll bar comes and goes, and so would the columns,
            // again and again (a polish loop).
            columns: page.availableWidth > metrics.height * 50 ? 2 : 1
            columnSpacing: Math.round(metrics.height * 1.2)
            rowSpacing: Math.round(metrics.height * 0.8)

            // --- The watch: device, screen, buttons.
            ColumnLayout {
                id: watchColumn
                Layout.alignment: Qt.AlignTop
                Layout.fillWidth: true
                // Half the page beside the costs: room to draw small screens
                // at twice their size.
                Layout.preferredWidth: scroll.availableWidth / 2
                spacing: Math.round(metrics.height * 0.5)

                RowLayout {
                    Layout.fillWidth: true
                    Label {
                        text: qsTr("Watch")
                    }
                    ComboBox {
                        id: devicePicker
                        objectName: "devicePicker"
                        Layout.fillWidth: true
                        model: page.profiles.devices
                        textRole: "name"
                        valueRole: "id"
                        Accessible.name: qsTr("Watch model")
                        currentIndex: page.profiles.devices.findIndex(d => d.id === page.profiles.deviceId)
                        onActivated: page.profiles.deviceId = currentValue
                        delegate: ItemDelegate {
                            required property watchProfile modelData
                            required property int index
                            width: devicePicker.width
                            text: modelData.name + (modelData.verified ? "" : qsTr(" (unverified)"))
                            highlighted: devicePicker.highlightedIndex === index
                        }
                    }
                }
                Label {
                    Layout.fillWidth: true
                    wrapMode: Text.Wrap
                    color: page.mutedText
                    text: {
                        const d = page.device
                        if (d.shape === "")
                            return qsTr("Unknown: %1").arg(d.unknownFields.join(", "))
                        const input = d.buttons < 0 ? qsTr("input unknown")
                                    : d.touch ? qsTr("touch and %1 buttons").arg(d.buttons)
                                    : qsTr("%1 buttons").arg(d.buttons)
                        const memory = d.appBytes >= 0 ? qsTr("%1 for a watch app").arg(d.memory)
                                                       : qsTr("app memory unknown")
                        const api = d.apiMin !== "" ? qsTr("Connect IQ %1 to %2").arg(d.apiMin).arg(d.apiMax)
                                                    : qsTr("Connect IQ version unknown")
                        return [d.shape, qsTr("%1 pixels").arg(d.resolution), d.technology, input, memory, api].join(", ")
                    }
                }
                Label {
                    visible: page.device.id !== "" && !page.device.verified
                    Layout.fillWidth: true
                    wrapMode: Text.Wrap
                    color: page.warningColor
                    text: qsTr("Not verified: %1").arg(page.device.source)
                }

                // The watch, with its buttons where a Garmin has them: light,
                // up and down on the left; start (select) and back on the right.
                Item {
                    id: watchArea
                    objectName: "watchArea"
                    // The screen as large as the column allows but within the
                    // visible height, and the buttons beside it, not at the
                    // column's far edges.
                    readonly property real buttonColumn: metrics.height * 3.6
                    readonly property real side: Math.max(metrics.height * 12,
                        Math.min(watchColumn.width - buttonColumn * 2, scroll.height * 0.8))
                    Layout.fillWidth: true
                    Layout.maximumWidth: side + buttonColumn * 2
                    Layout.alignment: Qt.AlignHCenter
                    Layout.preferredHeight: side
                    visible: page.device.drawable
                    focus: true
                    activeFocusOnTab: true
                    Accessible.name: qsTr("Simulated watch: arrows, Enter, Escape and digits")
                    Keys.onPressed: (event) => page.handleKey(event)

                    Rectangle {
                        anchors.fill: parent
                        color: "transparent"
                        border.width: watchArea.activeFocus ? 2 : 0
                        border.color: page.palette.highlight
                        radius: 6
                    }

                    WatchScreen {
                        id: screen
                        objectName: "watchScreen"
                        watch: page.watch
                        anchors.centerIn: parent
                        width: parent.width - watchArea.buttonColumn * 2
                        height: parent.height

                        // Touch watches: tap is select, a swipe up the next
                        // account, down the previous, right is back.
                        MouseArea {
                            anchors.fill: parent
                            enabled: page.device.touch
                            property point start
                            onPressed: (mouse) => { start = Qt.point(mouse.x, mouse.y); watchArea.forceActiveFocus() }
                            onReleased: (mouse) => {
                                const dx = mouse.x - start.x, dy = mouse.y - start.y
                                const far = metrics.height * 1.5
                                if (Math.abs(dx) < far && Math.abs(dy) < far) page.watch.press("tap")
                                else if (dx > far && Math.abs(dx) > Math.abs(dy)) page.watch.press("swipeRight")
                                else if (dy < -far) page.watch.press("swipeUp")
                                else if (dy > far) page.watch.press("swipeDown")
                            }
                        }
                    }

                    Column {
                        anchors.left: parent.left
                        anchors.verticalCenter: parent.verticalCenter
                        spacing: metrics.height * 1.2
                        visible: page.device.buttons >= 5
                        Button {
                            text: qsTr("Light")
                            width: watchArea.buttonColumn
                            enabled: false
                            ToolTip.visible: hovered
                            ToolTip.text: qsTr("The watch's own backlight button")
                        }
                        Button {
                            objectName: "upButton"
                            width: watchArea.buttonColumn
                            text: qsTr("Up")
                            focusPolicy: Qt.NoFocus
                            onClicked: page.watch.press("up")
                        }
                        Button {
                            objectName: "downButton"
                            width: watchArea.buttonColumn
                            text: qsTr("Down")
                            focusPolicy: Qt.NoFocus
                            onClicked: page.watch.press("down")
                        }
                    }
                    Column {
                        anchors.right: parent.right
                        anchors.verticalCenter: parent.verticalCenter
                        spacing: metrics.height * 4
                        Button {
                            objectName: "selectButton"
                            width: watchArea.buttonColumn
                            text: qsTr("Start")
                            focusPolicy: Qt.NoFocus
                            Accessible.name: qsTr("Start (select)")
                            onClicked: page.watch.press("select")
                        }
                        Button {
                            objectName: "backButton"
                            width: watchArea.buttonColumn
                            text: qsTr("Back")
                            focusPolicy: Qt.NoFocus
                            onClicked: page.watch.press("back")
                        }
                    }
                }
                Label {
                    visible: !page.device.drawable
                    Layout.fillWidth: true
                    wrapMode: Text.Wrap
                    color: page.warningColor
                    text: page.profiles.undrawableReason
                }
                Label {
                    visible: page.device.drawable
                    Layout.fillWidth: true
                    wrapMode: Text.Wrap
                    color: page.mutedText
                    text: (screen.pixelScale > 1
                           ? qsTr("%1 x %2 pixels, each drawn as %3 x %3; %4.")
                                 .arg(screen.nativeWidth).arg(screen.nativeHeight).arg(screen.pixelScale)
                           : screen.pixelScale === 1
                             ? qsTr("%1 x %2 pixels, at their true size; %3.")
                                   .arg(screen.nativeWidth).arg(screen.nativeHeight)
                             : qsTr("%1 x %2 pixels, drawn smaller than life (widen the window); %3.")
                                   .arg(screen.nativeWidth).arg(screen.nativeHeight))
                          .arg(page.device.paletteNote)
                          + " " + (page.device.touch
                                   ? qsTr("Tap, swipe, or use the arrows, Enter, Escape and digits.")
                                   : qsTr("Use the buttons, or the arrows, Enter, Escape and digits."))
                }
            }

            // --- The export and the costs.
            ColumnLayout {
                Layout.alignment: Qt.AlignTop
                Layout.fillWidth: true
                Layout.preferredWidth: scroll.availableWidth / 2
                spacing: Math.round(metrics.height * 0.8)

                Label {
                    visible: page.simulator.error !== ""
                    objectName: "errorLabel"
                    Layout.fillWidth: true
                    wrapMode: Text.Wrap
                    color: page.errorColor
                    text: page.simulator.error
                }

                GroupBox {
                    title: qsTr("Export to the watch")
                    Layout.fillWidth: true

                    ColumnLayout {
                        anchors.fill: parent
                        spacing: Math.round(metrics.height * 0.4)

                        Label {
                            Layout.fillWidth: true
                            wrapMode: Text.Wrap
                            text: page.exportFile.choices.length === 0
                                  ? qsTr("Unlock the vault to choose accounts for the watch, or open an export.")
                                  : qsTr("Accounts for the watch. They are sealed under the watch PIN with AES-256-CBC and HMAC-SHA256, which the watch has natively.")
                        }
                        Flow {
                            Layout.fillWidth: true
                            spacing: metrics.height * 0.3
                            Repeater {
                                model: page.exportFile.choices
                                CheckBox {
                                    required property watchExportChoice modelData
                                    text: modelData.title
                                    checked: page.chosen[modelData.id] === true
                                    onToggled: {
                                        const next = Object.assign({}, page.chosen)
                                        next[modelData.id] = checked
                                        page.chosen = next
                                    }
                                }
                            }
                        }
                        RowLayout {
                            visible: page.exportFile.choices.length > 0
                            Button {
                                text: qsTr("All")
                                onClicked: page.chooseAll()
                            }
                            TextField {
                                id: pinField
                                objectName: "pinField"
                                Layout.fillWidth: true
                                placeholderText: qsTr("Watch PIN (4 to 12 digits)")
                                echoMode: TextInput.Password
                                inputMethodHints: Qt.ImhDigitsOnly | Qt.ImhSensitiveData
                                validator: RegularExpressionValidator { regularExpression: /[0-9]{0,12}/ }
                                Accessible.name: qsTr("Watch PIN")
                            }
                            TextField {
                                id: repeatField
                                objectName: "repeatField"
                                Layout.fillWidth: true
                                placeholderText: qsTr("Repeat the PIN")
                                echoMode: TextInput.Password
                                inputMethodHints: Qt.ImhDigitsOnly | Qt.ImhSensitiveData
                                validator: RegularExpressionValidator { regularExpression: /[0-9]{0,12}/ }
                                Accessible.name: qsTr("Repeat the watch PIN")
                            }
                            Button {
                                objectName: "createExportButton"
                                text: qsTr("Make export")
                                enabled: page.chosenIds().length > 0 && pinField.text.length >= 4
                                onClicked: {
                                    if (page.exportFile.create(page.chosenIds(), pinField.text, repeatField.text)) {
                                        pinField.clear()
                                        repeatField.clear()
                                        watchArea.forceActiveFocus()
                                    }
                                }
                            }
                        }
                        Label {
                            visible: page.exportFile.loaded
                            Layout.fillWidth: true
                            wrapMode: Text.Wrap
                            text: {
                                const info = page.exportFile.info
                                if (!page.exportFile.loaded)
                                    return ""
                                let line = qsTr("Loaded: %1 accounts, %2, %3 PBKDF2 rounds, for %4.")
                                    .arg(info.accounts).arg(page.bytesText(info.bytes))
                                    .arg(info.iterations.toLocaleString(Qt.locale("en_US"), "f", 0))
                                    .arg(info.deviceName)
                                if (!info.forThisDevice)
                                    line += " " + qsTr("It was made for another watch: its rounds were calibrated there.")
                                return line + " " + qsTr("Enter its PIN on the watch.")
                            }
                        }
                        RowLayout {
                            Button {
                                text: qsTr("Save export\u2026")
                                enabled: page.exportFile.loaded
                                onClicked: saveDialog.ask()
                            }
                            Button {
                                text: qsTr("Open export\u2026")
                                onClicked: openDialog.ask()
                            }
                            Button {
                                text: qsTr("Close the watch app")
                                enabled: page.watch.openedAccounts > 0
                                onClicked: page.watch.lock()
                            }
                        }
                    }
                }

                // Without a watch (no profiles could be read) there is
                // nothing to cost.
                GroupBox {
                    title: qsTr("What it costs on %1").arg(page.device.name)
                    visible: page.device.id !== ""
                    Layout.fillWidth: true

                    ColumnLayout {
                        anchors.fill: parent
                        spacing: Math.round(metrics.height * 0.4)

                        // One row per operation; the columns share widths.
                        ColumnLayout {
                            id: costTable
                            objectName: "costTable"
                            Layout.fillWidth: true
                            spacing: metrics.height * 0.25
                            readonly property real titleWidth: metrics.averageCharacterWidth * 24
                            readonly property real simulatorWidth: metrics.averageCharacterWidth * 9
                            readonly property real basisWidth: metrics.averageCharacterWidth * 10
                            readonly property real measuredWidth: metrics.averageCharacterWidth * 11

                            RowLayout {
                                Layout.fillWidth: true
                                Label { text: qsTr("Operation"); font.bold: true; Layout.preferredWidth: costTable.titleWidth }
                                Label { text: qsTr("Simulator"); font.bold: true; Layout.preferredWidth: costTable.simulatorWidth; horizontalAlignment: Text.AlignRight }
                                Label { text: qsTr("On the watch"); font.bold: true; Layout.fillWidth: true }
                                Label { text: qsTr("Basis"); font.bold: true; Layout.preferredWidth: costTable.basisWidth }
                                Label { text: qsTr("Measured"); font.bold: true; Layout.preferredWidth: costTable.measuredWidth }
                            }
                            Column {
                                Layout.fillWidth: true
                                spacing: metrics.height * 0.25
                                Repeater {
                                    model: page.costs.operations
                                    delegate: RowLayout {
                                        id: costRow
                                        required property watchCost modelData
                                        objectName: "costRow_" + modelData.key
                                        width: parent ? parent.width : 0
                                        Label {
                                            Layout.preferredWidth: costTable.titleWidth
                                            elide: Text.ElideRight
                                            text: costRow.modelData.title
                                            ToolTip.visible: titleHover.hovered && ToolTip.text !== ""
                                            ToolTip.text: costRow.modelData.workClass !== ""
                                                          ? costRow.modelData.workClass + ": " + costRow.modelData.why
                                                          : costRow.modelData.unavailable
                                            HoverHandler { id: titleHover }
                                        }
                                        Label {
                                            Layout.preferredWidth: costTable.simulatorWidth
                                            horizontalAlignment: Text.AlignRight
                                            text: costRow.modelData.simulatorText
                                        }
                                        Label {
                                            objectName: "watchCost"
                                            Layout.fillWidth: true
                                            elide: Text.ElideRight
                                            // Why a figure is unknown is said once, under the table.
                                            text: costRow.modelData.text !== "" ? costRow.modelData.text : qsTr("unknown *")
                                            color: costRow.modelData.text !== "" ? page.palette.text : page.mutedText
                                        }
                                        Label {
                                            objectName: "basis"
                                            Layout.preferredWidth: costTable.basisWidth
                                            text: page.basisText(costRow.modelData.basis)
                                            font.bold: costRow.modelData.basis === "measured"
                                        }
                                        TextField {
                                            objectName: "measured_" + costRow.modelData.key
                                            Layout.preferredWidth: costTable.measuredWidth
                                            text: costRow.modelData.measuredMs > 0 ? String(costRow.modelData.measuredMs) : ""
                                            placeholderText: qsTr("ms")
                                            // Empty is acceptable, so that emptying the field clears
                                            // the value (a DoubleValidator holds "" as intermediate
                                            // and editingFinished would never come).
                                            validator: RegularExpressionValidator { regularExpression: /(\d{1,7}([.]\d{1,3})?)?/ }
                                            Accessible.name: qsTr("Measured milliseconds for %1").arg(costRow.modelData.title)
                                            onEditingFinished: page.profiles.setMeasured(costRow.modelData.key, text === "" ? 0 : Number(text))
                                        }
                                    }
                                }
                            }
                        }

                        Column {
                            Layout.fillWidth: true
                            Repeater {
                                // Each reason a figure is unknown, once.
                                model: page.costs.operations.map(cost => cost.unavailable)
                                           .filter((reason, i, all) => reason !== "" && all.indexOf(reason) === i)
                                Label {
                                    required property string modelData
                                    objectName: "unknownReason"
                                    width: parent.width
                                    wrapMode: Text.Wrap
                                    color: page.mutedText
                                    text: "* " + modelData
                                }
                            }
                        }
                        Label {
                            objectName: "unlockLabel"
                            Layout.fillWidth: true
                            wrapMode: Text.Wrap
                            text: {
                                const u = page.costs.unlock
                                return qsTr("Unlock at %1 PBKDF2 rounds: %2 in the simulator; %3 on the watch (%4).")
                                    .arg(Number(u.iterations).toLocaleString(Qt.locale("en_US"), "f", 0))
                                    .arg(u.simulatorText)
                                    .arg(u.text !== "" ? u.text : qsTr("unknown"))
                                    .arg(page.basisText(u.basis))
                            }
                        }
                        RowLayout {
                            Label { text: qsTr("Unlock target") }
                            SpinBox {
                                objectName: "targetSpin"
                                from: 100
                                to: 10000
                                stepSize: 100
                                editable: true
                                value: page.costs.targetMs
                                onValueModified: page.costs.targetMs = value
                                Accessible.name: qsTr("Unlock target in milliseconds")
                            }
                            Label { text: qsTr("ms") }
                        }
                        Label {
                            objectName: "calibrationLabel"
                            Layout.fillWidth: true
                            wrapMode: Text.Wrap
                            text: {
                                const c = page.costs.calibration
                                const count = n => Number(n).toLocaleString(Qt.locale("en_US"), "f", 0)
                                let line = qsTr("Calibrated for %1 ms: %2 rounds in the simulator")
                                    .arg(count(c.targetMs)).arg(count(c.simulator))
                                if (c.basis !== "")
                                    line += qsTr("; %1 on the watch (%2)")
                                        .arg(c.low === c.high ? count(c.low) : count(c.low) + " - " + count(c.high))
                                        .arg(page.basisText(c.basis))
                                return line + qsTr("; never below %1.").arg(count(c.floor))
                            }
                        }
                        // Repeaters whose models change sit in a Column, not
                        // directly in the layout: Qt 6.4's layouts can keep a
                        // removed delegate and crash on their next pass.
                        Column {
                            Layout.fillWidth: true
                            Repeater {
                                model: page.costs.calibration.warnings
                                Label {
                                    required property string modelData
                                    objectName: "calibrationWarning"
                                    width: parent.width
                                    wrapMode: Text.Wrap
                                    color: page.warningColor
                                    text: "\u26a0 " + modelData
                                }
                            }
                        }
                        Label {
                            objectName: "memoryLabel"
                            Layout.fillWidth: true
                            wrapMode: Text.Wrap
                            text: {
                                const m = page.costs.memory
                                const payload = m.payloadBytes > 0
                                    ? qsTr(" + payload %1 (%2)").arg(page.bytesText(m.payloadBytes))
                                          .arg(m.payloadEstimated ? qsTr("estimate") : qsTr("actual size"))
                                    : qsTr(", no export")
                                const share = m.totalPercent >= 0
                                    ? qsTr(": %1 % of %2 (the app alone %3 %)")
                                          .arg(m.totalPercent.toFixed(1)).arg(page.bytesText(m.limitBytes))
                                          .arg(m.appPercent.toFixed(1))
                                    : qsTr(": share unknown (%1)").arg(m.unavailable)
                                return qsTr("Memory: working set %1").arg(page.bytesText(m.workingSetBytes)) + payload + share
                            }
                        }
                        Column {
                            Layout.fillWidth: true
                            Repeater {
                                model: page.costs.memory.warnings
                                Label {
                                    required property string modelData
                                    width: parent.width
                                    wrapMode: Text.Wrap
                                    color: page.warningColor
                                    text: "\u26a0 " + modelData
                                }
                            }
                        }
                        Label {
                            objectName: "inconsistencyLabel"
                            Layout.fillWidth: true
                            wrapMode: Text.Wrap
                            color: page.warningColor
                            text: page.costs.inconsistency.text
                        }
                        Column {
                            Layout.fillWidth: true
                            Repeater {
                                model: page.costs.notes
                                Label {
                                    required property string modelData
                                    width: parent.width
                                    wrapMode: Text.Wrap
                                    color: page.mutedText
                                    text: modelData
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    FilePicker {
        id: saveDialog
        title: qsTr("Save the watch export")
        fileMode: FilePicker.SaveFile
        nameFilters: [qsTr("Watch export (*.json)")]
        currentFile: "watchword-watch.json"
        // The picker (or the desktop's chooser) asked before replacing a file.
        onAccepted: page.exportFile.save(selectedFile, true)
    }
    FilePicker {
        id: openDialog
        title: qsTr("Open a watch export")
        fileMode: FilePicker.OpenFile
        nameFilters: [qsTr("Watch export (*.json)"), qsTr("All files (*)")]
        onAccepted: {
            // Opened, the watch asks for its PIN: the keys go to it.
            if (page.exportFile.open(selectedFile))
                watchArea.forceActiveFocus()
        }
    }
}
