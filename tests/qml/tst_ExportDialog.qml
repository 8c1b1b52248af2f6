import QtQuick
import QtQuick.Controls
import QtTest
import Watchword.App
import Watchword.Ui

// The export dialog against a real ExportController on the import tests'
// demo vault (`testImportVault`), writing into `testExportDir`: a password
// twice for the encrypted formats, the acknowledgement for the plaintext
// ones, and a question before a file is replaced.
Item {
    id: root
    width: 900
    height: 900

    TestCase {
        name: "ExportDialog"
        when: windowShown

        Component {
            id: dialogComponent
            ExportDialog {
                parent: root
                vault: testImportVault
                accounts: testImportAccounts.model
            }
        }

        function init() {
            failOnWarning(/.*/)
            tryCompare(testImportVault, "state", VaultController.Unlocked, 10000)
        }

        function openDialog() {
            const dialog = createTemporaryObject(dialogComponent, root)
            verify(dialog)
            dialog.open()
            tryCompare(dialog, "opened", true)
            return dialog
        }

        function typeInto(field, text) {
            field.forceActiveFocus()
            field.selectAll()
            for (const c of text)
                keyClick(c)
        }

        function test_encryptedNeedsTwoEqualPasswords() {
            const dialog = openDialog()
            compare(dialog.controller.formatIndex, 0) // the Watchword backup
            const exportButton = findChild(dialog, "exportButton")
            const password = findChild(dialog, "passwordField")
            const repeat = findChild(dialog, "repeatField")
            verify(password.visible)
            verify(!findChild(dialog, "plaintextWarning").visible)
            verify(!exportButton.enabled)
            typeInto(password, "orbit velvet lantern")
            typeInto(repeat, "orbit velvet lantren")
            verify(!exportButton.enabled)
            typeInto(repeat, "orbit velvet lantern")
            verify(exportButton.enabled)
        }

        function test_plaintextNeedsTheAcknowledgementAndReplacingAsks() {
            const dialog = openDialog()
            dialog.controller.formatIndex = 3 // otpauth list
            const warning = findChild(dialog, "plaintextWarning")
            verify(warning.visible)
            verify(!findChild(dialog, "passwordField").visible)
            const exportButton = findChild(dialog, "exportButton")
            verify(!exportButton.enabled)
            const file = "file://" + testExportDir + "/accounts.txt"
            verify(!dialog.chooseFile(file)) // refused: not acknowledged
            verify(findChild(dialog, "problemLabel").text.indexOf("every secret") >= 0)
            const acknowledge = findChild(dialog, "acknowledge")
            mouseClick(acknowledge)
            verify(acknowledge.checked)
            verify(exportButton.enabled)

            const finished = createTemporaryObject(spyComponent, root,
                                                   {target: dialog.controller})
            verify(dialog.chooseFile(file))
            finished.wait(20000)
            compare(finished.signalArguments[0][0], true)
            verify(findChild(dialog, "resultLabel").text.indexOf("accounts.txt") >= 0)

            // The same file again: asked first, nothing written meanwhile.
            verify(!dialog.chooseFile(file))
            const replace = findChild(dialog, "replaceDialog")
            tryCompare(replace, "opened", true)
            compare(finished.count, 1)
            replace.accept()
            finished.wait(20000)
            compare(finished.count, 2)
            compare(finished.signalArguments[1][0], true)
            tryCompare(replace, "opened", false)

            // Chosen in the desktop's chooser, which asked already: written
            // without a second question.
            verify(dialog.chooseFile(file, true))
            finished.wait(20000)
            compare(finished.count, 3)
            compare(finished.signalArguments[2][0], true)
            verify(!replace.opened)
        }

        function test_tickedAccountsOnly() {
            const dialog = openDialog()
            const exportButton = findChild(dialog, "exportButton")
            dialog.controller.formatIndex = 1 // Aegis (plain)
            mouseClick(findChild(dialog, "acknowledge"))
            verify(exportButton.enabled)
            mouseClick(findChild(dialog, "tickedAccounts"))
            verify(!dialog.everyAccount)
            verify(!exportButton.enabled) // none ticked yet
            const list = findChild(dialog, "accountList")
            tryVerify(() => list.count > 0 && list.itemAtIndex(0) !== null)
            // The box as a click leaves it (the list may be scrolled out of view).
            const box = list.itemAtIndex(0)
            box.toggle()
            box.toggled()
            compare(dialog.chosenIds().length, 1)
            verify(exportButton.enabled)
        }

        Component {
            id: spyComponent
            SignalSpy {
                signalName: "finished"
            }
        }
    }
}
