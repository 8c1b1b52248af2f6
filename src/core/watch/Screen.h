// What a watch screen can show, as pure geometry and colour arithmetic: the
// pixels inside its shape, the width a line of text has at a given height,
// the nearest colour its palette holds, and the countdown's form and colour.
// The simulator (src/app/WatchScreenRenderer) draws a frame at the device's
// true resolution and passes it through these; docs/WATCH.md section 5 says
// which parts come from the device data and which are stand-ins.
#pragma once

#include "watch/Device.h"

#include <cstdint>
#include <optional>
#include <span>

namespace watchword::watch {

// The pixel grid of a screen that can be drawn: a Display with a known shape
// and size (fr70's profile has neither). nullopt from geometryOf otherwise.
struct ScreenGeometry
{
    Shape shape = Shape::Round;
    int width = 0;
    int height = 0;
    std::optional<Subscreen> subscreen; // semi-octagon screens only
};
std::optional<ScreenGeometry> geometryOf(const Display& display);

// Whether pixel (x, y), its centre at (x + 0.5, y + 0.5), is on the glass:
//  - Round: inside the circle inscribed in width x height.
//  - Rectangle: inside width x height.
//  - SemiOctagon: inside the regular octagon whose corners are cut at 45
//    degrees by legs of round(width / (2 + sqrt 2)), except the corner the
//    subscreen sits in, which is not cut; there the subscreen's circle and
//    the main area both count (a stand-in, docs/WATCH.md section 5.1).
// False outside 0 <= x < width, 0 <= y < height.
bool insideScreen(const ScreenGeometry& screen, int x, int y);

// Whether (x, y) lies in the subscreen's circle (false without a subscreen).
bool insideSubscreen(const ScreenGeometry& screen, int x, int y);

// The widest run of on-glass pixels that every row in [top, bottom) shares,
// as [left, right): what a line of text drawn in that band may use. Empty
// (left == right) when the band leaves the screen. The subscreen's circle is
// not counted as room for text.
struct Span1D
{
    int left = 0;
    int right = 0;
    int width() const { return right - left; }
};
Span1D textRoom(const ScreenGeometry& screen, int top, int bottom);

// The colour a palette shows for 0xRRGGBB: the nearest of its colours by
// squared RGB distance (ties to the earlier in paletteColours order); Mono:
// white if the colour's luma (0.299 R + 0.587 G + 0.114 B) is at least 128,
// else black; Full: the colour itself.
std::uint32_t nearestColour(Palette palette, std::uint32_t rgb);

// Reduces every pixel of a 0xAARRGGBB frame in place: colour to
// nearestColour, alpha kept. The nearest colours found are cached for the
// call (64 entries), so reduce a whole frame in one call, not row by row.
void reduceToPalette(Palette palette, std::span<std::uint32_t> argbPixels);

// How the code's remaining time is drawn: an arc round the bezel (round
// screens), a bar along the bottom edge (rectangular), a pie in the
// subscreen (semi-octagon).
enum class CountdownForm { Arc, Bar, SubscreenPie };
CountdownForm countdownForm(const ScreenGeometry& screen);

// Green while more than 10 s remain, orange from 10 s, red from 5 s.
enum class Urgency { Normal, Warning, Critical };
inline constexpr double warningSeconds = 10;
inline constexpr double criticalSeconds = 5;
Urgency urgencyOf(double remainingSeconds);

// The countdown's colour: Connect IQ's COLOR_GREEN 0x00ff00, COLOR_ORANGE
// 0xff5500 and COLOR_RED 0xff0000, as the palette shows them (on a 1-bit
// screen all three are white: the pie's size carries the time).
std::uint32_t urgencyColour(Urgency urgency, Palette palette);

} // namespace watchword::watch
