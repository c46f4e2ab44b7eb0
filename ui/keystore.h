#pragma once

#include <QObject>
#include <QString>

namespace nb2 {

/**
 * Reads, writes and deletes the Gemini API key, asynchronously. The desktop keychain
 * (QtKeychain: Secret Service, KWallet) comes first; when no keychain service answers —
 * no D-Bus session, no Secret Service, or no reply within keychainTimeoutMs() — the key
 * goes to a plain file (default ~/gemini.key, the file the CLI also reads) written
 * atomically with mode 0600. Every result says which backend was used, so the UI can tell
 * the user where the key lives. The key never goes into QSettings or logs.
 */
class KeyStore : public QObject
{
    Q_OBJECT
public:
    enum class Backend { None, Keychain, File };
    Q_ENUM(Backend)
    enum class Operation { Read, Write, Remove };
    Q_ENUM(Operation)

    struct Result {
        Operation operation = Operation::Read;
        int requestId = 0;               // what read()/write()/remove() returned
        bool ok = false;                 // the operation succeeded (a read of nothing is ok, found=false)
        bool found = false;              // Read: a key was found
        QString key;                     // Read: the key (never log it)
        Backend backend = Backend::None; // where the key was read from / written to / removed from
        bool keychainAvailable = false;  // a keychain service answered
        QString keychainError;           // why the keychain was not used, one plain sentence (empty when it was)
        QString keychainErrorDetail;     // the keychain backend's own words for it (D-Bus, libsecret), if any
        QString error;                   // why the operation failed (ok == false)
        QString warning;                 // e.g. the key file is readable by others
    };

    explicit KeyStore(QObject *parent = nullptr);
    ~KeyStore() override;

    static QString defaultFilePath(); // <home>/gemini.key
    static QString serviceName();     // "nb2lite-studio"

    QString filePath() const { return m_filePath; }
    void setFilePath(const QString &path) { m_filePath = path; }
    /** Keychain entry name within the service (tests use their own). */
    QString keychainKey() const { return m_keychainKey; }
    void setKeychainKey(const QString &key) { m_keychainKey = key; }
    bool isKeychainEnabled() const { return m_keychainEnabled; }
    void setKeychainEnabled(bool enabled) { m_keychainEnabled = enabled; }
    int keychainTimeoutMs() const { return m_timeoutMs; }
    void setKeychainTimeoutMs(int ms) { m_timeoutMs = ms; }

    /** Each starts one operation and later emits finished() once, on this object's thread,
     *  with the returned id in Result::requestId (so several users can share one store). */
    int read();
    int write(const QString &key);
    int remove();

    /** Blocking helpers for the file backend (used on a worker; exposed for tests). */
    static Result readFile(const QString &path);
    static Result writeFile(const QString &path, const QString &key);
    static Result removeFile(const QString &path);

    static QString backendName(Backend backend);

Q_SIGNALS:
    void finished(const nb2::KeyStore::Result &result);

private:
    void runKeychain(int id, Operation op, const QString &key);
    void runFile(int id, Operation op, const QString &key, const QString &keychainError,
        const QString &keychainErrorDetail, bool keychainAvailable);

    QString m_filePath;
    QString m_keychainKey = QStringLiteral("gemini-api-key");
    bool m_keychainEnabled = true;
    int m_timeoutMs = 3000;
    int m_nextId = 1;
};

} // namespace nb2

Q_DECLARE_METATYPE(nb2::KeyStore::Result)
