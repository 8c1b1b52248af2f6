import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

ApplicationWindow {
    id: window
    width: 720
    height: 560
    visible: true
    title: qsTr("Watchword")

    header: ToolBar {
        RowLayout {
            anchors.fill: parent
            anchors.leftMargin: 16
            Label {
                text: qsTr("Watchword")
                font.pixelSize: 20
                font.bold: true
                Layout.fillWidth: true
            }
        }
    }

    SelfTestPage {
        anchors.fill: parent
    }
}
