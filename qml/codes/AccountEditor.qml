import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App
import Watchword.Ui

// Adding or editing one account: from an otpauth:// link (typed, pasted,
// offered from the clipboard or dropped), from a QR code (an image file, a
// dropped image, the screen), or field by field. Presentation only: the
// AccountDraft checks every field and computes the preview code, the
// QrReader decodes off the GUI thread.
//
// Save emits accepted(draft) and leaves the editor open: the window closes it
// once the vault has taken the account, or shows why not in saveError.
// Cancel (or Escape) emits rejected() and closes it.
Popup {
    id: editor
    objectName: "accountEditor"

    property AccountDraft draft
    // The clipboard's text when it holds an otpauth link; empty otherwise.
    property string clipboardUri: ""
    // Unix seconds from the app's clock, for the live preview.
    property real now: 0
    // Why the last save failed (set by the window); cleared on each save.
    property string saveError: ""
    // The open vault's accounts, asked whether the draft is one they have.
    property var accounts: null
    // The vault account with the same secret and code parameters, if any:
    // saving would add the same account twice (the import preview marks
    // these as duplicates; adding by hand or by QR warns the same way).
    readonly property string duplicate: {
        if (!draft || !accounts)
            return ""
        // Read, so that the warning follows every edit of these.
        void [draft.secret, draft.kind, draft.algorithm, draft.digits, draft.period]
        return draft.valid ? accounts.duplicateOf(draft) : ""
    }

    readonly property bool editing: draft !== null && draft.recordId !== ""
    readonly property string title: editing ? qsTr("Edit account") : qsTr("Add account")
    // What the last scan or drop did, or why it found nothing.
    property string scanMessage: ""
    // The codes of the last scan when it found several to choose from.
    property var scannedTexts: []
    // Errors show under a field once it was edited, or everywhere after a
    // refused save, so an empty form does not open in red.
    property bool showAllErrors: false
    property bool clipboardUsed: false
    property bool advancedOpen: false

    signal accepted(AccountDraft draft)
    // A scanned Google Authenticator transfer code (otpauth-migration://):
    // several accounts, for the import's preview rather than this form.
    signal migrationScanned(string text)
    signal rejected()

    function save() {
        if (!draft)
            return
        if (!draft.valid) {
            showAllErrors = true
            return
        }
        saveError = ""
        editor.accepted(draft)
    }

    function cancel() {
        editor.rejected()
        editor.close()
    }

    function looksLikeUri(text) {
        return finder.looksLikeOtpauthUri(text)
    }

    // Fills the form from an otpauth link; false, with the reason shown, if
    // it is not one.
    function useUri(text, origin) {
        if (!draft)
            return false
        if (draft.loadUri(text)) {
            scannedTexts = []
            scanMessage = origin
            return true
        }
        scanMessage = qsTr("That link could not be used: %1").arg(draft.uriError)
        return false
    }

    // What a QR scan found, or a drop (links, or image files): the form
    // does what LinkFinder decides.
    function useScanned(texts) {
        return follow(finder.fromScan(texts))
    }
    function handleDrop(uriList, text) {
        return follow(finder.fromDrop(uriList, text))
    }
    function follow(found) {
        switch (found.action) {
        case "fill":
            return useUri(found.link, found.message)
        case "choose":
            scannedTexts = found.links
            scanMessage = found.message
            return true
        case "import":
            scannedTexts = []
            scanMessage = ""
            editor.migrationScanned(found.link)
            return true
        case "read":
            scanMessage = ""
            qr.readFile(found.link)
            return true
        }
        scannedTexts = []
        scanMessage = found.message
        return false
    }

    modal: true
    focus: true
    closePolicy: Popup.NoAutoClose
    padding: Math.round(metrics.height * 0.8)
    width: Math.min(parent ? parent.width - 2 * padding : implicitWidth,
                    Math.round(metrics.averageCharacterWidth * 72))
    height: Math.min(parent ? parent.height - 2 * padding : implicitHeight, implicitHeight)
    x: parent ? Math.round((parent.width - width) / 2) : 0
    y: parent ? Math.round((parent.height - height) / 2) : 0

    // Each opening starts afresh: at the top, the secret hidden, no field
    // marked as edited (so no error shows before anything is typed); adding
    // starts at the link field, editing at the account's own fields.
    onAboutToShow: {
        showAllErrors = false
        clipboardUsed = false
        scanMessage = ""
        scannedTexts = []
        saveError = ""
        showSecret.checked = false
        for (const field of [issuerField, accountField, secretField, counterField])
            field.touched = false
        scroll.ScrollBar.vertical.position = 0
    }
    onOpened: {
        if (editor.editing)
            issuerField.forceActiveFocus(Qt.OtherFocusReason)
        else
            uriField.forceActiveFocus(Qt.OtherFocusReason)
    }

    FontMetrics {
        id: metrics
        font: editor.font
    }

    Binding {
        target: editor.draft ? editor.draft.preview : null
        property: "now"
        value: editor.now
        when: editor.draft !== null
    }

    LinkFinder {
        id: finder
    }

    QrReader {
        id: qr
        onFound: (texts) => editor.useScanned(texts)
        onFailed: (error) => {
            editor.scannedTexts = []
            editor.scanMessage = error
        }
    }

    FilePicker {
        id: imageDialog
        over: editor
        title: qsTr("Choose an image with a QR code")
        nameFilters: [qsTr("Images (*.png *.jpg *.jpeg *.bmp *.gif *.webp)"), qsTr("All files (*)")]
        onAccepted: {
            editor.scanMessage = ""
            qr.readFile(selectedFile)
        }
    }

    contentItem: FocusScope {
        implicitWidth: form.implicitWidth
        implicitHeight: column.implicitHeight
        Accessible.role: Accessible.Dialog
        Accessible.name: editor.title

        Keys.onReturnPressed: editor.save()
        Keys.onEnterPressed: editor.save()
        Keys.onEscapePressed: editor.cancel()

        DropArea {
            id: dropArea
            objectName: "dropArea"
            anchors.fill: parent
            onEntered: (drag) => drag.accept(Qt.CopyAction)
            onDropped: (drop) => {
                const list = drop.formats.indexOf("text/uri-list") >= 0
                           ? drop.getDataAsString("text/uri-list").split("\n")
                           : drop.urls.map(u => u.toString())
                if (editor.handleDrop(list, drop.hasText ? drop.text : ""))
                    drop.accept(Qt.CopyAction)
            }
        }

        ColumnLayout {
            id: column
            anchors.fill: parent
            spacing: Math.round(metrics.height * 0.6)

            Label {
                objectName: "titleLabel"
                text: editor.title
                font.bold: true
                font.pixelSize: Math.round(editor.font.pixelSize * 1.4)
                Layout.fillWidth: true
                Accessible.role: Accessible.Heading
                Accessible.name: text
            }

            ScrollView {
                id: scroll
                Layout.fillWidth: true
                Layout.fillHeight: true
                Layout.preferredHeight: form.implicitHeight
                contentWidth: availableWidth
                clip: true

                ColumnLayout {
                    id: form
                    width: scroll.availableWidth
                    spacing: Math.round(metrics.height * 0.4)

                    // The clipboard offer.
                    Frame {
                        id: clipboardBanner
                        objectName: "clipboardBanner"
                        visible: !editor.clipboardUsed && editor.looksLikeUri(editor.clipboardUri)
                        Layout.fillWidth: true
                        background: Rectangle {
                            color: editor.palette.highlight
                            opacity: 0.15
                            radius: Math.round(metrics.height * 0.3)
                        }

                        RowLayout {
                            anchors.fill: parent
                            Label {
                                text: qsTr("The clipboard holds an otpauth link.")
                                wrapMode: Text.Wrap
                                Layout.fillWidth: true
                            }
                            Button {
                                objectName: "useClipboardButton"
                                text: qsTr("Use it")
                                Accessible.name: qsTr("Fill in from the otpauth link on the clipboard")
                                onClicked: {
                                    if (editor.useUri(editor.clipboardUri, qsTr("Filled in from the clipboard.")))
                                        editor.clipboardUsed = true
                                }
                            }
                        }
                    }

                    TextField {
                        id: uriField
                        objectName: "uriField"
                        placeholderText: qsTr("Paste an otpauth:// link")
                        selectByMouse: true
                        inputMethodHints: Qt.ImhSensitiveData | Qt.ImhNoPredictiveText | Qt.ImhNoAutoUppercase
                        Layout.fillWidth: true
                        Accessible.name: qsTr("otpauth link")
                        Accessible.description: placeholderText
                        // A pasted link fills the form at once, a typed one
                        // on Enter (every prefix of a link is not one); the
                        // field then forgets it, since it holds the secret.
                        property int editedLength: 0
                        function load() {
                            if (!editor.looksLikeUri(text) || !editor.draft.loadUri(text))
                                return
                            editor.scannedTexts = []
                            editor.scanMessage = qsTr("Filled in from the link.")
                            editedLength = 0
                            clear()
                        }
                        onTextEdited: {
                            const pasted = text.length - editedLength > 1
                            editedLength = text.length
                            if (pasted)
                                load()
                        }
                        // Enter here reads the link; in an empty field it saves.
                        Keys.onReturnPressed: (event) => {
                            if (text === "")
                                event.accepted = false
                            else
                                load()
                        }
                        Keys.onEnterPressed: (event) => {
                            if (text === "")
                                event.accepted = false
                            else
                                load()
                        }
                    }
                    Label {
                        objectName: "uriError"
                        visible: uriField.text !== "" && editor.draft !== null && editor.draft.uriError !== ""
                        text: editor.draft ? editor.draft.uriError : ""
                        color: palette.window.hslLightness < 0.5 ? "#f2b8b5" : "#b3261e"
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                        Accessible.name: qsTr("Link error: %1").arg(text)
                    }

                    Flow {
                        Layout.fillWidth: true
                        spacing: Math.round(metrics.height * 0.4)
                        Button {
                            objectName: "scanImageButton"
                            text: qsTr("Scan QR from image\u2026")
                            enabled: !qr.busy
                            Accessible.name: qsTr("Scan a QR code from an image file")
                            onClicked: imageDialog.ask()
                        }
                        Button {
                            objectName: "scanScreenButton"
                            text: qsTr("Scan QR on screen")
                            enabled: !qr.busy
                            Accessible.name: qsTr("Scan a QR code shown on the screen")
                            onClicked: {
                                editor.scanMessage = ""
                                qr.readScreen()
                            }
                        }
                        Button {
                            objectName: "scanClipboardButton"
                            text: qsTr("Paste QR image")
                            enabled: !qr.busy
                            Accessible.name: qsTr("Scan a QR code from the image on the clipboard")
                            onClicked: {
                                editor.scanMessage = ""
                                qr.readClipboard()
                            }
                        }
                        BusyIndicator {
                            running: qr.busy
                            visible: running
                            implicitHeight: Math.round(metrics.height * 1.6)
                            implicitWidth: implicitHeight
                            Accessible.name: qsTr("Reading the QR code")
                        }
                    }
                    Label {
                        objectName: "scanMessage"
                        visible: text !== ""
                        text: editor.scanMessage
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                        Accessible.name: text
                    }
                    Repeater {
                        objectName: "scanResults"
                        model: editor.scannedTexts
                        delegate: ItemDelegate {
                            required property string modelData
                            required property int index
                            objectName: "scanResult" + index
                            readonly property string label: finder.describeUri(modelData)
                            text: label !== "" ? label : qsTr("Code %1 (not a valid link)").arg(index + 1)
                            enabled: label !== ""
                            Layout.fillWidth: true
                            Accessible.name: qsTr("Use %1").arg(text)
                            onClicked: editor.useUri(modelData, qsTr("Filled in from the QR code."))
                        }
                    }

                    GridLayout {
                        columns: 2
                        columnSpacing: Math.round(metrics.height * 0.6)
                        rowSpacing: Math.round(metrics.height * 0.3)
                        Layout.fillWidth: true
                        Layout.topMargin: Math.round(metrics.height * 0.4)

                        FieldLabel { text: qsTr("Issuer") }
                        ColumnLayout {
                            spacing: 0
                            Layout.fillWidth: true
                            TextField {
                                id: issuerField
                                objectName: "issuerField"
                                property bool touched: false
                                text: editor.draft ? editor.draft.issuer : ""
                                placeholderText: qsTr("e.g. GitHub")
                                selectByMouse: true
                                Layout.fillWidth: true
                                Accessible.name: qsTr("Issuer")
                                onTextEdited: {
                                    touched = true
                                    editor.draft.issuer = text
                                }
                            }
                            FieldError {
                                objectName: "issuerError"
                                message: editor.draft ? editor.draft.errors.issuer : ""
                                shown: issuerField.touched || editor.showAllErrors
                            }
                        }

                        FieldLabel { text: qsTr("Account") }
                        ColumnLayout {
                            spacing: 0
                            Layout.fillWidth: true
                            TextField {
                                id: accountField
                                objectName: "accountField"
                                property bool touched: false
                                text: editor.draft ? editor.draft.accountName : ""
                                placeholderText: qsTr("e.g. ada@example.org")
                                selectByMouse: true
                                Layout.fillWidth: true
                                Accessible.name: qsTr("Account name")
                                onTextEdited: {
                                    touched = true
                                    editor.draft.accountName = text
                                }
                            }
                            FieldError {
                                objectName: "accountNameError"
                                message: editor.draft ? editor.draft.errors.accountName : ""
                                shown: accountField.touched || editor.showAllErrors
                            }
                        }

                        FieldLabel { text: qsTr("Secret key") }
                        ColumnLayout {
                            spacing: 0
                            Layout.fillWidth: true
                            RowLayout {
                                Layout.fillWidth: true
                                TextField {
                                    id: secretField
                                    objectName: "secretField"
                                    property bool touched: false
                                    text: editor.draft ? editor.draft.secret : ""
                                    echoMode: showSecret.checked ? TextInput.Normal : TextInput.Password
                                    placeholderText: qsTr("Base32, e.g. JBSW Y3DP EHPK 3PXP")
                                    font.family: "monospace"
                                    inputMethodHints: Qt.ImhSensitiveData | Qt.ImhNoPredictiveText
                                                      | Qt.ImhNoAutoUppercase | Qt.ImhHiddenText
                                    Layout.fillWidth: true
                                    Accessible.name: qsTr("Secret key")
                                    onTextEdited: {
                                        touched = true
                                        editor.draft.secret = text
                                    }
                                }
                                ToolButton {
                                    id: showSecret
                                    objectName: "showSecretButton"
                                    checkable: true
                                    text: checked ? qsTr("Hide") : qsTr("Show")
                                    Accessible.name: checked ? qsTr("Hide the secret key") : qsTr("Show the secret key")
                                }
                            }
                            FieldError {
                                objectName: "secretError"
                                message: editor.draft ? editor.draft.errors.secret : ""
                                shown: secretField.touched || editor.showAllErrors
                            }
                        }

                        FieldLabel { text: qsTr("Type") }
                        ColumnLayout {
                            spacing: 0
                            Layout.fillWidth: true
                            ComboBox {
                                id: kindBox
                                objectName: "kindBox"
                                textRole: "text"
                                valueRole: "value"
                                model: [
                                    { value: "totp", text: qsTr("Time-based (TOTP)") },
                                    { value: "hotp", text: qsTr("Counter-based (HOTP)") },
                                    { value: "steam", text: qsTr("Steam Guard") }
                                ]
                                currentIndex: editor.draft ? ["totp", "hotp", "steam"].indexOf(editor.draft.kind) : 0
                                Layout.fillWidth: true
                                Accessible.name: qsTr("Code type")
                                onActivated: (index) => editor.draft.kind = model[index].value
                            }
                            FieldError {
                                objectName: "kindError"
                                message: editor.draft ? editor.draft.errors.kind : ""
                                shown: true
                            }
                        }

                        FieldLabel {
                            text: qsTr("Counter")
                            visible: counterField.visible
                        }
                        ColumnLayout {
                            spacing: 0
                            Layout.fillWidth: true
                            visible: editor.draft !== null && editor.draft.kind === "hotp"
                            TextField {
                                id: counterField
                                objectName: "counterField"
                                property bool touched: false
                                text: editor.draft ? editor.draft.counter : ""
                                inputMethodHints: Qt.ImhDigitsOnly
                                selectByMouse: true
                                Layout.fillWidth: true
                                Accessible.name: qsTr("Counter")
                                Accessible.description: qsTr("The next counter value the service expects")
                                onTextEdited: {
                                    touched = true
                                    editor.draft.counter = text
                                }
                            }
                            FieldError {
                                objectName: "counterError"
                                message: editor.draft ? editor.draft.errors.counter : ""
                                shown: counterField.visible || editor.showAllErrors
                            }
                        }
                    }

                    Button {
                        id: advancedToggle
                        objectName: "advancedToggle"
                        // Open when asked, or by itself when something in it
                        // is wrong.
                        readonly property bool open: editor.advancedOpen || (editor.draft !== null
                                && (editor.draft.errors.algorithm !== "" || editor.draft.errors.digits !== ""
                                    || editor.draft.errors.period !== ""))
                        flat: true
                        text: (open ? "\u25be " : "\u25b8 ") + qsTr("Advanced")
                        Accessible.name: open ? qsTr("Hide advanced settings") : qsTr("Show advanced settings")
                        onClicked: editor.advancedOpen = !editor.advancedOpen
                    }

                    GridLayout {
                        objectName: "advancedSection"
                        visible: advancedToggle.open
                        columns: 2
                        columnSpacing: Math.round(metrics.height * 0.6)
                        rowSpacing: Math.round(metrics.height * 0.3)
                        Layout.fillWidth: true
                        // Steam Guard's settings are fixed.
                        enabled: editor.draft !== null && editor.draft.kind !== "steam"

                        FieldLabel { text: qsTr("Algorithm") }
                        ColumnLayout {
                            spacing: 0
                            Layout.fillWidth: true
                            ComboBox {
                                id: algorithmBox
                                objectName: "algorithmBox"
                                model: ["SHA1", "SHA256", "SHA512"]
                                currentIndex: editor.draft ? model.indexOf(editor.draft.algorithm.toUpperCase()) : 0
                                Layout.fillWidth: true
                                Accessible.name: qsTr("Hash algorithm")
                                onActivated: (index) => editor.draft.algorithm = model[index]
                            }
                            FieldError {
                                objectName: "algorithmError"
                                message: editor.draft ? editor.draft.errors.algorithm : ""
                                shown: true
                            }
                        }

                        FieldLabel { text: qsTr("Digits") }
                        ColumnLayout {
                            spacing: 0
                            Layout.fillWidth: true
                            SpinBox {
                                id: digitsBox
                                objectName: "digitsBox"
                                from: editor.draft && editor.draft.kind === "steam" ? 5 : 6
                                to: 10
                                value: editor.draft ? editor.draft.digits : 6
                                editable: true
                                Layout.fillWidth: true
                                Accessible.name: qsTr("Number of digits")
                                onValueModified: editor.draft.digits = value
                            }
                            FieldError {
                                objectName: "digitsError"
                                message: editor.draft ? editor.draft.errors.digits : ""
                                shown: true
                            }
                        }

                        FieldLabel {
                            text: qsTr("Period (seconds)")
                            visible: periodField.visible
                        }
                        ColumnLayout {
                            spacing: 0
                            Layout.fillWidth: true
                            visible: editor.draft !== null && editor.draft.kind !== "hotp"
                            TextField {
                                id: periodField
                                objectName: "periodField"
                                validator: RegularExpressionValidator { regularExpression: /[0-9]{0,10}/ }
                                inputMethodHints: Qt.ImhDigitsOnly
                                selectByMouse: true
                                Layout.fillWidth: true
                                Accessible.name: qsTr("Period in seconds")
                                // Kept as typed: an empty field is not rewritten
                                // to "0" under the cursor.
                                function sync() {
                                    if (editor.draft && Number(text) !== editor.draft.period)
                                        text = String(editor.draft.period)
                                }
                                Component.onCompleted: sync()
                                onTextEdited: editor.draft.period = text === "" ? 0 : Number(text)
                                Connections {
                                    target: editor
                                    function onDraftChanged() { periodField.sync() }
                                }
                                Connections {
                                    target: editor.draft
                                    function onPeriodChanged() { periodField.sync() }
                                }
                            }
                            FieldError {
                                objectName: "periodError"
                                message: editor.draft ? editor.draft.errors.period : ""
                                shown: periodField.visible || editor.showAllErrors
                            }
                        }
                    }

                    GridLayout {
                        columns: 2
                        columnSpacing: Math.round(metrics.height * 0.6)
                        rowSpacing: Math.round(metrics.height * 0.3)
                        Layout.fillWidth: true

                        FieldLabel { text: qsTr("Tags") }
                        ColumnLayout {
                            spacing: 0
                            Layout.fillWidth: true
                            TextField {
                                id: tagsField
                                objectName: "tagsField"
                                placeholderText: qsTr("Comma separated, e.g. work, email")
                                selectByMouse: true
                                Layout.fillWidth: true
                                Accessible.name: qsTr("Tags, separated by commas")
                                // Not bound to the draft while typing: the draft
                                // tidies "work," to "work" and would eat the comma.
                                function sync() { text = editor.draft ? editor.draft.tagsText : "" }
                                Component.onCompleted: sync()
                                onTextEdited: editor.draft.tagsText = text
                                onEditingFinished: sync()
                                Connections {
                                    target: editor
                                    function onDraftChanged() { tagsField.sync() }
                                }
                                Connections {
                                    target: editor.draft
                                    function onTagsChanged() {
                                        if (!tagsField.activeFocus)
                                            tagsField.sync()
                                    }
                                }
                            }
                            FieldError {
                                objectName: "tagsError"
                                message: editor.draft ? editor.draft.errors.tags : ""
                                shown: true
                            }
                        }

                        FieldLabel {
                            text: qsTr("Note")
                        }
                        ColumnLayout {
                            spacing: 0
                            Layout.fillWidth: true
                            TextArea {
                                id: noteField
                                objectName: "noteField"
                                text: editor.draft ? editor.draft.note : ""
                                wrapMode: TextEdit.Wrap
                                selectByMouse: true
                                placeholderText: qsTr("Optional")
                                Layout.fillWidth: true
                                Layout.minimumHeight: Math.round(metrics.height * 3)
                                Accessible.name: qsTr("Note")
                                // Framed like the text fields (Basic's TextArea has no frame).
                                background: Rectangle {
                                    color: noteField.palette.base
                                    border.width: noteField.activeFocus ? 2 : 1
                                    border.color: noteField.activeFocus ? noteField.palette.highlight
                                                                        : noteField.palette.mid
                                }
                                onTextChanged: if (editor.draft && text !== editor.draft.note) editor.draft.note = text
                            }
                            FieldError {
                                objectName: "noteError"
                                message: editor.draft ? editor.draft.errors.note : ""
                                shown: true
                            }
                        }
                    }

                    // The live preview, grouped as on the codes page.
                    RowLayout {
                        Layout.fillWidth: true
                        Layout.topMargin: Math.round(metrics.height * 0.4)
                        spacing: Math.round(metrics.height * 0.6)

                        Label {
                            text: qsTr("Code now")
                            color: editor.palette.placeholderText
                        }
                        Label {
                            id: previewLabel
                            objectName: "previewLabel"
                            visible: text !== ""
                            text: editor.draft ? editor.draft.preview.groupedCode : ""
                            font.family: "monospace"
                            font.pixelSize: Math.round(editor.font.pixelSize * 1.6)
                            Accessible.name: qsTr("Code now: %1").arg(text)
                        }
                        Label {
                            objectName: "previewSeconds"
                            readonly property int seconds: editor.draft ? editor.draft.preview.secondsLeft : 0
                            visible: previewLabel.visible && seconds > 0
                            text: seconds === 1 ? qsTr("1 second left") : qsTr("%1 seconds left").arg(seconds)
                            color: editor.palette.placeholderText
                        }
                        Label {
                            objectName: "previewPlaceholder"
                            visible: !previewLabel.visible
                            text: qsTr("Shown once the fields above are complete.")
                            color: editor.palette.placeholderText
                            wrapMode: Text.Wrap
                            Layout.fillWidth: true
                        }
                        Item { Layout.fillWidth: true; visible: previewLabel.visible }
                    }
                }
            }

            Label {
                objectName: "duplicateWarning"
                visible: editor.duplicate !== ""
                text: qsTr("%1 is already in the vault with this secret: its codes would show twice.")
                      .arg(editor.duplicate)
                color: palette.window.hslLightness < 0.5 ? "#fdd663" : "#8a5300"
                font.bold: true
                wrapMode: Text.Wrap
                Layout.fillWidth: true
                Accessible.name: text
            }

            Label {
                objectName: "saveError"
                visible: text !== ""
                text: editor.saveError
                color: palette.window.hslLightness < 0.5 ? "#f2b8b5" : "#b3261e"
                wrapMode: Text.Wrap
                Layout.fillWidth: true
                Accessible.name: qsTr("Could not save: %1").arg(text)
            }

            RowLayout {
                Layout.fillWidth: true
                Item { Layout.fillWidth: true }
                Button {
                    objectName: "cancelButton"
                    text: qsTr("Cancel")
                    Accessible.name: qsTr("Cancel, keep the vault as it is")
                    onClicked: editor.cancel()
                }
                Button {
                    objectName: "saveButton"
                    text: editor.duplicate !== "" && !editor.editing ? qsTr("Add anyway") : qsTr("Save")
                    highlighted: true
                    enabled: editor.draft !== null && editor.draft.valid
                    Accessible.name: editor.editing ? qsTr("Save the account") : qsTr("Add the account")
                    onClicked: editor.save()
                }
            }
        }
    }

    // A field's name. One width for all, so that the fields of every section
    // line up; at the top, so that an error under a field does not move it.
    component FieldLabel: Label {
        Layout.preferredWidth: Math.ceil(Math.max(labelMetrics.advanceWidth(qsTr("Period (seconds)")),
                                                  labelMetrics.advanceWidth(qsTr("Secret key")),
                                                  labelMetrics.advanceWidth(qsTr("Algorithm"))))
        Layout.alignment: Qt.AlignTop
        topPadding: Math.round(labelMetrics.height * 0.8)
        FontMetrics {
            id: labelMetrics
        }
    }

    // An error under its field, once it should be seen. Its line is kept
    // when there is nothing to say, so the fields below do not jump as
    // messages come and go.
    component FieldError: Label {
        property string message
        property bool shown
        readonly property bool showing: message !== "" && shown
        Layout.fillWidth: true
        opacity: showing ? 1 : 0
        Accessible.ignored: !showing
        text: showing ? message : " "
        color: palette.window.hslLightness < 0.5 ? "#f2b8b5" : "#b3261e"
        wrapMode: Text.Wrap
        Accessible.name: text
    }
}
