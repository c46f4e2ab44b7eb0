// Tests of nb2::FakeServer over real HTTP on 127.0.0.1 with a raw httplib client. The
// test reads responses with QJsonDocument, so it shares no JSON code with the server.
#include "core/fakeapi/bitmapfont.h"
#include "core/fakeapi/fakeimagepainter.h"
#include "core/fakeapi/fakeserver.h"

#include <QBuffer>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <httplib.h>

#include <memory>
#include <thread>

using namespace nb2;

namespace {

const QString kModel = QStringLiteral("gemini-3.1-flash-lite-image");

struct Reply {
    bool ok = false; // a complete HTTP response arrived
    int status = 0;
    QByteArray body;
    QString contentType;
    httplib::Headers headers;
    qint64 elapsedMs = 0;

    QJsonObject obj() const { return QJsonDocument::fromJson(body).object(); }
    QString header(const char *name) const
    {
        auto it = headers.find(name);
        return it == headers.end() ? QString() : QString::fromStdString(it->second);
    }
};

QByteArray imageBytes(const QImage &img, const char *format)
{
    QByteArray out;
    QBuffer buf(&out);
    buf.open(QIODevice::WriteOnly);
    img.save(&buf, format);
    return out;
}

QImage solid(QSize size, QColor c)
{
    QImage img(size, QImage::Format_RGB32);
    img.fill(c);
    return img;
}

QJsonObject generateBody(
    const QString &prompt, const QString &aspect = QStringLiteral("16:9"), const QString &level = QStringLiteral("low"))
{
    QJsonObject body {{QStringLiteral("model"), kModel}, {QStringLiteral("input"), prompt}};
    QJsonObject rf {{QStringLiteral("type"), QStringLiteral("image")}};
    if (!aspect.isEmpty())
        rf.insert(QStringLiteral("aspect_ratio"), aspect);
    body.insert(QStringLiteral("response_format"), rf);
    if (!level.isEmpty())
        body.insert(QStringLiteral("generation_config"), QJsonObject {{QStringLiteral("thinking_level"), level}});
    body.insert(QStringLiteral("store"), true);
    return body;
}

QJsonObject imagePart(const QByteArray &bytes, const QString &mime)
{
    return QJsonObject {{QStringLiteral("type"), QStringLiteral("image")},
        {QStringLiteral("data"), QString::fromLatin1(bytes.toBase64())}, {QStringLiteral("mime_type"), mime}};
}

QJsonObject textPart(const QString &text)
{
    return QJsonObject {{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), text}};
}

/** The final image: last image of the model_output steps (never a thought draft). */
QByteArray outputImage(const QJsonObject &interaction)
{
    QByteArray found;
    for (const QJsonValue &st : interaction.value(QStringLiteral("steps")).toArray()) {
        if (st[QStringLiteral("type")].toString() != QLatin1String("model_output"))
            continue;
        for (const QJsonValue &c : st[QStringLiteral("content")].toArray()) {
            if (c[QStringLiteral("type")].toString() == QLatin1String("image"))
                found = QByteArray::fromBase64(c[QStringLiteral("data")].toString().toLatin1());
        }
    }
    return found;
}

QString outputText(const QJsonObject &interaction)
{
    QString text;
    for (const QJsonValue &st : interaction.value(QStringLiteral("steps")).toArray()) {
        if (st[QStringLiteral("type")].toString() != QLatin1String("model_output"))
            continue;
        for (const QJsonValue &c : st[QStringLiteral("content")].toArray()) {
            if (c[QStringLiteral("type")].toString() == QLatin1String("text"))
                text += c[QStringLiteral("text")].toString();
        }
    }
    return text;
}

struct SseEvent {
    QString eventName;
    QString id;
    QByteArray data;
    QJsonObject json;
};

QList<SseEvent> parseSse(const QByteArray &body)
{
    QList<SseEvent> events;
    const QList<QByteArray> blocks = body.split('\n');
    SseEvent cur;
    bool any = false;
    for (const QByteArray &line : blocks) {
        if (line.isEmpty()) {
            if (any) {
                cur.json = QJsonDocument::fromJson(cur.data).object();
                events << cur;
            }
            cur = SseEvent();
            any = false;
            continue;
        }
        any = true;
        if (line.startsWith("event: "))
            cur.eventName = QString::fromUtf8(line.mid(7));
        else if (line.startsWith("data: "))
            cur.data += line.mid(6);
    }
    if (any) {
        cur.json = QJsonDocument::fromJson(cur.data).object();
        events << cur;
    }
    return events;
}

double meanDiff(const QColor &a, const QColor &b)
{
    return (std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue())) / 3.0;
}

} // namespace

