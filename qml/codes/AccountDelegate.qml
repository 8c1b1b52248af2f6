import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import QtQuick.Shapes
import Watchword.Ui

// One account on the codes page: who it is for, the live code, and how long
// it stays valid (a ring for time-based codes, a "next" button for HOTP).
ItemDelegate {
    id: row

    // The AccountListModel roles.
    required property int index
    required property string recordId
    required property string issuer
    required property string accountName
    required property var tags
    required property string kind
    required property string code
    required property string plainCode
    required property string nextCode
    required property int period
    required property real validUntil
    // The issuer's icon (an SVG path on 24 x 24, or empty: then the letter).
    required property string iconPath
    required property color iconColour
    required property color iconGlyphColour
    required property string monogram
    required property string displayTitle

    // Set by the page.
    property real now: 0
    property int criticalSeconds: 5

    readonly property bool counter: kind === "hotp"
    readonly property string title: issuer !== "" ? issuer : accountName
    // Set by the page for a moment after this account's code was copied.
    property bool copied: false
    // The code shown as dots (the "hide codes until clicked" setting).
    property bool hidden: false
    readonly property string shownCode: hidden ? code.replace(/[^ ]/g, "\u2022") : code

    signal advanceRequested()
    // Right click, the Menu key or the row's menu button: edit, delete, move.
    signal menuRequested(Item anchor)

    // The ListView keeps the keyboard focus; a click must not take it away.
    focusPolicy: Qt.NoFocus
    padding: Math.round(metrics.height * 0.5)
    horizontalPadding: Math.round(metrics.height * 0.8)

    Accessible.role: Accessible.ListItem
    Accessible.name: {
        const who = accountName !== "" && issuer !== "" ? issuer + ", " + accountName : title
        return hidden ? qsTr("%1: code hidden").arg(who) : qsTr("%1: code %2").arg(who).arg(code)
    }
    Accessible.description: qsTr("Press Enter or click to copy the code")

    TapHandler {
        acceptedButtons: Qt.RightButton
        onTapped: row.menuRequested(row)
    }

    FontMetrics {
        id: metrics
        font: row.font
    }

    background: Rectangle {
        color: row.copied ? row.palette.highlight
                          : row.down || row.hovered ? row.palette.midlight : "transparent"
        opacity: row.copied ? 0.25 : row.down ? 0.8 : 0.5
        Behavior on opacity { NumberAnimation { duration: 120 } }

        Rectangle {
            // A separator between rows that works on light and dark palettes.
            anchors.left: parent.left
            anchors.right: parent.right
            anchors.bottom: parent.bottom
            height: 1
            color: row.palette.mid
            opacity: 0.4
            visible: !row.copied
        }
    }

    contentItem: RowLayout {
        spacing: Math.round(metrics.height * 0.8)

        // The issuer's icon on its brand colour, or its first letter.
        Rectangle {
            id: badge
            objectName: "issuerIcon"
            readonly property real side: Math.round(metrics.height * 2.2)
            implicitWidth: side
            implicitHeight: side
            radius: side / 2
            color: row.iconColour
            Layout.alignment: Qt.AlignVCenter
            Accessible.ignored: true

            Shape {
                visible: row.iconPath !== ""
                anchors.centerIn: parent
                width: 24
                height: 24
                scale: badge.side * 0.58 / 24
                antialiasing: true
                ShapePath {
                    strokeWidth: -1
                    fillColor: row.iconGlyphColour
                    PathSvg {
                        path: row.iconPath
                    }
                }
            }
            Label {
                visible: row.iconPath === ""
                anchors.centerIn: parent
                text: row.monogram
                color: row.iconGlyphColour
                font.bold: true
                font.pixelSize: Math.round(badge.side * 0.45)
            }
        }

        ColumnLayout {
            Layout.fillWidth: true
            spacing: Math.round(metrics.height * 0.15)

            Label {
                objectName: "issuerLabel"
                text: row.title
                font.bold: true
                elide: Text.ElideRight
                Layout.fillWidth: true
            }
            Label {
                objectName: "accountLabel"
                text: row.accountName
                visible: row.issuer !== "" && row.accountName !== ""
                color: row.palette.placeholderText
                elide: Text.ElideRight
                Layout.fillWidth: true
            }
            Flow {
                objectName: "tagChips"
                visible: tagRepeater.count > 0
                spacing: Math.round(metrics.height * 0.3)
                Layout.fillWidth: true
                Layout.topMargin: Math.round(metrics.height * 0.15)

                Repeater {
                    id: tagRepeater
                    model: row.tags
                    delegate: Label {
                        required property string modelData
                        objectName: "tagChip"
                        text: modelData
                        font.pixelSize: Math.round(row.font.pixelSize * 0.85)
                        leftPadding: Math.round(metrics.height * 0.45)
                        rightPadding: leftPadding
                        topPadding: Math.round(metrics.height * 0.1)
                        bottomPadding: topPadding
                        color: row.palette.windowText
                        Accessible.name: qsTr("Tag %1").arg(modelData)
                        background: Rectangle {
                            radius: height / 2
                            color: row.palette.button
                            border.color: row.palette.mid
                            border.width: 1
                        }
                    }
                }
            }
        }

        ColumnLayout {
            spacing: 0
            Layout.alignment: Qt.AlignVCenter

            RowLayout {
                spacing: Math.round(metrics.height * 0.5)
                Layout.alignment: Qt.AlignRight

                // Beside the code, so the row keeps its height.
                Label {
                    objectName: "copiedLabel"
                    visible: row.copied
                    text: qsTr("\u2713 Copied")
                    font.bold: true
                    color: row.palette.windowText
                    Layout.alignment: Qt.AlignVCenter
                    Accessible.name: qsTr("Copied")
                }
                Label {
                    objectName: "codeLabel"
                    text: row.shownCode
                    font.family: "monospace"
                    font.pixelSize: Math.round(row.font.pixelSize * 1.9)
                    font.letterSpacing: Math.round(row.font.pixelSize * 0.05)
                    color: row.palette.windowText
                    Accessible.name: row.hidden ? qsTr("Code hidden: click to show and copy")
                                                : qsTr("Code %1").arg(row.code)
                }
            }
            // Always in the layout, with room for a code: the next code
            // appearing and going (in every row at once) must not lay the
            // rows out again.
            Label {
                id: nextCodeLabel
                objectName: "nextCodeLabel"
                readonly property bool shown: row.nextCode !== "" && !row.hidden
                opacity: shown ? 1 : 0
                text: shown ? qsTr("next: %1").arg(row.nextCode) : ""
                font.family: "monospace"
                color: row.palette.placeholderText
                Layout.alignment: Qt.AlignRight
                Layout.preferredWidth: nextMetrics.advanceWidth(qsTr("next: %1").arg(row.code))
                Layout.preferredHeight: nextMetrics.height
                horizontalAlignment: Text.AlignRight
                Accessible.ignored: !shown
                Accessible.name: qsTr("Next code %1").arg(row.nextCode)
            }
            FontMetrics {
                id: nextMetrics
                font: nextCodeLabel.font
            }
        }

        // The ring and the HOTP button share one column so codes line up.
        Item {
            implicitWidth: Math.max(ring.implicitWidth, advanceButton.implicitWidth)
            implicitHeight: Math.max(ring.implicitHeight, advanceButton.implicitHeight)
            Layout.alignment: Qt.AlignVCenter

            CountdownRing {
                id: ring
                objectName: "countdownRing"
                anchors.centerIn: parent
                visible: !row.counter && row.period > 0
                now: row.now
                validUntil: row.validUntil
                period: Math.max(1, row.period)
                criticalSeconds: row.criticalSeconds
            }

            Button {
                id: advanceButton
                objectName: "advanceButton"
                anchors.centerIn: parent
                visible: row.counter
                text: qsTr("Next")
                // As wide as its text, not the style's minimum button width.
                implicitWidth: implicitContentWidth + leftPadding + rightPadding
                focusPolicy: Qt.TabFocus
                Accessible.name: qsTr("Next code for %1").arg(row.title)
                ToolTip.visible: hovered
                ToolTip.delay: 600
                ToolTip.text: qsTr("Show the next code (advances the counter)")
                onClicked: row.advanceRequested()
            }
        }

        ToolButton {
            id: menuButton
            objectName: "menuButton"
            text: "\u22ee"
            focusPolicy: Qt.TabFocus
            Layout.alignment: Qt.AlignVCenter
            Accessible.name: qsTr("Actions for %1").arg(row.title)
            ToolTip.visible: hovered
            ToolTip.delay: 600
            ToolTip.text: qsTr("Edit, delete or move")
            onClicked: row.menuRequested(menuButton)
        }
    }
}
