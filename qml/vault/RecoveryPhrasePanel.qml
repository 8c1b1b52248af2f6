import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App
import Watchword.Ui

// A new recovery phrase: shown once, then confirmed by typing back three of
// its words at the positions the vault asks for. Used by the first run and
// by Settings (a new phrase). The words come from vault.phrase.recoveryWords and
// are gone from it once confirmed or cancelled.
ColumnLayout {
    id: panel

    required property var vault
    // True once the user said they wrote it down: the confirmation step.
    property bool confirming: false

    signal cancelled()

    spacing: 12

    function confirm() {
        panel.vault.phrase.confirmRecoveryPhrase([word0.text, word1.text, word2.text])
    }

    function clearAnswers() {
        word0.clear()
        word1.clear()
        word2.clear()
    }

    Label {
        text: panel.confirming ? qsTr("Check your recovery phrase")
                               : qsTr("Your recovery phrase")
        font.pixelSize: Qt.application.font.pixelSize * 1.4
        font.bold: true
        Layout.fillWidth: true
    }
    Label {
        text: panel.confirming
              ? qsTr("Type the words at these positions, from what you wrote down.")
              : qsTr("Write these 24 words down, in order, on paper, and keep them somewhere safe. "
                     + "They open your vault if you forget the password. Watchword does not keep "
                     + "them: this is the only time they are shown.")
        wrapMode: Text.Wrap
        Layout.fillWidth: true
    }

    GridLayout {
        visible: !panel.confirming
        columns: 4
        columnSpacing: 8
        rowSpacing: 6
        Layout.fillWidth: true
        Accessible.role: Accessible.List
        Accessible.name: qsTr("Recovery phrase words")
        Repeater {
            model: panel.confirming ? [] : panel.vault.phrase.recoveryWords
            Frame {
                id: cell
                required property int index
                required property string modelData
                padding: 6
                Layout.fillWidth: true
                RowLayout {
                    anchors.fill: parent
                    spacing: 6
                    Label {
                        text: (cell.index + 1) + "."
                        opacity: 0.6
                        font.family: "monospace"
                        Layout.preferredWidth: fontMetrics.advanceWidth("00.")
                        horizontalAlignment: Text.AlignRight
                    }
                    Label {
                        text: cell.modelData
                        font.family: "monospace"
                        font.bold: true
                        Layout.fillWidth: true
                    }
                }
                Accessible.name: qsTr("Word %1: %2").arg(index + 1).arg(modelData)
            }
        }
    }
    Label {
        objectName: "newRecoveryFingerprint"
        visible: !panel.confirming && panel.vault.phrase.newRecoveryFingerprint !== ""
        text: qsTr("Recovery key fingerprint: %1. Write it down with the words: Settings shows the vault's, and while the two match, these words open the vault.")
              .arg(panel.vault.phrase.newRecoveryFingerprint)
        wrapMode: Text.Wrap
        Layout.fillWidth: true
        Accessible.name: text
    }
    FontMetrics {
        id: fontMetrics
        font.family: "monospace"
    }

    GridLayout {
        visible: panel.confirming
        columns: 2
        columnSpacing: 12
        rowSpacing: 8
        Layout.fillWidth: true
        Label { text: qsTr("Word %1").arg(panel.vault.phrase.confirmPositions[0] || "") }
        TextField {
            id: word0
            Layout.fillWidth: true
            focus: panel.confirming
            inputMethodHints: Qt.ImhSensitiveData | Qt.ImhNoPredictiveText | Qt.ImhNoAutoUppercase
            Accessible.name: qsTr("Word number %1").arg(panel.vault.phrase.confirmPositions[0] || "")
            onAccepted: word1.forceActiveFocus()
        }
        Label { text: qsTr("Word %1").arg(panel.vault.phrase.confirmPositions[1] || "") }
        TextField {
            id: word1
            Layout.fillWidth: true
            inputMethodHints: Qt.ImhSensitiveData | Qt.ImhNoPredictiveText | Qt.ImhNoAutoUppercase
            Accessible.name: qsTr("Word number %1").arg(panel.vault.phrase.confirmPositions[1] || "")
            onAccepted: word2.forceActiveFocus()
        }
        Label { text: qsTr("Word %1").arg(panel.vault.phrase.confirmPositions[2] || "") }
        TextField {
            id: word2
            Layout.fillWidth: true
            inputMethodHints: Qt.ImhSensitiveData | Qt.ImhNoPredictiveText | Qt.ImhNoAutoUppercase
            Accessible.name: qsTr("Word number %1").arg(panel.vault.phrase.confirmPositions[2] || "")
            onAccepted: panel.confirm()
        }
    }

    Label {
        text: panel.vault.error
        visible: panel.confirming && text.length > 0
        color: palette.window.hslLightness < 0.5 ? "#f2b8b5" : "#b3261e"
        wrapMode: Text.Wrap
        Layout.fillWidth: true
        Accessible.name: qsTr("Confirmation error")
    }

    RowLayout {
        Layout.fillWidth: true
        spacing: 8
        Button {
            text: qsTr("Cancel")
            Accessible.name: qsTr("Cancel and forget this phrase")
            onClicked: {
                panel.clearAnswers()
                panel.confirming = false
                panel.vault.phrase.cancelRecoveryPhrase()
                panel.cancelled()
            }
        }
        Item { Layout.fillWidth: true }
        Button {
            visible: panel.confirming
            text: qsTr("Show the words again")
            Accessible.name: qsTr("Show the recovery phrase again")
            onClicked: {
                panel.clearAnswers()
                panel.vault.clearError()
                panel.confirming = false
            }
        }
        Button {
            text: panel.confirming ? qsTr("Confirm") : qsTr("I have written them down")
            highlighted: true
            enabled: !panel.vault.busy && (!panel.confirming || (word0.text.length > 0
                     && word1.text.length > 0 && word2.text.length > 0))
            Accessible.name: panel.confirming ? qsTr("Confirm the recovery phrase")
                                              : qsTr("Go on to check the recovery phrase")
            onClicked: {
                if (panel.confirming) {
                    panel.confirm()
                } else {
                    panel.vault.clearError()
                    panel.confirming = true
                    word0.forceActiveFocus()
                }
            }
        }
    }
}
