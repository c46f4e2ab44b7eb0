#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace nb2 {

class FrameGraph;

/** The keep-list in force at a frame and where it was set. */
struct EffectiveKeepList {
    QStringList items;
    QString setOn; // the frame (the asked one or an ancestor) that set it; empty: none set on the path
};

/**
 * The keep-list of a branch (issue 13): a few short constraints ("keep the face", "same
 * framing") that every edit of the branch must respect. It is appended to the prompt of every
 * edit as a visible block, and the frame records both what the user typed (`prompt`) and what
 * was sent (`promptSent`).
 *
 * Storage (decided here): a keep-list is set on any frame (Frame::keepList, keepListSet) and is
 * in force for that frame and all its descendants until a descendant sets its own (an empty
 * list set on a frame clears it for that sub-tree). So a branch forked from a frame inherits
 * the keep-list in force there, and changing it on a branch's head does not touch the sibling
 * branches. An edit of frame P uses effective(P); generations (no parent) use none.
 */
class KeepList
{
    Q_DECLARE_TR_FUNCTIONS(nb2::KeepList)
public:
    static constexpr int kMaxItems = 12;
    static constexpr int kMaxItemLength = 200;

    /** One line each (whitespace simplified), empty and repeated items dropped, at most kMaxItems of kMaxItemLength. */
    static QStringList cleaned(const QStringList &items);
    /** The keep-list in force at frameId: its own, else the nearest ancestor's that set one. */
    static EffectiveKeepList effective(const FrameGraph &graph, const QString &frameId);
    /**
     * The prompt as sent: the user's prompt, a blank line, then the block
     * "Keep-list (respect in this edit):" with one "- item" line each. The block is English on
     * purpose: it is text for the model, always worded the same, and shown verbatim to the user
     * in Frame Details. Returns `prompt` unchanged when items is empty.
     */
    static QString promptToSend(const QString &prompt, const QStringList &items);
};

} // namespace nb2
