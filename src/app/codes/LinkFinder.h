// What the add form does with what a QR scan found or what was dropped on
// it: fill the form from the one otpauth:// link, offer a choice of
// several, hand a Google transfer code (otpauth-migration://) to the import,
// read a dropped image, or say why nothing can be used. Decided here, so
// that the form only does what it is told.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

namespace watchword::app {

// One decision; in QML a value (linkAction).
struct LinkAction
{
    Q_GADGET
    QML_VALUE_TYPE(linkAction)
    // "fill": load link into the form; "choose": offer links; "import":
    // link is a transfer code for the import; "read": link is an image file
    // to scan; "explain": nothing usable, message says why.
    Q_PROPERTY(QString action MEMBER action)
    Q_PROPERTY(QString link MEMBER link)
    Q_PROPERTY(QStringList links MEMBER links)
    // What to tell the user (with "fill": once the form is filled).
    Q_PROPERTY(QString message MEMBER message)

public:
    QString action;
    QString link;
    QStringList links;
    QString message;
};

class LinkFinder : public QObject
{
    Q_OBJECT
    QML_ELEMENT

public:
    explicit LinkFinder(QObject* parent = nullptr);

    // The texts of the QR codes one scan found.
    Q_INVOKABLE watchword::app::LinkAction fromScan(const QStringList& texts) const;
    // A drop: text, or a URI list (links, or image files).
    Q_INVOKABLE watchword::app::LinkAction fromDrop(const QStringList& uris,
                                                    const QString& text) const;
    // True if text, trimmed, starts with "otpauth://" in any letter case: the
    // clipboard holds something the form should be offered.
    Q_INVOKABLE static bool looksLikeOtpauthUri(const QString& text);
    // "Issuer (account)" for an otpauth URI, to tell several scanned codes
    // apart without showing their secrets; empty if it does not parse.
    Q_INVOKABLE static QString describeUri(const QString& text);
};

} // namespace watchword::app
