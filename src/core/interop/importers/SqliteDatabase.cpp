#include "interop/importers/SqliteDatabase.h"

#include "interop/importers/Common.h"

#include <cstring>
#include <sqlite3.h>
#include <utility>

namespace watchword::importers::detail {

namespace {

// Statements are stopped after this many thousand virtual-machine steps:
// reading a real database of maximumImportedAccounts accounts takes a few
// hundred; a hostile schema (a generated column that recurses) would take
// forever.
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
constexpr std::uint64_t maximumWork = 2'000;
#else
constexpr std::uint64_t maximumWork = 50'000;
#endif
constexpr int workStep = 1000;

// Far above what the apps store (names of at most a few hundred bytes,
// icons of a few kilobytes), far below what would strain memory.
constexpr std::pair<int, int> limits[] = {
    {SQLITE_LIMIT_LENGTH, 1024 * 1024},
    {SQLITE_LIMIT_SQL_LENGTH, 1024 * 1024},
    {SQLITE_LIMIT_COLUMN, 256},
    {SQLITE_LIMIT_EXPR_DEPTH, 64},
    {SQLITE_LIMIT_COMPOUND_SELECT, 8},
    {SQLITE_LIMIT_VDBE_OP, 100'000},
    {SQLITE_LIMIT_FUNCTION_ARG, 8},
    {SQLITE_LIMIT_ATTACHED, 0},
    {SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 64},
    {SQLITE_LIMIT_VARIABLE_NUMBER, 8},
    {SQLITE_LIMIT_TRIGGER_DEPTH, 1},
};

// The schema is the file's: nothing in it may run code or reach outside.
constexpr std::pair<int, int> settings[] = {
    {SQLITE_DBCONFIG_DEFENSIVE, 1},      {SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0},
    {SQLITE_DBCONFIG_ENABLE_TRIGGER, 0}, {SQLITE_DBCONFIG_ENABLE_VIEW, 0},
    {SQLITE_DBCONFIG_DQS_DDL, 0},        {SQLITE_DBCONFIG_DQS_DML, 0},
};

int stopAfterBoundedWork(void* counter)
{
    auto& steps = *static_cast<std::uint64_t*>(counter);
    return ++steps > maximumWork ? 1 : 0;
}

std::string lowered(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

// Bytes 18 and 19 of the header: the write and read format versions, 2 in
// a database in write-ahead-log mode. An in-memory connection has no log to
// read, so the copy is marked as an ordinary (rollback journal) database;
// what only the log held is not in the bytes given anyway.
constexpr std::size_t formatVersionOffset = 18;

} // namespace

bool isSqlite(ByteView data)
{
    return startsWith(data, sqliteMagic);
}

std::vector<Format> sqliteFormats(ByteView data)
{
    std::vector<Format> formats;
    auto database = SqliteDatabase::open("", data);
    if (!database)
        return formats;
    for (const auto& [table, format] : {std::pair{"authenticator", Format::AuthenticatorPro},
                                        std::pair{"accounts", Format::GoogleAuthenticatorDb}})
        if (const auto has = database->hasTable(table); has && *has)
            formats.push_back(format);
    return formats;
}

ImportResult<SqliteDatabase> SqliteDatabase::open(std::string_view format, ByteView data)
{
    if (auto sized = checkSize(format, data); !sized)
        return sized.failure();
    // The smallest database is one 512-byte page.
    if (!isSqlite(data) || data.size() < 512)
        return fail(ImportError::Malformed,
                    std::string(format) + ": the file is not an SQLite database");
    sqlite3* connection = nullptr;
    const int opened = sqlite3_open_v2(":memory:", &connection,
                                       SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    SqliteDatabase database(format, connection); // closes connection on every return
    if (opened != SQLITE_OK)
        return fail(ImportError::Unsupported,
                    std::string(format) + ": cannot open an in-memory database (out of memory)");
    for (const auto& [limit, value] : limits)
        sqlite3_limit(connection, limit, value);
    for (const auto& [setting, value] : settings)
        sqlite3_db_config(connection, setting, value, nullptr);

    auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(data.size()));
    if (!copy)
        return fail(ImportError::Unsupported,
                    std::string(format) + ": not enough memory for the database");
    std::memcpy(copy, data.data(), data.size());
    if (copy[formatVersionOffset] == 2 && copy[formatVersionOffset + 1] == 2)
        copy[formatVersionOffset] = copy[formatVersionOffset + 1] = 1;
    // FREEONCLOSE: SQLite frees copy, also when this fails.
    const int deserialized =
        sqlite3_deserialize(connection, "main", copy, static_cast<sqlite3_int64>(data.size()),
                            static_cast<sqlite3_int64>(data.size()),
                            SQLITE_DESERIALIZE_READONLY | SQLITE_DESERIALIZE_FREEONCLOSE);
    if (deserialized != SQLITE_OK)
        return fail(ImportError::Malformed, std::string(format) +
                                                ": the database cannot be read (" +
                                                sqlite3_errmsg(connection) + ")");
    sqlite3_progress_handler(connection, workStep, stopAfterBoundedWork, database.m_work.get());
    return database;
}

SqliteDatabase::SqliteDatabase(std::string_view format, sqlite3* connection)
    : m_format(format), m_connection(connection), m_work(std::make_unique<std::uint64_t>(0))
{}

SqliteDatabase::SqliteDatabase(SqliteDatabase&& other) noexcept
    : m_format(std::move(other.m_format)), m_connection(std::exchange(other.m_connection, nullptr)),
      m_work(std::move(other.m_work))
{}

SqliteDatabase& SqliteDatabase::operator=(SqliteDatabase&& other) noexcept
{
    if (this != &other) {
        sqlite3_close_v2(m_connection);
        m_format = std::move(other.m_format);
        m_connection = std::exchange(other.m_connection, nullptr);
        m_work = std::move(other.m_work);
    }
    return *this;
}

SqliteDatabase::~SqliteDatabase()
{
    // _v2: a statement still alive keeps the connection until it is
    // finalized.
    sqlite3_close_v2(m_connection);
}

ImportResult<SqliteStatement> SqliteDatabase::prepare(const std::string& sql)
{
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v3(m_connection, sql.c_str(), static_cast<int>(sql.size()), 0, &statement,
                           nullptr) != SQLITE_OK) {
        sqlite3_finalize(statement);
        return fail(ImportError::Malformed, m_format + ": the database cannot be read (" +
                                                sqlite3_errmsg(m_connection) + ")");
    }
    return SqliteStatement(m_format, statement);
}

ImportResult<bool> SqliteDatabase::hasTable(std::string_view table)
{
    // The names are this file's constants, never the database's.
    auto statement = prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '" +
                             std::string(table) + "' COLLATE NOCASE");
    if (!statement)
        return statement.failure();
    return statement->next();
}

ImportResult<SqliteStatement> SqliteDatabase::selectAll(std::string_view table)
{
    return prepare("SELECT * FROM \"" + std::string(table) + "\"");
}

ImportResult<SqliteStatement>
SqliteDatabase::readTable(std::string_view table, std::initializer_list<std::string_view> required,
                          std::string_view app)
{
    auto has = hasTable(table);
    if (!has)
        return has.failure();
    if (!*has)
        return fail(ImportError::Malformed, m_format + ": the database has no \"" +
                                                std::string(table) + "\" table (not " +
                                                std::string(app) + "'s database)");
    auto rows = selectAll(table);
    if (!rows)
        return rows;
    for (const auto column : required)
        if (!rows->hasColumn(column))
            return fail(ImportError::Malformed, m_format + ": the \"" + std::string(table) +
                                                    "\" table has no \"" + std::string(column) +
                                                    "\" column");
    return rows;
}

ImportResult<std::vector<std::pair<std::string, std::string>>>
SqliteDatabase::textPairs(std::string_view table, std::string_view first, std::string_view second)
{
    auto rows = selectAll(table);
    if (!rows)
        return rows.failure();
    std::vector<std::pair<std::string, std::string>> out;
    for (;;) {
        auto row = rows->next();
        if (!row)
            return row.failure();
        if (!*row)
            return out;
        out.emplace_back(rows->value(first).text, rows->value(second).text);
    }
}

SqliteStatement::SqliteStatement(std::string format, sqlite3_stmt* statement)
    : m_format(std::move(format)), m_statement(statement)
{
    const int count = sqlite3_column_count(statement);
    for (int i = 0; i < count; ++i) {
        const char* name = sqlite3_column_name(statement, i);
        m_columns.push_back(lowered(name ? name : ""));
    }
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : m_format(std::move(other.m_format)), m_statement(std::exchange(other.m_statement, nullptr)),
      m_columns(std::move(other.m_columns))
{}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_statement);
        m_format = std::move(other.m_format);
        m_statement = std::exchange(other.m_statement, nullptr);
        m_columns = std::move(other.m_columns);
    }
    return *this;
}

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(m_statement);
}

