#include "ui/frameselection.h"

#include "core/session/sessioncontroller.h"
#include "ui/timelinemodel.h"
#include "ui/timelineview.h"

#include <QItemSelectionModel>
#include <QTimer>

#include <utility>

namespace nb2 {

FrameSelection::FrameSelection(SessionController *session, TimelineModel *model, TimelineView *view, QObject *parent)
    : QObject(parent), m_session(session), m_model(model), m_view(view)
{
    // First, so it runs before every listener: an announcement supersedes a deferred one.
    connect(this, &FrameSelection::currentChanged, this, [this] {
        ++m_announceSerial;
        m_announcePending = false;
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] {
        if (m_restoring)
            return;
        m_newImage = false;
        Q_EMIT currentChanged();
    });
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this, [this] { m_beforeReset = currentId(); });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        const QString keep = m_beforeReset;
        m_beforeReset.clear();
        const bool newImage = m_newImage;
        m_restoring = true;
        select(keep);
        m_restoring = false;
        m_newImage = newImage && currentId().isEmpty();
        Q_EMIT currentChanged();
    });
    connect(m_session, &SessionController::frameAdded, this, [this](const QString &id) { m_added << id; });
    connect(m_session, &SessionController::changedExternally, this, &FrameSelection::onExternalChange);
}

QString FrameSelection::currentId() const
{
    return m_view->currentIndex().data(TimelineRole::FrameId).toString();
}

Frame FrameSelection::current() const
{
    const QString id = currentId();
    return id.isEmpty() || !m_session->isOpen() ? Frame() : m_session->graph().value(id);
}

QString FrameSelection::label(const QString &frameId) const
{
    const QModelIndex i = m_model->indexOf(frameId);
    return i.isValid() ? tr("#%1").arg(i.data(TimelineRole::Number).toInt()) : tr("the frame");
}

void FrameSelection::select(const QString &frameId)
{
    m_added.clear();
    const QModelIndex idx = frameId.isEmpty() ? QModelIndex() : m_model->indexOf(frameId);
    m_newImage = false;
    const bool indexChanged = idx != QModelIndex(m_view->currentIndex());
    if (idx.isValid()) {
        m_view->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect);
        m_view->scrollTo(idx);
    } else {
        m_view->selectionModel()->clearCurrentIndex();
        m_view->selectionModel()->clearSelection();
    }
    // The view only reports a change of index; the window also needs "same frame, re-read it".
    if (!indexChanged && !m_restoring)
        Q_EMIT currentChanged();
}

void FrameSelection::selectAndAnnounceLater(const QString &frameId)
{
    const bool restoring = std::exchange(m_restoring, true); // the view's currentChanged is not passed on now
    select(frameId);
    m_restoring = restoring;
    const quint64 serial = m_announceSerial;
    m_announcePending = true;
    // A frame later: the window paints the selection and answers input first. Not a posted
    // call (it would run in the same batch of posted events as that paint, before it), nor a
    // timer of ~0 ms (it can fire in the same pass of the event loop as the paint).
    QTimer::singleShot(kNextFrameMs, Qt::PreciseTimer, this, [this, serial] {
        if (serial != m_announceSerial || !m_announcePending)
            return; // another selection announced itself meanwhile
        Q_EMIT currentChanged();
    });
}

void FrameSelection::requestNewImage()
{
    m_restoring = true;
    m_view->selectionModel()->clearSelection();
    m_view->selectionModel()->clearCurrentIndex();
    m_restoring = false;
    m_newImage = true;
    Q_EMIT currentChanged();
}

void FrameSelection::onExternalChange()
{
    const QStringList added = m_added;
    m_added.clear();
    if (added.isEmpty())
        return;
    // After the model has re-read the graph: show the newest outside frame, keep the selection.
    QTimer::singleShot(0, this, [this, added] {
        for (auto it = added.crbegin(); it != added.crend(); ++it) {
            const QModelIndex idx = m_model->indexOf(*it);
            if (idx.isValid()) {
                m_view->scrollTo(idx);
                return;
            }
        }
    });
}

} // namespace nb2
