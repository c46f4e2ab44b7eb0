#include "ui/selectioncontroller.h"

#include "core/session/sessioncontroller.h"
#include "ui/actionmanager.h"
#include "ui/canvasview.h"
#include "ui/frameselection.h"
#include "ui/imagestage.h"
#include "ui/selectionmask.h"
#include "ui/sessionmanager.h"

#include <QAction>
#include <QActionGroup>
#include <QSpinBox>

namespace nb2 {

namespace {
constexpr int kMinBrush = 2;
constexpr int kMaxBrush = 500;

struct ToolId {
    ActionId id;
    SelectionTool tool;
};
constexpr ToolId kTools[]
    = {{ActionId::SelectPan, SelectionTool::None}, {ActionId::SelectRectangle, SelectionTool::Rectangle},
        {ActionId::SelectEllipse, SelectionTool::Ellipse}, {ActionId::SelectLasso, SelectionTool::Lasso},
        {ActionId::SelectBrush, SelectionTool::Brush}, {ActionId::SelectEraser, SelectionTool::Eraser}};
} // namespace

SelectionController::SelectionController(
    SessionManager *sessions, FrameSelection *frames, ImageStage *stage, ActionManager *actions, QObject *parent)
    : QObject(parent)
    , m_sessions(sessions)
    , m_frames(frames)
    , m_stage(stage)
    , m_actions(actions)
    , m_canvas(stage->canvas())
{
    auto *group = new QActionGroup(this);
    group->setExclusive(true);
    for (const ToolId &t : kTools) {
        QAction *a = m_actions->action(t.id);
        a->setCheckable(true);
        group->addAction(a);
        const SelectionTool tool = t.tool;
        connect(a, &QAction::triggered, this, [this, tool] { setTool(tool); });
    }
    m_actions->action(ActionId::SelectPan)->setChecked(true);
    connect(m_actions->action(ActionId::SelectInvert), &QAction::triggered, this, &SelectionController::invert);
    connect(m_actions->action(ActionId::SelectClear), &QAction::triggered, this, &SelectionController::clear);
    connect(m_actions->action(ActionId::BrushSmaller), &QAction::triggered, this,
        [this] { setBrushSize(std::max(kMinBrush, brushSize() * 4 / 5)); });
    connect(m_actions->action(ActionId::BrushLarger), &QAction::triggered, this,
        [this] { setBrushSize(std::max(brushSize() + 1, brushSize() * 5 / 4)); });

    CanvasView *canvas = m_stage->canvas();
    connect(canvas, &CanvasView::selectionEdited, this, [this] {
        syncActions();
        Q_EMIT changed();
    });
    connect(m_frames, &FrameSelection::currentChanged, this, [this] {
        // Another frame: its picture is decoded first, then its own selection is attached.
        if (m_frames->currentId() != m_attachedId)
            detach();
    });
    connect(m_stage, &ImageStage::canvasImageShown, this, &SelectionController::attach);
    connect(m_sessions, &SessionManager::aboutToSwitch, this, [this] {
        detach();
        m_masks.clear();
    });
    syncActions();
}

SelectionController::~SelectionController()
{
    if (m_canvas) // it must not keep a pointer to a mask that goes with us
        m_canvas->setSelectionMask(nullptr);
}

SelectionMask *SelectionController::current() const
{
    return m_attachedId.isEmpty() ? nullptr : m_masks.value(m_attachedId).get();
}

bool SelectionController::hasSelection() const
{
    const SelectionMask *m = current();
    return m && !m->isEmpty();
}

EditMask SelectionController::currentMask() const
{
    return hasSelection() ? current()->toEditMask() : EditMask();
}

void SelectionController::copySelection(const QString &fromId, const QString &frameId)
{
    const std::shared_ptr<SelectionMask> from = m_masks.value(fromId);
    if (!from || from->isEmpty() || frameId.isEmpty())
        return;
    m_masks.insert(frameId, std::make_shared<SelectionMask>(*from));
}

void SelectionController::attach(const QString &frameId)
{
    CanvasView *canvas = m_stage->canvas();
    SessionController *s = m_sessions->session();
    const Frame f = s->isOpen() ? s->graph().value(frameId) : Frame();
    // A region/protect result is selectable once its composite is on the canvas, not its raw image.
    const bool compositing = !f.regionEdit.isEmpty() && f.regionEdit.rawFile.isEmpty();
    const bool selectable
        = frameId == m_frames->currentId() && f.isDone() && !compositing && canvas->hasImage() && !canvas->isDraft();
    if (!selectable) {
        detach();
        return;
    }
    std::shared_ptr<SelectionMask> &mask = m_masks[frameId];
    if (!mask || mask->size() != canvas->imageSize())
        mask = std::make_shared<SelectionMask>(
            canvas->imageSize()); // a composite keeps its size; anything else starts empty
    if (m_attachedId == frameId && canvas->selectionMask() == mask.get())
        return;
    m_attachedId = frameId;
    canvas->setSelectionMask(mask.get());
    syncActions();
    Q_EMIT changed();
}

void SelectionController::detach()
{
    if (m_attachedId.isEmpty() && !m_stage->canvas()->selectionMask())
        return;
    m_attachedId.clear();
    m_stage->canvas()->setSelectionMask(nullptr);
    syncActions();
    Q_EMIT changed();
}

void SelectionController::setTool(SelectionTool tool)
{
    m_tool = tool;
    m_stage->canvas()->setSelectionTool(tool);
    for (const ToolId &t : kTools)
        m_actions->action(t.id)->setChecked(t.tool == tool);
    if (tool != SelectionTool::None)
        m_stage->showCanvas(); // the tools draw on the canvas, not on Compare
}

int SelectionController::brushSize() const
{
    return m_stage->canvas()->brushSize();
}

void SelectionController::setBrushSize(int pixels)
{
    pixels = std::clamp(pixels, kMinBrush, kMaxBrush);
    m_stage->canvas()->setBrushSize(pixels);
    if (m_sizeBox && m_sizeBox->value() != pixels)
        m_sizeBox->setValue(pixels);
}

QSpinBox *SelectionController::brushSizeBox(QWidget *parent)
{
    if (m_sizeBox)
        return m_sizeBox;
    m_sizeBox = new QSpinBox(parent);
    m_sizeBox->setObjectName(QStringLiteral("brushSizeBox"));
    m_sizeBox->setRange(kMinBrush, kMaxBrush);
    m_sizeBox->setValue(brushSize());
    m_sizeBox->setSuffix(tr(" px"));
    m_sizeBox->setPrefix(tr("Brush "));
    m_sizeBox->setAccessibleName(tr("Brush size"));
    m_sizeBox->setToolTip(tr("Size of the selection brush and eraser in image pixels ([ smaller, ] larger)"));
    connect(m_sizeBox, &QSpinBox::valueChanged, this, &SelectionController::setBrushSize);
    return m_sizeBox;
}

void SelectionController::invert()
{
    if (SelectionMask *m = current()) {
        m->invert();
        m_stage->canvas()->selectionChanged();
        syncActions();
        Q_EMIT changed();
    }
}

void SelectionController::clear()
{
    if (SelectionMask *m = current(); m && !m->isEmpty()) {
        m->clear();
        m_stage->canvas()->selectionChanged();
        syncActions();
        Q_EMIT changed();
    }
}

void SelectionController::syncActions()
{
    const bool on = current() != nullptr;
    for (ActionId id : {ActionId::SelectRectangle, ActionId::SelectEllipse, ActionId::SelectLasso,
             ActionId::SelectBrush, ActionId::SelectEraser, ActionId::SelectInvert})
        m_actions->action(id)->setEnabled(on);
    m_actions->action(ActionId::SelectClear)->setEnabled(hasSelection());
}

} // namespace nb2
