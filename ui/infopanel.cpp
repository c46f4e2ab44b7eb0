#include "ui/infopanel.h"

#include "core/api/imageinput.h"
#include "core/session/frame.h"
#include "ui/elidedlabel.h"
#include "ui/wraplabel.h"

#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QFileInfo>
#include <QFocusEvent>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QScrollArea>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

namespace nb2 {

namespace {
QString humanKind(FrameKind kind)
{
    switch (kind) {
    case FrameKind::Generate:
        return InfoPanel::tr("Generate (new image)");
    case FrameKind::Edit:
        return InfoPanel::tr("Edit (continues the server conversation)");
    case FrameKind::EditLocal:
        return InfoPanel::tr("Local edit (image sent inline)");
    case FrameKind::StyleEdit:
        return InfoPanel::tr("Style edit (with a style reference)");
    case FrameKind::Import:
        return InfoPanel::tr("Imported picture");
    case FrameKind::ReAnchor:
        return InfoPanel::tr("Re-anchored edit (parent's pixels sent inline)");
    }
    return {};
}

/** Lets a label wrap a long token (a file name, a hash) by offering a break after every few characters. */
QString breakable(const QString &text)
{
    QString out;
    int run = 0;
    for (const QChar c : text) {
        out += c;
        run = c.isSpace() ? 0 : run + 1;
        if (run >= 12 || (run > 0 && (c == QLatin1Char('/') || c == QLatin1Char('_') || c == QLatin1Char('-')))) {
            out += QChar(0x200B); // zero-width space: an allowed break, invisible
            run = 0;
        }
    }
    return out;
}

QString formatTime(const QDateTime &dt)
{
    if (!dt.isValid())
        return {};
    return QLocale().toString(dt.toLocalTime(), QLocale::ShortFormat);
}
} // namespace

InfoPanel::InfoPanel(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("infoPanel"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_scroll = new QScrollArea(this);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(m_scroll);
    auto *content = new QWidget(m_scroll);
    m_scroll->setWidget(content);
    auto *v = new QVBoxLayout(content);
    m_column = v;
    v->setContentsMargins(10, 8, 10, 8);
    // Laid out once per width: the hint is in the first frame.
    m_empty = new WrapLabel(tr("Select a frame on the timeline to see its details."), content);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    v->addWidget(m_empty);

    v->addStretch(1);
    clear();
}

void InfoPanel::ensureBody()
{
    if (m_body)
        return;
    m_body = new QWidget(m_scroll->widget());
    // A grid, not a QFormLayout: Qt 6.4's form gave wrapped values less height than they need
    // (rows were drawn over each other) and overran a buffer with DontWrapRows and hidden rows.
    m_grid = new QGridLayout(m_body);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setHorizontalSpacing(10);
    m_grid->setVerticalSpacing(5);
    m_grid->setColumnStretch(1, 1);
    m_column->insertWidget(1, m_body); // under the hint, above the stretch

    m_title = addRow(tr("Title:"), "infoTitle");
    m_prompt = addRow(tr("Prompt:"), "infoPrompt");
    //: the exact prompt text sent to the model (the typed prompt plus the branch's keep-list)
    m_promptSent = addRow(tr("Sent:"), "infoPromptSent");
    m_keepList = addRow(tr("Keep-list:"), "infoKeepList");
    m_drift = addRow(tr("Drift:"), "infoDrift");
    m_region = addRow(tr("Selection:"), "infoRegion");
    m_kind = addRow(tr("Kind:"), "infoKind");
    m_status = addRow(tr("Status:"), "infoStatus");
    m_star = addRow(tr("Star:"), "infoStar");
    m_error = addRow(tr("Error:"), "infoError");
    m_aspect = addRow(tr("Aspect ratio:"), "infoAspect");
    m_thinking = addRow(tr("Thinking:"), "infoThinking");
    m_model = addRow(tr("Model:"), "infoModel");

    // Interaction id with a copy button. Ids are long and have no spaces: shown on one line,
    // elided in the middle when the dock is narrow (the tooltip and Copy have all of it).
    m_id = new ElidedLabel(Qt::ElideMiddle, m_body);
    m_id->setObjectName(QStringLiteral("infoInteractionId"));
    m_id->setAccessibleName(tr("Interaction id"));
    m_id->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_copyId = new QToolButton(m_body);
    m_copyId->setText(tr("Copy"));
    m_copyId->setToolTip(tr("Copy the interaction id"));
    m_copyId->setAccessibleName(tr("Copy interaction id"));
    connect(m_copyId, &QToolButton::clicked, this, [this] { QGuiApplication::clipboard()->setText(m_interactionId); });
    m_idRow = new QWidget(m_body);
    auto *idRow = new QHBoxLayout(m_idRow);
    idRow->setContentsMargins(0, 0, 0, 0);
    m_id->setParent(m_idRow);
    m_copyId->setParent(m_idRow);
    idRow->addWidget(m_id, 1);
    idRow->addWidget(m_copyId, 0, Qt::AlignTop);
    addRowWidget(tr("Interaction:"), m_idRow);

    m_expires = addRow(tr("Id expires:"), "infoExpires");
    m_parent = addRow(tr("Parent:"), "infoParent");
    m_lineage = addRow(tr("Came from:"), "infoLineage");
    m_replays = addRow(tr("Replays:"), "infoReplays");
    m_selectable.removeOne(m_parent); // a link, not text to select
    m_parent->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    connect(m_parent, &QLabel::linkActivated, this, [this] { Q_EMIT parentActivated(m_parentId); });
    m_text = addRow(tr("Model text:"), "infoModelText");
    m_usage = addRow(tr("Usage:"), "infoUsage");
    m_cost = addRow(tr("Cost:"), "infoCost");
    m_requested = addRow(tr("Requested:"), "infoRequested");
    m_finished = addRow(tr("Finished:"), "infoFinished");
    m_attempts = addRow(tr("Attempts:"), "infoAttempts");
    m_note = addRow(tr("Note:"), "infoNote");

    m_file = new QLabel(m_body);
    m_file->setObjectName(QStringLiteral("infoFile"));
    m_selectable.append(m_file);
    m_file->setWordWrap(true);
    m_file->setMinimumWidth(40);
    m_reveal = new QToolButton(m_body);
    m_reveal->setText(tr("Show"));
    m_reveal->setToolTip(tr("Show the image file in its folder"));
    m_reveal->setAccessibleName(tr("Show file in folder"));
    connect(m_reveal, &QToolButton::clicked, this,
        [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(m_filePath).absolutePath())); });
    m_fileRow = new QWidget(m_body);
    auto *fileRow = new QHBoxLayout(m_fileRow);
    fileRow->setContentsMargins(0, 0, 0, 0);
    m_file->setParent(m_fileRow);
    m_reveal->setParent(m_fileRow);
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(m_reveal, 0, Qt::AlignTop);
    addRowWidget(tr("File:"), m_fileRow);

