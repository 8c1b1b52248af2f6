import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App
import Watchword.Ui

// The preferences (kept by AppSettings, applied at once) and the vault's
// password and recovery phrase (asked of the VaultController). Presentation
// only: every value shown comes from `settings`, `vault` or `backups`.
Pane {
    id: page

    required property AppSettings settings
    // The VaultController: busy, error, passwordStrength(), passwordStrengthHint(),
    // changePassword() and beginNewRecoveryPhrase().
    required property var vault
    // The BackupFolder that copies the vault after saves, for its last
    // backup and last error; null hides them.
    property var backups: null

    // "QR code" beside the sharing identity: the window shows it (its QR
    // code dialog), since this page lives in a loader of its own.
    signal identityQrRequested(string text, string fingerprint)

    readonly property var autoLockChoices: [
        { text: qsTr("1 minute"), value: 1 },
        { text: qsTr("2 minutes"), value: 2 },
        { text: qsTr("5 minutes"), value: 5 },
        { text: qsTr("10 minutes"), value: 10 },
        { text: qsTr("15 minutes"), value: 15 },
        { text: qsTr("30 minutes"), value: 30 },
        { text: qsTr("1 hour"), value: 60 },
        { text: qsTr("Never"), value: 0 },
    ]
    readonly property var clipboardChoices: [
        { text: qsTr("10 seconds"), value: 10 },
        { text: qsTr("20 seconds"), value: 20 },
        { text: qsTr("30 seconds"), value: 30 },
        { text: qsTr("45 seconds"), value: 45 },
        { text: qsTr("1 minute"), value: 60 },
        { text: qsTr("2 minutes"), value: 120 },
        { text: qsTr("Never"), value: 0 },
    ]
    // Red that reads on the light and the dark palette alike.
    readonly property color errorColor: palette.window.hslLightness < 0.5 ? "#f2b8b5" : "#b3261e"
    readonly property int passwordHints: Qt.ImhSensitiveData | Qt.ImhNoPredictiveText

    function indexOfValue(choices, value) {
        for (let i = 0; i < choices.length; ++i) {
            if (choices[i].value === value)
                return i
        }
        return -1
    }

    // The same rule AppSettings applies: a folder is a full path (or ~/...).
    function isFullPath(text) {
        const path = text.trim()
        return path === "" || path.startsWith("/") || path === "~" || path.startsWith("~/")
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

            GroupBox {
                title: qsTr("Security")
                Layout.fillWidth: true

                GridLayout {
                    anchors.fill: parent
                    columns: 2
                    columnSpacing: metrics.averageCharacterWidth * 2
                    rowSpacing: Math.round(metrics.height * 0.4)

                    Label {
                        text: qsTr("Lock after inactivity")
                    }
                    ComboBox {
                        id: autoLockBox
                        objectName: "autoLockBox"
                        model: page.autoLockChoices
                        textRole: "text"
                        currentIndex: page.indexOfValue(page.autoLockChoices, page.settings.autoLockMinutes)
                        // A time set by hand in the settings file.
                        displayText: currentIndex >= 0 ? currentText
                                                       : qsTr("%1 minutes").arg(page.settings.autoLockMinutes)
                        Layout.fillWidth: true
                        Accessible.name: qsTr("Lock after inactivity")
                        onActivated: (index) => page.settings.autoLockMinutes = page.autoLockChoices[index].value
                    }

                    Switch {
                        objectName: "sessionLockSwitch"
                        text: qsTr("Lock when the session locks or the computer sleeps")
                        checked: page.settings.lockOnSessionLock
                        Layout.columnSpan: 2
                        Layout.fillWidth: true
                        Accessible.name: text
                        onToggled: page.settings.lockOnSessionLock = checked
                    }
                    Switch {
                        objectName: "minimizeLockSwitch"
                        text: qsTr("Lock when the window is minimized")
                        checked: page.settings.lockOnMinimize
                        Layout.columnSpan: 2
                        Layout.fillWidth: true
                        Accessible.name: text
                        onToggled: page.settings.lockOnMinimize = checked
                    }
                    Switch {
                        objectName: "hideCodesSwitch"
                        text: qsTr("Hide codes until their row is clicked")
                        checked: page.settings.hideCodes
                        Layout.columnSpan: 2
                        Layout.fillWidth: true
                        Accessible.name: text
                        onToggled: page.settings.hideCodes = checked
                    }
                    Switch {
                        objectName: "desktopFileChooserSwitch"
                        text: qsTr("Use the desktop's file chooser")
                        checked: page.settings.desktopFileChooser
                        Layout.columnSpan: 2
                        Layout.fillWidth: true
                        Accessible.name: text
                        onToggled: page.settings.desktopFileChooser = checked
                    }

                    Label {
                        text: qsTr("Clear copied codes after")
                    }
                    ComboBox {
                        objectName: "clipboardBox"
                        model: page.clipboardChoices
                        textRole: "text"
                        currentIndex: page.indexOfValue(page.clipboardChoices, page.settings.clipboardSeconds)
                        displayText: currentIndex >= 0 ? currentText
                                                       : qsTr("%1 seconds").arg(page.settings.clipboardSeconds)
                        Layout.fillWidth: true
                        Accessible.name: qsTr("Clear copied codes from the clipboard after")
                        onActivated: (index) => page.settings.clipboardSeconds = page.clipboardChoices[index].value
                    }

                    Label {
                        text: qsTr("Unlock time")
                    }
                    SpinBox {
                        id: unlockTime
                        objectName: "unlockTimeBox"
                        from: 250
                        to: 10000
                        stepSize: 250
                        value: page.settings.unlockTargetMilliseconds
                        textFromValue: (value, locale) => qsTr("%1 s").arg(Number(value / 1000).toLocaleString(locale, "f", 2))
                        Layout.fillWidth: true
                        Accessible.name: qsTr("Unlock time in seconds")
                        Accessible.description: unlockTimeHelp.text
                        onValueModified: page.settings.unlockTargetMilliseconds = value
                    }
                    Label {
                        id: unlockTimeHelp
                        text: qsTr("How long unlocking takes on this computer. Watchword sets the password's key derivation cost to it when a vault is created or its password changed: longer makes guessing the password slower for an attacker too. The open vault keeps its cost until its password changes.")
                        wrapMode: Text.Wrap
                        color: page.palette.placeholderText
                        Layout.columnSpan: 2
                        Layout.fillWidth: true
                    }
                }
            }

            GroupBox {
                title: qsTr("Appearance")
                Layout.fillWidth: true

                RowLayout {
                    anchors.fill: parent
                    spacing: metrics.averageCharacterWidth * 2

                    RadioButton {
                        objectName: "themeSystem"
                        text: qsTr("Follow the system")
                        checked: page.settings.theme === "system"
                        Accessible.name: qsTr("Theme: follow the system")
                        onToggled: if (checked) page.settings.theme = "system"
                    }
                    RadioButton {
                        objectName: "themeLight"
                        text: qsTr("Light")
                        checked: page.settings.theme === "light"
                        Accessible.name: qsTr("Theme: light")
                        onToggled: if (checked) page.settings.theme = "light"
                    }
                    RadioButton {
                        objectName: "themeDark"
                        text: qsTr("Dark")
                        checked: page.settings.theme === "dark"
                        Accessible.name: qsTr("Theme: dark")
                        onToggled: if (checked) page.settings.theme = "dark"
                    }
                    Item {
                        Layout.fillWidth: true
                    }
                }
            }

            GroupBox {
                title: qsTr("Backups")
                Layout.fillWidth: true

                ColumnLayout {
                    anchors.fill: parent
                    spacing: Math.round(metrics.height * 0.4)

                    Label {
                        text: qsTr("After every save, Watchword copies the vault file, encrypted as it is, into this folder and keeps the newest 10 copies. A folder on another disk or a synced drive keeps the vault safe from a failing disk.")
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                    }
                    RowLayout {
                        Layout.fillWidth: true

                        TextField {
                            id: folderField
                            objectName: "backupFolderField"
                            text: page.settings.backupFolder
                            placeholderText: qsTr("No backups")
                            selectByMouse: true
                            Layout.fillWidth: true
                            Accessible.name: qsTr("Backup folder")
                            onEditingFinished: {
                                if (!page.isFullPath(text))
                                    return
                                page.settings.backupFolder = text
                                // Shows the folder as kept (~ expanded, tidied).
                                text = Qt.binding(() => page.settings.backupFolder)
                            }
                        }
                        Button {
                            objectName: "chooseFolderButton"
                            text: qsTr("Choose\u2026")
                            Accessible.name: qsTr("Choose the backup folder")
                            onClicked: folderDialog.ask()
                        }
                        Button {
                            objectName: "noBackupsButton"
                            text: qsTr("Turn off")
                            enabled: page.settings.backupFolder !== ""
                            Accessible.name: qsTr("Turn backups off")
                            onClicked: {
                                page.settings.backupFolder = ""
                                folderField.text = Qt.binding(() => page.settings.backupFolder)
                            }
                        }
                    }
                    Label {
                        objectName: "backupFolderHint"
                        visible: !page.isFullPath(folderField.text)
                        text: qsTr("Give the folder's full path, such as /media/usb/watchword.")
                        color: page.errorColor
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                    }
                    Label {
                        objectName: "lastBackupLabel"
                        visible: page.backups !== null && page.backups.lastBackup !== ""
                        text: page.backups ? qsTr("Last backup: %1").arg(page.backups.lastBackup) : ""
                        elide: Text.ElideMiddle
                        color: page.palette.placeholderText
                        Layout.fillWidth: true
                        Accessible.name: text
                    }
                    Label {
                        objectName: "backupErrorLabel"
                        visible: text !== ""
                        text: page.backups ? page.backups.lastError : ""
                        color: page.errorColor
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                        Accessible.name: qsTr("Backup error: %1").arg(text)
                    }
                }
            }

            GroupBox {
                title: qsTr("Password and recovery")
                Layout.fillWidth: true

                ColumnLayout {
                    anchors.fill: parent
                    spacing: Math.round(metrics.height * 0.4)

                    RowLayout {
                        Button {
                            objectName: "changePasswordButton"
                            text: qsTr("Change password\u2026")
                            // Both need the open vault (and the demo has no phrase).
                            enabled: !page.vault.busy && page.vault.state === VaultController.Unlocked
                            Accessible.name: qsTr("Change the vault password")
                            onClicked: passwordDialog.open()
                        }
                        Button {
                            objectName: "recoveryPhraseButton"
                            text: qsTr("New recovery phrase\u2026")
                            enabled: !page.vault.busy && page.vault.state === VaultController.Unlocked
                                     && !page.vault.demo
                            Accessible.name: qsTr("Show a new recovery phrase")
                            onClicked: recoveryDialog.open()
                        }
                        BusyIndicator {
                            running: page.vault.busy
                            visible: running
                            Layout.preferredHeight: metrics.height * 2
                            Layout.preferredWidth: metrics.height * 2
                            Accessible.name: qsTr("Working")
                        }
                    }
                    RowLayout {
                        visible: page.vault.phrase.recoveryFingerprint !== ""
                        Layout.fillWidth: true
                        Label {
                            objectName: "recoveryFingerprintLabel"
                            text: qsTr("Recovery key fingerprint: %1").arg(page.vault.phrase.recoveryFingerprint)
                            wrapMode: Text.Wrap
                            Layout.fillWidth: true
                            Accessible.name: text
                            ToolTip.visible: fingerprintHover.hovered
                            ToolTip.text: qsTr("It must match the fingerprint written down with your recovery phrase: if it does not, that phrase no longer opens the vault.")
                            HoverHandler { id: fingerprintHover }
                        }
                        Button {
                            objectName: "checkPhraseButton"
                            text: qsTr("Check a recovery phrase\u2026")
                            enabled: page.vault.state === VaultController.Unlocked
                            Accessible.name: qsTr("Check whether a recovery phrase opens the vault")
                            onClicked: checkPhraseDialog.open()
                        }
                    }
                    Label {
                        id: doneLabel
                        objectName: "vaultDoneLabel"
                        visible: text !== "" && doneTimer.running
                        wrapMode: Text.Wrap
                        font.bold: true
                        Layout.fillWidth: true
                        Accessible.name: text
                        Timer {
                            id: doneTimer
                            interval: 8000
                        }
                    }
                    Label {
                        objectName: "vaultErrorLabel"
                        visible: text !== "" && !passwordDialog.visible && !recoveryDialog.visible
                        text: page.vault.error
                        color: page.errorColor
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                        Accessible.name: qsTr("Error: %1").arg(text)
                    }
                }
            }

            GroupBox {
                title: qsTr("Your sharing identity")
                visible: page.vault.state === VaultController.Unlocked
                Layout.fillWidth: true

                ColumnLayout {
                    anchors.fill: parent
                    spacing: Math.round(metrics.height * 0.4)

                    Label {
                        text: page.vault.identity.available
                              ? qsTr("Give this to the people who will share accounts and notes with you, and compare the eight words with them by another channel (aloud, side by side).")
                              : qsTr("This vault was made by an earlier version and has no sharing identity yet: check your recovery phrase (above) to set it up.")
                        wrapMode: Text.Wrap
                        color: page.palette.placeholderText
                        Layout.fillWidth: true
                    }
                    RowLayout {
                        visible: page.vault.identity.available
                        Layout.fillWidth: true
                        TextField {
                            id: identityField
                            objectName: "identityText"
                            text: page.vault.identity.text
                            readOnly: true
                            selectByMouse: true
                            font.family: "monospace"
                            Layout.fillWidth: true
                            Accessible.name: qsTr("Your identity: %1").arg(text)
                        }
                        Button {
                            objectName: "copyIdentityButton"
                            text: qsTr("Copy")
                            Accessible.name: qsTr("Copy your identity")
                            onClicked: {
                                identityField.selectAll()
                                identityField.copy()
                                identityField.deselect()
                                copiedTimer.restart()
                            }
                        }
                        Button {
                            objectName: "identityQrButton"
                            text: qsTr("QR code")
                            Accessible.name: qsTr("Show your identity as a QR code")
                            onClicked: page.identityQrRequested(page.vault.identity.text,
                                                            page.vault.identity.fingerprint)
                        }
                        Label {
                            objectName: "identityCopiedLabel"
                            visible: copiedTimer.running
                            text: qsTr("Copied")
                            Timer {
                                id: copiedTimer
                                interval: 3000
                            }
                        }
                    }
                    Label {
                        objectName: "identityFingerprintLabel"
                        visible: page.vault.identity.available
                        text: qsTr("Fingerprint: %1").arg(page.vault.identity.fingerprint)
                        font.bold: true
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                        Accessible.name: text
                    }
                }
            }
        }
    }

    FilePicker {
        id: folderDialog
        title: qsTr("Backup folder")
        fileMode: FilePicker.Folder
        currentFolder: page.settings.backupFolderUrl
        onAccepted: page.settings.backupFolderUrl = selectedFile
    }

    // Runs a vault operation from a dialog: the dialog closes when the vault is done without an error, or
    // stays open showing it. (An inline component does not see this file's
    // ids: what it needs comes in as properties.)
    component VaultDialog: Dialog {
        id: vaultDialog

        property var vault
        property bool waiting: false
        property string problem: ""
        // The dialog sits on the window's overlay, with the window's palette.
        readonly property color errorColor: palette.window.hslLightness < 0.5 ? "#f2b8b5" : "#b3261e"

        function run(operation) {
            problem = ""
            waiting = true
            // Refused at once (error set, nothing started) or started (busy).
            operation()
            settle()
        }
        function settle() {
            if (!waiting || vault.busy)
                return
            waiting = false
            if (vault.error === "") {
                close()
                succeeded()
            } else {
                problem = vault.error
            }
        }
        signal succeeded()

        parent: Overlay.overlay
        anchors.centerIn: parent
        modal: true
        focus: true
        onAboutToShow: {
            // An earlier operation's error is not this one's.
            if (typeof vault.clearError === "function")
                vault.clearError()
        }
        onClosed: {
            waiting = false
            problem = ""
        }

        Connections {
            target: vaultDialog.vault
            function onBusyChanged() {
                // The controller sets the outcome's error just after it
                // stops being busy: look once it is done.
                if (!vaultDialog.vault.busy)
                    Qt.callLater(vaultDialog.settle)
            }
        }
    }

    VaultDialog {
        id: passwordDialog
        objectName: "changePasswordDialog"
        title: qsTr("Change password")
        vault: page.vault
        onSucceeded: {
            doneLabel.text = qsTr("\u2713 Password changed. The vault now opens with the new one.")
            doneTimer.restart()
        }
        width: Math.min(page.width, metrics.averageCharacterWidth * 64)

        readonly property int strength: newPassword.text === "" ? -1
                                        : page.vault.passwords.strength(newPassword.text)
        readonly property bool mismatch: repeatPassword.text !== ""
                                         && repeatPassword.text !== newPassword.text
        readonly property bool ready: currentPassword.text !== "" && newPassword.text !== ""
                                      && repeatPassword.text === newPassword.text
                                      && !page.vault.busy

        function submit() {
            if (page.vault.busy || currentPassword.text === "" || newPassword.text === "")
                return
            if (newPassword.text !== repeatPassword.text) {
                passwordDialog.problem = qsTr("The new passwords do not match.")
                repeatPassword.forceActiveFocus()
                return
            }
            // The fields keep what was typed until the dialog closes: a wrong
            // current password or a weak new one is corrected, not retyped.
            passwordDialog.run(() => page.vault.passwords.change(currentPassword.text,
                                                              newPassword.text,
                                                              repeatPassword.text))
        }

        onOpened: currentPassword.forceActiveFocus()
        onClosed: {
            currentPassword.clear()
            newPassword.clear()
            repeatPassword.clear()
        }

        ColumnLayout {
            anchors.fill: parent
            spacing: Math.round(metrics.height * 0.4)

            Label {
                text: qsTr("From now on the vault opens with the new password. Your recovery phrase keeps working.")
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            TextField {
                id: currentPassword
                onTextEdited: passwordDialog.problem = ""
                objectName: "currentPasswordField"
                echoMode: TextInput.Password
                inputMethodHints: page.passwordHints
                placeholderText: qsTr("Current password")
                enabled: !page.vault.busy
                Layout.fillWidth: true
                Accessible.name: qsTr("Current password")
                onAccepted: newPassword.forceActiveFocus()
            }
            TextField {
                id: newPassword
                onTextEdited: passwordDialog.problem = ""
                objectName: "newPasswordField"
                echoMode: TextInput.Password
                inputMethodHints: page.passwordHints
                placeholderText: qsTr("New password")
                enabled: !page.vault.busy
                Layout.fillWidth: true
                Accessible.name: qsTr("New password")
                Accessible.description: strengthMeter.hint
                onAccepted: repeatPassword.forceActiveFocus()
            }
            PasswordStrengthMeter {
                id: strengthMeter
                objectName: "strengthMeter"
                visible: newPassword.text !== ""
                score: newPassword.text === "" ? -1 : passwordDialog.strength
                hint: newPassword.text === "" ? "" : page.vault.passwords.strengthHint(newPassword.text)
                Layout.fillWidth: true
            }
            TextField {
                id: repeatPassword
                onTextEdited: passwordDialog.problem = ""
                objectName: "repeatPasswordField"
                echoMode: TextInput.Password
                inputMethodHints: page.passwordHints
                placeholderText: qsTr("New password again")
                enabled: !page.vault.busy
                Layout.fillWidth: true
                Accessible.name: qsTr("Repeat the new password")
                onAccepted: passwordDialog.submit()
            }
            Label {
                objectName: "mismatchLabel"
                visible: passwordDialog.mismatch
                text: qsTr("The new passwords do not match.")
                color: passwordDialog.errorColor
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            Label {
                objectName: "passwordProblemLabel"
                visible: text !== "" && !passwordDialog.mismatch
                text: passwordDialog.problem
                color: passwordDialog.errorColor
                wrapMode: Text.Wrap
                Layout.fillWidth: true
                Accessible.name: qsTr("Error: %1").arg(text)
            }
        }

        footer: DialogButtonBox {
            Button {
                objectName: "changePasswordConfirm"
                text: page.vault.busy ? qsTr("Changing\u2026") : qsTr("Change password")
                enabled: passwordDialog.ready
                DialogButtonBox.buttonRole: DialogButtonBox.ActionRole
                Accessible.name: qsTr("Change the password now")
                onClicked: passwordDialog.submit()
            }
            Button {
                text: qsTr("Cancel")
                DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
                Accessible.name: qsTr("Cancel the password change")
            }
        }
    }

    VaultDialog {
        id: recoveryDialog
        objectName: "recoveryDialog"
        title: qsTr("New recovery phrase")
        vault: page.vault
        width: Math.min(page.width, metrics.averageCharacterWidth * 64)

        function submit() {
            if (page.vault.busy || recoveryPassword.text === "")
                return
            const password = recoveryPassword.text
            recoveryPassword.clear()
            recoveryDialog.run(() => page.vault.phrase.beginNewRecoveryPhrase(password))
        }

        onOpened: recoveryPassword.forceActiveFocus()
        onClosed: recoveryPassword.clear()

        ColumnLayout {
            anchors.fill: parent
            spacing: Math.round(metrics.height * 0.4)

            Label {
                objectName: "recoveryExplanation"
                text: qsTr("Watchword never stores your recovery phrase, so it cannot show the one you wrote down. It can make a new one: the new phrase is shown once, and from then on the old phrase no longer opens the vault. Write the new one down and keep it somewhere safe.")
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            TextField {
                id: recoveryPassword
                onTextEdited: recoveryDialog.problem = ""
                objectName: "recoveryPasswordField"
                echoMode: TextInput.Password
                inputMethodHints: page.passwordHints
                placeholderText: qsTr("Vault password")
                enabled: !page.vault.busy
                Layout.fillWidth: true
                Accessible.name: qsTr("Vault password, to make a new recovery phrase")
                onAccepted: recoveryDialog.submit()
            }
            Label {
                objectName: "recoveryProblemLabel"
                visible: text !== ""
                text: recoveryDialog.problem
                color: recoveryDialog.errorColor
                wrapMode: Text.Wrap
                Layout.fillWidth: true
                Accessible.name: qsTr("Error: %1").arg(text)
            }
        }

        footer: DialogButtonBox {
            Button {
                objectName: "recoveryConfirm"
                text: qsTr("Make a new phrase")
                enabled: recoveryPassword.text !== "" && !page.vault.busy
                DialogButtonBox.buttonRole: DialogButtonBox.ActionRole
                Accessible.name: qsTr("Make a new recovery phrase")
                onClicked: recoveryDialog.submit()
            }
            Button {
                text: qsTr("Cancel")
                DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
                Accessible.name: qsTr("Cancel the new recovery phrase")
            }
        }
    }

    Dialog {
        id: checkPhraseDialog
        objectName: "checkPhraseDialog"
        title: qsTr("Check a recovery phrase")
        parent: Overlay.overlay
        anchors.centerIn: parent
        modal: true
        width: Math.min(page.width, metrics.averageCharacterWidth * 64)

        onOpened: {
            page.vault.phrase.clearPhraseCheck()
            phraseField.forceActiveFocus()
        }
        onClosed: {
            phraseField.clear()
            page.vault.phrase.clearPhraseCheck()
        }

        ColumnLayout {
            anchors.fill: parent
            spacing: Math.round(metrics.height * 0.4)

            Label {
                text: qsTr("Type the phrase you wrote down. Watchword compares its recovery key with the vault's; no password is needed. A vault made by an earlier version also gets its sharing identity from the right phrase; nothing else is changed.")
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            TextField {
                id: phraseField
                objectName: "checkPhraseField"
                echoMode: TextInput.Password
                inputMethodHints: page.passwordHints
                placeholderText: qsTr("Recovery phrase (12 or 24 words)")
                Layout.fillWidth: true
                Accessible.name: qsTr("Recovery phrase to check")
                onTextEdited: page.vault.phrase.clearPhraseCheck()
                onAccepted: checkPhraseDialog.check()
            }
            Label {
                objectName: "phraseCheckLabel"
                visible: text !== ""
                text: page.vault.phrase.phraseCheck
                // The dialog sits on the window's overlay, with the window's palette.
                color: page.vault.phrase.phraseMatches
                       ? palette.windowText
                       : (palette.window.hslLightness < 0.5 ? "#f2b8b5" : "#b3261e")
                font.bold: page.vault.phrase.phraseMatches
                wrapMode: Text.Wrap
                Layout.fillWidth: true
                Accessible.name: text
            }
        }

        function check() {
            if (phraseField.text === "")
                return
            const phrase = phraseField.text
            phraseField.clear()
            page.vault.phrase.checkRecoveryPhrase(phrase)
        }

        footer: DialogButtonBox {
            Button {
                objectName: "checkPhraseConfirm"
                text: qsTr("Check")
                enabled: phraseField.text !== ""
                DialogButtonBox.buttonRole: DialogButtonBox.ActionRole
                Accessible.name: qsTr("Check the recovery phrase")
                onClicked: checkPhraseDialog.check()
            }
            Button {
                text: qsTr("Close")
                DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
                Accessible.name: qsTr("Close the recovery phrase check")
            }
        }
    }
}
