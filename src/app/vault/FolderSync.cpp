#include "app/vault/FolderSync.h"

#include "app/common/Background.h"
#include "app/vault/RecordIds.h"
#include "app/vault/UndoHistory.h"
#include "app/vault/VaultController.h"
#include "base/FileIo.h"
#include "base/SecureBuffer.h"
#include "crypto/Hash.h"
#include "crypto/Random.h"
#include "text/CoreText.h"
#include "text/SecretText.h"
#include "vault/ConflictCopies.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <map>
#include <utility>

namespace watchword::app {

namespace {

// How long the folder must stay quiet before it is looked at, and how often
// it is looked at anyway (a network file system sends no events).
constexpr int pauseMilliseconds = 700;
constexpr int pollMilliseconds = 5000;

QByteArray hashOf(ByteView bytes)
{
    const auto digest = crypto::sha256(bytes);
    return QByteArray(reinterpret_cast<const char*>(digest.data()), int(digest.size()));
}

// "1 account", "2 notes": one of two texts by the count.
QString counted(std::size_t count, const QString& one, const QString& many)
{
    return count == 1 ? one : many.arg(count);
}

// "2 accounts added, 1 note changed on another device."
QString summaryOf(const vault::MergeReport& report)
{
    QStringList parts;
    const auto add = [&](const vault::KindCounts& counts, const QString& done) {
        if (counts.accounts != 0)
            parts << done.arg(counted(counts.accounts, FolderSync::tr("1 account"),
                                      FolderSync::tr("%1 accounts")));
        if (counts.notes != 0)
            parts << done.arg(
                counted(counts.notes, FolderSync::tr("1 note"), FolderSync::tr("%1 notes")));
        if (counts.contacts != 0)
            parts << done.arg(counted(counts.contacts, FolderSync::tr("1 contact"),
                                      FolderSync::tr("%1 contacts")));
    };
    add(report.added, FolderSync::tr("%1 added"));
    add(report.changed, FolderSync::tr("%1 changed"));
    add(report.removed, FolderSync::tr("%1 removed"));
    QString text =
        parts.isEmpty()
            ? FolderSync::tr("Changes from another device merged.")
            : FolderSync::tr("%1 on another device.").arg(parts.join(QStringLiteral(", ")));
    if (report.notesKeptTwice != 0)
        text += QLatin1Char(' ') +
                counted(report.notesKeptTwice,
                        FolderSync::tr("A note was edited on both devices: the other text is "
                                       "kept as a note marked \u201c(conflicting edit)\u201d."),
                        FolderSync::tr("%1 notes were edited on both devices: the other texts "
                                       "are kept as notes marked \u201c(conflicting edit)\u201d."));
    if (report.keyFromOther)
        text += QLatin1Char(' ') +
                FolderSync::tr("The password set on the other device now opens this vault.");
    return text;
}

} // namespace

FolderSync::FolderSync(VaultController& session) : QObject(&session), m_session(session)
{
    m_pause.setSingleShot(true);
    m_pause.setInterval(pauseMilliseconds);
    m_poll.setInterval(pollMilliseconds);
    connect(&m_pause, &QTimer::timeout, this, &FolderSync::checkNow);
    connect(&m_poll, &QTimer::timeout, this, &FolderSync::checkNow);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &FolderSync::schedule);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &FolderSync::schedule);
    connect(&session, &VaultController::opened, this, &FolderSync::start);
    connect(&session, &VaultController::closing, this, &FolderSync::stop);
    connect(&session, &VaultController::saved, this, &FolderSync::setAsideWaitingCopies);
}

void FolderSync::start()
{
    if (m_session.demo() || m_session.path().isEmpty())
        return;
    m_active = true;
    const QFileInfo file(m_session.path());
    m_watcher.addPath(file.absolutePath());
    m_watcher.addPath(file.absoluteFilePath());
    m_poll.start();
    // Conflict copies made while the vault was locked wait already.
    schedule();
}

void FolderSync::stop()
{
    m_active = false;
    m_pause.stop();
    m_poll.stop();
    if (!m_watcher.files().isEmpty())
        m_watcher.removePaths(m_watcher.files());
    if (!m_watcher.directories().isEmpty())
        m_watcher.removePaths(m_watcher.directories());
    m_waitingPath.reset();
    secureWipe(m_waitingBytes.data(), m_waitingBytes.size());
    m_waitingBytes.clear();
    m_declined.clear();
    m_refused.clear();
    m_copiesAfterSave.clear();
    setPasswordWanted({});
    setProblem({});
    if (!m_passwordError.isEmpty()) {
        m_passwordError.clear();
        emit passwordErrorChanged();
    }
}

void FolderSync::schedule()
{
    if (m_active)
        m_pause.start();
}

void FolderSync::checkNow()
{
    if (!m_active || m_opening)
        return;
    // A rename over the file ends the watch on it: watch the new one.
    const QString path = QFileInfo(m_session.path()).absoluteFilePath();
    if (!m_watcher.files().contains(path) && QFileInfo::exists(path))
        m_watcher.addPath(path);
    m_session.m_saves.whenIdle([this](vault::VaultStorage& storage) { check(storage); });
}

