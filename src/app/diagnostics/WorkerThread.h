// One job at a time on a thread of its own, for the Diagnostics view's long
// work: a benchmark run takes a minute, and a baseline comparison's
// bootstrap seconds (100,000 resamples a benchmark on the full profile).
// Not the global pool: its few threads are the vault's for unlocking.
//
// The job gets a flag that cancel() sets, to check as often as it can. The
// owner joins the thread once the job's last queued call has arrived (it
// then only has to return); destruction cancels and joins: the only wait,
// and a short one.
#pragma once

#include <atomic>
#include <functional>
#include <thread>

namespace watchword::app {

class WorkerThread
{
public:
    using Job = std::function<void(const std::atomic<bool>& cancelled)>;

    WorkerThread() = default;
    ~WorkerThread();
    WorkerThread(const WorkerThread&) = delete;
    WorkerThread& operator=(const WorkerThread&) = delete;

    // Starts job on a new thread (after joining the last one).
    void start(Job job);
    void cancel() { m_cancel = true; }
    // Waits for the job to return.
    void join();

private:
    std::atomic<bool> m_cancel{false};
    std::thread m_thread;
};

} // namespace watchword::app
