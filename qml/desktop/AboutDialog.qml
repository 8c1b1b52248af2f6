import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.Ui

// Help > About: what this is, which version, its licence, and where the
// user's data lives.
Dialog {
    id: dialog
    objectName: "aboutDialog"
    modal: true
    anchors.centerIn: parent
    title: qsTr("About Watchword")
    standardButtons: Dialog.Close
    width: Math.min(parent ? parent.width - 32 : 480, Math.round(metrics.averageCharacterWidth * 64))

    FontMetrics {
        id: metrics
        font: dialog.font
    }

    ColumnLayout {
        width: dialog.availableWidth
        spacing: Math.round(metrics.height * 0.6)

        RowLayout {
            spacing: Math.round(metrics.height * 0.8)
            Image {
                source: "qrc:/icons/watchword-64.png"
                sourceSize: Qt.size(64, 64)
                Layout.preferredWidth: 64
                Layout.preferredHeight: 64
                Accessible.ignored: true
            }
            ColumnLayout {
                spacing: 2
                Label {
                    text: qsTr("Watchword")
                    font.pixelSize: Math.round(dialog.font.pixelSize * 1.5)
                    font.bold: true
                }
                Label {
                    objectName: "aboutVersion"
                    text: qsTr("Version %1").arg(Qt.application.version)
                    color: dialog.palette.placeholderText
                }
            }
        }
        Label {
            text: qsTr("A desktop authenticator and vault: time-based, counter-based and Steam "
                       + "codes, and secure notes, kept in one encrypted file that only your "
                       + "password or your 24-word recovery phrase opens. Nothing leaves this "
                       + "computer unless you export it.")
            wrapMode: Text.Wrap
            Layout.fillWidth: true
        }
        Label {
            text: qsTr("Free software under the GNU General Public License, version 3 or later. "
                       + "It comes with no warranty.")
            wrapMode: Text.Wrap
            Layout.fillWidth: true
        }
        Label {
            text: qsTr("Issuer icons from Simple Icons (CC0 1.0); the brands are their owners' trademarks.")
            wrapMode: Text.Wrap
            color: dialog.palette.placeholderText
            Layout.fillWidth: true
        }
    }
}
