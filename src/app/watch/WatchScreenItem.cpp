#include "app/watch/WatchScreenItem.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace watchword::app {

namespace {

const QColor bezelColour(0x20, 0x20, 0x22);
const QColor bezelEdge(0x48, 0x48, 0x4c);

} // namespace

WatchScreenItem::WatchScreenItem(QQuickItem* parent) : QQuickPaintedItem(parent)
{
    setAntialiasing(true);
}

void WatchScreenItem::setWatch(SimulatedWatch* watch)
{
    if (m_watch == watch)
        return;
    disconnect(m_frameConnection);
    m_watch = watch;
    if (watch != nullptr) {
        // A new device comes with a frameChanged too.
        m_frameConnection =
            connect(watch, &SimulatedWatch::frameChanged, this, &WatchScreenItem::refresh);
    }
    refresh();
    emit watchChanged();
}

void WatchScreenItem::refresh()
{
    if (m_watch == nullptr) {
        setFrame(WatchFrame{});
        return;
    }
    setFrame(m_watch->frame());
}

void WatchScreenItem::setFrame(const WatchFrame& frame)
{
    m_screen = frame.screen;
    if (frame.screen.width > 0 && frame.screen.height > 0)
        m_image = renderWatchFrame(frame);
    else
        m_image = QImage();
    updateLayout();
    update();
}

QColor WatchScreenItem::pixelAt(int x, int y) const
{
    if (!m_image.valid(x, y))
        return {};
    return m_image.pixelColor(x, y);
}

void WatchScreenItem::geometryChange(const QRectF& newGeometry, const QRectF& oldGeometry)
{
    QQuickPaintedItem::geometryChange(newGeometry, oldGeometry);
    if (newGeometry.size() != oldGeometry.size())
        updateLayout();
}

void WatchScreenItem::updateLayout()
{
    const double scale = fit();
    m_pixelScale = scale >= 1 ? int(std::floor(scale)) : 0;
    // One signal for the three: a new frame of the same size is the common
    // case and costs the bindings nothing.
    emit layoutChanged();
}

QSizeF WatchScreenItem::glassSize() const
{
    if (m_image.isNull())
        return {};
    if (m_pixelScale > 0)
        return QSizeF(m_image.width() * m_pixelScale, m_image.height() * m_pixelScale);
    // Smaller than the screen: scaled down, smoothly, to fit with its bezel
    // (every watch pixel cannot be shown; crispness is moot).
    const double scale = fit();
    return QSizeF(m_image.width() * scale, m_image.height() * scale);
}

double WatchScreenItem::fit() const
{
    if (m_image.isNull())
        return 0;
    const double room = 1 + 2 * bezelShare;
    return std::min(width() / (m_image.width() * room), height() / (m_image.height() * room));
}

void WatchScreenItem::paint(QPainter* painter)
{
    const QSizeF glass = glassSize();
    if (glass.isEmpty())
        return;
    // On whole pixels: a watch pixel half over two item pixels would blur.
    const QRectF glassRect(std::floor((width() - glass.width()) / 2),
                           std::floor((height() - glass.height()) / 2), glass.width(),
                           glass.height());
    const double bezel = bezelShare * std::max(glass.width(), glass.height());
    const QRectF outer = glassRect.adjusted(-bezel, -bezel, bezel, bezel);

    // The bezel, under the glass: it shows through the frame's transparent
    // pixels, which are the parts of its square that are not glass.
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setPen(QPen(bezelEdge, std::max(1.0, bezel / 8)));
    painter->setBrush(bezelColour);
    QPainterPath shape;
    if (m_screen.shape == watch::Shape::Rectangle)
        shape.addRoundedRect(outer, bezel * 1.5, bezel * 1.5);
    else
        shape.addEllipse(outer);
    if (m_screen.subscreen) {
        // The subscreen's window bulges out of the case's round.
        const auto& sub = *m_screen.subscreen;
        const double sx = glass.width() / m_image.width();
        const double sy = glass.height() / m_image.height();
        QPainterPath window;
        window.addEllipse(QRectF(glassRect.left() + sub.x * sx, glassRect.top() + sub.y * sy,
                                 sub.width * sx, sub.height * sy)
                              .adjusted(-bezel, -bezel, bezel, bezel));
        shape = shape.united(window);
    }
    painter->drawPath(shape);

    // Whole-number scales without smoothing: every watch pixel a sharp
    // square, as the watch shows it.
    painter->setRenderHint(QPainter::SmoothPixmapTransform, m_pixelScale == 0);
    painter->setRenderHint(QPainter::Antialiasing, false);
    if (m_pixelScale > 0)
        painter->drawImage(glassRect.topLeft(),
                           m_image.scaled(int(glass.width()), int(glass.height()),
                                          Qt::IgnoreAspectRatio, Qt::FastTransformation));
    else
        painter->drawImage(glassRect, m_image);
}

} // namespace watchword::app
