#include "app/watch/WatchScreenRenderer.h"

#include "app/watch/WatchScreenLayout.h"

#include <QFont>
#include <QFontMetrics>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>

namespace watchword::app {

namespace {

using watch::Palette;
using watch::Span1D;

constexpr std::uint32_t white = 0xffffff;
constexpr std::uint32_t lightGrey = 0xaaaaaa; // COLOR_LT_GRAY
constexpr std::uint32_t darkGrey = 0x555555;  // COLOR_DK_GRAY
constexpr std::uint32_t red = 0xff0000;       // COLOR_RED

// How one frame is laid out: the screen's size, its colours, and how far
// text keeps from the edge of the glass.
class Painter
{
public:
    explicit Painter(const WatchFrame& frame, QImage& image)
        : m_frame(frame), m_screen(frame.screen), m_width(frame.screen.width),
          m_height(frame.screen.height), m_painter(&image),
          m_antialias(frame.technology != watch::Technology::Mip)
    {
        m_painter.setRenderHint(QPainter::Antialiasing, m_antialias);
        m_painter.setRenderHint(QPainter::TextAntialiasing, m_antialias);
        m_gap = gapOf(frame.screen);
        m_inset = m_gap;
    }

    void draw();

private:
    void drawCode();
    void drawCountdown();
    void drawList();
    void drawGlance();
    void drawPin();
    void drawUnlocking();
    void drawNoExport();
    // A bold title, and text wrapped under it (Unlocking, NoExport).
    void titled(const QString& title, const QString& body);

    int y(double fraction) const { return int(std::lround(fraction * m_height)); }
    int belowSubscreen() const { return app::belowSubscreen(m_screen, m_inset); }
    QColor colour(std::uint32_t rgb) const
    {
        return QColor::fromRgb(watch::nearestColour(m_frame.palette, rgb));
    }
    // Greys vanish on a 1-bit screen, where everything that is drawn is white.
    QColor dim(std::uint32_t rgb) const
    {
        return m_frame.palette == Palette::Mono ? QColor::fromRgb(white) : colour(rgb);
    }
    QFont font(int pixelSize, bool bold) const { return appFont(pixelSize, bold, m_antialias); }

    // insetRoom at m_inset, and inside m_within if set.
    Span1D room(int top, int bottom) const;

    // One line centred in the room of [top, bottom) at the largest size up to
    // that band's height; elided at the smallest size if even that is too
    // wide. Returns the band the text took (its font's height, centred), or
    // nothing drawn (empty) if there is no room at all.
    struct Drawn
    {
        int top = 0;
        int bottom = 0;
        bool drawn = false;
    };
    Drawn line(const QString& text, int top, int bottom, bool bold, QColor colour,
               int align = Qt::AlignVCenter, int largest = largestPixelSize);
    // Words wrapped onto lines of pixelSize from top, each line as wide as
    // its band's room; the last line that fits is elided. Returns the bottom.
    int wrapped(const QString& text, int top, int bottom, int pixelSize, QColor colour);
    void text(const QFont& font, const QString& text, Span1D room, int top, int bottom,
              QColor colour);

