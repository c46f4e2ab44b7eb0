#pragma once

#include <QWidget>

class QLabel;
class QToolButton;
class QPushButton;

namespace nb2 {

/**
 * A persistent, non-modal message strip (like KDE's KMessageWidget): an icon, a short
 * text (rich text links allowed), an optional action button and an optional close button.
 * It is meant for states that last — the demo backend, a bad key, an offline server — not
 * for transient notices. Hidden until setMessage()/show().
 */
class BannerWidget : public QWidget
{
    Q_OBJECT
public:
    enum class Kind { Info, Warning, Error, Success };
    Q_ENUM(Kind)

    explicit BannerWidget(QWidget *parent = nullptr);

    /** Sets kind and text and shows the banner. */
    void setMessage(Kind kind, const QString &text);
    void setKind(Kind kind);
    Kind kind() const { return m_kind; }
    void setText(const QString &text);
    QString text() const;

    /** An empty text hides the action button. */
    void setActionText(const QString &text, const QString &toolTip = {});
    QString actionText() const;

    void setCloseButtonVisible(bool visible);
    bool isCloseButtonVisible() const;

Q_SIGNALS:
    void actionTriggered();
    void linkActivated(const QString &link);
    /** The user dismissed the banner (it is hidden already). */
    void closed();

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void updateStyle();

    Kind m_kind = Kind::Info;
    QLabel *m_icon = nullptr;
    QLabel *m_label = nullptr;
    QPushButton *m_action = nullptr;
    QToolButton *m_close = nullptr;
};

} // namespace nb2
