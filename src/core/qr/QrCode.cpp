#include "qr/QrCode.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <png.h>
#include <qrencode.h>
#include <utility>
// ZXing 1.4's text() is UTF-16 unless this asks for the UTF-8 it moves to.
#define ZX_USE_UTF8
#include <ZXing/ReadBarcode.h>

namespace watchword::qr {

QrMatrix::QrMatrix(int size, SecureBuffer modules) noexcept
    : m_size(size), m_modules(std::move(modules))
{}

bool QrMatrix::dark(int x, int y) const noexcept
{
    if (x < 0 || y < 0 || x >= m_size || y >= m_size)
        return false;
    return m_modules[std::size_t(y) * std::size_t(m_size) + std::size_t(x)] != 0;
}

namespace {

// libqrencode's code, whose module bytes are wiped before they are freed:
// they spell out the text, secret included.
struct QrcodeDeleter
{
    void operator()(QRcode* code) const noexcept
    {
        if (code->data != nullptr && code->width > 0)
            secureWipe(code->data, std::size_t(code->width) * std::size_t(code->width));
        QRcode_free(code);
    }
};
using QrcodePtr = std::unique_ptr<QRcode, QrcodeDeleter>;

QRecLevel levelOf(Correction correction)
{
    switch (correction) {
    case Correction::Low:
        return QR_ECLEVEL_L;
    case Correction::Medium:
        return QR_ECLEVEL_M;
    case Correction::Quartile:
        return QR_ECLEVEL_Q;
    case Correction::High:
        return QR_ECLEVEL_H;
    }
    return QR_ECLEVEL_M;
}

std::string_view levelName(Correction correction)
{
    switch (correction) {
    case Correction::Low:
        return "low";
    case Correction::Medium:
        return "medium";
    case Correction::Quartile:
        return "quartile";
    case Correction::High:
        return "high";
    }
    return "medium";
}

struct Found
{
    std::string text;
    int top = 0;
    int left = 0;
};

// The QR codes in an 8-bit grey image, dark modules on light.
std::vector<Found> readCodes(const std::uint8_t* pixels, int width, int height, int stride)
{
    const ZXing::ImageView view(pixels, width, height, ZXing::ImageFormat::Lum, stride);
    ZXing::DecodeHints hints;
    hints.setFormats(ZXing::BarcodeFormat::QRCode);
    hints.setTryHarder(true);
    hints.setTryRotate(true);
    std::vector<Found> found;
    for (const auto& result : ZXing::ReadBarcodes(view, hints)) {
        if (!result.isValid())
            continue;
        const auto& position = result.position();
        int top = position.topLeft().y;
        int left = position.topLeft().x;
        for (const auto& corner : position) {
            top = std::min(top, corner.y);
            left = std::min(left, corner.x);
        }
        found.push_back({result.text(), top, left});
    }
    return found;
}

constexpr std::string_view pngSignature = "\x89PNG\r\n\x1a\n";

// libpng's simplified reader, freed on every way out.
struct PngImage
{
    png_image image{};
    PngImage() { image.version = PNG_IMAGE_VERSION; }
    ~PngImage() { png_image_free(&image); }
    PngImage(const PngImage&) = delete;
    PngImage& operator=(const PngImage&) = delete;
};

} // namespace

QrResult<QrMatrix> encodeQr(std::string_view text, Correction correction)
{
    if (text.empty())
        return fail(QrError::EncodeFailed, "A QR code needs at least one character of text.");
    if (text.size() > std::size_t(INT32_MAX))
        return fail(QrError::TooLong, "The text is too long for one QR code.");
    errno = 0;
    const QrcodePtr code(QRcode_encodeData(static_cast<int>(text.size()),
                                           reinterpret_cast<const unsigned char*>(text.data()), 0,
                                           levelOf(correction)));
    if (!code) {
        if (errno == ERANGE)
            return fail(QrError::TooLong, "The text has " + std::to_string(text.size()) +
                                              " bytes: more than the largest QR code holds at " +
                                              std::string(levelName(correction)) +
                                              " error correction.");
        return fail(QrError::EncodeFailed, "The QR code could not be made (out of memory).");
    }
    const int size = code->width;
    SecureBuffer modules(std::size_t(size) * std::size_t(size));
    for (std::size_t i = 0; i < modules.size(); ++i)
        modules[i] = code->data[i] & 1u; // bit 0: dark
    return QrMatrix(size, std::move(modules));
}

QrResult<std::vector<std::string>> decodeQr(const GreyImage& image)
{
    if (image.pixels == nullptr || image.width <= 0 || image.height <= 0 ||
        image.stride < image.width)
        return fail(QrError::NotAnImage, "The image is empty.");
    if (std::uint64_t(image.width) * std::uint64_t(image.height) > maximumImagePixels)
        return fail(QrError::ImageTooLarge,
                    "The image is too large to scan (" + std::to_string(image.width) + " x " +
                        std::to_string(image.height) + " pixels; at most " +
                        std::to_string(maximumImagePixels / 1'000'000) + " million pixels).");

    auto found = readCodes(image.pixels, image.width, image.height, image.stride);
    if (found.empty()) {
        // Light modules on a dark background (dark themes, some screens):
        // the decoder only looks for dark on light.
        std::vector<std::uint8_t> inverted(std::size_t(image.width) * std::size_t(image.height));
        for (int y = 0; y < image.height; ++y) {
            const std::uint8_t* row = image.pixels + std::size_t(y) * std::size_t(image.stride);
            std::uint8_t* out = inverted.data() + std::size_t(y) * std::size_t(image.width);
            for (int x = 0; x < image.width; ++x)
                out[x] = static_cast<std::uint8_t>(255 - row[x]);
        }
        found = readCodes(inverted.data(), image.width, image.height, image.width);
    }
    std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
        return std::pair(a.top, a.left) < std::pair(b.top, b.left);
    });
    std::vector<std::string> texts;
    for (auto& code : found)
        if (std::find(texts.begin(), texts.end(), code.text) == texts.end())
            texts.push_back(std::move(code.text));
    for (auto& code : found)
        secureWipe(code.text.data(), code.text.size());
    if (texts.empty())
        return fail(QrError::NoCode, "No QR code found in the image.");
    return texts;
}

