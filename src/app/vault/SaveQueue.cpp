#include "app/vault/SaveQueue.h"

#include "app/common/Background.h"
#include "app/common/Notify.h"
#include "text/CoreText.h"
#include "vault/Storage.h"

#include <utility>

namespace watchword::app {

VaultWrite writeVaultFile(vault::VaultStorage& storage, ByteView bytes)
{
    if (auto locked = storage.lock(); !locked)
        return {text::fromCore(locked.error().message), {}};
    const auto saved = storage.save(bytes);
    storage.unlock();
    if (!saved)
        return {text::fromCore(saved.error().message),
                {},
                saved.error().code == vault::StorageErrorCode::ChangedOnDisk};
    return {{}, text::fromCore(storage.warning())};
}

SaveQueue::SaveQueue(QObject* parent) : QObject(parent) {}

SaveQueue::~SaveQueue() = default;

void SaveQueue::setStorage(std::unique_ptr<vault::VaultStorage> storage)
{
    m_storage = std::move(storage);
}

void SaveQueue::setSaving(bool saving)
{
    assignAndNotify(this, m_saving, saving, &SaveQueue::savingChanged);
}

void SaveQueue::whenIdle(std::function<void(vault::VaultStorage&)> use)
{
    if (m_saving) {
        m_idle.push_back(std::move(use));
        return;
    }
    if (m_storage)
        use(*m_storage);
}

void SaveQueue::write(std::shared_ptr<const Bytes> file, Finished finished)
{
    Pending pending{std::move(file), std::move(finished)};
    if (m_saving || !m_storage) {
        // A save job holds the file: this goes next. Bytes it replaces are
        // older than it, so whoever waits for them is answered by it.
        if (m_queued && m_queued->finished && !pending.finished)
            pending.finished = std::move(m_queued->finished);
        m_queued = std::move(pending);
        return;
    }
    start(std::move(pending));
}

void SaveQueue::start(Pending pending)
{
    setSaving(true);
    auto storage = std::shared_ptr<vault::VaultStorage>(std::move(m_storage));
    auto file = pending.file;
    runInBackground(
        this, [storage, file] { return writeVaultFile(*storage, *file); },
        [this, storage, pending = std::move(pending)](VaultWrite outcome) {
            m_storage = std::make_unique<vault::VaultStorage>(std::move(*storage));
            if (outcome.changedOnDisk && m_remerge && pending.attempts < maximumRemerges) {
                // Someone else wrote the file: merge what they wrote, then
                // write the result instead. The merged bytes hold everything
                // in memory: a write queued meanwhile is older, and is
                // answered by this one.
                if (auto merged = m_remerge(*m_storage)) {
                    Finished finished = pending.finished;
                    if (m_queued && m_queued->finished)
                        finished =
                            finished
                                ? Finished([first = std::move(finished),
                                            second = m_queued->finished](const QString& error) {
                                      first(error);
                                      second(error);
                                  })
                                : m_queued->finished;
                    m_queued.reset();
                    start({std::move(merged), std::move(finished), pending.attempts + 1});
                    return;
                }
            }
            if (!outcome.error.isEmpty()) {
                if (pending.finished)
                    pending.finished(outcome.error);
                else
                    emit failed(outcome.error);
            } else {
                emit written(pending.file, outcome.warning);
                if (pending.finished)
                    pending.finished({});
            }
            for (auto& use : std::exchange(m_idle, {}))
                use(*m_storage);
            if (m_queued) {
                start(*std::exchange(m_queued, std::nullopt));
                return;
            }
            setSaving(false);
        });
}

} // namespace watchword::app
