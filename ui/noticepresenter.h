#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QMainWindow;

namespace nb2 {

class BannerWidget;
struct Error;

/** How serious a notice is; decides the banner's colour and icon. */
enum class NoticeKind { Info, Warning, Error, Success };

/**
 * Tells the user what happened, in one place: lasting states go to the message banner above
 * the image (with an optional action button: Retry, Re-anchor, Open Settings…), passing news
 * to the status bar. Controllers call it instead of reaching into widgets; tests read
 * lastMessage() and lastStatus(). It also shortens error texts for people: a long server id
 * appears once, shortened, and the server's own words appear once.
 */
class NoticePresenter : public QObject
{
    Q_OBJECT
public:
    /**
     * Passing news goes to `window`'s status bar, asked for at the first news: making a status
     * bar measures text (which waits for the fonts), so the window makes its own at its first show.
     */
    NoticePresenter(BannerWidget *banner, QMainWindow *window, QObject *parent = nullptr);

    void show(NoticeKind kind, const QString &text, const QString &actionText = {}, std::function<void()> action = {});
    void clear();
    /** Passing news in the status bar; timeoutMs 0 keeps it until the next one. */
    void status(const QString &text, int timeoutMs = 4000);
    void clearStatus();

    QString lastMessage() const { return m_lastMessage; }
    QString lastStatus() const;
    NoticeKind lastKind() const { return m_lastKind; }
    /** The banner's button text ("Retry", "Open Settings…"); empty when it has none. */
    QString actionText() const;
    bool isShown() const;

    /** The error's message with long ids shortened to their first characters and the server's words once. */
    static QString describe(const Error &error);
    /** Long ids (interaction ids, hashes) in text shortened to "v1_ChdQ…"; the full id stays in Frame Details. */
    static QString shortenIds(const QString &text);

private:
    BannerWidget *m_banner;
    QMainWindow *m_window;
    std::function<void()> m_action;
    QString m_lastMessage;
    NoticeKind m_lastKind = NoticeKind::Info;
};

} // namespace nb2
