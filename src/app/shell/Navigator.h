// Where the window goes, asked from C++ in types rather than by calling QML
// functions by name: the command line's --page, --diagnostics-run and
// --diagnostics-export, a link to add from another launch, a request to
// come to the front. The window (Main.qml) listens to the signals, does the
// steps a person would, and answers the request it was handed.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <QtQml/qqmlregistration.h>
#include <optional>

namespace watchword::app {

class VaultController;

class Navigator : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the navigator is made by the app shell")

public:
    // The pages and dialogs --page shows, as a person gets there.
    enum class Page {
        Codes,
        Add,
        Notes,
        Settings,
        Diagnostics,
        Watch,
        Contacts,
        WatchDevice, // argument: the device id; an export opened on that watch
        ImportPreview,
        Export,
        Qr,
        QrTransfer,
        Share,   // an account sealed to a contact, the share made
        Receive, // the demo share's preview
        Unlock,
        FirstRun,
        Recovery,
        RecoveryConfirm,
    };
    Q_ENUM(Page)

    struct Request
    {
        Page page = Page::Codes;
        QString argument;
    };

    explicit Navigator(VaultController* vault, QObject* parent = nullptr);

    // "codes", "add", …, "watch-<device id>"; nullopt for any other name.
    static std::optional<Request> parsePage(const QString& name);
    // Every name parsePage knows (a device's page as "watch-<device>").
    static QStringList pageNames();

    // Each asks the window and returns its answer: false when the vault's
    // state does not offer the page, the window did not answer, or the step
    // failed (no benchmark matched, the report could not be written).
    bool showPage(const Request& request);
    bool runDiagnostics(const QString& filter);
    bool exportDiagnostics(const QUrl& file);

    // Without an answer.
    void openAddDialog(const QString& uri);
    void raiseWindow();

    // The window's answer to the request it is handling.
    Q_INVOKABLE void answer(bool done);

signals:
    void pageRequested(watchword::app::Navigator::Page page, const QString& argument);
    void diagnosticsRunRequested(const QString& filter);
    void diagnosticsExportRequested(const QUrl& file);
    void addRequested(const QString& uri);
    void raiseRequested();

private:
    template <typename Emit> bool ask(Emit emitRequest);

    VaultController* m_vault;
    bool m_answer = false;
};

} // namespace watchword::app
