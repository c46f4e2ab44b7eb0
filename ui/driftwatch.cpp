#include "ui/driftwatch.h"

#include "core/common/error.h"
#include "core/session/editfinisher.h"
#include "core/session/precisionrunner.h"
#include "core/session/sessioncontroller.h"
#include "ui/compareview.h"
#include "ui/frameselection.h"
#include "ui/imagestage.h"
#include "ui/noticepresenter.h"

namespace nb2 {

DriftWatch::DriftWatch(SessionController *session, FrameSelection *selection, ImageStage *stage,
    NoticePresenter *notices, PrecisionRunner *precision, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_selection(selection)
    , m_stage(stage)
    , m_notices(notices)
    , m_finisher(new EditFinisher(session, this))
{
    connect(m_finisher, &EditFinisher::finished, this, &DriftWatch::onFinished);
    if (precision) {
        // One owner per frame: two workers compositing the same frame would race to record it.
        m_finisher->setRegionEditsHandledElsewhere(true);
        connect(precision, &PrecisionRunner::composited, this, &DriftWatch::onFinished);
    }
    connect(m_finisher, &EditFinisher::failed, this, [this](const QString &frameId, const Error &error) {
        m_notices->status(tr("Could not measure how much %1 changed: %2")
                              .arg(m_selection->label(frameId), NoticePresenter::describe(error)),
            8000);
    });
}

QString DriftWatch::warningText(const Frame &frame, const QString &label)
{
    if (!EditFinisher::warrantsWarning(frame))
        return {};
    if (!frame.regionEdit.isEmpty())
        return tr("Outside your selection the model changed %1 % of the image for %2; your pixels were put back, "
                  "but the server continues from its own version. Select more tightly or protect what must stay?")
            .arg(QString::number(qRound(frame.drift.outsideChanged * 100)), label);
    return tr("The model changed %1 % of the image for %2; protect what must stay?")
        .arg(QString::number(qRound(frame.drift.changed * 100)), label);
}

void DriftWatch::onFinished(const QString &frameId)
{
    const QString text = warningText(m_session->graph().value(frameId), m_selection->label(frameId));
    if (text.isEmpty())
        return;
    m_notices->show(NoticeKind::Warning, text, tr("Show changes"), [this, frameId] {
        m_selection->select(frameId);
        m_stage->showCompare();
        m_stage->compareView()->setHeatmapShown(true);
    });
}

} // namespace nb2
