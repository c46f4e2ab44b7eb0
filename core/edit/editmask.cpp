#include "core/edit/editmask.h"

#include <QImageReader>

#include <algorithm>
#include <cmath>
#include <limits>

namespace nb2 {

static constexpr int kSelectedThreshold = 128;
static constexpr float kFar = 1e20f; // "no selected pixel": finite, so the parabola arithmetic stays exact enough

EditMask::EditMask(const QImage &grey)
    : m_grey(grey.isNull() ? QImage() : grey.convertToFormat(QImage::Format_Grayscale8))
{}

EditMask EditMask::fromRect(const QSize &size, const QRect &region)
{
    QImage grey(size, QImage::Format_Grayscale8);
    grey.fill(0);
    const QRect r = region.normalized().intersected(QRect(QPoint(0, 0), size));
    for (int y = r.top(); y <= r.bottom() && !r.isEmpty(); ++y)
        std::fill_n(grey.scanLine(y) + r.left(), r.width(), uchar(255));
    return EditMask(grey);
}

Result<EditMask> EditMask::fromImage(const QImage &image, const QSize &size)
{
    if (image.isNull() || image.size().isEmpty() || size.isEmpty())
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("The mask is empty; use a grey image where white may change and black is protected."));
    QImage grey = image.convertToFormat(QImage::Format_Grayscale8);
    if (grey.size() != size)
        grey = grey.scaled(size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation)
                   .convertToFormat(QImage::Format_Grayscale8);
    return EditMask(grey);
}

Result<EditMask> EditMask::fromFile(const QString &path, const QSize &size)
{
    QImageReader reader(path);
    // A mask never needs more pixels than a large photo; refuse before decoding a bomb.
    const QSize declared = reader.size();
    if (declared.isValid() && qint64(declared.width()) * declared.height() > 100'000'000LL)
        return Error::make(ErrorKind::TooLarge,
            QStringLiteral(
                "The mask %1 is %2×%3 pixels; use a mask under 100 megapixels (it is scaled to the frame anyway).")
                .arg(path)
                .arg(declared.width())
                .arg(declared.height()));
    const QImage image = reader.read();
    if (image.isNull())
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("Could not read the mask %1 (%2); use a PNG or JPEG grey image.")
                .arg(path, reader.errorString()));
    return fromImage(image, size);
}

bool EditMask::isSelected(int x, int y) const
{
    return m_grey.constScanLine(y)[x] >= kSelectedThreshold;
}

QRect EditMask::boundingRect() const
{
    int left = m_grey.width(), top = m_grey.height(), right = -1, bottom = -1;
    for (int y = 0; y < m_grey.height(); ++y) {
        const uchar *line = m_grey.constScanLine(y);
        for (int x = 0; x < m_grey.width(); ++x) {
            if (line[x] >= kSelectedThreshold) {
                left = std::min(left, x);
                right = std::max(right, x);
                top = std::min(top, y);
                bottom = y;
            }
        }
    }
    if (right < 0)
        return {};
    return QRect(QPoint(left, top), QPoint(right, bottom));
}

qint64 EditMask::selectedCount() const
{
    qint64 n = 0;
    for (int y = 0; y < m_grey.height(); ++y) {
        const uchar *line = m_grey.constScanLine(y);
        for (int x = 0; x < m_grey.width(); ++x)
            n += line[x] >= kSelectedThreshold;
    }
    return n;
}

EditMask EditMask::inverted() const
{
    QImage out = m_grey.copy();
    for (int y = 0; y < out.height(); ++y) {
        uchar *line = out.scanLine(y);
        for (int x = 0; x < out.width(); ++x)
            line[x] = line[x] >= kSelectedThreshold ? 0 : 255;
    }
    return EditMask(out);
}

