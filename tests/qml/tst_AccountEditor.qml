import QtQuick
import QtTest
import Watchword.App
import Watchword.Ui

// The add/edit form over a real AccountDraft: what it shows comes from the
// draft's own validation and code generator.
Item {
    id: root
    width: 720
    height: 900

    TestCase {
        id: testCase
        name: "AccountEditor"
        when: windowShown

        // RFC 6238 appendix B: the SHA-1 seed "12345678901234567890" gives
        // 94287082 at 59 s; a six-digit account shows its last six digits.
        readonly property string rfcUri: "otpauth://totp/Example:alice@google.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Example"
        readonly property string rfcCode: "287 082"
        readonly property string otherUri: "otpauth://hotp/WWE:Mason?secret=5VAML3X35THCEBVRLV24CGBKOY&issuer=WWE&algorithm=SHA512&digits=8&counter=10300"

        Component {
            id: draftComponent
            AccountDraft {}
        }

        Component {
            id: editorComponent
            AccountEditor {}
        }

        Component {
            id: spyComponent
            SignalSpy {}
        }

        function makeEditor(properties) {
            const draft = createTemporaryObject(draftComponent, testCase)
            verify(draft)
            const editor = createTemporaryObject(editorComponent, root,
                                                 Object.assign({ draft: draft, now: 59 }, properties || {}))
            verify(editor)
            editor.open()
            tryCompare(editor, "opened", true)
            return editor
        }

        function child(editor, name) {
            const item = findChild(editor.contentItem, name)
            verify(item, name)
            return item
        }

        function type(field, text) {
            field.forceActiveFocus()
            for (let i = 0; i < text.length; ++i)
                keyClick(text[i])
        }

        function test_newAccountForm() {
            const editor = makeEditor()
            compare(child(editor, "titleLabel").text, "Add account")
            verify(!child(editor, "saveButton").enabled)
            // An untouched form is not shown in red.
            verify(!child(editor, "secretError").showing)
            verify(!child(editor, "accountNameError").showing)
            verify(!child(editor, "previewLabel").visible)
            verify(child(editor, "previewPlaceholder").visible)
            verify(!child(editor, "clipboardBanner").visible)
            verify(child(editor, "uriField").activeFocus)
            // HOTP's counter only for HOTP.
            verify(!child(editor, "counterField").visible)
        }

        function test_badSecretShowsErrorAndDisablesSave() {
            const editor = makeEditor()
            type(child(editor, "accountField"), "ada")
            const secret = child(editor, "secretField")
            compare(secret.echoMode, TextInput.Password)
            type(secret, "jbsw y3dp ehpk 3px1")
            const error = child(editor, "secretError")
            verify(error.showing)
            compare(error.text, editor.draft.errors.secret)
            verify(error.text.indexOf("'1'") >= 0, error.text)
            verify(!child(editor, "saveButton").enabled)
            verify(!child(editor, "previewLabel").visible)

            // Enter does not save an invalid form.
            const spy = createTemporaryObject(spyComponent, testCase,
                                              { target: editor, signalName: "accepted" })
            keyClick(Qt.Key_Return)
            compare(spy.count, 0)

            keyClick(Qt.Key_Backspace)
            type(secret, "p")
            verify(!error.showing)
            verify(child(editor, "saveButton").enabled)
            // Typed in lower case with spaces: the same secret as the link's.
            compare(child(editor, "previewLabel").text, editor.draft.preview.groupedCode)
            verify(child(editor, "previewLabel").visible)
        }

        function test_secretShowToggle() {
            const editor = makeEditor()
            const secret = child(editor, "secretField")
            const toggle = child(editor, "showSecretButton")
            compare(secret.echoMode, TextInput.Password)
            mouseClick(toggle)
            compare(secret.echoMode, TextInput.Normal)
            compare(toggle.Accessible.name, "Hide the secret key")
            mouseClick(toggle)
            compare(secret.echoMode, TextInput.Password)
        }

        function test_uriFillsFieldsAndPreview() {
            const editor = makeEditor()
            const uriField = child(editor, "uriField")
            const accepted = createTemporaryObject(spyComponent, testCase,
                                                   { target: editor, signalName: "accepted" })
            type(uriField, rfcUri)
            // Typed, not pasted: nothing happens before Enter.
            compare(child(editor, "issuerField").text, "")
            keyClick(Qt.Key_Return)
            // Enter in the link field reads the link; it does not save.
            compare(accepted.count, 0)
            compare(child(editor, "issuerField").text, "Example")
            compare(child(editor, "accountField").text, "alice@google.com")
            compare(child(editor, "kindBox").currentText, "Time-based (TOTP)")
            compare(child(editor, "digitsBox").value, 6)
            compare(child(editor, "periodField").text, "30")
            compare(child(editor, "algorithmBox").currentText, "SHA1")
            const preview = child(editor, "previewLabel")
            verify(preview.visible)
            compare(preview.text, rfcCode)
            compare(child(editor, "previewSeconds").text, "1 second left")
            verify(child(editor, "saveButton").enabled)
            // The link held the secret: the field lets it go.
            compare(uriField.text, "")
            compare(child(editor, "scanMessage").text, "Filled in from the link.")

            // The preview follows the clock the window gives.
            editor.now = 1111111109
            compare(preview.text, "081 804")
        }

        function test_brokenUriShowsTheParsersError() {
            const editor = makeEditor()
            const uriField = child(editor, "uriField")
            type(uriField, "otpauth://totp/Example:alice?secret=JBSWY3DPEHPK3PXP&period=0")
            keyClick(Qt.Key_Return)
            const error = child(editor, "uriError")
            verify(error.visible)
            compare(error.text, editor.draft.uriError)
            verify(error.text.indexOf("period") >= 0, error.text)
            compare(child(editor, "issuerField").text, "")
            verify(!child(editor, "saveButton").enabled)
        }

        function test_clipboardBannerLoadsTheUri() {
            const editor = makeEditor({ clipboardUri: otherUri })
            const banner = child(editor, "clipboardBanner")
            verify(banner.visible)
            mouseClick(child(editor, "useClipboardButton"))
            verify(!banner.visible)
            compare(editor.draft.issuer, "WWE")
            compare(child(editor, "accountField").text, "Mason")
            compare(child(editor, "kindBox").currentText, "Counter-based (HOTP)")
            const counter = child(editor, "counterField")
            verify(counter.visible)
            compare(counter.text, "10300")
            compare(child(editor, "digitsBox").value, 8)
            compare(child(editor, "algorithmBox").currentText, "SHA512")
            verify(!child(editor, "periodField").visible)
            compare(child(editor, "previewLabel").text, editor.draft.preview.groupedCode)
            compare(child(editor, "previewLabel").text.length, 9) // "1234 5678"
        }

        function test_noBannerWithoutALink() {
            const editor = makeEditor({ clipboardUri: "just some text" })
            verify(!child(editor, "clipboardBanner").visible)
            editor.clipboardUri = "  OTPAUTH://totp/x?secret=JBSWY3DPEHPK3PXP"
            verify(child(editor, "clipboardBanner").visible)
            editor.clipboardUri = ""
            verify(!child(editor, "clipboardBanner").visible)
        }

        function test_acceptedCarriesTheDraft() {
            const editor = makeEditor({ clipboardUri: rfcUri })
            const accepted = createTemporaryObject(spyComponent, testCase,
                                                   { target: editor, signalName: "accepted" })
            mouseClick(child(editor, "useClipboardButton"))
            mouseClick(child(editor, "saveButton"))
            compare(accepted.count, 1)
            verify(accepted.signalArguments[0][0] === editor.draft)
            // The window closes it once the vault took the account.
            verify(editor.opened)

            // Enter in a field saves too.
            child(editor, "issuerField").forceActiveFocus()
            keyClick(Qt.Key_Return)
            compare(accepted.count, 2)
        }

        function test_escapeCancels() {
            const editor = makeEditor()
            const rejected = createTemporaryObject(spyComponent, testCase,
                                                   { target: editor, signalName: "rejected" })
            const accepted = createTemporaryObject(spyComponent, testCase,
                                                   { target: editor, signalName: "accepted" })
            type(child(editor, "issuerField"), "x")
            keyClick(Qt.Key_Escape)
            compare(rejected.count, 1)
            compare(accepted.count, 0)
            tryCompare(editor, "visible", false)
        }

        function test_steamKindFixesTheAdvancedSettings() {
            const editor = makeEditor()
            type(child(editor, "accountField"), "ada")
            type(child(editor, "secretField"), "JRZCL47CMXVOQMNPZR2F7J4RGI")
            const kind = child(editor, "kindBox")
            kind.currentIndex = 2
            kind.activated(2)
            compare(editor.draft.kind, "steam")
            compare(child(editor, "digitsBox").value, 5)
            verify(!child(editor, "advancedSection").enabled)
            editor.now = 1700000000
            // otp/steam_codes.json: the Aegis test vault's Steam code then.
            compare(child(editor, "previewLabel").text, "747JR")
        }

        function test_tagsAreCommaSeparated() {
            const editor = makeEditor()
            const tags = child(editor, "tagsField")
            type(tags, "work, mail,")
            // Typing a comma does not vanish under the cursor.
            compare(tags.text, "work, mail,")
            compare(editor.draft.tags, ["work", "mail"])
            type(tags, " work")
            verify(child(editor, "tagsError").showing)
        }

        function test_severalScannedCodesArePicked() {
            const editor = makeEditor()
            editor.useScanned([rfcUri, "https://example.com", otherUri])
            compare(editor.scannedTexts.length, 2)
            const first = child(editor, "scanResult0")
            const second = child(editor, "scanResult1")
            compare(first.text, "Example (alice@google.com)")
            compare(second.text, "WWE (Mason)")
            mouseClick(second)
            compare(editor.draft.issuer, "WWE")
            compare(editor.scannedTexts.length, 0)

            editor.useScanned([rfcUri])
            compare(editor.draft.issuer, "Example")
            editor.useScanned(["hello"])
            compare(child(editor, "scanMessage").text, "The QR code holds no otpauth:// link.")
            compare(editor.draft.issuer, "Example")
        }

        function test_droppedLink() {
            const editor = makeEditor()
            verify(editor.handleDrop([], rfcUri))
            compare(editor.draft.issuer, "Example")
            verify(editor.handleDrop(["# a comment", otherUri], ""))
            compare(editor.draft.issuer, "WWE")
            verify(!editor.handleDrop(["https://example.com/page"], "hello"))
            compare(editor.draft.issuer, "WWE")
        }

        function test_saveErrorFromTheWindow() {
            const editor = makeEditor({ clipboardUri: rfcUri })
            mouseClick(child(editor, "useClipboardButton"))
            editor.saveError = "the vault file changed on disk"
            verify(child(editor, "saveError").visible)
            mouseClick(child(editor, "saveButton"))
            compare(editor.saveError, "")
        }
    }
}
