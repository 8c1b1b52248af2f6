import QtQuick
import QtTest
import Watchword.Ui

// TestCase itself is never visible, so the pages under test live beside it.
Item {
    id: root
    width: 640
    height: 560

    TestCase {
        id: testCase
        name: "CodesPage"
        when: windowShown

        // The clock the page is given; every row's expiry is relative to it.
        readonly property real clock: 1700000000.25

        // A stand-in for AccountListModel with the same roles. ListModel cannot
        // hold a list of strings, so a tag is an element whose one role is
        // modelData: a Repeater sees it as it sees a QStringList entry.
        Component {
            id: modelComponent
            ListModel {}
        }

        Component {
            id: pageComponent
            CodesPage {
                width: root.width
                height: root.height
                now: testCase.clock
            }
        }

        Component {
            id: delegateComponent
            AccountDelegate {
                width: root.width
            }
        }

        Component {
            id: spyComponent
            SignalSpy {}
        }

        function tagList(tags) {
            return tags.map(t => ({ modelData: t }))
        }

        function chipTexts(flow) {
            const texts = []
            for (let i = 0; i < flow.children.length; ++i) {
                if (flow.children[i].objectName === "tagChip")
                    texts.push(flow.children[i].text)
            }
            return texts
        }

        function account(id, issuer, name, kind, plain, code, secondsLeft, nextCode, tags) {
            const period = kind === "hotp" ? 0 : 30
            return {
                recordId: id, issuer: issuer, accountName: name, tags: tagList(tags || []),
                kind: kind, code: code, plainCode: plain, nextCode: nextCode || "",
                period: period, validUntil: kind === "hotp" ? 0 : clock + secondsLeft,
                // GitHub with its icon (a square), the others lettered.
                iconPath: issuer === "GitHub" ? "M2 2h20v20H2z" : "",
                iconColour: issuer === "GitHub" ? "#181717" : "#1f6fb2",
                iconGlyphColour: "#ffffff",
                monogram: issuer.charAt(0),
                // As the real model's DisplayTitleRole (vault::displayTitle) gives it.
                displayTitle: issuer + " (" + name + ")"
            }
        }

        function fakeAccounts() {
            const m = createTemporaryObject(modelComponent, testCase)
            m.append(account("a1", "GitHub", "ada@example.org", "totp", "123456", "123 456", 20, "", ["work", "code"]))
            m.append(account("b2", "Bank", "ada", "totp", "12345678", "1234 5678", 8, ""))
            m.append(account("c3", "Mail", "ada@example.org", "totp", "654321", "654 321", 3, "789 012"))
            m.append(account("d4", "Steam", "ada_games", "steam", "2B7KX", "2B7KX", 14, ""))
            m.append(account("e5", "VPN", "ada", "hotp", "111222", "111 222", 0, ""))
            return m
        }

        function makePage(model) {
            const page = createTemporaryObject(pageComponent, root, { model: model })
            verify(page)
            const list = findChild(page, "codesList")
            verify(list)
            tryCompare(list, "count", model ? model.count : 0)
            return page
        }

        function row(page, i) {
            const list = findChild(page, "codesList")
            list.positionViewAtIndex(i, ListView.Contain)
            list.forceLayout()
            tryVerify(() => list.itemAtIndex(i) !== null, 1000, "row " + i)
            return list.itemAtIndex(i)
        }

        function test_rowsShowIssuerAccountAndGroupedCode() {
            const page = makePage(fakeAccounts())
            const first = row(page, 0)
            compare(findChild(first, "issuerLabel").text, "GitHub")
            verify(findChild(first, "issuerLabel").font.bold)
            compare(findChild(first, "accountLabel").text, "ada@example.org")
            compare(findChild(first, "codeLabel").text, "123 456")
            const chips = findChild(first, "tagChips")
            verify(chips.visible)
            compare(chipTexts(chips), ["work", "code"])

            compare(findChild(row(page, 1), "codeLabel").text, "1234 5678")
            compare(findChild(row(page, 3), "codeLabel").text, "2B7KX")
            verify(!findChild(row(page, 1), "tagChips").visible)
        }

        function test_tagsFromAStringList() {
            // What AccountListModel gives: a plain list of strings.
            const delegate = createTemporaryObject(delegateComponent, root, {
                index: 0, recordId: "x", issuer: "Example", accountName: "ada", tags: ["one", "two"],
                kind: "totp", code: "000 000", plainCode: "000000", nextCode: "", period: 30,
                validUntil: clock + 10, now: clock,
                iconPath: "", iconColour: "#1f6fb2", iconGlyphColour: "#ffffff", monogram: "E",
                displayTitle: "Example (ada)"
            })
            verify(delegate)
            const chips = findChild(delegate, "tagChips")
            verify(chips.visible)
            compare(chipTexts(chips), ["one", "two"])
        }

        function test_ringUrgency_data() {
            return [
                { tag: "20 s left", index: 0, urgency: "normal", seconds: 20 },
                { tag: "8 s left", index: 1, urgency: "warning", seconds: 8 },
                { tag: "3 s left", index: 2, urgency: "critical", seconds: 3 },
            ]
        }

        function test_ringUrgency(data) {
            const page = makePage(fakeAccounts())
            const ring = findChild(row(page, data.index), "countdownRing")
            verify(ring)
            verify(ring.visible)
            compare(ring.urgency, data.urgency)
            compare(ring.secondsLeft, data.seconds)
            if (data.urgency === "normal")
                compare(ring.color, page.palette.highlight)
            else
                verify(ring.color !== page.palette.highlight)
        }

        function test_ringFollowsTheClock() {
            const page = makePage(fakeAccounts())
            const ring = findChild(row(page, 0), "countdownRing")
            compare(ring.urgency, "normal")
            page.now = clock + 11
            compare(ring.secondsLeft, 9)
            compare(ring.urgency, "warning")
            page.now = clock + 16
            compare(ring.urgency, "critical")
            const warning = findChild(row(page, 1), "countdownRing")
            // The red threshold is the moment the next code appears.
            page.now = clock + 1.5
            compare(warning.urgency, "warning")
            page.nextCodeSeconds = 7
            compare(warning.urgency, "critical")
        }

        function test_nextCodeOnlyWhenGiven() {
            const m = fakeAccounts()
            const page = makePage(m)
            const next = findChild(row(page, 2), "nextCodeLabel")
            verify(next.shown && next.visible && next.opacity === 1)
            verify(next.text.indexOf("789 012") >= 0, next.text)
            verify(!findChild(row(page, 0), "nextCodeLabel").shown)
            compare(findChild(row(page, 0), "nextCodeLabel").opacity, 0)
            verify(!findChild(row(page, 1), "nextCodeLabel").shown)
            // Whether it shows or not, the row keeps its height.
            compare(row(page, 2).height, row(page, 1).height)

            // The period rolled over: the model moves the next code up.
            m.setProperty(2, "code", "789 012")
            m.setProperty(2, "plainCode", "789012")
            m.setProperty(2, "nextCode", "")
            m.setProperty(2, "validUntil", clock + 33)
            const rolled = row(page, 2)
            compare(findChild(rolled, "codeLabel").text, "789 012")
            verify(!findChild(rolled, "nextCodeLabel").shown)
            compare(findChild(rolled, "nextCodeLabel").text, "")
            compare(findChild(rolled, "countdownRing").urgency, "normal")
        }

        function test_clickCopiesPlainCode() {
            const page = makePage(fakeAccounts())
            const spy = createTemporaryObject(spyComponent, testCase,
                                              { target: page, signalName: "copyRequested" })
            const item = row(page, 1)
            verify(!findChild(item, "copiedLabel").visible)
            mouseClick(item)
            compare(spy.count, 1)
            compare(spy.signalArguments[0][0], "b2")
            compare(spy.signalArguments[0][1], "12345678")
            verify(findChild(item, "copiedLabel").visible)
            compare(findChild(page, "codesList").currentIndex, 1)
            // The acknowledgement goes away by itself.
            tryVerify(() => !findChild(item, "copiedLabel").visible, 5000)
        }

        function test_enterCopiesCurrentRow() {
            const page = makePage(fakeAccounts())
            const spy = createTemporaryObject(spyComponent, testCase,
                                              { target: page, signalName: "copyRequested" })
            const list = findChild(page, "codesList")
            const search = findChild(page, "searchField")
            search.forceActiveFocus()
            keyClick(Qt.Key_Down)
            verify(list.activeFocus)
            compare(list.currentIndex, 0)
            keyClick(Qt.Key_Down)
            keyClick(Qt.Key_Down)
            compare(list.currentIndex, 2)
            keyClick(Qt.Key_Return)
            compare(spy.count, 1)
            compare(spy.signalArguments[0][0], "c3")
            compare(spy.signalArguments[0][1], "654321")
            verify(findChild(list.currentItem, "copiedLabel").visible)
            keyClick(Qt.Key_Enter)
            compare(spy.count, 2)

            keyClick(Qt.Key_Up)
            keyClick(Qt.Key_Up)
            compare(list.currentIndex, 0)
            verify(list.activeFocus)
            // Up from the first row returns to the search field.
            keyClick(Qt.Key_Up)
            verify(search.activeFocus)
        }

        function test_enterInSearchCopiesHighlightedMatch() {
            const page = makePage(fakeAccounts())
            const spy = createTemporaryObject(spyComponent, testCase,
                                              { target: page, signalName: "copyRequested" })
            const search = findChild(page, "searchField")
            search.forceActiveFocus()
            compare(findChild(page, "codesList").currentIndex, 0)
            keyClick(Qt.Key_Return)
            compare(spy.count, 1)
            compare(spy.signalArguments[0][0], "a1")
            compare(spy.signalArguments[0][1], "123456")
            verify(search.activeFocus)
        }

        function test_hotpHasButtonAndNoRing() {
            const page = makePage(fakeAccounts())
            const spy = createTemporaryObject(spyComponent, testCase,
                                              { target: page, signalName: "advanceRequested" })
            const copySpy = createTemporaryObject(spyComponent, testCase,
                                                  { target: page, signalName: "copyRequested" })
            const hotp = row(page, 4)
            verify(!findChild(hotp, "countdownRing").visible)
            const button = findChild(hotp, "advanceButton")
            verify(button.visible)
            compare(button.Accessible.name, "Next code for VPN")
            mouseClick(button)
            compare(spy.count, 1)
            compare(spy.signalArguments[0][0], "e5")
            // The next code is what it is wanted for: copied too.
            compare(copySpy.count, 1)
            compare(copySpy.signalArguments[0][0], "e5")

            // Time-based rows have a ring and no button.
            const totp = row(page, 0)
            verify(findChild(totp, "countdownRing").visible)
            verify(!findChild(totp, "advanceButton").visible)
        }

        function test_ctrlFFocusesSearch() {
            const page = makePage(fakeAccounts())
            const list = findChild(page, "codesList")
            const search = findChild(page, "searchField")
            list.forceActiveFocus()
            verify(!search.activeFocus)
            keyClick(Qt.Key_F, Qt.ControlModifier)
            verify(search.activeFocus)
        }

        function test_escapeClearsSearch() {
            const page = makePage(fakeAccounts())
            const search = findChild(page, "searchField")
            search.forceActiveFocus()
            keyClick(Qt.Key_G)
            keyClick(Qt.Key_I)
            compare(page.searchText, "gi")
            keyClick(Qt.Key_Escape)
            compare(page.searchText, "")
            compare(search.text, "")
        }

        function test_emptyState() {
            const page = makePage(createTemporaryObject(modelComponent, testCase))
            const empty = findChild(page, "emptyState")
            verify(empty.visible)
            compare(findChild(page, "emptyTitle").text, "No accounts yet")
            verify(findChild(page, "emptyHint").text.length > 0)

            const noModel = makePage(undefined)
            verify(findChild(noModel, "emptyState").visible)
            compare(findChild(noModel, "emptyTitle").text, "No accounts yet")
        }

        function test_noMatchesState() {
            const m = fakeAccounts()
            const page = makePage(m)
            const empty = findChild(page, "emptyState")
            verify(!empty.visible)
            page.searchText = "zzz"
            // The proxy filters; here the test plays its part.
            m.clear()
            // The view takes the removal on its next layout.
            tryVerify(() => empty.visible)
            compare(findChild(page, "emptyTitle").text, "No matches")
            verify(findChild(page, "emptyHint").text.indexOf("zzz") >= 0)
            page.searchText = ""
            compare(findChild(page, "emptyTitle").text, "No accounts yet")
        }

        function spyOn(page, signalName) {
            return createTemporaryObject(spyComponent, testCase, { target: page, signalName: signalName })
        }

        function test_emptyStateOffersAdd() {
            const page = makePage(createTemporaryObject(modelComponent, testCase))
            const add = spyOn(page, "addRequested")
            const button = findChild(page, "emptyAdd")
            verify(button.visible)
            mouseClick(button)
            compare(add.count, 1)
            mouseClick(findChild(page, "addButton"))
            compare(add.count, 2)
        }

        function test_rowMenuEditsMovesAndDeletes() {
            const page = makePage(fakeAccounts())
            const edit = spyOn(page, "editRequested")
            const move = spyOn(page, "moveRequested")
            const del = spyOn(page, "deleteRequested")
            const copy = spyOn(page, "copyRequested")
            const item = row(page, 1)
            const menuButton = findChild(item, "menuButton")
            compare(menuButton.Accessible.name, "Actions for Bank")
            mouseClick(menuButton)
            const menu = findChild(page, "rowMenu")
            verify(menu)
            tryVerify(() => menu.opened)
            const qr = spyOn(page, "qrRequested")
            const share = spyOn(page, "shareRequested")
            // Copy code, Edit, Move up, Move down, Share, Show QR code,
            // (separator), Delete.
            compare(menu.count, 8)
            mouseClick(menu.itemAt(0))
            compare(copy.count, 1)
            compare(copy.signalArguments[0][0], "b2")
            page.showMenu(item, menuButton)
            tryVerify(() => menu.opened)
            verify(menu.itemAt(2).enabled) // row 1 can move up
            mouseClick(menu.itemAt(1))
            compare(edit.count, 1)
            compare(edit.signalArguments[0][0], "b2")
            page.showMenu(item, menuButton)
            tryVerify(() => menu.opened)
            mouseClick(menu.itemAt(2))
            compare(move.count, 1)
            compare(move.signalArguments[0][0], "b2")
            compare(move.signalArguments[0][1], 0)
            page.showMenu(item, menuButton)
            tryVerify(() => menu.opened)
            mouseClick(menu.itemAt(4))
            compare(share.count, 1)
            compare(share.signalArguments[0][0], "b2")
            page.showMenu(item, menuButton)
            tryVerify(() => menu.opened)
            mouseClick(menu.itemAt(5))
            compare(qr.count, 1)
            compare(qr.signalArguments[0][0], "b2")
            verify(qr.signalArguments[0][1].startsWith("Bank"), qr.signalArguments[0][1])
            page.showMenu(item, menuButton)
            tryVerify(() => menu.opened)
            mouseClick(menu.itemAt(7))
            compare(del.count, 1)
            compare(del.signalArguments[0][0], "b2")
        }

        function test_keysOnTheList() {
            const page = makePage(fakeAccounts())
            const edit = spyOn(page, "editRequested")
            const move = spyOn(page, "moveRequested")
            const del = spyOn(page, "deleteRequested")
            const copy = spyOn(page, "copyRequested")
            const list = findChild(page, "codesList")
            list.forceActiveFocus()
            list.currentIndex = 2
            keyClick(Qt.Key_F2)
            compare(edit.signalArguments[0][0], "c3")
            keyClick(Qt.Key_Delete)
            compare(del.signalArguments[0][0], "c3")
            keyClick(Qt.Key_Down, Qt.AltModifier)
            compare(move.signalArguments[0][0], "c3")
            compare(move.signalArguments[0][1], 3)
            compare(list.currentIndex, 3)
            keyClick(Qt.Key_C, Qt.ControlModifier)
            compare(copy.count, 1)
            compare(copy.signalArguments[0][0], "d4")
            // Not reorderable while searching, sorted by name or filtered.
            page.order = 1
            keyClick(Qt.Key_Up, Qt.AltModifier)
            compare(move.count, 1)
        }

        function test_dragMovesARow() {
            const page = makePage(fakeAccounts())
            const move = spyOn(page, "moveRequested")
            const copy = spyOn(page, "copyRequested")
            const first = row(page, 0)
            const third = row(page, 2)
            // Down onto the middle of the third row: it lands there.
            const x = first.width / 3
            const from = first.height / 2
            const to = third.y - first.y + third.height / 2
            mousePress(first, x, from)
            for (let step = 1; step <= 8; ++step)
                mouseMove(first, x, from + (to - from) * step / 8)
            mouseRelease(first, x, to)
            compare(move.count, 1)
            compare(move.signalArguments[0][0], "a1")
            compare(move.signalArguments[0][1], 2)
            compare(copy.count, 0) // a drag is not a click
            // Sorted by name, rows do not move.
            page.order = 1
            mouseDrag(first, x, first.height / 2, 0, first.height * 2)
            compare(move.count, 1)
        }

        function test_ctrlCLeavesSelectedSearchTextAlone() {
            const page = makePage(fakeAccounts())
            const copy = spyOn(page, "copyRequested")
            const search = findChild(page, "searchField")
            search.forceActiveFocus()
            keyClick(Qt.Key_G)
            search.selectAll()
            keyClick(Qt.Key_C, Qt.ControlModifier)
            compare(copy.count, 0)
            search.deselect()
            keyClick(Qt.Key_C, Qt.ControlModifier)
            compare(copy.count, 1)
        }

        function test_tagFilterAndOrder() {
            const page = makePage(fakeAccounts())
            const tags = findChild(page, "tagFilter")
            verify(!tags.visible) // no tags given
            page.allTags = ["code", "work"]
            verify(tags.visible)
            compare(tags.count, 3) // "All tags", code, work
            tags.activated(2)
            compare(page.tagFilter, "work")
            verify(!page.reorderable)
            tags.activated(0)
            compare(page.tagFilter, "")
            const order = findChild(page, "orderBox")
            compare(order.count, 3)
            verify(page.reorderable)
            order.activated(2)
            compare(page.order, 2)
            verify(!page.reorderable)
        }

        function test_undoBar() {
            const page = makePage(fakeAccounts())
            const undo = spyOn(page, "undoRequested")
            const bar = findChild(page, "undoBar")
            verify(!bar.visible)
            page.canUndo = true
            page.undoText = "Deleted Bank (ada)"
            verify(bar.visible)
            verify(visibleTextIn(bar, "Deleted Bank (ada)"))
            const button = findUndoButton(bar)
            mouseClick(button)
            compare(undo.count, 1)
            verify(!bar.visible)
        }

        function visibleTextIn(item, text) {
            if (item.visible && item.text === text)
                return true
            for (let i = 0; i < item.children.length; ++i)
                if (visibleTextIn(item.children[i], text))
                    return true
            return item.contentItem ? visibleTextIn(item.contentItem, text) && item.contentItem !== item : false
        }

        function findUndoButton(item) {
            if (item.Accessible && String(item.Accessible.name).indexOf("Undo:") === 0)
                return item
            const kids = []
            for (let i = 0; i < item.children.length; ++i)
                kids.push(item.children[i])
            if (item.contentItem)
                kids.push(item.contentItem)
            for (const kid of kids) {
                if (kid === item)
                    continue
                const found = findUndoButton(kid)
                if (found)
                    return found
            }
            return null
        }
    }
}
