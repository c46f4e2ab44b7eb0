#include "ui/imagestage.h"

#include "core/session/sessioncontroller.h"
#include "core/session/sessionpaths.h"
#include "core/session/sessionstore.h"
#include "ui/canvasview.h"
#include "ui/compareview.h"
#include "ui/frameselection.h"
#include "ui/noticepresenter.h"
#include "ui/timelinemodel.h"

#include <QClipboard>
#include <QFutureWatcher>
#include <QGuiApplication>
#include <QImageReader>
#include <QMimeData>
#include <QStackedWidget>
#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace nb2 {

namespace {
struct DecodedImage {
    QImage image;
    QString error;
};

// Worker: full-size decode (never on the GUI thread).
DecodedImage decodeImage(const QString &path)
{
    DecodedImage d;
    QImageReader reader(path);
    reader.setAutoTransform(true);
    d.image = reader.read();
    if (d.image.isNull())
        d.error = reader.errorString();
    return d;
}

const QLatin1String kDraftSuffix("|draft");
} // namespace

ImageStage::ImageStage(SessionController *session, TimelineModel *model, FrameSelection *selection,
    NoticePresenter *notices, QWidget *parentWidget)
    : QObject(parentWidget), m_session(session), m_model(model), m_selection(selection), m_notices(notices)
{
    m_stack = new QStackedWidget(parentWidget);
    m_canvas = new CanvasView(m_stack);
    m_canvas->setObjectName(QStringLiteral("canvas"));
    m_canvas->setAccessibleName(tr("Image"));
    m_canvas->setEmptyText(emptySessionText());
    m_stack->addWidget(m_canvas);
}

CompareView *ImageStage::compareView()
{
    if (!m_compare) {
        m_compare = new CompareView(m_stack);
        m_compare->setObjectName(QStringLiteral("compareView"));
        m_stack->addWidget(m_compare);
        connect(m_compare, &CompareView::rawCompareToggled, this, [this] {
            if (isCompareShown())
                showCompare(m_compareOtherId);
        });
    }
    return m_compare;
}

QString ImageStage::emptySessionText()
{
    return tr("Describe an image in the Prompt panel and press Generate — or drop or paste a picture here.");
}

QWidget *ImageStage::widget() const
{
    return m_stack;
}
bool ImageStage::isCompareShown() const
{
    return m_compare && m_stack->currentWidget() == m_compare;
}

void ImageStage::reset()
{
    m_shownKey.clear();
    m_compareOtherId.clear();
}

void ImageStage::reload()
{
    if (isCompareShown()) {
        showCompare(m_compareOtherId);
        return;
    }
    const QString id = m_selection->currentId();
    if (id.isEmpty() || !m_session->isOpen() || !m_session->graph().contains(id)) {
        ++m_generation;
        m_shownKey.clear();
        m_canvas->clear();
        // "Describe an image…" is for an empty session; over a timeline of frames it misleads.
        // Any live frame (so there is a head): the first one found, not every head of the graph
        // (heads() cost ~2.5 ms at 10,000 frames, in the pass that hands an opened session over).
        const bool hasFrames = m_session->isOpen()
            && std::any_of(m_session->graph().frames().cbegin(), m_session->graph().frames().cend(),
                [](const Frame &f) { return !f.isTrashed(); });
        m_canvas->setEmptyText(hasFrames ? tr("Nothing is selected.\nSelect a frame in the timeline to show it here.")
                                         : emptySessionText());
        return;
    }
    const Frame f = m_session->graph().value(id);
    if (f.isPending()) {
        const QImage streamed = m_model->indexOf(id).data(TimelineRole::Draft).value<QImage>();
        if (!streamed.isNull()) {
            if (m_shownKey != id + kDraftSuffix) {
                ++m_generation;
                m_shownKey = id + kDraftSuffix;
                m_canvas->setImage(streamed);
                m_canvas->setDraft(true);
                m_canvas->setDraftText(tr("Draft from the model's thinking — the final image of %1 is on its way")
                                           .arg(m_selection->label(id)));
            }
            return;
        }
    }
    QString path = f.image.isNull() ? QString() : m_session->store()->absolutePath(f.image.file);
    bool draft = false;
    if (path.isEmpty()) {
        // No image yet: show the parent's (what the request starts from), marked as such.
        const Frame parent = m_session->graph().value(f.parentId);
        if (!parent.image.isNull())
            path = m_session->store()->absolutePath(parent.image.file);
        draft = true;
    }
    const QString key = id + QLatin1Char('|') + path;
    if (key == m_shownKey && m_canvas->isDraft() == draft) {
        m_canvas->setDraftText(draftText(id));
        m_canvas->update();
        return;
    }
    m_shownKey = key;
    const quint64 generation = ++m_generation;
    if (path.isEmpty()) {
        m_canvas->clear();
        m_canvas->setDraft(false);
        return;
    }
    auto *watcher = new QFutureWatcher<DecodedImage>(this);
    connect(watcher, &QFutureWatcher<DecodedImage>::finished, this, [this, watcher, generation, draft, id] {
        watcher->deleteLater();
        if (generation != m_generation)
            return; // the user moved on
        const DecodedImage d = watcher->result();
        if (d.image.isNull()) {
            m_canvas->clear();
            m_notices->show(
                NoticeKind::Error, tr("The image of %1 cannot be read: %2").arg(m_selection->label(id), d.error));
            return;
        }
        m_canvas->setImage(d.image);
        m_canvas->setDraft(draft);
        m_canvas->setDraftText(draftText(id)); // the frame may have changed while decoding
        Q_EMIT canvasImageShown(id);
    });
    watcher->setFuture(QtConcurrent::run(decodeImage, path));
}

