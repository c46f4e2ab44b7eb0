#pragma once

// The base64 decoding before the table and vector paths existed, kept as the reference both
// tst_responseparser and the responseparser fuzzer compare the fast decoder with: whitespace
// dropped, padding fixed, Qt decodes (standard or URL-safe alphabet, aborting on a bad byte).

#include <QByteArray>

namespace nb2test {

inline QByteArray qtDecode(const QByteArray &text, bool *ok)
{
    QByteArray clean;
    bool urlSafe = false;
    for (char c : text) {
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
            continue;
        urlSafe = urlSafe || c == '-' || c == '_';
        clean.append(c);
    }
    while (clean.endsWith('='))
        clean.chop(1);
    if (clean.size() % 4 == 1) {
        *ok = false;
        return {};
    }
    while (clean.size() % 4 != 0)
        clean.append('=');
    const auto r = QByteArray::fromBase64Encoding(clean,
        (urlSafe ? QByteArray::Base64UrlEncoding : QByteArray::Base64Encoding)
            | QByteArray::AbortOnBase64DecodingErrors);
    *ok = r.decodingStatus == QByteArray::Base64DecodingStatus::Ok;
    return *ok ? r.decoded : QByteArray();
}

} // namespace nb2test
