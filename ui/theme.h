#pragma once

#include <QColor>
#include <QIcon>
#include <QPalette>
#include <QString>

class QLabel;
class QWidget;

class QApplication;
class QProcessEnvironment;

namespace nb2 {

/** Registers the :/icons resources of the static nb2ui library (idempotent; applyTheme and
 *  themeIcon call it, call it yourself before using QIcon(":/icons/...") directly). */
void ensureResources();

/** Which palette the application uses. Auto follows the desktop's light/dark preference. */
enum class ThemeMode { Auto, Light, Dark };

/** Semantic colours the widgets share, so a warning looks the same everywhere. */
enum class ThemeColor { Accent, Info, Success, Warning, Error, Draft, CanvasBackground };

/** Spacing constants: one rhythm for every dialog and panel (multiples of 4 px). */
namespace ThemeMetrics {
constexpr int kSpacing = 8;         // between related controls
constexpr int kSectionSpacing = 16; // between groups
constexpr int kMargin = 12;         // dialog and panel content margins
constexpr int kRadius = 6;          // rounded corners of banners, pills and badges
} // namespace ThemeMetrics

/**
 * Decides light or dark without Qt 6.5's QStyleHints::colorScheme(): NB2_THEME=light|dark
 * wins, then GTK_THEME ("Adwaita:dark"), the GTK settings.ini / KDE kdeglobals of the
 * user, then the lightness of the platform's own window colour.
 */
bool systemPrefersDark(const QProcessEnvironment &env, const QString &configDir, const QPalette &platformPalette);

/** The Fusion palette the app uses for the given darkness. */
QPalette themePalette(bool dark);

/**
 * Fusion style and the palette that follows the system (or `mode`). Call once, after constructing QApplication and before creating windows.
 * Returns whether the dark palette was chosen.
 */
bool applyTheme(QApplication &app, ThemeMode mode = ThemeMode::Auto);

/** True after applyTheme() picked the dark palette (or when the current palette is dark). */
bool isDarkTheme();

/** A semantic colour for the current palette. */
QColor themeColor(ThemeColor role);

/**
 * An icon from resources/icons/<name>.svg, drawn in the palette's text colour (or `tint`)
 * at the usual sizes, so line icons stay legible on light and dark palettes. Disabled
 * states are derived by QIcon as usual.
 */
QIcon themeIcon(const QString &name, const QColor &tint = {});

/** A secondary, word-wrapped plain-text note (dimmed text) for dialogs, under a control. */
QLabel *makeNoteLabel(QWidget *parent);

/**
 * Names the clear buttons Qt makes inside every QLineEdit under `root` (screen readers read
 * them as "Clear"). Call once the dialog's fields are built; buttons already named are kept.
 */
void nameLineEditClearButtons(QWidget *root);

/** a blended towards b by t (0: a, 1: b), channel by channel, alpha included. */
QColor mixColors(const QColor &a, const QColor &b, qreal t);

} // namespace nb2
