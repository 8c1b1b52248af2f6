// How a watch frame is laid out: the app's font at a pixel size, whether
// text fits a room, the room a band of rows has on the glass, and where the
// List view's rows go. The renderer (WatchScreenRenderer) draws with these;
// SimulatedWatch asks how many list rows fit, to keep the selected one in
// view.
#pragma once

#include "watch/Screen.h"

#include <QFont>
#include <QFontMetrics>
#include <QString>
#include <optional>

namespace watchword::app {

// The ladder of pixel sizes, in 1 px steps: about the range of Connect IQ
// devices' fonts (about 12 to 100 px).
inline constexpr int smallestPixelSize = 12;
inline constexpr int largestPixelSize = 100;

// The desktop's sans (DejaVu Sans on Debian), standing in for the watch's
// own fonts, which the simulator does not have; without antialiasing for
// MIP screens, whose fonts are bitmaps.
QFont appFont(int pixelSize, bool bold, bool antialias = true);

// Wide enough for every pixel the text lights, not only its advance: some
// glyphs overhang their advance by a pixel.
int inkWidth(const QFontMetrics& metrics, const QString& text);

// Whether text at pixelSize fits width and maxHeight.
bool fits(const QString& text, int pixelSize, int width, int maxHeight, bool bold);

// The space kept between things and from the edge of the glass.
int gapOf(const watch::ScreenGeometry& screen);

// The run every row of [top, bottom) has on the glass, kept inset pixels
// from its edge in every direction (the shape is convex, so growing the band
// and shrinking the run does that).
watch::Span1D insetRoom(const watch::ScreenGeometry& screen, int top, int bottom, int inset);

// The first row under the subscreen and a margin (0 without one).
int belowSubscreen(const watch::ScreenGeometry& screen, int inset);

// The List view's rows: as many as have room, centred between the top and
// the "n/m" band at the bottom.
struct ListLayout
{
    int rowHeight = 0;
    int rows = 1;
    int firstTop = 0;
    int positionTop = 0; // the "n/m" band
    int positionBottom = 0;
};

ListLayout listLayout(const watch::ScreenGeometry& screen);

// How many account rows the List view shows at once on this screen (at
// least 1): the controller keeps the selected row among them.
int listRowsThatFit(const watch::ScreenGeometry& screen);

// The largest pixel size, from the ladder, at which text in the app font
// fits width; nullopt if even the smallest does not. Exposed for the tests:
// "issuer above the code in the largest font that fits".
std::optional<int> largestFittingPixelSize(const QString& text, int width, int maxHeight,
                                           bool bold);

} // namespace watchword::app
