// Reading an app's internal SQLite database (Authenticator Pro's, Google
// Authenticator's) from the bytes the caller loaded: the bytes are copied
// into an in-memory, read-only connection (sqlite3_deserialize), so no file
// is opened, written or locked, and a journal beside the user's file is
// never looked for. A database is a file someone hands over: its schema is
// not trusted (no triggers, views or schema functions run), its strings are
// bounded, and every statement is stopped after a bounded amount of work.
// Internal to importers/.
#pragma once

#include "interop/importers/Import.h"

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace watchword::importers::detail {

// SQLite's file header: the first 16 bytes of every database.
inline constexpr std::string_view sqliteMagic{"SQLite format 3\0", 16};

bool isSqlite(ByteView data);

// The formats whose tables the database data has (Authenticator Pro's
// "authenticator", Google Authenticator's "accounts"); empty if it has
// neither or cannot be read.
std::vector<Format> sqliteFormats(ByteView data);

class SqliteStatement;

class SqliteDatabase
{
public:
    // data as a database; Malformed "<format>: ..." if it is not one,
    // TooLarge over maximumImportBytes.
    [[nodiscard]] static ImportResult<SqliteDatabase> open(std::string_view format, ByteView data);

    SqliteDatabase(SqliteDatabase&& other) noexcept;
    SqliteDatabase& operator=(SqliteDatabase&& other) noexcept;
    SqliteDatabase(const SqliteDatabase&) = delete;
    SqliteDatabase& operator=(const SqliteDatabase&) = delete;
    ~SqliteDatabase();

    // Whether the database has an ordinary table of that name (not a view);
    // Malformed if its schema cannot be read (a damaged file).
    [[nodiscard]] ImportResult<bool> hasTable(std::string_view table);

    // Every row of table, all columns: Malformed if the table cannot be read.
    [[nodiscard]] ImportResult<SqliteStatement> selectAll(std::string_view table);

    // selectAll(table) of the app's table: Malformed "<format>: the database
    // has no "<table>" table (not <app>'s database)" if it is missing, or
    // "... has no "<column>" column" for a required column that is.
    [[nodiscard]] ImportResult<SqliteStatement>
    readTable(std::string_view table, std::initializer_list<std::string_view> required,
              std::string_view app);

    // The text of two columns of every row of table, in order.
    [[nodiscard]] ImportResult<std::vector<std::pair<std::string, std::string>>>
    textPairs(std::string_view table, std::string_view first, std::string_view second);

private:
    SqliteDatabase(std::string_view format, sqlite3* connection);
    [[nodiscard]] ImportResult<SqliteStatement> prepare(const std::string& sql);

    std::string m_format;
    sqlite3* m_connection = nullptr;
    // Progress-handler steps so far (SQLite holds its address).
    std::unique_ptr<std::uint64_t> m_work;
};

// One column's value as SQLite stores it (dynamically typed).
struct SqliteValue
{
    enum class Type { Null, Integer, Real, Text, Blob } type = Type::Null;
    std::int64_t integer = 0;
    std::string text; // Text (and Blob, as bytes)
};

// A prepared statement's rows; the row's values by column name.
class SqliteStatement
{
public:
    SqliteStatement(SqliteStatement&& other) noexcept;
    SqliteStatement& operator=(SqliteStatement&& other) noexcept;
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;
    ~SqliteStatement();

    // Steps to the next row: true if there is one, false at the end,
    // Malformed if the database is damaged or the work bound is reached.
    [[nodiscard]] ImportResult<bool> next();
    // next() over a table of accounts, count of them read so far: TooLarge
    // for a row past maximumImportedAccounts.
    [[nodiscard]] ImportResult<bool> nextAccount(std::size_t count);
    // Calls each(entry) on every row in turn, as nextAccount() reads them
    // (entry counts from 0); the first error, of the reading or of each,
    // ends it.
    template <typename Each> [[nodiscard]] ImportResult<void> forEachAccount(Each each)
    {
        for (std::size_t entry = 0;; ++entry) {
            auto row = nextAccount(entry);
            if (!row)
                return row.failure();
            if (!*row)
                return {};
            if (auto done = each(entry); !done)
                return done.failure();
        }
    }

    // Whether the rows have a column of that name (any case).
    bool hasColumn(std::string_view name) const;
    // The current row's value of column name; Null if there is no such
    // column.
    SqliteValue value(std::string_view name) const;

private:
    friend class SqliteDatabase;
    SqliteStatement(std::string format, sqlite3_stmt* statement);

    std::optional<int> columnIndex(std::string_view name) const;

    std::string m_format;
    sqlite3_stmt* m_statement = nullptr;
    std::vector<std::string> m_columns;
};

} // namespace watchword::importers::detail
