// The export the simulated watch loads: made here from the vault's accounts
// under a watch PIN (watch::writeExport, the count calibrated for the chosen
// watch at the costs' unlock target), or opened from a file; saved to one.
// It is held in memory as the payload text a watch would load
// (docs/FORMAT.md section 8); only its header is read here, the watch opens
// the rest.
#pragma once

#include "app/watch/WatchValues.h"
#include "watch/WatchExport.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <QtQml/qqmlregistration.h>
#include <cstddef>
#include <optional>
#include <string>

namespace watchword::app {

class AccountListModel;
class WatchSimulator;

class WatchExportFile : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the watch export belongs to a WatchSimulator")
    // Whether one is loaded, and what it holds (default-made if none is).
    Q_PROPERTY(bool loaded READ loaded NOTIFY exportChanged)
    Q_PROPERTY(watchword::app::WatchExportInfo info READ info NOTIFY exportChanged)
    // The vault's OTP accounts to choose from, in the vault's order.
    Q_PROPERTY(QList<watchword::app::WatchExportChoice> choices READ choices NOTIFY choicesChanged)

public:
    // Follows the simulator's accounts list and chosen watch.
    explicit WatchExportFile(WatchSimulator& simulator);

    bool loaded() const { return m_payload.has_value(); }
    WatchExportInfo info() const;
    QList<WatchExportChoice> choices() const;

    // Makes an export of the chosen accounts (record ids) sealed under pin
    // and loads it into the simulated watch (its PIN screen). False with the
    // simulator's error set if no watch is chosen, the PIN is not 4 to 12
    // digits, the two differ, no account is chosen, or the vault is not
    // unlocked.
    Q_INVOKABLE bool create(const QStringList& recordIds, const QString& pin,
                            const QString& repeat);
    // Writes the loaded payload to a file (mode 0600; replaces only with
    // replace true), or reads one and loads it. A failed read keeps what was
    // loaded; a failed write leaves the file as it was.
    Q_INVOKABLE bool save(const QUrl& file, bool replace);
    Q_INVOKABLE bool open(const QUrl& file);

    // For the costs and the watch: the payload (null if none is loaded), its
    // header, and how many accounts it holds.
    const std::string* payload() const { return m_payload ? &*m_payload : nullptr; }
    const watch::ExportHeader* header() const { return m_header ? &*m_header : nullptr; }
    std::size_t accountCount() const { return m_accounts; }

signals:
    void exportChanged();
    void choicesChanged();
    // Another payload was loaded, or none is: what the watch opened goes.
    void payloadChanged();

private:
    // Loads a payload, or keeps what was loaded and sets the error.
    bool load(std::string payload, bool fromFile);
    // Listens to the simulator's accounts list (a new one replaces the old).
    void followAccounts();

    WatchSimulator& m_simulator;
    // The accounts list followed, the one choices come from.
    QPointer<AccountListModel> m_choices;
    std::optional<std::string> m_payload;
    bool m_fromFile = false;
    std::optional<watch::ExportHeader> m_header;
    std::size_t m_accounts = 0;
};

} // namespace watchword::app
