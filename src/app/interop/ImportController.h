// "Import…": accounts from another app's file (or a scanned Google transfer
// code) into the vault, in three steps the dialog shows. A source: the file
// is read into a wiped buffer and its format guessed (the most likely first;
// the user may pick another). A read: the file is opened as that format with
// its password, on the thread pool, since an encrypted one derives its key
// with scrypt or Argon2 for seconds. A preview: every account marked new,
// already in the vault (unticked) or of the same name with another secret;
// the ticked ones are added all at once and saved, or, if the save fails,
// taken out again.
//
// What was read (secrets included) is kept only between the read and the
// adding: it is dropped on reset(), after the adding and when the vault
// locks. There is no undo of an import (the undo list holds deleted
// records to put back, not added ones to take out): the preview is the
// check before anything changes.
#pragma once

#include "app/interop/ImportPreviewModel.h"
#include "app/interop/ImportSource.h"
#include "app/vault/VaultController.h"
#include "interop/importers/Import.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrl>
#include <QtQml/qqmlregistration.h>
#include <cstdint>
#include <memory>
#include <vector>

namespace watchword {
class SecureBuffer;
}
namespace watchword::importers {
enum class Format;
struct Imported;
} // namespace watchword::importers

namespace watchword::app {

class ImportController : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(watchword::app::VaultController* vault READ vault WRITE setVault NOTIFY vaultChanged)
    Q_PROPERTY(Stage stage READ stage NOTIFY stageChanged)
    // The file or text chosen, and the format it is read as.
    Q_PROPERTY(watchword::app::ImportSource* source READ source CONSTANT)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
    Q_PROPERTY(watchword::app::ImportPreviewModel* preview READ preview CONSTANT)

public:
    enum class Stage {
        Empty,   // nothing chosen yet
        Source,  // a source is loaded: choose its format, type its password
        Preview, // read: tick the accounts to add
    };
    Q_ENUM(Stage)

    explicit ImportController(QObject* parent = nullptr);
    ~ImportController() override;

    VaultController* vault() const { return m_vault; }
    void setVault(VaultController* vault);
    Stage stage() const { return m_stage; }
    ImportSource* source() { return &m_source; }
    bool busy() const { return m_busy; }
    const QString& error() const { return m_error; }
    ImportPreviewModel* preview() { return &m_preview; }

    // A file chosen in the dialog or dropped on the window. False, with
    // error set, if it cannot be read (missing, too large, empty).
    Q_INVOKABLE bool openFile(const QUrl& url);
    // Text that is itself the source: a scanned otpauth-migration:// code
    // (or an otpauth:// list). It is read at once, without a password.
    Q_INVOKABLE bool openText(QString text, const QString& sourceName);
    // Reads the source as the chosen format with password (wiped as it is
    // read); the preview or error follows, busy meanwhile.
    Q_INVOKABLE void read(QString password);
    // Stops waiting for a read: its answer is dropped when it comes (the key
    // derivation itself cannot be interrupted; the importers bound it), and
    // the source stays chosen, so that another password or format can be
    // tried.
    Q_INVOKABLE void stopReading();
    // Adds the ticked accounts, all or none, and saves them; finished() or
    // error follows (on a failed write the accounts are taken out of the
    // vault again, so that memory and file agree). False if nothing could be
    // started.
    Q_INVOKABLE bool addChecked();
    // Forgets the source, the accounts read and the preview.
    Q_INVOKABLE void reset();
    // For the documentation's screenshots in the demo vault only: the demo
    // import sample (demoImportSample) read into a preview.
    Q_INVOKABLE bool openDemoSample();

    // For tests and openDemoSample(): data (any bytes) as the source.
    bool openData(const QByteArray& data, const QString& sourceName);

signals:
    void vaultChanged();
    void stageChanged();
    void busyChanged();
    void errorChanged();
    // The accounts are in the vault and saved; message says how many.
    void finished(const QString& message);
    // The file or text is a Watchword share (docs/FORMAT.md section 12),
    // not an export: envelope is its bytes, for "Receive a share…".
    void shareFound(const QByteArray& envelope, const QString& sourceName);

private:
    void setStage(Stage stage);
    void setBusy(bool busy);
    void setError(QString error);
    bool openBytes(std::unique_ptr<SecureBuffer> data, const QString& sourceName,
                   importers::CompanionFiles companions = {});
    void showPreview(std::unique_ptr<importers::Imported> imported);
    bool commit(const std::vector<std::size_t>& chosen);
    void onImportFinished(bool added, const QString& message);

    VaultController* m_vault = nullptr; // not owned; null when destroyed
    Stage m_stage = Stage::Empty;
    ImportSource m_source;
    bool m_busy = false;
    bool m_adding = false;
    QString m_error;
    // What was read, secrets included: between the read and the adding.
    std::unique_ptr<importers::Imported> m_imported;
    ImportPreviewModel m_preview;
    std::uint64_t m_request = 0; // the latest read; older answers are dropped
};

} // namespace watchword::app
