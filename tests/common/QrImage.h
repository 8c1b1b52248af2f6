#pragma once

#include <QByteArray>
#include <QImage>

namespace watchword::test {

// text as a QR code drawn by libqrencode (an encoder independent of the
// decoder under test): black modules of scale pixels on white, with the
// four-module quiet zone the standard asks for.
QImage qrImage(const QByteArray& text, int scale = 4);

} // namespace watchword::test
