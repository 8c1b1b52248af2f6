import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.Ui

// The unlocked vault: every account with its live code, searchable, filtered
// by tag, sorted, and copied with a click, Enter or Ctrl+C. Presentation
// only: the codes come from an AccountListModel behind an AccountFilterModel
// (which the window binds to searchText, tagFilter and order) and the
// countdown rings are drawn from the clock the window sets in `now`. Edits
// leave as signals; the window hands them to the vault.
Pane {
    id: page

    // An AccountListModel, or anything with the same roles.
    property var model
    // Unix seconds, fractional; set by the app's clock several times a second.
    property real now: 0
    // The model shows the next code during this many last seconds of a period;
    // the ring turns red at the same moment.
    property int nextCodeSeconds: 5
    property alias searchText: searchField.text
    // Every tag of every account (the filter's choices), and the one chosen
    // ("" for all).
    property var allTags: []
    property string tagFilter: ""
    // 0 manual, 1 by name, 2 recently used (AccountFilterModel.Order).
    property int order: 0
    // The last deletion, for the undo bar.
    property bool canUndo: false
    // Codes as dots until their row is clicked (or copied by key): the one
    // copied last shows for a while.
    property bool hideCodes: false
    property string revealedRecordId: ""
    Timer {
        id: revealTimer
        interval: 20000
        onTriggered: page.revealedRecordId = ""
    }
    property string undoText: ""
    // Rows may be dragged into a new order only when all of them are shown
    // in manual order: a drop position then means the same to the vault.
    readonly property bool reorderable: order === 0 && searchText === "" && tagFilter === ""

    signal copyRequested(string recordId, string plainCode)
    signal advanceRequested(string recordId)
    signal addRequested()
    signal editRequested(string recordId)
    signal deleteRequested(string recordId)
    signal moveRequested(string recordId, int to)
    signal undoRequested()
    // "Show QR code": the account's otpauth:// link as a code for a phone.
    signal qrRequested(string recordId, string title)
    // "Share…": the account sealed to contacts.
    signal shareRequested(string recordId)
    // A file dropped on the list: an export to import.
    signal fileDropped(url file)

    // The undo bar shows for a while after each deletion.
    onUndoTextChanged: if (undoText !== "") undoTimer.restart()

    function showMenu(item, anchor) {
        actions.recordId = item.recordId
        actions.accountTitle = item.displayTitle
        actions.row = item.index
        // Right-aligned under the ⋮ button (or the row), which sits at the
        // window's right edge (aligned left it would be pushed flat
        // against the window's edge).
        actions.popup(anchor, anchor.width - actions.width, anchor.height)
    }

    // The account whose code was copied last, for a moment: a short visual
    // acknowledgement (the page cannot know whether the clipboard took it).
    // Kept by id, not on the row: copying marks the account as used, and
    // the list may then move or remake its rows.
    property string copiedRecordId: ""
    Timer {
        id: copiedTimer
        interval: 1500
        onTriggered: page.copiedRecordId = ""
    }

    function copyItem(item) {
        if (!item)
            return
        const recordId = item.recordId
        page.copyRequested(recordId, item.plainCode)
        page.copiedRecordId = recordId
        copiedTimer.restart()
        page.revealedRecordId = recordId
        revealTimer.restart()
    }

    padding: Math.round(metrics.height * 0.8)

    FontMetrics {
        id: metrics
        font: page.font
    }

    // Ctrl+C copies the highlighted account's code, unless text is selected
    // in the search field (then it copies that, as everywhere).
    Shortcut {
        sequences: [StandardKey.Copy]
        enabled: page.visible && list.currentItem !== null
                 && !(searchField.activeFocus && searchField.selectedText !== "")
        onActivated: page.copyItem(list.currentItem)
    }

    Timer {
        id: undoTimer
        interval: 10000
    }

    Menu {
        id: actions
        objectName: "rowMenu"
        property string recordId: ""
        property string accountTitle: ""
        property int row: -1
        MenuItem {
            objectName: "copyItem"
            text: qsTr("&Copy code")
            onTriggered: {
                const row = list.itemAtIndex(actions.row)
                if (row)
                    page.copyItem(row)
            }
        }
        MenuItem {
            text: qsTr("&Edit\u2026")
            onTriggered: page.editRequested(actions.recordId)
        }
        MenuItem {
            text: qsTr("Move &up")
            enabled: page.reorderable && actions.row > 0
            onTriggered: page.moveRequested(actions.recordId, actions.row - 1)
        }
        MenuItem {
            text: qsTr("Move &down")
            enabled: page.reorderable && actions.row >= 0 && actions.row < list.count - 1
            onTriggered: page.moveRequested(actions.recordId, actions.row + 1)
        }
        MenuItem {
            objectName: "shareAccountItem"
            text: qsTr("&Share\u2026")
            onTriggered: page.shareRequested(actions.recordId)
        }
        MenuItem {
            objectName: "showQrItem"
            text: qsTr("Show &QR code\u2026")
            onTriggered: page.qrRequested(actions.recordId, actions.accountTitle)
        }
        MenuSeparator {}
        MenuItem {
            text: qsTr("&Delete")
            onTriggered: page.deleteRequested(actions.recordId)
        }
    }

    // Another app's export dropped anywhere on the page opens the import.
    DropArea {
        id: fileDrop
        objectName: "fileDrop"
        anchors.fill: parent
        keys: ["text/uri-list"]
        onEntered: (drag) => {
            if (drag.hasUrls)
                drag.accept(Qt.CopyAction)
        }
        onDropped: (drop) => {
            if (!drop.hasUrls || drop.urls.length === 0)
                return
            page.fileDropped(drop.urls[0])
            drop.accept(Qt.CopyAction)
        }
    }

    Shortcut {
        sequences: [StandardKey.Find]
        enabled: page.visible && page.enabled
        onActivated: {
            searchField.forceActiveFocus(Qt.ShortcutFocusReason)
            searchField.selectAll()
        }
    }

    // In a wide window the list keeps a reading width, centred, so each code
    // stays beside its name instead of across a gulf.
    ColumnLayout {
        anchors.top: parent.top
        anchors.bottom: parent.bottom
        anchors.horizontalCenter: parent.horizontalCenter
        width: Math.min(parent.width, Math.round(metrics.averageCharacterWidth * 110))
        spacing: Math.round(metrics.height * 0.6)

        RowLayout {
            Layout.fillWidth: true
            spacing: Math.round(metrics.height * 0.5)

        TextField {
            id: searchField
            objectName: "searchField"
            focus: true
            Layout.fillWidth: true
            placeholderText: qsTr("Search issuer, account or tag")
            selectByMouse: true
            Accessible.name: qsTr("Search accounts")
            Accessible.description: placeholderText

            Keys.onDownPressed: (event) => {
                if (list.count === 0) {
                    event.accepted = false
                    return
                }
                if (list.currentIndex < 0)
                    list.currentIndex = 0
                list.forceActiveFocus(Qt.TabFocusReason)
            }
            Keys.onEscapePressed: (event) => {
                if (text === "") {
                    event.accepted = false
                    return
                }
                clear()
            }
            // Ctrl+C with nothing selected copies the highlighted code (the
            // field would take the key and copy nothing).
            // The highlighted row's keys work from the field too (the field
            // has the focus when the page opens): F2 edits, the Menu key
            // opens the row's menu, Delete deletes when there is no text to
            // delete.
            Keys.onPressed: (event) => {
                const item = list.currentItem
                if (event.matches(StandardKey.Undo) && !canUndo && page.canUndo) {
                    undoTimer.stop()
                    page.undoRequested()
                    event.accepted = true
                    return
                }
                if (!item)
                    return
                if (event.matches(StandardKey.Copy) && selectedText === "") {
                    page.copyItem(item)
                    event.accepted = true
                } else if (event.key === Qt.Key_F2) {
                    page.editRequested(item.recordId)
                    event.accepted = true
                } else if (event.key === Qt.Key_Menu) {
                    page.showMenu(item, item)
                    event.accepted = true
                } else if (event.key === Qt.Key_Delete && text === "") {
                    page.deleteRequested(item.recordId)
                    event.accepted = true
                }
            }
            // Type a few letters, press Enter: copies the highlighted match.
            Keys.onReturnPressed: page.copyItem(list.currentItem)
            Keys.onEnterPressed: page.copyItem(list.currentItem)
        }

            ComboBox {
                id: tagBox
                objectName: "tagFilter"
                visible: page.allTags.length > 0
                model: [qsTr("All tags")].concat(page.allTags)
                currentIndex: Math.max(0, page.allTags.indexOf(page.tagFilter) + 1)
                onActivated: (index) => page.tagFilter = index === 0 ? "" : page.allTags[index - 1]
                Accessible.name: qsTr("Show only accounts with this tag")
            }
            ComboBox {
                id: orderBox
                objectName: "orderBox"
                model: [qsTr("My order"), qsTr("By name"), qsTr("Recently used")]
                currentIndex: page.order
                onActivated: (index) => page.order = index
                Accessible.name: qsTr("Sort accounts")
            }
            Button {
                objectName: "addButton"
                text: qsTr("Add\u2026")
                Accessible.name: qsTr("Add an account")
                ToolTip.visible: hovered
                ToolTip.delay: 600
                ToolTip.text: qsTr("Add an account (Ctrl+N)")
                onClicked: page.addRequested()
            }
        }

        Item {
            Layout.fillWidth: true
            Layout.fillHeight: true

            ListView {
                id: list
                objectName: "codesList"
                anchors.fill: parent
                clip: true
                model: page.model ? page.model : null
                activeFocusOnTab: true
                keyNavigationEnabled: true
                boundsBehavior: Flickable.StopAtBounds
                highlightMoveDuration: 0
                highlightResizeDuration: 0
                Accessible.role: Accessible.List
                Accessible.name: qsTr("Accounts")

                // The highlight follows the account, not the row: a new
                // order, a filter or a copy in "recently used" order moves
                // accounts, and Enter must still copy the one highlighted.
                property string currentRecordId: ""
                // A row is always highlighted when there is one: Enter, F2
                // and Delete from the search field act on it.
                onCountChanged: if (currentIndex < 0 && count > 0) currentIndex = 0
                onCurrentItemChanged: {
                    if (!list.following)
                        list.currentRecordId = list.currentItem ? list.currentItem.recordId : ""
                }
                // True from "the rows are about to move" until the highlight
                // is back on its account.
                property bool following: false
                function follow() {
                    const row = page.model && typeof page.model.rowOf === "function"
                                ? page.model.rowOf(list.currentRecordId) : -1
                    if (row >= 0)
                        list.currentIndex = row
                    list.following = false
                    if (row >= 0)
                        list.positionViewAtIndex(row, ListView.Contain)
                    else
                        list.currentRecordId = list.currentItem ? list.currentItem.recordId : ""
                }
                Connections {
                    target: page.model ? page.model : null
                    ignoreUnknownSignals: true
                    function onLayoutAboutToBeChanged() { list.following = true }
                    function onModelAboutToBeReset() { list.following = true }
                    function onRowsAboutToBeMoved() { list.following = true }
                    function onLayoutChanged() { Qt.callLater(list.follow) }
                    function onModelReset() { Qt.callLater(list.follow) }
                    function onRowsMoved() { Qt.callLater(list.follow) }
                }

                highlight: Rectangle {
                    color: page.palette.highlight
                    opacity: list.activeFocus ? 0.28 : 0.1

                    Rectangle {
                        // A focus mark that does not rely on colour alone.
                        visible: list.activeFocus
                        anchors.left: parent.left
                        anchors.top: parent.top
                        anchors.bottom: parent.bottom
                        width: Math.max(2, Math.round(metrics.height * 0.2))
                        color: page.palette.highlight
                    }
                }

                delegate: AccountDelegate {
                    id: accountRow
                    width: ListView.view.width
                    now: page.now
                    criticalSeconds: page.nextCodeSeconds
                    copied: page.copiedRecordId === accountRow.recordId
                    hidden: page.hideCodes && page.revealedRecordId !== accountRow.recordId
                    onClicked: {
                        list.currentIndex = accountRow.index
                        list.forceActiveFocus(Qt.MouseFocusReason)
                        page.copyItem(accountRow)
                    }
                    // "Next" shows the next code and copies it: that is what
                    // it is wanted for.
                    onAdvanceRequested: {
                        page.advanceRequested(accountRow.recordId)
                        page.copyItem(accountRow)
                    }
                    onMenuRequested: (anchor) => page.showMenu(accountRow, anchor)

                    // Drag a row to a new place (manual order only). The row
                    // stays put; a line shows where it will land.
                    DragHandler {
                        id: dragger
                        target: null
                        enabled: page.reorderable
                        xAxis.enabled: false
                        onActiveChanged: {
                            if (active) {
                                dropLine.from = accountRow.index
                            } else if (dropLine.from >= 0) {
                                const to = dropLine.target
                                dropLine.from = -1
                                if (to !== accountRow.index)
                                    page.moveRequested(accountRow.recordId, to)
                            }
                        }
                        onCentroidChanged: {
                            if (!active)
                                return
                            const y = accountRow.mapToItem(list.contentItem, 0, centroid.position.y).y
                            const over = list.indexAt(10, y)
                            dropLine.target = over < 0 ? (y < 0 ? 0 : list.count - 1) : over
                        }
                    }
                }

                Rectangle {
                    id: dropLine
                    objectName: "dropLine"
                    property int from: -1
                    property int target: -1
                    readonly property Item over: from >= 0 ? list.itemAtIndex(target) : null
                    visible: over !== null && target !== from
                    parent: list.contentItem
                    z: 10
                    x: 0
                    width: list.width
                    height: Math.max(2, Math.round(metrics.height * 0.15))
                    color: page.palette.highlight
                    y: over ? (target > from ? over.y + over.height - height : over.y) : 0
                }

                Keys.onUpPressed: (event) => {
                    // Up from the first row goes back to the search field.
                    if (currentIndex <= 0)
                        searchField.forceActiveFocus(Qt.BacktabFocusReason)
                    else
                        event.accepted = false
                }
                Keys.onReturnPressed: page.copyItem(currentItem)
                Keys.onEnterPressed: page.copyItem(currentItem)
                Keys.onDeletePressed: if (currentItem) page.deleteRequested(currentItem.recordId)
                Keys.onMenuPressed: if (currentItem) page.showMenu(currentItem, currentItem)
                Keys.onPressed: (event) => {
                    if (!currentItem)
                        return
                    if (event.key === Qt.Key_F2) {
                        page.editRequested(currentItem.recordId)
                        event.accepted = true
                    } else if (page.reorderable && (event.modifiers & Qt.AltModifier)
                               && (event.key === Qt.Key_Up || event.key === Qt.Key_Down)) {
                        const to = currentIndex + (event.key === Qt.Key_Up ? -1 : 1)
                        if (to >= 0 && to < count) {
                            page.moveRequested(currentItem.recordId, to)
                            currentIndex = to
                        }
                        event.accepted = true
                    }
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
                    Accessible.name: qsTr("Scroll accounts")
                }
            }

            ColumnLayout {
                id: emptyState
                objectName: "emptyState"
                visible: list.count === 0
                anchors.centerIn: parent
                width: Math.min(parent.width, metrics.averageCharacterWidth * 64)
                spacing: Math.round(metrics.height * 0.4)

                Label {
                    objectName: "emptyTitle"
                    text: page.searchText === "" ? qsTr("No accounts yet") : qsTr("No matches")
                    font.bold: true
                    font.pixelSize: Math.round(page.font.pixelSize * 1.5)
                    horizontalAlignment: Text.AlignHCenter
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                    Accessible.name: text
                }
                Label {
                    objectName: "emptyHint"
                    text: page.searchText === ""
                          ? qsTr("Add one from its otpauth:// link, its QR code or by hand; its codes will show here.")
                          : qsTr("No issuer, account name or tag contains \u201c%1\u201d. Press Escape to clear the search.")
                                .arg(page.searchText)
                    color: page.palette.placeholderText
                    horizontalAlignment: Text.AlignHCenter
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                    Accessible.name: text
                }
                Button {
                    objectName: "emptyAdd"
                    visible: page.searchText === "" && page.tagFilter === ""
                    text: qsTr("Add an account\u2026")
                    highlighted: true
                    Layout.alignment: Qt.AlignHCenter
                    Accessible.name: qsTr("Add an account")
                    onClicked: page.addRequested()
                }
            }
        }

        // After a deletion: what went, and a way back.
        Frame {
            objectName: "undoBar"
            visible: page.canUndo && undoTimer.running
            Layout.fillWidth: true
            RowLayout {
                anchors.fill: parent
                Label {
                    text: page.undoText
                    elide: Text.ElideRight
                    Layout.fillWidth: true
                }
                Button {
                    text: qsTr("&Undo")
                    Accessible.name: qsTr("Undo: %1").arg(page.undoText)
                    onClicked: {
                        undoTimer.stop()
                        page.undoRequested()
                    }
                }
            }
        }
    }
}
