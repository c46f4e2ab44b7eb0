#include "app/cli/completion.h"

#include "app/cli/clitable.h"
#include "app/cli/clitext.h"

#include <QStringList>

namespace nb2::cli {

namespace {

/** The kind's name in the scripts. */
QString kindName(ValueKind kind)
{
    switch (kind) {
    case ValueKind::None:
        return QStringLiteral("flag");
    case ValueKind::Text:
        return QStringLiteral("text");
    case ValueKind::Count:
        return QStringLiteral("count");
    case ValueKind::Seconds:
        return QStringLiteral("seconds");
    case ValueKind::Dir:
        return QStringLiteral("dir");
    case ValueKind::OutPath:
        return QStringLiteral("outpath");
    case ValueKind::ImageFile:
        return QStringLiteral("imagefile");
    case ValueKind::BundleFile:
        return QStringLiteral("bundlefile");
    case ValueKind::FrameRef:
        return QStringLiteral("frameref");
    case ValueKind::FrameRefList:
        return QStringLiteral("framereflist");
    case ValueKind::AspectRatio:
        return QStringLiteral("aspectratio");
    case ValueKind::ThinkingLevel:
        return QStringLiteral("thinkinglevel");
    case ValueKind::ApiVersion:
        return QStringLiteral("apiversion");
    case ValueKind::ExportFormat:
        return QStringLiteral("exportformat");
    case ValueKind::Retention:
        return QStringLiteral("retention");
    case ValueKind::Shell:
        return QStringLiteral("shell");
    case ValueKind::Command:
        return QStringLiteral("command");
    }
    return QStringLiteral("text");
}

constexpr ValueKind kFixedKinds[] = {ValueKind::AspectRatio, ValueKind::ThinkingLevel, ValueKind::ApiVersion,
    ValueKind::ExportFormat, ValueKind::Retention, ValueKind::Shell, ValueKind::Command};

/** Every spelling of an option that people type (aliases keep working but are not offered). */
QStringList spellings(const OptionSpec &o)
{
    QStringList s {QLatin1String(o.name)};
    if (o.shortName)
        s << QLatin1String(o.shortName);
    return s;
}

/** The options `command` accepts in or outside a session, as typed. */
QStringList optionsOf(const CommandSpec &command, bool inSession)
{
    QStringList out;
    for (const OptionSpec &o : optionTable()) {
        const std::optional<Only> only = optionCondition(command, o.id);
        if (!only || (*only == Only::InSession && !inSession) || (*only == Only::OutsideSession && inSession))
            continue;
        out += spellings(o);
    }
    return out;
}

QStringList globalSpellings()
{
    QStringList out;
    for (const OptionSpec &o : optionTable()) {
        if (o.global)
            out += spellings(o);
    }
    return out;
}

// ---- bash ----------------------------------------------------------------------------------

QString bashKindCases()
{
    // Spellings shared by two options (--branch) depend on the command; the others do not.
    QString cases;
    QStringList done;
    for (const OptionSpec &o : optionTable()) {
        QStringList names = spellings(o);
        if (o.alias)
            names << QLatin1String(o.alias);
        for (const QString &name : std::as_const(names)) {
            if (done.contains(name))
                continue;
            done << name;
            const QList<const OptionSpec *> all = findOptions(name);
            if (all.size() == 1) {
                cases += QStringLiteral("        *:%1) _nb2lite_k=%2 ;;\n").arg(name, kindName(o.value));
                continue;
            }
            for (const OptionSpec *spec : all) {
                for (const CommandSpec &c : commandTable()) {
                    if (optionCondition(c, spec->id))
                        cases += QStringLiteral("        %1:%2) _nb2lite_k=%3 ;;\n")
                                     .arg(QLatin1String(c.name), name, kindName(spec->value));
                }
            }
        }
    }
    return cases;
}

QString bashOptionCases()
{
    QString cases;
    for (const CommandSpec &c : commandTable()) {
        const QString outside = optionsOf(c, false).join(QLatin1Char(' '));
        const QString inside = optionsOf(c, true).join(QLatin1Char(' '));
        if (outside == inside)
            cases += QStringLiteral("        %1) _nb2lite_k=\"%2\" ;;\n").arg(QLatin1String(c.name), outside);
        else
            cases += QStringLiteral("        %1) (( $2 )) && _nb2lite_k=\"%2\" || _nb2lite_k=\"%3\" ;;\n")
                         .arg(QLatin1String(c.name), inside, outside);
    }
    return cases;
}

QString bashArgumentCases()
{
    QString cases;
    for (const CommandSpec &c : commandTable()) {
        for (const bool session : {false, true}) {
            const CommandForm &form = session ? c.session : c.plain;
            if (!form.exists())
                continue;
            for (int i = 0; i < 2; ++i) {
                if (form.args[i] != ValueKind::None)
                    cases += QStringLiteral("        %1:%2:%3) _nb2lite_k=%4 ;;\n")
                                 .arg(QLatin1String(c.name))
                                 .arg(session ? 1 : 0)
                                 .arg(i)
                                 .arg(kindName(form.args[i]));
            }
        }
    }
    return cases;
}

QString bashValueCases()
{
    QString cases;
    for (const ValueKind kind : kFixedKinds)
        cases += QStringLiteral("        %1) words=\"%2\" ;;\n")
                     .arg(kindName(kind), choicesFor(kind).join(QLatin1Char(' ')));
    return cases;
}

// ---- zsh -----------------------------------------------------------------------------------

/** For a single-quoted zsh word. */
QString zq(QString text)
{
    return text.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
}

/** The first clause of a help text, for the short descriptions zsh shows. */
QString shortHelp(const char *help)
{
    QString text = tableText(help);
    for (const QString &stop :
        {QStringLiteral(". "), QStringLiteral("; "), QStringLiteral(" ("), QStringLiteral(": ")}) {
        const qsizetype at = text.indexOf(stop);
        if (at > 0)
            text.truncate(at);
    }
    text.replace(QLatin1Char('['), QLatin1Char('('));
    text.replace(QLatin1Char(']'), QLatin1Char(')'));
    return text;
}

QString zshAction(ValueKind kind)
{
    switch (kind) {
    case ValueKind::Dir:
        return QStringLiteral("_files -/");
    case ValueKind::OutPath:
    case ValueKind::ImageFile:
        return QStringLiteral("_files");
    case ValueKind::BundleFile:
        return QStringLiteral("_files -g \"*.nb2session(-.)\"");
    case ValueKind::FrameRef:
    case ValueKind::FrameRefList:
        return QStringLiteral("_nb2lite_frames");
    default:
        break;
    }
    QStringList values = choicesFor(kind);
    if (values.isEmpty())
        return QStringLiteral(" ");
    values.replaceInStrings(QStringLiteral(":"), QStringLiteral("\\:"));
    return QStringLiteral("(%1)").arg(values.join(QLatin1Char(' ')));
}

/** What zsh shows above the matches for a positional argument. */
QString argumentMessage(ValueKind kind)
{
    switch (kind) {
    case ValueKind::FrameRef:
        return QStringLiteral("frame");
    case ValueKind::ImageFile:
        return CliText::tr("image file");
    case ValueKind::BundleFile:
        return QStringLiteral("bundle");
    case ValueKind::OutPath:
        return QStringLiteral("output");
    case ValueKind::Shell:
        return QStringLiteral("shell");
    case ValueKind::Command:
        return QStringLiteral("command");
    default:
        return QStringLiteral("text");
    }
}

QString zshOptionSpec(const OptionSpec &o, const QString &spelling)
{
    const QString description = zq(shortHelp(o.help));
    if (o.value == ValueKind::None)
        return QStringLiteral("'%1[%2]'").arg(spelling, description);
    // "--opt=" takes "--opt value" and "--opt=value"; a short option takes the next word.
    const QString form = spelling.startsWith(QLatin1String("--")) ? spelling + QLatin1Char('=') : spelling;
    return QStringLiteral("'%1[%2]:%3:%4'")
        .arg(form, description, zq(QLatin1String(o.valueName)).replace(QLatin1Char(':'), QStringLiteral("\\:")),
            zq(zshAction(o.value)));
}

QString zshCommandCase(const CommandSpec &c)
{
    const auto specsFor = [&c](bool session) {
        QStringList specs;
        for (const CommandOption &co : c.options) {
            if ((co.only == Only::InSession && !session) || (co.only == Only::OutsideSession && session))
                continue;
            const OptionSpec &o = optionSpec(co.id);
            for (const QString &spelling : spellings(o))
                specs << zshOptionSpec(o, spelling);
        }
        const CommandForm &form = session ? c.session : c.plain;
        for (int i = 0; i < 2; ++i) {
            if (form.args[i] != ValueKind::None)
                specs << QStringLiteral("'%1:%2:%3'")
                             .arg(i + 1)
                             .arg(argumentMessage(form.args[i]), zq(zshAction(form.args[i])));
        }
        return QStringLiteral("_arguments -S : $global %1 && ret=0").arg(specs.join(QLatin1Char(' ')));
    };
    QString body;
    if (c.plain.exists() && c.session.exists()) {
        body = QStringLiteral("if (( insession )); then\n            %1\n          else\n            %2\n          fi")
                   .arg(specsFor(true), specsFor(false));
    } else {
        body = specsFor(c.session.exists());
    }
    return QStringLiteral("        (%1)\n          %2\n          ;;\n").arg(QLatin1String(c.name), body);
}

} // namespace

QString bashCompletionScript()
{
    QString commands;
    for (const CommandSpec &c : commandTable())
        commands += QLatin1String(c.name) + QLatin1Char(' ');
    QString script = QStringLiteral(R"BASH(# bash completion for nb2lite. Generated from nb2lite's command table by
# `nb2lite completion bash`; do not edit (regenerate instead).

# Splits the line up to the cursor into words as the shell will pass them (quotes and
# backslashes removed). The last word is the one being completed (empty after a space).
_nb2lite_split() {
    local line=${COMP_LINE:0:COMP_POINT} word= quote= c i started=0
    _nb2lite_words=()
    for (( i = 0; i < ${#line}; i++ )); do
        c=${line:i:1}
        if [[ -n $quote ]]; then
            if [[ $c == "$quote" ]]; then
                quote=
            elif [[ $c == '\' && $quote == '"' ]]; then
                (( i++ )); word+=${line:i:1}
            else
                word+=$c
            fi
        elif [[ $c == "'" || $c == '"' ]]; then
            quote=$c; started=1
        elif [[ $c == '\' ]]; then
            (( i++ )); word+=${line:i:1}; started=1
        elif [[ $c == [[:space:]] ]]; then
            if (( started )); then _nb2lite_words+=("$word"); word=; started=0; fi
        else
            word+=$c; started=1
        fi
    done
    _nb2lite_words+=("$word")
}

# Sets _nb2lite_k to the kind of value option $2 takes for command $1 ("flag": none).
_nb2lite_kind() {
    _nb2lite_k=
    case $1:$2 in
%KINDS%    esac
}

# Sets _nb2lite_k to the options command $1 takes ($2: 1 in a session).
_nb2lite_options() {
    case $1 in
%OPTIONS%        *) _nb2lite_k="%GLOBALS%" ;;
    esac
}

# Sets _nb2lite_k to the kind of positional argument $3 (from 0) of command $1 ($2: 1 in a session).
_nb2lite_argument() {
    _nb2lite_k=
    case $1:$2:$3 in
%ARGUMENTS%    esac
}

# Adds the values of kind $1 that start with $2 to COMPREPLY, each prefixed with $3.
_nb2lite_values() {
    local kind=$1 cur=$2 prefix=$3 words= dir
    case $kind in
%VALUES%        frameref|framereflist)
            dir=$_nb2lite_session
            [[ $dir == "~" || $dir == "~/"* ]] && dir=$HOME${dir:1}
            [[ -n $dir ]] && words="head $("$_nb2lite_program" --session "$dir" log --ids 2>/dev/null)"
            ;;
        dir)
            compopt -o filenames 2>/dev/null
            mapfile -t -O ${#COMPREPLY[@]} COMPREPLY < <(compgen -d -P "$prefix" -- "$cur")
            return ;;
        outpath|imagefile|bundlefile)
            compopt -o filenames 2>/dev/null
            mapfile -t -O ${#COMPREPLY[@]} COMPREPLY < <(compgen -f -P "$prefix" -- "$cur")
            return ;;
        *) return ;;
    esac
    mapfile -t -O ${#COMPREPLY[@]} COMPREPLY < <(compgen -W "$words" -P "$prefix" -- "$cur")
}

_nb2lite() {
    local -a _nb2lite_words
    local _nb2lite_k _nb2lite_session= _nb2lite_program
    _nb2lite_split
    local n=$(( ${#_nb2lite_words[@]} - 1 ))
    local cur=${_nb2lite_words[n]} cmd= pending= ended=0 inlist=0 nargs=0 i w
    _nb2lite_program=${_nb2lite_words[0]}
    for (( i = 1; i < n; i++ )); do
        w=${_nb2lite_words[i]}
        if [[ -n $pending ]]; then
            [[ $pending == --session ]] && _nb2lite_session=$w
            _nb2lite_kind "$cmd" "$pending"
            [[ $_nb2lite_k == framereflist ]] && inlist=1
            pending=
        elif (( ended )) || [[ $w != -?* ]]; then
            if [[ -z $cmd ]]; then cmd=$w
            elif (( ! inlist )); then (( nargs++ ))
            fi
        elif [[ $w == -- ]]; then
            ended=1; inlist=0
        else
            inlist=0
            if [[ $w == --*=* ]]; then
                [[ ${w%%=*} == --session ]] && _nb2lite_session=${w#*=}
            else
                _nb2lite_kind "$cmd" "$w"
                [[ -n $_nb2lite_k && $_nb2lite_k != flag ]] && pending=$w
            fi
        fi
    done
    local insession=0
    [[ -n $_nb2lite_session ]] && insession=1

    COMPREPLY=()
    if [[ -n $pending ]]; then
        _nb2lite_kind "$cmd" "$pending"
        _nb2lite_values "$_nb2lite_k" "$cur"
    elif (( ! ended )) && [[ $cur == --*=* ]]; then
        _nb2lite_kind "$cmd" "${cur%%=*}"
        _nb2lite_values "$_nb2lite_k" "${cur#*=}" "${cur%%=*}="
    elif (( ! ended )) && [[ $cur == -* ]]; then
        _nb2lite_options "$cmd" $insession
        mapfile -t COMPREPLY < <(compgen -W "$_nb2lite_k" -- "$cur")
    elif [[ -z $cmd ]]; then
        mapfile -t COMPREPLY < <(compgen -W "%COMMANDS%" -- "$cur")
    elif (( inlist )); then
        _nb2lite_values frameref "$cur"
        _nb2lite_argument "$cmd" $insession 0
        _nb2lite_values "$_nb2lite_k" "$cur"
    else
        _nb2lite_argument "$cmd" $insession $nargs
        _nb2lite_values "$_nb2lite_k" "$cur"
    fi

    # Readline replaces only the text after the last word-break character (':' and '=' are
    # ones), so "16:" completes to "9", not to "16:9".
    local breaks=${COMP_WORDBREAKS-$' \t\n"\'><=;|&(:'} k strip=0
    for (( k = ${#cur} - 1; k >= 0; k-- )); do
        if [[ $breaks == *"${cur:k:1}"* ]]; then strip=$(( k + 1 )); break; fi
    done
    if (( strip > 0 )); then
        for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]=${COMPREPLY[i]:strip}; done
    fi
    return 0
}

complete -F _nb2lite nb2lite
)BASH");
    script.replace(QStringLiteral("%KINDS%"), bashKindCases());
    script.replace(QStringLiteral("%OPTIONS%"), bashOptionCases());
    script.replace(QStringLiteral("%GLOBALS%"), globalSpellings().join(QLatin1Char(' ')));
    script.replace(QStringLiteral("%ARGUMENTS%"), bashArgumentCases());
    script.replace(QStringLiteral("%VALUES%"), bashValueCases());
    script.replace(QStringLiteral("%COMMANDS%"), commands.trimmed());
    return script;
}

QString zshCompletionScript()
{
    QStringList global;
    for (const OptionSpec &o : optionTable()) {
        if (!o.global)
            continue;
        for (const QString &spelling : spellings(o))
            global << QStringLiteral("    ") + zshOptionSpec(o, spelling);
    }
    QStringList commands;
    for (const CommandSpec &c : commandTable())
        commands << QStringLiteral("        '%1:%2'").arg(QLatin1String(c.name), zq(shortHelp(c.summary)));
    QString cases;
    for (const CommandSpec &c : commandTable())
        cases += zshCommandCase(c);

    QString script = QStringLiteral(R"ZSH(#compdef nb2lite
# zsh completion for nb2lite. Generated from nb2lite's command table by
# `nb2lite completion zsh`; do not edit (regenerate instead).

# Frame ids of the session named by --session (before or after the command), and "head".
_nb2lite_frames() {
  local dir=$_nb2lite_session i
  for (( i = 1; i < CURRENT; i++ )); do
    case ${words[i]} in
      (--session) dir=${words[i+1]} ;;
      (--session=*) dir=${words[i]#--session=} ;;
    esac
  done
  if [[ -z $dir ]]; then
    _message 'frame (give --session DIR first)'
    return 1
  fi
  dir=${dir/#\~/$HOME}
  local -a frames
  frames=(head ${(f)"$(_call_program frames ${(q)_nb2lite_program} --session ${(q)dir} log --ids 2>/dev/null)"})
  _wanted frames expl 'frame' compadd -a frames
}

_nb2lite() {
  local curcontext=$curcontext state state_descr line ret=1
  local -A opt_args
  local _nb2lite_program=${words[1]} _nb2lite_session=
  local -a global
  global=(
%GLOBAL%
  )
  _arguments -C -S : $global '1:command:->command' '*::argument:->argument' && ret=0
  _nb2lite_session=${opt_args[--session]}
  case $state in
    (command)
      local -a commands
      commands=(
%COMMANDS%
      )
      _describe -t commands 'nb2lite command' commands && ret=0
      ;;
    (argument)
      curcontext=${curcontext%:*:*}:nb2lite-${words[1]}:
      local -i insession=0
      [[ -n $_nb2lite_session || ${words[(I)--session(|=*)]} -gt 0 ]] && insession=1
      case ${words[1]} in
%CASES%        (*)
          _message 'unknown command'
          ;;
      esac
      ;;
  esac
  return ret
}

_nb2lite "$@"
)ZSH");
    script.replace(QStringLiteral("%GLOBAL%"), global.join(QLatin1Char('\n')));
    script.replace(QStringLiteral("%COMMANDS%"), commands.join(QLatin1Char('\n')));
    script.replace(QStringLiteral("%CASES%"), cases);
    return script;
}

} // namespace nb2::cli
