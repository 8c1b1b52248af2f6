// The app's one clock. `now` (Unix seconds, with milliseconds) moves a few
// times a second, for countdowns drawn by the views; `second` moves once per
// whole second, for models that only care when a second begins (the codes).
// One timer for the whole app, however many rows count down.
#pragma once

#include <QObject>
#include <QTimer>
#include <QtQml/qqmlregistration.h>
#include <cstdint>

namespace watchword::app {

class Clock : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the app's clock is made by main()")
    Q_PROPERTY(double now READ now NOTIFY nowChanged)
    Q_PROPERTY(qint64 second READ second NOTIFY secondChanged)

public:
    // How often `now` moves while running: smooth enough for a ring.
    static constexpr int tickMilliseconds = 250;

    explicit Clock(QObject* parent = nullptr);

    double now() const { return static_cast<double>(m_milliseconds) / 1000.0; }
    qint64 second() const { return m_milliseconds / 1000; }

    // Follows the system clock from now on.
    void start();
    void stop();

    // Sets the time (Unix milliseconds): what the timer does, and what tests
    // call with times of their choosing. secondChanged fires when the whole
    // second differs, also when the clock jumps back.
    void setMilliseconds(qint64 unixMilliseconds);

signals:
    void nowChanged();
    void secondChanged(qint64 second);

private:
    QTimer m_timer;
    qint64 m_milliseconds = 0;
};

} // namespace watchword::app
