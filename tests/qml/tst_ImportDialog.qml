import QtQuick
import QtQuick.Controls
import QtTest
import Watchword.App
import Watchword.Ui

// The import dialog against a real ImportController on a demo vault of its
// own (`testImportVault`) and the export files of tests/data/import
// (`testImportData`): a file chosen through the dialog's hook, read, its
// preview rows and marks shown, ticked and added.
Item {
    id: root
    width: 900
    height: 700

    TestCase {
        name: "ImportDialog"
        when: windowShown

        Component {
            id: dialogComponent
            ImportDialog {
                parent: root
                vault: testImportVault
            }
        }

        function init() {
            failOnWarning(/.*/)
            tryCompare(testImportVault, "state", VaultController.Unlocked, 10000)
        }

        function fileUrl(relative) {
            return "file://" + testImportData + "/" + relative
        }

        function openDialog() {
            const dialog = createTemporaryObject(dialogComponent, root)
            verify(dialog)
            dialog.open()
            tryCompare(dialog, "opened", true)
            return dialog
        }

        // The delegate of row in the preview list (made: the list is tall enough).
        function mark(list, row) {
            return findChild(list, "mark" + row)
        }

        function test_previewTickAndAdd() {
            const dialog = openDialog()
            const before = testImportAccounts.model.rowCount()
            verify(dialog.chooseFile(fileUrl("aegis/aegis_plain.json")))
            compare(dialog.controller.stage, ImportController.Source)
            const format = findChild(dialog.contentItem, "formatBox")
            compare(format.currentText, "Aegis")
            verify(!findChild(dialog.contentItem, "passwordField").visible)
            mouseClick(findChild(dialog.contentItem, "readButton"))
            tryCompare(dialog.controller, "stage", ImportController.Preview, 10000)

            const list = findChild(dialog.contentItem, "previewList")
            const rows = dialog.controller.preview.count
            verify(rows >= 3)
            tryCompare(list, "count", rows)
            tryVerify(() => mark(list, 0) !== null)
            compare(mark(list, 0).text, "New")
            const add = findChild(dialog.contentItem, "addButton")
            compare(add.text, "Add " + rows + " accounts")
            // Untick the second: one fewer goes in.
            tryVerify(() => findChild(list, "tick1") !== null)
            const tick = findChild(list, "tick1")
            verify(tick.checked)
            mouseClick(tick)
            verify(!tick.checked)
            compare(dialog.controller.preview.checkedCount, rows - 1)
            compare(add.text, "Add " + (rows - 1) + " accounts")
            mouseClick(add)
            tryVerify(() => testImportAccounts.model.rowCount() === before + rows - 1, 10000)
            tryCompare(dialog, "opened", false)

            // The same file again: all but the one left out are duplicates,
            // unticked; that one is new and ticked.
            dialog.open()
            verify(dialog.chooseFile(fileUrl("aegis/aegis_plain.json")))
            mouseClick(findChild(dialog.contentItem, "readButton"))
            tryCompare(dialog.controller, "stage", ImportController.Preview, 10000)
            tryVerify(() => mark(list, 1) !== null && findChild(list, "tick1") !== null)
            compare(mark(list, 0).text, "Already in the vault")
            compare(mark(list, 1).text, "New")
            verify(!findChild(list, "tick0").checked)
            verify(findChild(list, "tick1").checked)
            compare(add.text, "Add 1 account")
            mouseClick(add)
            tryVerify(() => testImportAccounts.model.rowCount() === before + rows, 10000)
        }

        function test_wrongPasswordIsSaid() {
            const dialog = openDialog()
            const before = testImportAccounts.model.rowCount()
            verify(dialog.chooseFile(fileUrl("aegis/aegis_encrypted.json")))
            const password = findChild(dialog.contentItem, "passwordField")
            verify(password.visible)
            password.forceActiveFocus()
            keyClick(Qt.Key_N)
            keyClick(Qt.Key_O)
            mouseClick(findChild(dialog.contentItem, "readButton"))
            tryCompare(dialog.controller, "busy", false, 20000)
            const error = findChild(dialog.contentItem, "errorLabel")
            verify(error.visible)
            verify(error.text.startsWith("Wrong password"), error.text)
            compare(password.text, "") // the typed password does not stay
            compare(dialog.controller.stage, ImportController.Source)
            verify(!findChild(dialog.contentItem, "addButton").visible)
            compare(testImportAccounts.model.rowCount(), before)
        }

        function test_closingForgetsTheFile() {
            const dialog = openDialog()
            verify(dialog.chooseFile(fileUrl("otpauth_list/plain.txt")))
            compare(findChild(dialog.contentItem, "sourceLabel").text, "plain.txt")
            dialog.close()
            tryCompare(dialog.controller, "stage", ImportController.Empty)
            compare(dialog.controller.source.name, "")
        }
    }
}
