import QtQuick
import Watchword.App
import Watchword.Ui

// Paints a window (or any control) in the Theme's colours: every palette
// role, and the disabled texts, now and whenever the theme changes. In the
// window:  ThemePalette { theme: window.theme; target: window }
QtObject {
    id: applier

    required property Theme theme
    // Anything with a palette: an ApplicationWindow, a Control.
    required property var target

    function apply() {
        if (!target || !theme)
            return
        const colors = theme.colors
        for (const role in colors)
            target.palette[role] = colors[role]
        const disabled = theme.disabledColors
        for (const role in disabled)
            target.palette.disabled[role] = disabled[role]
    }

    Component.onCompleted: apply()
    onTargetChanged: apply()

    property Connections themeChanges: Connections {
        target: applier.theme
        function onChanged() {
            applier.apply()
        }
    }
}
