import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App
import Watchword.Ui

// The secure notes of the unlocked vault: titles on the left, the chosen
// note on the right (over the list when the window is narrow). A body is
// fetched from the vault only when the user presses Show, and the one text
// field that holds it is emptied on Hide, on choosing another note, on
// editing and when the page goes away (the window destroys it on lock).
// No copy of a body is kept in a property. Deleting asks nothing: the vault
// keeps deleted records for undo, and the page offers it for a few seconds.
// What is shown, matched and chosen is decided in C++ (NoteFilterModel,
// NoteDraft, NoteStore): the page binds to it and forwards what the user
// does.

Pane {
    id: page
    objectName: "notesPage"

    // The VaultController (busy, error and the undo history) and the
    // NoteStore whose notes these are.
    required property var vault
    required property var notes
    readonly property var noteList: notes ? notes.model : null
    // "Share…": the note sealed to contacts.
    signal shareRequested(string recordId)
    property alias searchText: searchField.text
    // The chosen note (a noteEntry: recordId, title, tags, modified), or
    // null.
    readonly property var selected: shown.selected.recordId !== "" ? shown.selected : null
    readonly property string selectedId: shown.selectedId
    // Whose body the view shows now ("" while hidden).
    property string revealedId: ""
    property bool editing: false
    property string saveError: ""
    property string actionError: ""
    property bool monospace: false
    property bool undoOffered: false
    readonly property bool narrow: width < metrics.averageCharacterWidth * 72
    readonly property bool noteOpen: editing || selected !== null
    readonly property bool editable: vault !== null && !vault.busy

    // Starts a new note (Ctrl+N in the window). While a note is being
    // edited it only brings the focus back to the form, so nothing typed is
    // lost.
    function newNote() {
        dismissUndo()
        if (editing) {
            titleField.forceActiveFocus(Qt.ShortcutFocusReason)
            return
        }
        hideBody()
        actionError = ""
        draft.clear()
        saveError = ""
        editing = true
        titleField.forceActiveFocus(Qt.ShortcutFocusReason)
    }

    function editSelected() {
        if (!selected || !editable)
            return
        dismissUndo()
        hideBody()
        actionError = ""
        if (!page.notes.edit(selected.recordId, draft))
            return
        saveError = ""
        editing = true
        titleField.forceActiveFocus(Qt.OtherFocusReason)
    }

    function closeEditor() {
        draft.clear()
        bodyEditor.text = ""
        saveError = ""
        editing = false
    }

    function cancelEdit() {
        const wasNew = draft.recordId === ""
        closeEditor()
        if (page.narrow || wasNew || !selected)
            list.forceActiveFocus(Qt.OtherFocusReason)
        else
            revealButton.forceActiveFocus(Qt.OtherFocusReason)
    }

    function save() {
        if (!editing || !draft.valid || !editable)
            return
        const adding = draft.recordId === ""
        const id = adding ? page.notes.add(draft) : draft.recordId
        if (id === "" || (!adding && !page.notes.update(draft))) {
            saveError = vault.error !== "" ? vault.error : qsTr("The note could not be saved.")
            return
        }
        closeEditor()
        select(id)
        if (selected && !page.narrow)
            revealButton.forceActiveFocus(Qt.OtherFocusReason)
    }

    function select(recordId) {
        shown.selectedId = recordId
    }

    function reveal() {
        if (!selected)
            return
        dismissUndo()
        bodyView.text = page.notes.reveal(selected.recordId)
        revealedId = selected.recordId
    }

    function hideBody() {
        bodyView.text = ""
        revealedId = ""
    }

    function deleteSelected() {
        if (!selected || !editable)
            return
        hideBody()
        if (!page.notes.remove(selected.recordId)) {
            actionError = vault.error !== "" ? vault.error : qsTr("The note could not be deleted.")
            return
        }
        actionError = ""
        undoOffered = true
        undoTimer.restart()
        undoButton.forceActiveFocus(Qt.OtherFocusReason)
    }

    function undoDelete() {
        dismissUndo()
        // It comes back under a new id, which undo() gives.
        const id = vault.history.undo()
        if (id === "") {
            actionError = vault.error !== "" ? vault.error : qsTr("The note could not be restored.")
            return
        }
        select(id)
        list.forceActiveFocus(Qt.OtherFocusReason)
    }

    function dismissUndo() {
        undoOffered = false
        undoTimer.stop()
    }

    function formatDate(seconds, format) {
        if (!seconds)
            return ""
        return new Date(seconds * 1000).toLocaleDateString(Qt.locale(), format)
    }

    function openFirstMatch() {
        if (list.currentIndex < 0 && list.count > 0)
            list.currentIndex = 0
        openCurrent()
    }

    function openCurrent() {
        if (!list.currentItem)
            return
        select(list.currentItem.recordId)
        revealButton.forceActiveFocus(Qt.TabFocusReason)
    }

    padding: Math.round(metrics.height * 0.8)

    Component.onDestruction: {
        bodyView.text = ""
        draft.clear()
        bodyEditor.text = ""
    }

    FontMetrics {
        id: metrics
        font: page.font
    }

    Shortcut {
        sequences: [StandardKey.Find]
        enabled: page.visible && page.enabled
        onActivated: {
            searchField.forceActiveFocus(Qt.ShortcutFocusReason)
            searchField.selectAll()
        }
    }

    Timer {
        id: undoTimer
        interval: 8000
        onTriggered: page.undoOffered = false
    }

    // The notes the search leaves, and the chosen one: a note that goes
    // away or that the search hides is no longer chosen (unless it is being
    // edited).
    NoteFilterModel {
        id: shown
        store: page.notes
        searchText: searchField.text
        keepSelected: page.editing
        onSelectedChanged: {
            // Another note, or none: its text is not shown, and an edit of
            // a note that went away ends.
            if (page.revealedId !== shown.selectedId) {
                page.dismissUndo()
                page.actionError = ""
                page.hideBody()
            }
            if (page.editing && draft.recordId !== "" && draft.recordId !== shown.selectedId)
                page.closeEditor()
        }
        onSelectedRowChanged: {
            if (shown.selectedRow >= 0 || list.currentIndex >= list.count)
                list.currentIndex = shown.selectedRow
        }
    }

    NoteDraft {
        id: draft
        objectName: "noteDraft"
    }

    Component {
        id: noteDelegate

        ItemDelegate {
            id: row

            required property int index
            required property string recordId
            required property string title
            required property var tags
            required property var modified

            readonly property bool chosen: recordId === page.selectedId

            width: ListView.view.width
            focusPolicy: Qt.NoFocus
            padding: Math.round(metrics.height * 0.45)
            horizontalPadding: Math.round(metrics.height * 0.7)

            Accessible.role: Accessible.ListItem
            Accessible.selected: chosen
            Accessible.name: {
                const tagText = row.tags.join(", ")
                const parts = [row.title]
                if (tagText !== "")
                    parts.push(qsTr("tags %1").arg(tagText))
                parts.push(qsTr("modified %1").arg(page.formatDate(row.modified, Locale.LongFormat)))
                return parts.join("; ")
            }
            Accessible.description: qsTr("Press Enter or click to open the note")

            onClicked: {
                list.currentIndex = row.index
                page.select(row.recordId)
                if (page.narrow)
                    revealButton.forceActiveFocus(Qt.MouseFocusReason)
                else
                    list.forceActiveFocus(Qt.MouseFocusReason)
            }

            background: Rectangle {
                color: row.chosen ? row.palette.highlight
                                  : row.down || row.hovered ? row.palette.midlight : "transparent"
                opacity: row.chosen ? 0.22 : row.down ? 0.8 : 0.5

                Rectangle {
                    anchors.left: parent.left
                    anchors.right: parent.right
                    anchors.bottom: parent.bottom
                    height: 1
                    color: row.palette.mid
                    opacity: 0.4
                }
            }

            contentItem: ColumnLayout {
                spacing: Math.round(metrics.height * 0.15)

                Label {
                    objectName: "noteTitleLabel"
                    text: row.title
                    font.bold: true
                    elide: Text.ElideRight
                    Layout.fillWidth: true
                }
                Label {
                    objectName: "noteModifiedLabel"
                    text: qsTr("Modified %1").arg(page.formatDate(row.modified, Locale.ShortFormat))
                    color: row.palette.placeholderText
                    font.pixelSize: Math.round(row.font.pixelSize * 0.9)
                    elide: Text.ElideRight
                    Layout.fillWidth: true
                }
                TagChips {
                    tags: row.tags
                    Layout.fillWidth: true
                    Layout.topMargin: Math.round(metrics.height * 0.1)
                }
            }
        }
    }

    // The tags of a note (a string list) as chips. Self-contained: an
    // inline component cannot see the page's ids.
    component TagChips: Flow {
        id: chips
        property var tags
        objectName: "noteTagChips"
        visible: chipRepeater.count > 0
        spacing: Math.round(chipMetrics.height * 0.3)

        FontMetrics {
            id: chipMetrics
        }

        Repeater {
            id: chipRepeater
            model: chips.tags
            delegate: Label {
                id: chip
                required property string modelData
                objectName: "noteTagChip"
                text: modelData
                font.pixelSize: Math.round(chipMetrics.font.pixelSize * 0.85)
                leftPadding: Math.round(chipMetrics.height * 0.45)
                rightPadding: leftPadding
                topPadding: Math.round(chipMetrics.height * 0.1)
                bottomPadding: topPadding
                color: chip.palette.windowText
                Accessible.name: qsTr("Tag %1").arg(modelData)
                background: Rectangle {
                    radius: height / 2
                    color: chip.palette.button
                    border.color: chip.palette.mid
                    border.width: 1
                }
            }
        }
    }

    onSearchTextChanged: dismissUndo()

    ColumnLayout {
        anchors.fill: parent
        spacing: Math.round(metrics.height * 0.6)

        RowLayout {
            id: toolRow
            visible: !emptyState.visible
            spacing: Math.round(metrics.height * 0.5)
            Layout.fillWidth: true

            TextField {
                id: searchField
                objectName: "notesSearchField"
                focus: true
                Layout.fillWidth: true
                placeholderText: qsTr("Search titles and tags")
                selectByMouse: true
                Accessible.name: qsTr("Search notes")
                Accessible.description: placeholderText

                Keys.onDownPressed: (event) => {
                    if (list.count === 0) {
                        event.accepted = false
                        return
                    }
                    if (list.currentIndex < 0)
                        list.currentIndex = 0
                    list.forceActiveFocus(Qt.TabFocusReason)
                    if (!page.narrow && list.currentItem)
                        page.select(list.currentItem.recordId)
                }
                Keys.onEscapePressed: (event) => {
                    if (text === "") {
                        event.accepted = false
                        return
                    }
                    clear()
                }
                // Type a few letters, press Enter: opens the highlighted match.
                Keys.onReturnPressed: page.openFirstMatch()
                Keys.onEnterPressed: page.openFirstMatch()
            }
            Button {
                id: newButton
                objectName: "newNoteButton"
                text: qsTr("New note")
                enabled: page.editable
                Accessible.name: qsTr("New note")
                ToolTip.visible: hovered
                ToolTip.delay: 600
                ToolTip.text: qsTr("New note (Ctrl+N)")
                onClicked: page.newNote()
            }
        }

        Rectangle {
            id: undoBar
            objectName: "undoBar"
            visible: page.undoOffered && page.vault.history.canUndo
            Layout.fillWidth: true
            implicitHeight: undoRow.implicitHeight + 2 * Math.round(metrics.height * 0.3)
            radius: Math.round(metrics.height * 0.25)
            color: page.palette.toolTipBase
            border.color: page.palette.mid

            RowLayout {
                id: undoRow
                anchors.fill: parent
                anchors.leftMargin: Math.round(metrics.height * 0.7)
                anchors.rightMargin: Math.round(metrics.height * 0.3)
                spacing: Math.round(metrics.height * 0.5)

                Label {
                    objectName: "undoLabel"
                    text: page.vault.history.undoText
                    color: page.palette.toolTipText
                    elide: Text.ElideRight
                    Layout.fillWidth: true
                    Accessible.name: text
                }
                Button {
                    id: undoButton
                    objectName: "undoButton"
                    text: qsTr("Undo")
                    flat: true
                    enabled: page.editable
                    Accessible.name: qsTr("Undo: %1").arg(page.vault.history.undoText)
                    onClicked: page.undoDelete()
                }
                ToolButton {
                    objectName: "undoCloseButton"
                    text: "\u2715"
                    Accessible.name: qsTr("Dismiss")
                    onClicked: page.dismissUndo()
                }
            }
        }

        Item {
            id: panes
            Layout.fillWidth: true
            Layout.fillHeight: true
            visible: !emptyState.visible

            readonly property real listWidth: page.narrow
                ? width
                : Math.round(Math.min(Math.max(width * 0.36, metrics.averageCharacterWidth * 26),
                                      metrics.averageCharacterWidth * 44))

            Item {
                id: listPane
                x: 0
                width: panes.listWidth
                height: panes.height
                visible: !page.narrow || !page.noteOpen

                ListView {
                    id: list
                    objectName: "notesList"
                    anchors.fill: parent
                    clip: true
                    model: shown
                    delegate: noteDelegate
                    activeFocusOnTab: true
                    keyNavigationEnabled: false
                    boundsBehavior: Flickable.StopAtBounds
                    highlightMoveDuration: 0
                    highlightResizeDuration: 0
                    Accessible.role: Accessible.List
                    Accessible.name: qsTr("Notes")

                    highlight: Rectangle {
                        // The keyboard position; the chosen note has its own tint.
                        color: "transparent"
                        Rectangle {
                            visible: list.activeFocus
                            anchors.left: parent.left
                            anchors.top: parent.top
                            anchors.bottom: parent.bottom
                            width: Math.max(2, Math.round(metrics.height * 0.2))
                            color: page.palette.highlight
                        }
                    }

                    function step(delta) {
                        if (count === 0)
                            return
                        currentIndex = Math.max(0, Math.min(count - 1, currentIndex + delta))
                        positionViewAtIndex(currentIndex, ListView.Contain)
                        // Beside the list, the note follows the keyboard;
                        // over it, Enter opens the note.
                        if (!page.narrow && currentItem)
                            page.select(currentItem.recordId)
                    }

                    Keys.onDownPressed: step(1)
                    Keys.onUpPressed: {
                        if (currentIndex <= 0)
                            searchField.forceActiveFocus(Qt.BacktabFocusReason)
                        else
                            step(-1)
                    }
                    Keys.onReturnPressed: page.openCurrent()
                    Keys.onEnterPressed: page.openCurrent()
                    Keys.onSpacePressed: page.openCurrent()
                    Keys.onDeletePressed: {
                        if (!currentItem)
                            return
                        page.select(currentItem.recordId)
                        page.deleteSelected()
                    }
                    Keys.onEscapePressed: (event) => {
                        if (searchField.text === "") {
                            event.accepted = false
                            return
                        }
                        searchField.clear()
                        searchField.forceActiveFocus(Qt.OtherFocusReason)
                    }

                    ScrollBar.vertical: ScrollBar {
                        Accessible.name: qsTr("Scroll notes")
                    }
                }

                Label {
                    objectName: "noMatchesLabel"
                    visible: shown.count === 0 && page.noteList !== null && page.noteList.count > 0
                    anchors.centerIn: parent
                    width: parent.width - 2 * Math.round(metrics.height)
                    text: qsTr("No note contains \u201c%1\u201d in its title, tags or text.").arg(page.searchText.trim())
                    color: page.palette.placeholderText
                    horizontalAlignment: Text.AlignHCenter
                    wrapMode: Text.Wrap
                    Accessible.name: text
                }
            }

            Rectangle {
                // The divider between the panes.
                visible: !page.narrow
                x: panes.listWidth + Math.round(metrics.height * 0.6)
                width: 1
                height: panes.height
                color: page.palette.mid
                opacity: 0.5
            }

            Item {
                id: notePane
                objectName: "notePane"
                x: page.narrow ? 0 : panes.listWidth + Math.round(metrics.height * 1.2) + 1
                width: panes.width - x
                height: panes.height
                visible: !page.narrow || page.noteOpen

                Label {
                    objectName: "noSelectionLabel"
                    visible: !page.noteOpen
                    anchors.centerIn: parent
                    width: parent.width - 2 * Math.round(metrics.height)
                    text: qsTr("Choose a note to see it, or press New note.")
                    color: page.palette.placeholderText
                    horizontalAlignment: Text.AlignHCenter
                    wrapMode: Text.Wrap
                    Accessible.name: text
                }

                // One note, its body hidden until asked for.
                ColumnLayout {
                    id: viewer
                    objectName: "noteViewer"
                    anchors.fill: parent
                    visible: page.selected !== null && !page.editing
                    spacing: Math.round(metrics.height * 0.5)

                    RowLayout {
                        spacing: Math.round(metrics.height * 0.4)
                        Layout.fillWidth: true

                        ToolButton {
                            objectName: "viewerBackButton"
                            visible: page.narrow
                            text: qsTr("\u2190 Notes")
                            Accessible.name: qsTr("Back to the notes")
                            onClicked: {
                                page.select("")
                                list.forceActiveFocus(Qt.OtherFocusReason)
                            }
                        }
                        Label {
                            objectName: "noteHeading"
                            text: page.selected ? page.selected.title : ""
                            font.bold: true
                            font.pixelSize: Math.round(page.font.pixelSize * 1.4)
                            elide: Text.ElideRight
                            Layout.fillWidth: true
                            Accessible.role: Accessible.Heading
                            Accessible.name: text
                        }
                    }
                    Label {
                        objectName: "noteModified"
                        text: page.selected
                              ? qsTr("Modified %1").arg(page.formatDate(page.selected.modified, Locale.LongFormat))
                              : ""
                        color: page.palette.placeholderText
                        elide: Text.ElideRight
                        Layout.fillWidth: true
                        Accessible.name: text
                    }
                    TagChips {
                        tags: page.selected ? page.selected.tags : []
                        Layout.fillWidth: true
                    }

                    Flow {
                        spacing: Math.round(metrics.height * 0.4)
                        Layout.fillWidth: true
                        Layout.topMargin: Math.round(metrics.height * 0.2)

                        Button {
                            id: revealButton
                            objectName: "revealButton"
                            text: page.revealedId !== "" ? qsTr("Hide") : qsTr("Show")
                            // While a key job holds the vault it has no text to give.
                            enabled: page.editable || page.revealedId !== ""
                            Accessible.name: text
                            Accessible.description: page.revealedId !== ""
                                                    ? qsTr("Hide the text of the note")
                                                    : qsTr("Show the text of the note")
                            onClicked: page.revealedId !== "" ? page.hideBody() : page.reveal()
                        }
                        Button {
                            objectName: "editButton"
                            text: qsTr("Edit")
                            enabled: page.editable
                            Accessible.name: qsTr("Edit the note")
                            onClicked: page.editSelected()
                        }
                        Button {
                            objectName: "shareNoteButton"
                            text: qsTr("Share\u2026")
                            enabled: page.editable
                            Accessible.name: qsTr("Share the note with contacts")
                            onClicked: page.shareRequested(page.selected.recordId)
                        }
                        Button {
                            objectName: "deleteButton"
                            text: qsTr("Delete")
                            enabled: page.editable
                            Accessible.name: qsTr("Delete the note")
                            Accessible.description: qsTr("It can be undone for a few seconds")
                            onClicked: page.deleteSelected()
                        }
                        CheckBox {
                            objectName: "viewerMonospace"
                            text: qsTr("Monospace")
                            checked: page.monospace
                            Accessible.name: qsTr("Show the text in a monospace font")
                            onToggled: page.monospace = checked
                        }
                    }

                    Label {
                        objectName: "actionError"
                        visible: text !== ""
                        text: page.actionError
                        color: palette.window.hslLightness < 0.5 ? "#f2b8b5" : "#b3261e"
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                        Accessible.name: text
                    }

                    Item {
                        Layout.fillWidth: true
                        Layout.fillHeight: true

                        ScrollView {
                            id: bodyScroll
                            anchors.fill: parent
                            visible: page.revealedId !== ""

                            TextArea {
                                id: bodyView
                                objectName: "noteBody"
                                readOnly: true
                                selectByMouse: true
                                wrapMode: TextEdit.Wrap
                                font.family: page.monospace ? "monospace" : page.font.family
                                placeholderText: qsTr("This note has no text.")
                                inputMethodHints: Qt.ImhSensitiveData | Qt.ImhNoPredictiveText
                                                  | Qt.ImhNoAutoUppercase
                                Accessible.name: qsTr("Text of the note")
                                background: Rectangle {
                                    color: page.palette.base
                                    border.color: bodyView.activeFocus ? page.palette.highlight : page.palette.mid
                                    radius: 2
                                }
                            }
                        }

                        Label {
                            objectName: "hiddenLabel"
                            visible: page.revealedId === ""
                            anchors.top: parent.top
                            anchors.left: parent.left
                            anchors.right: parent.right
                            anchors.topMargin: Math.round(metrics.height * 0.5)
                            text: qsTr("The text is hidden. Press Show to see it; it is hidden again when you choose another note or lock the vault.")
                            color: page.palette.placeholderText
                            wrapMode: Text.Wrap
                            Accessible.name: text
                        }
                    }
                }

                // A new note, or one being edited.
                ColumnLayout {
                    id: editor
                    objectName: "noteEditor"
                    anchors.fill: parent
                    visible: page.editing
                    spacing: Math.round(metrics.height * 0.3)

                    Keys.onEscapePressed: page.cancelEdit()

                    Shortcut {
                        // A shortcut, not a key handler: the text fields
                        // take Ctrl+Return as their own Return.
                        sequences: [StandardKey.Save, "Ctrl+Return", "Ctrl+Enter"]
                        enabled: page.editing && page.visible
                        onActivated: page.save()
                    }

                    Label {
                        objectName: "editorHeading"
                        text: draft.recordId === "" ? qsTr("New note") : qsTr("Edit note")
                        font.bold: true
                        font.pixelSize: Math.round(page.font.pixelSize * 1.4)
                        Layout.fillWidth: true
                        Layout.bottomMargin: Math.round(metrics.height * 0.3)
                        Accessible.role: Accessible.Heading
                        Accessible.name: text
                    }
                    Label {
                        text: qsTr("Title")
                        Accessible.ignored: true
                    }
                    TextField {
                        id: titleField
                        objectName: "titleField"
                        text: draft.title
                        onTextEdited: draft.title = text
                        selectByMouse: true
                        Layout.fillWidth: true
                        Layout.bottomMargin: Math.round(metrics.height * 0.3)
                        Accessible.name: qsTr("Title")
                        onAccepted: tagsField.forceActiveFocus(Qt.TabFocusReason)
                    }
                    Label {
                        text: qsTr("Tags")
                        Accessible.ignored: true
                    }
                    TextField {
                        id: tagsField
                        objectName: "tagsField"
                        text: draft.tagsText
                        onTextEdited: draft.tagsText = text
                        selectByMouse: true
                        placeholderText: qsTr("Separated by commas, e.g. bank, recovery")
                        Layout.fillWidth: true
                        Layout.bottomMargin: Math.round(metrics.height * 0.3)
                        Accessible.name: qsTr("Tags, separated by commas")
                        onAccepted: bodyEditor.forceActiveFocus(Qt.TabFocusReason)
                    }
                    Label {
                        text: qsTr("Text")
                        Accessible.ignored: true
                    }
                    ScrollView {
                        Layout.fillWidth: true
                        Layout.fillHeight: true
                        Layout.minimumHeight: metrics.height * 4

                        TextArea {
                            id: bodyEditor
                            objectName: "bodyEditor"
                            text: draft.body
                            onTextChanged: draft.body = text
                            selectByMouse: true
                            wrapMode: TextEdit.Wrap
                            font.family: page.monospace ? "monospace" : page.font.family
                            inputMethodHints: Qt.ImhSensitiveData | Qt.ImhNoPredictiveText
                                              | Qt.ImhNoAutoUppercase
                            Accessible.name: qsTr("Text of the note")
                            // Tab moves on, so the keyboard never gets stuck here.
                            Keys.onTabPressed: editorMonospace.forceActiveFocus(Qt.TabFocusReason)
                            Keys.onBacktabPressed: tagsField.forceActiveFocus(Qt.BacktabFocusReason)
                            background: Rectangle {
                                color: page.palette.base
                                border.color: bodyEditor.activeFocus ? page.palette.highlight : page.palette.mid
                                radius: 2
                            }
                        }
                    }
                    Label {
                        objectName: "saveError"
                        visible: text !== ""
                        text: page.saveError
                        color: palette.window.hslLightness < 0.5 ? "#f2b8b5" : "#b3261e"
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                        Accessible.name: text
                    }
                    RowLayout {
                        spacing: Math.round(metrics.height * 0.4)
                        Layout.fillWidth: true
                        Layout.topMargin: Math.round(metrics.height * 0.3)

                        CheckBox {
                            id: editorMonospace
                            objectName: "editorMonospace"
                            text: qsTr("Monospace")
                            checked: page.monospace
                            Accessible.name: qsTr("Show the text in a monospace font")
                            onToggled: page.monospace = checked
                        }
                        Item {
                            Layout.fillWidth: true
                        }
                        Button {
                            objectName: "cancelButton"
                            text: qsTr("Cancel")
                            Accessible.name: qsTr("Cancel editing")
                            onClicked: page.cancelEdit()
                        }
                        Button {
                            id: saveButton
                            objectName: "saveButton"
                            text: qsTr("Save")
                            highlighted: true
                            enabled: page.editable && draft.valid
                            Accessible.name: qsTr("Save the note")
                            ToolTip.visible: hovered
                            ToolTip.delay: 600
                            ToolTip.text: qsTr("Save (Ctrl+Enter)")
                            onClicked: page.save()
                        }
                    }
                }
            }
        }

        ColumnLayout {
            id: emptyState
            objectName: "notesEmptyState"
            visible: !page.editing && (page.noteList === null || page.noteList.count === 0)
            Layout.alignment: Qt.AlignHCenter
            Layout.fillWidth: true
            Layout.fillHeight: true
            Layout.maximumWidth: Math.min(page.availableWidth, metrics.averageCharacterWidth * 64)
            spacing: Math.round(metrics.height * 0.4)

            Item {
                Layout.fillHeight: true
            }
            Label {
                objectName: "notesEmptyTitle"
                text: qsTr("No notes yet")
                font.bold: true
                font.pixelSize: Math.round(page.font.pixelSize * 1.5)
                horizontalAlignment: Text.AlignHCenter
                wrapMode: Text.Wrap
                Layout.fillWidth: true
                Accessible.name: text
            }
            Label {
                text: qsTr("Keep recovery codes, PINs and other secrets here, sealed in the vault. Each note's text is shown only when you ask for it.")
                color: page.palette.placeholderText
                horizontalAlignment: Text.AlignHCenter
                wrapMode: Text.Wrap
                Layout.fillWidth: true
                Accessible.name: text
            }
            Button {
                objectName: "emptyNewNoteButton"
                text: qsTr("New note")
                highlighted: true
                enabled: page.editable
                Layout.alignment: Qt.AlignHCenter
                Layout.topMargin: Math.round(metrics.height * 0.4)
                Accessible.name: qsTr("New note")
                onClicked: page.newNote()
            }
            Item {
                Layout.fillHeight: true
            }
        }
    }
}