    // A label's width is only final when it is resized itself: watch each wrapped one (every
    // selectable value wraps, so this also sees the mouse come and go over them).
    for (QLabel *label : m_body->findChildren<QLabel *>()) {
        if (label->wordWrap()) {
            label->installEventFilter(this);
            m_wrapped.append(label);
        }
    }
    // Made after the window, its widgets went to the end of the window's tab order: put the
    // ones Tab reaches back after the panel's scroll area, in the order they were made.
    QList<QWidget *> made;
    for (QWidget *w = m_body->nextInFocusChain(); w != m_body && m_body->isAncestorOf(w); w = w->nextInFocusChain())
        made.append(w);
    QWidget *previous = m_scroll;
    for (QWidget *w : std::as_const(made)) {
        if (w->focusPolicy() & Qt::TabFocus) {
            QWidget::setTabOrder(previous, w);
            previous = w;
        }
    }
    m_body->hide();
}

bool InfoPanel::eventFilter(QObject *watched, QEvent *event)
{
    // The values are selectable text, but only while the mouse is over them (or a selection is
    // kept): a selectable QLabel lays its text out through a QTextDocument, which made showing
    // a frame twice the work (2.1 vs 1.0 ms of GUI CPU a frame, tst_infopanel) when the arrow
    // keys walk the timeline and when a session opens. The mouse enters a label before it can
    // press on it, so selecting and the context menu's Copy work as before. Never taken away
    // while a popup is open: that is the label's own context menu, whose actions act on it. A
    // selection stays when the focus goes to a popup or to another window (to paste it there, or
    // to come back and copy it), as a selectable QLabel's does; it goes when the focus moves
    // inside the window.
    if (auto *label = qobject_cast<QLabel *>(watched); label && m_selectable.contains(label)) {
        const auto *focusOut = event->type() == QEvent::FocusOut ? static_cast<QFocusEvent *>(event) : nullptr;
        const bool focusLeftInWindow = focusOut && focusOut->reason() != Qt::PopupFocusReason
            && focusOut->reason() != Qt::ActiveWindowFocusReason;
        if (event->type() == QEvent::Enter)
            label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        else if (!QApplication::activePopupWidget()
            && ((event->type() == QEvent::Leave && !label->hasSelectedText())
                || (focusLeftInWindow && !label->underMouse())))
            label->setTextInteractionFlags(Qt::LinksAccessibleByMouse); // QLabel's default: plain again
    }
    // Not during the layout pass that resized the label: a change of minimum size made while
    // the form lays out is lost. Once the pass is over, every wrapped label is measured again.
    if (event->type() == QEvent::Resize && qobject_cast<QLabel *>(watched) && !m_reservePending) {
        m_reservePending = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_reservePending = false;
                reserveWrappedHeights();
            },
            Qt::QueuedConnection);
    }
    return QWidget::eventFilter(watched, event);
}

