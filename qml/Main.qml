import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App

ApplicationWindow {
    id: window

    required property VaultController vault
    required property Clock clock

    width: 720
    height: 560
    visible: true
    title: vault.demo ? qsTr("Watchword (demo)") : qsTr("Watchword")

    Shortcut {
        sequence: "Ctrl+L"
        enabled: window.vault.state === VaultController.Unlocked
        onActivated: window.vault.lock()
    }

    header: ToolBar {
        RowLayout {
            anchors.fill: parent
            anchors.leftMargin: 16
            anchors.rightMargin: 8
            Label {
                text: window.title
                font.pixelSize: Qt.application.font.pixelSize * 1.4
                font.bold: true
                Layout.fillWidth: true
            }
            TabBar {
                id: tabs
                TabButton {
                    text: qsTr("Codes")
                    width: implicitWidth
                }
                TabButton {
                    text: qsTr("Diagnostics")
                    width: implicitWidth
                }
            }
            ToolButton {
                text: qsTr("Lock")
                visible: window.vault.state === VaultController.Unlocked
                Accessible.name: qsTr("Lock the vault")
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Lock (Ctrl+L)")
                onClicked: window.vault.lock()
            }
        }
    }

    StackLayout {
        anchors.fill: parent
        currentIndex: tabs.currentIndex

        Loader {
            sourceComponent: {
                switch (window.vault.state) {
                case VaultController.Missing:
                    return welcome
                case VaultController.Unlocked:
                    return codes
                default:
                    return unlock
                }
            }
        }
        SelfTestPage {}
    }

    Component {
        id: welcome
        WelcomePage {
            vault: window.vault
        }
    }
    Component {
        id: unlock
        UnlockPage {
            vault: window.vault
        }
    }
    Component {
        id: codes
        CodesPage {
            id: codesPage
            model: AccountFilterModel {
                sourceModel: window.vault.accounts
                searchText: codesPage.searchText
            }
            now: window.clock.now
            onCopyRequested: (recordId, plainCode) => window.vault.copyCode(recordId)
        }
    }
}
