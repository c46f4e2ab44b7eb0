#pragma once

#include "core/common/error.h"
#include "core/session/frame.h"
#include "core/session/framesource.h"

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
    bool nodesOnly = false;     // read with FrameDepth::Nodes (nodes below), not parseManifestDom()
    QList<Frame> frames;        // in file order, up to the first frame that does not read; nodesOnly:
                                // only the frames whose nodes have no offset (read by QJsonDocument)
    QList<FrameNode> nodes;     // nodesOnly: every frame's node, in file order (offsets into raw)
    int badFrame = -1;          // index of the first frame that does not read (-1: none)
    QString badFrameMessage;    // "frames[3] is not an object", "frames[3]: frame without an \"id\""
    int readFast = 0;           // frames the single pass read (the rest went through QJsonDocument)
    bool readInTwo = false;     // the frames were read by two threads, each one half of the array
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
enum class FrameDepth {
    Frames, // every frame built
    Nodes,  // every frame read and checked as for Frames, but only its node kept (frames built on demand)
};
Result<ParsedManifest> parseManifest(const QByteArray &raw, FrameDepth depth = FrameDepth::Frames);
// A "frames" array of 1 MB or more (a checkpoint of ~700 frames and up) is read by two threads,
// one half each: the second starts at a frame boundary guessed from the indented layout near
// the middle, and its frames are used only if the first thread, reading element by element,
// arrives at exactly that boundary (otherwise the first reads on to the end alone). The result
// is the same either way; at 10,000 frames it halves the ~13-25 ms the parse takes.

/**
 * One journal line read in one pass when it is exactly what Journal::appendCommits() writes
 * (compact, keys "at", "current", "frames", "op", "removed", "w", frames as toJson() writes
 * them): Commit with its parts filled. NotCommit: a whole, well-formed record of another kind
 * (begin, end, id...). Unusual: anything else, including text that is not JSON; the caller
 * reads such a line with QJsonDocument and Frame::fromJson (the reference).
 */
enum class JournalLine { Commit, NotCommit, Unusual };
JournalLine parseCommitLine(
    QByteArrayView line, QString *writer, QList<Frame> *upserts, QStringList *removals, QString *current);

/** The same through QJsonDocument and Frame::fromJson (the reference; the fallback). */
Result<ParsedManifest> parseManifestDom(const QByteArray &raw);

} // namespace nb2
