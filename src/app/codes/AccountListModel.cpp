#include "app/codes/AccountListModel.h"

#include "vault/Records.h"

#include <algorithm>
#include <utility>

namespace watchword::app {

QString accountTitle(const QString& issuer, const QString& accountName)
{
    return QString::fromStdString(
        vault::displayTitle(issuer.toStdString(), accountName.toStdString()));
}

QStringList toQStringList(const std::vector<std::string>& strings)
{
    QStringList out;
    for (const auto& s : strings)
        out << QString::fromStdString(s);
    return out;
}

QString groupCode(const QString& code)
{
    const auto size = code.size();
    if (size < 6)
        return code;
    QList<qsizetype> groups;
    if (size == 7)
        groups = {3, 4};
    else if (size == 8)
        groups = {4, 4};
    else if (size == 10)
        groups = {5, 5};
    else
        for (qsizetype done = 0; done < size; done += 3)
            groups.append(std::min<qsizetype>(3, size - done));
    QString out;
    qsizetype at = 0;
    for (const auto length : groups) {
        if (!out.isEmpty())
            out += QLatin1Char(' ');
        out += code.mid(at, length);
        at += length;
    }
    return out;
}

AccountListModel::AccountListModel(QObject* parent) : QAbstractListModel(parent) {}

AccountListModel::~AccountListModel() = default;

void AccountListModel::setAccounts(std::vector<AccountEntry> accounts, std::int64_t unixSeconds)
{
    beginResetModel();
    m_rows.clear();
    m_rows.reserve(accounts.size());
    for (auto& account : accounts)
        m_rows.push_back(makeRow(std::move(account), unixSeconds));
    endResetModel();
    emit countChanged();
    updateAllTags();
}

void AccountListModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
    emit countChanged();
    updateAllTags();
}

void AccountListModel::updateAllTags()
{
    QStringList tags;
    for (const auto& row : m_rows)
        tags += row.account.tags;
    tags.removeDuplicates();
    std::sort(tags.begin(), tags.end(), [](const QString& a, const QString& b) {
        return QString::localeAwareCompare(a, b) < 0;
    });
    if (tags == m_allTags)
        return;
    m_allTags = std::move(tags);
    emit allTagsChanged();
}

AccountListModel::Row AccountListModel::makeRow(AccountEntry account,
                                                std::int64_t unixSeconds) const
{
    Row row{std::move(account), {}, {}, 0, nullptr, {}, {}, {}};
    row.icon = IssuerIcons::shipped().match(row.account.issuer);
    row.title = accountTitle(row.account.issuer, row.account.accountName);
    row.monogram = IssuerIcons::monogram(row.title);
    row.monogramColour = IssuerIcons::monogramColour(row.title);
    refresh(row, unixSeconds);
    return row;
}

void AccountListModel::upsert(AccountEntry account, std::int64_t unixSeconds)
{
    Row row = makeRow(std::move(account), unixSeconds);
    if (const int at = rowOf(row.account.id); at >= 0) {
        m_rows[std::size_t(at)] = std::move(row);
        emit dataChanged(index(at), index(at));
        updateAllTags();
        return;
    }
    const int at = rowCount();
    beginInsertRows({}, at, at);
    m_rows.push_back(std::move(row));
    endInsertRows();
    emit countChanged();
    updateAllTags();
}

void AccountListModel::remove(const QByteArray& recordId)
{
    const int at = rowOf(recordId);
    if (at < 0)
        return;
    beginRemoveRows({}, at, at);
    m_rows.erase(m_rows.begin() + at);
    endRemoveRows();
    emit countChanged();
    updateAllTags();
}

void AccountListModel::setLastUsed(const QByteArray& recordId, std::int64_t unixSeconds)
{
    if (const int at = rowOf(recordId); at >= 0) {
        m_rows[std::size_t(at)].account.lastUsed = unixSeconds;
        emit dataChanged(index(at), index(at), {LastUsedRole});
    }
}

void AccountListModel::setSortPosition(const QByteArray& recordId, std::uint32_t position)
{
    if (const int at = rowOf(recordId); at >= 0) {
        m_rows[std::size_t(at)].account.sortPosition = position;
        emit dataChanged(index(at), index(at), {SortPositionRole});
    }
}

int AccountListModel::rowOf(const QByteArray& recordId) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].account.id == recordId)
            return int(i);
    return -1;
}

