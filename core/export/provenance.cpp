#include "core/export/provenance.h"

#include "core/export/exportfiles.h"
#include "core/export/exportsession.h"
#include "core/session/sessionstore.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtEndian>

#include <array>

#ifndef NB2_VERSION
#define NB2_VERSION "0.0.0"
#endif

namespace nb2 {

namespace {

// tr() for this file's functions with the context "nb2::Provenance": a struct, not a free function, so
// that lupdate files the texts under the context they are looked up in.
struct Text {
    Q_DECLARE_TR_FUNCTIONS(nb2::Provenance)
};

const QByteArray kPngSignature("\x89PNG\r\n\x1a\n", 8);
const QByteArray kXmpHeader("http://ns.adobe.com/xap/1.0/\0", 29);
const QByteArray kXmpNamespace("https://nb2lite.invalid/ns/provenance/1.0/");
const QByteArray kComPrefix = QByteArray(kProvenanceKeyword) + ' ';

// PNG chunk CRC (ISO 3309 / ITU-T V.42 polynomial, as in the PNG spec's sample code).
quint32 crc32(const QByteArray &data)
{
    static const std::array<quint32, 256> table = [] {
        std::array<quint32, 256> t {};
        for (quint32 n = 0; n < 256; ++n) {
            quint32 c = n;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    quint32 c = 0xffffffffu;
    for (char ch : data)
        c = table[(c ^ static_cast<quint8>(ch)) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

QByteArray be32(quint32 v)
{
    QByteArray b(4, '\0');
    qToBigEndian(v, b.data());
    return b;
}

struct PngChunk {
    QByteArray type;
    qsizetype start = 0; // offset of the length field
    qsizetype size = 0;  // whole chunk: length + type + data + crc
    QByteArray data;
};

Result<QList<PngChunk>> parsePng(const QByteArray &bytes)
{
    if (!bytes.startsWith(kPngSignature))
        return Error::make(ErrorKind::InvalidInput, Text::tr("Not a PNG file."));
    QList<PngChunk> chunks;
    qsizetype pos = kPngSignature.size();
    while (pos < bytes.size()) {
        if (bytes.size() - pos < 12)
            return Error::make(ErrorKind::InvalidInput, Text::tr("The PNG file is truncated."));
        const quint32 len = qFromBigEndian<quint32>(bytes.constData() + pos);
        if (len > 0x7fffffffu || qsizetype(len) > bytes.size() - pos - 12)
            return Error::make(ErrorKind::InvalidInput, Text::tr("The PNG file is truncated or damaged."));
        PngChunk c;
        c.type = bytes.mid(pos + 4, 4);
        c.start = pos;
        c.size = 12 + qsizetype(len);
        c.data = bytes.mid(pos + 8, len);
        chunks.append(c);
        pos += c.size;
        if (c.type == "IEND")
            break;
    }
    if (chunks.isEmpty() || chunks.first().type != "IHDR" || chunks.last().type != "IEND")
        return Error::make(ErrorKind::InvalidInput, Text::tr("The PNG file is damaged (IHDR or IEND missing)."));
    return chunks;
}

bool isOurPngChunk(const PngChunk &c)
{
    if (c.type != "iTXt" && c.type != "tEXt")
        return false;
    return c.data.startsWith(QByteArray(kProvenanceKeyword) + '\0');
}

QByteArray pngWithRecord(const QByteArray &bytes, const QList<PngChunk> &chunks, const QByteArray &json)
{
    QByteArray data = QByteArray(kProvenanceKeyword);
    data += '\0'; // keyword terminator
    data += '\0'; // compression flag: uncompressed (readable by any tool)
    data += '\0'; // compression method
    data += '\0'; // language tag: empty
    data += '\0'; // translated keyword: empty
    data += json; // UTF-8 text
    QByteArray chunk = be32(quint32(data.size()));
    const QByteArray typed = QByteArray("iTXt") + data;
    chunk += typed;
    chunk += be32(crc32(typed));

    QByteArray out;
    out.reserve(bytes.size() + chunk.size());
    out += kPngSignature;
    for (const PngChunk &c : chunks) {
        if (isOurPngChunk(c))
            continue;
        out += QByteArrayView(bytes.constData() + c.start, c.size);
        if (c.type == "IHDR")
            out += chunk; // early, so that readers that stop at IDAT still see it
    }
    // Anything after IEND is kept as it was: the file stays what it was apart from our chunk.
    const PngChunk &last = chunks.last();
    out += bytes.mid(last.start + last.size);
    return out;
}

struct JpegSegment {
    quint8 marker = 0;
    qsizetype start = 0; // offset of 0xFF
    qsizetype size = 0;  // marker + length + payload
    QByteArray payload;
};

// Segments from SOI up to (not including) SOS; *scanStart is where the untouched remainder begins.
Result<QList<JpegSegment>> parseJpegHeader(const QByteArray &bytes, qsizetype *scanStart)
{
    if (bytes.size() < 4 || quint8(bytes[0]) != 0xff || quint8(bytes[1]) != 0xd8)
        return Error::make(ErrorKind::InvalidInput, Text::tr("Not a JPEG file."));
    QList<JpegSegment> segs;
    qsizetype pos = 2;
    while (true) {
        if (pos + 4 > bytes.size())
            return Error::make(ErrorKind::InvalidInput, Text::tr("The JPEG file is truncated before its image data."));
        if (quint8(bytes[pos]) != 0xff)
            return Error::make(
                ErrorKind::InvalidInput, Text::tr("The JPEG file is damaged (marker expected at byte %1).").arg(pos));
        qsizetype m = pos + 1;
        while (m < bytes.size() && quint8(bytes[m]) == 0xff)
            ++m; // fill bytes
        if (m + 3 > bytes.size())
            return Error::make(ErrorKind::InvalidInput, Text::tr("The JPEG file is truncated."));
        const quint8 marker = quint8(bytes[m]);
        if (marker == 0xda) { // SOS: entropy-coded data follows
            *scanStart = pos;
            return segs;
        }
        if (marker == 0xd9 || marker == 0xd8)
            return Error::make(ErrorKind::InvalidInput, Text::tr("The JPEG file has no image data."));
        if ((marker >= 0xd0 && marker <= 0xd7) || marker == 0x01) {
            pos = m + 1; // standalone marker, no length
            continue;
        }
        const quint16 len = qFromBigEndian<quint16>(bytes.constData() + m + 1);
        if (len < 2 || m + 1 + len > bytes.size())
            return Error::make(ErrorKind::InvalidInput, Text::tr("The JPEG file is truncated or damaged."));
        JpegSegment s;
        s.marker = marker;
        s.start = pos;
        s.size = (m + 1 + len) - pos;
        s.payload = bytes.mid(m + 3, len - 2);
        segs.append(s);
        pos = m + 1 + len;
    }
}

bool isXmp(const JpegSegment &s)
{
    return s.marker == 0xe1 && s.payload.startsWith(kXmpHeader);
}

bool isOurJpegSegment(const JpegSegment &s)
{
    if (isXmp(s))
        return s.payload.contains(kXmpNamespace);
    return s.marker == 0xfe && s.payload.startsWith(kComPrefix);
}

QByteArray xmlEscape(const QByteArray &text)
{
    QByteArray out;
    out.reserve(text.size() + 16);
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

QByteArray xmlUnescape(QByteArray text)
{
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'");
    return text.replace("&amp;", "&");
}

QByteArray xmpPacket(const QByteArray &json)
{
    QByteArray x = kXmpHeader;
    x += "<?xpacket begin=\"\xef\xbb\xbf\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>"
         "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">"
         "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
         "<rdf:Description rdf:about=\"\" xmlns:nb2lite=\""
        + kXmpNamespace
        + "\">"
          "<nb2lite:provenance>";
    x += xmlEscape(json);
    x += "</nb2lite:provenance></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end=\"r\"?>";
    return x;
}

QByteArray jpegSegment(quint8 marker, const QByteArray &payload)
{
    QByteArray s;
    s += char(0xff);
    s += char(marker);
    QByteArray len(2, '\0');
    qToBigEndian(quint16(payload.size() + 2), len.data());
    s += len;
    s += payload;
    return s;
}

constexpr qsizetype kMaxJpegPayload = 65533;

Result<QByteArray> jpegWithRecord(const QByteArray &bytes, const QByteArray &json)
{
    qsizetype scanStart = 0;
    auto parsed = parseJpegHeader(bytes, &scanStart);
    if (!parsed)
        return parsed.error();
    const QList<JpegSegment> &segs = parsed.value();
    bool foreignXmp = false;
    for (const JpegSegment &s : segs)
        foreignXmp = foreignXmp || (isXmp(s) && !isOurJpegSegment(s));
    // A file may carry one XMP packet; when someone else's is there, the record goes in a comment.
    const QByteArray payload = foreignXmp ? kComPrefix + json : xmpPacket(json);
    if (payload.size() > kMaxJpegPayload)
        return Error::make(ErrorKind::TooLarge, Text::tr("The provenance record is too large for a JPEG segment."));
    const QByteArray segment = jpegSegment(foreignXmp ? 0xfe : 0xe1, payload);

    QByteArray out;
    out.reserve(bytes.size() + segment.size());
    out += bytes.left(2);
    bool inserted = false;
    for (const JpegSegment &s : segs) {
        if (isOurJpegSegment(s))
            continue;
        // JFIF (APP0) and Exif (APP1) must stay first; the record follows them.
        const bool leading = s.marker == 0xe0 || (s.marker == 0xe1 && !isXmp(s));
        if (!inserted && !leading) {
            out += segment;
            inserted = true;
        }
        out += QByteArrayView(bytes.constData() + s.start, s.size);
    }
    if (!inserted)
        out += segment;
    out += QByteArrayView(bytes.constData() + scanStart, bytes.size() - scanStart);
    return out;
}

QString abbreviated(const QString &s, int max)
{
    return s.size() <= max ? s : s.left(max - 1) + QChar(0x2026);
}

} // namespace

QByteArray Provenance::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("schema"), schema);
    if (!app.isEmpty())
        o.insert(QStringLiteral("app"), app);
    if (!frameId.isEmpty())
        o.insert(QStringLiteral("frame"), frameId);
    if (!parentSha256.isEmpty())
        o.insert(QStringLiteral("parentSha256"), parentSha256);
    if (!model.isEmpty())
        o.insert(QStringLiteral("model"), model);
    if (!interactionId.isEmpty())
        o.insert(QStringLiteral("interaction"), interactionId);
    if (!kind.isEmpty())
        o.insert(QStringLiteral("kind"), kind);
    if (!replayOf.isEmpty())
        o.insert(QStringLiteral("replayOf"), replayOf);
    if (!promptChain.isEmpty()) {
        o.insert(QStringLiteral("prompts"), QJsonArray::fromStringList(promptChain));
        o.insert(QStringLiteral("promptsTotal"), promptChainTotal);
    }
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

Result<Provenance> Provenance::fromJson(const QByteArray &json)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return Error::make(
            ErrorKind::InvalidInput, Text::tr("The provenance record is not valid JSON: %1.").arg(pe.errorString()));
    const QJsonObject o = doc.object();
    Provenance p;
    p.schema = o.value(QStringLiteral("schema")).toInt(0);
    if (p.schema < 1)
        return Error::make(ErrorKind::InvalidInput, Text::tr("The provenance record has no schema version."));
    p.app = o.value(QStringLiteral("app")).toString();
    p.frameId = o.value(QStringLiteral("frame")).toString();
    p.parentSha256 = o.value(QStringLiteral("parentSha256")).toString();
    p.model = o.value(QStringLiteral("model")).toString();
    p.interactionId = o.value(QStringLiteral("interaction")).toString();
    p.kind = o.value(QStringLiteral("kind")).toString();
    p.replayOf = o.value(QStringLiteral("replayOf")).toString();
    const QJsonArray prompts = o.value(QStringLiteral("prompts")).toArray();
    for (const QJsonValue &v : prompts)
        p.promptChain.append(v.toString());
    // A total counts the chain's prompts; without a chain it says nothing (and would not be
    // written back, so the record would change on every round trip).
    if (!p.promptChain.isEmpty())
        p.promptChainTotal = qMax(int(p.promptChain.size()), o.value(QStringLiteral("promptsTotal")).toInt(0));
    return p;
}

Provenance Provenance::forFrame(const ExportSession &session, const QString &frameId, const ProvenanceOptions &options)
{
    Provenance p;
    p.app = QStringLiteral("nb2lite " NB2_VERSION);
    const QList<const ExportFrame *> path = session.pathTo(frameId);
    if (path.isEmpty())
        return p;
    const ExportFrame *f = path.last();
    p.model = f->model;
    p.kind = f->kind;
    if (!options.stripIds) {
        p.frameId = f->id;
        p.interactionId = f->interactionId;
        p.replayOf = f->replayOf;
        const ExportFrame *parent = path.size() >= 2 ? path.at(path.size() - 2) : nullptr;
        if (parent && !parent->imageSha256.isEmpty()) {
            p.parentSha256 = parent->imageSha256; // the manifest's hash: no need to read the file
        } else if (parent && parent->hasImage()) {
            // Only a file inside the session is hashed; an unsafe path leaves the field out.
            if (const Result<QString> path = session.imageFile(*parent); path) {
                QFile file(path.value());
                if (file.open(QIODevice::ReadOnly))
                    p.parentSha256 = SessionStore::sha256Hex(file.readAll());
            }
        }
    }
    if (!options.stripPrompts) {
        QStringList chain;
        for (const ExportFrame *step : path) {
            if (!step->prompt.isEmpty())
                chain.append(step->prompt);
        }
        p.promptChainTotal = int(chain.size());
        // The most recent prompts matter most for continuing; older ones are dropped first.
        const qsizetype from = qMax<qsizetype>(0, chain.size() - kMaxChainPrompts);
        for (qsizetype i = from; i < chain.size(); ++i)
            p.promptChain.append(abbreviated(chain.at(i), kMaxPromptChars));
    }
    return p;
}

QList<QPair<QString, QString>> Provenance::fieldsToWrite(const Provenance &r)
{
    QList<QPair<QString, QString>> rows;
    rows.append({Text::tr("Schema version"), QString::number(r.schema)});
    if (!r.app.isEmpty())
        rows.append({Text::tr("App"), r.app});
    if (!r.frameId.isEmpty())
        rows.append({Text::tr("Frame id"), r.frameId});
    if (!r.parentSha256.isEmpty())
        rows.append({Text::tr("Parent image SHA-256"), r.parentSha256});
    if (!r.model.isEmpty())
        rows.append({Text::tr("Model"), r.model});
    if (!r.interactionId.isEmpty())
        rows.append({Text::tr("Interaction id"), r.interactionId});
    if (!r.kind.isEmpty())
        rows.append({Text::tr("Kind"), r.kind});
    if (!r.replayOf.isEmpty())
        rows.append({Text::tr("Replays frame"), r.replayOf});
    if (!r.promptChain.isEmpty()) {
        QStringList shown;
        for (const QString &p : r.promptChain)
            shown.append(abbreviated(p, 60));
        rows.append({Text::tr("Prompt chain (%1 of %2)").arg(r.promptChain.size()).arg(r.promptChainTotal),
            shown.join(QStringLiteral(" \u2192 "))});
    }
    return rows;
}

bool canEmbedProvenance(const QByteArray &bytes)
{
    return bytes.startsWith(kPngSignature)
        || (bytes.size() > 3 && quint8(bytes[0]) == 0xff && quint8(bytes[1]) == 0xd8);
}

Result<QByteArray> embedProvenance(const QByteArray &imageBytes, const Provenance &record)
{
    const QByteArray json = record.toJson();
    if (imageBytes.startsWith(kPngSignature)) {
        auto chunks = parsePng(imageBytes);
        if (!chunks)
            return chunks.error();
        return pngWithRecord(imageBytes, chunks.value(), json);
    }
    if (canEmbedProvenance(imageBytes))
        return jpegWithRecord(imageBytes, json);
    return Error::make(ErrorKind::InvalidInput,
        Text::tr("Provenance can only be written into PNG and JPEG files; this image is neither."));
}

Result<Provenance> readProvenanceFromBytes(const QByteArray &bytes)
{
    if (bytes.startsWith(kPngSignature)) {
        auto chunks = parsePng(bytes);
        if (!chunks)
            return chunks.error();
        for (const PngChunk &c : chunks.value()) {
            if (!isOurPngChunk(c))
                continue;
            qsizetype pos = qstrlen(kProvenanceKeyword) + 1;
            if (c.type == "iTXt") {
                if (c.data.size() < pos + 2 || c.data.at(pos) != '\0')
                    return Error::make(
                        ErrorKind::InvalidInput, Text::tr("The PNG provenance chunk is compressed or damaged."));
                pos += 2;                              // compression flag + method
                for (int skip = 0; skip < 2; ++skip) { // language tag, translated keyword
                    const qsizetype nul = c.data.indexOf('\0', pos);
                    if (nul < 0)
                        return Error::make(ErrorKind::InvalidInput, Text::tr("The PNG provenance chunk is damaged."));
                    pos = nul + 1;
                }
            }
            return Provenance::fromJson(c.data.mid(pos));
        }
        return Error::make(ErrorKind::InvalidInput, Text::tr("This PNG carries no NB2Lite provenance record."));
    }
    if (canEmbedProvenance(bytes)) {
        qsizetype scanStart = 0;
        auto segs = parseJpegHeader(bytes, &scanStart);
        if (!segs)
            return segs.error();
        for (const JpegSegment &s : segs.value()) {
            if (!isOurJpegSegment(s))
                continue;
            if (s.marker == 0xfe)
                return Provenance::fromJson(s.payload.mid(kComPrefix.size()));
            const QByteArray open = "<nb2lite:provenance>";
            const qsizetype a = s.payload.indexOf(open);
            const qsizetype b = s.payload.indexOf("</nb2lite:provenance>", a);
            if (a < 0 || b < 0)
                return Error::make(ErrorKind::InvalidInput, Text::tr("The JPEG's XMP provenance packet is damaged."));
            return Provenance::fromJson(xmlUnescape(s.payload.mid(a + open.size(), b - a - open.size())));
        }
        return Error::make(ErrorKind::InvalidInput, Text::tr("This JPEG carries no NB2Lite provenance record."));
    }
    return Error::make(ErrorKind::InvalidInput, Text::tr("Only PNG and JPEG files carry provenance records."));
}

Result<Provenance> readProvenance(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Error::make(ErrorKind::Io, Text::tr("Cannot read %1: %2").arg(path, f.errorString()));
    return readProvenanceFromBytes(f.readAll());
}

} // namespace nb2
