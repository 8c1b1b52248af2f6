// An account's otpauth:// URI, Google Authenticator transfer URIs, or the
// vault's sharing identity, drawn as QR codes for a phone or camera to scan. Each URI is encoded
// (core qr, libqrencode) as soon as it is made and then wiped; only the module matrices are kept,
// in wiped buffers, and drawn on every paint into an image that is wiped
// once painted: nothing is cached by an image provider. The code is drawn
// only while revealed (the view's click-to-reveal), as solid squares of a
// whole number of pixels per module with the 4-module quiet zone, without
// smoothing, so that a camera reads it at any size. clear(), and the
// vault locking, drop the matrices.
#pragma once

#include "app/vault/VaultController.h"
#include "qr/QrCode.h"

#include <QImage>
#include <QPointer>
#include <QQuickPaintedItem>
#include <QString>
#include <QStringList>
#include <QtQml/qqmlregistration.h>
#include <string_view>
#include <vector>

namespace watchword::app {

// The matrix with its quiet zone, scale pixels per module, black on white.
[[nodiscard]] QImage renderQrMatrix(const qr::QrMatrix& matrix, int scale);

class QrCodeItem : public QQuickPaintedItem
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(watchword::app::VaultController* vault READ vault WRITE setVault NOTIFY vaultChanged)
    Q_PROPERTY(bool revealed READ revealed WRITE setRevealed NOTIFY revealedChanged)
    Q_PROPERTY(int count READ count NOTIFY codesChanged)
    Q_PROPERTY(int index READ index WRITE setIndex NOTIFY indexChanged)
    // Modules across, quiet zone included (0 without a code).
    Q_PROPERTY(int moduleCount READ moduleCount NOTIFY indexChanged)
    Q_PROPERTY(QString error READ error NOTIFY codesChanged)
    Q_PROPERTY(QStringList warnings READ warnings NOTIFY codesChanged)

public:
    explicit QrCodeItem(QQuickItem* parent = nullptr);
    ~QrCodeItem() override;

    VaultController* vault() const { return m_vault; }
    void setVault(VaultController* vault);
    bool revealed() const { return m_revealed; }
    void setRevealed(bool revealed);
    int count() const { return int(m_codes.size()); }
    int index() const { return m_index; }
    void setIndex(int index);
    int moduleCount() const;
    const QString& error() const { return m_error; }
    const QStringList& warnings() const { return m_warnings; }

    // The account's otpauth:// URI as one code. False, with error, if the
    // vault has no such account or it cannot be encoded.
    Q_INVOKABLE bool showAccount(const QString& recordId);
    // Google Authenticator transfer codes for these accounts (every account
    // if none given), one after another by index.
    Q_INVOKABLE bool showMigration(const QStringList& recordIds);
    // Public text (a sharing identity, docs/FORMAT.md section 11) as one
    // code. It holds no secret: the view may show it revealed at once.
    Q_INVOKABLE bool showText(const QString& text);
    // Drops every code and hides.
    Q_INVOKABLE void clear();

    // The pixels per module the item's size allows (at least 1).
    int scale() const;
    // The current code as painted at scale (null without a code): for tests.
    QImage currentImage(int scale) const;

    void paint(QPainter* painter) override;

signals:
    void vaultChanged();
    void revealedChanged();
    void codesChanged();
    void indexChanged();

private:
    void setCodes(std::vector<qr::QrMatrix> codes, QStringList warnings, QString error);
    // text as the one code shown; false, with error, if it does not encode.
    bool showOne(std::string_view text);

    VaultController* m_vault = nullptr; // not owned; null when destroyed
    bool m_revealed = false;
    std::vector<qr::QrMatrix> m_codes;
    int m_index = 0;
    QString m_error;
    QStringList m_warnings;
};

} // namespace watchword::app
