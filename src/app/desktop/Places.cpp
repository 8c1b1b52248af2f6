#include "app/desktop/Places.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace watchword::app {

Places::Places(QObject* parent) : QObject(parent) {}

QUrl Places::home()
{
    return QUrl::fromLocalFile(QDir::homePath());
}

QUrl Places::startFolder() const
{
    if (m_last.isValid() && isFolder(m_last))
        return m_last;
    return home();
}

void Places::remember(const QUrl& file)
{
    if (!file.isLocalFile())
        return;
    const QFileInfo info(file.toLocalFile());
    m_last = QUrl::fromLocalFile(info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

QUrl Places::parentOf(const QUrl& folder)
{
    QDir dir(folder.toLocalFile());
    if (!dir.cdUp())
        return folder;
    return QUrl::fromLocalFile(dir.absolutePath());
}

bool Places::isFolder(const QUrl& url)
{
    return url.isLocalFile() && QFileInfo(url.toLocalFile()).isDir();
}

bool Places::exists(const QUrl& url)
{
    return url.isLocalFile() && QFileInfo::exists(url.toLocalFile());
}

QUrl Places::resolve(const QUrl& folder, const QString& typed)
{
    QString name = typed.trimmed();
    if (name.isEmpty())
        return {};
    if (name == QLatin1String("~") || name.startsWith(QLatin1String("~/")))
        name = QDir::homePath() + name.mid(1);
    const QString path = QFileInfo(name).isAbsolute()
                             ? QDir::cleanPath(name)
                             : QDir::cleanPath(QDir(folder.toLocalFile()).filePath(name));
    if (path.endsWith(QLatin1Char('/')) || QFileInfo(path).isDir())
        return {};
    return QUrl::fromLocalFile(path);
}

QString Places::displayPath(const QUrl& folder)
{
    const QString path = folder.toLocalFile();
    const QString homePath = QDir::homePath();
    if (path == homePath)
        return QStringLiteral("~");
    if (path.startsWith(homePath + QLatin1Char('/')))
        return QLatin1Char('~') + path.mid(homePath.size());
    return path;
}

QStringList Places::patterns(const QString& filter)
{
    static const QRegularExpression inParentheses(QStringLiteral("\\(([^)]*)\\)"));
    const auto match = inParentheses.match(filter);
    const QString list = match.hasMatch() ? match.captured(1) : filter;
    QStringList result = list.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (result.isEmpty())
        result << QStringLiteral("*");
    return result;
}

} // namespace watchword::app
