// One OTP account as the add/edit form holds it: every field as typed, its
// error recomputed on each change, and the code the account would show now.
//
// The form edits text, so the draft keeps text where a number could not hold
// every value exactly: the secret is Base32 as typed (lower case, spaces,
// hyphens and missing padding are fine) and the HOTP counter is decimal text,
// since a JavaScript number loses integers above 2^53 and a counter may be any
// 64-bit value. Each field has its own error string (empty when the field is
// fine), so the view shows each under its field; `valid` is true when all are
// empty. The code the account would show now is the draft's `preview`
// (CodePreview), computed from a generator kept while the fields stay the
// same.
//
// Its QML members are the form's fields (the tags both as a list and as one
// line) plus six: the errors, valid, why a link could not be used, the
// preview, loadUri() and wipe().
//
// The secret text never leaves the draft except into the OtpAccount
// toAccount() fills: there is deliberately no way to write the draft back as
// an otpauth URI. A replaced or cleared secret is overwritten first (only the
// draft's own copy: a text field keeps its own).
#pragma once

#include "app/codes/CodePreview.h"
#include "base/Result.h"
#include "otp/OtpGenerator.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QtQml/qqmlregistration.h>
#include <cstdint>
#include <optional>

namespace watchword::vault {
struct OtpAccount;
}

namespace watchword::app {

// Each field's problem in the add/edit form, "" where there is none; in QML
// a value (accountFieldErrors).
struct AccountFieldErrors
{
    Q_GADGET
    QML_VALUE_TYPE(accountFieldErrors)
    Q_PROPERTY(QString issuer MEMBER issuer)
    Q_PROPERTY(QString accountName MEMBER accountName)
    Q_PROPERTY(QString secret MEMBER secret)
    Q_PROPERTY(QString kind MEMBER kind)
    Q_PROPERTY(QString algorithm MEMBER algorithm)
    Q_PROPERTY(QString digits MEMBER digits)
    Q_PROPERTY(QString period MEMBER period)
    Q_PROPERTY(QString counter MEMBER counter)
    Q_PROPERTY(QString tags MEMBER tags)
    Q_PROPERTY(QString note MEMBER note)

public:
    QString issuer, accountName, secret, kind, algorithm, digits, period, counter, tags, note;
    bool operator==(const AccountFieldErrors&) const = default;
    bool any() const;
    // The first field's problem in form order, or "".
    QString first() const;
};

class AccountDraft : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString recordId READ recordId NOTIFY recordIdChanged)
    Q_PROPERTY(QString issuer READ issuer WRITE setIssuer NOTIFY issuerChanged)
    Q_PROPERTY(QString accountName READ accountName WRITE setAccountName NOTIFY accountNameChanged)
    Q_PROPERTY(QString secret READ secret WRITE setSecret NOTIFY secretChanged)
    Q_PROPERTY(QString kind READ kind WRITE setKind NOTIFY kindChanged)
    Q_PROPERTY(QString algorithm READ algorithm WRITE setAlgorithm NOTIFY algorithmChanged)
    Q_PROPERTY(int digits READ digits WRITE setDigits NOTIFY digitsChanged)
    Q_PROPERTY(qint64 period READ period WRITE setPeriod NOTIFY periodChanged)
    Q_PROPERTY(QString counter READ counter WRITE setCounter NOTIFY counterChanged)
    Q_PROPERTY(QStringList tags READ tags WRITE setTags NOTIFY tagsChanged)
    // The tags as one comma-separated line, for a single text field.
    Q_PROPERTY(QString tagsText READ tagsText WRITE setTagsText NOTIFY tagsChanged)
    Q_PROPERTY(QString note READ note WRITE setNote NOTIFY noteChanged)

    // What is wrong with each field ("" where nothing is), for the form to
    // show under it: errors.issuer, errors.secret, ...
    Q_PROPERTY(watchword::app::AccountFieldErrors errors READ errors NOTIFY errorsChanged)
    Q_PROPERTY(bool valid READ valid NOTIFY errorsChanged)
    // Why the last loadUri() failed; empty after a successful one.
    Q_PROPERTY(QString uriError READ uriError NOTIFY uriErrorChanged)

    // The code the account would show now (empty while not valid).
    Q_PROPERTY(watchword::app::CodePreview* preview READ preview CONSTANT)