    const WatchFrame& m_frame;
    const watch::ScreenGeometry& m_screen;
    int m_width;
    int m_height;
    QPainter m_painter;
    bool m_antialias;
    int m_gap = 2;
    int m_inset = 2;
    // A run that every line's room is kept inside as well (the glance's strip).
    std::optional<Span1D> m_within;
};

Span1D Painter::room(int top, int bottom) const
{
    Span1D run = insetRoom(m_screen, top, bottom, m_inset);
    if (m_within) {
        run.left = std::max(run.left, m_within->left + m_inset);
        run.right = std::min(run.right, m_within->right - m_inset);
        if (run.right < run.left)
            run.right = run.left;
    }
    return run;
}

void Painter::text(const QFont& font, const QString& text, Span1D room, int top, int bottom,
                   QColor colour)
{
    const QFontMetrics metrics(font);
    const int width = inkWidth(metrics, text);
    const QRect ink = metrics.boundingRect(text);
    const int left = room.left + (room.width() - width) / 2 - std::min(0, ink.left());
    const int baseline = top + (bottom - top - metrics.height()) / 2 + metrics.ascent();
    m_painter.setFont(font);
    m_painter.setPen(colour);
    m_painter.drawText(QPoint(left, baseline), text);
}

Painter::Drawn Painter::line(const QString& text, int top, int bottom, bool bold, QColor colour,
                             int align, int largest)
{
    if (text.isEmpty() || bottom - top < 1)
        return {};
    const Span1D run = room(top, bottom);
    const int maxHeight = std::min(bottom - top, largest);
    QString shown = text;
    int size = 0;
    if (const auto fitting = largestFittingPixelSize(text, run.width(), maxHeight, bold)) {
        size = *fitting;
    } else {
        if (maxHeight < QFontMetrics(font(smallestPixelSize, bold)).height())
            return {};
        size = smallestPixelSize;
        const QFontMetrics metrics(font(size, bold));
        // Elided against the advance, checked against the ink.
        shown = metrics.elidedText(text, Qt::ElideRight, run.width() - 2);
        while (!shown.isEmpty() && inkWidth(metrics, shown) > run.width())
            shown.chop(1);
        if (shown.isEmpty() || shown == QStringLiteral("…"))
            return {};
    }
    // The ladder measures antialiased text; a MIP screen's is hinted for
    // one bit and may come out a pixel wider.
    while (size > smallestPixelSize) {
        const QFontMetrics metrics(font(size, bold));
        if (metrics.height() <= maxHeight && inkWidth(metrics, shown) <= run.width())
            break;
        --size;
    }
    const QFont chosen = font(size, bold);
    const int height = QFontMetrics(chosen).height();
    int bandTop = top + (bottom - top - height) / 2;
    if (align == Qt::AlignTop)
        bandTop = top;
    else if (align == Qt::AlignBottom)
        bandTop = bottom - height;
    this->text(chosen, shown, run, bandTop, bandTop + height, colour);
    return {bandTop, bandTop + height, true};
}

int Painter::wrapped(const QString& text, int top, int bottom, int pixelSize, QColor colour)
{
    const QFont chosen = font(pixelSize, false);
    const QFontMetrics metrics(chosen);
    const int lineHeight = metrics.height();
    QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    int lineTop = top;
    while (!words.isEmpty() && lineTop + lineHeight <= bottom) {
        const Span1D run = room(lineTop, lineTop + lineHeight);
        QString current = words.takeFirst();
        while (!words.isEmpty() &&
               inkWidth(metrics, current + QLatin1Char(' ') + words.first()) <= run.width())
            current += QLatin1Char(' ') + words.takeFirst();
        const bool last = lineTop + 2 * lineHeight > bottom;
        if (last && !words.isEmpty())
            current += QLatin1Char(' ') + words.join(QLatin1Char(' '));
        if (inkWidth(metrics, current) > run.width()) {
            current = metrics.elidedText(current, Qt::ElideRight, run.width() - 2);
            while (!current.isEmpty() && inkWidth(metrics, current) > run.width())
                current.chop(1);
        }
        if (!current.isEmpty())
            this->text(chosen, current, run, lineTop, lineTop + lineHeight, colour);
        lineTop += lineHeight;
        if (last)
            break;
    }
    return lineTop;
}

void Painter::draw()
{
    switch (m_frame.view) {
    case watch::View::NoExport:
        drawNoExport();
        break;
    case watch::View::Pin:
        drawPin();
        break;
    case watch::View::Unlocking:
        drawUnlocking();
        break;
    case watch::View::Code:
        drawCode();
        break;
    case watch::View::List:
        drawList();
        break;
    case watch::View::Glance:
        drawGlance();
        break;
    }
}

int ringThickness(const watch::ScreenGeometry& screen)
{
    return std::max(3, screen.width / 28);
}

void Painter::drawCode()
{
    const bool countdown = m_frame.timeBased;
    const auto form = watch::countdownForm(m_screen);
    if (countdown && form == watch::CountdownForm::Arc)
        m_inset = ringThickness(m_screen) + m_gap;

    // The code sits a little low on the semi-octagon, out of the subscreen's
    // way, and a little high on a rectangle, above the bar.
    double centre = 0.5;
    if (m_screen.shape == watch::Shape::SemiOctagon)
        centre = 0.57;
    else if (m_screen.shape == watch::Shape::Rectangle)
        centre = 0.47;
    const int codeHalf = y(0.13);
    const int codeTop = y(centre) - codeHalf;
    const int codeBottom = y(centre) + codeHalf;

    const QString title = m_frame.issuer.isEmpty() ? m_frame.accountName : m_frame.issuer;
    const Drawn code =
        line(m_frame.code, codeTop, codeBottom, true, QColor::fromRgb(white), Qt::AlignVCenter);
    const int drawnTop = code.drawn ? code.top : y(centre);
    const int drawnBottom = code.drawn ? code.bottom : y(centre);

    // Issuer: the band above the code, as tall as a seventh of the screen.
    line(title, std::max(0, drawnTop - m_gap - y(0.14)), drawnTop - m_gap, false,
         QColor::fromRgb(white), Qt::AlignBottom);

    int below = drawnBottom + m_gap;
    if (!m_frame.issuer.isEmpty() && !m_frame.accountName.isEmpty()) {
        const Drawn name =
            line(m_frame.accountName, below, below + y(0.085), false, dim(lightGrey), Qt::AlignTop);
        if (name.drawn)
            below = name.bottom + m_gap;
    }
    if (!m_frame.timeBased)
        line(m_frame.counterText, below, below + y(0.085), false, dim(lightGrey), Qt::AlignTop);
    else
        drawCountdown();
}

void Painter::drawCountdown()
{
    const double period = std::max(1, m_frame.period);
    const double remaining = std::clamp(m_frame.remainingSeconds, 0.0, period);
    const double fraction = remaining / period;
    const QColor fill =
        QColor::fromRgb(watch::urgencyColour(watch::urgencyOf(remaining), m_frame.palette));
    const QColor track = colour(darkGrey);

    switch (watch::countdownForm(m_screen)) {
    case watch::CountdownForm::Arc: {
        const int thickness = ringThickness(m_screen);
        const double half = thickness / 2.0;
        const QRectF ring(half, half, m_width - thickness, m_height - thickness);
        QPen pen(track, thickness, Qt::SolidLine, Qt::FlatCap);
        m_painter.setPen(pen);
        m_painter.setBrush(Qt::NoBrush);
        m_painter.drawEllipse(ring);
        pen.setColor(fill);
        m_painter.setPen(pen);
        // Qt's angles are counter-clockwise from 3 o'clock in 1/16 degree.
        m_painter.drawArc(ring, 90 * 16, -int(std::lround(fraction * 360 * 16)));
        break;
    }
    case watch::CountdownForm::Bar: {
        const int thickness = ringThickness(m_screen);
        const int top = m_height - m_gap - thickness;
        const int left = m_gap;
        const int width = m_width - 2 * m_gap;
        m_painter.setPen(Qt::NoPen);
        m_painter.fillRect(QRect(left, top, width, thickness), track);
        m_painter.fillRect(QRect(left, top, int(std::lround(fraction * width)), thickness), fill);
        break;
    }
    case watch::CountdownForm::SubscreenPie: {
        if (!m_screen.subscreen)
            break;
        const auto& sub = *m_screen.subscreen;
        const QRectF circle(sub.x + 1.5, sub.y + 1.5, sub.width - 3, sub.height - 3);
        m_painter.setBrush(Qt::NoBrush);
        if (m_frame.palette == Palette::Mono) {
            m_painter.setPen(QPen(QColor::fromRgb(white), 1));
            m_painter.drawEllipse(circle);
        } else {
            m_painter.setPen(Qt::NoPen);
            m_painter.setBrush(track);
            m_painter.drawEllipse(circle);
        }
        m_painter.setPen(Qt::NoPen);
        m_painter.setBrush(fill);
        m_painter.drawPie(circle.adjusted(2, 2, -2, -2), 90 * 16,
                          -int(std::lround(fraction * 360 * 16)));
        m_painter.setBrush(Qt::NoBrush);

        // The seconds over the pie, white where it is black and black where
        // it is white.
        const QString seconds = QString::number(int(std::ceil(remaining)));
        const int room = int(sub.width * 0.6);
        if (const auto size = largestFittingPixelSize(seconds, room, int(sub.height * 0.5), true)) {
            const QFont chosen = font(*size, true);
            m_painter.save();
            m_painter.setCompositionMode(QPainter::CompositionMode_Difference);
            m_painter.setFont(chosen);
            m_painter.setPen(QColor::fromRgb(white));
            m_painter.drawText(QRect(sub.x, sub.y, sub.width, sub.height), Qt::AlignCenter,
                               seconds);
            m_painter.restore();
        }
        break;
    }
    }
}

void Painter::drawList()
{
    const int count = int(m_frame.rows.size());
    const ListLayout layout = listLayout(m_screen);
    const int rowHeight = layout.rowHeight;
    const int fitting = layout.rows;
    const int firstTop = layout.firstTop;

    // The controller picks the first row with listRowsThatFit; a frame made
    // otherwise still shows its selected row.
    int first = std::clamp(m_frame.firstRow, 0, std::max(0, count - 1));
    if (m_frame.selectedRow < first)
        first = m_frame.selectedRow;
    if (m_frame.selectedRow >= first + fitting)
        first = m_frame.selectedRow - fitting + 1;
    first = std::max(0, first);

    const int textHeight = std::max(smallestPixelSize, rowHeight * 7 / 10);
    for (int row = 0; row < fitting && first + row < count; ++row) {
        const int index = first + row;
        const int top = firstTop + row * rowHeight;
        const int bottom = top + rowHeight;
        const bool selected = index == m_frame.selectedRow;
        QColor ink = QColor::fromRgb(white);
        if (selected) {
            const Span1D bar = room(top + 1, bottom - 1);
            m_painter.fillRect(QRect(bar.left, top + 1, bar.width(), rowHeight - 2),
                               QColor::fromRgb(white));
            ink = QColor::fromRgb(0x000000);
        }
        const int margin = (rowHeight - textHeight) / 2;
        const int saved = m_inset;
        // Keep the row's text off its bar's ends.
        m_inset += m_gap;
        line(m_frame.rows.at(index), top + margin, bottom - margin, selected, ink);
        m_inset = saved;
    }
    if (count > 0) {
        const QString where = QStringLiteral("%1/%2").arg(m_frame.selectedRow + 1).arg(count);
        line(where, layout.positionTop, layout.positionBottom, false, dim(lightGrey));
    }
}

void Painter::drawGlance()
{
    // The glance loop's strip, across the middle.
    const int stripTop = std::max(y(0.34), belowSubscreen());
    const int stripBottom = stripTop + y(0.32);
    const Span1D strip = room(stripTop, stripBottom);
    if (m_frame.palette == Palette::Mono) {
        m_painter.setPen(QPen(QColor::fromRgb(white), 1));
        m_painter.setBrush(Qt::NoBrush);
        m_painter.drawRect(QRectF(strip.left + 0.5, stripTop + 0.5, strip.width() - 1,
                                  stripBottom - stripTop - 1));
    } else {
        m_painter.fillRect(QRect(strip.left, stripTop, strip.width(), stripBottom - stripTop),
                           colour(darkGrey));
    }
    m_within = strip;
    m_inset = m_gap + 1;
    const int split = stripTop + (stripBottom - stripTop) * 2 / 5;
    line(QStringLiteral("Watchword"), stripTop + m_gap, split, false, QColor::fromRgb(white));
    const QString title = m_frame.issuer.isEmpty() ? m_frame.accountName : m_frame.issuer;
    QString main = QStringLiteral("Locked");
    if (!m_frame.code.isEmpty())
        main = title.isEmpty() ? m_frame.code : title + QLatin1Char(' ') + m_frame.code;
    // A title too long for the strip gives way to the code, never the
    // other way round.
    const int bottom = stripBottom - m_gap;
    if (!m_frame.code.isEmpty() &&
        !largestFittingPixelSize(main, room(split, bottom).width(), bottom - split, true))
        main = m_frame.code;
    line(main, split, bottom, true, QColor::fromRgb(white));
}

void Painter::drawPin()
{
    const QColor bright = QColor::fromRgb(white);
    line(QStringLiteral("PIN"), y(0.10), y(0.21), true, bright);

    // The digits entered, as dots; the watch never shows them.
    const int dots = std::clamp(m_frame.pinLength, 0, 12);
    if (dots > 0) {
        const int top = y(0.235);
        const int bottom = y(0.305);
        const Span1D run = room(top, bottom);
        const int pitch = std::max(3, std::min(bottom - top, run.width() / 12));
        const int diameter = std::max(2, pitch * 2 / 3);
        const int left = run.left + (run.width() - dots * pitch) / 2 + (pitch - diameter) / 2;
        const int dotTop = top + (bottom - top - diameter) / 2;
        m_painter.setPen(Qt::NoPen);
        m_painter.setBrush(bright);
        for (int dot = 0; dot < dots; ++dot)
            m_painter.drawEllipse(QRect(left + dot * pitch, dotTop, diameter, diameter));
        m_painter.setBrush(Qt::NoBrush);
    }

    // The picker: the current position big, its neighbours small and dim:
    // above it what Up brings (the next), below what Down brings.
    constexpr int positions = watch::WatchApp::pickerOk + 1;
    const auto label = [](int position) {
        position = ((position % positions) + positions) % positions;
        return position == watch::WatchApp::pickerOk ? QStringLiteral("OK")
                                                     : QString::number(position);
    };
    // One column for the three, so below the subscreen where there is one.
    const int shift = std::max(0, belowSubscreen() - y(0.33));
    line(label(m_frame.picker + 1), y(0.33) + shift, y(0.44) + shift, false, dim(lightGrey));
    line(label(m_frame.picker), y(0.45) + shift, y(0.68), true, bright);
    line(label(m_frame.picker - 1), y(0.69), y(0.80), false, dim(lightGrey));

    if (!m_frame.message.isEmpty())
        line(m_frame.message, y(0.81), y(0.90), false, dim(red));
}

void Painter::titled(const QString& title, const QString& body)
{
    const int top = std::max(y(0.30), belowSubscreen());
    const Drawn drawn = line(title, top, top + y(0.14), true, QColor::fromRgb(white));
    if (body.isEmpty())
        return;
    const int bodyTop = (drawn.drawn ? drawn.bottom : top + y(0.14)) + m_gap;
    const int size = std::max(smallestPixelSize, y(0.065));
    wrapped(body, bodyTop, y(0.86), size, dim(lightGrey));
}

void Painter::drawUnlocking()
{
    titled(QStringLiteral("Unlocking"),
           m_frame.unlockEstimate.isEmpty()
               ? QString()
               : QStringLiteral("est. %1 on this watch").arg(m_frame.unlockEstimate));
}

void Painter::drawNoExport()
{
    titled(QStringLiteral("No accounts"), QStringLiteral("Export from Watchword"));
}

} // namespace

QImage renderWatchFrame(const WatchFrame& frame)
{
    const int width = std::max(0, frame.screen.width);
    const int height = std::max(0, frame.screen.height);
    QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        return image;
    image.fill(Qt::black);
    {
        Painter painter(frame, image);
        painter.draw();
    }
    // Every pixel on the glass is opaque, so the premultiplied values are
    // the plain ones.
    image.convertTo(QImage::Format_ARGB32);
    // 32-bit rows have no padding: the frame is one run of pixels, reduced
    // in one call so that its colour cache serves every row.
    Q_ASSERT(image.bytesPerLine() == width * 4);
    watch::reduceToPalette(frame.palette,
                           std::span<std::uint32_t>(reinterpret_cast<std::uint32_t*>(image.bits()),
                                                    std::size_t(width) * std::size_t(height)));
    for (int row = 0; row < height; ++row) {
        auto* line = reinterpret_cast<std::uint32_t*>(image.scanLine(row));
        for (int x = 0; x < width; ++x)
            if (!watch::insideScreen(frame.screen, x, row))
                line[x] = 0x00000000;
    }
    return image;
}

} // namespace watchword::app