void InfoPanel::setCost(const QString &text)
{
    ensureBody();
    setRow(m_cost, text);
    // Only this row changed since setFrame() measured them all (each measure lays its text
    // out: the whole pass again was ~0.5 ms of selecting a frame).
    reserveHeight(m_cost);
}

void InfoPanel::reserveHeight(QLabel *label)
{
    // QLabel's heightForWidth() never answers less than the label's minimum height, so the
    // height reserved for a longer text (the frame shown before) is dropped before measuring:
    // otherwise a one-line prompt kept the lines of the previous one as a gap under it.
    const int reserved = label->minimumHeight();
    if (reserved > 0)
        label->setMinimumHeight(0);
    const int need = label->text().isEmpty() ? 0 : label->heightForWidth(qMax(1, label->width()));
    if (need > 0 || reserved > 0)
        label->setMinimumHeight(need);
}

void InfoPanel::reserveWrappedHeights()
{
    // The scroll area does not lay its content out by height-for-width, so a wrapped value was
    // given one line and overlapped the next row. Each wrapped label reserves the height its
    // text needs at its width; the form grows and the panel scrolls instead.
    for (QLabel *label : std::as_const(m_wrapped))
        reserveHeight(label);
}

QLabel *InfoPanel::addRow(const QString &label, const char *objectName)
{
    auto *field = new QLabel(m_body);
    field->setObjectName(QLatin1String(objectName));
    field->setWordWrap(true);
    field->setTextFormat(Qt::PlainText);
    m_selectable.append(field); // selectable once the mouse is over it (see eventFilter)
    field->setMinimumWidth(40); // wrap instead of widening the dock
    // Top-aligned like its caption: a wrapped row can be given more height than its text needs.
    field->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    addRowWidget(label, field);
    return field;
}

void InfoPanel::addRowWidget(const QString &label, QWidget *field)
{
    const int row = m_grid->rowCount();
    auto *caption = new QLabel(label, m_body);
    caption->setAlignment(Qt::AlignRight | Qt::AlignTop);
    caption->setBuddy(field);
    m_grid->addWidget(caption, row, 0, Qt::AlignRight | Qt::AlignTop);
    m_grid->addWidget(field, row, 1);
    m_captions.insert(field, caption);
}

void InfoPanel::setRowShown(QWidget *field, bool shown)
{
    field->setVisible(shown);
    if (QLabel *caption = m_captions.value(field))
        caption->setVisible(shown);
}

QString InfoPanel::rowText(const QString &objectName) const
{
    if (!m_body)
        return {}; // no frame shown yet
    if (objectName == QLatin1String("infoInteractionId"))
        return m_id->text();
    const auto *label = m_body->findChild<QLabel *>(objectName);
    if (!label || m_body->isHidden() || label->isHidden())
        return {};
    QString text = label->text();
    text.remove(QChar(0x200B));
    return text;
}

