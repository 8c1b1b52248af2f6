import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App
import Watchword.Ui

// "Import…": another app's export (or a scanned Google transfer code) read,
// previewed with every account marked new, already in the vault or of the
// same name, and the ticked ones added. Presentation only: ImportController
// reads on a worker and VaultController adds and saves, all or nothing.
Popup {
    id: dialog

    required property VaultController vault
    // For tests: the controller behind the dialog.
    readonly property alias controller: importer

    readonly property bool dark: palette.window.hslLightness < 0.5
    readonly property color errorColor: dark ? "#f2b8b5" : "#b3261e"
    readonly property color warningColor: dark ? "#fdd663" : "#8a5300"
    readonly property color newColor: dark ? "#a5d6a7" : "#2e7d32"

    // The accounts were added (message says how many).
    signal imported(string message)

    // The file dialog's answer, a dropped file and the tests' hook.
    function chooseFile(url) {
        passwordField.clear()
        return importer.openFile(url)
    }
    function openFile(url) {
        dialog.open()
        return dialog.chooseFile(url)
    }
    // A scanned otpauth-migration:// code: read at once.
    function openText(text) {
        dialog.open()
        return importer.openText(text, qsTr("Scanned QR code"))
    }
    function matchColour(match) {
        return match === "new" ? dialog.newColor
             : match === "duplicate" ? palette.placeholderText
             : match === "unsupported" ? dialog.errorColor : dialog.warningColor
    }

    modal: true
    focus: true
    closePolicy: Popup.CloseOnEscape
    padding: Math.round(metrics.height * 0.8)
    width: parent ? Math.min(parent.width - 32, Math.round(metrics.averageCharacterWidth * 84)) : 640
    // Tall for the preview's list; before it, as tall as what it shows (a
    // fixed height would spread the few lines of the first steps over it).
    height: parent ? Math.min(parent.height - 32,
                              importer.stage === ImportController.Preview
                              ? Math.round(metrics.height * 34) : implicitHeight)
                   : 560
    x: parent ? Math.round((parent.width - width) / 2) : 0
    y: parent ? Math.round((parent.height - height) / 2) : 0

    // Closing forgets what was read, secrets and preview alike.
    onClosed: {
        passwordField.clear()
        importer.reset()
    }

    FontMetrics {
        id: metrics
        font: dialog.font
    }

    ImportController {
        id: importer
        vault: dialog.vault
        onFinished: (message) => {
            dialog.imported(message)
            dialog.close()
        }
    }

    FilePicker {
        id: fileDialog
        over: dialog
        title: qsTr("Choose a file to import")
        nameFilters: [qsTr("Exports (*.json *.2fas *.txt *.csv *.xml *.bin *.aes *.authpro *.db *.wwb *.maFile *.zip)"),
                      qsTr("All files (*)")]
        onAccepted: dialog.chooseFile(selectedFile)
    }

    contentItem: ColumnLayout {
        spacing: Math.round(metrics.height * 0.6)
        Accessible.role: Accessible.Dialog
        Accessible.name: qsTr("Import accounts")

        Label {
            text: qsTr("Import accounts")
            font.pixelSize: Math.round(dialog.font.pixelSize * 1.3)
            font.bold: true
        }

        RowLayout {
            Layout.fillWidth: true
            Button {
                objectName: "chooseFileButton"
                text: importer.stage === ImportController.Empty ? qsTr("Choose file\u2026")
                                                                : qsTr("Another file\u2026")
                enabled: !importer.busy
                onClicked: fileDialog.ask()
            }
            Label {
                objectName: "sourceLabel"
                text: importer.source.name
                elide: Text.ElideMiddle
                Layout.fillWidth: true
            }
        }

        Label {
            objectName: "formatsLabel"
            visible: importer.stage === ImportController.Empty
            text: qsTr("Exports of %1. You can also drop the file on the list of codes. Nothing is "
                       + "added before you have seen the accounts.").arg(importer.source.knownFormats)
            wrapMode: Text.Wrap
            color: palette.placeholderText
            Layout.fillWidth: true
        }

        GridLayout {
            visible: importer.stage === ImportController.Source
            columns: 2
            columnSpacing: Math.round(metrics.height * 0.6)
            Layout.fillWidth: true
            Label {
                text: qsTr("Exported by")
            }
            ComboBox {
                id: formatBox
                objectName: "formatBox"
                model: importer.source.formatTitles
                currentIndex: importer.source.formatIndex
                enabled: !importer.busy
                onActivated: (index) => importer.source.formatIndex = index
                Layout.fillWidth: true
                Accessible.name: qsTr("The app that made the file")
            }
            Label {
                text: qsTr("Password")
                visible: importer.source.needsPassword
            }
            TextField {
                id: passwordField
                objectName: "passwordField"
                visible: importer.source.needsPassword
                echoMode: TextInput.Password
                placeholderText: qsTr("The password the file was exported with")
                Layout.fillWidth: true
                Accessible.name: qsTr("The file's password")
                onAccepted: readButton.clicked()
            }
        }

        RowLayout {
            visible: importer.stage === ImportController.Source
            Layout.fillWidth: true
            Button {
                id: readButton
                objectName: "readButton"
                text: qsTr("Read the file")
                enabled: !importer.busy
                highlighted: true
                onClicked: {
                    importer.read(passwordField.text)
                    passwordField.clear()
                }
            }
            BusyIndicator {
                running: importer.busy
                visible: running
                implicitHeight: readButton.implicitHeight
                implicitWidth: implicitHeight
                Accessible.name: qsTr("Reading the file")
            }
            Label {
                visible: importer.busy
                text: importer.source.needsPassword ? qsTr("Deriving the file's key: this takes a few seconds\u2026")
                                             : qsTr("Reading\u2026")
                color: palette.placeholderText
                Layout.fillWidth: true
                wrapMode: Text.Wrap
            }
            Button {
                objectName: "stopReadingButton"
                visible: importer.busy
                text: qsTr("Stop")
                Accessible.name: qsTr("Stop reading the file")
                onClicked: importer.stopReading()
            }
        }

        Label {
            objectName: "errorLabel"
            text: importer.error
            visible: text !== ""
            color: dialog.errorColor
            wrapMode: Text.Wrap
            Layout.fillWidth: true
            Accessible.name: qsTr("Import problem: %1").arg(text)
        }

        RowLayout {
            visible: importer.stage === ImportController.Preview
            Layout.fillWidth: true
            Label {
                objectName: "previewSummary"
                text: importer.preview.summary
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            Button {
                text: qsTr("Tick all")
                flat: true
                onClicked: importer.preview.setAllChecked(true)
            }
            Button {
                text: qsTr("Untick all")
                flat: true
                onClicked: importer.preview.setAllChecked(false)
            }
        }

        ListView {
            id: previewList
            objectName: "previewList"
            visible: importer.stage === ImportController.Preview
            model: importer.preview
            clip: true
            Layout.fillWidth: true
            Layout.fillHeight: true
            ScrollBar.vertical: ScrollBar {}
            delegate: RowLayout {
                id: row
                required property int index
                required property string issuer
                required property string accountName
                required property string kind
                required property string match
                required property string matchText
                required property bool checked
                required property bool importable
                width: previewList.width - 12
                spacing: Math.round(metrics.height * 0.5)
                CheckBox {
                    objectName: "tick" + row.index
                    checked: row.checked
                    enabled: row.importable
                    onToggled: importer.preview.setChecked(row.index, checked)
                    Accessible.name: row.importable
                                     ? qsTr("Add %1").arg(row.issuer !== "" ? row.issuer : row.accountName)
                                     : qsTr("%1 cannot be imported").arg(row.issuer)
                }
                ColumnLayout {
                    spacing: 0
                    Layout.fillWidth: true
                    Label {
                        text: row.issuer !== "" ? row.issuer : qsTr("(no issuer)")
                        font.bold: true
                        elide: Text.ElideRight
                        Layout.fillWidth: true
                    }
                    Label {
                        text: row.accountName
                        color: palette.placeholderText
                        elide: Text.ElideRight
                        Layout.fillWidth: true
                    }
                }
                Label {
                    text: row.kind
                    color: palette.placeholderText
                }
                Label {
                    objectName: "mark" + row.index
                    text: row.matchText
                    color: dialog.matchColour(row.match)
                    horizontalAlignment: Text.AlignRight
                    wrapMode: Text.Wrap
                    Layout.preferredWidth: Math.round(metrics.averageCharacterWidth * 34)
                }
            }
        }

        Label {
            objectName: "warningsLabel"
            visible: importer.stage === ImportController.Preview && importer.preview.warnings.length > 0
            text: qsTr("From the file: %1").arg(importer.preview.warnings.join("; "))
            color: dialog.warningColor
            wrapMode: Text.Wrap
            Layout.fillWidth: true
            Layout.maximumHeight: Math.round(metrics.height * 5)
            clip: true
        }

        RowLayout {
            Layout.fillWidth: true
            Item {
                Layout.fillWidth: true
            }
            Button {
                objectName: "cancelButton"
                text: qsTr("Cancel")
                onClicked: dialog.close()
            }
            Button {
                objectName: "addButton"
                text: importer.preview.checkedCount === 1
                      ? qsTr("Add 1 account")
                      : qsTr("Add %1 accounts").arg(importer.preview.checkedCount)
                visible: importer.stage === ImportController.Preview
                enabled: importer.preview.checkedCount > 0 && !importer.busy
                highlighted: true
                onClicked: importer.addChecked()
            }
        }
    }
}
