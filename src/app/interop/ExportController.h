// "Export…": the vault's accounts (all, or the ones ticked) written to a
// file in one of exporters::allExportFormats. An encrypted format takes a
// new password typed twice; a plaintext one is refused until the user has
// acknowledged that the file holds every secret readable. The file is
// written atomically, 0600, and an existing file is replaced only when the
// caller says the user agreed (overwrite). The Watchword backup's PBKDF2 is
// calibrated to the vault's unlock target, on the thread pool with the
// export itself. What had to be left out comes back as warnings.
#pragma once

#include "app/vault/VaultController.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <QtQml/qqmlregistration.h>
#include <cstdint>

namespace watchword::app {

class ExportController : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(watchword::app::VaultController* vault READ vault WRITE setVault NOTIFY vaultChanged)
    Q_PROPERTY(QStringList formatTitles READ formatTitles CONSTANT)
    Q_PROPERTY(int formatIndex READ formatIndex WRITE setFormatIndex NOTIFY formatChanged)
    Q_PROPERTY(bool needsPassword READ needsPassword NOTIFY formatChanged)
    Q_PROPERTY(bool plaintext READ plaintext NOTIFY formatChanged)
    // Whether the format is Google's transfer, which is also shown as QR codes.
    Q_PROPERTY(bool googleTransfer READ googleTransfer NOTIFY formatChanged)
    Q_PROPERTY(QString suggestedFileName READ suggestedFileName NOTIFY formatChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
    Q_PROPERTY(QStringList warnings READ warnings NOTIFY warningsChanged)

public:
    explicit ExportController(QObject* parent = nullptr);
    ~ExportController() override;

    VaultController* vault() const { return m_vault; }
    void setVault(VaultController* vault);
    QStringList formatTitles() const;
    int formatIndex() const { return m_formatIndex; }
    void setFormatIndex(int index);
    bool needsPassword() const;
    bool plaintext() const;
    bool googleTransfer() const;
    QString suggestedFileName() const;
    bool busy() const { return m_busy; }
    const QString& error() const { return m_error; }
    const QStringList& warnings() const { return m_warnings; }

    // What is wrong with the choices before a file is asked for ("" if
    // nothing): no account, passwords that differ or are empty, a plaintext
    // format not acknowledged. The passwords are only compared.
    Q_INVOKABLE QString problem(const QStringList& recordIds, const QString& password,
                                const QString& repeat, bool acknowledged) const;
    Q_INVOKABLE bool fileExists(const QUrl& file) const;
    // Writes the accounts with recordIds (every account if empty) to file.
    // False, with error set, if the choices are refused or file exists and
    // overwrite is false; otherwise busy until finished(). The passwords
    // are wiped as they are read.
    Q_INVOKABLE bool exportTo(const QUrl& file, const QStringList& recordIds, QString password,
                              QString repeat, bool acknowledged, bool overwrite);
    Q_INVOKABLE void clearError();

signals:
    void vaultChanged();
    void formatChanged();
    void busyChanged();
    void errorChanged();
    void warningsChanged();
    // The export's end: written (message names the file) or not (error).
    void finished(bool written, const QString& message);

private:
    void setBusy(bool busy);
    void setError(QString error);

    VaultController* m_vault = nullptr; // not owned; null when destroyed
    int m_formatIndex = 0;
    bool m_busy = false;
    QString m_error;
    QStringList m_warnings;
    std::uint64_t m_request = 0;
};

} // namespace watchword::app