void InfoPanel::setRow(QLabel *field, const QString &text)
{
    field->setText(text);
    setRowShown(field, !text.isEmpty());
}

void InfoPanel::prepare()
{
    ensureBody();
    // The id's fixed-pitch font is the only one no other part of the window has used yet:
    // loading it now, while the GUI thread waits for the parse, took ~0.4 ms out of the pass
    // that shows the first frame.
    (void)QFontMetrics(m_id->font()).horizontalAdvance(QStringLiteral("v1_0123456789abcdefXYZ"));
}

void InfoPanel::clear()
{
    m_interactionId.clear();
    m_filePath.clear();
    m_parentId.clear();
    if (m_body)
        m_body->hide();
    m_empty->show();
}

void InfoPanel::setPrecisionRows(const Frame &f)
{
    // Shown only when it differs from what was typed: then both are there to compare.
    setRow(m_promptSent, f.promptSent.isEmpty() || f.promptSent == f.prompt ? QString() : f.promptSent);
    setRow(m_keepList,
        !f.keepListSet ? QString()
            : f.keepList.isEmpty()
            ? tr("cleared here (no keep-list from this frame on)")
            : tr("set here:") + QStringLiteral("\n• ") + f.keepList.join(QStringLiteral("\n• ")));
    QString drift;
    if (!f.drift.isEmpty()) {
        const int changed = qRound(f.drift.changed * 100);
        drift = tr("%1 % of the picture changed").arg(changed);
        if (f.drift.outsideChanged >= 0)
            drift += QLatin1Char('\n')
                + tr("the model changed %1 % outside the selection (before the composite)")
                      .arg(qRound(f.drift.outsideChanged * 100));
    }
    setRow(m_drift, drift);
    QString region;
    if (!f.regionEdit.isEmpty()) {
        const QString mode = f.regionEdit.mode == RegionMode::Protect ? tr("protect (the rest was put back)")
                                                                      : tr("edit region (crop sent, pasted back)");
        region = tr("%1, feather %2 px").arg(mode, QString::number(f.regionEdit.feather));
        if (!f.regionEdit.rawFile.isEmpty())
            region += QLatin1Char('\n')
                + tr("raw server image: %1").arg(breakable(QFileInfo(f.regionEdit.rawFile).fileName()));
    }
    setRow(m_region, region);
}

