#include "core/session/framesource.h"

#include "core/session/framereader.h"

#include <QFile>
#include <QJsonDocument>

#ifdef Q_OS_UNIX
#include <limits>
#include <sys/mman.h>
#include <sys/stat.h>
#endif

namespace nb2 {

FrameNode FrameNode::of(const Frame &frame)
{
    FrameNode n;
    n.id = frame.id;
    n.parentId = frame.parentId;
    n.imageFile = frame.image.file;
    n.model = frame.model;
    n.usage = frame.usage;
    n.ownerPid = frame.ownerPid;
    n.status = frame.status;
    n.kind = frame.kind;
    n.trashed = frame.isTrashed();
    n.keepListSet = frame.keepListSet;
    return n;
}

FrameSource::FrameSource(QFile &file)
{
#ifdef Q_OS_UNIX
    // Mapped with its pages populated in the one mmap call: a 14 MB checkpoint read into a
    // fresh buffer cost the copy and a page fault per 4 KB of the buffer, ~8 ms of a CLI turn.
    struct stat st {
    };
    if (::fstat(file.handle(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0
        && quint64(st.st_size) < quint64(std::numeric_limits<qsizetype>::max())) {
        void *p = ::mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, file.handle(), 0);
        if (p != MAP_FAILED) {
            m_map = p;
            m_size = size_t(st.st_size);
            m_bytes = QByteArray::fromRawData(static_cast<const char *>(p), qsizetype(st.st_size));
            return;
        }
    }
#endif
    m_bytes = file.readAll();
}

FrameSource::~FrameSource()
{
#ifdef Q_OS_UNIX
    if (m_map)
        ::munmap(m_map, m_size);
#endif
}

Frame FrameSource::build(const FrameNode &node) const
{
    Frame f;
    if (node.offset < 0 || node.length <= 0 || node.offset + node.length > m_bytes.size()) {
        Q_ASSERT_X(false, "FrameSource::build", "a node without bytes in this source");
        return f;
    }
    const char *begin = m_bytes.constData() + node.offset;
    manifestdetail::Reader r(begin, begin + node.length);
    manifestdetail::Interns interns;
    if (manifestdetail::readFrame(r, interns, &f) == manifestdetail::Reader::Ok)
        return f;
    // Cannot happen: the node was made by the same reader from these bytes (see the class
    // comment). Should it ever, the frame is what the reference reader makes of them, so a
    // command still sees the frame the studio would.
    Q_ASSERT_X(false, "FrameSource::build", "a node's bytes no longer read");
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromRawData(begin, qsizetype(node.length)));
    if (Result<Frame> dom = Frame::fromJson(doc.object()))
        return dom.value();
    f.id = node.id;
    f.parentId = node.parentId;
    f.status = node.status;
    f.kind = node.kind;
    return f;
}

} // namespace nb2
