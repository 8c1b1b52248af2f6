#pragma once

// Where the file picker starts and how it reads what a person types: the
// home folder, the folder last used, a typed name, "~/name" or an absolute
// path resolved against the folder shown. The path rules live here, not in
// QML.

#include <QObject>
#include <QString>
#include <QUrl>
#include <QtQml/qqmlregistration.h>

namespace watchword::app {

class Places : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON

public:
    explicit Places(QObject* parent = nullptr);

    // $HOME (the user's home folder), as a file URL.
    Q_INVOKABLE static QUrl home();
    // The folder a picker opens in: the last one a file was chosen in during
    // this run, else home.
    Q_INVOKABLE QUrl startFolder() const;
    // Remembered for this run only (never written to the settings).
    Q_INVOKABLE void remember(const QUrl& file);
    // The folder above folder, or folder itself at the root.
    Q_INVOKABLE static QUrl parentOf(const QUrl& folder);
    Q_INVOKABLE static bool isFolder(const QUrl& url);
    Q_INVOKABLE static bool exists(const QUrl& url);
    // What was typed in the name field, in folder: a plain name, "~/…", or
    // an absolute path. An empty URL if typed is empty or names a folder.
    Q_INVOKABLE static QUrl resolve(const QUrl& folder, const QString& typed);
    // The path shown to a person (home as "~").
    Q_INVOKABLE static QString displayPath(const QUrl& folder);
    // The glob patterns of a filter such as "Images (*.png *.jpg)"; "*" if
    // it has none.
    Q_INVOKABLE static QStringList patterns(const QString& filter);

private:
    QUrl m_last;
};

} // namespace watchword::app
