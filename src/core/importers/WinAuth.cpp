// WinAuth's export (docs/FORMAT.md section 9): a text file of otpauth://
// URIs, one a line ("otpauth://totp/Name?secret=...&digits=6&icon=WinAuth"),
// either as it is or in a ZIP archive, the one file in it, encrypted with the
// password the user gave (WinAuth writes traditional PKWARE encryption;
// WinZip's AES is read too). The archive is read by libzip, from memory;
// the text straight into a wiped buffer, no larger than an import may be.
#include "importers/Common.h"
#include "importers/Formats.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <zip.h>

namespace watchword::importers::detail {

namespace {

constexpr std::string_view formatLabel = "winauth";

struct ArchiveDiscard
{
    void operator()(zip_t* archive) const noexcept { zip_discard(archive); }
};
struct FileClose
{
    void operator()(zip_file_t* file) const noexcept { zip_fclose(file); }
};
using Archive = std::unique_ptr<zip_t, ArchiveDiscard>;
using ArchiveFile = std::unique_ptr<zip_file_t, FileClose>;

// The archive over data (no copy); nullptr if it is not a ZIP archive
// libzip can read.
Archive openArchive(ByteView data)
{
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t* source = zip_source_buffer_create(data.data(), data.size(), 0, &error);
    if (!source) {
        zip_error_fini(&error);
        return nullptr;
    }
    zip_t* archive = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error);
    if (!archive)
        zip_source_free(source);
    zip_error_fini(&error);
    return Archive(archive);
}

struct Member
{
    zip_uint64_t index = 0;
    zip_stat_t stat{};
    std::string name; // a copy: stat.name lives as long as the archive
};

// The archive's one file (directories aside): WinAuth writes one.
ImportResult<Member> onlyFile(zip_t* archive)
{
    const zip_int64_t count = zip_get_num_entries(archive, 0);
    std::optional<Member> found;
    for (zip_int64_t i = 0; i < count; ++i) {
        Member member;
        member.index = zip_uint64_t(i);
        zip_stat_init(&member.stat);
        if (zip_stat_index(archive, member.index, 0, &member.stat) != 0)
            return fail(ImportError::Malformed, std::string(formatLabel) +
                                                    ": the archive's entry " +
                                                    std::to_string(i + 1) + " cannot be read");
        const std::string_view name = (member.stat.valid & ZIP_STAT_NAME) ? member.stat.name : "";
        if (name.ends_with('/'))
            continue;
        member.name = name;
        if (found)
            return fail(ImportError::Malformed,
                        std::string(formatLabel) +
                            ": the archive holds more than one file; WinAuth's holds one");
        found = member;
    }
    if (!found)
        return fail(ImportError::Malformed, std::string(formatLabel) + ": the archive is empty");
    return *found;
}

bool encrypted(const Member& member)
{
    return (member.stat.valid & ZIP_STAT_ENCRYPTION_METHOD) &&
           member.stat.encryption_method != ZIP_EM_NONE;
}

// The member's text, decrypted with password if it is encrypted.
ImportResult<SecureBuffer> readMember(zip_t* archive, const Member& member, Password password)
{
    std::optional<SecureBuffer> terminated; // libzip takes a C string
    if (encrypted(member)) {
        if (!password)
            return fail(ImportError::PasswordRequired,
                        std::string(formatLabel) + ": the archive is encrypted; give its password");
        if (std::find(password->begin(), password->end(), std::uint8_t{0}) != password->end())
            return fail(ImportError::WrongPassword,
                        std::string(formatLabel) + ": the password is wrong");
        terminated.emplace(password->size() + 1);
        std::copy(password->begin(), password->end(), terminated->data());
        (*terminated)[password->size()] = 0;
    }
    if ((member.stat.valid & ZIP_STAT_SIZE) && member.stat.size > maximumImportBytes)
        return fail(ImportError::TooLarge,
                    std::string(formatLabel) + ": the file in the archive is " +
                        std::to_string(member.stat.size) + " bytes, over the " +
                        std::to_string(maximumImportBytes) + " read");
    ArchiveFile file(zip_fopen_index_encrypted(
        archive, member.index, 0,
        terminated ? reinterpret_cast<const char*>(terminated->data()) : nullptr));
    const auto failure = [&](int code) -> Failure<Error<ImportError>> {
        switch (code) {
        case ZIP_ER_WRONGPASSWD:
            return fail(ImportError::WrongPassword,
                        std::string(formatLabel) + ": the password is wrong");
        case ZIP_ER_CRC:
        case ZIP_ER_ZLIB:
            // A password that passes traditional encryption's one-byte check
            // by chance (1 in 256) decrypts to noise.
            return fail(terminated ? ImportError::WrongPassword : ImportError::Malformed,
                        std::string(formatLabel) +
                            (terminated ? ": the password is wrong (or the archive is damaged)"
                                        : ": the archive is damaged"));
        case ZIP_ER_ENCRNOTSUPP:
        case ZIP_ER_COMPNOTSUPP:
            return fail(ImportError::Unsupported,
                        std::string(formatLabel) +
                            ": the archive's encryption or compression is not one this build "
                            "reads");
        default:
            return fail(ImportError::Malformed,
                        std::string(formatLabel) + ": the archive cannot be read (" +
                            zip_error_strerror(zip_get_error(archive)) + ")");
        }
    };
    if (!file)
        return failure(zip_error_code_zip(zip_get_error(archive)));
    // As large as the archive says, and one byte more to catch a lie.
    const std::size_t expected =
        (member.stat.valid & ZIP_STAT_SIZE) ? std::size_t(member.stat.size) : maximumImportBytes;
    SecureBuffer text(expected + 1);
    std::size_t size = 0;
    while (size < text.size()) {
        const zip_int64_t got = zip_fread(file.get(), text.data() + size, text.size() - size);
        if (got < 0)
            return failure(zip_error_code_zip(zip_file_get_error(file.get())));
        if (got == 0)
            break;
        size += std::size_t(got);
    }
    if (size > expected)
        return fail(ImportError::Malformed,
                    std::string(formatLabel) +
                        ": the file in the archive is longer than the archive says");
    text.truncate(size);
    return text;
}

} // namespace