QrResult<Bytes> encodePng(const QrMatrix& matrix, int scale)
{
    scale = std::clamp(scale, 1, 64);
    const int side = (matrix.size() + 2 * quietZoneModules) * scale;
    std::vector<std::uint8_t> pixels(static_cast<std::size_t>(side) * side, 255);
    for (int y = 0; y < matrix.size(); ++y)
        for (int x = 0; x < matrix.size(); ++x) {
            if (!matrix.dark(x, y))
                continue;
            for (int dy = 0; dy < scale; ++dy) {
                const auto row = static_cast<std::size_t>((y + quietZoneModules) * scale + dy);
                auto* at = pixels.data() + row * side + (x + quietZoneModules) * scale;
                std::fill(at, at + scale, std::uint8_t{0});
            }
        }
    PngImage writer;
    writer.image.width = static_cast<png_uint_32>(side);
    writer.image.height = static_cast<png_uint_32>(side);
    writer.image.format = PNG_FORMAT_GRAY;
    png_alloc_size_t size = 0;
    if (png_image_write_to_memory(&writer.image, nullptr, &size, 0, pixels.data(), side, nullptr) ==
        0)
        return fail(QrError::EncodeFailed,
                    std::string("The PNG image could not be written: ") + writer.image.message);
    Bytes png(size);
    if (png_image_write_to_memory(&writer.image, png.data(), &size, 0, pixels.data(), side,
                                  nullptr) == 0)
        return fail(QrError::EncodeFailed,
                    std::string("The PNG image could not be written: ") + writer.image.message);
    png.resize(size);
    return png;
}

bool looksLikePng(ByteView file) noexcept
{
    return file.size() >= pngSignature.size() &&
           std::memcmp(file.data(), pngSignature.data(), pngSignature.size()) == 0;
}

QrResult<GreyPixels> loadPng(ByteView file)
{
    if (file.size() > maximumImageFileBytes)
        return fail(QrError::ImageTooLarge,
                    "The image file has " + std::to_string(file.size() / (1024 * 1024)) +
                        " MB; at most " + std::to_string(maximumImageFileBytes / (1024 * 1024)) +
                        " MB are scanned.");
    if (!looksLikePng(file))
        return fail(QrError::NotAnImage, "The file is not a PNG image.");

    PngImage reader;
    if (png_image_begin_read_from_memory(&reader.image, file.data(), file.size()) == 0)
        return fail(QrError::NotAnImage,
                    std::string("The PNG image could not be read: ") + reader.image.message + ".");
    const std::uint64_t pixels =
        std::uint64_t(reader.image.width) * std::uint64_t(reader.image.height);
    if (reader.image.width == 0 || reader.image.height == 0)
        return fail(QrError::NotAnImage, "The PNG image is empty.");
    if (pixels > maximumImagePixels)
        return fail(QrError::ImageTooLarge,
                    "The image is too large to scan (" + std::to_string(reader.image.width) +
                        " x " + std::to_string(reader.image.height) + " pixels; at most " +
                        std::to_string(maximumImagePixels / 1'000'000) + " million pixels).");

    // Grey without alpha: libpng lays transparent pixels over the background
    // given, white, so a code saved on a transparent background reads as it
    // looks instead of black on black.
    reader.image.format = PNG_FORMAT_GRAY;
    png_color white{255, 255, 255};
    GreyPixels grey;
    grey.width = static_cast<int>(reader.image.width);
    grey.height = static_cast<int>(reader.image.height);
    grey.pixels.resize(static_cast<std::size_t>(pixels));
    if (png_image_finish_read(&reader.image, &white, grey.pixels.data(),
                              static_cast<png_int_32>(reader.image.width), nullptr) == 0)
        return fail(QrError::NotAnImage,
                    std::string("The PNG image is damaged: ") + reader.image.message + ".");
    return grey;
}

} // namespace watchword::qr
