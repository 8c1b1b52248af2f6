#include "watch/Screen.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace watchword::watch {

namespace {

// The corner a subscreen sits in, found from its centre: the SDK data gives
// its size, and its position may be a stand-in (Device.h).
struct Corner
{
    bool right = false;
    bool bottom = false;
};

Corner cornerOf(const ScreenGeometry& screen, const Subscreen& subscreen)
{
    // Twice the centres, to stay in integers.
    return {2 * subscreen.x + subscreen.width > screen.width,
            2 * subscreen.y + subscreen.height > screen.height};
}

int octagonLeg(int width)
{
    return static_cast<int>(std::lround(width / (2.0 + std::sqrt(2.0))));
}

// Whether a pixel centre, measured from a corner's two edges, is cut off by
// a 45 degree corner of the given leg.
bool cutOff(double fromVerticalEdge, double fromHorizontalEdge, int leg)
{
    return fromVerticalEdge + fromHorizontalEdge < leg;
}

// The on-glass pixels of row y as [left, right); empty if none. Every shape
// here is convex along a row, so one run covers the row.
Span1D rowRun(const ScreenGeometry& screen, int y)
{
    int left = 0;
    while (left < screen.width && !insideScreen(screen, left, y))
        ++left;
    if (left == screen.width)
        return {};
    int right = screen.width;
    while (right > left && !insideScreen(screen, right - 1, y))
        --right;
    return {left, right};
}

const std::vector<std::uint32_t>& coloursOf(Palette palette)
{
    static const std::vector<std::uint32_t> mip64 = paletteColours(Palette::Mip64).colours;
    static const std::vector<std::uint32_t> mip16 = paletteColours(Palette::Mip16).colours;
    static const std::vector<std::uint32_t> mono = paletteColours(Palette::Mono).colours;
    static const std::vector<std::uint32_t> none;
    switch (palette) {
    case Palette::Mip64:
        return mip64;
    case Palette::Mip16:
        return mip16;
    case Palette::Mono:
        return mono;
    case Palette::Full:
        break;
    }
    return none;
}

} // namespace

std::optional<ScreenGeometry> geometryOf(const Display& display)
{
    if (!display.shape || !display.width || !display.height || *display.width <= 0 ||
        *display.height <= 0)
        return std::nullopt;
    ScreenGeometry geometry;
    geometry.shape = *display.shape;
    geometry.width = *display.width;
    geometry.height = *display.height;
    if (geometry.shape == Shape::SemiOctagon)
        geometry.subscreen = display.subscreen;
    return geometry;
}

bool insideScreen(const ScreenGeometry& screen, int x, int y)
{
    if (x < 0 || y < 0 || x >= screen.width || y >= screen.height)
        return false;
    const double px = x + 0.5;
    const double py = y + 0.5;
    switch (screen.shape) {
    case Shape::Rectangle:
        return true;
    case Shape::Round: {
        const double radius = std::min(screen.width, screen.height) / 2.0;
        const double dx = px - screen.width / 2.0;
        const double dy = py - screen.height / 2.0;
        return dx * dx + dy * dy <= radius * radius;
    }
    case Shape::SemiOctagon: {
        const int leg = octagonLeg(screen.width);
        const double fromLeft = px;
        const double fromRight = screen.width - px;
        const double fromTop = py;
        const double fromBottom = screen.height - py;
        std::optional<Corner> kept;
        if (screen.subscreen)
            kept = cornerOf(screen, *screen.subscreen);
        const auto keeps = [&](bool right, bool bottom) {
            return kept && kept->right == right && kept->bottom == bottom;
        };
        if (!keeps(false, false) && cutOff(fromLeft, fromTop, leg))
            return false;
        if (!keeps(true, false) && cutOff(fromRight, fromTop, leg))
            return false;
        if (!keeps(false, true) && cutOff(fromLeft, fromBottom, leg))
            return false;
        if (!keeps(true, true) && cutOff(fromRight, fromBottom, leg))
            return false;
        return true;
    }
    }
    return false;
}

bool insideSubscreen(const ScreenGeometry& screen, int x, int y)
{
    if (!screen.subscreen)
        return false;
    const Subscreen& sub = *screen.subscreen;
    const double radius = std::min(sub.width, sub.height) / 2.0;
    const double dx = x + 0.5 - (sub.x + sub.width / 2.0);
    const double dy = y + 0.5 - (sub.y + sub.height / 2.0);
    return dx * dx + dy * dy <= radius * radius;
}

