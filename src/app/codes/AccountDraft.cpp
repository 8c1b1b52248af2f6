#include "app/codes/AccountDraft.h"

#include "app/codes/AccountListModel.h"
#include "base/SecureBuffer.h"
#include "crypto/Hash.h"
#include "encoding/Base32.h"
#include "encoding/Hex.h"
#include "otp/OtpauthUri.h"
#include "text/SecretText.h"
#include "vault/Records.h"

#include <QByteArray>
#include <charconv>
#include <cmath>
#include <limits>
#include <utility>

namespace watchword::app {

namespace {

const QString totpName = QStringLiteral("totp");
const QString hotpName = QStringLiteral("hotp");
const QString steamName = QStringLiteral("steam");

// What vault records accept as text: UTF-8 without NUL. A QString becomes
// UTF-8 unless it holds a lone surrogate, which toUtf8() would replace.
QString textError(const QString& text, const QString& what)
{
    if (text.contains(QChar(u'\0')))
        return AccountDraft::tr("%1 cannot contain a NUL character.").arg(what);
    if (!QStringView(text).isValidUtf16())
        return AccountDraft::tr("%1 contains an incomplete character.").arg(what);
    return {};
}

// The secret's Base32 text as bytes for the decoder, whitespace of any kind
// turned into the spaces the decoder skips, so that its byte positions are
// character positions here too.
Result<SecureBuffer, QString> secretAscii(const QString& text)
{
    SecureBuffer ascii(static_cast<std::size_t>(text.size()));
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c.isSpace()) {
            ascii[static_cast<std::size_t>(i)] = ' ';
        } else if (c.unicode() > 0x20 && c.unicode() < 0x7f) {
            ascii[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(c.unicode());
        } else {
            return fail(AccountDraft::tr("The secret can only hold the letters A to Z, the digits "
                                         "2 to 7, spaces and hyphens (character %1 is not one).")
                            .arg(i + 1));
        }
    }
    return ascii;
}

// The decoded secret, or why there is none.
Result<SecureBuffer, QString> decodeSecret(const QString& text)
{
    if (text.trimmed().isEmpty())
        return fail(AccountDraft::tr("Enter the secret key (Base32, as the service shows it)."));
    const auto ascii = secretAscii(text);
    if (!ascii)
        return ascii.failure();
    auto decoded = encoding::fromBase32(ascii->view());
    if (!decoded)
        return fail(AccountDraft::tr("The secret is not Base32: %1.")
                        .arg(QString::fromStdString(decoded.error().message)));
    if (decoded->empty())
        return fail(AccountDraft::tr("The secret has no key bytes."));
    if (decoded->size() > vault::maximumSecretSize)
        return fail(AccountDraft::tr("The secret is %1 bytes long; at most %2 can be stored.")
                        .arg(decoded->size())
                        .arg(vault::maximumSecretSize));
    return std::move(*decoded);
}

std::optional<otp::OtpKind> parseKind(const QString& kind)
{
    if (kind == totpName)
        return otp::OtpKind::Totp;
    if (kind == hotpName)
        return otp::OtpKind::Hotp;
    if (kind == steamName)
        return otp::OtpKind::Steam;
    return std::nullopt;
}

// A whole decimal number 0..2^64-1, digits only (no sign, no spaces).
std::optional<std::uint64_t> parseCounter(const QString& text)
{
    const QByteArray latin = text.toLatin1();
    if (latin.isEmpty())
        return std::nullopt;
    for (const char c : latin)
        if (c < '0' || c > '9')
            return std::nullopt;
    std::uint64_t value = 0;
    const auto [end, status] = std::from_chars(latin.cbegin(), latin.cend(), value);
    if (status != std::errc() || end != latin.cend())
        return std::nullopt;
    return value;
}

QStringList splitTags(const QString& text)
{
    QStringList tags;
    for (const auto& part : text.split(QLatin1Char(',')))
        if (const QString tag = part.trimmed(); !tag.isEmpty())
            tags << tag;
    return tags;
}

} // namespace

bool AccountFieldErrors::any() const
{
    return !first().isEmpty();
}

