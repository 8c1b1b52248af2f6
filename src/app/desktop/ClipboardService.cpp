#include "app/desktop/ClipboardService.h"

#include "app/codes/LinkFinder.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QMimeData>

namespace watchword::app {

ClipboardService::ClipboardService(QObject* parent) : QObject(parent)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(m_clearSeconds * 1000);
    connect(&m_timer, &QTimer::timeout, this, &ClipboardService::clearNow);
    // Someone else's copy: the clipboard is theirs now, nothing to clear.
    connect(QGuiApplication::clipboard(), &QClipboard::dataChanged, this, [this] {
        if (!m_copied.isEmpty() && QGuiApplication::clipboard()->text() != m_copied)
            forget();
    });
}

ClipboardService::~ClipboardService()
{
    // Quitting with a code on the clipboard: take it back.
    clearNow();
}

void ClipboardService::setClearSeconds(int seconds)
{
    seconds = std::max(0, seconds);
    if (seconds == m_clearSeconds)
        return;
    m_clearSeconds = seconds;
    m_timer.setInterval(seconds * 1000);
    emit clearSecondsChanged();
}

void ClipboardService::setClearMilliseconds(int milliseconds)
{
    m_timer.setInterval(std::max(0, milliseconds));
}

void ClipboardService::copy(const QString& text)
{
    auto* data = new QMimeData;
    data->setText(text);
    data->setData(QStringLiteral("x-kde-passwordManagerHint"), QByteArrayLiteral("secret"));
    m_copied = text;
    QGuiApplication::clipboard()->setMimeData(data, QClipboard::Clipboard);
    if (m_timer.interval() > 0)
        m_timer.start();
    emit holdingSecretChanged();
    emit copied();
}

void ClipboardService::clearNow()
{
    if (m_copied.isEmpty())
        return;
    const QString ours = m_copied;
    forget();
    auto* clipboard = QGuiApplication::clipboard();
    if (clipboard->text() == ours) {
        clipboard->clear(QClipboard::Clipboard);
        emit cleared();
    }
}

void ClipboardService::forget()
{
    m_timer.stop();
    if (m_copied.isEmpty())
        return;
    m_copied.clear();
    emit holdingSecretChanged();
}

QString ClipboardService::otpauthLink() const
{
    const QString text = QGuiApplication::clipboard()->text(QClipboard::Clipboard);
    return LinkFinder::looksLikeOtpauthUri(text) ? text.trimmed() : QString();
}

} // namespace watchword::app