QString ImageStage::draftText(const QString &id) const
{
    const Frame f = m_session->graph().value(id);
    if (f.isDone())
        return {};
    if (f.isPending())
        return tr("Working on %1 — showing the frame it starts from").arg(m_selection->label(id));
    return tr("%1 has no image (%2) — showing the frame it started from")
        .arg(m_selection->label(id), frameStatusName(f.status));
}

void ImageStage::showDraft(const QString &frameId, const QByteArray &bytes)
{
    auto *watcher = new QFutureWatcher<QImage>(this);
    connect(watcher, &QFutureWatcher<QImage>::finished, this, [this, watcher, frameId] {
        watcher->deleteLater();
        const QImage draft = watcher->result();
        const Frame f = m_session->graph().value(frameId);
        if (draft.isNull() || !f.isPending())
            return; // the final image won the race
        m_model->setDraft(frameId, draft);
        if (frameId == m_selection->currentId() && !isCompareShown()) {
            ++m_generation; // a parent image still decoding must not replace the draft
            m_shownKey = frameId + kDraftSuffix;
            m_canvas->setImage(draft);
            m_canvas->setDraft(true);
            m_canvas->setDraftText(tr("Draft from the model's thinking — the final image of %1 is on its way")
                                       .arg(m_selection->label(frameId)));
        }
        Q_EMIT draftShown(frameId);
    });
    // Small previews, but still a decode: on a worker like every other image.
    watcher->setFuture(QtConcurrent::run([bytes] { return QImage::fromData(bytes); }));
}

void ImageStage::showCanvas()
{
    const bool was = isCompareShown();
    m_stack->setCurrentWidget(m_canvas);
    m_compareOtherId.clear();
    if (was) {
        reload();
        Q_EMIT compareShownChanged(false);
    }
}