QString AccountFieldErrors::first() const
{
    for (const QString* error : {&issuer, &accountName, &secret, &kind, &algorithm, &digits,
                                 &period, &counter, &tags, &note})
        if (!error->isEmpty())
            return *error;
    return {};
}

AccountDraft::AccountDraft(QObject* parent) : QObject(parent)
{
    clearFields();
    revalidate();
}

AccountDraft::~AccountDraft()
{
    clearFields();
}

QString AccountDraft::tagsText() const
{
    return m_tags.join(QStringLiteral(", "));
}

void AccountDraft::setIssuer(const QString& issuer)
{
    if (issuer == m_issuer)
        return;
    m_issuer = issuer;
    emit issuerChanged();
    revalidate();
}

void AccountDraft::setAccountName(const QString& accountName)
{
    if (accountName == m_accountName)
        return;
    m_accountName = accountName;
    emit accountNameChanged();
    revalidate();
}

void AccountDraft::setSecret(const QString& secret)
{
    if (secret == m_secret)
        return;
    text::wipe(m_secret);
    m_secret = secret;
    emit secretChanged();
    revalidate();
}

void AccountDraft::setKind(const QString& kind)
{
    if (kind == m_kind)
        return;
    const bool wasSteam = m_kind == steamName;
    m_kind = kind;
    emit kindChanged();
    if (kind == steamName) {
        const auto steam = otp::OtpParameters::steam();
        if (m_algorithm != QLatin1String(crypto::hashName(steam.algorithm))) {
            m_algorithm = QString::fromLatin1(crypto::hashName(steam.algorithm));
            emit algorithmChanged();
        }
        if (m_digits != steam.digits) {
            m_digits = steam.digits;
            emit digitsChanged();
        }
        if (m_period != steam.period) {
            m_period = steam.period;
            emit periodChanged();
        }
    } else if (wasSteam && m_digits == otp::steamDigits) {
        m_digits = otp::defaultDigits;
        emit digitsChanged();
    }
    revalidate();
}

void AccountDraft::setAlgorithm(const QString& algorithm)
{
    if (algorithm == m_algorithm)
        return;
    m_algorithm = algorithm;
    emit algorithmChanged();
    revalidate();
}

void AccountDraft::setDigits(int digits)
{
    if (digits == m_digits)
        return;
    m_digits = digits;
    emit digitsChanged();
    revalidate();
}

void AccountDraft::setPeriod(qint64 period)
{
    if (period == m_period)
        return;
    m_period = period;
    emit periodChanged();
    revalidate();
}

void AccountDraft::setCounter(const QString& counter)
{
    if (counter == m_counter)
        return;
    m_counter = counter;
    emit counterChanged();
    revalidate();
}

void AccountDraft::setTags(const QStringList& tags)
{
    if (tags == m_tags)
        return;
    m_tags = tags;
    emit tagsChanged();
    revalidate();
}

void AccountDraft::setTagsText(const QString& text)
{
    setTags(splitTags(text));
}

void AccountDraft::setNote(const QString& note)
{
    if (note == m_note)
        return;
    m_note = note;
    emit noteChanged();
    revalidate();
}

void AccountDraft::setUriError(const QString& error)
{
    if (error == m_uriError)
        return;
    m_uriError = error;
    emit uriErrorChanged();
}