class tst_FakeServer : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<FakeServer> m_server;

    Reply send(const char *method, const QString &path, const QByteArray &body = {},
        const QString &key = QStringLiteral("test-key"), const httplib::Headers &extra = {})
    {
        httplib::Client cli("127.0.0.1", m_server->port());
        cli.set_url_encode(false); // the tests send paths exactly as written
        cli.set_read_timeout(30, 0);
        httplib::Headers headers = extra;
        if (!key.isNull())
            headers.emplace("x-goog-api-key", key.toStdString());
        const std::string p = path.toStdString();
        QElapsedTimer timer;
        timer.start();
        httplib::Result res = std::string(method) == "GET" ? cli.Get(p, headers)
            : std::string(method) == "DELETE"              ? cli.Delete(p, headers)
                                              : cli.Post(p, headers, body.toStdString(), "application/json");
        Reply r;
        r.elapsedMs = timer.elapsed();
        if (!res)
            return r;
        r.ok = true;
        r.status = res->status;
        r.body = QByteArray::fromStdString(res->body);
        r.contentType = QString::fromStdString(res->get_header_value("Content-Type"));
        r.headers = res->headers;
        return r;
    }

    Reply create(const QJsonObject &body, const QString &path = QStringLiteral("/v1/interactions"))
    {
        return send("POST", path, QJsonDocument(body).toJson(QJsonDocument::Compact));
    }

    QJsonObject createOk(const QJsonObject &body)
    {
        const Reply r = create(body);
        if (r.status != 200)
            qWarning("unexpected %d: %s", r.status, r.body.left(400).constData());
        return r.status == 200 ? r.obj() : QJsonObject();
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<FakeServer>();
        QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
        QVERIFY(m_server->port() > 0);
        QCOMPARE(m_server->baseUrl(), QStringLiteral("http://127.0.0.1:%1").arg(m_server->port()));
    }
    void cleanup() { m_server.reset(); }

    // ---- endpoints -------------------------------------------------------------------

    void fixedImageAnswersCarryTheWholeImage()
    {
        // FakeServerOptions::fixedImageJpeg (benchmarks): the answer is built around a stand-in
        // for the encoded image; every form a client can get must carry the real bytes.
        QTemporaryDir storeDir;
        FakeServerOptions o;
        o.fixedImageJpeg = imageBytes(solid(QSize(640, 480), QColor(20, 120, 200)), "JPEG");
        o.storeDir = storeDir.path();
        m_server = std::make_unique<FakeServer>(o);
        QVERIFY(m_server->start());
        auto imageOf = [](const QJsonObject &interaction) {
            const QJsonArray content
                = interaction[QStringLiteral("steps")].toArray().last()[QStringLiteral("content")].toArray();
            return QByteArray::fromBase64(content.last()[QStringLiteral("data")].toString().toLatin1());
        };
        auto draftOf = [](const QJsonObject &interaction) {
            const QJsonArray summary
                = interaction[QStringLiteral("steps")].toArray().first()[QStringLiteral("summary")].toArray();
            return QByteArray::fromBase64(summary.last()[QStringLiteral("data")].toString().toLatin1());
        };
        // A prompt that looks like a stand-in is echoed as it is (the real ones carry a nonce).
        const QString prompt = QStringLiteral("nb2fake-fixed-image- a harbour");
        const Reply unary = create(generateBody(prompt));
        QCOMPARE(unary.status, 200);
        const QRegularExpression standIn(QStringLiteral("nb2fake-fixed-(image|draft)-[A-Za-z0-9_-]{24}"));
        QVERIFY(!standIn.match(QString::fromLatin1(unary.body)).hasMatch());
        const QJsonObject o1 = unary.obj();
        QCOMPARE(imageOf(o1), o.fixedImageJpeg);
        const QByteArray draft = draftOf(o1);
        QVERIFY(draft.startsWith("\xFF\xD8") && draft != o.fixedImageJpeg);
        const QJsonArray content = o1[QStringLiteral("steps")].toArray().last()[QStringLiteral("content")].toArray();
        QVERIFY(content.first()[QStringLiteral("text")].toString().contains(prompt));

        QJsonObject streamBody = generateBody(prompt);
        streamBody[QStringLiteral("stream")] = true;
        const Reply streamed = create(streamBody);
        QCOMPARE(streamed.status, 200);
        QVERIFY(!standIn.match(QString::fromLatin1(streamed.body)).hasMatch());
        QByteArray streamedImage, streamedDraft;
        for (const SseEvent &e : parseSse(streamed.body)) {
            const QJsonObject delta = e.json[QStringLiteral("delta")].toObject();
            if (delta[QStringLiteral("type")].toString() == QLatin1String("image"))
                streamedImage = QByteArray::fromBase64(delta[QStringLiteral("data")].toString().toLatin1());
            const QJsonObject part = delta[QStringLiteral("content")].toObject();
            if (part[QStringLiteral("type")].toString() == QLatin1String("image"))
                streamedDraft = QByteArray::fromBase64(part[QStringLiteral("data")].toString().toLatin1());
        }
        QCOMPARE(streamedImage, o.fixedImageJpeg);
        QCOMPARE(streamedDraft, draft);

        // get, from memory and from the store folder (another fake, as the next CLI command's).
        const QString id = o1[QStringLiteral("id")].toString();
        const Reply got = send("GET", QStringLiteral("/v1/interactions/%1?stream=false").arg(id));
        QCOMPARE(got.status, 200);
        QCOMPARE(imageOf(got.obj()), o.fixedImageJpeg);
        QCOMPARE(draftOf(got.obj()), draft);
        QVERIFY(!standIn.match(QString::fromLatin1(got.body)).hasMatch());
        // The store keeps the stand-ins (not ~1.4 MB of base64 per interaction): a streamed get
        // and the record in the store folder must still carry the real bytes.
        const Reply gotStreamed = send("GET", QStringLiteral("/v1/interactions/%1?stream=true").arg(id));
        QCOMPARE(gotStreamed.status, 200);
        QVERIFY(!standIn.match(QString::fromLatin1(gotStreamed.body)).hasMatch());
        QByteArray replayedImage;
        for (const SseEvent &e : parseSse(gotStreamed.body)) {
            const QJsonObject delta = e.json[QStringLiteral("delta")].toObject();
            if (delta[QStringLiteral("type")].toString() == QLatin1String("image"))
                replayedImage = QByteArray::fromBase64(delta[QStringLiteral("data")].toString().toLatin1());
        }
        QCOMPARE(replayedImage, o.fixedImageJpeg);
        int records = 0;
        for (const QFileInfo &fi : QDir(storeDir.path()).entryInfoList(QDir::Files)) {
            QFile record(fi.absoluteFilePath());
            QVERIFY(record.open(QIODevice::ReadOnly));
            const QByteArray text = record.readAll();
            QVERIFY2(!standIn.match(QString::fromLatin1(text)).hasMatch(), qPrintable(fi.fileName()));
            QVERIFY(text.contains(o.fixedImageJpeg.toBase64()));
            ++records;
        }
        QVERIFY(records >= 2);
        // The faults that cut or trickle the body work on the whole answer, never on stand-ins.
        FakeFault cut;
        cut.kind = FakeFault::Kind::TruncatedJson;
        m_server->injectFault(cut);
        const Reply truncated = create(generateBody(prompt));
        QCOMPARE(truncated.status, 200);
        QVERIFY(!standIn.match(QString::fromLatin1(truncated.body)).hasMatch());
        QVERIFY2(truncated.body.size() >= unary.body.size() / 2 - 64 && truncated.body.size() < unary.body.size() - 64,
            qPrintable(QString::number(truncated.body.size())));
        QVERIFY(QJsonDocument::fromJson(truncated.body).isNull());
        FakeFault trickle;
        trickle.kind = FakeFault::Kind::SlowTrickle;
        trickle.trickleMs = 100;
        m_server->injectFault(trickle);
        const Reply trickled = create(generateBody(prompt));
        QCOMPARE(trickled.status, 200);
        QVERIFY2(trickled.elapsedMs >= 80, qPrintable(QString::number(trickled.elapsedMs)));
        QCOMPARE(imageOf(trickled.obj()), o.fixedImageJpeg);
        QCOMPARE(draftOf(trickled.obj()), draft);
        m_server = std::make_unique<FakeServer>(o);
        QVERIFY(m_server->start());
        const Reply later = send("GET", QStringLiteral("/v1/interactions/%1?stream=false").arg(id));
        QCOMPARE(later.status, 200);
        QVERIFY(!standIn.match(QString::fromLatin1(later.body)).hasMatch());
        QCOMPARE(imageOf(later.obj()), o.fixedImageJpeg);
    }

    void peakConcurrentRequestsCountsOverlappingAnswers()
    {
        m_server->setLatencyMs(300);
        m_server->resetPeakConcurrentRequests();
        QCOMPARE(m_server->peakConcurrentRequests(), 0);
        std::vector<std::thread> clients;
        for (int i = 0; i < 3; ++i)
            clients.emplace_back([this, i] { create(generateBody(QStringLiteral("overlap %1").arg(i))); });
        for (std::thread &t : clients)
            t.join();
        QCOMPARE(m_server->peakConcurrentRequests(), 3);
        m_server->resetPeakConcurrentRequests();
        for (int i = 0; i < 2; ++i) {
            QJsonObject body = generateBody(QStringLiteral("one at a time %1").arg(i));
            body[QStringLiteral("stream")] = true;
            QCOMPARE(create(body).status, 200);
        }
        QCOMPARE(m_server->peakConcurrentRequests(), 1);
    }

    void createReturnsRealisticInteraction()
    {
        const Reply r = create(generateBody(QStringLiteral("a red fox in snow")));
        QCOMPARE(r.status, 200);
        QVERIFY(r.contentType.startsWith(QLatin1String("application/json")));
        const QJsonObject o = r.obj();
        QVERIFY(o.value(QStringLiteral("id")).toString().startsWith(QLatin1String("v1_")));
        QVERIFY(o.value(QStringLiteral("id")).toString().size() > 40);
        QVERIFY(QRegularExpression(QStringLiteral("^v1_[A-Za-z0-9_-]+$"))
                    .match(o[QStringLiteral("id")].toString())
                    .hasMatch());
        QCOMPARE(o[QStringLiteral("object")].toString(), QStringLiteral("interaction"));
        QCOMPARE(o[QStringLiteral("model")].toString(), kModel);
        QCOMPARE(o[QStringLiteral("status")].toString(), QStringLiteral("completed"));
        const QRegularExpression iso(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$"));
        QVERIFY(iso.match(o[QStringLiteral("created")].toString()).hasMatch());
        QVERIFY(iso.match(o[QStringLiteral("updated")].toString()).hasMatch());
        QVERIFY(!o.contains(QStringLiteral("previous_interaction_id")));

        const QJsonArray steps = o[QStringLiteral("steps")].toArray();
        QCOMPARE(steps.size(), 2);
        QCOMPARE(steps[0][QStringLiteral("type")].toString(), QStringLiteral("thought"));
        QVERIFY(!QByteArray::fromBase64(steps[0][QStringLiteral("signature")].toString().toLatin1()).isEmpty());
        const QJsonArray summary = steps[0][QStringLiteral("summary")].toArray();
        QCOMPARE(summary.last()[QStringLiteral("type")].toString(), QStringLiteral("image")); // draft
        QCOMPARE(steps[1][QStringLiteral("type")].toString(), QStringLiteral("model_output"));
        const QJsonArray content = steps[1][QStringLiteral("content")].toArray();
        QCOMPARE(content[0][QStringLiteral("type")].toString(), QStringLiteral("text"));
        QVERIFY(!content[0][QStringLiteral("text")].toString().isEmpty());
        QCOMPARE(content[1][QStringLiteral("mime_type")].toString(), QStringLiteral("image/jpeg"));

        const QByteArray draft = QByteArray::fromBase64(summary.last()[QStringLiteral("data")].toString().toLatin1());
        const QByteArray image = outputImage(o);
        QVERIFY(image.startsWith("\xFF\xD8\xFF"));
        QVERIFY(draft != image);
        QVERIFY(QImage::fromData(draft).width() < QImage::fromData(image).width());

        const QJsonObject usage = o[QStringLiteral("usage")].toObject();
        QVERIFY(usage[QStringLiteral("total_input_tokens")].toInt() > 0);
        QVERIFY(usage[QStringLiteral("total_output_tokens")].toInt() >= 1120);
        QVERIFY(usage[QStringLiteral("total_thought_tokens")].toInt() > 0);
        QCOMPARE(usage[QStringLiteral("total_tokens")].toInt(),
            usage[QStringLiteral("total_input_tokens")].toInt() + usage[QStringLiteral("total_output_tokens")].toInt()
                + usage[QStringLiteral("total_thought_tokens")].toInt());
        QCOMPARE(m_server->interactionCount(), 1);

        const QList<FakeRequest> log = m_server->requests();
        QCOMPARE(log.size(), 1);
        QCOMPARE(log[0].method, QStringLiteral("POST"));
        QCOMPARE(log[0].path, QStringLiteral("/v1/interactions"));
        QCOMPARE(log[0].headers.value(QStringLiteral("x-goog-api-key")), QStringLiteral("test-key"));
        QCOMPARE(QJsonDocument::fromJson(log[0].body).object(), generateBody(QStringLiteral("a red fox in snow")));
        m_server->clearRequests();
        QVERIFY(m_server->requests().isEmpty());
    }

    void createOnEveryPathForm_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("v1") << QStringLiteral("/v1/interactions");
        QTest::newRow("v1beta") << QStringLiteral("/v1beta/interactions");
        QTest::newRow("prefix") << QStringLiteral("/some/prefix/v1/interactions");
        QTest::newRow("key as query") << QStringLiteral("/v1/interactions?key=test-key");
    }
    void createOnEveryPathForm()
    {
        QFETCH(QString, path);
        const QByteArray body = QJsonDocument(generateBody(QStringLiteral("cat"))).toJson();
        const QString key = path.contains(QLatin1String("key=")) ? QString() : QStringLiteral("test-key");
        const Reply r = send("POST", path, body, key);
        QCOMPARE(r.status, 200);
        const QString id = r.obj()[QStringLiteral("id")].toString();
        const QString base = path.section(QLatin1Char('?'), 0, 0);
        QCOMPARE(send("GET", base + QLatin1Char('/') + id + QStringLiteral("?stream=false")).status, 200);
    }

    void getReturnsStoredInteraction()
    {
        const QJsonObject created = createOk(generateBody(QStringLiteral("a lighthouse")));
        const QString id = created[QStringLiteral("id")].toString();
        const Reply r = send("GET", QStringLiteral("/v1/interactions/%1?stream=false").arg(id));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.obj(), created);

        const Reply withInput
            = send("GET", QStringLiteral("/v1/interactions/%1?include_input=true&stream=false").arg(id));
        QCOMPARE(withInput.status, 200);
        const QJsonArray steps = withInput.obj()[QStringLiteral("steps")].toArray();
        QCOMPARE(steps.size(), 3);
        QCOMPARE(steps[0][QStringLiteral("type")].toString(), QStringLiteral("user_input"));
        QCOMPARE(
            steps[0][QStringLiteral("content")][0][QStringLiteral("text")].toString(), QStringLiteral("a lighthouse"));
        QCOMPARE(outputImage(withInput.obj()), outputImage(created));
    }

    void idIsPercentDecoded()
    {
        const QString id = createOk(generateBody(QStringLiteral("x")))[QStringLiteral("id")].toString();
        QString encoded = id;
        encoded.replace(QStringLiteral("_"), QStringLiteral("%5F"));
        QVERIFY(encoded != id);
        QCOMPARE(send("GET", QStringLiteral("/v1/interactions/") + encoded).status, 200);
    }

    void deleteThenGetIs404()
    {
        const QString id = createOk(generateBody(QStringLiteral("x")))[QStringLiteral("id")].toString();
        const Reply del = send("DELETE", QStringLiteral("/v1beta/interactions/") + id);
        QCOMPARE(del.status, 200);
        QCOMPARE(QJsonDocument::fromJson(del.body).object(), QJsonObject());
        QCOMPARE(m_server->interactionCount(), 0);
        const Reply get = send("GET", QStringLiteral("/v1/interactions/%1?stream=false").arg(id));
        QCOMPARE(get.status, 404);
        QCOMPARE(get.obj()[QStringLiteral("error")][QStringLiteral("code")].toString(), QStringLiteral("not_found"));
        QVERIFY(get.obj()[QStringLiteral("error")][QStringLiteral("message")].toString().contains(id));
        QCOMPARE(send("DELETE", QStringLiteral("/v1/interactions/") + id).status, 404);
    }

    void forgetMakesIdExpire()
    {
        const QString id = createOk(generateBody(QStringLiteral("x")))[QStringLiteral("id")].toString();
        m_server->forget(id);
        QCOMPARE(send("GET", QStringLiteral("/v1/interactions/") + id).status, 404);
        QJsonObject edit = generateBody(QStringLiteral("make it night"), QString());
        edit.insert(QStringLiteral("previous_interaction_id"), id);
        const Reply r = create(edit);
        QCOMPARE(r.status, 404);
        QCOMPARE(r.obj()[QStringLiteral("error")][QStringLiteral("code")].toString(), QStringLiteral("not_found"));
    }

    void backgroundAndCancel()
    {
        m_server->setLatencyMs(0);
        QJsonObject body = generateBody(QStringLiteral("slow one"));
        body.insert(QStringLiteral("background"), true);
        const QJsonObject started = createOk(body);
        QCOMPARE(started[QStringLiteral("status")].toString(), QStringLiteral("in_progress"));
        QVERIFY(!started.contains(QStringLiteral("steps")));
        const QString id = started[QStringLiteral("id")].toString();
        const Reply cancelled = send("POST", QStringLiteral("/v1/interactions/%1/cancel").arg(id), QByteArray());
        QCOMPARE(cancelled.status, 200);
        QCOMPARE(cancelled.obj()[QStringLiteral("status")].toString(), QStringLiteral("cancelled"));
        QCOMPARE(send("GET", QStringLiteral("/v1/interactions/") + id).obj()[QStringLiteral("status")].toString(),
            QStringLiteral("cancelled"));

        // A finished interaction cannot be cancelled; a background one completes on its own.
        const QString done = createOk(generateBody(QStringLiteral("quick")))[QStringLiteral("id")].toString();
        QCOMPARE(send("POST", QStringLiteral("/v1/interactions/%1/cancel").arg(done), QByteArray()).status, 400);
        const QString bg = createOk(body)[QStringLiteral("id")].toString();
        QTRY_COMPARE_WITH_TIMEOUT(
            send("GET", QStringLiteral("/v1/interactions/") + bg).obj()[QStringLiteral("status")].toString(),
            QStringLiteral("completed"), 5000);
        QVERIFY(!outputImage(send("GET", QStringLiteral("/v1/interactions/") + bg).obj()).isEmpty());
        QCOMPARE(send("POST", QStringLiteral("/v1/interactions/nope/cancel"), QByteArray()).status, 404);
    }

    void unknownRouteIs404()
    {
        QCOMPARE(send("GET", QStringLiteral("/v1/models")).status, 404);
        QCOMPARE(send("DELETE", QStringLiteral("/v1/interactions")).status, 404);
    }

    // ---- validation --------------------------------------------------------------------

    void validationErrors_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("key"); // null = header omitted
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("shape");   // native | google | array
        QTest::addColumn<QString>("message"); // substring of the error message

        auto body = [](QJsonObject o) { return QJsonDocument(o).toJson(QJsonDocument::Compact); };
        const QString key = QStringLiteral("test-key");
        const QJsonObject ok = generateBody(QStringLiteral("cat"));
        auto with = [&](const QString &k, const QJsonValue &v) {
            QJsonObject o = ok;
            o.insert(k, v);
            return body(o);
        };
        QJsonObject rf {{QStringLiteral("type"), QStringLiteral("image")}};

        QTest::newRow("wrong key") << body(ok) << QStringLiteral("nope") << 400 << QStringLiteral("array")
                                   << QStringLiteral("API key not valid");
        QTest::newRow("missing key") << body(ok) << QString() << 400 << QStringLiteral("array")
                                     << QStringLiteral("API key not valid");
        QTest::newRow("unknown model") << with(QStringLiteral("model"), QStringLiteral("gemini-9-ultra")) << key << 404
                                       << QStringLiteral("google")
                                       << QStringLiteral("models/gemini-9-ultra is not found");
        QTest::newRow("thinking level") << with(QStringLiteral("generation_config"),
            QJsonObject {{QStringLiteral("thinking_level"), QStringLiteral("medium")}})
                                        << key << 400 << QStringLiteral("google")
                                        << QStringLiteral("Allowed values are: low, high.");
        QTest::newRow("aspect ratio") << with(QStringLiteral("response_format"),
            QJsonObject {{QStringLiteral("type"), QStringLiteral("image")},
                {QStringLiteral("aspect_ratio"), QStringLiteral("1:4")}})
                                      << key << 400 << QStringLiteral("google")
                                      << QStringLiteral("Unsupported aspect ratio \"1:4\"");
        QTest::newRow("image size 2K") << with(QStringLiteral("response_format"),
            QJsonObject {{QStringLiteral("type"), QStringLiteral("image")},
                {QStringLiteral("image_size"), QStringLiteral("2K")}})
                                       << key << 400 << QStringLiteral("google") << QStringLiteral("image_size");
        QTest::newRow("png output") << with(QStringLiteral("response_format"),
            QJsonObject {{QStringLiteral("type"), QStringLiteral("image")},
                {QStringLiteral("mime_type"), QStringLiteral("image/png")}})
                                    << key << 400 << QStringLiteral("google") << QStringLiteral("image/jpeg");
        QTest::newRow("malformed json") << QByteArray("{\"model\": \"x\",") << key << 400 << QStringLiteral("native")
                                        << QStringLiteral("Invalid JSON payload");
        QTest::newRow("not an object") << QByteArray("[1,2]") << key << 400 << QStringLiteral("native")
                                       << QStringLiteral("JSON object");
        QTest::newRow("unknown field") << with(QStringLiteral("aspectRatio"), QStringLiteral("16:9")) << key << 400
                                       << QStringLiteral("google") << QStringLiteral("Unknown name \"aspectRatio\"");
        QTest::newRow("missing input") << body(QJsonObject {{QStringLiteral("model"), kModel}}) << key << 400
                                       << QStringLiteral("native") << QStringLiteral("input");
        QTest::newRow("empty prompt") << with(QStringLiteral("input"), QStringLiteral("  ")) << key << 400
                                      << QStringLiteral("google") << QStringLiteral("must not be empty");
        QTest::newRow("bad base64") << with(QStringLiteral("input"),
            QJsonArray {QJsonObject {{QStringLiteral("type"), QStringLiteral("image")},
                            {QStringLiteral("data"), QStringLiteral("not*base64!")},
                            {QStringLiteral("mime_type"), QStringLiteral("image/png")}},
                textPart(QStringLiteral("x"))})
                                    << key << 400 << QStringLiteral("google")
                                    << QStringLiteral("Base64 decoding failed");
        QTest::newRow("not an image") << with(QStringLiteral("input"),
            QJsonArray {
                imagePart("just some text, not pixels", QStringLiteral("image/png")), textPart(QStringLiteral("x"))})
                                      << key << 400 << QStringLiteral("google")
                                      << QStringLiteral("Unable to process input image");
        QTest::newRow("mime mismatch") << with(QStringLiteral("input"),
            QJsonArray {imagePart(imageBytes(solid(QSize(8, 8), Qt::red), "PNG"), QStringLiteral("image/jpeg")),
                textPart(QStringLiteral("x"))})
                                       << key << 400 << QStringLiteral("google")
                                       << QStringLiteral("but the data is image/png");
        QTest::newRow("unknown previous id")
            << with(QStringLiteral("previous_interaction_id"), QStringLiteral("v1_gone")) << key << 404
            << QStringLiteral("native") << QStringLiteral("v1_gone");
        QTest::newRow("image_config removed")
            << with(QStringLiteral("generation_config"),
                   QJsonObject {{QStringLiteral("image_config"),
                       QJsonObject {{QStringLiteral("aspect_ratio"), QStringLiteral("1:1")}}}})
            << key << 400 << QStringLiteral("google") << QStringLiteral("response_format");
        QTest::newRow("store not bool") << with(QStringLiteral("store"), QStringLiteral("yes")) << key << 400
                                        << QStringLiteral("google") << QStringLiteral("store");
        QTest::newRow("audio input") << with(
            QStringLiteral("input"), QJsonArray {QJsonObject {{QStringLiteral("type"), QStringLiteral("audio")}}})
                                     << key << 400 << QStringLiteral("google") << QStringLiteral("not supported");
        QTest::newRow("background without store") <<
            [&] {
                QJsonObject o = ok;
                o.insert(QStringLiteral("background"), true);
                o.insert(QStringLiteral("store"), false);
                return body(o);
            }() << key << 400 << QStringLiteral("google")
                                                  << QStringLiteral("store");
        Q_UNUSED(rf);
    }
    void validationErrors()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, key);
        QFETCH(int, status);
        QFETCH(QString, shape);
        QFETCH(QString, message);
        const Reply r = send("POST", QStringLiteral("/v1/interactions"), body, key);
        QCOMPARE(r.status, status);
        QVERIFY(r.contentType.startsWith(QLatin1String("application/json")));
        const QJsonDocument doc = QJsonDocument::fromJson(r.body);
        QJsonObject error;
        if (shape == QLatin1String("array")) {
            QVERIFY(doc.isArray());
            error = doc.array().at(0)[QStringLiteral("error")].toObject();
            QCOMPARE(error[QStringLiteral("code")].toInt(), status);
            QCOMPARE(error[QStringLiteral("status")].toString(), QStringLiteral("INVALID_ARGUMENT"));
            bool reason = false;
            for (const QJsonValue &d : error[QStringLiteral("details")].toArray())
                reason = reason || d[QStringLiteral("reason")].toString() == QLatin1String("API_KEY_INVALID");
            QVERIFY(reason);
        } else {
            QVERIFY(doc.isObject());
            error = doc.object()[QStringLiteral("error")].toObject();
            if (shape == QLatin1String("native")) {
                QVERIFY(error[QStringLiteral("code")].isString());
                QCOMPARE(error[QStringLiteral("code")].toString(),
                    status == 404 ? QStringLiteral("not_found") : QStringLiteral("invalid_request"));
            } else {
                QCOMPARE(error[QStringLiteral("code")].toInt(), status);
                QVERIFY(!error[QStringLiteral("status")].toString().isEmpty());
            }
        }
        const QString text = error[QStringLiteral("message")].toString();
        QVERIFY2(text.contains(message), qPrintable(text));
        if (qstrcmp(QTest::currentDataTag(), "thinking level") == 0)
            QVERIFY(text.endsWith(QLatin1String("Allowed values are: low, high.")));
        QCOMPARE(m_server->interactionCount(), 0); // nothing stored on a rejected request
    }

    void thinkingLevelsAreConfigurable()
    {
        m_server->setThinkingLevels({QStringLiteral("minimal"), QStringLiteral("high")});
        QCOMPARE(m_server->thinkingLevels(), QStringList({QStringLiteral("minimal"), QStringLiteral("high")}));
        const Reply low = create(generateBody(QStringLiteral("x"), QStringLiteral("1:1"), QStringLiteral("low")));
        QCOMPARE(low.status, 400);
        QVERIFY(low.obj()[QStringLiteral("error")][QStringLiteral("message")].toString().endsWith(
            QLatin1String("Allowed values are: minimal, high.")));
        QCOMPARE(
            create(generateBody(QStringLiteral("x"), QStringLiteral("1:1"), QStringLiteral("minimal"))).status, 200);
        QCOMPARE(
            create(generateBody(QStringLiteral("x"), QStringLiteral("1:1"), QString())).status, 200); // omitted is fine

        // The other wording seen in the wild names no allowed values (spec §2.3).
        m_server->setThinkingErrorWording(FakeServerOptions::ThinkingError::NotSupportedRetry);
        const Reply other = create(generateBody(QStringLiteral("x"), QStringLiteral("1:1"), QStringLiteral("low")));
        QCOMPARE(other.status, 400);
        QCOMPARE(
            other.obj()[QStringLiteral("error")][QStringLiteral("code")].toString(), QStringLiteral("invalid_request"));
        QCOMPARE(other.obj()[QStringLiteral("error")][QStringLiteral("message")].toString(),
            QStringLiteral("Thinking level THINKING_LEVEL_LOW is not supported for this model. "
                           "Please retry with other thinking level."));
    }

    void requestOver20MBIs413()
    {
        QJsonObject body = generateBody(QStringLiteral("x"));
        body.insert(QStringLiteral("system_instruction"), QString(21 * 1024 * 1024, QLatin1Char('a')));
        const Reply r = create(body);
        QCOMPARE(r.status, 413);
        QVERIFY(
            r.obj()[QStringLiteral("error")][QStringLiteral("message")].toString().contains(QLatin1String("20971520")));

        // Just under the limit is accepted (the limit is on the whole request).
        body.insert(QStringLiteral("system_instruction"), QString(19 * 1024 * 1024, QLatin1Char('a')));
        QCOMPARE(create(body).status, 200);
    }

    void storeFalseHasNoIdAndCannotBeContinued()
    {
        QJsonObject body = generateBody(QStringLiteral("ephemeral"));
        body.insert(QStringLiteral("store"), false);
        const QJsonObject o = createOk(body);
        QVERIFY(!o.isEmpty());
        QVERIFY(!o.contains(QStringLiteral("id")));
        QVERIFY(!outputImage(o).isEmpty());
        QCOMPARE(m_server->interactionCount(), 0);
    }

    // ---- faults ------------------------------------------------------------------------

    void faults_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("onGet");
        for (bool onGet : {false, true}) {
            const char *suffix = onGet ? " (get)" : " (create)";
            QTest::newRow(qPrintable(QStringLiteral("rate limit") + QLatin1String(suffix)))
                << int(FakeFault::Kind::RateLimit) << onGet;
            QTest::newRow(qPrintable(QStringLiteral("500 json") + QLatin1String(suffix)))
                << int(FakeFault::Kind::ServerErrorJson) << onGet;
            QTest::newRow(qPrintable(QStringLiteral("503 html") + QLatin1String(suffix)))
                << int(FakeFault::Kind::ServiceUnavailableHtml) << onGet;
            QTest::newRow(qPrintable(QStringLiteral("reset") + QLatin1String(suffix)))
                << int(FakeFault::Kind::ConnectionReset) << onGet;
            QTest::newRow(qPrintable(QStringLiteral("truncated") + QLatin1String(suffix)))
                << int(FakeFault::Kind::TruncatedJson) << onGet;
            QTest::newRow(qPrintable(QStringLiteral("trickle") + QLatin1String(suffix)))
                << int(FakeFault::Kind::SlowTrickle) << onGet;
            QTest::newRow(qPrintable(QStringLiteral("invalid key") + QLatin1String(suffix)))
                << int(FakeFault::Kind::InvalidKey) << onGet;
        }
        QTest::newRow("text only (create)") << int(FakeFault::Kind::TextOnlyRefusal) << false;
    }
    void faults()
    {
        QFETCH(int, kind);
        QFETCH(bool, onGet);
        QString id;
        if (onGet)
            id = createOk(generateBody(QStringLiteral("fault target")))[QStringLiteral("id")].toString();
        FakeFault fault;
        fault.kind = FakeFault::Kind(kind);
        fault.retryAfterSeconds = 3;
        fault.retryAfterMs = 250;
        fault.trickleMs = 600;
        m_server->injectFault(fault);
        QCOMPARE(m_server->pendingFaults(), 1);

        auto call = [&] {
            return onGet ? send("GET", QStringLiteral("/v1/interactions/%1?stream=false").arg(id))
                         : create(generateBody(QStringLiteral("fault target")));
        };
        const Reply r = call();
        QCOMPARE(m_server->pendingFaults(), 0);
        switch (fault.kind) {
        case FakeFault::Kind::RateLimit:
            QCOMPARE(r.status, 429);
            QCOMPARE(r.header("Retry-After"), QStringLiteral("3"));
            QCOMPARE(r.header("retry-after-ms"), QStringLiteral("250"));
            QCOMPARE(r.obj()[QStringLiteral("error")][QStringLiteral("code")].toString(),
                QStringLiteral("resource_exhausted"));
            QCOMPARE(
                r.obj()[QStringLiteral("error")][QStringLiteral("details")][0][QStringLiteral("retryDelay")].toString(),
                QStringLiteral("3s"));
            break;
        case FakeFault::Kind::ServerErrorJson:
            QCOMPARE(r.status, 500);
            QCOMPARE(r.obj()[QStringLiteral("error")][QStringLiteral("code")].toString(), QStringLiteral("internal"));
            break;
        case FakeFault::Kind::ServiceUnavailableHtml:
            QCOMPARE(r.status, 503);
            QVERIFY(r.contentType.startsWith(QLatin1String("text/html")));
            QVERIFY(r.body.contains("<html"));
            QVERIFY(QJsonDocument::fromJson(r.body).isNull());
            break;
        case FakeFault::Kind::ResetBeforeFirstByte:
            QVERIFY(!r.ok); // covered in resetBeforeFirstByteAndStatusOverride
            break;
        case FakeFault::Kind::ConnectionReset:
            QVERIFY2(!r.ok, "a dropped connection must not look like a complete response");
            break;
        case FakeFault::Kind::TruncatedJson: {
            QCOMPARE(r.status, 200);
            QJsonParseError err;
            QJsonDocument::fromJson(r.body, &err);
            QVERIFY(err.error != QJsonParseError::NoError);
            QVERIFY(r.body.startsWith("{\"id\":\"v1_"));
            break;
        }
        case FakeFault::Kind::SlowTrickle:
            QCOMPARE(r.status, 200);
            QVERIFY(!outputImage(r.obj()).isEmpty());
            QVERIFY2(r.elapsedMs >= 500, qPrintable(QString::number(r.elapsedMs)));
            break;
        case FakeFault::Kind::InvalidKey:
            QCOMPARE(r.status, 400);
            QVERIFY(QJsonDocument::fromJson(r.body).isArray());
            QVERIFY(r.body.contains("API_KEY_INVALID"));
            break;
        case FakeFault::Kind::TextOnlyRefusal: {
            QCOMPARE(r.status, 200);
            const QJsonObject o = r.obj();
            QCOMPARE(o[QStringLiteral("status")].toString(), QStringLiteral("completed"));
            QVERIFY(outputImage(o).isEmpty());
            QVERIFY(outputText(o).contains(QLatin1String("can't")));
            break;
        }
        }
        // One fault, one request: the next answer is normal again.
        const Reply after = call();
        QCOMPARE(after.status, 200);
        QVERIFY(!outputImage(after.obj()).isEmpty());
    }

    void faultCountAndDeleteDoesNotConsume()
    {
        FakeFault f;
        f.kind = FakeFault::Kind::RateLimit;
        f.retryAfterSeconds = -1; // no header
        m_server->injectFault(f, 2);
        QCOMPARE(send("DELETE", QStringLiteral("/v1/interactions/nope")).status, 404); // not consumed
        const Reply first = create(generateBody(QStringLiteral("a")));
        QCOMPARE(first.status, 429);
        QVERIFY(first.header("Retry-After").isEmpty());
        QCOMPARE(create(generateBody(QStringLiteral("a"))).status, 429);
        QCOMPARE(create(generateBody(QStringLiteral("a"))).status, 200);
        m_server->injectFault(f, 5);
        m_server->clearFaults();
        QCOMPARE(create(generateBody(QStringLiteral("a"))).status, 200);
    }

    void resetBeforeFirstByteAndStatusOverride()
    {
        FakeFault reset;
        reset.kind = FakeFault::Kind::ResetBeforeFirstByte;
        m_server->injectFault(reset, 1);
        const int stored = m_server->interactionCount();
        const Reply cut = create(generateBody(QStringLiteral("a")));
        QVERIFY2(!cut.ok, "no byte of an answer may arrive");
        QCOMPARE(m_server->interactionCount(), stored); // nothing was made
        QCOMPARE(create(generateBody(QStringLiteral("a"))).status, 200);

        FakeFault json503;
        json503.kind = FakeFault::Kind::ServerErrorJson;
        json503.status = 503;
        FakeFault html500;
        html500.kind = FakeFault::Kind::ServiceUnavailableHtml;
        html500.status = 500;
        m_server->injectFault(json503, 1);
        m_server->injectFault(html500, 1);
        const Reply a = create(generateBody(QStringLiteral("a")));
        QCOMPARE(a.status, 503);
        QCOMPARE(a.obj()[QStringLiteral("error")][QStringLiteral("code")].toString(), QStringLiteral("unavailable"));
        const Reply b = create(generateBody(QStringLiteral("a")));
        QCOMPARE(b.status, 500);
        QVERIFY(b.contentType.startsWith(QStringLiteral("text/html")));
        QVERIFY(b.body.contains("Error 500"));
    }

    void fakeFaultNamesRoundTrip()
    {
        for (int k = int(FakeFault::Kind::RateLimit); k <= int(FakeFault::Kind::ResetBeforeFirstByte); ++k) {
            const auto kind = FakeFault::Kind(k);
            QCOMPARE(fakeFaultKindFromName(fakeFaultKindName(kind)), std::optional<FakeFault::Kind>(kind));
        }
        QCOMPARE(fakeFaultKindFromName(QStringLiteral("Rate-Limit")), std::optional(FakeFault::Kind::RateLimit));
        QVERIFY(!fakeFaultKindFromName(QStringLiteral("boom")));
    }

    void latencyDoesNotBlockOtherRequests()
    {
        m_server->setLatencyMs(700);
        QCOMPARE(m_server->latencyMs(), 700);
        QElapsedTimer timer;
        timer.start();
        std::vector<std::thread> threads;
        std::atomic<int> ok {0};
        for (int i = 0; i < 4; ++i) {
            threads.emplace_back([&, i] {
                httplib::Client cli("127.0.0.1", m_server->port());
                cli.set_read_timeout(30, 0);
                const std::string body
                    = QJsonDocument(generateBody(QStringLiteral("p%1").arg(i))).toJson().toStdString();
                auto res = cli.Post("/v1/interactions", {{"x-goog-api-key", "test-key"}}, body, "application/json");
                if (res && res->status == 200)
                    ++ok;
            });
        }
        for (auto &t : threads)
            t.join();
        const qint64 elapsed = timer.elapsed();
        QCOMPARE(ok.load(), 4);
        QVERIFY2(elapsed >= 700, qPrintable(QString::number(elapsed)));
        QVERIFY2(elapsed < 4 * 700, qPrintable(QString::number(elapsed))); // served concurrently
    }

    void stopIsPromptDuringSlowResponses_data()
    {
        QTest::addColumn<bool>("trickle");
        QTest::addColumn<bool>("stream");
        QTest::newRow("latency") << false << false;
        QTest::newRow("trickle") << true << false;
        QTest::newRow("stream latency") << false << true;
        QTest::newRow("stream trickle") << true << true;
    }
    void stopIsPromptDuringSlowResponses()
    {
        QFETCH(bool, trickle);
        QFETCH(bool, stream);
        if (trickle) {
            FakeFault f;
            f.kind = FakeFault::Kind::SlowTrickle;
            f.trickleMs = 20000;
            m_server->injectFault(f);
        } else {
            m_server->setLatencyMs(20000);
        }
        QJsonObject body = generateBody(QStringLiteral("slow"));
        if (stream)
            body.insert(QStringLiteral("stream"), true);
        const quint16 port = m_server->port();
        std::atomic<bool> finished {false};
        std::thread client([&] {
            httplib::Client cli("127.0.0.1", port);
            cli.set_read_timeout(30, 0);
            cli.Post("/v1/interactions", {{"x-goog-api-key", "test-key"}}, QJsonDocument(body).toJson().toStdString(),
                "application/json");
            finished = true;
        });
        QTRY_COMPARE(m_server->requests().size(), 1);
        QTest::qWait(150); // let the answer get under way
        QElapsedTimer timer;
        timer.start();
        m_server->stop();
        const qint64 stopMs = timer.elapsed();
        client.join();
        QVERIFY(finished);
        QVERIFY(!m_server->isRunning());
        QVERIFY2(stopMs < 1500, qPrintable(QStringLiteral("stop took %1 ms").arg(stopMs)));
        qInfo("stop() took %lld ms", stopMs);
    }

    void stopIsPromptWithIdleKeepAliveConnection()
    {
        httplib::Client cli("127.0.0.1", m_server->port());
        cli.set_keep_alive(true);
        auto res = cli.Get("/v1/interactions/nope", {{"x-goog-api-key", "test-key"}});
        QVERIFY(res);
        QCOMPARE(res->status, 404);
        QVERIFY(QString::fromStdString(res->get_header_value("Keep-Alive")).startsWith(QLatin1String("timeout=1")));
        QElapsedTimer timer;
        timer.start();
        m_server->stop(); // the idle connection holds a worker until the keep-alive timeout
        QVERIFY2(timer.elapsed() < 1500, qPrintable(QString::number(timer.elapsed())));
    }

    void restartAfterStop()
    {
        m_server->stop();
        QVERIFY(m_server->start());
        QCOMPARE(create(generateBody(QStringLiteral("again"))).status, 200);
    }

    void secondServerOnSamePortFails()
    {
        FakeServer other;
        QVERIFY(!other.start(m_server->port()));
        QVERIFY(!other.errorString().isEmpty());
    }

    // ---- SSE ---------------------------------------------------------------------------

    void streamingFraming()
    {
        QJsonObject body = generateBody(QStringLiteral("a streamed fox"), QStringLiteral("9:16"));
        body.insert(QStringLiteral("stream"), true);
        const Reply r = create(body);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.contentType, QStringLiteral("text/event-stream"));
        const QList<SseEvent> events = parseSse(r.body);
        const QStringList expected {QStringLiteral("interaction.created"), QStringLiteral("interaction.status_update"),
            QStringLiteral("step.start"), QStringLiteral("step.delta"), QStringLiteral("step.delta"),
            QStringLiteral("step.delta"), QStringLiteral("step.stop"), QStringLiteral("step.start"),
            QStringLiteral("step.delta"), QStringLiteral("step.delta"), QStringLiteral("step.stop"),
            QStringLiteral("interaction.completed")};
        QCOMPARE(events.size(), expected.size() + 1);
        for (int i = 0; i < expected.size(); ++i) {
            QCOMPARE(events[i].eventName, expected[i]);
            QCOMPARE(events[i].json[QStringLiteral("event_type")].toString(), expected[i]);
            QCOMPARE(events[i].json[QStringLiteral("event_id")].toString(), QStringLiteral("e%1").arg(i + 1));
        }
        QCOMPARE(events.last().data, QByteArray("[DONE]"));
        QVERIFY(events.last().eventName.isEmpty());

        const QJsonObject created = events[0].json[QStringLiteral("interaction")].toObject();
        const QString id = created[QStringLiteral("id")].toString();
        QVERIFY(id.startsWith(QLatin1String("v1_")));
        QCOMPARE(created[QStringLiteral("status")].toString(), QStringLiteral("in_progress"));
        QCOMPARE(events[1].json[QStringLiteral("interaction_id")].toString(), id);
        QCOMPARE(events[2].json[QStringLiteral("step")][QStringLiteral("type")].toString(), QStringLiteral("thought"));
        QCOMPARE(events[2].json[QStringLiteral("index")].toInt(), 0);
        QCOMPARE(events[3].json[QStringLiteral("delta")][QStringLiteral("type")].toString(),
            QStringLiteral("thought_summary"));
        const QJsonObject draftDelta = events[4].json[QStringLiteral("delta")].toObject();
        QCOMPARE(draftDelta[QStringLiteral("type")].toString(), QStringLiteral("thought_summary"));
        QCOMPARE(draftDelta[QStringLiteral("content")][QStringLiteral("type")].toString(), QStringLiteral("image"));
        QCOMPARE(events[5].json[QStringLiteral("delta")][QStringLiteral("type")].toString(),
            QStringLiteral("thought_signature"));
        QVERIFY(!events[5].json[QStringLiteral("delta")][QStringLiteral("signature")].toString().isEmpty());
        QCOMPARE(
            events[7].json[QStringLiteral("step")][QStringLiteral("type")].toString(), QStringLiteral("model_output"));
        QCOMPARE(events[7].json[QStringLiteral("index")].toInt(), 1);
        QCOMPARE(events[8].json[QStringLiteral("delta")][QStringLiteral("type")].toString(), QStringLiteral("text"));
        const QJsonObject imageDelta = events[9].json[QStringLiteral("delta")].toObject();
        QCOMPARE(imageDelta[QStringLiteral("type")].toString(), QStringLiteral("image"));
        QCOMPARE(imageDelta[QStringLiteral("mime_type")].toString(), QStringLiteral("image/jpeg"));
        const QImage img
            = QImage::fromData(QByteArray::fromBase64(imageDelta[QStringLiteral("data")].toString().toLatin1()));
        QCOMPARE(img.size(), QSize(768, 1344));
        const QJsonObject done = events[11].json[QStringLiteral("interaction")].toObject();
        QCOMPARE(done[QStringLiteral("status")].toString(), QStringLiteral("completed"));
        QCOMPARE(done[QStringLiteral("id")].toString(), id);
        QVERIFY(done[QStringLiteral("usage")][QStringLiteral("total_tokens")].toInt() > 0);

        // The streamed interaction is stored like any other and can be replayed.
        const Reply got = send("GET", QStringLiteral("/v1/interactions/%1?stream=false").arg(id));
        QCOMPARE(got.status, 200);
        QCOMPARE(QImage::fromData(outputImage(got.obj())), img);
        const Reply replay = send("GET", QStringLiteral("/v1/interactions/%1?last_event_id=e3&stream=true").arg(id));
        QCOMPARE(replay.contentType, QStringLiteral("text/event-stream"));
        const QList<SseEvent> rest = parseSse(replay.body);
        QCOMPARE(rest.first().json[QStringLiteral("event_id")].toString(), QStringLiteral("e4"));
        QCOMPARE(rest.size(), events.size() - 3);
    }

    void streamingFaults_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("text only") << int(FakeFault::Kind::TextOnlyRefusal);
        QTest::newRow("reset") << int(FakeFault::Kind::ConnectionReset);
        QTest::newRow("truncated") << int(FakeFault::Kind::TruncatedJson);
        QTest::newRow("trickle") << int(FakeFault::Kind::SlowTrickle);
        QTest::newRow("rate limit") << int(FakeFault::Kind::RateLimit);
    }
    void streamingFaults()
    {
        QFETCH(int, kind);
        FakeFault f;
        f.kind = FakeFault::Kind(kind);
        f.trickleMs = 600;
        m_server->injectFault(f);
        QJsonObject body = generateBody(QStringLiteral("stream fault"));
        body.insert(QStringLiteral("stream"), true);
        const Reply r = create(body);
        switch (f.kind) {
        case FakeFault::Kind::TextOnlyRefusal: {
            QCOMPARE(r.status, 200);
            const QList<SseEvent> events = parseSse(r.body);
            bool image = false;
            bool text = false;
            for (const SseEvent &e : events) {
                const QJsonObject delta = e.json[QStringLiteral("delta")].toObject();
                image = image || delta[QStringLiteral("type")].toString() == QLatin1String("image");
                text = text || delta[QStringLiteral("type")].toString() == QLatin1String("text");
            }
            QVERIFY(text);
            QVERIFY(!image);
            QCOMPARE(events[events.size() - 2].eventName, QStringLiteral("interaction.completed"));
            break;
        }
        case FakeFault::Kind::ConnectionReset:
            // Chunked body cut off without its terminating chunk: the client must see an error.
            QVERIFY(!r.ok);
            break;
        case FakeFault::Kind::TruncatedJson: {
            QCOMPARE(r.status, 200);
            const QList<SseEvent> events = parseSse(r.body);
            bool completed = false;
            bool broken = false;
            for (const SseEvent &e : events) {
                completed = completed || e.eventName == QLatin1String("interaction.completed");
                broken = broken || (e.data != "[DONE]" && e.json.isEmpty());
            }
            QVERIFY(!completed);
            QVERIFY(broken);
            break;
        }
        case FakeFault::Kind::SlowTrickle:
            QCOMPARE(r.status, 200);
            QVERIFY(r.elapsedMs >= 500);
            QCOMPARE(parseSse(r.body).last().data, QByteArray("[DONE]"));
            break;
        default:
            QCOMPARE(r.status, 429);
            QVERIFY(r.contentType.startsWith(QLatin1String("application/json")));
            break;
        }
    }

    // ---- images ------------------------------------------------------------------------

    void generatedImageHasRequestedAspect_data()
    {
        QTest::addColumn<QString>("ratio");
        for (const QString &r : FakeImagePainter::aspectRatios())
            QTest::newRow(qPrintable(r)) << r;
    }
    void generatedImageHasRequestedAspect()
    {
        QFETCH(QString, ratio);
        const QByteArray bytes = outputImage(createOk(generateBody(QStringLiteral("aspect test"), ratio)));
        QVERIFY(bytes.startsWith("\xFF\xD8\xFF"));
        const QImage img = QImage::fromData(bytes, "JPEG");
        QVERIFY(!img.isNull());
        const QStringList parts = ratio.split(QLatin1Char(':'));
        const double want = parts[0].toDouble() / parts[1].toDouble();
        const double got = double(img.width()) / img.height();
        QVERIFY2(
            std::abs(got / want - 1.0) < 0.03, qPrintable(QStringLiteral("%1x%2").arg(img.width()).arg(img.height())));
        const double mp = img.width() * double(img.height()) / 1e6;
        QVERIFY2(mp > 0.9 && mp < 1.15, qPrintable(QString::number(mp)));
    }

    void generationIsDeterministic()
    {
        const QByteArray a = outputImage(createOk(generateBody(QStringLiteral("a blue whale"))));
        const QByteArray b = outputImage(createOk(generateBody(QStringLiteral("a blue whale"))));
        const QByteArray c = outputImage(createOk(generateBody(QStringLiteral("a green whale"))));
        QVERIFY(!a.isEmpty());
        QCOMPARE(a, b);
        QVERIFY(a != c);
        QCOMPARE(FakeImagePainter::generate(QStringLiteral("x"), QSize(64, 64)),
            FakeImagePainter::generate(QStringLiteral("x"), QSize(64, 64)));
    }

    void editContinuesFromParentPixels()
    {
        const QJsonObject parent = createOk(generateBody(QStringLiteral("a quiet harbour"), QStringLiteral("16:9")));
        const QString parentId = parent[QStringLiteral("id")].toString();
        const QImage before = QImage::fromData(outputImage(parent));

        // The chain keeps its size when the edit sends no aspect ratio.
        QJsonObject edit = generateBody(QStringLiteral("add a red balloon"), QString());
        edit.insert(QStringLiteral("previous_interaction_id"), parentId);
        const QJsonObject child = createOk(edit);
        QCOMPARE(child[QStringLiteral("previous_interaction_id")].toString(), parentId);
        QVERIFY(child[QStringLiteral("id")].toString() != parentId);
        const QImage after = QImage::fromData(outputImage(child));
        QCOMPARE(after.size(), before.size());

        // Top-left quarter kept (JPEG re-encoding aside) ...
        const QRect topLeft(0, 0, before.width() / 3, before.height() / 3);
        QVERIFY(
            meanDiff(FakeImagePainter::averageColor(before, topLeft), FakeImagePainter::averageColor(after, topLeft))
            < 4.0);
        // ... while the change is visible elsewhere: some region moved a lot toward red.
        int changed = 0;
        for (int y = 0; y < before.height(); y += 8) {
            for (int x = 0; x < before.width(); x += 8) {
                const QColor a = before.pixelColor(x, y);
                const QColor b = after.pixelColor(x, y);
                if (meanDiff(a, b) > 40)
                    ++changed;
            }
        }
        QVERIFY2(changed > 100, qPrintable(QString::number(changed)));

        // A second edit continues from the first edit, not from the original.
        QJsonObject edit2 = generateBody(QStringLiteral("make it night"), QStringLiteral("16:9"));
        edit2.insert(QStringLiteral("previous_interaction_id"), child[QStringLiteral("id")].toString());
        const QImage night = QImage::fromData(outputImage(createOk(edit2)));
        QCOMPARE(night.size(), before.size());
        QVERIFY(qGray(FakeImagePainter::averageColor(night).rgb())
            < qGray(FakeImagePainter::averageColor(after).rgb()) - 20);

        // Edits are deterministic too: same parent + same prompt -> same bytes.
        QCOMPARE(outputImage(createOk(edit)), outputImage(child));
    }

    // ---- the optional on-disk store (nb2lite --demo: one fake per command) -------------

    void storeDirCarriesInteractionsToTheNextServer()
    {
        QTemporaryDir dir;
        FakeServerOptions options;
        options.storeDir = dir.filePath(QStringLiteral("demo")); // made on the first write
        const auto restart = [&] {
            m_server = std::make_unique<FakeServer>(options);
            return m_server->start();
        };
        const auto record
            = [&](const QString &id) { return options.storeDir + QLatin1Char('/') + id + QStringLiteral(".json"); };
        QVERIFY(restart());
        const QJsonObject parent = createOk(generateBody(QStringLiteral("a quiet harbour")));
        const QString id = parent[QStringLiteral("id")].toString();
        QVERIFY(QFileInfo(record(id)).isFile());
        QJsonObject edit = generateBody(QStringLiteral("add a red balloon"), QString());
        edit.insert(QStringLiteral("previous_interaction_id"), id);
        const QByteArray editedHere = outputImage(createOk(edit));

        // The next server (the next nb2lite --demo process) knows the id: get, and continue it.
        QVERIFY(restart());
        QCOMPARE(m_server->interactionCount(), 0); // records are read when asked for, not at start
        const Reply got = send("GET", QStringLiteral("/v1/interactions/%1?include_input=true").arg(id));
        QCOMPARE(got.status, 200);
        QCOMPARE(got.obj()[QStringLiteral("steps")].toArray().size(), 3);
        QCOMPARE(outputImage(got.obj()), outputImage(parent));
        QVERIFY(restart());
        const QJsonObject child = createOk(edit);
        QCOMPARE(child[QStringLiteral("previous_interaction_id")].toString(), id);
        QCOMPARE(outputImage(child), editedHere); // the same parent pixels and caption: the same edit

        // Delete and forget remove the record: the next server answers 404 like the service.
        QCOMPARE(send("DELETE", QStringLiteral("/v1/interactions/") + id).status, 200);
        QVERIFY(!QFileInfo::exists(record(id)));
        const QString childId = child[QStringLiteral("id")].toString();
        m_server->forget(childId);
        QVERIFY(!QFileInfo::exists(record(childId)));
        QVERIFY(restart());
        QCOMPARE(send("GET", QStringLiteral("/v1/interactions/") + id).status, 404);
        QCOMPARE(send("GET", QStringLiteral("/v1/interactions/") + childId).status, 404);
    }

    void storeDirReadsOnlyItsOwnRecords()
    {
        QTemporaryDir dir;
        FakeServerOptions options;
        options.storeDir = dir.path();
        m_server = std::make_unique<FakeServer>(options);
        QVERIFY(m_server->start());
        const QString id = createOk(generateBody(QStringLiteral("x")))[QStringLiteral("id")].toString();
        QFile good(dir.filePath(id + QStringLiteral(".json")));
        QVERIFY(good.open(QIODevice::ReadOnly));
        const QByteArray record = good.readAll();
        good.close();

        // A damaged record, a record filed under another id, and ids that would name other files.
        const auto write = [&](const QString &name, const QByteArray &bytes) {
            QFile f(dir.filePath(name));
            return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
        };
        QVERIFY(write(QStringLiteral("v1_damaged.json"), record.left(record.size() / 2)));
        QVERIFY(write(QStringLiteral("v1_renamed.json"), record));
        QVERIFY(write(QStringLiteral("outside.json"), record));
        m_server = std::make_unique<FakeServer>(options);
        QVERIFY(m_server->start());
        QCOMPARE(send("GET", QStringLiteral("/v1/interactions/") + id).status, 200);
        for (const QString &bad : {QStringLiteral("v1_damaged"), QStringLiteral("v1_renamed"),
                 QStringLiteral("outside"), QStringLiteral("v1_..%2Foutside"), QStringLiteral("..%2Foutside")})
            QVERIFY2(send("GET", QStringLiteral("/v1/interactions/") + bad).status == 404, qPrintable(bad));
        QJsonObject edit = generateBody(QStringLiteral("y"), QString());
        edit.insert(QStringLiteral("previous_interaction_id"), QStringLiteral("v1_damaged"));
        QCOMPARE(create(edit).status, 404);
    }

    void editLocalStartsFromUpload()
    {
        const QImage upload = solid(QSize(640, 480), QColor(20, 60, 200));
        QJsonObject body {{QStringLiteral("model"), kModel},
            {QStringLiteral("input"),
                QJsonArray {imagePart(imageBytes(upload, "PNG"), QStringLiteral("image/png")),
                    textPart(QStringLiteral("add a hat"))}},
            {QStringLiteral("response_format"), QJsonObject {{QStringLiteral("type"), QStringLiteral("image")}}}};
        const QImage out = QImage::fromData(outputImage(createOk(body)));
        QCOMPARE(out.size(), FakeImagePainter::sizeForAspect(QStringLiteral("4:3"))); // nearest to 640x480
        const QRect topLeft(0, 0, out.width() / 3, out.height() / 3);
        QVERIFY(meanDiff(FakeImagePainter::averageColor(out, topLeft), QColor(20, 60, 200)) < 6.0);

        // Style reference first, target last: the result is tinted toward the style's colour.
        const QImage style = solid(QSize(200, 200), QColor(230, 30, 30));
        QJsonObject styled = body;
        styled.insert(QStringLiteral("input"),
            QJsonArray {imagePart(imageBytes(style, "JPEG"), QStringLiteral("image/jpeg")),
                imagePart(imageBytes(upload, "PNG"), QStringLiteral("image/png")),
                textPart(QStringLiteral("paint it like the first image"))});
        styled.insert(QStringLiteral("response_format"),
            QJsonObject {{QStringLiteral("type"), QStringLiteral("image")},
                {QStringLiteral("aspect_ratio"), QStringLiteral("1:1")}});
        const QImage tinted = QImage::fromData(outputImage(createOk(styled)));
        QCOMPARE(tinted.size(), QSize(1024, 1024));
        const QColor tl = FakeImagePainter::averageColor(tinted, QRect(0, 0, 300, 300));
        QVERIFY2(tl.red() > 60, qPrintable(tl.name()));
        QVERIFY(tl.blue() < 200);
    }

    void statelessStepInputContinuesFromHistory()
    {
        const QJsonObject parent = createOk(generateBody(QStringLiteral("a castle"), QStringLiteral("3:2")));
        QJsonArray steps {QJsonObject {{QStringLiteral("type"), QStringLiteral("user_input")},
            {QStringLiteral("content"), QJsonArray {textPart(QStringLiteral("a castle"))}}}};
        for (const QJsonValue &st : parent[QStringLiteral("steps")].toArray())
            steps.append(st);
        steps.append(QJsonObject {{QStringLiteral("type"), QStringLiteral("user_input")},
            {QStringLiteral("content"), QJsonArray {textPart(QStringLiteral("add a green flag"))}}});
        QJsonObject body {
            {QStringLiteral("model"), kModel}, {QStringLiteral("input"), steps}, {QStringLiteral("store"), false}};
        const QImage out = QImage::fromData(outputImage(createOk(body)));
        const QImage before = QImage::fromData(outputImage(parent));
        QCOMPARE(out.size(), before.size());
        const QRect topLeft(0, 0, before.width() / 3, before.height() / 3);
        QVERIFY(meanDiff(FakeImagePainter::averageColor(before, topLeft), FakeImagePainter::averageColor(out, topLeft))
            < 4.0);

        // The new user turn must come last.
        steps.removeLast();
        body.insert(QStringLiteral("input"), steps);
        QCOMPARE(create(body).status, 400);
    }

    void bitmapFontDrawsEveryGlyph()
    {
        const QString all = QStringLiteral("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,!?-+:;'\"/()&><=_#%*@$");
        for (const QChar c : all) {
            QVERIFY2(BitmapFont::hasGlyph(c), qPrintable(QString(c)));
            if (c == QLatin1Char(' '))
                continue;
            QImage img(8, 8, QImage::Format_RGB32);
            img.fill(Qt::black);
            BitmapFont::drawText(img, 1, 0, QString(c), Qt::white, 1);
            QVERIFY2(img != solid(QSize(8, 8), Qt::black), qPrintable(QString(c)));
        }
        QCOMPARE(BitmapFont::textWidth(QStringLiteral("AB"), 3), (2 * BitmapFont::Advance - 1) * 3);
        const QStringList lines = BitmapFont::wrap(QStringLiteral("one two three four five six seven"), 10, 2);
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines.last().endsWith(QLatin1String("...")));
        for (const QString &l : lines)
            QVERIFY(l.size() <= 10);
    }

    // ---- control endpoint (what the standalone binary offers) --------------------------

    void controlEndpoint()
    {
        auto control = [&](const QJsonObject &o) {
            return send("POST", QStringLiteral("/_fake/control"), QJsonDocument(o).toJson(), QString());
        };
        const Reply set = control(QJsonObject {{QStringLiteral("fault"), QStringLiteral("rate_limit")},
            {QStringLiteral("count"), 2}, {QStringLiteral("retry_after"), 7},
            {QStringLiteral("thinking_levels"), QJsonArray {QStringLiteral("minimal")}}});
        QCOMPARE(set.status, 200);
        QCOMPARE(set.obj()[QStringLiteral("pending_faults")].toInt(), 2);
        QCOMPARE(m_server->thinkingLevels(), QStringList {QStringLiteral("minimal")});
        const Reply limited
            = create(generateBody(QStringLiteral("x"), QStringLiteral("1:1"), QStringLiteral("minimal")));
        QCOMPARE(limited.status, 429);
        QCOMPARE(limited.header("Retry-After"), QStringLiteral("7"));
        QCOMPARE(
            control(QJsonObject {{QStringLiteral("clear_faults"), true}, {QStringLiteral("latency_ms"), 5}}).status,
            200);
        QCOMPARE(m_server->latencyMs(), 5);
        const QString id = createOk(
            generateBody(QStringLiteral("x"), QStringLiteral("1:1"), QStringLiteral("minimal")))[QStringLiteral("id")]
                               .toString();
        QVERIFY(!id.isEmpty());
        QCOMPARE(control(QJsonObject {{QStringLiteral("forget"), id}}).status, 200);
        QCOMPARE(send("GET", QStringLiteral("/v1/interactions/") + id).status, 404);

        QCOMPARE(control(QJsonObject {{QStringLiteral("fault"), QStringLiteral("bogus")}}).status, 400);
        QCOMPARE(control(QJsonObject {{QStringLiteral("latencyMs"), 5}}).status, 400);
        QCOMPARE(
            control(QJsonObject {{QStringLiteral("thinking_error"), QStringLiteral("not_supported")}}).status, 200);
        QVERIFY(create(generateBody(QStringLiteral("x"), QStringLiteral("1:1"), QStringLiteral("medium")))
                    .body.contains("THINKING_LEVEL_MEDIUM"));
        QCOMPARE(control(QJsonObject {{QStringLiteral("thinking_error"), QStringLiteral("weird")}}).status, 400);

        const Reply log = send("GET", QStringLiteral("/_fake/requests"), {}, QString());
        QCOMPARE(log.status, 200);
        const QJsonArray entries = QJsonDocument::fromJson(log.body).array();
        QCOMPARE(entries.size(), 4); // create (429), create, get, create; control calls are not logged
        const QJsonObject first = entries[0].toObject();
        QCOMPARE(first[QStringLiteral("method")].toString(), QStringLiteral("POST"));
        QCOMPARE(first[QStringLiteral("body")].toObject()[QStringLiteral("input")].toString(), QStringLiteral("x"));
        const QString keyHeader
            = first[QStringLiteral("headers")].toObject()[QStringLiteral("x-goog-api-key")].toString();
        QVERIFY(keyHeader.startsWith(QLatin1String("[redacted")));
        QVERIFY(!log.body.contains("test-key"));
        QCOMPARE(entries[2].toObject()[QStringLiteral("method")].toString(), QStringLiteral("GET"));
        QVERIFY(entries[2].toObject()[QStringLiteral("body")].isNull());

        QCOMPARE(send("DELETE", QStringLiteral("/_fake/requests"), {}, QString()).status, 200);
        QVERIFY(m_server->requests().isEmpty());
        const Reply state = send("GET", QStringLiteral("/_fake/state"), {}, QString());
        QCOMPARE(state.obj()[QStringLiteral("latency_ms")].toInt(), 5);
    }

    void requireKeyCanBeOff()
    {
        m_server->setRequireKey(false);
        QCOMPARE(send("POST", QStringLiteral("/v1/interactions"),
                     QJsonDocument(generateBody(QStringLiteral("x"))).toJson(), QString())
                     .status,
            200);
    }
};

QTEST_GUILESS_MAIN(tst_FakeServer)
#include "tst_fakeserver.moc"
