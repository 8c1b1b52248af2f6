import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Watchword.App
import Watchword.Ui

// The start-up self-test: a banner that says whether crypto is available,
// and every known-answer test with its time. A page of its own, or a section
// of another (its implicit height shows every test).
Pane {
    id: page
    padding: 16

    readonly property bool dark: palette.window.hslLightness < 0.5

    ColumnLayout {
        anchors.fill: parent
        spacing: 12

        Rectangle {
            objectName: "selfTestBanner"
            Layout.fillWidth: true
            implicitHeight: bannerText.implicitHeight + 24
            radius: 6
            color: SelfTestModel.passed ? "#e6f4ea" : "#fce8e6"
            border.color: SelfTestModel.passed ? "#34a853" : "#d93025"

            Label {
                id: bannerText
                anchors.fill: parent
                anchors.margins: 12
                wrapMode: Text.WordWrap
                color: SelfTestModel.passed ? "#137333" : "#a50e0e"
                text: SelfTestModel.passed
                      ? qsTr("Self-test passed: all %1 known-answer tests in %2 ms. Crypto is available.")
                            .arg(selfTestList.count).arg(SelfTestModel.totalMilliseconds.toFixed(2))
                      : qsTr("Self-test failed: %1. Crypto is disabled; no vault can be opened.")
                            .arg(SelfTestModel.failingTest)
            }
        }

        ListView {
            id: selfTestList
            objectName: "selfTestList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            Layout.preferredHeight: contentHeight
            clip: true
            model: SelfTestModel
            delegate: ItemDelegate {
                required property string name
                required property bool passed
                required property double microseconds
                width: ListView.view.width
                contentItem: RowLayout {
                    spacing: 12
                    Label {
                        text: passed ? "\u2713" : "\u2717"
                        color: passed ? (page.dark ? "#81c995" : "#137333")
                                      : (page.dark ? "#f2b8b5" : "#a50e0e")
                        font.bold: true
                    }
                    Label {
                        text: name
                        Layout.fillWidth: true
                        elide: Text.ElideRight
                    }
                    Label {
                        text: qsTr("%1 \u00b5s").arg(microseconds.toFixed(1))
                        color: palette.placeholderText
                        font.family: "monospace"
                    }
                }
            }
            ScrollBar.vertical: ScrollBar {}
        }
    }
}