public:
    explicit AccountDraft(QObject* parent = nullptr);
    ~AccountDraft() override;

    const QString& recordId() const { return m_recordId; }
    const QString& issuer() const { return m_issuer; }
    const QString& accountName() const { return m_accountName; }
    const QString& secret() const { return m_secret; }
    const QString& kind() const { return m_kind; }
    const QString& algorithm() const { return m_algorithm; }
    int digits() const { return m_digits; }
    qint64 period() const { return m_period; }
    const QString& counter() const { return m_counter; }
    const QStringList& tags() const { return m_tags; }
    QString tagsText() const;
    const QString& note() const { return m_note; }

    void setIssuer(const QString& issuer);
    void setAccountName(const QString& accountName);
    void setSecret(const QString& secret);
    // Steam Guard has fixed parameters: choosing it sets SHA1, 5 symbols and
    // 30 s; leaving it restores the default 6 digits.
    void setKind(const QString& kind);
    void setAlgorithm(const QString& algorithm);
    void setDigits(int digits);
    void setPeriod(qint64 period);
    void setCounter(const QString& counter);
    void setTags(const QStringList& tags);
    // Splits on commas and drops surrounding spaces and empty entries.
    void setTagsText(const QString& text);
    void setNote(const QString& note);

    const AccountFieldErrors& errors() const { return m_errors; }
    bool valid() const { return m_generator.has_value(); }
    const QString& uriError() const { return m_uriError; }

    CodePreview* preview() { return &m_preview; }

    // Fills every field the URI carries (all but tags and note, which stay
    // as they are) from an otpauth:// URI. On failure sets uriError to the
    // parser's message and changes nothing else. The caller's string is
    // wiped: it holds the secret.
    Q_INVOKABLE bool loadUri(QString uri);

    // The account the fields describe: issuer, account name, secret,
    // parameters, tags and note (id, version, timestamps, icon and sort
    // position are the caller's), checked by vault::validateRecord; or
    // what is wrong, out left as it was.
    Result<void, QString> toAccount(vault::OtpAccount& out) const;
    // Fills every field from a stored account, for editing it.
    void loadAccount(const vault::OtpAccount& account);
    // Overwrites the secret text and resets every field (and the record id).
    Q_INVOKABLE void wipe();

signals:
    void recordIdChanged();
    void issuerChanged();
    void accountNameChanged();
    void secretChanged();
    void kindChanged();
    void algorithmChanged();
    void digitsChanged();
    void periodChanged();
    void counterChanged();
    void tagsChanged();
    void noteChanged();
    void errorsChanged();
    void uriErrorChanged();

private:
    // Sets several fields with one revalidation at the end rather than one
    // per field (each a Base32 decode and an HMAC key preparation).
    struct Batch
    {
        explicit Batch(AccountDraft& owner) : draft(owner) { draft.m_batching = true; }
        ~Batch()
        {
            draft.m_batching = false;
            draft.revalidate();
        }
        Batch(const Batch&) = delete;
        Batch& operator=(const Batch&) = delete;
        AccountDraft& draft;
    };

    // Recomputes every error and the generator, then the preview (not while
    // a Batch is open).
    void revalidate();
    void setUriError(const QString& error);
    // Resets every field without signalling (destruction).
    void clearFields();

    QString m_recordId;
    QString m_issuer;
    QString m_accountName;
    QString m_secret;
    QString m_kind;
    QString m_algorithm;
    int m_digits;
    qint64 m_period;
    QString m_counter;
    QStringList m_tags;
    QString m_note;
    AccountFieldErrors m_errors;
    bool m_batching = false;
    QString m_uriError;
    // Prepared from the fields while they are valid; the preview follows it.
    std::optional<otp::OtpGenerator> m_generator;
    CodePreview m_preview{this};
};

} // namespace watchword::app
