// What an import reads: a chosen file (or a scanned text) in a wiped
// buffer, the files beside it (a Steam manifest's .maFiles), and the formats
// it may be read as, the ones guessed from its content first. The dialog's
// "Exported by" box and its password field follow this object; the
// ImportController reads the bytes and drops them once the accounts are out.
#pragma once

#include "interop/importers/Import.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QtQml/qqmlregistration.h>
#include <memory>
#include <vector>

namespace watchword {
class SecureBuffer;
}

namespace watchword::app {

class ImportSource : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the source is ImportController's")
    // The source's name as shown ("aegis.json", "Scanned QR code").
    Q_PROPERTY(QString name READ name NOTIFY changed)
    // The formats the source may be read as (their titles), guessed ones first.
    Q_PROPERTY(QStringList formatTitles READ formatTitles NOTIFY changed)
    // How many of formatTitles were guessed from the content.
    Q_PROPERTY(int guessedCount READ guessedCount NOTIFY changed)
    Q_PROPERTY(int formatIndex READ formatIndex WRITE setFormatIndex NOTIFY formatChanged)
    // The chosen format's file is encrypted: the dialog asks for its password.
    Q_PROPERTY(bool needsPassword READ needsPassword NOTIFY formatChanged)
    // Every format an import reads, as a sentence: "Google Authenticator,
    // Aegis, ..., Raivo OTP and otpauth:// URI list".
    Q_PROPERTY(QString knownFormats READ knownFormats CONSTANT)

public:
    explicit ImportSource(QObject* parent = nullptr);
    ~ImportSource() override;

    const QString& name() const { return m_name; }
    QStringList formatTitles() const;
    int guessedCount() const { return m_guessed; }
    int formatIndex() const { return m_formatIndex; }
    void setFormatIndex(int index);
    bool needsPassword() const;
    static QString knownFormats();

    // Takes data (not empty) as the source, guesses its formats and chooses
    // the likeliest.
    void load(std::unique_ptr<SecureBuffer> data, const QString& name,
              importers::CompanionFiles companions);
    // Forgets everything: bytes, name and formats.
    void clear();
    // The bytes are no longer needed (what was read holds the secrets now);
    // the name and formats stay on show.
    void dropData();

    // There are bytes to read.
    bool loaded() const { return m_data != nullptr; }
    // Some format recognised the content.
    bool recognised() const { return m_guessed > 0; }
    // What the content seems to be, for a message when nothing recognised
    // it ("JSON", "a ZIP archive ...").
    QString unrecognisedHint() const;
    importers::Format format() const { return m_formats[std::size_t(m_formatIndex)]; }
    // Shared with a read running on the pool, so that clear() does not pull
    // the bytes from under it.
    const std::shared_ptr<const SecureBuffer>& data() const { return m_data; }
    const importers::CompanionFiles& companions() const { return m_companions; }

signals:
    void changed();
    void formatChanged();
    // The user chose another format (not emitted by load() or clear()).
    void formatChosen();

private:
    QString m_name;
    std::shared_ptr<const SecureBuffer> m_data;
    importers::CompanionFiles m_companions;
    std::vector<importers::Format> m_formats; // guessed first, then the rest
    int m_guessed = 0;
    int m_formatIndex = 0;
};

} // namespace watchword::app
