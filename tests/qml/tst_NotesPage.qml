import QtQuick
import QtQuick.Controls
import QtTest
import Watchword.Ui

// The notes page against a stand-in vault that records every call. Its
// model has the NoteListModel roles and, like it, keeps rows in title order
// and replaces an edited row by a removal and an insertion.
Item {
    id: root
    width: 900
    height: 600

    Component {
        id: vaultComponent

        QtObject {
            id: fake

            property ListModel notes: ListModel {}
            property string error: ""
            property bool busy: false
            // Each call as [name, arguments...], oldest first.
            property var calls: []
            property int revealCount: 0
            // Set to make the next add or update fail with this message.
            property string failWith: ""
            property var bodies: ({})
            property var deleted: []
            property int nextId: 1
            readonly property bool canUndo: deleted.length > 0
            readonly property string undoText: canUndo ? "Deleted note " + deleted[deleted.length - 1].title : ""

            function record(call) {
                calls = calls.concat([call])
            }

            function rowOf(id) {
                for (let i = 0; i < notes.count; ++i) {
                    if (notes.get(i).recordId === id)
                        return i
                }
                return -1
            }

            function put(id, title, body, tags, modified) {
                const at = rowOf(id)
                if (at >= 0)
                    notes.remove(at)
                let i = 0
                while (i < notes.count && notes.get(i).title.toLowerCase() <= title.toLowerCase())
                    ++i
                notes.insert(i, { recordId: id, title: title, tags: tags.map(t => ({ modelData: t })),
                                  modified: modified })
                const copy = Object.assign({}, bodies)
                copy[id] = body
                bodies = copy
            }

            function seed(id, title, body, tags, modified) {
                put(id, title, body, tags, modified)
            }

            function addNote(title, body, tags) {
                record(["addNote", title, body, tags])
                if (failWith !== "") {
                    error = failWith
                    return ""
                }
                error = ""
                const id = "new" + nextId++
                put(id, title.trim(), body, tags, 1700100000)
                return id
            }

            function updateNote(id, title, body, tags) {
                record(["updateNote", id, title, body, tags])
                if (failWith !== "" || rowOf(id) < 0) {
                    error = failWith !== "" ? failWith : "That note is no longer in the vault."
                    return false
                }
                error = ""
                put(id, title.trim(), body, tags, 1700200000)
                return true
            }

            function removeNote(id) {
                record(["removeNote", id])
                const at = rowOf(id)
                if (at < 0)
                    return false
                const row = notes.get(at)
                const tags = []
                for (let i = 0; i < row.tags.count; ++i)
                    tags.push(row.tags.get(i).modelData)
                deleted = deleted.concat([{ title: row.title, body: bodies[id], tags: tags,
                                            modified: row.modified }])
                notes.remove(at)
                return true
            }

            // As the vault's: title, tags and body, case and accents aside.
            function noteMatches(id, query) {
                const fold = (text) => String(text).normalize("NFKD")
                                                   .replace(/[\u0300-\u036f]/g, "").toLowerCase()
                const at = rowOf(id)
                if (at < 0)
                    return false
                const row = notes.get(at)
                const texts = [row.title, bodies[id] || ""]
                for (let i = 0; i < row.tags.count; ++i)
                    texts.push(row.tags.get(i).modelData)
                return texts.some(t => fold(t).indexOf(fold(query.trim())) >= 0)
            }

            function revealNote(id) {
                ++revealCount
                record(["revealNote", id])
                return bodies[id] !== undefined ? bodies[id] : ""
            }

            function undo() {
                record(["undo"])
                if (deleted.length === 0)
                    return false
                const last = deleted[deleted.length - 1]
                deleted = deleted.slice(0, deleted.length - 1)
                // Back under a new id, as the vault does.
                put("restored" + nextId++, last.title, last.body, last.tags, last.modified)
                return true
            }

            function callsNamed(name) {
                return calls.filter(c => c[0] === name)
            }
        }
    }

    Component {
        id: pageComponent
        NotesPage {
            width: root.width
            height: root.height
        }
    }

    TestCase {
        id: testCase
        name: "NotesPage"
        when: windowShown

        function makeVault(empty) {
            const vault = createTemporaryObject(vaultComponent, testCase)
            verify(vault)
            if (!empty) {
                vault.seed("id-bank", "Bank PIN", "PIN 4711", ["money"], 1699000000)
                vault.seed("id-wifi", "Wi-Fi", "hunter2\nguest: welcome", ["home", "router"], 1699500000)
                vault.seed("id-codes", "GitHub recovery codes", "aaaa-bbbb\ncccc-dddd", [], 1698000000)
            }
            return vault
        }

        function makePage(vault) {
            const page = createTemporaryObject(pageComponent, root, { vault: vault })
            verify(page)
            tryCompare(findChild(page, "notesList"), "count", vault.notes.count)
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
            compare(vault.revealCount, 0)
            const body = findChild(page, "noteBody")
            compare(body.text, "")
            verify(findChild(page, "hiddenLabel").visible)

            const show = findChild(page, "revealButton")
            compare(show.Accessible.name, "Show")
            mouseClick(show)
            compare(vault.revealCount, 1)
            compare(vault.callsNamed("revealNote")[0][1], "id-wifi")
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
            compare(vault.revealCount, 2)
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
            compare(vault.revealCount, 1)
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
            compare(vault.revealCount, 1)
        }

        function test_lockEmptiesTheModelAndHidesTheText() {
            const vault = makeVault()
            const page = makePage(vault)
            openRow(page, 1)
            mouseClick(findChild(page, "revealButton"))
            const body = findChild(page, "noteBody")
            verify(body.text !== "")
            vault.notes.clear()
            compare(body.text, "")
            compare(page.selected, null)
            verify(findChild(page, "notesEmptyState").visible)
        }

        function test_destroyingThePageEmptiesTheText() {
            const vault = makeVault()
            const page = pageComponent.createObject(root, { vault: vault })
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
            const editing = pageComponent.createObject(root, { vault: vault })
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

        function test_createCallsAddNote() {
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

            const adds = vault.callsNamed("addNote")
            compare(adds.length, 1)
            compare(adds[0][1], "Door code")
            compare(adds[0][2], "1234#")
            compare(adds[0][3], ["home", "alarm"])
            verify(!findChild(page, "noteEditor").visible)
            compare(editor.text, "")
            compare(page.selected.recordId, "new1")
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
            compare(vault.callsNamed("addNote").length, 0)
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
            compare(vault.callsNamed("addNote").length, 0)
            findChild(page, "titleField").forceActiveFocus()
            typeText("x")
            verify(save.enabled)
            // Ctrl+Return saves from any field.
            keyClick(Qt.Key_Return, Qt.ControlModifier)
            compare(vault.callsNamed("addNote").length, 1)
            compare(vault.callsNamed("addNote")[0][1], "   x")
            compare(vault.callsNamed("addNote")[0][2], "secret")
        }

        function test_saveFailureShowsTheError() {
            const vault = makeVault()
            const page = makePage(vault)
            vault.failWith = "The disk is full."
            page.newNote()
            typeText("Anything")
            mouseClick(findChild(page, "saveButton"))
            compare(vault.callsNamed("addNote").length, 1)
            verify(findChild(page, "noteEditor").visible)
            const error = findChild(page, "saveError")
            verify(error.visible)
            compare(error.text, "The disk is full.")
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
            compare(vault.revealCount, 1)

            title.selectAll()
            typeText("Attic Wi-Fi")
            editor.forceActiveFocus()
            keyClick(Qt.Key_End, Qt.ControlModifier)
            typeText("!")
            mouseClick(findChild(page, "saveButton"))

            const updates = vault.callsNamed("updateNote")
            compare(updates.length, 1)
            compare(updates[0][1], "id-wifi")
            compare(updates[0][2], "Attic Wi-Fi")
            compare(updates[0][3], "hunter2\nguest: welcome!")
            compare(updates[0][4], ["home", "router"])
            compare(vault.callsNamed("addNote").length, 0)
            verify(!findChild(page, "noteEditor").visible)
            compare(editor.text, "")
            // Still chosen after the model moved it to its new place.
            compare(page.selected.recordId, "id-wifi")
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
            compare(vault.callsNamed("removeNote").length, 1)
            compare(vault.callsNamed("removeNote")[0][1], "id-bank")
            compare(rowTitles(page), ["GitHub recovery codes", "Wi-Fi"])
            compare(page.selected, null)
            verify(bar.visible)
            compare(findChild(page, "undoLabel").text, "Deleted note Bank PIN")
            const undo = findChild(page, "undoButton")
            compare(undo.Accessible.name, "Undo: Deleted note Bank PIN")
            mouseClick(undo)
            compare(vault.callsNamed("undo").length, 1)
            verify(!bar.visible)
            compare(rowTitles(page), ["Bank PIN", "GitHub recovery codes", "Wi-Fi"])
            compare(page.selected.title, "Bank PIN")
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
            compare(vault.callsNamed("undo").length, 0)

            // The Delete key on the list deletes the current note too.
            findChild(page, "notesList").forceActiveFocus()
            keyClick(Qt.Key_Delete)
            compare(vault.callsNamed("removeNote").length, 2)
            compare(vault.callsNamed("removeNote")[1][1], "id-wifi")
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
            vault.addNote("Another", "x", [])
            compare(list.count, 0)
            vault.addNote("zzz top", "x", [])
            compare(rowTitles(page), ["zzz top"])
            findChild(page, "notesSearchField").forceActiveFocus()
            keyClick(Qt.Key_Escape)
            compare(page.searchText, "")
            compare(list.count, 5)
            verify(!findChild(page, "noMatchesLabel").visible)
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
            compare(vault.notes.count, 1)
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
