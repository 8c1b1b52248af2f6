#include "interop/importers/TextReaders.h"

namespace watchword::importers::detail {

std::optional<std::vector<std::string>> CsvReader::record(std::string& error)
{
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false;
    bool wasQuoted = false;
    while (m_position < m_text.size()) {
        const char c = m_text[m_position++];
        if (quoted) {
            if (c == '"') {
                if (m_position < m_text.size() && m_text[m_position] == '"') {
                    field += '"';
                    ++m_position;
                } else {
                    quoted = false;
                }
            } else {
                if (c == '\n')
                    ++m_line;
                field += c;
            }
            continue;
        }
        if (c == '"') {
            if (!field.empty() || wasQuoted) {
                error = "a quote inside an unquoted field";
                return std::nullopt;
            }
            quoted = wasQuoted = true;
        } else if (c == ',') {
            fields.push_back(std::move(field));
            field.clear();
            wasQuoted = false;
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && m_position < m_text.size() && m_text[m_position] == '\n')
                ++m_position;
            ++m_line;
            fields.push_back(std::move(field));
            return fields;
        } else {
            if (wasQuoted) {
                error = "text after a closing quote";
                return std::nullopt;
            }
            field += c;
        }
    }
    if (quoted) {
        error = "a quoted field is not closed";
        return std::nullopt;
    }
    fields.push_back(std::move(field));
    return fields;
}

ImportResult<pugi::xml_node> parseXmlRoot(std::string_view format, std::string_view text,
                                          pugi::xml_document& document)
{
    const std::string name(format);
    const auto parsed = document.load_buffer(
        text.data(), text.size(), pugi::parse_default | pugi::parse_doctype, pugi::encoding_utf8);
    if (!parsed)
        return fail(ImportError::Malformed, name + ": not XML (" + parsed.description() +
                                                " at byte " + std::to_string(parsed.offset) + ")");
    pugi::xml_node root;
    for (const pugi::xml_node node : document.children()) {
        if (node.type() == pugi::node_doctype)
            return fail(ImportError::Malformed, name + ": the XML has a DOCTYPE");
        if (node.type() == pugi::node_element) {
            if (root)
                return fail(ImportError::Malformed, name + ": more than one root element");
            root = node;
        }
    }
    if (!root)
        return fail(ImportError::Malformed, name + ": the XML has no root element");
    return root;
}

} // namespace watchword::importers::detail
