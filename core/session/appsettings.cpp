#include "core/session/appsettings.h"

#include <QDir>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QUrl>

namespace nb2 {

namespace appprefs {

namespace {

bool isModelName(const QString &v)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9._/-]+$"));
    return re.match(v).hasMatch();
}

bool isBaseUrl(const QString &v)
{
    if (v.isEmpty())
        return true;
    const QUrl url(v, QUrl::StrictMode);
    return url.isValid() && (url.scheme() == QLatin1String("https") || url.scheme() == QLatin1String("http"))
        && !url.host().isEmpty();
}

bool isApiVersion(const QString &v)
{
    return v == QLatin1String("v1") || v == QLatin1String("v1beta");
}

/** The official SDK spells the beta "beta" in GOOGLE_GENAI_API_VERSION; other spellings are ignored. */
std::optional<QString> apiVersionFromText(const QString &text)
{
    if (text == QLatin1String("beta") || text == QLatin1String("v1beta"))
        return QStringLiteral("v1beta");
    if (text == QLatin1String("v1"))
        return QStringLiteral("v1");
    return std::nullopt;
}

bool isLevelName(const QString &v)
{
    static const QRegularExpression re(QStringLiteral("^[a-z_]+$"));
    return re.match(v).hasMatch();
}

bool isEmptyOrAbsolute(const QString &v)
{
    return v.isEmpty() || QDir::isAbsolutePath(v);
}

bool isPriceTableText(const QString &v)
{
    return v.isEmpty() || PriceTable::fromText(v).ok();
}

} // namespace

const Preference<QString> model {"api/model", QString::fromLatin1(kDefaultModel), &isModelName, "GEMINI_MODEL_NAME"};
const Preference<QString> baseUrl {"api/baseUrl", QString(), &isBaseUrl, "GOOGLE_GEMINI_BASE_URL"};
const Preference<QString> apiVersion {
    "api/version", QStringLiteral("v1"), &isApiVersion, "GOOGLE_GENAI_API_VERSION", &apiVersionFromText};
const Preference<QString> thinkingLevel {"api/defaultThinkingLevel", QStringLiteral("low"), &isLevelName};
const Preference<QString> sessionsFolder {"session/folder", QString(), &isEmptyOrAbsolute};
// A relative $IMAGE_OUTPUT_DIR is taken from the current folder, like --out.
const Preference<QString> outputFolder {nullptr, QString(), &anyValue<QString>, "IMAGE_OUTPUT_DIR"};
const Preference<QString> priceTable {"cost/priceTable", QString(), &isPriceTableText};

QStringList keys()
{
    return {QLatin1String(model.key), QLatin1String(baseUrl.key), QLatin1String(apiVersion.key),
        QLatin1String(thinkingLevel.key), QLatin1String(sessionsFolder.key), QLatin1String(priceTable.key)};
}

} // namespace appprefs

AppSettings AppSettings::load(const QSettings &s)
{
    AppSettings r;
    r.model = appprefs::model.read(s);
    r.baseUrl = appprefs::baseUrl.read(s);
    r.apiVersion = appprefs::apiVersion.read(s);
    r.thinkingLevel = appprefs::thinkingLevel.read(s);
    r.sessionsFolder = appprefs::sessionsFolder.read(s);
    r.session = SessionSettings::load(s);
    const QString prices = appprefs::priceTable.read(s);
    r.prices = prices.isEmpty() ? PriceTable::defaults() : PriceTable::fromText(prices).value();
    return r;
}

void AppSettings::save(QSettings &s) const
{
    appprefs::model.write(s, model);
    appprefs::baseUrl.write(s, baseUrl);
    appprefs::apiVersion.write(s, apiVersion);
    appprefs::thinkingLevel.write(s, thinkingLevel);
    appprefs::sessionsFolder.write(s, sessionsFolder);
    session.save(s);
    // The built-in table is stored as "" so that a newer release's prices replace it; an edited one verbatim.
    appprefs::priceTable.write(s, prices == PriceTable::defaults() ? QString() : prices.toText());
}

AppSettings AppSettings::defaults()
{
    AppSettings r;
    r.model = appprefs::model.defaultValue;
    r.baseUrl = appprefs::baseUrl.defaultValue;
    r.apiVersion = appprefs::apiVersion.defaultValue;
    r.thinkingLevel = appprefs::thinkingLevel.defaultValue;
    r.sessionsFolder = appprefs::sessionsFolder.defaultValue;
    return r;
}

QString AppSettings::defaultSessionsFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) + QStringLiteral("/NB2Lite Sessions");
}

QString AppSettings::effectiveSessionsFolder() const
{
    return sessionsFolder.isEmpty() ? defaultSessionsFolder() : sessionsFolder;
}

ClientConfig AppSettings::clientConfig(
    const QProcessEnvironment &env, const QString &storedKey, const QString &storedKeySource) const
{
    ClientConfig config = resolveConnection(env, this).config;
    if (config.apiKey.isEmpty()) {
        if (const std::optional<QString> key = nonEmptyText(storedKey))
            config.apiKey = ApiKey(*key, storedKeySource);
    }
    return config;
}

Connection resolveConnection(const QProcessEnvironment &env, const AppSettings *stored,
    const ConnectionChoices &commandLine, const QString &homeDir)
{
    // An empty stored text means "not set" (the dialog's empty base URL is production).
    auto storedText = [stored](QString AppSettings::*field) -> std::optional<QString> {
        return stored ? nonEmptyText(stored->*field) : std::nullopt;
    };
    auto given = [](const std::optional<QString> &text) -> std::optional<QString> {
        return text ? nonEmptyText(*text) : std::nullopt;
    };

    Connection c;
    const Resolved<QString> model
        = appprefs::model.resolve(env, storedText(&AppSettings::model), given(commandLine.model));
    const Resolved<QString> baseUrl
        = appprefs::baseUrl.resolve(env, storedText(&AppSettings::baseUrl), given(commandLine.baseUrl));
    const Resolved<QString> version
        = appprefs::apiVersion.resolve(env, storedText(&AppSettings::apiVersion), given(commandLine.apiVersion));
    c.config.model = model.value;
    c.modelSource = model.source;
    if (!baseUrl.value.isEmpty())
        c.config.baseUrl = baseUrl.value; // else ClientConfig's production URL
    c.baseUrlSource = baseUrl.source;
    c.config.apiVersion = version.value;
    c.apiVersionSource = version.source;
    c.config.apiKey = homeDir.isEmpty() ? apiKeyFromEnvironment(env) : lookupApiKey(env, homeDir);
    return c;
}

} // namespace nb2
