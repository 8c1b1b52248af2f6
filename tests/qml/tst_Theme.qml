import QtQuick
import QtQuick.Controls
import QtTest
import Watchword.App
import Watchword.Ui

// A window painted by ThemePalette follows the theme setting: what Main.qml
// does with the app's Theme. `testSettings` and `testTheme` come from the
// test setup.
TestCase {
    id: testCase
    name: "Theme"
    when: windowShown

    Component {
        id: windowComponent
        ApplicationWindow {
            id: window
            width: 320
            height: 200
            visible: true

            property alias button: button
            property alias field: field

            ThemePalette {
                theme: testTheme
                target: window
            }
            Column {
                Button {
                    id: button
                    text: "Button"
                }
                TextField {
                    id: field
                    enabled: false
                    text: "disabled"
                }
            }
        }
    }

    function init() {
        failOnWarning(/.*/)
        testSettings.theme = "system"
    }

    function cleanup() {
        testSettings.theme = "system"
    }

    function test_followsTheSetting() {
        const window = createTemporaryObject(windowComponent, testCase)
        verify(window)
        // The offscreen platform's palette is light, so "system" is light.
        verify(!testTheme.dark)
        verify(Qt.colorEqual(window.palette.window, testTheme.colors.window))
        verify(window.button.palette.button.hslLightness > 0.5)

        testSettings.theme = "dark"
        verify(testTheme.dark)
        verify(Qt.colorEqual(window.palette.window, testTheme.colors.window))
        verify(window.palette.window.hslLightness < 0.5)
        // Controls inherit it, disabled ones with the dimmed text.
        verify(Qt.colorEqual(window.button.palette.button, testTheme.colors.button))
        verify(Qt.colorEqual(window.button.palette.buttonText, testTheme.colors.buttonText))
        verify(Qt.colorEqual(window.field.palette.disabled.text, testTheme.disabledColors.text))
        verify(!Qt.colorEqual(testTheme.disabledColors.text, testTheme.colors.text))

        testSettings.theme = "light"
        verify(!testTheme.dark)
        verify(window.palette.window.hslLightness > 0.5)
        verify(window.palette.windowText.hslLightness < 0.5)
    }
}
