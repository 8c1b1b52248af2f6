import QtQuick
import QtQuick.Controls
import QtTest
import Watchword.App
import Watchword.Ui

// The notes page over a real NoteStore on an in-memory vault of its own
// (`testNotesFixture`), made anew for each test: three notes, or none.
Item {
    id: root
    width: 900
    height: 600

    Component {
        id: pageComponent
        NotesPage {
            width: root.width
            height: root.height
        }
    }

    Component {
        id: draftComponent
        NoteDraft {}
    }

    TestCase {
        id: testCase
        name: "NotesPage"
        when: windowShown

        property var vault: null
        property var notes: null

        function init() {
            failOnWarning(/.*/)
        }

        // Adds a note through the store; its record id.
        function addNote(title, body, tags) {
            const draft = createTemporaryObject(draftComponent, testCase)
            draft.title = title
            draft.body = body
            draft.tagsText = tags.join(", ")
            const id = notes.add(draft)
            verify(id !== "", vault.error)
            return id
        }

        // The note ids by title.
        property var ids: ({})

        function makeVault(empty) {
            testNotesFixture.reset()
            vault = testNotesFixture.vault
            notes = testNotesFixture.notes
            tryCompare(vault, "state", VaultController.Unlocked, 10000)
            const model = notes.model
            while (model.count > 0)
                verify(notes.remove(model.data(model.index(0, 0), Qt.UserRole + 1)))
            testNotesFixture.forgetUndo()
            ids = {}
            if (!empty) {
                ids["Bank PIN"] = addNote("Bank PIN", "PIN 4711", ["money"])
                ids["Wi-Fi"] = addNote("Wi-Fi", "hunter2\nguest: welcome", ["home", "router"])
                ids["GitHub recovery codes"] = addNote("GitHub recovery codes", "aaaa-bbbb\ncccc-dddd", [])
            }
            return vault
        }

        function makePage(vault) {
            const page = createTemporaryObject(pageComponent, root, { vault: vault, notes: notes })
            verify(page)
            tryCompare(findChild(page, "notesList"), "count", notes.model.count)
            return page
        }

        function listRow(page, i) {
            const list = findChild(page, "notesList")
            list.positionViewAtIndex(i, ListView.Contain)
            list.forceLayout()
            tryVerify(() => list.itemAtIndex(i) !== null, 1000, "row " + i)
            return list.itemAtIndex(i)
        }

        function rowTitles(page) {
            const list = findChild(page, "notesList")
            const titles = []
            for (let i = 0; i < list.count; ++i)
                titles.push(listRow(page, i).title)
            return titles
        }

        function openRow(page, i) {
            mouseClick(listRow(page, i))
            verify(page.selected !== null)
        }

        function typeText(text) {
            for (const c of text)
                keyClick(c)
        }

        function test_listShowsTitlesTagsAndDate() {
            const page = makePage(makeVault())
            compare(rowTitles(page), ["Bank PIN", "GitHub recovery codes", "Wi-Fi"])
            const wifi = listRow(page, 2)
            compare(findChild(wifi, "noteTitleLabel").text, "Wi-Fi")
            verify(findChild(wifi, "noteModifiedLabel").text.indexOf("Modified") === 0)
            verify(findChild(wifi, "noteModifiedLabel").text.length > "Modified ".length)
            const chips = findChild(wifi, "noteTagChips")
            verify(chips.visible)
            verify(wifi.Accessible.name.indexOf("home, router") >= 0, wifi.Accessible.name)
            verify(!findChild(listRow(page, 1), "noteTagChips").visible)
            verify(findChild(page, "noSelectionLabel").visible)
        }

        function test_bodyNotFetchedUntilShow() {
            const vault = makeVault()
            const page = makePage(vault)
            openRow(page, 2)
            compare(findChild(page, "noteHeading").text, "Wi-Fi")
            const body = findChild(page, "noteBody")
            compare(body.text, "")
            verify(findChild(page, "hiddenLabel").visible)

            const show = findChild(page, "revealButton")
            compare(show.Accessible.name, "Show")
            mouseClick(show)
            compare(page.revealedId, ids["Wi-Fi"])
            compare(body.text, "hunter2\nguest: welcome")
            verify(body.readOnly)
            verify(body.visible)
            verify(!findChild(page, "hiddenLabel").visible)
            compare(show.Accessible.name, "Hide")
        }

        function test_hideEmptiesTheText() {
            const vault = makeVault()
            const page = makePage(vault)
            openRow(page, 0)
            const show = findChild(page, "revealButton")
            mouseClick(show)
            const body = findChild(page, "noteBody")
            compare(body.text, "PIN 4711")
            mouseClick(show)
            compare(body.text, "")
            compare(page.revealedId, "")
            compare(show.text, "Show")
            verify(findChild(page, "hiddenLabel").visible)
            // Show again asks the vault again: nothing was kept.
            mouseClick(show)
            compare(body.text, "PIN 4711")
        }

        function test_choosingAnotherNoteHidesTheText() {
            const vault = makeVault()
            const page = makePage(vault)
            openRow(page, 0)
            mouseClick(findChild(page, "revealButton"))
            const body = findChild(page, "noteBody")
            compare(body.text, "PIN 4711")
            openRow(page, 2)
            compare(findChild(page, "noteHeading").text, "Wi-Fi")
            compare(body.text, "")
            compare(page.revealedId, "")
        }

        function test_arrowKeysChooseNotesAndHideTheText() {
            const vault = makeVault()
            const page = makePage(vault)
            const search = findChild(page, "notesSearchField")
            const list = findChild(page, "notesList")
            search.forceActiveFocus()
            keyClick(Qt.Key_Down)
            verify(list.activeFocus)
            compare(page.selected.title, "Bank PIN")
            keyClick(Qt.Key_Down)
            compare(page.selected.title, "GitHub recovery codes")
            keyClick(Qt.Key_Return)
            const show = findChild(page, "revealButton")
            verify(show.activeFocus)
            keyClick(Qt.Key_Space)
            const body = findChild(page, "noteBody")
            compare(body.text, "aaaa-bbbb\ncccc-dddd")
            // The shown text can be reached, and left, with the keyboard.
            for (let i = 0; i < 10 && !body.activeFocus; ++i)
                keyClick(Qt.Key_Tab)
            verify(body.activeFocus)
            keyClick(Qt.Key_Tab)
            verify(!body.activeFocus)
            list.forceActiveFocus()
            keyClick(Qt.Key_Down)
            compare(page.selected.title, "Wi-Fi")
            compare(findChild(page, "noteBody").text, "")
        }

        function test_lockEmptiesTheModelAndHidesTheText() {
            const vault = makeVault()
            const page = makePage(vault)
            openRow(page, 1)
            mouseClick(findChild(page, "revealButton"))
            const body = findChild(page, "noteBody")
            verify(body.text !== "")
            vault.lock()
            compare(notes.model.count, 0)
            compare(body.text, "")
            compare(page.selected, null)
            verify(findChild(page, "notesEmptyState").visible)
        }

        function test_destroyingThePageEmptiesTheText() {
            const vault = makeVault()
            const page = pageComponent.createObject(root, { vault: vault, notes: notes })
            tryCompare(findChild(page, "notesList"), "count", 3)
            openRow(page, 0)
            mouseClick(findChild(page, "revealButton"))
            const body = findChild(page, "noteBody")
            const seen = []
            body.textChanged.connect(() => seen.push(body.text))
            compare(body.text, "PIN 4711")
            page.destroy()
            tryVerify(() => seen.length > 0)
            compare(seen[seen.length - 1], "")

            // The same for a note being edited.
            const editing = pageComponent.createObject(root, { vault: vault, notes: notes })
            tryCompare(findChild(editing, "notesList"), "count", 3)
            openRow(editing, 0)
            mouseClick(findChild(editing, "editButton"))
            const editor = findChild(editing, "bodyEditor")
            const edited = []
            editor.textChanged.connect(() => edited.push(editor.text))
            compare(editor.text, "PIN 4711")
            editing.destroy()
            tryVerify(() => edited.length > 0)
            compare(edited[edited.length - 1], "")
        }

        function test_createAddsTheNote() {
            const vault = makeVault()
            const page = makePage(vault)
            mouseClick(findChild(page, "newNoteButton"))
            const title = findChild(page, "titleField")
            verify(findChild(page, "noteEditor").visible)
            verify(title.activeFocus)
            typeText("Door code")
            keyClick(Qt.Key_Return)
            verify(findChild(page, "tagsField").activeFocus)
            typeText("home, alarm,, home")
            keyClick(Qt.Key_Return)
            const editor = findChild(page, "bodyEditor")
            verify(editor.activeFocus)
            verify(editor.inputMethodHints & Qt.ImhSensitiveData)
            verify(editor.inputMethodHints & Qt.ImhNoPredictiveText)
            verify(editor.inputMethodHints & Qt.ImhNoAutoUppercase)
            typeText("1234#")
            // Tab leaves the text rather than typing a tab into it.
            keyClick(Qt.Key_Tab)
            verify(!editor.activeFocus)
            compare(editor.text, "1234#")
            mouseClick(findChild(page, "saveButton"))

            compare(notes.model.count, 4)
            verify(!findChild(page, "noteEditor").visible)
            compare(editor.text, "")
            verify(page.selected !== null)
            // Tags trimmed, each once, kept in order of their names.
            compare(page.selected.tags, ["alarm", "home"])
            compare(notes.reveal(page.selected.recordId), "1234#")
            compare(findChild(page, "noteHeading").text, "Door code")
            compare(findChild(page, "noteBody").text, "")
            compare(rowTitles(page), ["Bank PIN", "Door code", "GitHub recovery codes", "Wi-Fi"])
        }

        function test_newNoteFunctionAndCancel() {
            const vault = makeVault()
            const page = makePage(vault)
            page.newNote()
            verify(findChild(page, "titleField").activeFocus)
            typeText("Draft")
            // Asked again while editing: the form keeps what was typed.
            page.newNote()
            compare(findChild(page, "titleField").text, "Draft")
            keyClick(Qt.Key_Escape)
            verify(!findChild(page, "noteEditor").visible)
            compare(findChild(page, "titleField").text, "")
            compare(notes.model.count, 3)
        }

        function test_saveDisabledWithoutTitle() {
            const vault = makeVault()
            const page = makePage(vault)
            page.newNote()
            const save = findChild(page, "saveButton")
            verify(!save.enabled)
            findChild(page, "bodyEditor").forceActiveFocus()
            typeText("secret")
            verify(!save.enabled)
            findChild(page, "titleField").forceActiveFocus()
            typeText("   ")
            verify(!save.enabled)
            keyClick(Qt.Key_Return, Qt.ControlModifier)
            mouseClick(save)
            compare(notes.model.count, 3)
            findChild(page, "titleField").forceActiveFocus()
            typeText("x")
            verify(save.enabled)
            // Ctrl+Return saves from any field.
            keyClick(Qt.Key_Return, Qt.ControlModifier)
            compare(notes.model.count, 4)
            // Saved trimmed.
            compare(page.selected.title, "x")
            compare(notes.reveal(page.selected.recordId), "secret")
        }

        function test_saveFailureShowsTheError() {
            const vault = makeVault()
            const page = makePage(vault)
            page.newNote()
            typeText("Anything")
            // A tag longer than the vault takes: refused, said, nothing lost.
            findChild(page, "noteDraft").tagsText = "x".repeat(300)
            compare(findChild(page, "tagsField").text, "x".repeat(300))
            mouseClick(findChild(page, "saveButton"))
            compare(notes.model.count, 3)
            verify(findChild(page, "noteEditor").visible)
            const error = findChild(page, "saveError")
            verify(error.visible)
            verify(error.text !== "")
            compare(error.text, vault.error)
            compare(findChild(page, "titleField").text, "Anything")
        }

        function test_editCallsUpdateNote() {
            const vault = makeVault()
            const page = makePage(vault)
            openRow(page, 2)
            mouseClick(findChild(page, "editButton"))
            verify(findChild(page, "noteEditor").visible)
            compare(findChild(page, "editorHeading").text, "Edit note")
            const title = findChild(page, "titleField")
            compare(title.text, "Wi-Fi")
            compare(findChild(page, "tagsField").text, "home, router")
            const editor = findChild(page, "bodyEditor")
            compare(editor.text, "hunter2\nguest: welcome")

            title.selectAll()
            typeText("Attic Wi-Fi")
            editor.forceActiveFocus()
            keyClick(Qt.Key_End, Qt.ControlModifier)
            typeText("!")
            mouseClick(findChild(page, "saveButton"))

            compare(notes.model.count, 3)
            compare(notes.reveal(ids["Wi-Fi"]), "hunter2\nguest: welcome!")
            verify(!findChild(page, "noteEditor").visible)
            compare(editor.text, "")
            // Still chosen after the model moved it to its new place.
            compare(page.selected.recordId, ids["Wi-Fi"])
            compare(page.selected.tags, ["home", "router"])
            compare(findChild(page, "noteHeading").text, "Attic Wi-Fi")
            compare(rowTitles(page), ["Attic Wi-Fi", "Bank PIN", "GitHub recovery codes"])
            compare(findChild(page, "notesList").currentIndex, 0)
        }

        function test_deleteOffersUndo() {
            const vault = makeVault()
            const page = makePage(vault)
            const bar = findChild(page, "undoBar")
            verify(!bar.visible)
            openRow(page, 0)
            mouseClick(findChild(page, "deleteButton"))
            compare(notes.reveal(ids["Bank PIN"]), "")
            compare(rowTitles(page), ["GitHub recovery codes", "Wi-Fi"])
            compare(page.selected, null)
            verify(bar.visible)
            compare(findChild(page, "undoLabel").text, "Deleted note Bank PIN")
            const undo = findChild(page, "undoButton")
            compare(undo.Accessible.name, "Undo: Deleted note Bank PIN")
            mouseClick(undo)
            verify(!bar.visible)
            verify(!vault.history.canUndo)
            compare(rowTitles(page), ["Bank PIN", "GitHub recovery codes", "Wi-Fi"])
            // Back under a new id, and chosen by it.
            compare(page.selected.title, "Bank PIN")
            verify(page.selected.recordId !== ids["Bank PIN"])
            compare(notes.reveal(page.selected.recordId), "PIN 4711")
            compare(findChild(page, "notesList").currentIndex, 0)
        }

        function test_undoBarGoesAwayOnTheNextAction() {
            const vault = makeVault()
            const page = makePage(vault)
            const bar = findChild(page, "undoBar")
            openRow(page, 0)
            mouseClick(findChild(page, "deleteButton"))
            verify(bar.visible)
            openRow(page, 1)
            verify(!bar.visible)
            compare(notes.model.count, 2)

            // The Delete key on the list deletes the current note too.
            findChild(page, "notesList").forceActiveFocus()
            keyClick(Qt.Key_Delete)
            compare(notes.model.count, 1)
            compare(notes.reveal(ids["Wi-Fi"]), "")
            verify(bar.visible)
            page.newNote()
            verify(!bar.visible)
        }

        function test_searchFiltersTitles() {
            const vault = makeVault()
            const page = makePage(vault)
            const list = findChild(page, "notesList")
            findChild(page, "notesSearchField").forceActiveFocus()
            typeText("wi")
            tryCompare(list, "count", 1)
            compare(rowTitles(page), ["Wi-Fi"])
            keyClick(Qt.Key_Backspace)
            keyClick(Qt.Key_Backspace)
            typeText("RECOVERY")
            compare(rowTitles(page), ["GitHub recovery codes"])
            // Tags match too.
            page.searchText = "money"
            compare(rowTitles(page), ["Bank PIN"])
            page.searchText = "zzz"
            compare(list.count, 0)
            verify(findChild(page, "noMatchesLabel").visible)
            // A note added while filtering shows only if it matches.
            addNote("Another", "x", [])
            compare(list.count, 0)
            addNote("zzz top", "x", [])
            compare(rowTitles(page), ["zzz top"])
            findChild(page, "notesSearchField").forceActiveFocus()
            keyClick(Qt.Key_Escape)
            compare(page.searchText, "")
            compare(list.count, 5)
            verify(!findChild(page, "noMatchesLabel").visible)
        }

        // The search reads the text too, accents aside; a note being edited
        // stays while a search would hide it, and goes once it is saved.
        function test_searchReadsTheTextAndKeepsTheNoteBeingEdited() {
            const vault = makeVault()
            const page = makePage(vault)
            addNote("Conference trip", "Hotel near Z\u00fcrich HB, room 12", ["travel"])
            page.searchText = "zurich"
            compare(rowTitles(page), ["Conference trip"])
            page.searchText = ""
            openRow(page, 3)
            compare(page.selected.title, "Wi-Fi")
            mouseClick(findChild(page, "editButton"))
            page.searchText = "bank"
            compare(rowTitles(page), ["Bank PIN"])
            verify(findChild(page, "noteEditor").visible)
            compare(page.selectedId, ids["Wi-Fi"])
            keyClick(Qt.Key_Escape)
            verify(!findChild(page, "noteEditor").visible)
            page.searchText = "ban"
            compare(page.selected, null)
        }

        function test_ctrlFFocusesSearch() {
            const page = makePage(makeVault())
            const search = findChild(page, "notesSearchField")
            findChild(page, "notesList").forceActiveFocus()
            verify(!search.activeFocus)
            keyClick(Qt.Key_F, Qt.ControlModifier)
            verify(search.activeFocus)
        }

        function test_emptyState() {
            const vault = makeVault(true)
            const page = makePage(vault)
            const empty = findChild(page, "notesEmptyState")
            verify(empty.visible)
            compare(findChild(page, "notesEmptyTitle").text, "No notes yet")
            const button = findChild(page, "emptyNewNoteButton")
            compare(button.Accessible.name, "New note")
            mouseClick(button)
            verify(!empty.visible)
            verify(findChild(page, "noteEditor").visible)
            verify(findChild(page, "titleField").activeFocus)
            typeText("First")
            mouseClick(findChild(page, "saveButton"))
            compare(notes.model.count, 1)
            verify(!empty.visible)
            compare(page.selected.title, "First")
        }

        function test_narrowWindowShowsOnePaneAtATime() {
            const vault = makeVault()
            const page = makePage(vault)
            verify(!page.narrow)
            page.width = 320
            verify(page.narrow)
            const list = findChild(page, "notesList")
            verify(list.visible)
            verify(!findChild(page, "notePane").visible)
            openRow(page, 1)
            verify(findChild(page, "notePane").visible)
            verify(!list.visible)
            verify(findChild(page, "revealButton").activeFocus)
            const back = findChild(page, "viewerBackButton")
            verify(back.visible)
            mouseClick(back)
            compare(page.selected, null)
            verify(list.visible)
            verify(!findChild(page, "notePane").visible)
        }

        function test_controlsHaveAccessibleNames() {
            const page = makePage(makeVault())
            openRow(page, 0)
            for (const name of ["notesSearchField", "newNoteButton", "notesList", "revealButton",
                                "editButton", "deleteButton", "viewerMonospace", "noteBody"]) {
                const item = findChild(page, name)
                verify(item, name)
                verify(item.Accessible.name !== "", name)
            }
            page.newNote()
            for (const name of ["titleField", "tagsField", "bodyEditor", "saveButton",
                                "cancelButton", "editorMonospace"]) {
                const item = findChild(page, name)
                verify(item, name)
                verify(item.Accessible.name !== "", name)
            }
        }

        function test_monospaceOption() {
            const page = makePage(makeVault())
            openRow(page, 0)
            const body = findChild(page, "noteBody")
            const normalFamily = body.font.family
            mouseClick(findChild(page, "viewerMonospace"))
            verify(page.monospace)
            compare(body.font.family, "monospace")
            mouseClick(findChild(page, "viewerMonospace"))
            compare(body.font.family, normalFamily)
        }
    }
}
