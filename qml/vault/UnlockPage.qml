import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App
import Watchword.Ui

// The locked vault: its password, the unlock's progress, and what went
// wrong; or, for a forgotten password, the recovery phrase and a new one.
Item {
    id: page

    required property var vault
    readonly property bool busy: vault.state === VaultController.Unlocking
    property bool recovering: false

    // The keys go to the field at once: at start, after Ctrl+L or auto-lock,
    // and when the page shows again.
    function focusField() {
        if (page.recovering)
            phrase.forceActiveFocus()
        else
            password.forceActiveFocus()
    }
    Component.onCompleted: Qt.callLater(page.focusField)
    onVisibleChanged: if (visible) Qt.callLater(page.focusField)

    function submit() {
        if (busy || password.text.length === 0)
            return
        // The controller wipes its copy; the field forgets its own.
        vault.unlock(password.text)
        password.clear()
    }

    // A recovery was handed to the vault: the window says so once it opens.
    signal recoveryStarted()

    function submitRecovery() {
        if (!recoverButton.enabled)
            return
        page.recoveryStarted()
        // The fields keep what was typed: a mistyped word is corrected, not
        // typed again with both passwords. Unlocked, the page goes, and the
        // fields with it.
        vault.recover(phrase.text, newPassword.text, repeat.text)
    }
    // An edit answers the last error.
    function edited() {
        if (page.vault.error !== "" && !page.busy)
            page.vault.clearError()
    }

    ScrollView {
        anchors.fill: parent
        contentWidth: availableWidth

        Item {
            width: parent.width
            implicitHeight: Math.max(page.height, column.implicitHeight + 48)

            ColumnLayout {
                id: column
                anchors.centerIn: parent
                width: Math.min(parent.width - 48, page.recovering ? 560 : 420)
                spacing: 12

                Label {
                    text: page.recovering ? qsTr("Recover your vault") : qsTr("Unlock your vault")
                    font.pixelSize: Qt.application.font.pixelSize * 1.6
                    font.bold: true
                    Layout.alignment: Qt.AlignHCenter
                }
                Label {
                    text: page.vault.demo ? qsTr("Demo vault: the password is \u201cdemo\u201d.")
                                          : page.vault.path
                    elide: Text.ElideMiddle
                    opacity: 0.7
                    Layout.fillWidth: true
                    horizontalAlignment: Text.AlignHCenter
                }

                // Unlocking with the password.
                TextField {
                    id: password
                    visible: !page.recovering
                    echoMode: TextInput.Password
                    placeholderText: qsTr("Password")
                    enabled: !page.busy
                    focus: true
                    inputMethodHints: Qt.ImhSensitiveData | Qt.ImhNoPredictiveText
                    Layout.fillWidth: true
                    Accessible.name: qsTr("Vault password")
                    onAccepted: page.submit()
                    onTextEdited: page.edited()
                }
                Button {
                    visible: !page.recovering
                    text: page.busy ? qsTr("Unlocking\u2026") : qsTr("Unlock")
                    highlighted: true
                    enabled: !page.busy && password.text.length > 0
                    Layout.fillWidth: true
                    Accessible.name: qsTr("Unlock the vault")
                    onClicked: page.submit()
                }

                // Recovering with the phrase.
                Label {
                    visible: page.recovering
                    text: qsTr("Type the 24 words of your recovery phrase, separated by spaces, "
                               + "then choose a new password. Your accounts stay as they are.")
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                }
                TextArea {
                    id: phrase
                    objectName: "recoveryPhraseField"
                    visible: page.recovering
                    enabled: !page.busy
                    wrapMode: TextEdit.Wrap
                    placeholderText: qsTr("word1 word2 word3 \u2026")
                    font.family: "monospace"
                    inputMethodHints: Qt.ImhSensitiveData | Qt.ImhNoPredictiveText | Qt.ImhNoAutoUppercase
                    Layout.fillWidth: true
                    Layout.preferredHeight: implicitHeight * 1.0 + 40
                    Accessible.name: qsTr("Recovery phrase")
                    onTextChanged: page.edited()
                }
                Label {
                    visible: page.recovering
                    readonly property int words: phrase.text.trim().length === 0
                                                 ? 0 : phrase.text.trim().split(/\s+/).length
                    text: qsTr("%n word(s)", "", words)
                    opacity: 0.7
                }
                TextField {
                    id: newPassword
                    objectName: "recoveryNewPassword"
                    visible: page.recovering
                    enabled: !page.busy
                    echoMode: TextInput.Password
                    placeholderText: qsTr("New password")
                    inputMethodHints: Qt.ImhSensitiveData | Qt.ImhNoPredictiveText
                    Layout.fillWidth: true
                    Accessible.name: qsTr("New vault password")
                    onAccepted: repeat.forceActiveFocus()
                    onTextEdited: page.edited()
                }
                PasswordStrengthMeter {
                    visible: page.recovering
                    score: newPassword.text.length > 0 ? page.vault.passwords.strength(newPassword.text) : -1
                    hint: newPassword.text.length > 0 ? page.vault.passwords.strengthHint(newPassword.text) : ""
                    Layout.fillWidth: true
                }
                TextField {
                    id: repeat
                    objectName: "recoveryRepeat"
                    visible: page.recovering
                    enabled: !page.busy
                    echoMode: TextInput.Password
                    placeholderText: qsTr("The same password again")
                    inputMethodHints: Qt.ImhSensitiveData | Qt.ImhNoPredictiveText
                    Layout.fillWidth: true
                    Accessible.name: qsTr("Repeat the new vault password")
                    onAccepted: page.submitRecovery()
                    onTextEdited: page.edited()
                }
                Button {
                    id: recoverButton
                    visible: page.recovering
                    text: page.busy ? qsTr("Recovering\u2026") : qsTr("Recover and set the new password")
                    highlighted: true
                    enabled: !page.busy && phrase.text.trim().length > 0
                             && newPassword.text.length > 0 && repeat.text === newPassword.text
                    Layout.fillWidth: true
                    Accessible.name: qsTr("Recover the vault with the phrase")
                    onClicked: page.submitRecovery()
                }

                ProgressBar {
                    value: page.vault.progress
                    visible: page.busy
                    Layout.fillWidth: true
                    Accessible.name: page.recovering ? qsTr("Recovery progress") : qsTr("Unlock progress")
                }
                Label {
                    text: page.vault.error
                    visible: text.length > 0
                    color: palette.window.hslLightness < 0.5 ? "#f2b8b5" : "#b3261e"
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                    Accessible.name: qsTr("Unlock error")
                }
                Button {
                    visible: !page.vault.demo
                    enabled: !page.busy
                    flat: true
                    text: page.recovering ? qsTr("Back to the password")
                                          : qsTr("Forgot the password? Use the recovery phrase")
                    Layout.alignment: Qt.AlignHCenter
                    Accessible.name: text
                    onClicked: {
                        page.vault.clearError()
                        page.recovering = !page.recovering
                        phrase.clear()
                        newPassword.clear()
                        repeat.clear()
                        if (page.recovering)
                            phrase.forceActiveFocus()
                        else
                            password.forceActiveFocus()
                    }
                }
            }
        }
    }
}
