// Work off the GUI thread: run on the global thread pool, hand the result
// back to the GUI thread, and drop it if the object that asked is gone.
#pragma once

#include <QCoreApplication>
#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QThreadPool>
#include <memory>
#include <utility>

namespace watchword::app {

// Runs work() on the pool and calls done(result) on the GUI thread, unless
// owner has been destroyed by then (the result is dropped, and with it any
// secret it holds).
template <typename Work, typename Done> void runInBackground(QObject* owner, Work work, Done done)
{
    QPointer<QObject> guard(owner);
    QThreadPool::globalInstance()->start(
        [guard, work = std::move(work), done = std::move(done)]() mutable {
            using Result = decltype(work());
            auto result = std::make_shared<Result>(work());
            QMetaObject::invokeMethod(
                QCoreApplication::instance(),
                [guard, result, done = std::move(done)]() mutable {
                    if (guard)
                        done(std::move(*result));
                },
                Qt::QueuedConnection);
        });
}

} // namespace watchword::app
