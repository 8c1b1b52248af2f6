// The accounts of an unlocked vault as a list model for QML: one row per OTP
// account with its live code.
//
// Codes are cached per row and recomputed only when their period rolls over:
// tick(now) compares each row's expiry with the clock and touches only the
// rows whose code changed or whose "next code" appears. So a tick over 1,000
// accounts costs 1,000 integer comparisons plus the few rows that rolled over.
// The countdown itself is not a role that changes every second: a row exposes
// when its code expires (ValidUntilRole) and the view draws the ring from the
// clock, so no row is signalled just because a second passed.
//
// HOTP rows show the code of the stored counter; they change only when the
// counter is advanced (a vault operation).
#pragma once

#include "app/codes/IssuerIcons.h"
#include "otp/OtpGenerator.h"

#include <QAbstractListModel>
#include <QColor>
#include <QStringList>
#include <QtQml/qqmlregistration.h>
#include <cstdint>
#include <string>
#include <vector>

namespace watchword::app {

// "123 456": a code split into groups for reading aloud or typing; groups of
// three, except 8 digits as 4 + 4, 10 as 5 + 5, and a 7-digit code as 3 + 4.
// Steam codes (5 symbols) and anything under 6 characters stay whole.
[[nodiscard]] QString groupCode(const QString& code);

// "GitHub (alice)", "GitHub", "alice": how an account is named in messages
// and lists.
[[nodiscard]] QString accountTitle(const QString& issuer, const QString& accountName);

// UTF-8 strings from the core as a QStringList.
[[nodiscard]] QStringList toQStringList(const std::vector<std::string>& strings);

// One account as the model shows it: what the vault record holds, with its
// generator prepared (the secret itself is not kept here).
struct AccountEntry
{
    QByteArray id; // the record id, hex
    QString issuer;
    QString accountName;
    QStringList tags;
    otp::OtpGenerator generator;
    std::int64_t lastUsed = 0; // Unix seconds of the last copy; 0: never
    std::uint32_t sortPosition = 0;
};

class AccountListModel : public QAbstractListModel
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("accounts come from the unlocked vault")
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
    Q_PROPERTY(int nextCodeSeconds READ nextCodeSeconds CONSTANT)
    // Every tag of every account, sorted, each once: the tag filter's choices.
    Q_PROPERTY(QStringList allTags READ allTags NOTIFY allTagsChanged)

public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        IssuerRole,
        AccountNameRole,
        TagsRole,
        KindRole,       // "totp", "hotp", "steam"
        CodeRole,       // grouped for reading: "123 456"
        PlainCodeRole,  // as typed or pasted: "123456"
        NextCodeRole,   // grouped; empty until the last nextCodeSeconds of a period
        PeriodRole,     // seconds; 0 for HOTP
        ValidUntilRole, // Unix seconds when the code expires; 0 for HOTP
        LastUsedRole,   // Unix seconds of the last copy; 0: never
        SortPositionRole,
        IconPathRole,        // the issuer's icon (SVG path, 24 x 24), or empty
        IconColourRole,      // its brand colour, or the lettered icon's
        IconGlyphColourRole, // the colour drawn on IconColourRole
        MonogramRole,        // the lettered icon's letter
        DisplayTitleRole,    // "ACME (alice)": vault::displayTitle
    };

    // The next code is shown during the last this-many seconds of a period:
    // long enough to read it, short enough not to be typed too early.
    static constexpr int defaultNextCodeSeconds = 5;

    explicit AccountListModel(QObject* parent = nullptr);
    ~AccountListModel() override;

    // Replaces every row and computes every code at unixSeconds.
    void setAccounts(std::vector<AccountEntry> accounts, std::int64_t unixSeconds);
    // Drops every row (locking).
    void clear();
    // Replaces the row with account's id, or appends one; its code is
    // computed at unixSeconds.
    void upsert(AccountEntry account, std::int64_t unixSeconds);
    // Drops the row with that record id (hex), if any.
    void remove(const QByteArray& recordId);
    void setLastUsed(const QByteArray& recordId, std::int64_t unixSeconds);
    void setSortPosition(const QByteArray& recordId, std::uint32_t position);

    // Brings the codes up to unixSeconds: rows whose code expired get the new
    // one (the next code already shown, when there was one), rows entering
    // their last nextCodeSeconds get the next one; only those rows are
    // signalled. Returns how many codes it had to compute (HMACs).
    int tick(std::int64_t unixSeconds);

    int nextCodeSeconds() const { return defaultNextCodeSeconds; }
    const QStringList& allTags() const { return m_allTags; }

    // The plain current code of the account with that record id (hex), or
    // an empty string.
    QString plainCode(const QByteArray& recordId) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

signals:
    void countChanged();
    void allTagsChanged();

private:
    struct Row
    {
        AccountEntry account;
        QString code;     // plain
        QString nextCode; // plain; empty when not shown
        std::int64_t validUntil = 0;
        // The issuer's icon (null: none) and the lettered one, found once
        // per row, not at every read of a role.
        const IssuerIcons::Icon* icon = nullptr;
        QString title; // vault::displayTitle, for DisplayTitleRole and the monogram
        QString monogram;
        QColor monogramColour;
    };

    // A row for account, its code computed at unixSeconds.
    Row makeRow(AccountEntry account, std::int64_t unixSeconds) const;

    // The row of recordId, or -1.
    int rowOf(const QByteArray& recordId) const;
    // Brings one row up to unixSeconds (see tick()); true if it changed.
    // computed counts the HMACs.
    bool advance(Row& row, std::int64_t unixSeconds, int& computed) const;
    // Recomputes row's code (and next code) for unixSeconds.
    void refresh(Row& row, std::int64_t unixSeconds) const;

    void updateAllTags();

    std::vector<Row> m_rows;
    QStringList m_allTags;
};

} // namespace watchword::app