void AccountListModel::refresh(Row& row, std::int64_t unixSeconds) const
{
    const auto& generator = row.account.generator;
    const auto& parameters = generator.parameters();
    if (!parameters.isTimeBased()) {
        row.code = QString::fromStdString(generator.codeForCounter(parameters.counter));
        row.nextCode.clear();
        row.validUntil = 0;
        return;
    }
    const auto code = generator.codeForTime(unixSeconds);
    if (!code) {
        // Before 1970: no code to show, and nothing to count down to.
        row.code.clear();
        row.nextCode.clear();
        row.validUntil = 0;
        return;
    }
    const std::int64_t remaining = generator.secondsRemaining(unixSeconds);
    row.code = QString::fromStdString(*code);
    row.validUntil = unixSeconds + remaining;
    row.nextCode.clear();
    if (remaining <= defaultNextCodeSeconds) {
        const auto next = generator.codeForTime(row.validUntil);
        if (next)
            row.nextCode = QString::fromStdString(*next);
    }
}

bool AccountListModel::advance(Row& row, std::int64_t unixSeconds, int& computed) const
{
    if (row.validUntil == 0)
        return false; // HOTP, or no code before 1970
    const auto& generator = row.account.generator;
    const std::int64_t period = generator.parameters().period;
    if (unixSeconds >= row.validUntil) {
        if (!row.nextCode.isEmpty() && unixSeconds < row.validUntil + period) {
            // The next code, already shown, is now the code.
            row.code = std::exchange(row.nextCode, QString());
            row.validUntil += period;
        } else {
            refresh(row, unixSeconds); // a jump (suspend, clock change)
            ++computed;
        }
    } else if (!row.nextCode.isEmpty() || row.validUntil - unixSeconds > defaultNextCodeSeconds) {
        return false;
    }
    if (row.validUntil != 0 && row.nextCode.isEmpty() &&
        row.validUntil - unixSeconds <= defaultNextCodeSeconds) {
        const auto next = generator.codeForTime(row.validUntil);
        if (next)
            row.nextCode = QString::fromStdString(*next);
        ++computed;
    }
    return true;
}

int AccountListModel::tick(std::int64_t unixSeconds)
{
    static const QList<int> changedRoles = {CodeRole, PlainCodeRole, NextCodeRole, ValidUntilRole};
    int computed = 0;
    // One signal per run of consecutive changed rows: at a roll-over most
    // rows change together, and each signal costs the proxy and the view
    // far more than the HMAC behind it.
    int runStart = -1;
    const int count = rowCount();
    for (int i = 0; i <= count; ++i) {
        const bool changed = i < count && advance(m_rows[std::size_t(i)], unixSeconds, computed);
        if (changed && runStart < 0) {
            runStart = i;
        } else if (!changed && runStart >= 0) {
            emit dataChanged(index(runStart), index(i - 1), changedRoles);
            runStart = -1;
        }
    }
    return computed;
}

QString AccountListModel::plainCode(const QByteArray& recordId) const
{
    const int at = rowOf(recordId);
    return at < 0 ? QString() : m_rows[std::size_t(at)].code;
}

int AccountListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

QVariant AccountListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const auto& parameters = row.account.generator.parameters();
    switch (role) {
    case IdRole:
        return QString::fromLatin1(row.account.id);
    case IssuerRole:
        return row.account.issuer;
    case Qt::DisplayRole:
    case AccountNameRole:
        return row.account.accountName;
    case TagsRole:
        return row.account.tags;
    case KindRole: {
        const auto kind = otp::kindName(parameters.kind);
        return QString::fromLatin1(kind.data(), qsizetype(kind.size()));
    }
    case CodeRole:
        return groupCode(row.code);
    case PlainCodeRole:
        return row.code;
    case NextCodeRole:
        return groupCode(row.nextCode);
    case PeriodRole:
        return parameters.isTimeBased() ? int(parameters.period) : 0;
    case ValidUntilRole:
        return qint64(row.validUntil);
    case LastUsedRole:
        return qint64(row.account.lastUsed);
    case SortPositionRole:
        return uint(row.account.sortPosition);
    case IconPathRole:
        return row.icon ? row.icon->path : QString();
    case IconColourRole:
        return row.icon ? row.icon->colour : row.monogramColour;
    case IconGlyphColourRole:
        return row.icon ? row.icon->glyph : QColor(Qt::white);
    case DisplayTitleRole:
        return row.title;
    case MonogramRole:
        return row.monogram;
    default:
        return {};
    }
}

QHash<int, QByteArray> AccountListModel::roleNames() const
{
    return {{IdRole, "recordId"},
            {IssuerRole, "issuer"},
            {AccountNameRole, "accountName"},
            {TagsRole, "tags"},
            {KindRole, "kind"},
            {CodeRole, "code"},
            {PlainCodeRole, "plainCode"},
            {NextCodeRole, "nextCode"},
            {PeriodRole, "period"},
            {ValidUntilRole, "validUntil"},
            {LastUsedRole, "lastUsed"},
            {SortPositionRole, "sortPosition"},
            {IconPathRole, "iconPath"},
            {IconColourRole, "iconColour"},
            {IconGlyphColourRole, "iconGlyphColour"},
            {MonogramRole, "monogram"},
            {DisplayTitleRole, "displayTitle"}};
}

} // namespace watchword::app
