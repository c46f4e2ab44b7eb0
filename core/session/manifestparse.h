#pragma once

#include "core/common/error.h"
#include "core/session/frame.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace nb2 {

/**
 * manifest.json's text read into its parts, before any check of what they say (format,
 * schema, duplicate ids, paths: SessionStore::readManifest does those).
 */
struct ParsedManifest {
    QJsonObject root;           // every top-level field except "frames"
    bool framesIsArray = false; // "frames" is present and an array
    QList<Frame> frames;        // in file order, up to the first frame that does not read
    int badFrame = -1;          // index of the first frame that does not read (-1: none)
    QString badFrameMessage;    // "frames[3] is not an object", "frames[3]: frame without an \"id\""
    int readFast = 0;           // frames the single pass read (the rest went through QJsonDocument)
};

/**
 * Parses manifest.json's text. The checkpoint of a 10,000-frame session is ~14 MB; building
 * a QJsonDocument of it and reading each frame back with QJsonObject::value was ~60 % of a
 * CLI turn on such a session. This reads the frames in one pass straight into Frame values
 * (repeated strings such as the model name shared, times read from their bytes). The fast
 * reader handles only what toJson() writes; a frame holding anything else (an unknown field,
 * an error object, a region edit, a value of an unexpected type, a duplicate key) is read by
 * Frame::fromJson from its own QJsonDocument, and a text that is not valid JSON is read again
 * by parseManifestDom() for its exact error. The result is always what parseManifestDom()
 * gives (tests/session/tst_manifestparse.cpp and the sessionload fuzzer compare them).
 * Errors: Corrupt "not valid JSON: … at byte N" / "expected a JSON object at the top level".
 */
Result<ParsedManifest> parseManifest(const QByteArray &raw);

/** The same through QJsonDocument and Frame::fromJson (the reference; the fallback). */
Result<ParsedManifest> parseManifestDom(const QByteArray &raw);

} // namespace nb2
