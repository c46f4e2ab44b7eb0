#pragma once

#include <QLatin1String>
#include <QProcessEnvironment>
#include <QSettings>
#include <QString>
#include <QVariant>

#include <optional>

namespace nb2 {

/**
 * The one rule for environment variables, shared by the CLI and the studio: a variable
 * overrides a setting when it is set AND non-empty after trimming; the trimmed text is its
 * value. A variable that is unset, empty or only whitespace counts as not set, so
 * `GEMINI_MODEL_NAME=" "` never hides the stored model (and never reports itself as the
 * source of one). nullopt when it does not override.
 */
std::optional<QString> environmentOverride(const QProcessEnvironment &env, const char *name);

/** Trimmed text, or nullopt when that is empty: how a command-line value or stored text counts as "given". */
std::optional<QString> nonEmptyText(const QString &text);

/** Where a resolved setting came from, strongest first. */
enum class SettingSource {
    CommandLine, // an explicit choice for this run (the CLI's --model)
    Environment, // the preference's environment variable (environmentOverride)
    Settings,    // the settings file (QSettings), or a settings value the caller loaded from it
    Default,     // the preference's default
};

/** A setting's effective value and its source. */
template <typename T> struct Resolved {
    T value;
    SettingSource source = SettingSource::Default;
};

/**
 * One typed setting: key, default, validation and (optionally) the environment variable that
 * overrides it, in one place (after Tiled's Preference<T>). read() returns the default for a
 * missing or invalid stored value, so a hand-edited config cannot put the program in a state
 * the UI could not have produced.
 *
 * resolve() is the precedence every program uses: command line > environment > settings >
 * default. Stored values are validated (isValid); explicit choices (command line,
 * environment) are taken as given — the user typed them for this run — except that an
 * environment text fromText() cannot read is ignored. A preference with no key is not
 * stored in the settings file (e.g. the CLI's output folder).
 */
template <typename T> struct Preference {
    const char *key; // QSettings key; nullptr: never stored
    T defaultValue;
    bool (*isValid)(const T &value);
    const char *environmentVariable = nullptr; // overrides the stored value when set (environmentOverride)
    /** Reads the variable's (trimmed) text; nullopt ignores it. Null: QVariant conversion (text it cannot convert is ignored). */
    std::optional<T> (*fromText)(const QString &text) = nullptr;

    T read(const QSettings &settings) const { return stored(settings).value_or(defaultValue); }

    /** The valid stored value, or nullopt when the key is missing, unreadable or invalid. */
    std::optional<T> stored(const QSettings &settings) const
    {
        if (!key)
            return std::nullopt;
        const QVariant v = settings.value(QLatin1String(key));
        if (!v.isValid() || !v.canConvert<T>())
            return std::nullopt;
        const T value = v.value<T>();
        if (!isValid(value))
            return std::nullopt;
        return value;
    }

    /** Refuses (returns false) an invalid value, and any value of a preference that is not stored. */
    bool write(QSettings &settings, const T &value) const
    {
        if (!key || !isValid(value))
            return false;
        settings.setValue(QLatin1String(key), QVariant::fromValue(value));
        return true;
    }

    /** The environment's value for this setting, under the one rule (environmentOverride). */
    std::optional<T> fromEnvironment(const QProcessEnvironment &env) const
    {
        if (!environmentVariable)
            return std::nullopt;
        const std::optional<QString> text = environmentOverride(env, environmentVariable);
        if (!text)
            return std::nullopt;
        if (fromText)
            return fromText(*text);
        QVariant v(*text);
        if (!v.convert(QMetaType::fromType<T>())) // "nine" for a number: ignored, not 0
            return std::nullopt;
        return v.value<T>();
    }

    /**
     * command line > environment > stored > default. `storedValue` is what the caller read
     * from the settings (stored(), or a field of a loaded settings value); an invalid one is
     * skipped.
     */
    Resolved<T> resolve(const QProcessEnvironment &env, const std::optional<T> &storedValue = std::nullopt,
        const std::optional<T> &commandLine = std::nullopt) const
    {
        if (commandLine)
            return {*commandLine, SettingSource::CommandLine};
        if (std::optional<T> fromEnv = fromEnvironment(env))
            return {std::move(*fromEnv), SettingSource::Environment};
        if (storedValue && isValid(*storedValue))
            return {*storedValue, SettingSource::Settings};
        return {defaultValue, SettingSource::Default};
    }
};

/** Accepts every value: for preferences with nothing to check. */
template <typename T> bool anyValue(const T &)
{
    return true;
}

} // namespace nb2
