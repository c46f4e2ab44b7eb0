#pragma once

#include <QObject>
#include <QString>

class QStackedWidget;
class QWidget;

namespace nb2 {

class CanvasView;
class CompareView;
class FrameSelection;
class NoticePresenter;
class SessionController;
class TimelineModel;

/**
 * The centre of the window: the canvas, or the compare view in its place. It shows the
 * selected frame's picture (decoded on a worker; a newer request wins), the parent's picture
 * marked as a draft while a frame has none, the streaming drafts of pending turns, and the
 * comparison of two frames; it also copies the selected picture to the clipboard. The
 * QPixmap is made on the GUI thread, the decode never is.
 */
class ImageStage : public QObject
{
    Q_OBJECT
public:
    ImageStage(SessionController *session, TimelineModel *model, FrameSelection *selection, NoticePresenter *notices,
        QWidget *parentWidget);

    QWidget *widget() const;
    CanvasView *canvas() const { return m_canvas; }
    /** Built on first use (compare is rarely open at start: not building it saves start-up time). */
    CompareView *compareView();

    /** Shows the current frame (again): after a selection change or when its picture changed. */
    void reload();
    /** Forget what is shown: a different session was opened. */
    void reset();

    /** Compares the current frame with `otherId` (empty: its parent). */
    void showCompare(const QString &otherId = {});
    void showCanvas();
    bool isCompareShown() const;
    /** The frame chosen to compare with (empty: the parent). */
    QString compareOtherId() const { return m_compareOtherId; }

public Q_SLOTS:
    void copyImage();
    void showDraft(const QString &frameId, const QByteArray &bytes);

Q_SIGNALS:
    /** The image shown on the canvas changed (after the off-thread decode). */
    void canvasImageShown(const QString &frameId);
    /** A streaming draft is now shown on the pending frame's card (and the canvas when selected). */
    void draftShown(const QString &frameId);
    void compareShownChanged(bool shown);

private:
    QString draftText(const QString &frameId) const;
    /** The canvas text of a session without frames. */
    static QString emptySessionText();

    SessionController *m_session;
    TimelineModel *m_model;
    FrameSelection *m_selection;
    NoticePresenter *m_notices;
    QStackedWidget *m_stack = nullptr;
    CanvasView *m_canvas = nullptr;
    CompareView *m_compare = nullptr;
    QString m_compareOtherId;
    quint64 m_generation = 0;
    QString m_shownKey; // frame id + path (or "|draft") now on the canvas
};

} // namespace nb2
