// QR codes without Qt: made with libqrencode (an account's otpauth:// URI,
// Google transfer URIs) and read with ZXing-C++ from 8-bit grey pixels (the
// app passes a QImage's, the CLI a PNG file's, loaded with libpng).
//
// Texts in and out usually hold a secret: nothing here logs them, and the
// module matrix is wiped when it goes.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::qr {

enum class QrError {
    TooLong,       // more than a version-40 code holds at this correction level
    EncodeFailed,  // libqrencode failed otherwise (out of memory)
    NotAnImage,    // the bytes are not an image this reader decodes (PNG)
    ImageTooLarge, // over maximumImagePixels or maximumImageFileBytes
    NoCode,        // the image holds no QR code that decodes
};

template <typename T> using QrResult = Result<T, Error<QrError>>;

enum class Correction { Low, Medium, Quartile, High };

// A square of modules, without the quiet zone (4 modules of white on each
// side, which whoever draws it must leave).
class QrMatrix
{
public:
    QrMatrix() = default;
    QrMatrix(int size, SecureBuffer modules) noexcept;
    int size() const noexcept { return m_size; }
    // Whether the module at column x, row y (0-based) is dark.
    bool dark(int x, int y) const noexcept;

private:
    int m_size = 0;
    SecureBuffer m_modules; // size * size bytes, 1 = dark
};

inline constexpr int quietZoneModules = 4;

// The smallest QR code (byte mode) holding text at correction.
[[nodiscard]] QrResult<QrMatrix> encodeQr(std::string_view text,
                                          Correction correction = Correction::Medium);

// The code as a PNG file (8-bit grey): dark modules black on white, each
// scale x scale pixels (1 to 64), with the quiet zone. EncodeFailed if libpng
// fails (out of memory).
[[nodiscard]] QrResult<Bytes> encodePng(const QrMatrix& matrix, int scale = 8);

// Larger images are refused before they are decoded.
inline constexpr std::uint64_t maximumImagePixels = 50'000'000;
inline constexpr std::size_t maximumImageFileBytes = 64u * 1024 * 1024;

// 8-bit grey pixels, row after row, stride bytes apart.
struct GreyImage
{
    const std::uint8_t* pixels = nullptr;
    int width = 0;
    int height = 0;
    int stride = 0;
};

// Every QR code's text in image, top to bottom then left to right; NoCode
// with a sentence saying why when there is none.
[[nodiscard]] QrResult<std::vector<std::string>> decodeQr(const GreyImage& image);

// A PNG file's pixels as grey (alpha over white), for decodeQr.
struct GreyPixels
{
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> pixels; // width * height
    GreyImage view() const noexcept { return {pixels.data(), width, height, width}; }
};
[[nodiscard]] QrResult<GreyPixels> loadPng(ByteView file);
// Whether file starts with the PNG signature (loadPng may still refuse it).
[[nodiscard]] bool looksLikePng(ByteView file) noexcept;

} // namespace watchword::qr