ImportResult<bool> SqliteStatement::next()
{
    const int stepped = sqlite3_step(m_statement);
    if (stepped == SQLITE_ROW)
        return true;
    if (stepped == SQLITE_DONE)
        return false;
    sqlite3* connection = sqlite3_db_handle(m_statement);
    if (stepped == SQLITE_INTERRUPT)
        return fail(ImportError::Malformed,
                    m_format + ": reading the database takes far more work than any real "
                               "database needs (the file is damaged or hostile)");
    return fail(ImportError::Malformed,
                m_format + ": the database cannot be read (" + sqlite3_errmsg(connection) + ")");
}

ImportResult<bool> SqliteStatement::nextAccount(std::size_t count)
{
    auto row = next();
    if (row && *row)
        if (auto counted = checkCount(m_format, count + 1); !counted)
            return counted.failure();
    return row;
}

std::optional<int> SqliteStatement::columnIndex(std::string_view name) const
{
    const std::string wanted = lowered(name);
    for (std::size_t i = 0; i < m_columns.size(); ++i)
        if (m_columns[i] == wanted)
            return static_cast<int>(i);
    return std::nullopt;
}

bool SqliteStatement::hasColumn(std::string_view name) const
{
    return columnIndex(name).has_value();
}

SqliteValue SqliteStatement::value(std::string_view name) const
{
    SqliteValue out;
    const auto index = columnIndex(name);
    if (!index)
        return out;
    switch (sqlite3_column_type(m_statement, *index)) {
    case SQLITE_INTEGER:
        out.type = SqliteValue::Type::Integer;
        out.integer = sqlite3_column_int64(m_statement, *index);
        break;
    case SQLITE_FLOAT:
        out.type = SqliteValue::Type::Real;
        break;
    case SQLITE_TEXT:
    case SQLITE_BLOB: {
        out.type = sqlite3_column_type(m_statement, *index) == SQLITE_TEXT
                       ? SqliteValue::Type::Text
                       : SqliteValue::Type::Blob;
        const void* bytes = out.type == SqliteValue::Type::Text
                                ? static_cast<const void*>(sqlite3_column_text(m_statement, *index))
                                : sqlite3_column_blob(m_statement, *index);
        const int size = sqlite3_column_bytes(m_statement, *index);
        if (bytes && size > 0)
            out.text.assign(static_cast<const char*>(bytes), static_cast<std::size_t>(size));
        break;
    }
    default:
        break;
    }
    return out;
}

} // namespace watchword::importers::detail
