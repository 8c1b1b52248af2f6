import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App

// No vault at the path yet.
Item {
    id: page

    required property VaultController vault

    ColumnLayout {
        anchors.centerIn: parent
        width: Math.min(parent.width - 48, 520)
        spacing: 12

        Label {
            text: qsTr("No vault yet")
            font.pixelSize: Qt.application.font.pixelSize * 1.6
            font.bold: true
            Layout.alignment: Qt.AlignHCenter
        }
        Label {
            text: qsTr("Create one at %1 with:").arg(page.vault.path)
            wrapMode: Text.Wrap
            Layout.fillWidth: true
        }
        TextField {
            text: "watchword-cli vault init '" + page.vault.path + "'"
            readOnly: true
            selectByMouse: true
            font.family: "monospace"
            Layout.fillWidth: true
            Accessible.name: qsTr("Command that creates the vault")
        }
        Label {
            text: qsTr("then start Watchword again, or try it first with watchword --demo.")
            wrapMode: Text.Wrap
            opacity: 0.8
            Layout.fillWidth: true
        }
    }
}
