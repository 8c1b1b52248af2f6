#include "app/diagnostics/WorkerThread.h"

#include <utility>

namespace watchword::app {

WorkerThread::~WorkerThread()
{
    cancel();
    join();
}

void WorkerThread::start(Job job)
{
    join();
    m_cancel = false;
    m_thread = std::thread([this, job = std::move(job)] { job(m_cancel); });
}

void WorkerThread::join()
{
    if (m_thread.joinable())
        m_thread.join();
}

} // namespace watchword::app