bool isZipArchive(ByteView data) noexcept
{
    return startsWith(data, std::string_view("PK\x03\x04", 4)) ||
           startsWith(data, std::string_view("PK\x05\x06", 4));
}

// The one file of the ZIP archive data, for the quick checks (which must not
// fail); nullopt if data is not such an archive.
std::optional<Member> onlyFileOf(ByteView data)
{
    if (!isZipArchive(data) || data.size() > maximumImportBytes)
        return std::nullopt;
    const Archive archive = openArchive(data);
    if (!archive)
        return std::nullopt;
    auto member = onlyFile(archive.get());
    if (!member)
        return std::nullopt;
    return *member;
}

bool looksLikeWinAuthArchive(ByteView data)
{
    const auto member = onlyFileOf(data);
    if (!member)
        return false;
    const std::string_view name = member->name;
    return name.size() > 4 && startsWithFolded(name.substr(name.size() - 4), ".txt");
}

bool winAuthEncrypted(ByteView data)
{
    const auto member = onlyFileOf(data);
    return member && encrypted(*member);
}

ImportResult<Imported> importWinAuth(ByteView data, Password password)
{
    if (auto sized = checkSize(formatLabel, data); !sized)
        return fail(sized.error());
    if (!isZipArchive(data))
        return importUriLines(formatLabel, Format::WinAuth, data);
    const Archive archive = openArchive(data);
    if (!archive)
        return fail(ImportError::Malformed,
                    std::string(formatLabel) + ": not a ZIP archive libzip can read (damaged?)");
    auto member = onlyFile(archive.get());
    if (!member)
        return fail(member.error());
    auto text = readMember(archive.get(), *member, password);
    if (!text)
        return fail(text.error());
    return importUriLines(formatLabel, Format::WinAuth, text->span());
}

} // namespace watchword::importers::detail
