import QtQuick
import QtTest
import Watchword.App
import Watchword.Ui

// The first run (CreateVaultPage with its RecoveryPhrasePanel) and the
// unlock page's recovery mode, against a fake vault controller that records
// what the pages ask of it.
Item {
    id: root
    width: 720
    height: 720

    QtObject {
        id: fake

        property int state: VaultController.Missing
        property string path: "/home/ada/.local/share/watchword/vault.wwv"
        property string error: ""
        property real progress: 0
        property bool busy: false
        property bool demo: false
        property var calls: []

        function record(call) {
            calls = calls.concat([call])
        }
        // The recovery phrase flow and the password strength, as the
        // controller's phrase and passwords give them.
        property QtObject phrase: QtObject {
            property var recoveryWords: []
            property var confirmPositions: []
            property string newRecoveryFingerprint: ""
            function beginCreate(password, repeat) {
                fake.record({ name: "beginCreate", args: [password, repeat] })
                return true
            }
            function confirmRecoveryPhrase(words) {
                fake.record({ name: "confirm", args: words })
                return true
            }
            function cancelRecoveryPhrase() {
                fake.record({ name: "cancel", args: [] })
                recoveryWords = []
                confirmPositions = []
            }
        }
        property QtObject passwords: QtObject {
            function strength(text) { return Math.min(4, Math.floor(text.length / 5)) }
            function strengthHint(text) { return "hint for " + text.length }
        }
        function clearError() { error = "" }
        function unlock(password) { record({ name: "unlock", args: [password] }) }
        function recover(phrase, password, repeat) {
            record({ name: "recover", args: [phrase, password, repeat] })
        }
    }

    Component {
        id: createComponent
        CreateVaultPage {
            width: root.width
            height: root.height
            vault: fake
        }
    }
    Component {
        id: unlockComponent
        UnlockPage {
            width: root.width
            height: root.height
            vault: fake
        }
    }

    TestCase {
        name: "FirstRun"
        when: windowShown

        function init() {
            fake.state = VaultController.Missing
            fake.error = ""
            fake.busy = false
            fake.phrase.recoveryWords = []
            fake.phrase.confirmPositions = []
            fake.calls = []
        }

        function findAll(item, predicate, out) {
            out = out || []
            let match = false
            try {
                match = predicate(item)
            } catch (e) {
                match = false // not an Item: no attached Accessible
            }
            if (match)
                out.push(item)
            const kids = []
            for (let i = 0; item.children && i < item.children.length; ++i)
                kids.push(item.children[i])
            for (let i = 0; i < kids.length; ++i)
                findAll(kids[i], predicate, out)
            // Flickable content (ScrollView) is not among children.
            const content = item.contentItem
            if (content && content !== item && kids.indexOf(content) < 0)
                findAll(content, predicate, out)
            return out
        }
        function byName(item, name) {
            const found = findAll(item, i => i.Accessible && i.Accessible.name === name && i.visible)
            verify(found.length > 0, "no visible item named " + name)
            return found[0]
        }
        function visibleText(item, text) {
            return findAll(item, i => i.visible && i.text !== undefined && String(i.text).indexOf(text) >= 0).length > 0
        }

        function test_passwordsMustMatchBeforeContinuing() {
            const page = createTemporaryObject(createComponent, root)
            const password = byName(page, "New vault password")
            const repeat = byName(page, "Repeat the new vault password")
            const next = byName(page, "Continue to the recovery phrase")
            verify(!next.enabled)
            password.text = "orbit velvet lantern"
            repeat.text = "orbit velvet"
            verify(!next.enabled)
            verify(visibleText(page, "not the same"))
            repeat.text = "orbit velvet lantern"
            verify(next.enabled)
            // The strength hint follows what is typed.
            verify(visibleText(page, "hint for 20"))
            mouseClick(next)
            compare(fake.calls.length, 1)
            compare(fake.calls[0].name, "beginCreate")
            compare(fake.calls[0].args, ["orbit velvet lantern", "orbit velvet lantern"])
            // The fields forget the password once handed over.
            compare(password.text, "")
            compare(repeat.text, "")
        }

        function test_phraseShownThenConfirmed() {
            const page = createTemporaryObject(createComponent, root)
            const words = []
            for (let i = 1; i <= 24; ++i)
                words.push("word" + i)
            fake.phrase.recoveryWords = words
            fake.phrase.confirmPositions = [3, 11, 20]
            // Every word, numbered, is on screen; the password step is gone.
            verify(visibleText(page, "word24"))
            verify(visibleText(page, "11."))
            verify(byName(page, "Go on to check the recovery phrase").enabled)
            const onward = byName(page, "Go on to check the recovery phrase")
            onward.forceActiveFocus()
            keyClick(Qt.Key_Space)
            // Now three fields for words 3, 11 and 20; the words are hidden.
            const left = findAll(page, i => i.visible && String(i.text).indexOf("word24") >= 0)
            verify(left.length === 0, "still shown: " + left.map(i => i + " " + i.text + " " + i.opacity).join(", "))
            const confirm = byName(page, "Confirm the recovery phrase")
            verify(!confirm.enabled)
            byName(page, "Word number 3").text = "word3"
            byName(page, "Word number 11").text = "word11"
            byName(page, "Word number 20").text = "word20"
            verify(confirm.enabled)
            mouseClick(confirm)
            compare(fake.calls[fake.calls.length - 1].name, "confirm")
            compare(fake.calls[fake.calls.length - 1].args, ["word3", "word11", "word20"])
            // A wrong word: the error is shown on the confirmation step.
            fake.error = "Word 11 is not right."
            verify(visibleText(page, "Word 11 is not right."))
        }

        function test_cancelForgetsThePhrase() {
            const page = createTemporaryObject(createComponent, root)
            fake.phrase.recoveryWords = ["a", "b", "c"]
            fake.phrase.confirmPositions = [1, 2, 3]
            mouseClick(byName(page, "Cancel and forget this phrase"))
            compare(fake.calls[fake.calls.length - 1].name, "cancel")
            // Back to the password step.
            verify(byName(page, "New vault password").visible)
        }

        function test_creatingShowsProgress() {
            const page = createTemporaryObject(createComponent, root)
            fake.state = VaultController.Unlocking
            fake.progress = 0.4
            verify(visibleText(page, "Creating your vault"))
            compare(byName(page, "Progress of creating the vault").value, 0.4)
        }

        function test_unlockAndRecover() {
            fake.state = VaultController.Locked
            const page = createTemporaryObject(unlockComponent, root)
            const password = byName(page, "Vault password")
            password.text = "secret"
            mouseClick(byName(page, "Unlock the vault"))
            compare(fake.calls[0].name, "unlock")
            compare(password.text, "")

            mouseClick(byName(page, "Forgot the password? Use the recovery phrase"))
            const recover = byName(page, "Recover the vault with the phrase")
            verify(!recover.enabled)
            byName(page, "Recovery phrase").text = "one two three"
            verify(visibleText(page, "3 word"))
            byName(page, "New vault password").text = "new pass words"
            byName(page, "Repeat the new vault password").text = "new pass words"
            verify(recover.enabled)
            mouseClick(recover)
            const call = fake.calls[fake.calls.length - 1]
            compare(call.name, "recover")
            compare(call.args, ["one two three", "new pass words", "new pass words"])
            // The fields keep what was typed: a mistyped word is corrected,
            // not typed again with both passwords.
            compare(byName(page, "Recovery phrase").text, "one two three")
            compare(byName(page, "New vault password").text, "new pass words")
            // And back.
            mouseClick(byName(page, "Back to the password"))
            verify(byName(page, "Vault password").visible)
        }

        function test_demoHasNoRecovery() {
            fake.state = VaultController.Locked
            fake.demo = true
            const page = createTemporaryObject(unlockComponent, root)
            verify(findAll(page, i => i.Accessible && i.visible
                           && i.Accessible.name === "Forgot the password? Use the recovery phrase").length === 0)
            fake.demo = false
        }
    }
}