void AccountDraft::revalidate()
{
    if (m_batching)
        return;
    AccountFieldErrors errors;
    errors.issuer = textError(m_issuer, tr("The issuer"));
    errors.accountName = textError(m_accountName, tr("The account name"));
    if (errors.accountName.isEmpty() && m_issuer.trimmed().isEmpty() &&
        m_accountName.trimmed().isEmpty())
        errors.accountName = tr("Enter an account name or an issuer.");

    auto decodedSecret = decodeSecret(m_secret);
    SecureBuffer secret;
    if (decodedSecret)
        secret = std::move(*decodedSecret);
    else
        errors.secret = decodedSecret.error();

    otp::OtpParameters parameters;
    const auto kind = parseKind(m_kind);
    if (!kind)
        errors.kind = tr("Choose TOTP, HOTP or Steam Guard.");
    else
        parameters.kind = *kind;
    const bool steam = kind == otp::OtpKind::Steam;

    if (const auto algorithm = crypto::parseHashName(m_algorithm.toStdString()); !algorithm)
        errors.algorithm = tr("Choose SHA1, SHA256 or SHA512.");
    else if (steam && *algorithm != crypto::HashAlgorithm::Sha1)
        errors.algorithm = tr("Steam Guard codes use SHA1 only.");
    else
        parameters.algorithm = *algorithm;

    if (steam && m_digits != otp::steamDigits)
        errors.digits = tr("Steam Guard codes have %1 characters.").arg(otp::steamDigits);
    else if (!steam && (m_digits < otp::minimumDigits || m_digits > otp::maximumDigits))
        errors.digits =
            tr("Codes have %1 to %2 digits.").arg(otp::minimumDigits).arg(otp::maximumDigits);
    else
        parameters.digits = m_digits;

    if (kind != otp::OtpKind::Hotp) {
        if (steam && m_period != otp::steamPeriod)
            errors.period = tr("Steam Guard codes change every %1 seconds.").arg(otp::steamPeriod);
        else if (m_period < 1 || m_period > std::numeric_limits<std::uint32_t>::max())
            errors.period = tr("The period is a whole number of seconds from 1 to %1.")
                                .arg(std::numeric_limits<std::uint32_t>::max());
        else
            parameters.period = static_cast<std::uint32_t>(m_period);
    } else if (const auto counter = parseCounter(m_counter); !counter) {
        errors.counter = tr("The counter is a whole number from 0 to %1.")
                             .arg(std::numeric_limits<std::uint64_t>::max());
    } else {
        parameters.counter = *counter;
    }

    QStringList seen;
    for (const auto& tag : m_tags) {
        if (tag.trimmed().isEmpty()) {
            errors.tags = tr("A tag cannot be empty.");
        } else if (const QString error = textError(tag, tr("A tag")); !error.isEmpty()) {
            errors.tags = error;
        } else if (tag.toUtf8().size() > qsizetype(vault::maximumTagSize)) {
            errors.tags = tr("The tag \u201c%1\u2026\u201d is longer than %2 bytes.")
                              .arg(tag.left(16))
                              .arg(vault::maximumTagSize);
        } else if (seen.contains(tag)) {
            errors.tags = tr("The tag \u201c%1\u201d is there twice.").arg(tag);
        }
        if (!errors.tags.isEmpty())
            break;
        seen << tag;
    }
    errors.note = textError(m_note, tr("The note"));

    std::optional<otp::OtpGenerator> generator;
    if (!errors.any()) {
        auto created = otp::OtpGenerator::create(parameters, secret.span());
        if (created)
            generator.emplace(std::move(*created));
        else // the parameters were checked above: this is a disabled crypto core
            errors.secret = QString::fromStdString(created.error().message);
    }

    const bool changed = !(errors == m_errors) || generator.has_value() != m_generator.has_value();
    m_errors = std::move(errors);
    m_generator = std::move(generator);
    if (changed)
        emit errorsChanged();
    m_preview.follow(m_generator ? &*m_generator : nullptr);
}

bool AccountDraft::loadUri(QString uri)
{
    QByteArray utf8 = uri.toUtf8();
    auto parsed =
        otp::parseOtpauthUri(std::string_view(utf8.constData(), std::size_t(utf8.size())));
    secureWipe(utf8.data(), static_cast<std::size_t>(utf8.size()));
    text::wipe(uri);
    if (!parsed) {
        setUriError(QString::fromStdString(parsed.error().message));
        return false;
    }
    const auto& parameters = parsed->parameters;
    const SecureBuffer secret =
        encoding::toBase32(parsed->secret.span(), encoding::Base32Padding::Omit);

    {
        const Batch batch(*this);
        setIssuer(QString::fromStdString(parsed->issuer()));
        setAccountName(QString::fromStdString(parsed->account));
        setKind(QString::fromLatin1(otp::kindName(parameters.kind)));
        setAlgorithm(QString::fromLatin1(crypto::hashName(parameters.algorithm)));
        setDigits(parameters.digits);
        setPeriod(parameters.isTimeBased() ? parameters.period : otp::defaultPeriod);
        setCounter(QString::number(parameters.isTimeBased() ? 0 : parameters.counter));
        QString secretText = QString::fromLatin1(secret.view());
        setSecret(secretText);
        text::wipe(secretText);
    }
    setUriError({});
    return true;
}

