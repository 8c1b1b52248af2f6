import QtQuick
import QtQuick.Controls
import QtTest
import Watchword.App
import Watchword.Ui

// The QR code dialog on the import tests' demo vault (`testImportVault`):
// covered until asked, transfer codes counted, nothing kept once closed.
Item {
    id: root
    width: 900
    height: 800

    TestCase {
        name: "QrCodeDialog"
        when: windowShown

        Component {
            id: dialogComponent
            QrCodeDialog {
                parent: root
                vault: testImportVault
            }
        }

        function init() {
            failOnWarning(/.*/)
            tryCompare(testImportVault, "state", VaultController.Unlocked, 10000)
        }

        function test_revealThenClose() {
            const dialog = createTemporaryObject(dialogComponent, root)
            const accounts = testImportAccounts.model
            const id = accounts.data(accounts.index(0, 0), Qt.UserRole + 1)
            dialog.showAccount(id, "First")
            tryCompare(dialog, "opened", true)
            compare(dialog.code.count, 1)
            verify(!dialog.code.revealed)
            const cover = findChild(dialog.contentItem, "cover")
            verify(cover.visible)
            mouseClick(findChild(dialog.contentItem, "revealButton"))
            verify(dialog.code.revealed)
            verify(!cover.visible)
            // Whole pixels per module, within the item.
            verify(dialog.code.width >= dialog.code.moduleCount * 2)
            dialog.close()
            tryCompare(dialog, "opened", false)
            compare(dialog.code.count, 0)
            verify(!dialog.code.revealed)
        }

        function test_transferCodes() {
            const dialog = createTemporaryObject(dialogComponent, root)
            dialog.showTransfer([])
            tryCompare(dialog, "opened", true)
            verify(dialog.code.count >= 1)
            compare(dialog.code.error, "")
            // The demo vault's Steam account cannot go: said, not hidden.
            verify(findChild(dialog.contentItem, "warningsLabel").text.indexOf("Steam") >= 0)
            if (dialog.code.count > 1)
                compare(findChild(dialog.contentItem, "pageLabel").text, "1 of " + dialog.code.count)
        }
    }
}
