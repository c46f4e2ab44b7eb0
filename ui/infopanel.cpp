#include "ui/infopanel.h"

#include "core/api/imageinput.h"
#include "core/session/frame.h"

#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
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
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto *content = new QWidget(scroll);
    scroll->setWidget(content);
    auto *v = new QVBoxLayout(content);
    v->setContentsMargins(10, 8, 10, 8);
    m_empty = new QLabel(tr("Select a frame on the timeline to see its details."), content);
    m_empty->setWordWrap(true);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    v->addWidget(m_empty);

    m_body = new QWidget(content);
    m_form = new QFormLayout(m_body);
    m_form->setContentsMargins(0, 0, 0, 0);
    m_form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->setLabelAlignment(Qt::AlignRight | Qt::AlignTop);
    m_form->setHorizontalSpacing(10);
    m_form->setVerticalSpacing(5);
    v->addWidget(m_body);
    v->addStretch(1);

    m_title = addRow(tr("Title:"), "infoTitle");
    m_prompt = addRow(tr("Prompt:"), "infoPrompt");
    m_kind = addRow(tr("Kind:"), "infoKind");
    m_status = addRow(tr("Status:"), "infoStatus");
    m_error = addRow(tr("Error:"), "infoError");
    m_aspect = addRow(tr("Aspect ratio:"), "infoAspect");
    m_thinking = addRow(tr("Thinking:"), "infoThinking");
    m_model = addRow(tr("Model:"), "infoModel");

    // Interaction id with a copy button.
    // Ids are long and have no spaces: a frameless read-only line edit scrolls instead of
    // widening the dock, and still selects and copies.
    m_id = new QLineEdit(m_body);
    m_id->setObjectName(QStringLiteral("infoInteractionId"));
    m_id->setReadOnly(true);
    m_id->setFrame(false);
    m_id->setAccessibleName(tr("Interaction id"));
    m_id->setStyleSheet(QStringLiteral("QLineEdit { background: transparent; }"));
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_id->setFont(mono);
    m_id->setMinimumWidth(40);
    m_copyId = new QToolButton(m_body);
    m_copyId->setText(tr("Copy"));
    m_copyId->setToolTip(tr("Copy the interaction id"));
    m_copyId->setAccessibleName(tr("Copy interaction id"));
    connect(m_copyId, &QToolButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(m_interactionId);
    });
    auto *idRow = new QHBoxLayout;
    idRow->setContentsMargins(0, 0, 0, 0);
    idRow->addWidget(m_id, 1);
    idRow->addWidget(m_copyId, 0, Qt::AlignTop);
    m_form->addRow(tr("Interaction:"), idRow);

    m_expires = addRow(tr("Id expires:"), "infoExpires");
    m_parent = addRow(tr("Parent:"), "infoParent");
    m_lineage = addRow(tr("Came from:"), "infoLineage");
    m_parent->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    connect(m_parent, &QLabel::linkActivated, this, [this] { Q_EMIT parentActivated(m_parentId); });
    m_text = addRow(tr("Model text:"), "infoModelText");
    m_usage = addRow(tr("Usage:"), "infoUsage");
    m_requested = addRow(tr("Requested:"), "infoRequested");
    m_finished = addRow(tr("Finished:"), "infoFinished");
    m_attempts = addRow(tr("Attempts:"), "infoAttempts");
    m_note = addRow(tr("Note:"), "infoNote");

    m_file = new QLabel(m_body);
    m_file->setObjectName(QStringLiteral("infoFile"));
    m_file->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_file->setWordWrap(true);
    m_file->setMinimumWidth(40);
    m_reveal = new QToolButton(m_body);
    m_reveal->setText(tr("Show"));
    m_reveal->setToolTip(tr("Show the image file in its folder"));
    m_reveal->setAccessibleName(tr("Show file in folder"));
    connect(m_reveal, &QToolButton::clicked, this, [this] {
        QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(m_filePath).absolutePath()));
    });
    auto *fileRow = new QHBoxLayout;
    fileRow->setContentsMargins(0, 0, 0, 0);
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(m_reveal, 0, Qt::AlignTop);
    m_form->addRow(tr("File:"), fileRow);

    clear();
}

QLabel *InfoPanel::addRow(const QString &label, const char *objectName)
{
    auto *field = new QLabel(m_body);
    field->setObjectName(QLatin1String(objectName));
    field->setWordWrap(true);
    field->setTextInteractionFlags(Qt::TextSelectableByMouse);
    field->setTextFormat(Qt::PlainText);
    field->setMinimumWidth(40); // wrap instead of widening the dock
    m_form->addRow(label, field);
    return field;
}

void InfoPanel::setRow(QLabel *field, const QString &text)
{
    field->setText(text);
    m_form->setRowVisible(field, !text.isEmpty());
}

void InfoPanel::clear()
{
    m_interactionId.clear();
    m_filePath.clear();
    m_parentId.clear();
    m_body->hide();
    m_empty->show();
}

void InfoPanel::setFrame(const Frame &f, int number, int parentNumber, const QString &absoluteFile)
{
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
    if (!statusText.isEmpty() && statusText != status && f.error.isEmpty())
        status = statusText; // the error row already says what went wrong
    setRow(m_status, status);
    QString err = f.error.message;
    if (!f.error.serverMessage.isEmpty() && !f.error.message.contains(f.error.serverMessage))
        err += QLatin1Char('\n') + tr("Server said: %1").arg(f.error.serverMessage);
    setRow(m_error, err);
    if (!err.isEmpty()) {
        QPalette p = m_error->palette();
        p.setColor(QPalette::WindowText, QColor(0xd0, 0x3a, 0x3a));
        m_error->setPalette(p);
    }
    QString aspect = f.aspectRatio;
    if (aspect.isEmpty() && f.kind == FrameKind::Import && f.image.width > 0)
        aspect = tr("%1 (nearest supported ratio)").arg(nearestAspectRatio(QSize(f.image.width, f.image.height)));
    setRow(m_aspect, aspect.isEmpty() ? tr("model's choice") : aspect);
    setRow(m_thinking, f.thinkingLevel.isEmpty() ? (f.kind == FrameKind::Import ? QString() : tr("default")) : f.thinkingLevel);
    setRow(m_model, f.model);

    m_id->setText(f.interactionId);
    m_id->setCursorPosition(0);
    m_copyId->setEnabled(!f.interactionId.isEmpty());
    for (int r = 0; r < m_form->rowCount(); ++r) {
        QLayoutItem *item = m_form->itemAt(r, QFormLayout::FieldRole);
        if (item && item->layout() && item->layout()->indexOf(m_id) >= 0)
            m_form->setRowVisible(r, !f.interactionId.isEmpty());
        if (item && item->layout() && item->layout()->indexOf(m_file) >= 0)
            m_form->setRowVisible(r, !absoluteFile.isEmpty());
    }
    if (f.idExpiresAt.isValid()) {
        const qint64 secs = QDateTime::currentDateTimeUtc().secsTo(f.idExpiresAt);
        setRow(m_expires, secs <= 0 ? tr("expired (the next edit re-sends the image)")
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
    setRow(m_text, f.modelText);
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
    m_file->setText(absoluteFile.isEmpty() ? QString()
                                           //: file name, then the picture's width and height in pixels
                                           : tr("%1\n%2 × %3 px").arg(QFileInfo(absoluteFile).fileName())
                                                 .arg(f.image.width).arg(f.image.height));
    m_file->setToolTip(absoluteFile);
}

} // namespace nb2
