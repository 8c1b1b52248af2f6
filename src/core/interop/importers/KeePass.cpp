// KeePassXC's and KeePass's exports of a password database, of which the
// entries with one-time-password fields become accounts (the rest are a
// password manager's and are passed over):
//
// - the CSV KeePassXC writes (Database > Export > CSV, or keepassxc-cli
//   export --format csv): "Group","Title","Username","Password","URL",
//   "Notes","TOTP","Icon","Last Modified","Created", the TOTP column an
//   otpauth:// URI that KeePassXC writes from the entry's settings;
// - the XML of a database (keepassxc-cli export --format xml, or KeePass 2's
//   File > Export > KeePass XML (2.x)): <KeePassFile><Meta/><Root><Group>,
//   groups nested, each entry's fields as <String><Key/><Value/></String>.
//   The one-time password is in the fields KeePassXC reads, in its order:
//   "TOTP Settings" with "TOTP Seed" (its old format, and KeeTrayTOTP's),
//   "otp" (an otpauth:// URI, or KeeOtp's "key=...&size=...&step=..."), then
//   KeePass 2.47's TimeOtp-* fields; KeePass's HOTP fields (HmacOtp-*) last.
//
// The entry's Title and UserName name the account, as both apps show it;
// groups below the root become a tag ("Internet/Shops"). Entries in the
// recycle bin are left out, with a warning; an entry's history is not read.
// A .kdbx itself is not read (docs/FORMAT.md section 9 says why).
#include "encoding/Hex.h"
#include "interop/importers/Common.h"
#include "interop/importers/Formats.h"
#include "interop/importers/TextReaders.h"
#include "otp/OtpauthUri.h"

#include <charconv>
#include <map>
#include <vector>