void FolderSync::check(vault::VaultStorage& storage)
{
    // A key job (a password change) holds the vault: look again later.
    if (!m_active || m_session.m_busy || !m_session.m_vault)
        return;
    FileMerge result;
    if (mergeVaultFile(storage, result, true))
        m_session.requestSave();
    mergeConflictCopies();
}

bool FolderSync::mergeVaultFile(vault::VaultStorage& storage, FileMerge& result, bool lookFirst)
{
    // The look every few seconds costs one lstat while nothing changes.
    if (lookFirst && storage.looksUnchanged())
        return false;
    auto current = storage.readCurrent();
    if (!current) {
        if (current.error().code == vault::StorageErrorCode::NotFound)
            setProblem(tr("The vault file was removed by another program. Your vault is still "
                          "open here: Watchword does not write a new file in its place."));
        return false;
    }
    if (current->identity == storage.identity())
        return false;
    const QByteArray hash(reinterpret_cast<const char*>(current->identity.sha256.data()),
                          int(current->identity.sha256.size()));
    if (m_declined.contains(hash) || m_refused.contains(hash))
        return false;
    result = mergeBytes(current->bytes);
    switch (result.outcome) {
    case Outcome::NeedsPassword:
        m_waitingPath = QString();
        m_waitingBytes = std::move(current->bytes);
        setPasswordWanted(QFileInfo(m_session.path()).fileName());
        return false;
    case Outcome::Refused:
        // Not adopted: saves keep refusing to write over it.
        m_refused.insert(hash);
        setProblem(tr("The vault file was changed by another program and cannot be merged: "
                      "%1. Your vault is kept here and not written over it.")
                       .arg(result.message));
        return false;
    case Outcome::Older:
        // An older copy replaced the file: the vault holds all of it.
        storage.adopt(std::move(*current));
        emit merged(tr("An older copy of the vault replaced its file; the vault is written "
                       "again."));
        return true;
    case Outcome::Merged:
        storage.adopt(std::move(*current));
        if (result.report.changedThis())
            announce(result.report);
        // A write queued before the merge lacks what it brought: the merged
        // vault replaces it.
        return result.report.otherLacks != 0 || m_session.m_saves.hasQueued();
    }
    return false;
}

void FolderSync::mergeConflictCopies()
{
    if (m_waitingPath)
        return; // one password question at a time
    bool save = false;
    for (const auto& copy :
         vault::conflictCopiesOf(QFile::encodeName(m_session.path()).toStdString())) {
        const QString path = QFile::decodeName(QByteArray::fromStdString(copy.path));
        if (m_copiesAfterSave.contains(path))
            continue;
        auto bytes = readRegularFile(copy.path, vault::maximumVaultFileSize);
        if (!bytes)
            continue; // gone meanwhile, or unreadable: looked at again later
        const auto hash = hashOf(bytes->span());
        if (m_declined.contains(hash) || m_refused.contains(hash))
            continue;
        auto result = mergeBytes(bytes->span());
        const QString name = QFileInfo(path).fileName();
        switch (result.outcome) {
        case Outcome::NeedsPassword:
            m_waitingPath = path;
            m_waitingBytes.assign(bytes->span().begin(), bytes->span().end());
            setPasswordWanted(name);
            break;
        case Outcome::Refused:
            m_refused.insert(hash);
            setProblem(tr("%1 (left by %2) cannot be merged: %3. It is left where it is.")
                           .arg(name, QString::fromStdString(copy.engine), result.message));
            continue;
        case Outcome::Older:
            m_copiesAfterSave << path;
            continue;
        case Outcome::Merged:
            if (result.report.changedThis())
                announce(result.report);
            m_copiesAfterSave << path;
            save = true;
            continue;
        }
        break; // a password is wanted
    }
    if (save)
        m_session.requestSave();
    else
        setAsideWaitingCopies();
}

