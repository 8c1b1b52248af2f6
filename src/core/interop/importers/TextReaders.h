// The two text containers several exports share: CSV (Bitwarden's and
// KeePassXC's) and XML (Android's SharedPreferences, KeePass's database
// export). Internal to importers/.
#pragma once

#include "interop/importers/Import.h"

#include <optional>
#include <pugixml.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::importers::detail {

// RFC 4180 CSV: fields separated by ',', records by CRLF or LF; a field in
// double quotes may hold ',', line breaks and "" for a quote.
class CsvReader
{
public:
    explicit CsvReader(std::string_view text) : m_text(text) {}

    bool atEnd() const { return m_position >= m_text.size(); }
    // The line (from 1) the next record starts on.
    std::size_t line() const { return m_line; }

    // The next record's fields; nullopt (with error set) on a broken quote.
    std::optional<std::vector<std::string>> record(std::string& error);

private:
    std::string_view m_text;
    std::size_t m_position = 0;
    std::size_t m_line = 1;
};

// Parses text into document and gives its one root element. Malformed,
// naming format: "not XML (<why> at byte <n>)", "the XML has a DOCTYPE" or
// "more than one root element". pugixml expands only XML's five predefined
// entities and character references: it has no notion of external entities
// and never loads anything. A DOCTYPE is still refused outright, since an
// internal subset declaring entities the parser leaves unexpanded would make
// text read differently than its author meant, and no app writes one.
[[nodiscard]] ImportResult<pugi::xml_node>
parseXmlRoot(std::string_view format, std::string_view text, pugi::xml_document& document);

} // namespace watchword::importers::detail
