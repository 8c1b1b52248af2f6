import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App
import Watchword.Ui

// "Share…": tick accounts and notes, tick the people (contacts) they go to,
// make the share, then send it as a file, as text to paste, or as a QR
// code. Only the people ticked can open it, and it is signed as the vault's
// owner. Presentation only: ShareController seals and writes.
Popup {
    id: dialog

    required property VaultController vault
    // The ContactBook: the people to choose from.
    required property var contacts
    // For tests: the controller behind the dialog.
    readonly property alias controller: sharer
    // Ticked record ids and contact ids (maps of id to true).
    property var chosenRecords: ({})
    property var chosenContacts: ({})
    property string resultMessage: ""
    // A file waiting for the user to agree to replace it.
    property url pendingFile

    readonly property bool dark: palette.window.hslLightness < 0.5
    readonly property color errorColor: dark ? "#f2b8b5" : "#b3261e"
    readonly property color warningColor: dark ? "#fdd663" : "#8a5300"

    // The share as a QR code, shown by the window's QR dialog.
    signal qrRequested(string text)
    // "Open Contacts": no one to share with yet.
    signal contactsRequested()

    function ticked(map) {
        return Object.keys(map).filter(id => map[id])
    }
    readonly property var recordIds: ticked(chosenRecords)
    readonly property var contactIds: ticked(chosenContacts)
    readonly property string problem: sharer.problem(recordIds, contactIds)
    // The ticked people whose fingerprint was never compared.
    readonly property var unverified: dialog.contacts.contacts
        .filter(c => dialog.chosenContacts[c.recordId] === true && !c.verified).map(c => c.name)

    // Opens the dialog with these records ticked (none: the user ticks).
    function openFor(recordIds) {
        const chosen = {}
        for (const id of recordIds)
            chosen[id] = true
        dialog.chosenRecords = chosen
        dialog.chosenContacts = ({})
        dialog.resultMessage = ""
        filterField.clear()
        sharer.clear()
        sharer.refresh()
        dialog.open()
    }
    function toggle(map, id, on) {
        const next = Object.assign({}, map)
        next[id] = on
        sharer.clear()
        dialog.resultMessage = ""
        return next
    }
    // The save dialog's answer and the tests' hook: asks before replacing.
    function chooseFile(url, replaceAsked) {
        if (replaceAsked === true)
            return dialog.write(url, true)
        if (sharer.fileExists(url)) {
            dialog.pendingFile = url
            replaceDialog.open()
            return false
        }
        return dialog.write(url, false)
    }
    function write(url, overwrite) {
        dialog.resultMessage = ""
        return sharer.saveTo(url, overwrite)
    }

    modal: true
    focus: true
    closePolicy: Popup.CloseOnEscape
    padding: Math.round(metrics.height * 0.8)
    width: parent ? Math.min(parent.width - 32, Math.round(metrics.averageCharacterWidth * 84)) : 640
    height: parent ? Math.min(parent.height - 32, column.implicitHeight + 2 * padding) : 560
    x: parent ? Math.round((parent.width - width) / 2) : 0
    y: parent ? Math.round((parent.height - height) / 2) : 0

    onClosed: sharer.clear()

    FontMetrics {
        id: metrics
        font: dialog.font
    }

    ShareController {
        id: sharer
        vault: dialog.vault
        onSaved: (message) => dialog.resultMessage = message
    }

    FilePicker {
        id: saveDialog
        over: dialog
        title: qsTr("Save the share as")
        fileMode: FilePicker.SaveFile
        confirmOverwrite: false
        defaultSuffix: "wwshare"
        nameFilters: [qsTr("Watchword shares (*.wwshare)"), qsTr("All files (*)")]
        currentFile: sharer.suggestedFileName
        onAccepted: dialog.chooseFile(selectedFile, chosenOnDesktop)
    }

    Dialog {
        id: replaceDialog
        objectName: "replaceShareDialog"
        parent: Overlay.overlay
        anchors.centerIn: parent
        modal: true
        title: qsTr("Replace the file?")
        standardButtons: Dialog.Yes | Dialog.No
        width: Math.min(parent.width - 32, Math.round(metrics.averageCharacterWidth * 56))
        Label {
            width: replaceDialog.availableWidth
            text: qsTr("%1 already exists. Replace it with this share?")
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
            spacing: Math.round(metrics.height * 0.5)
            Accessible.role: Accessible.Dialog
            Accessible.name: qsTr("Share accounts and notes")

            Label {
                text: qsTr("Share accounts and notes")
                font.pixelSize: Math.round(dialog.font.pixelSize * 1.3)
                font.bold: true
            }
            Label {
                text: qsTr("Only the people you tick can open the share, and it is signed as you. "
                           + "Send it by any channel: e-mail, a chat, a USB stick.")
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }

            // No one to share with yet.
            RowLayout {
                visible: dialog.contacts.contacts.length === 0
                Layout.fillWidth: true
                Label {
                    objectName: "noContactsLabel"
                    text: qsTr("You have no contacts yet: add the people you share with first.")
                    color: dialog.warningColor
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                }
                Button {
                    objectName: "openContactsButton"
                    text: qsTr("Open Contacts")
                    onClicked: {
                        dialog.close()
                        dialog.contactsRequested()
                    }
                }
            }

            Label {
                text: qsTr("To")
                font.bold: true
                visible: dialog.contacts.contacts.length > 0
            }
            Flow {
                objectName: "recipientList"
                visible: dialog.contacts.contacts.length > 0
                spacing: Math.round(metrics.height * 0.3)
                Layout.fillWidth: true
                Repeater {
                    model: dialog.contacts.contacts
                    CheckBox {
                        required property var modelData
                        objectName: "recipient-" + modelData.name
                        text: modelData.verified ? modelData.name + " \u2713" : modelData.name
                        checked: dialog.chosenContacts[modelData.recordId] === true
                        Accessible.name: modelData.verified
                                         ? qsTr("%1, verified").arg(modelData.name)
                                         : qsTr("%1, not verified").arg(modelData.name)
                        onToggled: dialog.chosenContacts = dialog.toggle(dialog.chosenContacts,
                                                                         modelData.recordId, checked)
                    }
                }
            }
            Label {
                objectName: "unverifiedWarning"
                visible: dialog.unverified.length > 0
                text: qsTr("Not verified: %1. If that identity is not really theirs, someone else "
                           + "reads what you send. Compare the fingerprint words with them on the "
                           + "Contacts page first.").arg(dialog.unverified.join(", "))
                color: dialog.warningColor
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }

            RowLayout {
                Layout.fillWidth: true
                Label {
                    text: qsTr("What")
                    font.bold: true
                }
                TextField {
                    id: filterField
                    objectName: "shareFilter"
                    placeholderText: qsTr("Search")
                    Layout.fillWidth: true
                    Accessible.name: qsTr("Search the accounts and notes")
                }
                Label {
                    text: qsTr("%1 ticked").arg(dialog.recordIds.length)
                }
            }
            ListView {
                id: recordList
                objectName: "shareRecordList"
                readonly property string query: filterField.text.trim().toLowerCase()
                model: sharer.records.filter(r => query === "" || r.title.toLowerCase().includes(query))
                clip: true
                Layout.fillWidth: true
                Layout.preferredHeight: Math.round(metrics.height * 7.5)
                ScrollBar.vertical: ScrollBar {}
                delegate: CheckBox {
                    required property var modelData
                    objectName: "shareRecord-" + modelData.title
                    width: recordList.width - 12
                    text: (modelData.kind === "note" ? qsTr("Note: %1") : "%1").arg(modelData.title)
                    checked: dialog.chosenRecords[modelData.recordId] === true
                    onToggled: dialog.chosenRecords = dialog.toggle(dialog.chosenRecords,
                                                                    modelData.recordId, checked)
                }
            }

            Label {
                objectName: "shareProblem"
                text: dialog.problem
                visible: text !== "" && !sharer.sealed
                color: dialog.palette.placeholderText
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            Label {
                objectName: "shareError"
                text: sharer.error
                visible: text !== ""
                color: dialog.errorColor
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }

            // The share, once made.
            ColumnLayout {
                visible: sharer.sealed
                spacing: Math.round(metrics.height * 0.4)
                Layout.fillWidth: true
                Label {
                    objectName: "shareSummary"
                    text: sharer.summary
                    font.bold: true
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                }
                ScrollView {
                    Layout.fillWidth: true
                    Layout.preferredHeight: Math.round(metrics.height * 5)
                    TextArea {
                        id: shareText
                        objectName: "shareText"
                        text: sharer.text
                        readOnly: true
                        selectByMouse: true
                        font.family: "monospace"
                        wrapMode: TextEdit.NoWrap
                        Accessible.name: qsTr("The share as text")
                        background: Rectangle {
                            color: dialog.palette.base
                            border.color: dialog.palette.mid
                            radius: 2
                        }
                    }
                }
                Label {
                    objectName: "qrProblem"
                    visible: sharer.qrProblem !== ""
                    text: sharer.qrProblem
                    color: dialog.warningColor
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                }
                Label {
                    objectName: "shareResult"
                    text: dialog.resultMessage
                    visible: text !== ""
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                }
                Flow {
                    spacing: Math.round(metrics.height * 0.4)
                    Layout.fillWidth: true
                    Button {
                        objectName: "saveShareButton"
                        text: qsTr("Save as file\u2026")
                        onClicked: saveDialog.ask()
                    }
                    Button {
                        objectName: "copyShareButton"
                        text: qsTr("Copy as text")
                        onClicked: {
                            shareText.selectAll()
                            shareText.copy()
                            shareText.deselect()
                            dialog.resultMessage = qsTr("Copied. Paste it into a message to the "
                                                        + "people it is for.")
                        }
                    }
                    Button {
                        objectName: "qrShareButton"
                        text: qsTr("Show QR code")
                        enabled: sharer.qrText !== ""
                        onClicked: dialog.qrRequested(sharer.qrText)
                    }
                }
            }

            RowLayout {
                Layout.fillWidth: true
                Item {
                    Layout.fillWidth: true
                }
                Button {
                    objectName: "closeShareButton"
                    text: qsTr("Close")
                    onClicked: dialog.close()
                }
                Button {
                    objectName: "makeShareButton"
                    text: qsTr("Make share")
                    highlighted: !sharer.sealed
                    enabled: dialog.problem === "" && !sharer.sealed
                    onClicked: sharer.seal(dialog.recordIds, dialog.contactIds)
                }
            }
        }
    }
}
