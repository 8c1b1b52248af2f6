// ZIP archives of other apps' exports, read from memory by libzip
// (docs/FORMAT.md section 9).
#include "interop/importers/ZipArchive.h"

#include "interop/importers/Common.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <zip.h>

namespace watchword::importers::detail {

namespace {

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

// The archive's members, directories aside, in order.
ImportResult<std::vector<Member>> filesOf(std::string_view format, zip_t* archive)
{
    const zip_int64_t count = zip_get_num_entries(archive, 0);
    std::vector<Member> files;
    for (zip_int64_t i = 0; i < count; ++i) {
        Member member;
        member.index = zip_uint64_t(i);
        zip_stat_init(&member.stat);
        if (zip_stat_index(archive, member.index, 0, &member.stat) != 0)
            return fail(ImportError::Malformed, std::string(format) + ": the archive's entry " +
                                                    std::to_string(i + 1) + " cannot be read");
        const std::string_view name = (member.stat.valid & ZIP_STAT_NAME) ? member.stat.name : "";
        if (name.ends_with('/'))
            continue;
        member.name = name;
        files.push_back(std::move(member));
    }
    return files;
}

bool encrypted(const Member& member)
{
    return (member.stat.valid & ZIP_STAT_ENCRYPTION_METHOD) &&
           member.stat.encryption_method != ZIP_EM_NONE;
}

// The member's text, decrypted with password if it is encrypted.
ImportResult<SecureBuffer> readMember(std::string_view format, zip_t* archive, const Member& member,
                                      Password password)
{
    std::optional<SecureBuffer> terminated; // libzip takes a C string
    if (encrypted(member)) {
        if (!password)
            return fail(ImportError::PasswordRequired,
                        std::string(format) + ": the archive is encrypted; give its password");
        if (std::find(password->begin(), password->end(), std::uint8_t{0}) != password->end())
            return fail(ImportError::WrongPassword,
                        std::string(format) + ": the password is wrong");
        terminated.emplace(password->size() + 1);
        std::copy(password->begin(), password->end(), terminated->data());
        (*terminated)[password->size()] = 0;
    }
    if ((member.stat.valid & ZIP_STAT_SIZE) && member.stat.size > maximumImportBytes)
        return fail(ImportError::TooLarge, std::string(format) + ": the file in the archive is " +
                                               std::to_string(member.stat.size) +
                                               " bytes, over the " +
                                               std::to_string(maximumImportBytes) + " read");
    ArchiveFile file(zip_fopen_index_encrypted(
        archive, member.index, 0,
        terminated ? reinterpret_cast<const char*>(terminated->data()) : nullptr));
    const auto failure = [&](int code) -> Failure<Error<ImportError>> {
        switch (code) {
        case ZIP_ER_WRONGPASSWD:
            return fail(ImportError::WrongPassword,
                        std::string(format) + ": the password is wrong");
        case ZIP_ER_CRC:
            // WinZip AES-2 stores no CRC-32 (0 in its place) and Debian 12's
            // libzip 1.7 checks it all the same: after the password check
            // passed (2 bytes: 1 in 65,536 wrong ones do), this is that.
            if (member.stat.encryption_method >= ZIP_EM_AES_128 &&
                member.stat.encryption_method <= ZIP_EM_AES_256 &&
                (member.stat.valid & ZIP_STAT_CRC) && member.stat.crc == 0)
                return fail(ImportError::Unsupported,
                            std::string(format) +
                                ": the archive is WinZip AES-2 encrypted, which this system's "
                                "libzip (1.7) cannot verify: extract " +
                                member.name +
                                " with the password (for example 7z x) and import that");
            [[fallthrough]];
        case ZIP_ER_ZLIB:
            // A password that passes traditional encryption's one-byte check
            // by chance (1 in 256) decrypts to noise.
            return fail(terminated ? ImportError::WrongPassword : ImportError::Malformed,
                        std::string(format) +
                            (terminated ? ": the password is wrong (or the archive is damaged)"
                                        : ": the archive is damaged"));
        case ZIP_ER_ENCRNOTSUPP:
        case ZIP_ER_COMPNOTSUPP:
            return fail(ImportError::Unsupported,
                        std::string(format) +
                            ": the archive's encryption or compression is not one this build "
                            "reads");
        default:
            return fail(ImportError::Malformed,
                        std::string(format) + ": the archive cannot be read (" +
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
                    std::string(format) +
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

std::optional<std::vector<ZipFile>> zipFiles(ByteView data)
{
    if (!isZipArchive(data) || data.size() > maximumImportBytes)
        return std::nullopt;
    const Archive archive = openArchive(data);
    if (!archive)
        return std::nullopt;
    auto files = filesOf("zip", archive.get());
    if (!files)
        return std::nullopt;
    std::vector<ZipFile> out;
    for (const auto& member : *files)
        out.push_back({member.name, encrypted(member)});
    return out;
}

ImportResult<SecureBuffer> readZipFile(std::string_view format, ByteView data,
                                       std::string_view name, std::string_view expected,
                                       Password password)
{
    if (auto sized = checkSize(format, data); !sized)
        return sized.failure();
    const Archive archive = openArchive(data);
    if (!archive)
        return fail(ImportError::Malformed,
                    std::string(format) + ": not a ZIP archive libzip can read (damaged?)");
    auto files = filesOf(format, archive.get());
    if (!files)
        return files.failure();
    if (files->empty())
        return fail(ImportError::Malformed, std::string(format) + ": the archive is empty");
    const Member* chosen = nullptr;
    if (name.empty()) {
        if (files->size() > 1)
            return fail(ImportError::Malformed, std::string(format) +
                                                    ": the archive holds more than one file; " +
                                                    std::string(expected));
        chosen = &files->front();
    } else {
        for (const auto& member : *files)
            if (member.name == name)
                chosen = &member;
        if (!chosen)
            return fail(ImportError::Malformed, std::string(format) + ": the archive has no " +
                                                    std::string(name) + "; " +
                                                    std::string(expected));
    }
    return readMember(format, archive.get(), *chosen, password);
}

} // namespace watchword::importers::detail
