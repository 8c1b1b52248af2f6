import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App
import Watchword.Ui

// An account's QR code for a phone to scan, Google Authenticator transfer
// codes shown one at a time, or the vault's sharing identity. An account's
// code holds the secret: it stays covered until the user asks to see it, and
// goes when the dialog closes or the vault locks (QrCodeItem drops it). The
// identity and a share (sealed to its recipients) are shown at once. Presentation only.
Popup {
    id: dialog

    required property VaultController vault
    // For tests: the item that draws the code.
    readonly property alias code: qrItem
    property string heading: ""
    property string explanation: ""
    // Whether the code holds a secret (an account): covered until asked.
    property bool secret: true

    readonly property bool dark: palette.window.hslLightness < 0.5
    readonly property color errorColor: dark ? "#f2b8b5" : "#b3261e"
    readonly property color warningColor: dark ? "#fdd663" : "#8a5300"

    function showAccount(recordId, title) {
        dialog.heading = qsTr("QR code of %1").arg(title)
        dialog.secret = true
        dialog.explanation = qsTr("Scan it with the authenticator app of another device to add "
                                  + "this account there.")
        qrItem.showAccount(recordId)
        dialog.open()
    }
    function showIdentity(text, fingerprint) {
        dialog.heading = qsTr("Your sharing identity")
        dialog.explanation = qsTr("Let the people who will share with you scan it, then compare "
                                  + "these words with them by another channel: %1").arg(fingerprint)
        dialog.secret = false
        qrItem.showText(text)
        qrItem.revealed = true
        dialog.open()
    }
    function showShare(text) {
        dialog.heading = qsTr("Share as a QR code")
        dialog.explanation = qsTr("Let the people it is for scan it with Watchword (Receive a "
                                  + "share, QR code). Only they can open it.")
        dialog.secret = false
        qrItem.showText(text)
        qrItem.revealed = true
        dialog.open()
    }
    function showTransfer(recordIds) {
        dialog.heading = qsTr("Transfer to Google Authenticator")
        dialog.secret = true
        dialog.explanation = qsTr("In Google Authenticator: Transfer accounts, Import accounts, "
                                  + "then scan each code in turn.")
        qrItem.showMigration(recordIds)
        dialog.open()
    }

    modal: true
    focus: true
    closePolicy: Popup.CloseOnEscape
    padding: Math.round(metrics.height * 0.8)
    width: parent ? Math.min(parent.width - 32, Math.round(metrics.averageCharacterWidth * 64)) : 480
    height: parent ? Math.min(parent.height - 32, column.implicitHeight + 2 * padding) : 560
    x: parent ? Math.round((parent.width - width) / 2) : 0
    y: parent ? Math.round((parent.height - height) / 2) : 0

    onClosed: qrItem.clear()

    FontMetrics {
        id: metrics
        font: dialog.font
    }

    contentItem: ColumnLayout {
        id: column
        spacing: Math.round(metrics.height * 0.6)
        Accessible.role: Accessible.Dialog
        Accessible.name: dialog.heading

        Label {
            text: dialog.heading
            font.pixelSize: Math.round(dialog.font.pixelSize * 1.3)
            font.bold: true
            elide: Text.ElideRight
            Layout.fillWidth: true
        }
        Label {
            text: dialog.explanation
            wrapMode: Text.Wrap
            color: palette.placeholderText
            Layout.fillWidth: true
        }

        Item {
            id: codeArea
            visible: qrItem.count > 0
            // Whole pixels: the item draws each module as a square of them.
            readonly property int side: Math.min(320, Math.max(160, Math.floor(column.width)))
            Layout.preferredWidth: side
            Layout.preferredHeight: side
            Layout.alignment: Qt.AlignHCenter

            Rectangle {
                anchors.fill: parent
                color: "white"
                radius: 4
            }
            QrCodeItem {
                id: qrItem
                objectName: "qrCode"
                vault: dialog.vault
                x: 0
                y: 0
                width: codeArea.side
                height: codeArea.side
            }
            // Covered until asked: the code is the secret.
            Rectangle {
                objectName: "cover"
                anchors.fill: parent
                visible: !qrItem.revealed
                color: palette.alternateBase
                border.color: palette.mid
                radius: 4
                ColumnLayout {
                    anchors.centerIn: parent
                    width: parent.width - 32
                    Label {
                        text: qsTr("Anyone who sees this code can make this account's codes.")
                        wrapMode: Text.Wrap
                        horizontalAlignment: Text.AlignHCenter
                        Layout.fillWidth: true
                    }
                    Button {
                        objectName: "revealButton"
                        text: qsTr("Show the code")
                        Layout.alignment: Qt.AlignHCenter
                        onClicked: qrItem.revealed = true
                    }
                }
            }
        }

        RowLayout {
            visible: qrItem.count > 1
            Layout.alignment: Qt.AlignHCenter
            Button {
                objectName: "previousButton"
                text: qsTr("Previous")
                enabled: qrItem.index > 0
                onClicked: qrItem.index = qrItem.index - 1
            }
            Label {
                objectName: "pageLabel"
                text: qsTr("%1 of %2").arg(qrItem.index + 1).arg(qrItem.count)
            }
            Button {
                objectName: "nextButton"
                text: qsTr("Next")
                enabled: qrItem.index < qrItem.count - 1
                onClicked: qrItem.index = qrItem.index + 1
            }
        }

        Label {
            objectName: "errorLabel"
            text: qrItem.error
            visible: text !== ""
            color: dialog.errorColor
            wrapMode: Text.Wrap
            Layout.fillWidth: true
        }
        ScrollView {
            visible: qrItem.warnings.length > 0
            contentWidth: availableWidth
            clip: true
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(warningsLabel.implicitHeight, Math.round(metrics.height * 4.5))
            Label {
                id: warningsLabel
                objectName: "warningsLabel"
                width: parent.width
                text: qsTr("Not carried over as it is:") + "\n" + qrItem.warnings.join("\n")
                color: dialog.warningColor
                wrapMode: Text.Wrap
            }
        }

        RowLayout {
            Layout.fillWidth: true
            Button {
                text: qsTr("Hide")
                visible: qrItem.revealed && dialog.secret
                onClicked: qrItem.revealed = false
            }
            Item {
                Layout.fillWidth: true
            }
            Button {
                objectName: "closeButton"
                text: qsTr("Close")
                onClicked: dialog.close()
            }
        }
    }
}
