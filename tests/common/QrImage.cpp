#include "common/QrImage.h"

#include <QPainter>
#include <QtGlobal>
#include <qrencode.h>

namespace watchword::test {

QImage qrImage(const QByteArray& text, int scale)
{
    QRcode* code = QRcode_encodeString8bit(text.constData(), 0, QR_ECLEVEL_M);
    if (code == nullptr)
        qFatal("libqrencode could not encode the test text");
    const int margin = 4;
    const int side = (code->width + 2 * margin) * scale;
    QImage image(side, side, QImage::Format_Grayscale8);
    image.fill(Qt::white);
    QPainter painter(&image);
    for (int y = 0; y < code->width; ++y)
        for (int x = 0; x < code->width; ++x)
            if (code->data[y * code->width + x] & 1)
                painter.fillRect((x + margin) * scale, (y + margin) * scale, scale, scale,
                                 Qt::black);
    QRcode_free(code);
    return image;
}

} // namespace watchword::test
