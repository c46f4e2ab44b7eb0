#pragma once

#include <QLocale>
#include <QString>

class QCoreApplication;

namespace nb2 {

/** Which catalogues installTranslations() put in place (file paths; empty when none). */
struct InstalledTranslations {
    QString catalogue;          // NB2Lite's own: the locale's, or the English one as the fallback
    QString qtCatalogue;        // Qt's own (qtbase_xx: standard buttons, file dialogs), when installed
    bool localeMatched = false; // the catalogue is the locale's, not the English fallback
};

/**
 * Installs the message catalogues for a locale on the application. NB2Lite's catalogues
 * (nb2lite_<lang>.qm) come from `dir`, by default the ones nb2translations embeds under
 * :/i18n; the first of the locale's UI languages that has one wins (de_AT, then de). When
 * none matches, the English catalogue is installed: the source texts are English, but plural
 * messages ("%n frame(s)") read "1 frame" / "2 frames" only through its numerus forms.
 * Qt's own catalogue (qtbase_<lang>.qm from Qt's translations folder) is added when the
 * system has it. The translators are children of `app`, so they live as long as it does.
 */
InstalledTranslations installTranslations(
    QCoreApplication *app, const QLocale &locale = QLocale::system(), const QString &dir = QStringLiteral(":/i18n"));

} // namespace nb2
