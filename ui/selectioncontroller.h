#pragma once

#include "core/edit/editmask.h"
#include "ui/selectiontool.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>

#include <memory>

class QSpinBox;
class QWidget;

namespace nb2 {

class ActionManager;
class CanvasView;
class FrameSelection;
class ImageStage;
class SelectionMask;
class SessionController;
class SessionManager;

/**
 * The canvas selection of each frame (issue 13) and the tools that draw it. Each frame keeps
 * its own selection while the session is open — switching frames and coming back finds it
 * again, as layers keep theirs in an image editor — and the result of a region or protect
 * edit starts with the selection it was made with (same size, so the next edit of the same
 * area needs no new selection). The selection a turn used is stored with the turn
 * (PrecisionEdit writes it as the frame's mask PNG). Opening another session forgets them.
 * The tools (rectangle M, ellipse Shift+M, lasso L, brush B, eraser E, pan H, brush size
 * [ and ], invert Ctrl+Shift+I, deselect Ctrl+D) are ActionManager actions wired here.
 */
class SelectionController : public QObject
{
    Q_OBJECT
public:
    SelectionController(
        SessionManager *sessions, FrameSelection *frames, ImageStage *stage, ActionManager *actions, QObject *parent);
    ~SelectionController() override;

    /** The current frame's selection (null when the frame cannot be selected on: pending, failed, a draft). */
    SelectionMask *current() const;
    bool hasSelection() const;
    /** The current selection as PrecisionEdit takes it; null when there is none. */
    EditMask currentMask() const;
    /** Gives `frameId` a copy of the selection `fromId` has (a region edit's result starts with it). */
    void copySelection(const QString &fromId, const QString &frameId);

    SelectionTool tool() const { return m_tool; }
    void setTool(SelectionTool tool);
    int brushSize() const;
    void setBrushSize(int pixels);
    /** The brush-size box for the Select tool bar (made once, owned by `parent`). */
    QSpinBox *brushSizeBox(QWidget *parent);

    void invert();
    void clear();

Q_SIGNALS:
    /** The current frame's selection changed, appeared or went away (the turn plan may change). */
    void changed();

private:
    void attach(const QString &frameId);
    void detach();
    void syncActions();

    SessionManager *m_sessions;
    FrameSelection *m_frames;
    ImageStage *m_stage;
    ActionManager *m_actions;
    QHash<QString, std::shared_ptr<SelectionMask>> m_masks; // by frame id; shared_ptr: stable addresses for the canvas
    QPointer<CanvasView> m_canvas; // outlives or not the stage: the window tears down in its own order
    QString m_attachedId;
    SelectionTool m_tool = SelectionTool::None;
    QSpinBox *m_sizeBox = nullptr;
};

} // namespace nb2
