#pragma once

#include "core/api/clientconfig.h"
#include "core/common/error.h"

#include <QString>
#include <QStringList>

namespace nb2 {

class ThinkingLevels;

/** What `nb2lite doctor` found; rendered for people or as one JSON object. */
struct DoctorReport {
    bool keyPresent = false;
    QString keySource;
    QString keyMasked;
    QString keyWarning;
    QString model;
    QString modelSource;
    QString baseUrl;
    QString baseUrlSource;
    QString apiVersion;
    QString outputDir;
    QString outputDirState; // "exists, writable", "will be created", "not writable"
    QStringList thinkingLevels;
    bool thinkingLevelsLearned = false;
    QString thinkingLevelsFile;
    bool connectivityChecked = false;
    bool connectivityOk = false;
    QString connectivity; // one readable sentence
    qint64 connectivityMs = -1;
    Error connectivityError; // kind None when fine

    int exitCode() const;
};

/**
 * The seed's get_help as a health check: reports the configuration and where each value
 * came from (the key only by source and last four characters), then probes the API with a
 * GET of an id that cannot exist. A 404 proves the host is reachable and the key accepted;
 * anything else is explained. The probe makes one attempt with short timeouts.
 */
class Doctor
{
public:
    Doctor(ClientConfig config, const ThinkingLevels *levels);

    void setSources(const QString &modelSource, const QString &baseUrlSource);
    void setOutputDir(const QString &dir);

    DoctorReport run();

    static QString human(const DoctorReport &report);
    static QByteArray json(const DoctorReport &report);

private:
    ClientConfig m_config;
    const ThinkingLevels *m_levels;
    QString m_modelSource;
    QString m_baseUrlSource;
    QString m_outputDir;
};

} // namespace nb2
