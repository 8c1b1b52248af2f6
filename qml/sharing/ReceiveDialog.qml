import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App
import Watchword.Ui

// "Receive a share…": paste a share's text, open its file, or read its QR
// code (an image file, or the screen). Then who sent it (a verified
// contact, one not verified, someone unknown, or yourself), what it holds,
// which of it the vault already has, and ticks for what to add. An unknown
// sender can be added as a contact here, or the person says they know who
// sent it. Presentation only: ReceiveController opens and adds.
Popup {
    id: dialog

    required property VaultController vault
    // The ContactBook: to add the sender as a contact.
    required property var contacts
    // For tests: the controller behind the dialog.
    readonly property alias controller: receiver

    readonly property bool dark: palette.window.hslLightness < 0.5
    readonly property color errorColor: dark ? "#f2b8b5" : "#b3261e"
    readonly property color warningColor: dark ? "#fdd663" : "#8a5300"
    readonly property color goodColor: dark ? "#a8dab5" : "#1e6b34"

    // The records are added: message says how many and from whom.
    signal received(string message)

    // A file dropped on the window or chosen: opened at once.
    function openFile(url) {
        dialog.open()
        receiver.openFile(url)
    }

    // A share's bytes read by the import (a dropped file): opened at once.
    function openData(data, sourceName) {
        dialog.open()
        receiver.openData(data, sourceName)
    }

    modal: true
    focus: true
    // Not closed while the records are being saved: a failed save is said here.
    closePolicy: receiver.busy ? Popup.NoAutoClose : Popup.CloseOnEscape
    padding: Math.round(metrics.height * 0.8)
    width: parent ? Math.min(parent.width - 32, Math.round(metrics.averageCharacterWidth * 84)) : 640
    height: parent ? Math.min(parent.height - 32, column.implicitHeight + 2 * padding) : 560
    x: parent ? Math.round((parent.width - width) / 2) : 0
    y: parent ? Math.round((parent.height - height) / 2) : 0

    onOpened: dialog.contacts.clearError()
    onClosed: {
        pasteArea.clear()
        knownSender.checked = false
        contactName.clear()
        receiver.reset()
    }

    FontMetrics {
        id: metrics
        font: dialog.font
    }

    ReceiveController {
        id: receiver
        vault: dialog.vault
        onFinished: (message) => {
            dialog.close()
            dialog.received(message)
        }
        onOpenedChanged: knownSender.checked = false
    }

    QrReader {
        id: qr
        // A reading that ends after the dialog closed is dropped.
        onFound: (texts) => {
            if (dialog.opened)
                receiver.openQrTexts(texts)
        }
        onFailed: (error) => {
            if (dialog.opened)
                receiver.readFailed(error)
        }
    }

    FilePicker {
        id: fileDialog
        over: dialog
        title: qsTr("Open a share")
        nameFilters: [qsTr("Watchword shares (*.wwshare *.txt)"), qsTr("All files (*)")]
        onAccepted: receiver.openFile(selectedFile)
    }
    FilePicker {
        id: imageDialog
        over: dialog
        title: qsTr("Choose an image with the share's QR code")
        nameFilters: [qsTr("Images (*.png *.jpg *.jpeg *.bmp *.gif *.webp)"), qsTr("All files (*)")]
        onAccepted: qr.readFile(selectedFile)
    }

    contentItem: ScrollView {
        contentWidth: availableWidth
        ColumnLayout {
            id: column
            width: parent.width
            spacing: Math.round(metrics.height * 0.5)
            Accessible.role: Accessible.Dialog
            Accessible.name: qsTr("Receive a share")

            Label {
                text: qsTr("Receive a share")
                font.pixelSize: Math.round(dialog.font.pixelSize * 1.3)
                font.bold: true
            }

            // Where the share comes from.
            Label {
                visible: !receiver.opened
                text: qsTr("Paste the text someone sent you, open their .wwshare file (or drop "
                           + "it on the list of codes), or read the share's QR code. Nothing is "
                           + "added before you have seen what it holds.")
                wrapMode: Text.Wrap
                color: palette.placeholderText
                Layout.fillWidth: true
            }
            ScrollView {
                visible: !receiver.opened
                Layout.fillWidth: true
                Layout.preferredHeight: Math.round(metrics.height * 6)
                TextArea {
                    id: pasteArea
                    objectName: "sharePasteArea"
                    placeholderText: qsTr("-----BEGIN WATCHWORD SHARE-----\n\u2026")
                    font.family: "monospace"
                    wrapMode: TextEdit.NoWrap
                    Accessible.name: qsTr("The share's text")
                    background: Rectangle {
                        color: dialog.palette.base
                        border.color: dialog.palette.mid
                        radius: 2
                    }
                }
            }
            Flow {
                visible: !receiver.opened
                spacing: Math.round(metrics.height * 0.4)
                Layout.fillWidth: true
                Button {
                    objectName: "openPastedButton"
                    text: qsTr("Open the text")
                    highlighted: true
                    enabled: pasteArea.text.trim() !== "" && !receiver.busy
                    onClicked: receiver.openText(pasteArea.text)
                }
                Button {
                    objectName: "openShareFileButton"
                    text: qsTr("Open file\u2026")
                    enabled: !receiver.busy
                    onClicked: fileDialog.ask()
                }
                Button {
                    objectName: "shareQrImageButton"
                    text: qsTr("QR code image\u2026")
                    enabled: !receiver.busy && !qr.busy
                    onClicked: imageDialog.ask()
                }
                Button {
                    objectName: "shareQrScreenButton"
                    text: qsTr("Scan the screen")
                    enabled: !receiver.busy && !qr.busy
                    onClicked: qr.readScreen()
                }
            }

            // Who sent it.
            Label {
                objectName: "senderLabel"
                visible: receiver.opened
                text: receiver.senderText
                font.bold: true
                color: receiver.sender === ReceiveController.VerifiedContact
                       || receiver.sender === ReceiveController.Yourself
                       ? dialog.goodColor : dialog.warningColor
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            Label {
                objectName: "shareDetails"
                visible: receiver.opened
                text: receiver.details
                color: palette.placeholderText
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            RowLayout {
                objectName: "addSenderRow"
                visible: receiver.opened && receiver.sender === ReceiveController.Unknown
                Layout.fillWidth: true
                TextField {
                    id: contactName
                    objectName: "senderNameField"
                    placeholderText: qsTr("Their name")
                    Layout.fillWidth: true
                    Accessible.name: qsTr("A name for the sender")
                    onAccepted: addSenderButton.clicked()
                }
                Button {
                    id: addSenderButton
                    objectName: "addSenderButton"
                    text: qsTr("Add as contact")
                    enabled: contactName.text.trim() !== ""
                    onClicked: {
                        if (dialog.contacts.add(receiver.senderIdentity, contactName.text) !== "") {
                            contactName.clear()
                            receiver.reopen()
                        }
                    }
                }
            }
            Label {
                objectName: "senderContactError"
                visible: receiver.opened && receiver.sender === ReceiveController.Unknown
                         && dialog.contacts.error !== ""
                text: dialog.contacts.error
                color: dialog.errorColor
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            Label {
                objectName: "alreadyReceivedLabel"
                visible: receiver.opened && receiver.alreadyReceived
                text: qsTr("Already received: records from this share are in the vault. Nothing "
                           + "is ticked; tick what you want to add again.")
                color: dialog.warningColor
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }

            // What it holds.
            ListView {
                id: recordList
                objectName: "receivedList"
                visible: receiver.opened
                model: receiver.records
                clip: true
                spacing: 2
                Layout.fillWidth: true
                Layout.preferredHeight: Math.min(contentHeight, Math.round(metrics.height * 10))
                ScrollBar.vertical: ScrollBar {}
                delegate: RowLayout {
                    required property var modelData
                    required property int index
                    width: recordList.width - 12
                    CheckBox {
                        objectName: "received-" + modelData.title
                        checked: receiver.checks[index] === true
                        text: (modelData.kind === "note" ? qsTr("Note: %1") : "%1").arg(modelData.title)
                        Accessible.description: modelData.duplicate ? modelData.duplicateText
                                                                    : modelData.detail
                        onToggled: receiver.setChecked(index, checked)
                    }
                    Label {
                        text: modelData.duplicate ? modelData.duplicateText : modelData.detail
                        color: modelData.duplicate ? dialog.warningColor : palette.placeholderText
                        elide: Text.ElideRight
                        Layout.fillWidth: true
                    }
                }
            }
            CheckBox {
                id: knownSender
                objectName: "knownSenderBox"
                visible: receiver.opened && receiver.sender === ReceiveController.Unknown
                text: qsTr("I know who sent this")
            }

            Label {
                objectName: "receiveError"
                text: receiver.error
                visible: text !== ""
                color: dialog.errorColor
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }

            RowLayout {
                Layout.fillWidth: true
                BusyIndicator {
                    running: receiver.busy || qr.busy
                    visible: running
                    implicitHeight: addButton.implicitHeight
                    implicitWidth: implicitHeight
                    Accessible.name: qsTr("Working")
                }
                Item {
                    Layout.fillWidth: true
                }
                Button {
                    objectName: "anotherShareButton"
                    visible: receiver.opened
                    text: qsTr("Another share")
                    enabled: !receiver.busy
                    onClicked: {
                        receiver.reset()
                        pasteArea.clear()
                    }
                }
                Button {
                    objectName: "closeReceiveButton"
                    text: qsTr("Close")
                    enabled: !receiver.busy
                    onClicked: dialog.close()
                }
                Button {
                    id: addButton
                    objectName: "addReceivedButton"
                    visible: receiver.opened
                    text: receiver.checkedCount === 1 ? qsTr("Add 1 record")
                                                      : qsTr("Add %1 records").arg(receiver.checkedCount)
                    highlighted: true
                    enabled: receiver.checkedCount > 0 && !receiver.busy
                             && (receiver.sender !== ReceiveController.Unknown || knownSender.checked)
                    onClicked: receiver.addChecked(knownSender.checked)
                }
            }
        }
    }
}
