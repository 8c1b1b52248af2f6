import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

// The unlocked vault: every account with its live code, searchable, and
// copied with a click or Enter. Presentation only: the codes come from an
// AccountListModel (filtered by a proxy on searchText) and the countdown
// rings are drawn from the clock the window sets in `now`.
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

    signal copyRequested(string recordId, string plainCode)
    signal advanceRequested(string recordId)

    function copyItem(item) {
        if (!item)
            return
        page.copyRequested(item.recordId, item.plainCode)
        item.showCopied()
    }

    padding: Math.round(metrics.height * 0.8)

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

    ColumnLayout {
        anchors.fill: parent
        spacing: Math.round(metrics.height * 0.6)

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
            // Type a few letters, press Enter: copies the highlighted match.
            Keys.onReturnPressed: page.copyItem(list.currentItem)
            Keys.onEnterPressed: page.copyItem(list.currentItem)
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
                    onClicked: {
                        list.currentIndex = accountRow.index
                        list.forceActiveFocus(Qt.MouseFocusReason)
                        page.copyItem(accountRow)
                    }
                    onAdvanceRequested: page.advanceRequested(accountRow.recordId)
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
                          ? qsTr("Add one from its otpauth:// link with the command below; its codes will show here.")
                          : qsTr("No issuer, account name or tag contains \u201c%1\u201d. Press Escape to clear the search.")
                                .arg(page.searchText)
                    color: page.palette.placeholderText
                    horizontalAlignment: Text.AlignHCenter
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                    Accessible.name: text
                }
                Label {
                    objectName: "emptyCommand"
                    visible: page.searchText === ""
                    text: "watchword-cli vault add FILE 'otpauth://…'"
                    font.family: "monospace"
                    horizontalAlignment: Text.AlignHCenter
                    wrapMode: Text.WrapAnywhere
                    Layout.fillWidth: true
                    Accessible.name: qsTr("Command: %1").arg(text)
                }
            }
        }
    }
}
