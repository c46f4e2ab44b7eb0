#pragma once

#include <QObject>
#include <QString>

namespace nb2 {

class EditFinisher;
class PrecisionRunner;
class FrameSelection;
class ImageStage;
class NoticePresenter;
class SessionController;
struct Frame;

/**
 * The window's side of the drift meter (issue 13): it owns the EditFinisher that measures
 * every edit made in the window on a worker, and when an edit changed more than a small edit
 * should (EditFinisher::warrantsWarning) it shows a gentle warning with a button that opens
 * Compare with the heatmap on.
 */
class DriftWatch : public QObject
{
    Q_OBJECT
public:
    /**
     * precision, when given, composites (and measures) region/protect edits itself: the
     * finisher then leaves those frames to it, and the watch reports its readings too.
     */
    DriftWatch(SessionController *session, FrameSelection *selection, ImageStage *stage, NoticePresenter *notices,
        PrecisionRunner *precision = nullptr, QObject *parent = nullptr);

    EditFinisher *finisher() const { return m_finisher; }
    /** The warning for a measured frame (empty when it needs none); label names the frame ("#3"). */
    static QString warningText(const Frame &frame, const QString &label);

private:
    void onFinished(const QString &frameId);

    SessionController *m_session;
    FrameSelection *m_selection;
    ImageStage *m_stage;
    NoticePresenter *m_notices;
    EditFinisher *m_finisher;
};

} // namespace nb2
