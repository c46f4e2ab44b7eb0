#pragma once

#include "core/session/frame.h"

#include <QByteArray>
#include <QString>

#include <utility>

class QFile;

namespace nb2 {

/**
 * What FrameGraph's own queries read of a frame (links, status, trash) and what its cost
 * depends on (kind, status, model, usage, picture), kept for every frame of a checkpoint whose
 * frames are built on demand (SessionStore::setFramesOnDemand()): ~170 bytes where a built
 * Frame is ~1 KB plus its strings. offset < 0: the frame has no bytes in
 * the source (it was built when read, or made or changed since) and the graph holds it built.
 */
struct FrameNode {
    QString id;
    QString parentId;
    QString imageFile; // the frame's picture: its folder is checked when the checkpoint is read
    QString model;     // with usage: a budget check sums every frame's cost (costledger.h)
    Usage usage;
    qint64 ownerPid = 0;
    qint64 offset = -1; // its JSON object in FrameSource::bytes()
    qint64 length = 0;
    FrameStatus status = FrameStatus::Pending;
    FrameKind kind = FrameKind::Generate;
    bool trashed = false;
    bool keepListSet = false;

    /** The node of a built frame (no bytes behind it). */
    static FrameNode of(const Frame &frame);
};

/**
 * A checkpoint's bytes, kept while frames are built from them on demand. Each node's object
 * was read when the checkpoint was, by the same single-pass reader in a mode that checks
 * everything and keeps only the node (framereader.h), so building it later cannot fail: the
 * bytes are the same and the reader is deterministic. On Unix the bytes are the file mapped
 * privately; a checkpoint is replaced by rename, never rewritten in place.
 */
class FrameSource
{
public:
    /** The file's bytes (mapped where possible, else read). */
    explicit FrameSource(QFile &file);
    /** Bytes already in memory (tests, a checkpoint made in memory). */
    explicit FrameSource(QByteArray bytes) : m_bytes(std::move(bytes)) {}
    ~FrameSource();
    FrameSource(const FrameSource &) = delete;
    FrameSource &operator=(const FrameSource &) = delete;

    const QByteArray &bytes() const { return m_bytes; }
    /** The frame whose object the node locates. */
    Frame build(const FrameNode &node) const;

private:
    QByteArray m_bytes;
    void *m_map = nullptr;
    size_t m_size = 0;
};

} // namespace nb2
