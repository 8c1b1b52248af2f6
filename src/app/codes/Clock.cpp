#include "app/codes/Clock.h"

#include <QDateTime>

namespace watchword::app {

Clock::Clock(QObject* parent) : QObject(parent)
{
    m_timer.setInterval(tickMilliseconds);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this,
            [this] { setMilliseconds(QDateTime::currentMSecsSinceEpoch()); });
}

void Clock::start()
{
    setMilliseconds(QDateTime::currentMSecsSinceEpoch());
    m_timer.start();
}

void Clock::stop()
{
    m_timer.stop();
}

void Clock::setMilliseconds(qint64 unixMilliseconds)
{
    const qint64 before = second();
    m_milliseconds = unixMilliseconds;
    emit nowChanged();
    if (second() != before)
        emit secondChanged(second());
}

} // namespace watchword::app