void InfoPanel::setFrame(const Frame &f, int number, int parentNumber, const QString &absoluteFile)
{
    ensureBody();
    m_empty->hide();
    m_body->show();
    m_interactionId = f.interactionId;
    m_filePath = absoluteFile;
    m_parentId = f.parentId;

    setRow(m_title, f.title);
    setRow(m_prompt, f.prompt);
    setRow(m_kind, tr("#%1 · %2").arg(number).arg(humanKind(f.kind)));
    QString status = frameStatusName(f.status);
    const QString statusText = f.statusText();
    const bool cancelled = f.status == FrameStatus::Cancelled;
    if (cancelled)
        status = tr("cancelled — you stopped it; Retry sends it again");
    else if (!statusText.isEmpty() && statusText != status && f.error.isEmpty())
        status = statusText; // the error row already says what went wrong
    if (!f.interactionId.isEmpty())
        status.replace(f.interactionId, tr("this interaction"));
    setRow(m_status, status);
    setRow(m_star, f.starred ? tr("★ Starred") : QString());
    // The id has its own row; the error names it shortly and quotes the server only once.
    QString err;
    if (!cancelled) {
        err = f.error.message;
        const QString server = f.error.serverMessage.trimmed();
        QString serverCore = server;
        while (serverCore.endsWith(QLatin1Char('.')))
            serverCore.chop(1);
        if (!serverCore.isEmpty() && !err.contains(serverCore, Qt::CaseInsensitive))
            err += QLatin1Char('\n') + tr("Server said: %1").arg(server);
        if (!f.interactionId.isEmpty())
            err.replace(f.interactionId, tr("this interaction"));
        for (const QString &id : {f.continuedInteractionId, f.lineage.interactionId}) {
            if (id.size() > 12)
                err.replace(id, id.left(10) + QStringLiteral("…"));
        }
    }
    setRow(m_error, breakable(err));
    if (!err.isEmpty()) {
        QPalette p = m_error->palette();
        p.setColor(QPalette::WindowText, QColor(0xd0, 0x3a, 0x3a));
        m_error->setPalette(p);
    }
    QString aspect = f.aspectRatio;
    if (aspect.isEmpty() && f.kind == FrameKind::Import && f.image.width > 0)
        aspect = tr("%1 (nearest supported ratio)").arg(nearestAspectRatio(QSize(f.image.width, f.image.height)));
    setRow(m_aspect, aspect.isEmpty() ? tr("model's choice") : aspect);
    setRow(m_thinking,
        f.thinkingLevel.isEmpty() ? (f.kind == FrameKind::Import ? QString() : tr("default")) : f.thinkingLevel);
    setRow(m_model, f.model);

    m_id->setText(f.interactionId);
    m_copyId->setEnabled(!f.interactionId.isEmpty());
    setRowShown(m_idRow, !f.interactionId.isEmpty());
    setRowShown(m_fileRow, !absoluteFile.isEmpty());
    if (f.idExpiresAt.isValid()) {
        const qint64 secs = QDateTime::currentDateTimeUtc().secsTo(f.idExpiresAt);
        setRow(m_expires,
            secs <= 0              ? tr("expired (the next edit re-sends the image)")
                : secs < 48 * 3600 ? tr("%1 (in %2 h)").arg(formatTime(f.idExpiresAt)).arg(secs / 3600)
                                   : formatTime(f.idExpiresAt));
    } else {
        setRow(m_expires, {});
    }
    if (!f.parentId.isEmpty()) {
        m_parent->setTextFormat(Qt::RichText);
        setRow(m_parent, QStringLiteral("<a href=\"frame\">#%1</a>").arg(parentNumber));
    } else {
        setRow(m_parent, {});
    }
    setRow(m_replays,
        f.replayOf.isEmpty() ? QString() : tr("frame %1 (its prompt, sent again by a replay)").arg(f.replayOf));
    if (f.lineage.isEmpty()) {
        setRow(m_lineage, {});
    } else {
        // The record an exported picture carried in: where it was made, and by which chain.
        QStringList parts;
        if (!f.lineage.app.isEmpty())
            parts << tr("exported by %1").arg(f.lineage.app);
        if (!f.lineage.kind.isEmpty())
            parts << tr("a %1 frame").arg(f.lineage.kind);
        if (!f.lineage.interactionId.isEmpty())
            parts << tr("interaction %1").arg(f.lineage.interactionId);
        if (!f.lineage.promptChain.isEmpty())
            parts << tr("prompts: %1").arg(f.lineage.promptChain.join(QStringLiteral(" → ")));
        setRow(m_lineage, parts.join(QLatin1Char('\n')));
    }
    setRow(m_text, breakable(f.modelText));
    QStringList usage;
    if (f.usage.inputTokens >= 0)
        usage << tr("%1 in").arg(f.usage.inputTokens);
    if (f.usage.outputTokens >= 0)
        usage << tr("%1 out").arg(f.usage.outputTokens);
    if (f.usage.thoughtTokens >= 0)
        usage << tr("%1 thinking").arg(f.usage.thoughtTokens);
    if (f.usage.totalTokens >= 0)
        usage << tr("%1 total").arg(f.usage.totalTokens);
    setRow(m_usage, usage.isEmpty() ? QString() : usage.join(QStringLiteral(" · ")) + QLatin1Char(' ') + tr("tokens"));
    setRow(m_requested, formatTime(f.requestedAt));
    setRow(m_finished, formatTime(f.finishedAt));
    setRow(m_attempts, f.attempts > 0 ? QString::number(f.attempts) : QString());
    setRow(m_note, f.note);
    setPrecisionRows(f);
    m_file->setText(absoluteFile.isEmpty() ? QString()
                                           //: file name, then the picture's width and height in pixels
                                           : tr("%1\n%2 × %3 px")
                                                 .arg(breakable(QFileInfo(absoluteFile).fileName()))
                                                 .arg(f.image.width)
                                                 .arg(f.image.height));
    m_file->setToolTip(absoluteFile);
    reserveWrappedHeights();
}

} // namespace nb2
