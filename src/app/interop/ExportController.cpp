#include "app/interop/ExportController.h"

#include "app/common/Background.h"
#include "app/common/Notify.h"
#include "app/vault/AccountCopies.h"
#include "app/vault/VaultController.h"
#include "base/FileIo.h"
#include "base/SecureBuffer.h"
#include "crypto/Random.h"
#include "interop/exporters/Export.h"
#include "text/CoreText.h"
#include "text/SecretText.h"
#include "vault/Calibration.h"

#include <QDateTime>
#include <QFileInfo>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace watchword::app {

namespace {

exporters::ExportFormat formatAt(int index)
{
    return exporters::allExportFormats[std::size_t(index)];
}

struct ExportOutcome
{
    QString error;
    QStringList warnings;
};

} // namespace

ExportController::ExportController(QObject* parent) : QObject(parent) {}

ExportController::~ExportController() = default;

void ExportController::setVault(VaultController* vault)
{
    if (!bindVault(this, m_vault, vault))
        return;
    emit vaultChanged();
}

QStringList ExportController::formatTitles() const
{
    QStringList titles;
    for (const auto format : exporters::allExportFormats)
        titles << QString::fromUtf8(exporters::exportFormatTitle(format));
    return titles;
}

void ExportController::setFormatIndex(int index)
{
    if (index < 0 || index >= int(exporters::allExportFormats.size()) || index == m_formatIndex)
        return;
    m_formatIndex = index;
    setError({});
    emit formatChanged();
}

bool ExportController::needsPassword() const
{
    return exporters::exportNeedsPassword(formatAt(m_formatIndex));
}

bool ExportController::plaintext() const
{
    return exporters::exportIsPlaintext(formatAt(m_formatIndex));
}

bool ExportController::googleTransfer() const
{
    return formatAt(m_formatIndex) == exporters::ExportFormat::GoogleMigration;
}

QString ExportController::suggestedFileName() const
{
    const QString day = QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd"));
    switch (formatAt(m_formatIndex)) {
    case exporters::ExportFormat::WatchwordBackup:
        return QStringLiteral("watchword-backup-%1.wwb").arg(day);
    case exporters::ExportFormat::Aegis:
        return QStringLiteral("aegis-export-plain-%1.json").arg(day);
    case exporters::ExportFormat::AegisEncrypted:
        return QStringLiteral("aegis-export-%1.json").arg(day);
    case exporters::ExportFormat::OtpauthList:
        return QStringLiteral("otpauth-accounts-%1.txt").arg(day);
    case exporters::ExportFormat::GoogleMigration:
        return QStringLiteral("google-authenticator-transfer-%1.txt").arg(day);
    case exporters::ExportFormat::TwoFas:
        return QStringLiteral("2fas-backup-%1.2fas").arg(day);
    case exporters::ExportFormat::Ente:
        return QStringLiteral("ente-auth-codes-%1.txt").arg(day);
    }
    return {};
}

QString ExportController::problem(const QStringList& recordIds, const QString& password,
                                  const QString& repeat, bool acknowledged) const
{
    const VaultController* vault = m_vault;
    if (vault == nullptr || vault->state() != VaultController::State::Unlocked)
        return tr("Unlock the vault first.");
    if (recordIds.isEmpty() && !holdsAccounts(*vault))
        return tr("The vault holds no accounts to export.");
    if (needsPassword()) {
        if (password.isEmpty())
            return tr("Enter a password for the file.");
        if (password != repeat)
            return tr("The two passwords differ.");
    }
    if (plaintext() && !acknowledged)
        return tr("Confirm that you understand this file holds every secret readable.");
    return {};
}

bool ExportController::fileExists(const QUrl& file) const
{
    return QFileInfo::exists(file.toLocalFile());
}