namespace watchword::importers::detail {

namespace {

constexpr std::string_view formatLabel = "keepass";
// KeePassXC's Base32 decoder gives no code for a secret whose last group has
// 1, 3 or 6 symbols, so neither do we.
constexpr auto secretTail = encoding::Base32Tail::Refuse;
// What KeePassXC writes into the URIs of its CSV for an empty title and an
// empty user name.
constexpr std::string_view placeholderIssuer = "KeePassXC";
constexpr std::string_view placeholderAccount = "none";

// One entry as the export has it.
struct Entry
{
    std::map<std::string, std::string, std::less<>> fields; // Key -> Value
    std::string tag; // the group path below the root; empty at the root
};

std::string_view fieldOf(const Entry& entry, std::string_view key)
{
    const auto it = entry.fields.find(key);
    return it == entry.fields.end() ? std::string_view{} : std::string_view(it->second);
}

constexpr std::array<std::string_view, 4> secretSuffixes = {"", "-Hex", "-Base32", "-Base64"};

bool hasKeePassSecret(const Entry& entry, std::string_view prefix)
{
    for (const auto suffix : secretSuffixes)
        if (!fieldOf(entry, std::string(prefix) + "Secret" + std::string(suffix)).empty())
            return true;
    return false;
}

bool hasOneTimePassword(const Entry& entry)
{
    return !fieldOf(entry, "TOTP Seed").empty() || !fieldOf(entry, "otp").empty() ||
           hasKeePassSecret(entry, "TimeOtp-") || hasKeePassSecret(entry, "HmacOtp-");
}

// A number KeePass keeps as text ("8", "60"), read from the field what:
// nullopt if empty, InvalidEntry naming the field if it is not a number.
ImportResult<std::optional<std::int64_t>> numberOf(std::string_view text, std::string_view what,
                                                   const std::string& named)
{
    if (text.empty())
        return std::optional<std::int64_t>{};
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size())
        return fail(ImportError::InvalidEntry,
                    named + ": " + std::string(what) + " is not a number: " + shownValue(text));
    return std::optional<std::int64_t>{value};
}

ImportResult<std::optional<std::int64_t>> numberField(const Entry& entry, std::string_view key,
                                                      const std::string& named)
{
    std::string what = "\"";
    what.append(key).append("\"");
    return numberOf(fieldOf(entry, key), what, named);
}

// KeePass 2's secret fields: <prefix>Secret (the key's UTF-8 bytes), -Hex,
// -Base32 or -Base64, the first of them present.
ImportResult<SecureBuffer> keePassSecret(const Entry& entry, std::string_view prefix,
                                         const std::string& named)
{
    const std::string base = std::string(prefix) + "Secret";
    if (const auto text = fieldOf(entry, base); !text.empty())
        return SecureBuffer(
            ByteView(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
    if (const auto text = fieldOf(entry, base + "-Hex"); !text.empty()) {
        auto bytes = encoding::fromHex(text);
        if (!bytes)
            return fail(ImportError::InvalidEntry, named + ": \"" + base + "-Hex\" is not hex");
        return SecureBuffer(ByteView(*bytes));
    }
    if (const auto text = fieldOf(entry, base + "-Base32"); !text.empty())
        return secretFromBase32(named, text, secretTail);
    auto secret = secretFromBase64(fieldOf(entry, base + "-Base64"));
    if (!secret || secret->empty())
        return fail(ImportError::InvalidEntry, named + ": \"" + base + "-Base64\" is not Base64");
    return std::move(*secret);
}

// KeePass 2.47's "TimeOtp-" algorithm names ("HMAC-SHA-256") as
// applyStoredCode reads them ("SHA-256"); other text as it is.
std::string_view algorithmOf(std::string_view keePassName)
{
    constexpr std::string_view hmac = "HMAC-";
    return startsWithFolded(keePassName, "hmac-") ? keePassName.substr(hmac.size()) : keePassName;
}

// KeeOtp's settings, "key=<Base32>&size=<digits>&step=<period>
// [&otpHashMode=Sha256][&type=Totp]" (only its TOTP is read).
ImportResult<void> readKeeOtp(std::string_view settings, const std::string& named,
                              EntryFields& fields)
{
    std::string_view key, size, step, mode, type;
    otp::QueryParameters parameters(settings);
    while (const auto parameter = parameters.next()) {
        if (parameter->name == "key")
            key = parameter->value;
        else if (parameter->name == "size")
            size = parameter->value;
        else if (parameter->name == "step")
            step = parameter->value;
        else if (parameter->name == "otpHashMode")
            mode = parameter->value;
        else if (parameter->name == "type")
            type = parameter->value;
    }
    if (!type.empty() && !startsWithFolded(type, "totp"))
        return fail(ImportError::InvalidEntry, named + ": KeeOtp type " + shownValue(type) +
                                                   " is not supported (only Totp is)");
    auto digits = numberOf(size, "KeeOtp's size", named);
    if (!digits)
        return digits.failure();
    auto period = numberOf(step, "KeeOtp's step", named);
    if (!period)
        return period.failure();
    fields.parameters.kind = otp::OtpKind::Totp;
    if (auto applied = applyStoredCode(named, {mode, *digits, *period}, fields.parameters);
        !applied)
        return applied.failure();
    auto secret = secretFromBase32(named, key, secretTail);
    if (!secret)
        return secret.failure();
    fields.secret = std::move(secret).value();
    return {};
}

// An otpauth:// URI's code. The entry's own title and user name stay the
// account's names; the URI's fill in only what the entry leaves empty
// (KeePassXC's placeholders for an empty title or user name are not names).
ImportResult<void> readOtpauth(std::string_view uri, const std::string& named, EntryFields& fields)
{
    auto parsed = otp::parseOtpauthUri(uri, secretTail);
    if (!parsed)
        return parsed.failure(ImportError::InvalidEntry, named + ": ");
    if (fields.issuer.empty() && parsed->issuer() != placeholderIssuer)
        fields.issuer = parsed->issuer();
    if (fields.accountName.empty() && parsed->account != placeholderAccount)
        fields.accountName = parsed->account;
    fields.secret = std::move(parsed->secret);
    fields.parameters = parsed->parameters;
    return {};
}

// KeePassXC's old "TOTP Settings": "<period>;<digits>" or "<period>;S" for
// Steam, the Base32 secret apart in "TOTP Seed"; or KeeOtp's settings.
ImportResult<void> readLegacy(const Entry& entry, const std::string& named, EntryFields& fields)
{
    const std::string_view settings = fieldOf(entry, "TOTP Settings");
    if (settings.find("key=") != std::string_view::npos)
        return readKeeOtp(settings, named, fields);
    auto secret = secretFromBase32(named, fieldOf(entry, "TOTP Seed"), secretTail);
    if (!secret)
        return secret.failure();
    fields.secret = std::move(secret).value();
    fields.parameters.kind = otp::OtpKind::Totp;
    const auto semicolon = settings.find(';');
    if (semicolon == std::string_view::npos)
        return {}; // KeePassXC's defaults: 30 s, 6 digits
    const std::string_view second = settings.substr(semicolon + 1);
    auto period = numberOf(settings.substr(0, semicolon), "the period of \"TOTP Settings\"", named);
    if (!period)
        return period.failure();
    if (second == "S") {
        fields.parameters = otp::OtpParameters::steam();
        return {};
    }
    auto digits = numberOf(second, "the digits of \"TOTP Settings\"", named);
    if (!digits)
        return digits.failure();
    return applyStoredCode(named, {{}, *digits, *period}, fields.parameters);
}

ImportResult<ImportedAccount> accountOf(std::size_t index, const Entry& entry)
{
    EntryFields fields;
    fields.issuer = std::string(fieldOf(entry, "Title"));
    fields.accountName = std::string(fieldOf(entry, "UserName"));
    if (!entry.tag.empty())
        fields.tags.push_back(entry.tag);
    const std::string named = entryLabel(formatLabel, index, fields.issuer, fields.accountName);

    ImportResult<void> read = ImportResult<void>{};
    const std::string_view otpField = fieldOf(entry, "otp");
    if (!fieldOf(entry, "TOTP Settings").empty() || !fieldOf(entry, "TOTP Seed").empty()) {
        read = readLegacy(entry, named, fields);
    } else if (!otpField.empty()) {
        const auto start = std::min(otpField.find_first_not_of(" \t\r\n"), otpField.size());
        if (startsWithFolded(otpField.substr(start), "otpauth:"))
            read = readOtpauth(otpField, named, fields);
        else if (otpField.find("key=") != std::string_view::npos)
            read = readKeeOtp(otpField, named, fields);
        else
            read = fail(ImportError::InvalidEntry,
                        named + ": \"otp\" is neither an otpauth:// URI nor KeeOtp's settings");
    } else {
        const bool timeBased = hasKeePassSecret(entry, "TimeOtp-");
        const std::string_view prefix = timeBased ? "TimeOtp-" : "HmacOtp-";
        auto secret = keePassSecret(entry, prefix, named);
        if (!secret)
            return secret.failure();
        fields.secret = std::move(secret).value();
        if (timeBased) {
            fields.parameters.kind = otp::OtpKind::Totp;
            auto digits = numberField(entry, "TimeOtp-Length", named);
            if (!digits)
                return digits.failure();
            auto period = numberField(entry, "TimeOtp-Period", named);
            if (!period)
                return period.failure();
            read = applyStoredCode(
                named, {algorithmOf(fieldOf(entry, "TimeOtp-Algorithm")), *digits, *period},
                fields.parameters);
        } else {
            // KeePass's HOTP: always HMAC-SHA-1 and 6 digits.
            fields.parameters.kind = otp::OtpKind::Hotp;
            auto counter = numberField(entry, "HmacOtp-Counter", named);
            if (!counter)
                return counter.failure();
            if (counter->value_or(0) < 0)
                return fail(ImportError::InvalidEntry, named + ": \"HmacOtp-Counter\" is negative");
            fields.parameters.counter = static_cast<std::uint64_t>(counter->value_or(0));
        }
    }
    if (!read)
        return read.failure();
    return makeAccount(formatLabel, index, std::move(fields));
}

// What the walk over a database's entries gathers.
class Collector
{
public:
    Collector() { m_imported.format = Format::KeePass; }

    // The next entry of the file, in file order.
    ImportResult<void> add(const Entry& entry, bool inRecycleBin)
    {
        const std::size_t index = m_entries++;
        if (!hasOneTimePassword(entry))
            return {};
        if (inRecycleBin) {
            ++m_recycled;
            return {};
        }
        if (auto counted = checkCount(formatLabel, m_imported.accounts.size() + 1); !counted)
            return counted;
        return keep(m_imported, index, accountOf(index, entry));
    }

    ImportResult<Imported> finish() &&
    {
        if (m_recycled > 0)
            m_imported.warnings.push_back(std::to_string(m_recycled) +
                                          (m_recycled == 1 ? " entry" : " entries") +
                                          " with a one-time password in the recycle bin left out");
        if (m_imported.accounts.empty() && m_imported.skipped.empty() && m_recycled > 0)
            return fail(ImportError::Malformed,
                        std::string(formatLabel) +
                            ": every entry with a one-time password is in the recycle bin (" +
                            std::to_string(m_recycled) +
                            "); restore them in KeePassXC to import them");
        if (m_imported.accounts.empty() && m_imported.skipped.empty())
            return fail(ImportError::Malformed,
                        std::string(formatLabel) +
                            ": no entry of the export has one-time-password fields (otp, TOTP "
                            "Seed, TimeOtp-Secret..., HmacOtp-Secret...)");
        return std::move(m_imported);
    }

private:
    Imported m_imported;
    std::size_t m_entries = 0;
    std::size_t m_recycled = 0;
};

// "Internet/Shops" for the path "Root/Internet/Shops": the root group's name
// is not a tag.
std::string belowRoot(std::string_view path)
{
    const auto slash = path.find('/');
    return slash == std::string_view::npos ? std::string() : std::string(path.substr(slash + 1));
}

ImportResult<Imported> importCsv(std::string_view text)
{
    CsvReader reader(text);
    std::string error;
    const auto header = reader.record(error);
    if (!header)
        return fail(ImportError::Malformed, std::string(formatLabel) + ": line 1: " + error);
    std::map<std::string, std::size_t, std::less<>> columns;
    for (std::size_t i = 0; i < header->size(); ++i)
        columns.emplace((*header)[i], i);
    for (const char* required : {"Group", "Title", "Username", "TOTP"})
        if (!columns.contains(std::string_view(required)))
            return fail(ImportError::Malformed, std::string(formatLabel) +
                                                    ": not a KeePassXC CSV export (no \"" +
                                                    required + "\" column)");
    const auto column = [&](const std::vector<std::string>& row, std::string_view name) {
        return row[columns.find(name)->second];
    };

    Collector collector;
    while (!reader.atEnd()) {
        const std::size_t line = reader.line();
        auto row = reader.record(error);
        if (!row)
            return fail(ImportError::Malformed,
                        std::string(formatLabel) + ": line " + std::to_string(line) + ": " + error);
        if (row->size() == 1 && row->front().empty())
            continue; // a blank line
        if (row->size() != header->size())
            return fail(ImportError::Malformed,
                        std::string(formatLabel) + ": line " + std::to_string(line) + ": " +
                            std::to_string(row->size()) + " fields where the header has " +
                            std::to_string(header->size()));
        Entry entry;
        entry.fields.emplace("Title", column(*row, "Title"));
        entry.fields.emplace("UserName", column(*row, "Username"));
        entry.fields.emplace("otp", column(*row, "TOTP"));
        entry.tag = belowRoot(column(*row, "Group"));
        // The CSV has no recycle bin marker: KeePassXC names it "Recycle
        // Bin" (in English) and keeps it right under the root.
        const bool recycled = entry.tag == "Recycle Bin" || entry.tag.starts_with("Recycle Bin/");
        if (auto added = collector.add(entry, recycled); !added)
            return added.failure();
    }
    return std::move(collector).finish();
}

// An <Entry>'s <String> fields. A value the database's inner stream
// encrypted (Protected="True": the XML inside a .kdbx, not an export) cannot
// be read here.
ImportResult<Entry> entryOf(const pugi::xml_node node, std::size_t index)
{
    Entry entry;
    for (const pugi::xml_node field : node.children("String")) {
        const std::string key = field.child("Key").text().get();
        const pugi::xml_node value = field.child("Value");
        if (std::string_view(value.attribute("Protected").value()) == "True" &&
            (key == "otp" || key.starts_with("TOTP ") || key.starts_with("TimeOtp-") ||
             key.starts_with("HmacOtp-")))
            return fail(ImportError::Malformed,
                        entryLabel(formatLabel, index, {}) + ": \"" + key +
                            "\" is encrypted by the database's inner stream (this is the XML "
                            "inside a .kdbx, not an export)");
        entry.fields.insert_or_assign(key, value.text().get());
    }
    return entry;
}

ImportResult<Imported> importXml(std::string_view text)
{
    pugi::xml_document document;
    const auto root = parseXmlRoot(formatLabel, text, document);
    if (!root)
        return root.failure();
    if (std::string_view(root->name()) != "KeePassFile")
        return fail(ImportError::Malformed,
                    std::string(formatLabel) + ": not a KeePass XML export (the root element is <" +
                        root->name() + ">)");
    const pugi::xml_node meta = root->child("Meta");
    std::string recycleBin;
    if (std::string_view(meta.child("RecycleBinEnabled").text().get()) != "False")
        recycleBin = meta.child("RecycleBinUUID").text().get();
    const pugi::xml_node rootGroup = root->child("Root").child("Group");
    if (!rootGroup)
        return fail(ImportError::Malformed, std::string(formatLabel) + ": no <Root><Group>");

    // Depth first in file order, without recursion (a file may nest groups
    // as deep as it likes): each group's entries, then its groups.
    struct Visit
    {
        pugi::xml_node group;
        std::string path;
        bool recycled;
    };
    std::vector<Visit> stack{{rootGroup, {}, false}};
    Collector collector;
    std::size_t index = 0;
    while (!stack.empty()) {
        const Visit visit = std::move(stack.back());
        stack.pop_back();
        for (const pugi::xml_node node : visit.group.children("Entry")) {
            auto entry = entryOf(node, index++);
            if (!entry)
                return entry.failure();
            entry->tag = visit.path;
            if (auto added = collector.add(*entry, visit.recycled); !added)
                return added.failure();
        }
        std::vector<Visit> children;
        for (const pugi::xml_node child : visit.group.children("Group")) {
            const std::string name = child.child("Name").text().get();
            const bool recycled =
                visit.recycled ||
                (!recycleBin.empty() && recycleBin == child.child("UUID").text().get());
            children.push_back(
                {child, visit.path.empty() ? name : visit.path + "/" + name, recycled});
        }
        stack.insert(stack.end(), std::make_move_iterator(children.rbegin()),
                     std::make_move_iterator(children.rend()));
    }
    return std::move(collector).finish();
}

} // namespace

bool looksLikeKeePassCsv(std::string_view firstLine)
{
    return firstLine.starts_with("\"Group\",\"Title\",\"Username\"");
}

ImportResult<Imported> importKeePass(ByteView data)
{
    auto text = utf8Text(data, formatLabel);
    if (!text)
        return text.failure();
    std::string_view body = *text;
    if (body.starts_with("\xEF\xBB\xBF"))
        body.remove_prefix(3);
    const auto first = body.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return fail(ImportError::Malformed, std::string(formatLabel) + ": the file is empty");
    return body[first] == '<' ? importXml(body) : importCsv(body.substr(first));
}

} // namespace watchword::importers::detail
