// PNG files made by libpng's own writer, for the tests that read images
// (the core's QR reader, watchword-cli contacts add --qr). A test that
// includes this links PkgConfig::LIBPNG.
#pragma once

#include <QByteArray>
#include <cstdint>
#include <png.h>
#include <vector>

namespace watchword::test {

// pixels (rows of width pixels of the given libpng format, no padding) as a
// PNG file; a failure of libpng stops the test run.
inline QByteArray writePng(const std::vector<std::uint8_t>& pixels, int width, int height,
                           png_uint_32 format)
{
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    image.width = png_uint_32(width);
    image.height = png_uint_32(height);
    image.format = format;
    png_alloc_size_t size = 0;
    if (png_image_write_to_memory(&image, nullptr, &size, 0, pixels.data(), 0, nullptr) == 0)
        qFatal("libpng could not size the test image: %s", image.message);
    QByteArray out(qsizetype(size), '\0');
    if (png_image_write_to_memory(&image, out.data(), &size, 0, pixels.data(), 0, nullptr) == 0)
        qFatal("libpng could not write the test image: %s", image.message);
    out.truncate(qsizetype(size));
    return out;
}

} // namespace watchword::test
