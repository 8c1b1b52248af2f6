#include "crypto/CryptoState.h"

#include <atomic>
#include <mutex>

namespace watchword::crypto {

namespace {

std::atomic<bool> g_disabled{false};
std::mutex g_reasonMutex;
std::string g_reason;

} // namespace

bool isDisabled() noexcept
{
    return g_disabled.load(std::memory_order_acquire);
}

std::string disabledReason()
{
    const std::lock_guard lock(g_reasonMutex);
    return g_reason;
}

void disable(std::string reason)
{
    {
        const std::lock_guard lock(g_reasonMutex);
        g_reason = std::move(reason);
    }
    g_disabled.store(true, std::memory_order_release);
}

void testing::reenable()
{
    const std::lock_guard lock(g_reasonMutex);
    g_reason.clear();
    g_disabled.store(false, std::memory_order_release);
}

} // namespace watchword::crypto
