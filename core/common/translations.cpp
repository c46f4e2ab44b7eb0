#include "core/common/translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace nb2 {

namespace {

// QTranslator::load(locale, ...) also falls back to the bare "nb2lite.qm"; we want the
// English catalogue by name instead, and to know whether the locale itself matched.
QTranslator *loadFor(QCoreApplication *app, const QLocale &locale, const QString &name, const QString &dir)
{
    auto *translator = new QTranslator(app);
    for (QString language : locale.uiLanguages()) {
        language.replace(QLatin1Char('-'), QLatin1Char('_'));
        // "de_AT" first, then "de": the UI-language list does not always carry the bare language.
        const QStringList candidates {language, language.section(QLatin1Char('_'), 0, 0)};
        for (const QString &candidate : candidates) {
            if (translator->load(name + QLatin1Char('_') + candidate, dir))
                return translator;
        }
    }
    delete translator;
    return nullptr;
}

} // namespace

InstalledTranslations installTranslations(QCoreApplication *app, const QLocale &locale, const QString &dir)
{
    InstalledTranslations installed;
    const QString name = QStringLiteral("nb2lite");
    QTranslator *own = loadFor(app, locale, name, dir);
    installed.localeMatched = own != nullptr;
    if (!own) {
        own = new QTranslator(app);
        if (!own->load(name + QStringLiteral("_en"), dir)) {
            delete own;
            own = nullptr;
        }
    }
    if (own) {
        QCoreApplication::installTranslator(own);
        installed.catalogue = own->filePath();
    }
    // Qt's catalogue follows ours: German standard buttons in an otherwise English window
    // would be a mixed UI. English needs nothing from it.
    if (installed.localeMatched && locale.language() != QLocale::English) {
        if (QTranslator *qt
            = loadFor(app, locale, QStringLiteral("qtbase"), QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
            QCoreApplication::installTranslator(qt);
            installed.qtCatalogue = qt->filePath();
        }
    }
    return installed;
}

} // namespace nb2
