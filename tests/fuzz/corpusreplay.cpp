// The main() of a harness in an ordinary build (no libFuzzer): runs LLVMFuzzerTestOneInput once
// on every file of the corpus folders given, so that ctest replays the committed corpora — the
// regression inputs of every bug fuzzing found — in the normal and in the sanitizer build.

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    int runs = 0;
    for (int i = 1; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        QStringList files;
        if (QFileInfo(arg).isDir()) {
            const QDir dir(arg);
            for (const QString &name : dir.entryList(QDir::Files, QDir::Name))
                files.append(dir.filePath(name));
        } else {
            files.append(arg);
        }
        for (const QString &path : std::as_const(files)) {
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly)) {
                std::fprintf(stderr, "cannot read %s\n", qPrintable(path));
                return 1;
            }
            const QByteArray bytes = file.readAll();
            // An exact-size copy, as libFuzzer gives: a read past the end is caught by ASan.
            std::unique_ptr<uint8_t[]> exact(new uint8_t[size_t(bytes.size()) + (bytes.isEmpty() ? 1 : 0)]);
            std::memcpy(exact.get(), bytes.constData(), size_t(bytes.size()));
            std::fprintf(stderr, "%s\n", qPrintable(path));
            LLVMFuzzerTestOneInput(exact.get(), size_t(bytes.size()));
            ++runs;
        }
    }
    std::printf("replayed %d inputs\n", runs);
    return runs > 0 ? 0 : 1;
}
