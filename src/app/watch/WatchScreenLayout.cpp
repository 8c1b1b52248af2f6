#include "app/watch/WatchScreenLayout.h"

#include <algorithm>
#include <cmath>

namespace watchword::app {

QFont appFont(int pixelSize, bool bold, bool antialias)
{
    // The desktop's sans (DejaVu Sans on Debian) stands in for the watch's
    // own fonts, which the simulator does not have.
    QFont font(QStringLiteral("Sans"));
    font.setStyleHint(QFont::SansSerif);
    font.setPixelSize(pixelSize);
    font.setBold(bold);
    font.setKerning(false);
    if (!antialias)
        font.setStyleStrategy(QFont::NoAntialias);
    return font;
}

int inkWidth(const QFontMetrics& metrics, const QString& text)
{
    const QRect ink = metrics.boundingRect(text);
    const int right = std::max(metrics.horizontalAdvance(text), ink.right() + 1);
    return right - std::min(0, ink.left());
}

bool fits(const QString& text, int pixelSize, int width, int maxHeight, bool bold)
{
    const QFontMetrics metrics(appFont(pixelSize, bold));
    return metrics.height() <= maxHeight && inkWidth(metrics, text) <= width;
}

int gapOf(const watch::ScreenGeometry& screen)
{
    return std::max(3, screen.width / 40);
}

watch::Span1D insetRoom(const watch::ScreenGeometry& screen, int top, int bottom, int inset)
{
    watch::Span1D run = watch::textRoom(screen, top - inset, bottom + inset);
    run.left += inset;
    run.right -= inset;
    if (run.right < run.left)
        run.right = run.left;
    return run;
}

int belowSubscreen(const watch::ScreenGeometry& screen, int inset)
{
    // A subscreen low on the screen (none is) leaves the top alone.
    if (!screen.subscreen || screen.subscreen->y > screen.height / 2)
        return 0;
    return screen.subscreen->y + screen.subscreen->height + inset + 1;
}

ListLayout listLayout(const watch::ScreenGeometry& screen)
{
    const auto y = [&](double fraction) {
        return int(std::lround(fraction * screen.height));
    };
    const int gap = gapOf(screen);
    ListLayout layout;
    layout.rowHeight =
        std::max(y(0.13), QFontMetrics(appFont(smallestPixelSize, false)).height() + 4);
    // Rows beside the subscreen would each be centred in a different room.
    const int areaTop = std::max(y(0.16), belowSubscreen(screen, gap));
    const int areaBottom = std::max(areaTop + layout.rowHeight, y(0.81));
    layout.positionTop = areaBottom + gap;
    layout.positionBottom = std::max(
        y(0.90), layout.positionTop + QFontMetrics(appFont(smallestPixelSize, false)).height());
    const int minimumRoom = screen.width * 2 / 5;

    layout.rows = std::max(1, (areaBottom - areaTop) / layout.rowHeight);
    for (; layout.rows > 0; --layout.rows) {
        layout.firstTop = areaTop + (areaBottom - areaTop - layout.rows * layout.rowHeight) / 2;
        bool roomy = true;
        for (int row = 0; row < layout.rows && roomy; ++row) {
            const int top = layout.firstTop + row * layout.rowHeight;
            roomy = insetRoom(screen, top, top + layout.rowHeight, gap).width() >= minimumRoom;
        }
        if (roomy || layout.rows == 1)
            break;
    }
    return layout;
}

std::optional<int> largestFittingPixelSize(const QString& text, int width, int maxHeight, bool bold)
{
    // Every size from the largest down: a size that fits is not always
    // followed by smaller ones that fit (hinting), and scanning the whole
    // ladder keeps "wider room, never a smaller font" true.
    for (int size = std::min(maxHeight, largestPixelSize); size >= smallestPixelSize; --size)
        if (fits(text, size, width, maxHeight, bold))
            return size;
    return std::nullopt;
}

int listRowsThatFit(const watch::ScreenGeometry& screen)
{
    return listLayout(screen).rows;
}

} // namespace watchword::app
