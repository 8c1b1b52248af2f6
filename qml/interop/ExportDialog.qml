import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App
import Watchword.Ui

// "Export…": the format, the accounts (all, or the ticked ones), a new
// password for the encrypted formats or an explicit acknowledgement for the
// plaintext ones, then where to write. An existing file is replaced only
// after a question. Presentation only: ExportController writes the file.
Popup {
    id: dialog

    required property VaultController vault
    // The accounts list, to choose from.
    required property AccountListModel accounts
    // For tests: the controller behind the dialog.
    readonly property alias controller: exporter
    // The record ids ticked, when not every account goes out.
    property var chosen: ({})
    property bool everyAccount: true
    property string resultMessage: ""
    // A file waiting for the user to agree to replace it.
    property url pendingFile

    readonly property bool dark: palette.window.hslLightness < 0.5
    readonly property color errorColor: dark ? "#f2b8b5" : "#b3261e"
    readonly property color warningColor: dark ? "#fdd663" : "#8a5300"

    // Google's transfer, shown as QR codes instead of written.
    signal transferRequested(var recordIds)

    function chosenIds() {
        return dialog.everyAccount ? [] : Object.keys(dialog.chosen).filter(id => dialog.chosen[id])
    }
    readonly property string problem: exporter.problem(chosenIds(), passwordField.text,
                                                       repeatField.text, acknowledge.checked)
                                      + (dialog.everyAccount || chosenIds().length > 0
                                         ? "" : qsTr("Tick at least one account."))
    // The save dialog's answer and the tests' hook: asks before replacing.
    // replaceAsked: the desktop's chooser already asked before replacing.
    function chooseFile(url, replaceAsked) {
        if (replaceAsked === true)
            return dialog.write(url, true)
        if (exporter.fileExists(url)) {
            dialog.pendingFile = url
            replaceDialog.open()
            return false
        }
        return dialog.write(url, false)
    }
    function write(url, overwrite) {
        dialog.resultMessage = ""
        const started = exporter.exportTo(url, dialog.chosenIds(), passwordField.text,
                                          repeatField.text, acknowledge.checked, overwrite)
        if (started) {
            passwordField.clear()
            repeatField.clear()
        }
        return started
    }

    modal: true
    focus: true
    closePolicy: Popup.CloseOnEscape
    padding: Math.round(metrics.height * 0.8)
    width: parent ? Math.min(parent.width - 32, Math.round(metrics.averageCharacterWidth * 80)) : 620
    height: parent ? Math.min(parent.height - 32, column.implicitHeight + 2 * padding) : 560
    x: parent ? Math.round((parent.width - width) / 2) : 0
    y: parent ? Math.round((parent.height - height) / 2) : 0

    onOpened: {
        dialog.resultMessage = ""
        dialog.everyAccount = true
        dialog.chosen = ({})
        acknowledge.checked = false
        exporter.clearError()
    }
    onClosed: {
        passwordField.clear()
        repeatField.clear()
        acknowledge.checked = false
    }

    FontMetrics {
        id: metrics
        font: dialog.font
    }

    ExportController {
        id: exporter
        vault: dialog.vault
        onFinished: (written, message) => dialog.resultMessage = written ? message : ""
        onFormatChanged: acknowledge.checked = false
    }

    FilePicker {
        id: saveDialog
        over: dialog
        title: qsTr("Export to")
        fileMode: FilePicker.SaveFile
        // The dialog below asks (or the desktop's chooser did).
        confirmOverwrite: false
        currentFile: exporter.suggestedFileName
        onAccepted: dialog.chooseFile(selectedFile, chosenOnDesktop)
    }

    Dialog {
        id: replaceDialog
        objectName: "replaceDialog"
        parent: Overlay.overlay
        anchors.centerIn: parent
        modal: true
        title: qsTr("Replace the file?")
        standardButtons: Dialog.Yes | Dialog.No
        width: Math.min(parent.width - 32, Math.round(metrics.averageCharacterWidth * 56))
        Label {
            width: replaceDialog.availableWidth
            text: qsTr("%1 already exists. Replace it with this export?")
                  .arg(String(dialog.pendingFile).split("/").pop())
            wrapMode: Text.Wrap
        }
        onAccepted: dialog.write(dialog.pendingFile, true)
    }

    contentItem: ScrollView {
        contentWidth: availableWidth
        ColumnLayout {
            id: column
            width: parent.width
            spacing: Math.round(metrics.height * 0.6)

            Label {
                text: qsTr("Export accounts")
                font.pixelSize: Math.round(dialog.font.pixelSize * 1.3)
                font.bold: true
            }

            GridLayout {
                columns: 2
                columnSpacing: Math.round(metrics.height * 0.6)
                Layout.fillWidth: true
                Label {
                    text: qsTr("Format")
                }
                ComboBox {
                    objectName: "formatBox"
                    model: exporter.formatTitles
                    currentIndex: exporter.formatIndex
                    onActivated: (index) => exporter.formatIndex = index
                    Layout.fillWidth: true
                    Accessible.name: qsTr("Export format")
                }
                Label {
                    text: qsTr("Accounts")
                }
                RowLayout {
                    RadioButton {
                        objectName: "everyAccount"
                        text: qsTr("All %1").arg(accountList.count)
                        checked: dialog.everyAccount
                        onToggled: dialog.everyAccount = true
                    }
                    RadioButton {
                        objectName: "tickedAccounts"
                        text: qsTr("Only the ticked ones")
                        checked: !dialog.everyAccount
                        onToggled: dialog.everyAccount = false
                    }
                }
            }

            ListView {
                id: accountList
                objectName: "accountList"
                visible: !dialog.everyAccount
                model: dialog.accounts
                clip: true
                Layout.fillWidth: true
                Layout.preferredHeight: Math.round(metrics.height * 8)
                ScrollBar.vertical: ScrollBar {}
                delegate: CheckBox {
                    required property string recordId
                    required property string issuer
                    required property string accountName
                    width: accountList.width - 12
                    text: issuer !== "" && accountName !== "" ? issuer + " \u2014 " + accountName
                                                               : issuer + accountName
                    checked: dialog.chosen[recordId] === true
                    onToggled: {
                        const next = Object.assign({}, dialog.chosen)
                        next[recordId] = checked
                        dialog.chosen = next
                    }
                }
            }

            GridLayout {
                visible: exporter.needsPassword
                columns: 2
                columnSpacing: Math.round(metrics.height * 0.6)
                Layout.fillWidth: true
                Label {
                    text: qsTr("File password")
                }
                TextField {
                    id: passwordField
                    objectName: "passwordField"
                    echoMode: TextInput.Password
                    placeholderText: qsTr("A new password for this file")
                    Layout.fillWidth: true
                    Accessible.name: qsTr("The export's password")
                }
                Label {
                    text: qsTr("Repeat")
                }
                TextField {
                    id: repeatField
                    objectName: "repeatField"
                    echoMode: TextInput.Password
                    Layout.fillWidth: true
                    Accessible.name: qsTr("The export's password again")
                }
                Item {
                    implicitWidth: 1
                }
                PasswordStrengthMeter {
                    score: passwordField.text === "" ? -1 : dialog.vault.passwords.strength(passwordField.text)
                    hint: passwordField.text === "" ? "" : dialog.vault.passwords.strengthHint(passwordField.text)
                    Layout.fillWidth: true
                }
            }

            Frame {
                objectName: "plaintextWarning"
                visible: exporter.plaintext
                Layout.fillWidth: true
                background: Rectangle {
                    color: Qt.rgba(0.85, 0.2, 0.15, 0.12)
                    border.color: dialog.errorColor
                    radius: 4
                }
                ColumnLayout {
                    anchors.fill: parent
                    Label {
                        text: qsTr("This file is not encrypted. Anyone who reads it, a backup of it "
                                   + "or a synced copy can make every code of these accounts. Keep it "
                                   + "only as long as the move takes, then delete it.")
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                    }
                    CheckBox {
                        id: acknowledge
                        objectName: "acknowledge"
                        text: qsTr("I understand this file holds every secret readable")
                    }
                }
            }

            Label {
                objectName: "problemLabel"
                text: exporter.error !== "" ? exporter.error : ""
                visible: text !== ""
                color: dialog.errorColor
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            Label {
                objectName: "resultLabel"
                text: dialog.resultMessage
                visible: text !== ""
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            Label {
                objectName: "warningsLabel"
                visible: exporter.warnings.length > 0
                text: qsTr("Left out or changed: %1").arg(exporter.warnings.join("; "))
                color: dialog.warningColor
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }

            RowLayout {
                Layout.fillWidth: true
                BusyIndicator {
                    running: exporter.busy
                    visible: running
                    implicitHeight: exportButton.implicitHeight
                    implicitWidth: implicitHeight
                    Accessible.name: qsTr("Writing the export")
                }
                Item {
                    Layout.fillWidth: true
                }
                Button {
                    objectName: "transferButton"
                    visible: exporter.googleTransfer
                    text: qsTr("Show as QR codes")
                    enabled: dialog.everyAccount || dialog.chosenIds().length > 0
                    onClicked: dialog.transferRequested(dialog.chosenIds())
                }
                Button {
                    objectName: "closeButton"
                    text: qsTr("Close")
                    onClicked: dialog.close()
                }
                Button {
                    id: exportButton
                    objectName: "exportButton"
                    text: qsTr("Export\u2026")
                    highlighted: true
                    enabled: dialog.problem === "" && !exporter.busy
                    ToolTip.visible: hovered && !enabled && dialog.problem !== ""
                    ToolTip.text: dialog.problem
                    onClicked: saveDialog.ask()
                }
            }
        }
    }
}