Result<void, QString> AccountDraft::toAccount(vault::OtpAccount& out) const
{
    if (!valid()) {
        const QString first = m_errors.first();
        return fail(first.isEmpty() ? tr("The account is not complete.") : first);
    }
    auto secret = decodeSecret(m_secret);
    if (!secret)
        return secret.failure();
    // validateRecord() takes a Record; the account is built in one so that
    // its secret is not copied to be checked.
    vault::Record record{std::in_place_type<vault::OtpAccount>};
    auto& account = std::get<vault::OtpAccount>(record);
    account.issuer = m_issuer.trimmed().toStdString();
    account.accountName = m_accountName.trimmed().toStdString();
    account.secret = std::move(*secret);
    account.parameters = m_generator->parameters();
    for (const auto& tag : m_tags)
        account.tags.push_back(tag.trimmed().toStdString());
    account.note = m_note.toStdString();
    if (const auto checked = vault::validateRecord(record); !checked)
        return fail(QString::fromStdString(checked.error().message));
    vault::moveEnteredFields(std::move(account), out);
    return {};
}

void AccountDraft::loadAccount(const vault::OtpAccount& account)
{
    const auto& parameters = account.parameters;
    const SecureBuffer secret =
        encoding::toBase32(account.secret.span(), encoding::Base32Padding::Omit);
    QStringList tags;
    for (const auto& tag : account.tags)
        tags << QString::fromStdString(tag);
    QString secretText = QString::fromLatin1(secret.view());

    const QString recordId = QString::fromLatin1(encoding::toHex(account.id));
    if (recordId != m_recordId) {
        m_recordId = recordId;
        emit recordIdChanged();
    }
    {
        const Batch batch(*this);
        setIssuer(QString::fromStdString(account.issuer));
        setAccountName(QString::fromStdString(account.accountName));
        setKind(QString::fromLatin1(otp::kindName(parameters.kind)));
        setAlgorithm(QString::fromLatin1(crypto::hashName(parameters.algorithm)));
        setDigits(parameters.digits);
        setPeriod(parameters.isTimeBased() ? parameters.period : otp::defaultPeriod);
        setCounter(QString::number(parameters.isTimeBased() ? 0 : parameters.counter));
        setTags(tags);
        setNote(QString::fromStdString(account.note));
        setSecret(secretText);
    }
    text::wipe(secretText);
    setUriError({});
}

void AccountDraft::wipe()
{
    clearFields();
    setUriError({});
    revalidate();
    // Rare, so every field is announced rather than tracked.
    for (const auto signal :
         {&AccountDraft::recordIdChanged, &AccountDraft::issuerChanged,
          &AccountDraft::accountNameChanged, &AccountDraft::secretChanged,
          &AccountDraft::kindChanged, &AccountDraft::algorithmChanged, &AccountDraft::digitsChanged,
          &AccountDraft::periodChanged, &AccountDraft::counterChanged, &AccountDraft::tagsChanged,
          &AccountDraft::noteChanged})
        emit(this->*signal)();
}

void AccountDraft::clearFields()
{
    text::wipe(m_secret);
    m_recordId.clear();
    m_issuer.clear();
    m_accountName.clear();
    m_kind = totpName;
    m_algorithm = QString::fromLatin1(crypto::hashName(crypto::HashAlgorithm::Sha1));
    m_digits = otp::defaultDigits;
    m_period = otp::defaultPeriod;
    m_counter = QStringLiteral("0");
    m_tags.clear();
    m_note.clear();
    m_preview.follow(nullptr);
    m_generator.reset();
}

} // namespace watchword::app
