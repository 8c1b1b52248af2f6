import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.Ui

// Five segments and a hint under a new password: how long it would resist
// guessing (the estimate is the vault's, see VaultController.passwordStrength).
ColumnLayout {
    id: meter

    // 0 very weak .. 4 very strong; -1: nothing typed yet.
    property int score: -1
    property string hint: ""

    readonly property var colours: ["#b3261e", "#d9730d", "#c9a400", "#2e7d32", "#1b5e20"]

    spacing: 4

    RowLayout {
        spacing: 4
        Layout.fillWidth: true
        Repeater {
            model: 5
            Rectangle {
                required property int index
                Layout.fillWidth: true
                implicitHeight: 6
                radius: 3
                color: meter.score >= index ? meter.colours[Math.max(meter.score, 0)]
                                            : Qt.rgba(0.5, 0.5, 0.5, 0.25)
            }
        }
    }
    Label {
        text: meter.hint
        visible: meter.score >= 0 && text.length > 0
        wrapMode: Text.Wrap
        font.pixelSize: Qt.application.font.pixelSize * 0.9
        opacity: 0.85
        Layout.fillWidth: true
        Accessible.name: qsTr("Password strength")
        Accessible.description: text
    }
}