// 1-D squared distance transform of a sampled function (lower envelope of parabolas).
static void distance1d(const double *f, double *d, int n, int *v, double *z)
{
    int k = 0;
    v[0] = 0;
    z[0] = -std::numeric_limits<double>::infinity();
    z[1] = std::numeric_limits<double>::infinity();
    for (int q = 1; q < n; ++q) {
        // Values are finite (kFar, not infinity), so s is never NaN and z[0] = -inf stops the loop.
        double s = ((f[q] + double(q) * q) - (f[v[k]] + double(v[k]) * v[k])) / (2.0 * (q - v[k]));
        while (s <= z[k]) {
            --k;
            s = ((f[q] + double(q) * q) - (f[v[k]] + double(v[k]) * v[k])) / (2.0 * (q - v[k]));
        }
        ++k;
        v[k] = q;
        z[k] = s;
        z[k + 1] = std::numeric_limits<double>::infinity();
    }
    k = 0;
    for (int q = 0; q < n; ++q) {
        while (z[k + 1] < q)
            ++k;
        const double dq = double(q - v[k]);
        d[q] = dq * dq + f[v[k]];
    }
}

QVector<float> squaredDistanceToSelection(const QImage &grey8)
{
    const int w = grey8.width(), h = grey8.height();
    QVector<float> dist(qsizetype(w) * h, kFar);
    if (w == 0 || h == 0)
        return dist;
    const int n = std::max(w, h);
    std::vector<double> f(n), d(n), z(n + 1);
    std::vector<int> v(n);
    for (int y = 0; y < h; ++y) {
        const uchar *line = grey8.constScanLine(y);
        for (int x = 0; x < w; ++x)
            dist[qsizetype(y) * w + x] = line[x] >= kSelectedThreshold ? 0.0f : kFar;
    }
    // Columns, then rows: the 2-D transform is separable.
    for (int x = 0; x < w; ++x) {
        for (int y = 0; y < h; ++y)
            f[y] = dist[qsizetype(y) * w + x];
        distance1d(f.data(), d.data(), h, v.data(), z.data());
        for (int y = 0; y < h; ++y)
            dist[qsizetype(y) * w + x] = float(d[y]);
    }
    for (int y = 0; y < h; ++y) {
        float *row = dist.data() + qsizetype(y) * w;
        std::copy_n(row, w, f.data());
        distance1d(f.data(), d.data(), w, v.data(), z.data());
        for (int x = 0; x < w; ++x)
            row[x] = float(std::min(d[x], double(kFar)));
    }
    return dist;
}

QImage EditMask::feathered(int feather) const
{
    if (m_grey.isNull())
        return {};
    QImage alpha(m_grey.size(), QImage::Format_Grayscale8);
    if (feather <= 0) {
        for (int y = 0; y < alpha.height(); ++y) {
            const uchar *in = m_grey.constScanLine(y);
            uchar *out = alpha.scanLine(y);
            for (int x = 0; x < alpha.width(); ++x)
                out[x] = in[x] >= kSelectedThreshold ? 255 : 0;
        }
        return alpha;
    }
    alpha.fill(0);
    // Only pixels within `feather` of the selection's box can get weight, and their nearest
    // selected pixel lies inside that box: transform just this window (a small selection on a
    // large frame costs little).
    const QRect window = boundingRect().adjusted(-feather, -feather, feather, feather).intersected(alpha.rect());
    if (window.isEmpty())
        return alpha;
    const QVector<float> dist = squaredDistanceToSelection(m_grey.copy(window));
    const int w = window.width();
    const float limit = float(feather) * float(feather);
    for (int y = 0; y < window.height(); ++y) {
        uchar *out = alpha.scanLine(window.top() + y) + window.left();
        for (int x = 0; x < w; ++x) {
            const float d2 = dist[qsizetype(y) * w + x];
            if (d2 <= 0.0f)
                out[x] = 255;
            else if (d2 > limit)
                out[x] = 0;
            else
                out[x]
                    = uchar(std::clamp(std::lround(255.0 * (1.0 - std::sqrt(double(d2)) / (feather + 1))), 1L, 254L));
        }
    }
    return alpha;
}

} // namespace nb2
