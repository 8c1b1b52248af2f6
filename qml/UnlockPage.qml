import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App

// The locked vault: its password, the unlock's progress, and what went wrong.
Item {
    id: page

    required property VaultController vault
    readonly property bool busy: vault.state === VaultController.Unlocking

    function submit() {
        if (busy || password.text.length === 0)
            return
        // The controller wipes its copy; the field forgets its own.
        vault.unlock(password.text)
        password.clear()
    }

    ColumnLayout {
        anchors.centerIn: parent
        width: Math.min(parent.width - 48, 420)
        spacing: 12

        Label {
            text: qsTr("Unlock your vault")
            font.pixelSize: Qt.application.font.pixelSize * 1.6
            font.bold: true
            Layout.alignment: Qt.AlignHCenter
        }
        Label {
            text: page.vault.demo ? qsTr("Demo vault: the password is \u201cdemo\u201d.")
                                  : page.vault.path
            elide: Text.ElideMiddle
            opacity: 0.7
            Layout.fillWidth: true
            horizontalAlignment: Text.AlignHCenter
        }
        TextField {
            id: password
            echoMode: TextInput.Password
            placeholderText: qsTr("Password")
            enabled: !page.busy
            focus: true
            Layout.fillWidth: true
            Accessible.name: qsTr("Vault password")
            onAccepted: page.submit()
        }
        Button {
            text: page.busy ? qsTr("Unlocking\u2026") : qsTr("Unlock")
            enabled: !page.busy && password.text.length > 0
            Layout.fillWidth: true
            Accessible.name: qsTr("Unlock the vault")
            onClicked: page.submit()
        }
        ProgressBar {
            value: page.vault.progress
            visible: page.busy
            Layout.fillWidth: true
            Accessible.name: qsTr("Unlock progress")
        }
        Label {
            text: page.vault.error
            visible: text.length > 0
            color: "#b3261e"
            wrapMode: Text.Wrap
            Layout.fillWidth: true
            Accessible.name: qsTr("Unlock error")
        }
    }
}