FolderSync::FileMerge FolderSync::mergeBytes(ByteView bytes, std::optional<vault::Vault> opened)
{
    FileMerge result;
    vault::Vault& vault = *m_session.m_vault;
    if (!opened) {
        auto other = vault::Vault::unlockWithKeyOf(bytes, vault);
        if (!other) {
            result.outcome = other.error().code == vault::VaultError::KeyChanged
                                 ? Outcome::NeedsPassword
                                 : Outcome::Refused;
            result.message = text::fromCore(other.error().message);
            return result;
        }
        opened = std::move(*other);
    }
    // What each record was, to tell the views what changed.
    std::map<vault::RecordId, std::uint64_t> before;
    for (std::size_t i = 0; i < vault.recordCount(); ++i)
        before.emplace(vault::idOf(vault.record(i)), vault::versionOf(vault.record(i)));
    auto report = vault.merge(std::move(*opened));
    if (!report) {
        result.outcome = report.error().code == vault::VaultError::RolledBack ? Outcome::Older
                                                                              : Outcome::Refused;
        result.message = text::fromCore(report.error().message);
        return result;
    }
    result.outcome = Outcome::Merged;
    result.report = *report;
    std::vector<vault::RecordId> gone, come;
    for (std::size_t i = 0; i < vault.recordCount(); ++i) {
        const auto& record = vault.record(i);
        const auto was = before.find(vault::idOf(record));
        if (was == before.end()) {
            come.push_back(vault::idOf(record));
            continue;
        }
        if (was->second != vault::versionOf(record)) {
            gone.push_back(was->first); // shown again as it is now
            come.push_back(was->first);
        }
        before.erase(was);
    }
    for (const auto& [id, version] : before)
        gone.push_back(id);
    if (!gone.empty() || !come.empty()) {
        // What undo would bring back may no longer be what the vault holds.
        m_session.m_history->clear();
        if (!gone.empty())
            m_session.announceRemoved(gone);
        if (!come.empty())
            m_session.announceAdded(come);
    }
    if (report->keyFromOther)
        m_session.announceIdentityChanged();
    return result;
}

void FolderSync::announce(const vault::MergeReport& report)
{
    emit merged(summaryOf(report));
}

std::shared_ptr<const Bytes> FolderSync::remerge(vault::VaultStorage& storage)
{
    if (!m_session.m_vault || m_session.m_busy)
        return nullptr;
    // The save compared the bytes: no cheap look first.
    FileMerge result;
    mergeVaultFile(storage, result, false);
    if (result.outcome != Outcome::Merged && result.outcome != Outcome::Older)
        return nullptr;
    auto bytes = m_session.m_vault->serialize(crypto::systemRandom(), nowSeconds());
    if (!bytes)
        return nullptr;
    return std::make_shared<const Bytes>(std::move(*bytes));
}

void FolderSync::setAsideWaitingCopies()
{
    for (const auto& path : std::exchange(m_copiesAfterSave, {})) {
        auto moved = vault::setAsideConflictCopy(QFile::encodeName(path).toStdString());
        if (!moved)
            setProblem(tr("%1 is merged, but could not be moved aside: %2")
                           .arg(QFileInfo(path).fileName(), text::fromCore(moved.error())));
    }
}

void FolderSync::providePassword(QString password)
{
    // Read (and wiped from the string) whatever happens next.
    SecureBuffer typed = text::normalizeSecretText(password);
    if (!m_waitingPath || m_opening)
        return;
    if (typed.empty()) {
        m_passwordError = tr("Enter the password this copy was saved with.");
        emit passwordErrorChanged();
        return;
    }
    auto secret = std::make_shared<SecureBuffer>(std::move(typed));
    m_opening = true;
    emit openingChanged();
    auto bytes = std::make_shared<Bytes>(m_waitingBytes);
    runInBackground(
        this, [bytes, secret] { return vault::Vault::unlockWithPassword(*bytes, secret->span()); },
        [this, bytes](vault::VaultResult<vault::Vault> opened) {
            m_opening = false;
            emit openingChanged();
            if (!m_waitingPath || !m_session.m_vault)
                return;
            if (!opened) {
                m_passwordError = opened.error().code == vault::VaultError::WrongPassword
                                      ? tr("That is not the password this copy was saved "
                                           "with.")
                                      : text::fromCore(opened.error().message);
                emit passwordErrorChanged();
                return;
            }
            m_passwordError.clear();
            emit passwordErrorChanged();
            const QString path = *std::exchange(m_waitingPath, std::nullopt);
            setPasswordWanted({});
            auto result = mergeBytes(*bytes, std::move(*opened));
            if (result.outcome != Outcome::Merged) {
                setProblem(result.message);
                return;
            }
            if (result.report.changedThis())
                announce(result.report);
            if (path.isEmpty()) {
                // The vault file: what was read is what is merged; if it
                // changed again since, the save merges that too.
                m_session.m_saves.whenIdle([bytes](vault::VaultStorage& storage) {
                    auto current = storage.readCurrent();
                    if (current && std::equal(current->bytes.begin(), current->bytes.end(),
                                              bytes->begin(), bytes->end()))
                        storage.adopt(std::move(*current));
                });
            } else {
                m_copiesAfterSave << path;
            }
            m_session.requestSave();
            secureWipe(m_waitingBytes.data(), m_waitingBytes.size());
            m_waitingBytes.clear();
            schedule();
        });
}

void FolderSync::later()
{
    if (m_waitingPath)
        m_declined.insert(hashOf(m_waitingBytes));
    m_waitingPath.reset();
    setPasswordWanted({});
}

void FolderSync::clearProblem()
{
    setProblem({});
}

void FolderSync::setPasswordWanted(const QString& name)
{
    if (m_passwordWantedFor == name)
        return;
    m_passwordWantedFor = name;
    emit passwordWantedChanged();
}

void FolderSync::setProblem(const QString& problem)
{
    if (m_problem == problem)
        return;
    m_problem = problem;
    emit problemChanged();
}

} // namespace watchword::app
