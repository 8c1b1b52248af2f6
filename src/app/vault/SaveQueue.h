// The vault file's writer. Each save runs on a worker: lock the file, save
// it atomically, give the lock up (so the command-line tool can write between
// our saves). Saves never overlap: bytes handed in while one runs are written
// when it ends, the newest winning.
#pragma once

#include "base/Bytes.h"

#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace watchword::vault {
class VaultStorage;
}

namespace watchword::app {

// One write of the vault file through storage: lock it, save atomically,
// give the lock up. error is "" when the bytes are on disk; warning then says
// what went wrong after (a directory that could not be flushed), usually "".
struct VaultWrite
{
    QString error;
    QString warning;
    bool changedOnDisk = false; // error is the storage's ChangedOnDisk
};
[[nodiscard]] VaultWrite writeVaultFile(vault::VaultStorage& storage, ByteView bytes);

class SaveQueue : public QObject
{
    Q_OBJECT

public:
    // A write's answer: "" when the bytes are on disk, else why not.
    using Finished = std::function<void(const QString& error)>;

    explicit SaveQueue(QObject* parent = nullptr);
    ~SaveQueue() override;

    bool saving() const { return m_saving; }
    // A write waits behind the running one.
    bool hasQueued() const { return m_queued.has_value(); }
    // The file the vault was read from or created as, kept between saves.
    void setStorage(std::unique_ptr<vault::VaultStorage> storage);
    // Runs use on this (the GUI) thread with the storage when no save holds
    // it: now, or when the running save ends (before the next one starts).
    // Not run if there is no storage (the demo, a vault not shown yet).
    void whenIdle(std::function<void(vault::VaultStorage&)> use);
    // What a write refused because someone else changed the file answers
    // instead of failing: the bytes to write in its place (the vault with
    // what is on disk merged in, serialized), or nothing to fail as before.
    using Remerge = std::function<std::shared_ptr<const Bytes>(vault::VaultStorage&)>;
    void setRemerge(Remerge remerge) { m_remerge = std::move(remerge); }
    // Writes file, now or when the running save ends. A failure is answered
    // by finished when given (the caller undoes its change), by failed()
    // otherwise; a success always by written().
    void write(std::shared_ptr<const Bytes> file, Finished finished = {});

signals:
    void savingChanged();
    // file is on disk; warning is what went wrong after it was (a directory
    // that could not be flushed), usually "".
    void written(const std::shared_ptr<const Bytes>& file, const QString& warning);
    void failed(const QString& error);

private:
    struct Pending
    {
        std::shared_ptr<const Bytes> file;
        Finished finished;
        int attempts = 0; // merges of someone else's change before this write
    };
    static constexpr int maximumRemerges = 3;
    void start(Pending pending);
    void setSaving(bool saving);

    // Null while a save job holds it.
    std::unique_ptr<vault::VaultStorage> m_storage;
    std::optional<Pending> m_queued;
    std::vector<std::function<void(vault::VaultStorage&)>> m_idle;
    Remerge m_remerge;
    bool m_saving = false;
};

} // namespace watchword::app
