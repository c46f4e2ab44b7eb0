// The fake server's interactions: create (blocking, streamed or background), the SSE frames, get, delete and cancel.
#include "core/fakeapi/fakeserverinternal.h"

#include "core/fakeapi/fakeimagepainter.h"
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QImage>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <QUrl>
#include <algorithm>
#include <atomic>
#include <chrono>
#ifdef Q_OS_UNIX
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#endif
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace nb2 {

Reply FakeServer::Private::create(const httplib::Request &req, const std::optional<FakeFault> &fault)
{
    if (req.body.size() > kMaxRequestBytes)
        return googleError(413, "INVALID_ARGUMENT",
            QStringLiteral("Request payload size exceeds the limit: %1 bytes (got %2 bytes).")
                .arg(kMaxRequestBytes)
                .arg(req.body.size()));
    json body;
    try {
        body = json::parse(req.body);
    } catch (const json::parse_error &e) {
        return nativeError(400, "invalid_request",
            QStringLiteral("Invalid JSON payload received. %1").arg(QString::fromUtf8(e.what())));
    }
    ParsedCreate pc;
    if (auto err = parseCreate(body, &pc))
        return *err;

    // The parent is looked up after validation, as the service reports bad arguments first.
    QByteArray parentJpeg;
    QStringList parentCaption;
    if (!pc.previousId.isEmpty()) {
        loadPersisted(pc.previousId);
        std::lock_guard<std::mutex> lock(mutex);
        auto it = store.find(pc.previousId);
        if (it == store.end())
            return notFoundInteraction(pc.previousId);
        if (it->status == QLatin1String("in_progress")
            && !(it->backgroundDoneAtMs && QDateTime::currentMSecsSinceEpoch() >= it->backgroundDoneAtMs))
            return nativeError(400, "invalid_request",
                QStringLiteral("previous_interaction_id: interaction '%1' is still in progress.").arg(pc.previousId));
        parentJpeg = it->jpeg;
        parentCaption = it->caption;
    }
    const bool fixedImage = !opts.fixedImageJpeg.isEmpty(); // set at construction only
    const QImage parentPixels = (fixedImage || parentJpeg.isEmpty()) ? QImage() : QImage::fromData(parentJpeg, "JPEG");

    const bool refuse = fault && fault->kind == FakeFault::Kind::TextOnlyRefusal;
    const QImage base = !pc.images.isEmpty() ? pc.images.last().pixels
        : !parentPixels.isNull()             ? parentPixels
                                             : pc.historyImage;
    QSize size = FakeImagePainter::sizeForAspect(pc.aspect);
    if (!size.isValid()) {
        if (pc.images.isEmpty() && !parentPixels.isNull())
            size = parentPixels.size(); // edits keep the chain's size unless asked otherwise
        else if (!base.isNull())        // uploaded or replayed image: the model matches its shape
            size = FakeImagePainter::sizeForAspect(FakeImagePainter::nearestAspect(base.size()));
        else
            size = FakeImagePainter::sizeForAspect(QStringLiteral("1:1"));
    }

    QImage pixels;
    QStringList caption;
    QString text;
    const QString shortPrompt = pc.prompt.size() > 80 ? pc.prompt.left(77) + QStringLiteral("...") : pc.prompt;
    if (refuse) {
        text = QStringLiteral("I can't create that image. I'm not able to help with requests like this one; "
                              "try describing something else.");
    } else if (!pc.wantImage) {
        text = QStringLiteral("(text only) You asked: %1").arg(shortPrompt);
    } else if (fixedImage) {
        text = QStringLiteral("Here is an image of %1.").arg(shortPrompt);
    } else if (!pc.images.isEmpty()) {
        const QImage style = pc.images.size() >= 2 ? pc.images.first().pixels : QImage();
        pixels = FakeImagePainter::editLocal(pc.images.last().pixels, style, pc.prompt, size, &caption);
        text = style.isNull()
            ? QStringLiteral("I've edited your image: %1.").arg(shortPrompt)
            : QStringLiteral("I've edited your image in the style of the reference: %1.").arg(shortPrompt);
    } else if (!base.isNull()) {
        pixels = FakeImagePainter::edit(base, pc.prompt, size, parentCaption, &caption);
        text = QStringLiteral("I've updated the image: %1.").arg(shortPrompt);
    } else {
        pixels = FakeImagePainter::generate(pc.prompt, size, &caption);
        text = QStringLiteral("Here is an image of %1.").arg(shortPrompt);
    }

    const QString id = pc.store ? newInteractionId() : QString();
    const QString created = isoNow();
    json interaction = json::object();
    if (pc.store)
        interaction["id"] = s(id);
    interaction["object"] = "interaction";
    interaction["model"] = s(pc.model);
    interaction["status"] = "completed";
    interaction["created"] = s(created);
    interaction["updated"] = s(created);
    if (!pc.previousId.isEmpty())
        interaction["previous_interaction_id"] = s(pc.previousId);

    json thought = json::object();
    thought["type"] = "thought";
    thought["signature"] = s(newSignature());
    json summary = json::array();
    summary.push_back(json {{"type", "text"},
        {"text",
            s(QStringLiteral("**Planning the picture**\n\nWorking out the composition for: %1").arg(shortPrompt))}});
    const bool sendFixed = fixedImage && pc.wantImage && !refuse;
    if (!pixels.isNull() || sendFixed) {
        const QByteArray draft
            = sendFixed ? fixedDraftJpeg : FakeImagePainter::encodeJpeg(FakeImagePainter::draft(pixels), 70);
        summary.push_back(json {{"type", "image"},
            {"data", sendFixed ? fixedDraftToken : draft.toBase64().toStdString()}, {"mime_type", "image/jpeg"}});
    }
    thought["summary"] = summary;

    json output = json::object();
    output["type"] = "model_output";
    json content = json::array();
    content.push_back(json {{"type", "text"}, {"text", s(text)}});
    QByteArray jpeg;
    if (!pixels.isNull() || sendFixed) {
        jpeg = sendFixed ? opts.fixedImageJpeg : FakeImagePainter::encodeJpeg(pixels);
        content.push_back(json {{"type", "image"},
            {"data", sendFixed ? fixedImageToken : jpeg.toBase64().toStdString()}, {"mime_type", "image/jpeg"}});
    }
    output["content"] = content;
    interaction["steps"] = json::array({std::move(thought), std::move(output)});

    const int inText = textTokens(pc.prompt) + (parentJpeg.isEmpty() ? 0 : 1120 + 8);
    const int inImages = int(pc.images.size()) * 258 + (pc.historyImage.isNull() ? 0 : 258);
    const int thoughtTokens = (pc.thinkingLevel == QLatin1String("high") ? 420 : 60) + int(qHash(pc.prompt, 7) % 40);
    const int outText = textTokens(text);
    const int outImage = jpeg.isEmpty() ? 0 : 1120;
    json usage = json::object();
    usage["total_input_tokens"] = inText + inImages;
    usage["total_output_tokens"] = outText + outImage;
    usage["total_thought_tokens"] = thoughtTokens;
    usage["total_tokens"] = inText + inImages + outText + outImage + thoughtTokens;
    json inMod = json::array({json {{"modality", "text"}, {"tokens", inText}}});
    if (inImages)
        inMod.push_back(json {{"modality", "image"}, {"tokens", inImages}});
    json outMod = json::array({json {{"modality", "text"}, {"tokens", outText}}});
    if (outImage)
        outMod.push_back(json {{"modality", "image"}, {"tokens", outImage}});
    usage["input_tokens_by_modality"] = inMod;
    usage["output_tokens_by_modality"] = outMod;
    interaction["usage"] = usage;

    int latency;
    std::optional<Stored> toPersist;
    {
        std::lock_guard<std::mutex> lock(mutex);
        latency = opts.latencyMs;
        if (pc.store) {
            Stored st;
            st.id = id;
            st.status = QStringLiteral("completed");
            // Stored with the fixed-image tokens, not the ~1.4 MB of base64 they stand for: get,
            // cancel and the store folder expand them in their serialised text (expandFixedImages).
            st.interaction = interaction;
            st.userContent = pc.userContent;
            st.jpeg = jpeg;
            st.caption = caption;
            if (pc.background && !pc.stream) {
                st.status = QStringLiteral("in_progress");
                st.backgroundDoneAtMs = QDateTime::currentMSecsSinceEpoch() + std::max(200, latency);
            }
            if (!storeDir.isEmpty())
                toPersist = st;
            store.emplace(id, std::move(st)); // emplace moves; QHash::insert would copy the tree
        }
    }
    if (toPersist)
        persist(*toPersist); // before the answer: a client that learns the id can always continue it

    if (pc.stream) {
        Reply r;
        r.sse = true;
        r.contentType = kSseType;
        r.events = sseEvents(interaction, latency);
        if (sendFixed) {
            for (auto &event : r.events)
                expandFixedImages(event.second);
        }
        return r;
    }
    if (pc.background) {
        json brief = json::object();
        brief["id"] = s(id);
        brief["object"] = "interaction";
        brief["model"] = s(pc.model);
        brief["status"] = "in_progress";
        brief["created"] = s(created);
        brief["updated"] = s(created);
        if (!pc.previousId.isEmpty())
            brief["previous_interaction_id"] = s(pc.previousId);
        return jsonReply(200, brief);
    }
    Reply reply = jsonReply(200, interaction);
    if (sendFixed)
        reply.pieces = fixedImagePieces(reply.body); // sent around the one copy of the base64
    return reply;
}

std::vector<TextPiece> FakeServer::Private::fixedImagePieces(const std::string &text) const
{
    if (fixedImageToken.empty())
        return {};
    struct Hit {
        size_t at;
        const std::string *token, *base64;
    };
    std::vector<Hit> hits;
    for (const auto &[token, base64] :
        {std::pair {&fixedImageToken, &fixedImageBase64}, std::pair {&fixedDraftToken, &fixedDraftBase64}}) {
        const std::string quoted = '"' + *token + '"';
        for (size_t at = text.find(quoted); at != std::string::npos; at = text.find(quoted, at + quoted.size()))
            hits.push_back({at + 1, token, base64});
    }
    if (hits.empty())
        return {};
    std::sort(hits.begin(), hits.end(), [](const Hit &a, const Hit &b) { return a.at < b.at; });
    std::vector<TextPiece> pieces;
    size_t copied = 0;
    for (const Hit &h : hits) {
        pieces.push_back({nullptr, copied, h.at - copied});
        pieces.push_back({h.base64, 0, h.base64->size()});
        copied = h.at + h.token->size();
    }
    pieces.push_back({nullptr, copied, text.size() - copied});
    return pieces;
}

void FakeServer::Private::expandFixedImages(std::string &text) const
{
    // One pass into a buffer of the final size: replacing in place moved the whole ~1.4 MB text
    // (and reallocated it) once per token.
    const std::vector<TextPiece> pieces = fixedImagePieces(text);
    if (pieces.empty())
        return;
    size_t size = 0;
    for (const TextPiece &p : pieces)
        size += p.size;
    std::string out;
    out.reserve(size);
    for (const TextPiece &p : pieces)
        out.append(p.text ? *p.text : text, p.at, p.size);
    text = std::move(out);
}

// ---------------------------------------------------------------------------------------
// SSE (spec §5): created, status_update, thought step, model_output step, completed, [DONE]

std::string FakeServer::Private::frame(const char *eventType, int eventNo, json payload)
{
    json out = json::object();
    out["event_type"] = eventType;
    out["event_id"] = "e" + std::to_string(eventNo);
    for (auto &[k, v] : payload.items())
        out[k] = v;
    return std::string("event: ") + eventType + "\ndata: " + out.dump() + "\n\n";
}

std::vector<std::pair<int, std::string>> FakeServer::Private::sseEvents(
    const json &interaction, int latencyMs, int skipThrough) const
{
    std::vector<std::pair<int, std::string>> ev;
    int no = 0;
    auto add = [&](int delay, const char *type, json payload) {
        ++no;
        if (no > skipThrough)
            ev.emplace_back(delay, frame(type, no, std::move(payload)));
    };
    json head = json::object();
    for (const char *k : {"id", "status", "model", "object", "created", "previous_interaction_id"}) {
        if (interaction.contains(k))
            head[k] = interaction[k];
    }
    head["status"] = "in_progress";
    add(0, "interaction.created", json {{"interaction", head}});
    json su = json::object();
    if (interaction.contains("id"))
        su["interaction_id"] = interaction["id"];
    su["status"] = "in_progress";
    add(0, "interaction.status_update", su);

    const json &steps = interaction.contains("steps") ? interaction["steps"] : json::array();
    int firstDelay = latencyMs / 2;
    for (size_t i = 0; i < steps.size(); ++i) {
        const json &step = steps[i];
        const int index = int(i);
        const std::string type = step.value("type", std::string());
        if (type == "thought") {
            add(firstDelay, "step.start", json {{"index", index}, {"step", json {{"type", "thought"}}}});
            firstDelay = 0;
            if (step.contains("summary")) {
                for (const json &part : step["summary"])
                    add(0, "step.delta",
                        json {{"index", index}, {"delta", json {{"type", "thought_summary"}, {"content", part}}}});
            }
            if (step.contains("signature"))
                add(0, "step.delta",
                    json {{"index", index},
                        {"delta", json {{"type", "thought_signature"}, {"signature", step["signature"]}}}});
            add(0, "step.stop", json {{"index", index}});
        } else {
            json startStep = json::object();
            startStep["type"] = type;
            startStep["content"] = json::array();
            add(firstDelay + (latencyMs - latencyMs / 2), "step.start", json {{"index", index}, {"step", startStep}});
            firstDelay = 0;
            if (step.contains("content")) {
                for (const json &part : step["content"])
                    add(0, "step.delta", json {{"index", index}, {"delta", part}});
            }
            add(0, "step.stop", json {{"index", index}});
        }
    }
    json done = json::object();
    for (const char *k :
        {"id", "status", "model", "object", "created", "updated", "previous_interaction_id", "usage"}) {
        if (interaction.contains(k))
            done[k] = interaction[k];
    }
    add(0, "interaction.completed", json {{"interaction", done}});
    ev.emplace_back(0, "data: [DONE]\n\n");
    return ev;
}

// ---------------------------------------------------------------------------------------
// Get / delete / cancel

Reply FakeServer::Private::get(const httplib::Request &req, const QString &id)
{
    json interaction;
    json userContent;
    int latency;
    {
        std::lock_guard<std::mutex> lock(mutex);
        latency = opts.latencyMs;
        auto it = store.find(id);
        if (it == store.end())
            return notFoundInteraction(id);
        if (it->status == QLatin1String("in_progress") && it->backgroundDoneAtMs
            && QDateTime::currentMSecsSinceEpoch() >= it->backgroundDoneAtMs)
            it->status = QStringLiteral("completed");
        interaction = it->interaction;
        userContent = it->userContent;
        if (it->status != QLatin1String("completed")) {
            interaction["status"] = s(it->status);
            interaction.erase("steps");
            interaction.erase("usage");
        }
    }
    if (req.get_param_value("include_input") == "true" && interaction.contains("steps")) {
        json steps = json::array();
        steps.push_back(json {{"type", "user_input"}, {"content", userContent}});
        for (const json &st : interaction["steps"])
            steps.push_back(st);
        interaction["steps"] = steps;
    }
    if (req.get_param_value("stream") == "true") {
        int skip = 0;
        const std::string last = req.get_param_value("last_event_id");
        if (last.size() > 1 && last[0] == 'e')
            skip = std::atoi(last.c_str() + 1);
        Reply r;
        r.sse = true;
        r.contentType = kSseType;
        r.events = sseEvents(interaction, latency, skip);
        for (auto &event : r.events)
            expandFixedImages(event.second);
        return r;
    }
    Reply reply = jsonReply(200, interaction);
    reply.pieces = fixedImagePieces(reply.body);
    return reply;
}

Reply FakeServer::Private::remove(const QString &id)
{
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (!store.remove(id))
            return notFoundInteraction(id);
    }
    unpersist(id);
    return jsonReply(200, json::object());
}

Reply FakeServer::Private::cancel(const QString &id)
{
    std::unique_lock<std::mutex> lock(mutex);
    auto it = store.find(id);
    if (it == store.end())
        return notFoundInteraction(id);
    const bool running
        = it->status == QLatin1String("in_progress") && QDateTime::currentMSecsSinceEpoch() < it->backgroundDoneAtMs;
    if (!running)
        return nativeError(400, "invalid_request",
            QStringLiteral("Only background interactions that are still in progress can be cancelled; '%1' is %2.")
                .arg(id, it->status == QLatin1String("in_progress") ? QStringLiteral("completed") : it->status));
    it->status = QStringLiteral("cancelled");
    it->jpeg.clear();
    json out = it->interaction;
    out["status"] = "cancelled";
    out["updated"] = s(isoNow());
    out.erase("steps");
    out.erase("usage");
    it->interaction = out;
    const Stored cancelled = *it;
    lock.unlock();
    persist(cancelled);
    return jsonReply(200, out);
}

} // namespace nb2