bool ExportController::exportTo(const QUrl& file, const QStringList& recordIds, QString password,
                                QString repeat, bool acknowledged, bool overwrite)
{
    const QString refused = problem(recordIds, password, repeat, acknowledged);
    text::wipe(repeat);
    if (m_busy || !refused.isEmpty() || !file.isLocalFile()) {
        text::wipe(password);
        setError(m_busy               ? tr("An export is already being written.")
                 : !refused.isEmpty() ? refused
                                      : tr("Choose a file on this computer."));
        return false;
    }
    VaultController* vault = m_vault;
    const QString path = file.toLocalFile();
    if (vault == nullptr)
        return false;
    if (!overwrite && QFileInfo::exists(path)) {
        text::wipe(password);
        setError(tr("%1 already exists: confirm to replace it.").arg(QFileInfo(path).fileName()));
        return false;
    }
    auto copies = accountCopies(*vault, recordIds);
    if (!copies) {
        text::wipe(password);
        setError(copies.error());
        return false;
    }
    auto accounts = std::make_shared<std::vector<vault::OtpAccount>>(std::move(*copies));
    const auto format = formatAt(m_formatIndex);
    auto secret = std::make_shared<std::optional<SecureBuffer>>();
    // A Watchword backup takes the password as the vault does (NFKD,
    // docs/FORMAT.md section 10); Aegis takes it as typed, as Aegis does.
    if (format == exporters::ExportFormat::WatchwordBackup) {
        secret->emplace(text::normalizeSecretText(password));
    } else if (exporters::exportNeedsPassword(format)) {
        QByteArray utf8 = password.toUtf8();
        secret->emplace(ByteView(reinterpret_cast<const std::uint8_t*>(utf8.constData()),
                                 std::size_t(utf8.size())));
        secureWipe(utf8.data(), std::size_t(utf8.size()));
    }
    text::wipe(password);
    const auto target = std::uint32_t(vault->unlockTargetMilliseconds());
    const auto ifExists = overwrite ? IfExists::Replace : IfExists::Refuse;
    const std::int64_t now = QDateTime::currentSecsSinceEpoch();
    setError({});
    m_warnings.clear();
    emit warningsChanged();
    setBusy(true);
    const std::uint64_t request = ++m_request;
    runInBackground(
        this,
        [accounts, secret, format, target, path, ifExists, now] {
            ExportOutcome outcome;
            exporters::ExportOptions options;
            options.now = now;
            if (secret->has_value())
                options.password = (*secret)->span();
            if (format == exporters::ExportFormat::WatchwordBackup) {
                auto calibration = vault::calibratePasswordKdf(target);
                if (!calibration) {
                    outcome.error = text::fromCore(calibration.error().message);
                    return outcome;
                }
                options.backupIterations = calibration->iterations;
            }
            auto exported =
                exporters::exportAccounts(format, *accounts, options, crypto::systemRandom());
            secret->reset();
            accounts->clear(); // the copies' secrets wipe themselves
            if (!exported) {
                outcome.error = text::fromCore(exported.error().message);
                return outcome;
            }
            const std::string_view contents(reinterpret_cast<const char*>(exported->data.data()),
                                            exported->data.size());
            auto written = writeFileAtomically(path.toStdString(), contents, 0600, ifExists);
            if (!written) {
                outcome.error = text::fromCore(written.error());
                return outcome;
            }
            for (const auto& warning : exported->warnings)
                outcome.warnings << QString::fromStdString(warning);
            if (!written->notDurable.empty())
                outcome.warnings << text::fromCore(written->notDurable);
            return outcome;
        },
        [this, request, path](ExportOutcome outcome) {
            if (request != m_request)
                return;
            setBusy(false);
            m_warnings = std::move(outcome.warnings);
            emit warningsChanged();
            if (!outcome.error.isEmpty()) {
                const QString failure = tr("Nothing was written: %1").arg(outcome.error);
                setError(failure);
                emit finished(false, failure);
                return;
            }
            emit finished(true, tr("Written to %1.").arg(QFileInfo(path).fileName()));
        });
    return true;
}

void ExportController::clearError()
{
    setError({});
}

void ExportController::setBusy(bool busy)
{
    assignAndNotify(this, m_busy, busy, &ExportController::busyChanged);
}

void ExportController::setError(QString error)
{
    assignAndNotify(this, m_error, std::move(error), &ExportController::errorChanged);
}

} // namespace watchword::app
