// The watch simulator's screen: the frame renderWatchFrame draws, shown at
// the device's true resolution scaled up by a whole number (each watch pixel
// a crisp square), centred in a dark bezel the item draws round the glass.
#pragma once

#include "app/watch/SimulatedWatch.h"
#include "app/watch/WatchScreenRenderer.h"

#include <QColor>
#include <QImage>
#include <QMetaObject>
#include <QPointer>
#include <QQuickPaintedItem>
#include <QtQml/qqmlregistration.h>

namespace watchword::app {

class WatchScreenItem : public QQuickPaintedItem
{
    Q_OBJECT
    QML_NAMED_ELEMENT(WatchScreen)
    // The frame is read from the watch on its frameChanged (a new device
    // comes with one); setFrame draws one without a watch.
    Q_PROPERTY(watchword::app::SimulatedWatch* watch READ watch WRITE setWatch NOTIFY watchChanged)
    // How many item pixels a watch pixel takes; 0 when the item is smaller
    // than the screen and the frame is scaled down (smoothly) instead.
    Q_PROPERTY(int pixelScale READ pixelScale NOTIFY layoutChanged)
    // The frame's size: the device's resolution (0 with nothing to draw).
    Q_PROPERTY(int nativeWidth READ nativeWidth NOTIFY layoutChanged)
    Q_PROPERTY(int nativeHeight READ nativeHeight NOTIFY layoutChanged)

public:
    // The bezel's width on each side, as a share of the glass's size.
    static constexpr double bezelShare = 0.07;

    explicit WatchScreenItem(QQuickItem* parent = nullptr);

    SimulatedWatch* watch() const { return m_watch; }
    void setWatch(SimulatedWatch* watch);
    void setFrame(const WatchFrame& frame);

    int pixelScale() const { return m_pixelScale; }
    int nativeWidth() const { return m_image.width(); }
    int nativeHeight() const { return m_image.height(); }
    const QImage& image() const { return m_image; }

    // The frame's pixel at (x, y) in watch pixels, alpha 0 off the glass;
    // an invalid colour outside the frame.
    Q_INVOKABLE QColor pixelAt(int x, int y) const;

    void paint(QPainter* painter) override;

signals:
    void watchChanged();
    void layoutChanged();

protected:
    void geometryChange(const QRectF& newGeometry, const QRectF& oldGeometry) override;

private:
    void refresh();
    void updateLayout();
    // Width and height of the glass as drawn, in item pixels.
    QSizeF glassSize() const;
    // The scale at which the frame and its bezel fill the item; 0 without one.
    double fit() const;

    QPointer<SimulatedWatch> m_watch;
    QMetaObject::Connection m_frameConnection;
    watch::ScreenGeometry m_screen;
    QImage m_image;
    int m_pixelScale = 0;
};

} // namespace watchword::app
