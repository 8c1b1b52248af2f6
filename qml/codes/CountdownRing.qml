import QtQuick
import QtQuick.Controls
import Watchword.Ui

// How much of a time-based code's period is left, as a ring with the
// seconds inside. It is drawn from the clock (now) and the code's expiry,
// so the model never has to signal a row just because a second passed.
Control {
    id: ring

    property real now: 0
    property real validUntil: 0
    property int period: 30
    // Amber from this many seconds left, red from criticalSeconds (the page
    // ties that to when the next code appears).
    property int warningSeconds: 10
    property int criticalSeconds: 5

    readonly property real remaining: Math.max(0, Math.min(period, validUntil - now))
    readonly property real fraction: period > 0 ? remaining / period : 0
    readonly property int secondsLeft: Math.ceil(remaining)
    // "normal", "warning" or "critical": what the colour says, readable by
    // tests and assistive technology alike.
    readonly property string urgency: remaining <= criticalSeconds ? "critical"
                                    : remaining <= warningSeconds ? "warning" : "normal"
    readonly property color color: urgency === "critical" ? "#d93025"
                                 : urgency === "warning" ? "#e37400" : palette.highlight

    implicitWidth: Math.ceil(metrics.height * 2.4)
    implicitHeight: implicitWidth
    padding: 0

    Accessible.role: Accessible.ProgressBar
    Accessible.name: qsTr("%n second(s) left", "", secondsLeft)

    FontMetrics {
        id: metrics
        font: ring.font
    }

    Canvas {
        id: canvas
        anchors.fill: parent
        // Repaint when what is drawn changes, not on every tick of the clock.
        readonly property int step: Math.round(ring.fraction * 240)
        onStepChanged: requestPaint()
        onWidthChanged: requestPaint()
        onHeightChanged: requestPaint()
        Connections {
            target: ring
            function onColorChanged() { canvas.requestPaint() }
        }

        onPaint: {
            const ctx = getContext("2d")
            ctx.reset()
            const line = Math.max(2, width / 10)
            const r = (Math.min(width, height) - line) / 2
            const cx = width / 2
            const cy = height / 2
            ctx.lineWidth = line
            ctx.lineCap = "butt"
            ctx.strokeStyle = ring.palette.mid
            ctx.globalAlpha = 0.35
            ctx.beginPath()
            ctx.arc(cx, cy, r, 0, 2 * Math.PI)
            ctx.stroke()
            ctx.globalAlpha = 1
            if (step > 0) {
                ctx.strokeStyle = ring.color
                ctx.beginPath()
                // Clockwise from twelve o'clock, shrinking as time runs out.
                ctx.arc(cx, cy, r, -Math.PI / 2, -Math.PI / 2 + 2 * Math.PI * step / 240)
                ctx.stroke()
            }
        }
    }

    Label {
        id: secondsLabel
        anchors.centerIn: parent
        text: ring.secondsLeft
        color: ring.urgency === "normal" ? palette.windowText : ring.color
        font.bold: ring.urgency !== "normal"
        font.pixelSize: Math.round(ring.font.pixelSize * 0.85)
    }
}
