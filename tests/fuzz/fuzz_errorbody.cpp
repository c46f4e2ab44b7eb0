// libFuzzer harness: the error-body parser (ResponseParser::parseError). Input: two bytes of
// HTTP status (folded into 100..599), then the body. Any body of any of the three JSON shapes,
// HTML or garbage gives a classified Error whose message names the status and carries the
// server's text unchanged (a "%1" in the server's message must not be taken for a placeholder),
// bounded to ResponseParser::kMaxServerMessageChars (a server's megabytes are not kept).

#include "core/api/responseparser.h"
#include "tests/fuzz/fuzzsupport.h"

using namespace nb2;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const int status = 100 + (data[0] << 8 | data[1]) % 500;
    const QByteArray body = fuzz::view(data + 2, size - 2);
    const Error e = ResponseParser::parseError(status, body);

    fuzz::check(e.api.httpStatus == status, "status not kept");
    fuzz::check(!e.message.isEmpty(), "empty message");
    fuzz::check(
        e.message.contains(QString::number(status)), "the message does not name the HTTP status", e.message.toUtf8());
    if (!e.api.serverMessage.isEmpty()) {
        const QString said = ResponseParser::withoutFinalDot(e.api.serverMessage);
        fuzz::check(e.message.contains(said), "the server's message is not quoted verbatim", e.message.toUtf8());
    }
    fuzz::check(e.api.serverMessage.size() <= ResponseParser::kMaxServerMessageChars, "server message not bounded");
    fuzz::check(e.api.serverCode.size() <= ResponseParser::kMaxServerCodeChars, "server code not bounded");
    fuzz::check(e.api.retryAfterMs >= -1, "negative retry delay");
    (void)ResponseParser::kindForCode(e.api.serverCode, ErrorKind::Server);
    return 0;
}