void ImageStage::showCompare(const QString &otherId)
{
    const QString id = m_selection->currentId();
    if (id.isEmpty() || !m_session->isOpen())
        return;
    const Frame f = m_session->graph().value(id);
    const QString other = otherId.isEmpty() || !m_session->graph().contains(otherId) ? f.parentId : otherId;
    const Frame o = m_session->graph().value(other);
    // A region/protect frame keeps the server's raw image beside its composite (issue 13).
    const bool rawAvailable = f.isDone() && !f.regionEdit.rawFile.isEmpty() && !f.image.isNull();
    const bool raw = rawAvailable && compareView()->isRawCompare();
    if (!raw && (other.isEmpty() || o.image.isNull() || f.image.isNull())) {
        m_notices->status(tr("Nothing to compare: both frames need an image."), 4000);
        Q_EMIT compareShownChanged(isCompareShown());
        return;
    }
    m_compareOtherId = otherId;
    m_stack->setCurrentWidget(compareView());
    Q_EMIT compareShownChanged(true);
    {
        const QSignalBlocker block(m_compare); // no rawCompareToggled while only offering the choice
        m_compare->setRawCompareAvailable(rawAvailable);
    }
    const QString left = raw ? f.regionEdit.rawFile : o.image.file;
    const QString right = f.image.file;
    // The stored heatmap measures the frame against its parent: only that comparison shows it.
    const QString heatmap = !raw && other == f.parentId ? f.drift.heatmapFile : QString();
    if (raw)
        m_compare->setLabels(tr("%1 as the server sent it (raw)").arg(m_selection->label(id)),
            tr("%1 as stored (composite)").arg(m_selection->label(id)));
    else
        m_compare->setLabels(
            other == f.parentId ? tr("%1 (parent)").arg(m_selection->label(other)) : m_selection->label(other),
            m_selection->label(id));
    const quint64 generation = ++m_generation;
    struct Loaded {
        QImage left, right, heatmap;
        QString refused; // why a file was not read (a link out of the session, a FIFO)
    };
    auto *watcher = new QFutureWatcher<Loaded>(this);
    connect(watcher, &QFutureWatcher<Loaded>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_generation)
            return;
        const Loaded loaded = watcher->result();
        if (!loaded.refused.isEmpty())
            m_notices->show(NoticeKind::Warning, loaded.refused); // a damaged or crafted session: it lasts
        m_compare->setHeatmap(loaded.heatmap);
        m_compare->setImages(loaded.left, loaded.right);
        m_shownKey.clear(); // the canvas must reload when the compare view closes
    });
    // What a refusal names (made here: tr() belongs to the GUI thread).
    const QString leftEntry = raw ? tr("The raw image of %1").arg(m_selection->label(id))
                                  : tr("The image of %1").arg(m_selection->label(other));
    const QString rightEntry = tr("The image of %1").arg(m_selection->label(id));
    const QString heatmapEntry = tr("The drift heatmap of %1").arg(m_selection->label(id));
    watcher->setFuture(
        QtConcurrent::run([dir = m_session->store()->dir(), left, right, heatmap, leftEntry, rightEntry, heatmapEntry] {
            // Resolved as they are read: the open checks images, not a raw file or a heatmap, and
            // a link out or a FIFO there must show nothing (and never block this worker).
            Loaded loaded;
            auto read = [&dir, &loaded](const QString &relative, const QString &entry) {
                if (relative.isEmpty())
                    return QImage();
                const Result<QString> file = SessionPaths::resolveInside(dir, relative, entry);
                if (!file)
                    loaded.refused = file.error().message;
                return file ? decodeImage(file.value()).image : QImage();
            };
            loaded.left = read(left, leftEntry);
            loaded.right = read(right, rightEntry);
            loaded.heatmap = read(heatmap, heatmapEntry);
            return loaded;
        }));
}

void ImageStage::copyImage()
{
    const QString id = m_selection->currentId();
    const Frame f = m_session->graph().value(id);
    if (f.image.isNull())
        return;
    const QString path = m_session->store()->absolutePath(f.image.file);
    auto *watcher = new QFutureWatcher<DecodedImage>(this);
    connect(watcher, &QFutureWatcher<DecodedImage>::finished, this, [this, watcher, path, id] {
        watcher->deleteLater();
        const DecodedImage d = watcher->result();
        if (d.image.isNull()) {
            m_notices->show(NoticeKind::Error, tr("Cannot read the image: %1").arg(d.error));
            return;
        }
        auto *mime = new QMimeData;
        mime->setImageData(d.image);
        mime->setUrls({QUrl::fromLocalFile(path)});
        QGuiApplication::clipboard()->setMimeData(mime);
        m_notices->status(tr("Copied the image of %1.").arg(m_selection->label(id)), 3000);
    });
    watcher->setFuture(QtConcurrent::run(decodeImage, path));
}

} // namespace nb2
