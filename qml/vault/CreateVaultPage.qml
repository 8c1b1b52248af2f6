import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App
import Watchword.Ui

// The first run: no vault at the path yet. A password typed twice (with a
// strength hint), then the recovery phrase, shown once and confirmed, then
// the vault is created (the calibrated KDF runs on a worker, with progress).
Item {
    id: page

    required property var vault
    readonly property bool creating: vault.state === VaultController.Unlocking
    readonly property bool phraseShown: vault.phrase.recoveryWords.length > 0

    // The keys go to the first field at once.
    Component.onCompleted: Qt.callLater(() => {
        if (!page.phraseShown)
            password.forceActiveFocus()
    })

    function submit() {
        if (!continueButton.enabled)
            return
        // The controller wipes its copies; the fields forget their own.
        if (page.vault.phrase.beginCreate(password.text, repeat.text)) {
            password.clear()
            repeat.clear()
        }
    }

    ScrollView {
        anchors.fill: parent
        contentWidth: availableWidth

        ColumnLayout {
            width: Math.min(parent.width - 48, 560)
            x: (parent.width - width) / 2
            spacing: 12

            Item { implicitHeight: 16 }

            // Step 1: the password.
            ColumnLayout {
                visible: !page.phraseShown && !page.creating
                spacing: 12
                Layout.fillWidth: true

                Label {
                    text: qsTr("Create your vault")
                    font.pixelSize: Qt.application.font.pixelSize * 1.6
                    font.bold: true
                    Layout.fillWidth: true
                }
                Label {
                    text: qsTr("Your accounts and notes are kept encrypted in one file:")
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                }
                Label {
                    text: page.vault.path
                    elide: Text.ElideMiddle
                    font.family: "monospace"
                    opacity: 0.8
                    Layout.fillWidth: true
                }
                Label {
                    text: qsTr("Choose a password only you know. Several unrelated words are easy "
                               + "to remember and hard to guess. Next you get a recovery phrase "
                               + "for the day you forget it.")
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                }
                TextField {
                    id: password
                    echoMode: TextInput.Password
                    placeholderText: qsTr("Password")
                    focus: true
                    enabled: !page.vault.busy
                    inputMethodHints: Qt.ImhSensitiveData | Qt.ImhNoPredictiveText
                    Layout.fillWidth: true
                    Accessible.name: qsTr("New vault password")
                    onAccepted: repeat.forceActiveFocus()
                }
                PasswordStrengthMeter {
                    score: password.text.length > 0 ? page.vault.passwords.strength(password.text) : -1
                    hint: password.text.length > 0 ? page.vault.passwords.strengthHint(password.text) : ""
                    Layout.fillWidth: true
                }
                TextField {
                    id: repeat
                    echoMode: TextInput.Password
                    placeholderText: qsTr("The same password again")
                    enabled: !page.vault.busy
                    inputMethodHints: Qt.ImhSensitiveData | Qt.ImhNoPredictiveText
                    Layout.fillWidth: true
                    Accessible.name: qsTr("Repeat the new vault password")
                    onAccepted: page.submit()
                }
                Label {
                    text: qsTr("The two passwords are not the same yet.")
                    visible: repeat.text.length > 0 && repeat.text !== password.text
                    opacity: 0.8
                    Layout.fillWidth: true
                }
                Button {
                    id: continueButton
                    text: page.vault.busy ? qsTr("Making your recovery phrase\u2026") : qsTr("Continue")
                    highlighted: true
                    enabled: !page.vault.busy && password.text.length > 0
                             && repeat.text === password.text
                    Layout.fillWidth: true
                    Accessible.name: qsTr("Continue to the recovery phrase")
                    onClicked: page.submit()
                }
                Label {
                    text: page.vault.error
                    visible: text.length > 0
                    color: palette.window.hslLightness < 0.5 ? "#f2b8b5" : "#b3261e"
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                    Accessible.name: qsTr("Error")
                }
                // Already have one (a backup, another computer's copy)?
                Button {
                    objectName: "adoptVaultButton"
                    text: qsTr("Use an existing vault file\u2026")
                    flat: true
                    enabled: !page.vault.busy
                    Layout.alignment: Qt.AlignHCenter
                    Accessible.name: qsTr("Use an existing vault file: it is copied here and opens with its password")
                    onClicked: vaultFilePicker.ask()
                }
                Label {
                    text: qsTr("Accounts from another app (Aegis, 2FAS, andOTP, Bitwarden, Google Authenticator\u2026) are imported once the vault is made: \u22ee \u2192 Import.")
                          + "\n" + qsTr("Just looking? Start Watchword with --demo for a vault of sample accounts.")
                    wrapMode: Text.Wrap
                    opacity: 0.7
                    Layout.fillWidth: true
                }
            }

            // Step 2: the phrase, shown and confirmed.
            RecoveryPhrasePanel {
                visible: page.phraseShown && !page.creating
                vault: page.vault
                Layout.fillWidth: true
            }

            // Step 3: creating.
            ColumnLayout {
                visible: page.creating
                spacing: 12
                Layout.fillWidth: true
                Label {
                    text: qsTr("Creating your vault\u2026")
                    font.pixelSize: Qt.application.font.pixelSize * 1.4
                    font.bold: true
                    Layout.fillWidth: true
                }
                Label {
                    text: qsTr("Measuring this computer to make guessing your password as slow as "
                               + "your unlock time allows.")
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                }
                ProgressBar {
                    value: page.vault.progress
                    Layout.fillWidth: true
                    Accessible.name: qsTr("Progress of creating the vault")
                }
            }
        }
    }

    FilePicker {
        id: vaultFilePicker
        title: qsTr("Choose a vault file")
        fileMode: FilePicker.OpenFile
        nameFilters: [qsTr("Watchword vaults (*.wwv)"), qsTr("All files (*)")]
        onAccepted: page.vault.adoptVaultFile(selectedFile)
    }
}
