import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App

ApplicationWindow {
    id: window

    required property VaultController vault
    required property AccountStore accounts
    required property NoteStore notes
    required property ContactBook contacts
    required property Clock clock
    required property ClipboardService clipboard
    required property AppSettings settings
    required property Theme theme
    required property BackupFolder backups
    // What C++ asks of the window (--page and the diagnostics options, a
    // link from another launch, a request to come to the front).
    required property Navigator navigator

    ThemePalette {
        theme: window.theme
        target: window
    }

    // Files are chosen in the desktop's own chooser unless the setting says
    // otherwise (FilePicker.ask()).
    Binding {
        target: DesktopFileChooser
        property: "enabled"
        value: window.settings.desktopFileChooser
    }

    onVisibilityChanged: (visibility) => {
        if (visibility === Window.Minimized && window.settings.lockOnMinimize)
            window.vault.lock()
    }

    width: 720
    height: 560
    // Below this the header's tabs and the forms' labels would overlap.
    minimumWidth: 600
    minimumHeight: 440
    visible: true
    title: vault.demo ? qsTr("Watchword (demo)") : qsTr("Watchword")

    // An otpauth:// link to add, from the command line, the desktop's link
    // handler or a later launch; the add dialog takes it from here.
    property string pendingUri: ""

    function openAddDialog(uri) {
        window.pendingUri = uri
        window.openPendingUri()
    }

    // Opens the add dialog on the pending link once the vault is unlocked.
    function openPendingUri() {
        if (window.pendingUri === "" || window.vault.state !== VaultController.Unlocked)
            return
        tabs.currentIndex = 0
        newDraft.wipe()
        window.openEditor(newDraft)
        newDraft.loadUri(window.pendingUri)
        window.pendingUri = ""
    }

    function openEditor(draft) {
        const dialog = window.editor()
        dialog.saveError = ""
        dialog.draft = draft
        dialog.clipboardUri = window.clipboard.otpauthLink()
        dialog.open()
    }

    function editAccount(recordId) {
        const draft = window.accounts.draftFor(recordId)
        if (draft)
            window.openEditor(draft)
    }

    // For the documentation's screenshots (`watchword --screenshot FILE
    // --page NAME`, scripts/screenshots.sh): shows a page or dialog the way a
    // person gets there. False when the vault's state does not offer it.
    // `--page diagnostics --diagnostics-run FILTER`: runs the matching
    // benchmarks; the screenshot waits while pageBusy.
    function runDiagnostics(filter) {
        tabs.currentIndex = 3
        diagnosticsLoader.active = true
        return diagnosticsLoader.item.controller.run.startMatching(filter)
    }
    // What a screenshot waits for: a benchmark run, or the simulated watch
    // checking its PIN.
    readonly property bool pageBusy: (importLoader.item !== null && importLoader.item.controller.busy)
                                     || (diagnosticsLoader.item !== null
                                      && diagnosticsLoader.item.controller.busy)
                                     || (watchLoader.item !== null && watchLoader.item.watch.busy)
    // `--diagnostics-export FILE`: the finished run's JSON report.
    function exportDiagnostics(fileUrl) {
        return diagnosticsLoader.item !== null
               && diagnosticsLoader.item.controller.reports.exportTo("json", fileUrl)
    }

    // `--page watch-<device>`: that watch, with an export of every account
    // made under the worked example's PIN and opened on the watch.
    function showWatch(deviceId) {
        tabs.currentIndex = 4
        watchLoader.active = true
        const page = watchLoader.item
        page.profiles.deviceId = deviceId
        if (page.profiles.deviceId !== deviceId)
            return false
        const ids = page.exportFile.choices.map(choice => choice.id)
        if (!page.exportFile.create(ids, "482916", "482916"))
            return false
        for (const digit of "482916")
            page.watch.typeDigit(Number(digit))
        page.watch.enter()
        return true
    }

    // The vault's state is checked by the navigator before it asks.
    function showPage(page, argument) {
        switch (page) {
        case Navigator.WatchDevice:
            return window.showWatch(argument)
        case Navigator.Codes:
            tabs.currentIndex = 0
            return true
        case Navigator.Add:
            tabs.currentIndex = 0
            newDraft.wipe()
            window.openEditor(newDraft)
            return true
        case Navigator.Notes: {
            tabs.currentIndex = 1
            if (!notesLoader.item)
                return false
            // The model's first note, shown: IdRole is its first role.
            const notes = window.notes.model
            if (notes.rowCount() > 0) {
                notesLoader.item.select(notes.data(notes.index(0, 0), Qt.UserRole + 1))
                notesLoader.item.reveal()
            }
            return true
        }
        case Navigator.Settings:
            tabs.currentIndex = 2
            return true
        case Navigator.Diagnostics:
            tabs.currentIndex = 3
            return true
        case Navigator.Watch:
            tabs.currentIndex = 4
            return true
        case Navigator.Contacts:
            tabs.currentIndex = 5
            return true
        case Navigator.ImportPreview:
            // The demo vault's sample: duplicates, a same-name account, new ones.
            tabs.currentIndex = 0
            window.importer().open()
            return window.importer().controller.openDemoSample()
        case Navigator.Export:
            tabs.currentIndex = 0
            window.exporter().open()
            window.exporter().controller.formatIndex = 1 // Aegis (plain): the warning shows
            return true
        case Navigator.Qr: {
            const accounts = window.accounts.model
            if (accounts.rowCount() === 0)
                return false
            tabs.currentIndex = 0
            // IdRole, IssuerRole: the model's first roles.
            const first = accounts.index(0, 0)
            const qrDialog = window.qrCodes()
            qrDialog.showAccount(accounts.data(first, Qt.UserRole + 1),
                                 accounts.data(first, Qt.UserRole + 2))
            qrDialog.code.revealed = true
            return qrDialog.code.count === 1
        }
        case Navigator.QrTransfer:
            tabs.currentIndex = 0
            window.qrCodes().showTransfer([])
            window.qrCodes().code.revealed = true
            return window.qrCodes().code.count > 0
        case Navigator.Share: {
            const accounts = window.accounts.model
            if (accounts.rowCount() === 0 || window.contacts.contacts.length === 0)
                return false
            tabs.currentIndex = 0
            // IdRole: the model's first role. The first contact ticked.
            const sharer = window.sharer()
            sharer.openFor([accounts.data(accounts.index(0, 0), Qt.UserRole + 1)])
            const chosen = {}
            chosen[window.contacts.contacts[0].recordId] = true
            sharer.chosenContacts = chosen
            return sharer.controller.seal(sharer.recordIds, sharer.contactIds)
        }
        case Navigator.Receive:
            tabs.currentIndex = 0
            window.receiver().open()
            return window.receiver().controller.openDemoSample()
        case Navigator.Unlock:
            window.vault.lock()
            return window.vault.state === VaultController.Locked
        case Navigator.Recovery:
        case Navigator.RecoveryConfirm: {
            // A throw-away password nobody knows: the screenshot is taken
            // before the phrase is confirmed, so no vault is ever created.
            let throwAway = ""
            while (throwAway.length < 32)
                throwAway += Math.random().toString(36).slice(2)
            window.screenshotConfirming = page === Navigator.RecoveryConfirm
            return window.vault.phrase.beginCreate(throwAway, throwAway)
        }
        }
        return false
    }
    Connections {
        target: window.navigator
        function onPageRequested(page, argument) {
            window.navigator.answer(window.showPage(page, argument))
        }
        function onDiagnosticsRunRequested(filter) {
            window.navigator.answer(window.runDiagnostics(filter))
        }
        function onDiagnosticsExportRequested(file) {
            window.navigator.answer(window.exportDiagnostics(file))
        }
        function onAddRequested(uri) {
            window.openAddDialog(uri)
        }
        function onRaiseRequested() {
            window.raiseWindow()
        }
    }
    property bool screenshotConfirming: false
    function findItem(item, test) {
        if (test(item))
            return item
        for (let i = 0; i < item.children.length; ++i) {
            const found = window.findItem(item.children[i], test)
            if (found)
                return found
        }
        return null
    }
    Connections {
        target: window.vault.phrase
        enabled: window.screenshotConfirming
        function onRecoveryPhraseChanged() {
            // Once the page has shown the words: the confirmation step.
            Qt.callLater(() => {
                const panel = window.findItem(window.contentItem,
                                              (item) => item.visible && item.confirming === false)
                if (panel)
                    panel.confirming = true
            })
        }
    }

    AccountDraft {
        id: newDraft
    }

    Loader {
        id: editorLoader
        active: false
        sourceComponent: Component {
            AccountEditor {
                id: accountEditor
                parent: Overlay.overlay
                accounts: window.vault.state === VaultController.Unlocked ? window.accounts : null
                now: window.clock.now
                onAccepted: (draft) => {
                    const saved = draft.recordId === "" ? window.accounts.add(draft)
                                                        : window.accounts.update(draft)
                    if (saved) {
                        accountEditor.close()
                        draft.wipe()
                    } else {
                        accountEditor.saveError = window.vault.error
                    }
                }
                onRejected: accountEditor.draft.wipe()
                onMigrationScanned: (text) => {
                    accountEditor.close()
                    accountEditor.draft.wipe()
                    window.importer().openText(text)
                }
            }
        }
    }
    function editor() {
        editorLoader.active = true
        return editorLoader.item
    }

    // Import, export and QR codes: dialogs over the page.
    Loader {
        id: importLoader
        active: false
        sourceComponent: Component {
            ImportDialog {
                id: importDialog
                parent: Overlay.overlay
                vault: window.vault
                onImported: (message) => window.notice = message
                // A share dropped or chosen here goes to "Receive a share…".
                Connections {
                    target: importDialog.controller
                    function onShareFound(envelope, sourceName) {
                        importDialog.close()
                        window.receiver().openData(envelope, sourceName)
                    }
                }
            }
        }
    }
    function importer() {
        importLoader.active = true
        return importLoader.item
    }
    Loader {
        id: exportLoader
        active: false
        sourceComponent: Component {
            ExportDialog {
                accounts: window.accounts.model
                id: exportDialog
                parent: Overlay.overlay
                vault: window.vault
                onTransferRequested: (recordIds) => {
                    exportDialog.close()
                    window.qrCodes().showTransfer(recordIds)
                }
            }
        }
    }
    function exporter() {
        exportLoader.active = true
        return exportLoader.item
    }
    Loader {
        id: qrLoader
        active: false
        sourceComponent: Component {
            QrCodeDialog {
                id: qrDialog
                parent: Overlay.overlay
                vault: window.vault
            }
        }
    }
    function qrCodes() {
        qrLoader.active = true
        return qrLoader.item
    }
    // Sharing with contacts: dialogs over the page.
    Loader {
        id: shareLoader
        active: false
        sourceComponent: Component {
            ShareDialog {
                parent: Overlay.overlay
                vault: window.vault
                contacts: window.contacts
                onQrRequested: (text) => window.qrCodes().showShare(text)
                onContactsRequested: tabs.currentIndex = 5
            }
        }
    }
    function sharer() {
        shareLoader.active = true
        return shareLoader.item
    }
    Loader {
        id: receiveLoader
        active: false
        sourceComponent: Component {
            ReceiveDialog {
                parent: Overlay.overlay
                vault: window.vault
                contacts: window.contacts
                onReceived: (message) => window.notice = message
            }
        }
    }
    function receiver() {
        receiveLoader.active = true
        return receiveLoader.item
    }
    // What the last import did, until dismissed.
    property string notice: ""
    // A recovery is under way: its success is confirmed in the notice.
    property bool recovering: false
    Connections {
        target: window.vault
        function onStateChanged() {
            if (window.vault.state === VaultController.Unlocked && window.recovering)
                window.notice = qsTr("Recovered with your recovery phrase: the vault now opens with the new password.")
            if (window.vault.state !== VaultController.Unlocking)
                window.recovering = false
        }
    }

    // A new recovery phrase from Settings: shown and confirmed over the page.
    Popup {
        id: phraseDialog
        parent: Overlay.overlay
        modal: true
        closePolicy: Popup.NoAutoClose
        visible: window.vault.state === VaultController.Unlocked
                 && window.vault.phrase.recoveryWords.length > 0
        anchors.centerIn: parent
        width: Math.min(parent.width - 32, 640)
        height: Math.min(parent.height - 32, phrasePanel.implicitHeight + topPadding + bottomPadding)
        ScrollView {
            anchors.fill: parent
            contentWidth: availableWidth
            RecoveryPhrasePanel {
                id: phrasePanel
                width: parent.width
                vault: window.vault
                onVisibleChanged: if (!visible) confirming = false
            }
        }
    }

    Connections {
        target: window.vault
        function onStateChanged() {
            if (window.vault.state === VaultController.Unlocked) {
                window.openPendingUri()
            } else {
                for (const loader of [editorLoader, importLoader, exportLoader, qrLoader,
                                       shareLoader, receiveLoader]) {
                    if (loader.item)
                        loader.item.close()
                }
                window.notice = ""
            }
        }
    }

    Shortcut {
        sequence: "Ctrl+N"
        enabled: window.vault.state === VaultController.Unlocked
                 && !(editorLoader.item && editorLoader.item.opened)
        onActivated: {
            if (tabs.currentIndex === 1 && notesLoader.item) {
                notesLoader.item.newNote()
                return
            }
            tabs.currentIndex = 0
            newDraft.wipe()
            window.openEditor(newDraft)
        }
    }

    // A later launch or the tray's Show: bring the window back, wherever it is.
    function raiseWindow() {
        if (!window.visible)
            window.show()
        if (window.visibility === Window.Minimized)
            window.showNormal()
        // The offscreen platform (tests, CI) has no stack to raise a window
        // in, and says so on stderr.
        if (Qt.platform.pluginName !== "offscreen")
            window.raise()
        window.requestActivate()
    }

    Shortcut {
        sequences: [StandardKey.Quit]
        onActivated: Qt.quit()
    }

    // True from a missing vault until it is created (or found missing again).
    // (Set, not bound: it must stay true while the new vault is Unlocking.)
    property bool firstRun: false
    Component.onCompleted: firstRun = vault.state === VaultController.Missing
    Connections {
        target: window.vault
        function onStateChanged() {
            if (window.vault.state === VaultController.Missing)
                window.firstRun = true
            else if (window.vault.state !== VaultController.Unlocking)
                window.firstRun = false
        }
    }

    // Ctrl+Z: the last deletion back (text fields keep Ctrl+Z for their own
    // text; the codes' search field passes it on when it has nothing to undo).
    Shortcut {
        sequences: [StandardKey.Undo]
        enabled: window.vault.state === VaultController.Unlocked && window.vault.history.canUndo
        onActivated: window.undoLast()
    }
    function undoLast() {
        if (tabs.currentIndex === 1 && notesLoader.item)
            notesLoader.item.undoDelete()
        else
            window.vault.history.undo()
    }

    // Locks from anywhere, a modal dialog open included (a window shortcut
    // is blocked by a modal popup).
    Shortcut {
        sequence: "Ctrl+L"
        context: Qt.ApplicationShortcut
        enabled: window.vault.state === VaultController.Unlocked
        onActivated: window.vault.lock()
    }

    // A page tab that reads as one: the current page is marked by a bar
    // under its name (and a bold name), the others are plain text; keyboard
    // focus draws a frame.
    component PageTab: TabButton {
        id: pageTab
        width: implicitWidth
        font.bold: checked
        contentItem: Label {
            text: pageTab.text
            font: pageTab.font
            color: pageTab.palette.windowText
            opacity: pageTab.enabled ? 1 : 0.5
            horizontalAlignment: Text.AlignHCenter
            verticalAlignment: Text.AlignVCenter
            elide: Text.ElideRight
        }
        background: Rectangle {
            implicitHeight: 40
            color: pageTab.hovered && !pageTab.checked ? pageTab.palette.midlight : "transparent"
            border.width: pageTab.visualFocus ? 2 : 0
            border.color: pageTab.palette.highlight
            radius: 3
            Rectangle {
                anchors.left: parent.left
                anchors.right: parent.right
                anchors.bottom: parent.bottom
                height: 3
                visible: pageTab.checked
                color: pageTab.palette.highlight
            }
        }
    }

    header: ToolBar {
        objectName: "toolBar"
        RowLayout {
            anchors.fill: parent
            anchors.leftMargin: 16
            anchors.rightMargin: 8
            Label {
                text: window.title
                font.pixelSize: Qt.application.font.pixelSize * 1.4
                font.bold: true
                elide: Text.ElideRight
                Layout.fillWidth: true
                Layout.minimumWidth: 0
            }
            TabBar {
                id: tabs
                objectName: "pageTabs"
                background: null
                PageTab {
                    text: qsTr("Codes")
                    Accessible.name: qsTr("Codes (Alt+1)")
                }
                PageTab {
                    text: qsTr("Notes")
                    enabled: window.vault.state === VaultController.Unlocked
                    Accessible.name: qsTr("Notes (Alt+2)")
                }
                PageTab {
                    text: qsTr("Settings")
                    Accessible.name: qsTr("Settings (Alt+3)")
                }
                PageTab {
                    text: qsTr("Diagnostics")
                    Accessible.name: qsTr("Diagnostics (Alt+4)")
                }
                PageTab {
                    text: qsTr("Watch")
                    Accessible.name: qsTr("Watch (Alt+5)")
                }
                PageTab {
                    objectName: "contactsTab"
                    text: qsTr("Contacts")
                    enabled: window.vault.state === VaultController.Unlocked
                    Accessible.name: qsTr("Contacts (Alt+6)")
                }
            }
            // Always in the row, shown or not: nothing moves under the mouse
            // when the vault locks or a save starts.
            BusyIndicator {
                running: window.vault.saving || window.vault.busy
                opacity: running ? 1 : 0
                implicitWidth: implicitHeight
                Layout.preferredHeight: lockButton.implicitHeight
                Accessible.name: window.vault.saving ? qsTr("Saving") : qsTr("Working")
                Accessible.ignored: !running
                ToolTip.visible: running && hovered
                ToolTip.text: window.vault.saving ? qsTr("Saving the vault\u2026") : qsTr("Working\u2026")
            }
            ToolButton {
                id: menuButton
                objectName: "appMenuButton"
                text: "\u22ee"
                Accessible.name: qsTr("More: import, export, about")
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Import, export, about")
                // Under the button, its right edge on the button's (aligned left
                // it would be pushed flat against the window's edge).
                onClicked: appMenu.popup(menuButton, menuButton.width - appMenu.width, menuButton.height)
                Menu {
                    id: appMenu
                    readonly property bool unlocked: window.vault.state === VaultController.Unlocked
                    // As wide as its longest item (the Basic style's menu
                    // keeps 200 px and cuts the rest).
                    width: Math.max(implicitWidth, menuMetrics.advanceWidth(transferItem.text) + 64)
                    FontMetrics {
                        id: menuMetrics
                        font: appMenu.font
                    }
                    MenuItem {
                        objectName: "importItem"
                        text: qsTr("&Import\u2026")
                        enabled: appMenu.unlocked && !window.vault.busy
                        onTriggered: window.importer().open()
                    }
                    MenuItem {
                        objectName: "exportItem"
                        text: qsTr("&Export\u2026")
                        enabled: appMenu.unlocked && !window.vault.busy
                        onTriggered: window.exporter().open()
                    }
                    MenuItem {
                        objectName: "shareItem"
                        text: qsTr("&Share with contacts\u2026")
                        enabled: appMenu.unlocked && !window.vault.busy
                        onTriggered: window.sharer().openFor([])
                    }
                    MenuItem {
                        objectName: "receiveItem"
                        text: qsTr("&Receive a share\u2026")
                        enabled: appMenu.unlocked && !window.vault.busy
                        onTriggered: window.receiver().open()
                    }
                    MenuItem {
                        id: transferItem
                        objectName: "transferItem"
                        text: qsTr("&Transfer to Google Authenticator\u2026")
                        enabled: appMenu.unlocked && !window.vault.busy
                        onTriggered: window.qrCodes().showTransfer([])
                    }
                    MenuSeparator {}
                    MenuItem {
                        objectName: "aboutItem"
                        text: qsTr("&About Watchword")
                        onTriggered: window.about().open()
                    }
                }
            }
            ToolButton {
                id: lockButton
                text: qsTr("Lock")
                enabled: window.vault.state === VaultController.Unlocked
                Accessible.name: qsTr("Lock the vault")
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Lock (Ctrl+L)")
                onClicked: window.vault.lock()
            }
        }
    }

    // Pages by key: Alt+1 to Alt+6, and Ctrl+Page Up / Page Down in turn.
    Repeater {
        model: 6
        Item {
            required property int index
            Shortcut {
                sequence: "Alt+" + (index + 1)
                enabled: tabs.itemAt(index) !== null && tabs.itemAt(index).enabled
                onActivated: tabs.currentIndex = index
            }
        }
    }
    function stepPage(step) {
        for (let i = 1; i <= tabs.count; ++i) {
            const next = (tabs.currentIndex + step * i + tabs.count) % tabs.count
            if (tabs.itemAt(next).enabled) {
                tabs.currentIndex = next
                return
            }
        }
    }
    Shortcut {
        sequences: [StandardKey.NextChild, "Ctrl+PgDown"]
        onActivated: window.stepPage(1)
    }
    Shortcut {
        sequences: [StandardKey.PreviousChild, "Ctrl+PgUp"]
        onActivated: window.stepPage(-1)
    }

    Loader {
        id: aboutLoader
        active: false
        sourceComponent: Component {
            AboutDialog {
                id: aboutDialog
                parent: Overlay.overlay
            }
        }
    }
    function about() {
        aboutLoader.active = true
        return aboutLoader.item
    }

    // A save that failed (the file changed on disk, the disk is full): the
    // change is kept in memory; the user must know it is not on disk.
    property string saveProblem: ""
    Connections {
        target: window.vault
        function onSaveFailed(message) {
            window.saveProblem = message
        }
        function onSaved() {
            window.saveProblem = ""
        }
    }

    // Another device's changes merged in (the vault's folder is synced).
    Connections {
        target: window.vault.sync
        function onMerged(summary) {
            window.notice = summary
        }
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 0

        // A copy of the vault saved under a password changed on another
        // device: its changes wait for that password.
        Frame {
            objectName: "syncPassword"
            visible: window.vault.sync.passwordWantedFor !== ""
                     && window.vault.state === VaultController.Unlocked
            Layout.fillWidth: true
            Layout.margins: 8
            ColumnLayout {
                anchors.fill: parent
                Label {
                    text: qsTr("The vault's password was changed on another device. Enter that password to bring in the changes saved in %1.").arg(window.vault.sync.passwordWantedFor)
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                }
                RowLayout {
                    Layout.fillWidth: true
                    TextField {
                        id: syncPasswordField
                        objectName: "syncPasswordField"
                        echoMode: TextInput.Password
                        placeholderText: qsTr("Password from the other device")
                        enabled: !window.vault.sync.opening
                        Layout.fillWidth: true
                        Accessible.name: qsTr("Password the other copy was saved with")
                        onAccepted: syncMergeButton.clicked()
                    }
                    Button {
                        id: syncMergeButton
                        objectName: "syncMergeButton"
                        text: window.vault.sync.opening ? qsTr("Opening…") : qsTr("Merge")
                        enabled: !window.vault.sync.opening && syncPasswordField.text !== ""
                        onClicked: {
                            window.vault.sync.providePassword(syncPasswordField.text)
                            syncPasswordField.text = ""
                        }
                    }
                    Button {
                        objectName: "syncLaterButton"
                        text: qsTr("Later")
                        enabled: !window.vault.sync.opening
                        onClicked: {
                            syncPasswordField.text = ""
                            window.vault.sync.later()
                        }
                    }
                }
                Label {
                    objectName: "syncPasswordError"
                    visible: text !== ""
                    text: window.vault.sync.passwordError
                    color: "#b3261e"
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                }
            }
        }

        // A file that could not be merged: named, and left as it is.
        Frame {
            objectName: "syncProblem"
            visible: window.vault.sync.problem !== "" && window.vault.state === VaultController.Unlocked
            Layout.fillWidth: true
            Layout.margins: 8
            background: Rectangle {
                color: Qt.rgba(0.85, 0.55, 0.1, 0.15)
                border.color: Qt.rgba(0.7, 0.45, 0.1, 0.6)
                radius: 4
            }
            RowLayout {
                anchors.fill: parent
                Label {
                    objectName: "syncProblemText"
                    text: window.vault.sync.problem
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                    Accessible.name: qsTr("Sync problem: %1").arg(text)
                }
                Button {
                    text: qsTr("Dismiss")
                    Accessible.name: qsTr("Dismiss the sync problem")
                    onClicked: window.vault.sync.clearProblem()
                }
            }
        }

        Frame {
            objectName: "notice"
            visible: window.notice !== "" && window.vault.state === VaultController.Unlocked
            Layout.fillWidth: true
            Layout.margins: 8
            RowLayout {
                anchors.fill: parent
                Label {
                    objectName: "noticeText"
                    text: window.notice
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                }
                Button {
                    text: qsTr("Dismiss")
                    onClicked: window.notice = ""
                }
            }
        }

        Frame {
            objectName: "saveProblem"
            visible: window.saveProblem !== "" && window.vault.state === VaultController.Unlocked
            Layout.fillWidth: true
            Layout.margins: 8
            background: Rectangle {
                color: Qt.rgba(0.85, 0.2, 0.15, 0.15)
                border.color: Qt.rgba(0.7, 0.15, 0.1, 0.6)
                radius: 4
            }
            RowLayout {
                anchors.fill: parent
                Label {
                    text: window.saveProblem
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                    Accessible.name: qsTr("Save problem: %1").arg(text)
                }
                Button {
                    text: qsTr("Dismiss")
                    Accessible.name: qsTr("Dismiss the save problem")
                    onClicked: window.saveProblem = ""
                }
            }
        }

        StackLayout {
            Layout.fillWidth: true
            Layout.fillHeight: true
            currentIndex: tabs.currentIndex

            Loader {
                sourceComponent: {
                    switch (window.vault.state) {
                    case VaultController.Missing:
                        return welcome
                    case VaultController.Unlocking:
                        // Creating a new vault goes on on its own page.
                        return window.firstRun ? welcome : unlock
                    case VaultController.Unlocked:
                        return codes
                    default:
                        return unlock
                    }
                }
            }
            // Loaded only while unlocked: locking destroys the page and any
            // note body it shows.
            // Made the first time the tab is shown, too.
            Loader {
                id: notesLoader
                property bool wanted: false
                active: wanted && window.vault.state === VaultController.Unlocked
                StackLayout.onIsCurrentItemChanged: {
                    if (StackLayout.isCurrentItem)
                        wanted = true
                }
                sourceComponent: NotesPage {
                    vault: window.vault
                    notes: window.notes
                    onShareRequested: (recordId) => window.sharer().openFor([recordId])
                }
            }
            // Made the first time the tab is shown (the launch draws the
            // codes, not the settings), then kept.
            Loader {
                active: false
                StackLayout.onIsCurrentItemChanged: {
                    if (StackLayout.isCurrentItem)
                        active = true
                }
                sourceComponent: SettingsPage {
                    settings: window.settings
                    vault: window.vault
                    backups: window.backups
                    onIdentityQrRequested: (text, fingerprint) =>
                                              window.qrCodes().showIdentity(text, fingerprint)
                }
            }
            // Made the first time the tab is shown, then kept (a run goes on
            // behind another tab): the page reads this machine, the benchmark
            // catalogue and the saved baselines, none of which the launch needs.
            Loader {
                id: diagnosticsLoader
                active: false
                StackLayout.onIsCurrentItemChanged: {
                    if (StackLayout.isCurrentItem)
                        active = true
                }
                sourceComponent: DiagnosticsPage {
                    controller: DiagnosticsController {}
                    appTargets: Component {
                        AppTargetsPanel {
                            model: AppMetrics
                        }
                    }
                }
            }
            // The watch simulator, also made when first shown: it reads the
            // device profiles. What the simulated watch opened goes when the
            // vault locks (the simulated watch follows the vault's state).
            Loader {
                id: watchLoader
                active: false
                StackLayout.onIsCurrentItemChanged: {
                    if (StackLayout.isCurrentItem)
                        active = true
                }
                sourceComponent: WatchPage {
                    simulator: WatchSimulator {
                        vault: window.vault
                        accounts: window.accounts.model
                        clock: window.clock
                        settings: window.settings
                    }
                }
            }
            // The contacts: like the notes, loaded only while unlocked and
            // once the tab has been shown.
            Loader {
                id: contactsLoader
                property bool wanted: false
                active: wanted && window.vault.state === VaultController.Unlocked
                StackLayout.onIsCurrentItemChanged: {
                    if (StackLayout.isCurrentItem)
                        wanted = true
                }
                sourceComponent: ContactsPage {
                    vault: window.vault
                    contacts: window.contacts
                }
            }
        }
    }

    // Leaving the notes when the vault locks: back to the unlock page.
    Connections {
        target: window.vault
        function onStateChanged() {
            if (window.vault.state !== VaultController.Unlocked
                    && (tabs.currentIndex === 1 || tabs.currentIndex === 5))
                tabs.currentIndex = 0
        }
    }

    Component {
        id: welcome
        CreateVaultPage {
            vault: window.vault
        }
    }
    Component {
        id: unlock
        UnlockPage {
            vault: window.vault
            onRecoveryStarted: window.recovering = true
        }
    }
    Component {
        id: codes
        CodesPage {
            id: codesPage
            model: AccountFilterModel {
                sourceModel: window.accounts.model
                searchText: codesPage.searchText
                tag: codesPage.tagFilter
                order: codesPage.order
            }
            now: window.clock.now
            order: window.settings.accountOrder
            onOrderChanged: window.settings.accountOrder = order
            allTags: window.accounts.model.allTags
            canUndo: window.vault.history.canUndo
            hideCodes: window.settings.hideCodes
            undoText: window.vault.history.undoText
            onCopyRequested: (recordId, plainCode) => window.accounts.copyCode(recordId)
            onAdvanceRequested: (recordId) => window.accounts.advanceCounter(recordId)
            onAddRequested: {
                newDraft.wipe()
                window.openEditor(newDraft)
            }
            onEditRequested: (recordId) => window.editAccount(recordId)
            onDeleteRequested: (recordId) => window.accounts.remove(recordId)
            onMoveRequested: (recordId, to) => window.accounts.move(recordId, to)
            onUndoRequested: window.vault.history.undo()
            onQrRequested: (recordId, title) => window.qrCodes().showAccount(recordId, title)
            onShareRequested: (recordId) => window.sharer().openFor([recordId])
            onFileDropped: (file) => window.importer().openFile(file)
        }
    }
}
