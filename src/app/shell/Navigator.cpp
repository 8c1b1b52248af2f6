#include "app/shell/Navigator.h"

#include "app/vault/VaultController.h"

#include <array>
#include <utility>

namespace watchword::app {

namespace {

using Page = Navigator::Page;

struct PageName
{
    const char* name;
    Page page;
};

constexpr std::array<PageName, 17> pageTable{{
    {"codes", Page::Codes},
    {"add", Page::Add},
    {"notes", Page::Notes},
    {"settings", Page::Settings},
    {"diagnostics", Page::Diagnostics},
    {"watch", Page::Watch},
    {"contacts", Page::Contacts},
    {"import-preview", Page::ImportPreview},
    {"export", Page::Export},
    {"qr", Page::Qr},
    {"qr-transfer", Page::QrTransfer},
    {"share", Page::Share},
    {"receive", Page::Receive},
    {"unlock", Page::Unlock},
    {"first-run", Page::FirstRun},
    {"recovery", Page::Recovery},
    {"recovery-confirm", Page::RecoveryConfirm},
}};

const QString watchPrefix = QStringLiteral("watch-");

// The pages that show what an unlocked vault holds.
bool needsUnlockedVault(Page page)
{
    switch (page) {
    case Page::Codes:
    case Page::Add:
    case Page::Notes:
    case Page::Contacts:
    case Page::WatchDevice:
    case Page::ImportPreview:
    case Page::Export:
    case Page::Qr:
    case Page::QrTransfer:
    case Page::Share:
    case Page::Receive:
        return true;
    default:
        return false;
    }
}

} // namespace

Navigator::Navigator(VaultController* vault, QObject* parent) : QObject(parent), m_vault(vault) {}

std::optional<Navigator::Request> Navigator::parsePage(const QString& name)
{
    if (name.startsWith(watchPrefix) && name.size() > watchPrefix.size())
        return Request{Page::WatchDevice, name.mid(watchPrefix.size())};
    for (const auto& entry : pageTable)
        if (name == QLatin1String(entry.name))
            return Request{entry.page, QString()};
    return std::nullopt;
}

QStringList Navigator::pageNames()
{
    QStringList names;
    for (const auto& entry : pageTable)
        names << QString::fromLatin1(entry.name);
    names << watchPrefix + QStringLiteral("<device>");
    return names;
}

template <typename Emit> bool Navigator::ask(Emit emitRequest)
{
    // The window answers from its handler, which runs inside the emit (the
    // window lives on this thread): no answer is a refusal.
    m_answer = false;
    emitRequest();
    return std::exchange(m_answer, false);
}

bool Navigator::showPage(const Request& request)
{
    const auto state = m_vault->state();
    if (needsUnlockedVault(request.page) && state != VaultController::State::Unlocked)
        return false;
    switch (request.page) {
    case Page::FirstRun:
        // The first-run page is what a missing vault shows: nothing to do.
        return state == VaultController::State::Missing;
    case Page::Recovery:
    case Page::RecoveryConfirm:
        if (state != VaultController::State::Missing)
            return false;
        break;
    default:
        break;
    }
    return ask([&] { emit pageRequested(request.page, request.argument); });
}

bool Navigator::runDiagnostics(const QString& filter)
{
    return ask([&] { emit diagnosticsRunRequested(filter); });
}

bool Navigator::exportDiagnostics(const QUrl& file)
{
    return ask([&] { emit diagnosticsExportRequested(file); });
}

void Navigator::openAddDialog(const QString& uri)
{
    emit addRequested(uri);
}

void Navigator::raiseWindow()
{
    emit raiseRequested();
}

void Navigator::answer(bool done)
{
    m_answer = done;
}

} // namespace watchword::app
