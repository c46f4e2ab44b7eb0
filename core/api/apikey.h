#pragma once

#include <QProcessEnvironment>
#include <QString>

namespace nb2 {

/** The API key and where it came from. Print source() and masked(), never value(). */
class ApiKey
{
public:
    ApiKey() = default;
    ApiKey(QString value, QString source) : m_value(std::move(value)), m_source(std::move(source)) {}

    bool isEmpty() const { return m_value.isEmpty(); }
    const QString &value() const { return m_value; }
    const QString &source() const
    {
        return m_source;
    }                       // "GEMINI_API_KEY", "GOOGLE_API_KEY", "~/gemini.key", "settings", ...
    QString masked() const; // "…abcd": at most the last 4 characters
    const QString &warning() const { return m_warning; } // e.g. key file readable by others
    void setWarning(const QString &warning) { m_warning = warning; }

private:
    QString m_value;
    QString m_source;
    QString m_warning;
};

/** The variables that may carry the key, in the order they are tried. */
inline constexpr const char *kApiKeyVariables[] = {"GEMINI_API_KEY", "GOOGLE_API_KEY"};

/** The key from GEMINI_API_KEY, else GOOGLE_API_KEY (environmentOverride: set and non-empty after trimming); empty when neither. */
ApiKey apiKeyFromEnvironment(const QProcessEnvironment &env);

/** <homeDir>/gemini.key: the key file the CLI reads and the studio falls back to when no keychain answers. */
QString apiKeyFilePath(const QString &homeDir);

/** Lookup order: apiKeyFromEnvironment(), then <home>/gemini.key (first line, trimmed). */
ApiKey lookupApiKey(const QProcessEnvironment &env, const QString &homeDir);

} // namespace nb2
