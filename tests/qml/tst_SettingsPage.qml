import QtQuick
import QtQuick.Controls
import QtTest
import Watchword.App
import Watchword.Ui

// The settings page against the real AppSettings (a temporary file the test
// setup provides as `testSettings`) and a stand-in for the VaultController
// that records what it is asked.
Item {
    id: root
    width: 720
    height: 900

    TestCase {
        id: testCase
        name: "SettingsPage"
        when: windowShown

        Component {
            id: fakeVaultComponent
            QtObject {
                id: fakeVault
                property int state: VaultController.Unlocked
                property bool demo: false
                property bool busy: false
                property string error: ""
                property var calls: []
                // What the next operation ends in; with slow, it stays busy
                // until finish().
                property string failWith: ""
                property bool slow: false

                function record(name, args) {
                    calls = calls.concat([{ name: name, args: args }])
                    error = ""
                    if (slow) {
                        busy = true
                        return true
                    }
                    error = failWith
                    return failWith === ""
                }
                property QtObject passwords: QtObject {
                    function strength(text) {
                        return Math.min(4, Math.floor(text.length / 4))
                    }
                    function strengthHint(text) {
                        return text.length < 12 ? "Add another word or two" : ""
                    }
                    function change(current, chosen, repeated) {
                        return fakeVault.record("changePassword", [current, chosen, repeated])
                    }
                }
                // The recovery key and the phrase check, as the controller
                // answers them: the phrase "right words" matches.
                property QtObject phrase: QtObject {
                    property string recoveryFingerprint: "DA30 2939 EB46 62CC DCEB"
                    property string phraseCheck: ""
                    property bool phraseMatches: false
                    function beginNewRecoveryPhrase(password) {
                        return fakeVault.record("beginNewRecoveryPhrase", [password])
                    }
                    function checkRecoveryPhrase(phrase) {
                        fakeVault.calls = fakeVault.calls.concat([{ name: "checkRecoveryPhrase", args: [phrase] }])
                        phraseMatches = phrase === "right words"
                        phraseCheck = phraseMatches ? "This phrase opens the vault (recovery key DA30 2939 EB46 62CC DCEB)."
                                                    : "This phrase does not open the vault: its recovery key is 0000 1111 2222 3333 4444."
                    }
                    function clearPhraseCheck() {
                        phraseCheck = ""
                        phraseMatches = false
                    }
                }
                // The sharing identity as SharingIdentity shows it.
                property QtObject identity: QtObject {
                    property bool available: true
                    property string text: "watchword-id:ww1q0l59n7eg2zpur9hng2ey2pqscwuc93pdtny3gmaxevaxyfay520cewspg5"
                    property string fingerprint: "quit problem truck delay exchange maze fence essay"
                }
                // As the controller does it: not busy first, then the error.
                function finish() {
                    busy = false
                    error = failWith
                }
                function clearError() {
                    error = ""
                }
            }
        }

        Component {
            id: fakeBackupsComponent
            QtObject {
                property string lastError: ""
                property string lastBackup: ""
            }
        }

        Component {
            id: pageComponent
            SettingsPage {
                width: root.width
                height: root.height
            }
        }

        property var vault: null

        function init() {
            failOnWarning(/.*/)
            testSettings.autoLockMinutes = 5
            testSettings.lockOnSessionLock = true
            testSettings.lockOnMinimize = false
            testSettings.clipboardSeconds = 30
            testSettings.theme = "system"
            testSettings.unlockTargetMilliseconds = 1000
            testSettings.backupFolder = ""
            vault = createTemporaryObject(fakeVaultComponent, testCase)
        }

        function makePage(extra) {
            const properties = Object.assign({ settings: testSettings, vault: vault }, extra || {})
            const page = createTemporaryObject(pageComponent, root, properties)
            verify(page)
            return page
        }

        function child(page, name) {
            const item = findChild(page, name)
            verify(item, name)
            return item
        }

        function type(item, text) {
            item.forceActiveFocus()
            for (let i = 0; i < text.length; ++i)
                keyClick(text[i])
        }

        function openDialog(page, buttonName, dialogName) {
            const dialog = child(page, dialogName)
            mouseClick(child(page, buttonName))
            tryCompare(dialog, "opened", true)
            return dialog
        }

        function test_autoLockChoices() {
            const page = makePage()
            const box = child(page, "autoLockBox")
            compare(box.currentText, "5 minutes")
            box.forceActiveFocus()
            keyClick(Qt.Key_Down)
            compare(testSettings.autoLockMinutes, 10)
            keyClick(Qt.Key_End)
            compare(testSettings.autoLockMinutes, 0)
            compare(box.displayText, "Never")
            // The settings change elsewhere: the box follows.
            testSettings.autoLockMinutes = 60
            compare(box.displayText, "1 hour")
            // A time set by hand in the file, not one of the choices.
            testSettings.autoLockMinutes = 7
            compare(box.currentIndex, -1)
            compare(box.displayText, "7 minutes")
        }

        function test_lockSwitches() {
            const page = makePage()
            const session = child(page, "sessionLockSwitch")
            const minimize = child(page, "minimizeLockSwitch")
            verify(session.checked)
            verify(!minimize.checked)
            mouseClick(session)
            compare(testSettings.lockOnSessionLock, false)
            mouseClick(minimize)
            compare(testSettings.lockOnMinimize, true)
            testSettings.lockOnSessionLock = true
            verify(session.checked)
        }

        function test_clipboardChoices() {
            const page = makePage()
            const box = child(page, "clipboardBox")
            compare(box.currentText, "30 seconds")
            box.forceActiveFocus()
            keyClick(Qt.Key_Up)
            compare(testSettings.clipboardSeconds, 20)
            keyClick(Qt.Key_End)
            compare(testSettings.clipboardSeconds, 0)
            compare(box.displayText, "Never")
        }

        function test_unlockTime() {
            const page = makePage()
            const spin = child(page, "unlockTimeBox")
            compare(spin.value, 1000)
            spin.forceActiveFocus()
            keyClick(Qt.Key_Up)
            compare(testSettings.unlockTargetMilliseconds, 1250)
            keyClick(Qt.Key_Down)
            keyClick(Qt.Key_Down)
            compare(testSettings.unlockTargetMilliseconds, 750)
            // The bounds are the settings' bounds.
            compare(spin.from, 250)
            compare(spin.to, 10000)
            testSettings.unlockTargetMilliseconds = 4000
            compare(spin.value, 4000)
        }

        function test_theme() {
            const page = makePage()
            verify(child(page, "themeSystem").checked)
            mouseClick(child(page, "themeDark"))
            compare(testSettings.theme, "dark")
            mouseClick(child(page, "themeLight"))
            compare(testSettings.theme, "light")
            verify(!child(page, "themeDark").checked)
            testSettings.theme = "system"
            verify(child(page, "themeSystem").checked)
            verify(!child(page, "themeLight").checked)
        }

        function test_backupFolderTyped() {
            const page = makePage()
            const field = child(page, "backupFolderField")
            const hint = child(page, "backupFolderHint")
            const off = child(page, "noBackupsButton")
            verify(!off.enabled)
            type(field, "backups")
            keyClick(Qt.Key_Return)
            // A relative path is refused, and the page says why.
            compare(testSettings.backupFolder, "")
            verify(hint.visible)

            field.selectAll()
            type(field, "/media/usb//watchword/")
            keyClick(Qt.Key_Return)
            compare(testSettings.backupFolder, "/media/usb/watchword")
            compare(field.text, "/media/usb/watchword")
            verify(!hint.visible)
            verify(off.enabled)
            mouseClick(off)
            compare(testSettings.backupFolder, "")
            compare(field.text, "")
            // Chosen elsewhere (the folder dialog sets the URL form).
            testSettings.backupFolderUrl = "file:///srv/backups"
            compare(field.text, "/srv/backups")
        }

        function test_backupStatus() {
            const backups = createTemporaryObject(fakeBackupsComponent, testCase)
            const page = makePage({ backups: backups })
            const error = child(page, "backupErrorLabel")
            const last = child(page, "lastBackupLabel")
            verify(!error.visible)
            verify(!last.visible)
            backups.lastError = "The backup folder /media/usb does not exist."
            verify(error.visible)
            compare(error.text, backups.lastError)
            backups.lastError = ""
            backups.lastBackup = "/media/usb/watchword-20240309-140507.wwv"
            verify(!error.visible)
            verify(last.visible)
            verify(last.text.indexOf("watchword-20240309-140507.wwv") >= 0, last.text)
        }

        function test_passwordFieldsAreSecret() {
            const page = makePage()
            for (const name of ["currentPasswordField", "newPasswordField", "repeatPasswordField",
                                "recoveryPasswordField"]) {
                const field = child(page, name)
                compare(field.echoMode, TextInput.Password, name)
                verify(field.inputMethodHints & Qt.ImhSensitiveData, name)
                verify(field.inputMethodHints & Qt.ImhNoPredictiveText, name)
            }
        }

        function test_changePasswordValidatesTheRepeat() {
            const page = makePage()
            const dialog = openDialog(page, "changePasswordButton", "changePasswordDialog")
            const confirm = child(page, "changePasswordConfirm")
            const mismatch = child(page, "mismatchLabel")
            verify(!confirm.enabled)
            type(child(page, "currentPasswordField"), "old secret")
            type(child(page, "newPasswordField"), "correct horse")
            type(child(page, "repeatPasswordField"), "correct hose")
            verify(mismatch.visible)
            verify(!confirm.enabled)
            // Enter in the last field does not get past the check either.
            keyClick(Qt.Key_Return)
            compare(vault.calls.length, 0)
            verify(dialog.opened)

            const repeat = child(page, "repeatPasswordField")
            repeat.selectAll()
            type(repeat, "correct horse")
            verify(!mismatch.visible)
            verify(confirm.enabled)
            mouseClick(confirm)
            compare(vault.calls.length, 1)
            compare(vault.calls[0].name, "changePassword")
            compare(vault.calls[0].args, ["old secret", "correct horse", "correct horse"])
            // Done, it closes, and nothing of the passwords stays in the fields.
            tryCompare(dialog, "visible", false)
            compare(child(page, "currentPasswordField").text, "")
            compare(child(page, "newPasswordField").text, "")
            compare(repeat.text, "")
            // It says so.
            verify(child(page, "vaultDoneLabel").visible)
        }

        function test_changePasswordStrength() {
            const page = makePage()
            openDialog(page, "changePasswordButton", "changePasswordDialog")
            const meter = child(page, "strengthMeter")
            verify(!meter.visible)
            type(child(page, "newPasswordField"), "horse")
            verify(meter.visible)
            // The fake rates 5 characters 1, with its hint for short ones.
            compare(meter.score, 1)
            compare(meter.hint, "Add another word or two")
            type(child(page, "newPasswordField"), " battery staple")
            compare(meter.score, 4)
            compare(meter.hint, "")
        }

        function test_changePasswordShowsTheVaultError() {
            vault.failWith = "The current password is not right."
            const page = makePage()
            const dialog = openDialog(page, "changePasswordButton", "changePasswordDialog")
            type(child(page, "currentPasswordField"), "guess")
            type(child(page, "newPasswordField"), "new one")
            type(child(page, "repeatPasswordField"), "new one")
            keyClick(Qt.Key_Return)
            compare(vault.calls.length, 1)
            // It stays open with the error, the fields as typed for a fix.
            verify(dialog.opened)
            const problem = child(page, "passwordProblemLabel")
            verify(problem.visible)
            compare(problem.text, "The current password is not right.")
            compare(child(page, "currentPasswordField").text, "guess")
            compare(child(page, "newPasswordField").text, "new one")
            compare(child(page, "repeatPasswordField").text, "new one")
            // Typing again clears the old error.
            type(child(page, "currentPasswordField"), "x")
            verify(!problem.visible)
        }

        function test_changePasswordWaitsWhileBusy() {
            vault.slow = true
            const page = makePage()
            const button = child(page, "changePasswordButton")
            const dialog = openDialog(page, "changePasswordButton", "changePasswordDialog")
            type(child(page, "currentPasswordField"), "old secret")
            type(child(page, "newPasswordField"), "new secret")
            type(child(page, "repeatPasswordField"), "new secret")
            mouseClick(child(page, "changePasswordConfirm"))
            verify(vault.busy)
            // Deriving the new key: the dialog waits, nothing can be sent twice.
            verify(dialog.opened)
            verify(!child(page, "changePasswordConfirm").enabled)
            verify(!child(page, "currentPasswordField").enabled)
            verify(!button.enabled)
            verify(!child(page, "recoveryPhraseButton").enabled)
            vault.finish()
            tryCompare(dialog, "visible", false)
            verify(button.enabled)
        }

        function test_newRecoveryPhrase() {
            const page = makePage()
            const dialog = openDialog(page, "recoveryPhraseButton", "recoveryDialog")
            const explanation = child(page, "recoveryExplanation")
            verify(explanation.text.indexOf("never stores") >= 0, explanation.text)
            verify(explanation.text.indexOf("shown once") >= 0, explanation.text)
            verify(explanation.text.indexOf("old phrase no longer opens") >= 0, explanation.text)
            const confirm = child(page, "recoveryConfirm")
            verify(!confirm.enabled)
            const field = child(page, "recoveryPasswordField")
            type(field, "my password")
            verify(confirm.enabled)
            keyClick(Qt.Key_Return)
            compare(vault.calls.length, 1)
            compare(vault.calls[0].name, "beginNewRecoveryPhrase")
            compare(vault.calls[0].args, ["my password"])
            compare(field.text, "")
            tryCompare(dialog, "visible", false)
        }

        function test_checkRecoveryPhrase() {
            const page = makePage()
            compare(child(page, "recoveryFingerprintLabel").text,
                    "Recovery key fingerprint: DA30 2939 EB46 62CC DCEB")
            const dialog = openDialog(page, "checkPhraseButton", "checkPhraseDialog")
            const field = child(page, "checkPhraseField")
            compare(field.echoMode, TextInput.Password)
            const answer = child(page, "phraseCheckLabel")
            verify(!answer.visible)
            type(field, "wrong words")
            keyClick(Qt.Key_Return)
            compare(vault.calls[vault.calls.length - 1].args, ["wrong words"])
            compare(field.text, "")
            verify(answer.visible)
            verify(answer.text.indexOf("does not open") >= 0, answer.text)
            verify(!answer.font.bold)
            // Typing again clears the old answer; the right phrase says so.
            type(field, "right words")
            verify(!answer.visible)
            mouseClick(child(page, "checkPhraseConfirm"))
            verify(answer.text.indexOf("opens the vault") >= 0, answer.text)
            verify(answer.font.bold)
            dialog.close()
            tryCompare(dialog, "visible", false)
            compare(vault.phrase.phraseCheck, "")
        }

        function test_slowFailureKeepsTheDialogOpen() {
            vault.slow = true
            vault.failWith = "The password is wrong."
            const page = makePage()
            const dialog = openDialog(page, "recoveryPhraseButton", "recoveryDialog")
            type(child(page, "recoveryPasswordField"), "wrong")
            keyClick(Qt.Key_Return)
            verify(vault.busy)
            vault.finish()
            // The error comes just after busy ends: the dialog must wait for it.
            tryCompare(child(page, "recoveryProblemLabel"), "text", "The password is wrong.")
            verify(dialog.opened)
        }

        function test_openingForgetsAnEarlierError() {
            vault.error = "Unlock the vault first."
            const page = makePage()
            verify(child(page, "vaultErrorLabel").visible)
            openDialog(page, "changePasswordButton", "changePasswordDialog")
            compare(vault.error, "")
        }

        function test_newRecoveryPhraseWrongPassword() {
            vault.failWith = "The password is not right."
            const page = makePage()
            const dialog = openDialog(page, "recoveryPhraseButton", "recoveryDialog")
            type(child(page, "recoveryPasswordField"), "wrong")
            mouseClick(child(page, "recoveryConfirm"))
            compare(vault.calls.length, 1)
            verify(dialog.opened)
            compare(child(page, "recoveryProblemLabel").text, "The password is not right.")
            // Cancelled, the dialog forgets the error; the page still shows
            // the vault's.
            dialog.reject()
            tryCompare(dialog, "visible", false)
            compare(dialog.problem, "")
            verify(child(page, "vaultErrorLabel").visible)
        }

        function test_sharingIdentity() {
            const page = makePage()
            // Shown with its fingerprint; Copy answers (the end-to-end test
            // reads the clipboard).
            tryCompare(child(page, "identityText"), "text", vault.identity.text)
            compare(child(page, "identityFingerprintLabel").text,
                    "Fingerprint: quit problem truck delay exchange maze fence essay")
            verify(child(page, "identityText").readOnly)
            mouseClick(child(page, "copyIdentityButton"))
            tryVerify(() => child(page, "identityCopiedLabel").visible)
            // A vault without one says how to get it, and shows no text.
            vault.identity.available = false
            tryVerify(() => !child(page, "identityText").visible)
            verify(!child(page, "identityFingerprintLabel").visible)
        }
    }
}
