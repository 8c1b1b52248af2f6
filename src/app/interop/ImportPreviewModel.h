// The preview of an import, one row per account the file holds: its issuer,
// account name, kind, whether the vault already has it (importers::
// ImportMatch) and whether it is ticked for adding. Duplicates start
// unticked. After the accounts, one row per entry that cannot be imported
// (importers::SkippedEntry): never ticked, saying why. No secret is ever in
// the model. Beside the rows: what the file said of what it could not keep
// (warnings) and the one-line summary above the list.
#pragma once

#include <QAbstractListModel>
#include <QString>
#include <QStringList>
#include <QtQml/qqmlregistration.h>
#include <cstddef>
#include <vector>

namespace watchword::importers {
struct Imported;
struct PlannedAccount;
} // namespace watchword::importers

namespace watchword::app {

class ImportPreviewModel : public QAbstractListModel
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the preview is made by ImportController")
    Q_PROPERTY(int count READ count NOTIFY countChanged)
    Q_PROPERTY(int checkedCount READ checkedCount NOTIFY checkedCountChanged)
    Q_PROPERTY(int unsupportedCount READ unsupportedCount NOTIFY countChanged)
    // "7 accounts in the file, 5 ticked, 1 entry that cannot be imported
    // (left out)".
    Q_PROPERTY(QString summary READ summary NOTIFY checkedCountChanged)
    // What the file said of what it could not keep as it was, in order.
    Q_PROPERTY(QStringList warnings READ warnings NOTIFY countChanged)

public:
    enum Role {
        IssuerRole = Qt::UserRole + 1,
        AccountNameRole,
        KindRole,      // "TOTP", "HOTP", "Steam"
        MatchRole,     // "new", "duplicate", "same-name", "unsupported"
        MatchTextRole, // what the preview says of it
        CheckedRole,
        TagsRole,
        ImportableRole, // false for an entry that cannot be imported
    };
    Q_ENUM(Role)

    struct Row
    {
        QString issuer;
        QString accountName;
        QString kind;
        QString match;
        QString matchText;
        bool checked = true;
        QStringList tags;
        bool importable = true; // false: after every importable row, never checked
    };

    explicit ImportPreviewModel(QObject* parent = nullptr);

    // One row per planned account (the plan's order), then one per entry
    // that was skipped, and the file's warnings.
    void show(const importers::Imported& imported,
              const std::vector<importers::PlannedAccount>& plan);
    void clear();
    int count() const { return int(m_rows.size()); }
    int checkedCount() const;
    int unsupportedCount() const;
    QString summary() const;
    const QStringList& warnings() const { return m_warnings; }
    // The rows ticked, in order (indexes into the import's accounts).
    std::vector<std::size_t> checkedRows() const;

    Q_INVOKABLE void setChecked(int row, bool checked);
    Q_INVOKABLE void setAllChecked(bool checked);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QHash<int, QByteArray> roleNames() const override;

signals:
    void countChanged();
    void checkedCountChanged();

private:
    void setRows(std::vector<Row> rows, QStringList warnings);

    std::vector<Row> m_rows;
    QStringList m_warnings;
};

} // namespace watchword::app