Span1D textRoom(const ScreenGeometry& screen, int top, int bottom)
{
    if (top < 0 || bottom > screen.height || top >= bottom)
        return {};
    Span1D room{0, screen.width};
    for (int y = top; y < bottom; ++y) {
        Span1D row = rowRun(screen, y);
        // Text must not run under the subscreen: a row that crosses its
        // rectangle ends (or starts) at the rectangle's edge.
        if (screen.subscreen && y >= screen.subscreen->y &&
            y < screen.subscreen->y + screen.subscreen->height) {
            const Subscreen& sub = *screen.subscreen;
            if (cornerOf(screen, sub).right)
                row.right = std::min(row.right, sub.x);
            else
                row.left = std::max(row.left, sub.x + sub.width);
        }
        room.left = std::max(room.left, row.left);
        room.right = std::min(room.right, row.right);
        if (room.right <= room.left)
            return {};
    }
    return room;
}

std::uint32_t nearestColour(Palette palette, std::uint32_t rgb)
{
    rgb &= 0xffffffu;
    const std::int32_t r = static_cast<std::int32_t>(rgb >> 16 & 0xff);
    const std::int32_t g = static_cast<std::int32_t>(rgb >> 8 & 0xff);
    const std::int32_t b = static_cast<std::int32_t>(rgb & 0xff);
    switch (palette) {
    case Palette::Full:
        return rgb;
    case Palette::Mono:
        // 0.299 R + 0.587 G + 0.114 B >= 128, in thousandths to stay exact.
        return 299 * r + 587 * g + 114 * b >= 128000 ? 0xffffffu : 0x000000u;
    case Palette::Mip64:
    case Palette::Mip16:
        break;
    }
    std::uint32_t best = 0;
    std::int32_t bestDistance = -1;
    for (const std::uint32_t colour : coloursOf(palette)) {
        const std::int32_t dr = r - static_cast<std::int32_t>(colour >> 16 & 0xff);
        const std::int32_t dg = g - static_cast<std::int32_t>(colour >> 8 & 0xff);
        const std::int32_t db = b - static_cast<std::int32_t>(colour & 0xff);
        const std::int32_t distance = dr * dr + dg * dg + db * db;
        if (bestDistance < 0 || distance < bestDistance) {
            best = colour;
            bestDistance = distance;
        }
    }
    return best;
}

void reduceToPalette(Palette palette, std::span<std::uint32_t> argbPixels)
{
    if (palette == Palette::Full)
        return;
    // A frame has few distinct colours, in runs: a small direct-mapped cache
    // spares the palette search for nearly every pixel.
    struct Entry
    {
        std::uint32_t rgb = 0;
        std::uint32_t reduced = 0;
        bool valid = false;
    };
    std::array<Entry, 64> cache{};
    for (std::uint32_t& pixel : argbPixels) {
        const std::uint32_t rgb = pixel & 0xffffffu;
        Entry& entry = cache[(rgb * 2654435761u) >> 26];
        if (!entry.valid || entry.rgb != rgb)
            entry = {rgb, nearestColour(palette, rgb), true};
        pixel = (pixel & 0xff000000u) | entry.reduced;
    }
}

CountdownForm countdownForm(const ScreenGeometry& screen)
{
    switch (screen.shape) {
    case Shape::Round:
        return CountdownForm::Arc;
    case Shape::Rectangle:
        return CountdownForm::Bar;
    case Shape::SemiOctagon:
        // Without a subscreen the straight bottom edge takes a bar.
        return screen.subscreen ? CountdownForm::SubscreenPie : CountdownForm::Bar;
    }
    return CountdownForm::Arc;
}

Urgency urgencyOf(double remainingSeconds)
{
    if (remainingSeconds > warningSeconds)
        return Urgency::Normal;
    if (remainingSeconds > criticalSeconds)
        return Urgency::Warning;
    return Urgency::Critical;
}

std::uint32_t urgencyColour(Urgency urgency, Palette palette)
{
    // Pure red's luma is under 128: on a 1-bit screen it would vanish.
    if (palette == Palette::Mono)
        return 0xffffffu;
    std::uint32_t colour = 0x00ff00u; // COLOR_GREEN
    switch (urgency) {
    case Urgency::Normal:
        break;
    case Urgency::Warning:
        colour = 0xff5500u; // COLOR_ORANGE
        break;
    case Urgency::Critical:
        colour = 0xff0000u; // COLOR_RED
        break;
    }
    return nearestColour(palette, colour);
}

} // namespace watchword::watch
