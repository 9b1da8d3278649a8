#!/usr/bin/env python3
# The declarations rule of compiler/ and lang/: a block's declarations come
# first, before its statements; a variable with a cleanup attribute
# (_cleanup_free_ and the like) is the one exception, declared where its
# resource is acquired so that it is never released before it is set.
#
#   python3 tools/check-declarations.py [FILE...]    (after `make`)
#
# gcc finds the declarations that follow a statement
# (-Wdeclaration-after-statement); it reports only the first of a run of
# declarations, so after a cleanup variable this script reads on through
# the run itself. Prints FILE:LINE: DECLARATION for each one out of place;
# exits 1 if there is any.
import glob, os, re, shlex, subprocess, sys

BUILD = os.environ.get('BUILD', 'build')
INC = ['compiler/check', 'compiler/codegen', 'compiler/explain',
       'compiler/lint', 'compiler/interop', 'compiler/cli', 'lang', 'common',
       BUILD + '/gen']
PKG = subprocess.run(['pkg-config', '--cflags', 'libseccomp', 'yaml-0.1'],
                     capture_output=True, text=True).stdout.split()
CFLAGS = ['-std=gnu11', '-D_GNU_SOURCE', '-DWARD_VERSION="x"',
          '-fsyntax-only', '-fdiagnostics-column-unit=byte',
          '-Wdeclaration-after-statement', '-Wno-unused-function'] + \
    ['-I' + d for d in INC] + PKG
GENERATED = {'lang/lexer.l': BUILD + '/gen/lexer.c',
             'lang/parser.y': BUILD + '/gen/parser.c'}
WARN = re.compile(r'^(.*?):(\d+):(\d+): warning: ISO C90 forbids mixed')
NOTE = re.compile(r'^(.*?):(\d+):(\d+): note: in expansion of macro')
# A declaration: qualifiers, a type name, a declarator, then = ; [ or ,
DECL = re.compile(r'(?:(?:static|const|volatile|unsigned|signed|struct|enum|'
                  r'union|_cleanup_\w+|__attribute__\(\(cleanup\(\w+\)\)\))'
                  r'\s+)*([A-Za-z_]\w*)(?:\s+|\s*\*[\s*]*)(?:const\s+)?\**'
                  r'\s*[A-Za-z_]\w*\s*(?:=|;|\[|,)')
NOT_TYPES = {'return', 'goto', 'case', 'else', 'do', 'sizeof'}


def code_only(src):
    """src with comments and literals blanked, so that ; and braces count."""
    out = re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'
                 r"'(?:\\.|[^'\\\n])*'",
                 lambda m: re.sub(r'[^\n]', ' ', m.group(0)), src, flags=re.S)
    return out


def statement_end(code, i):
    depth = 0
    while i < len(code):
        c = code[i]
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
        elif c == ';' and depth == 0:
            return i
        i += 1
    return len(code) - 1


def places(path):
    compiled = GENERATED.get(path, path)
    r = subprocess.run(['gcc'] + CFLAGS + [compiled], capture_output=True,
                       text=True)
    lines = r.stderr.splitlines()
    for k, line in enumerate(lines):
        m = WARN.match(line)
        if m and m.group(1) == path:
            yield int(m.group(2)), int(m.group(3))
        elif m:  # in a macro (a cleanup attribute, a type): where it is used
            for note in lines[k + 1:k + 6]:
                n = NOTE.match(note)
                if n and n.group(1) == path:
                    yield int(n.group(2)), int(n.group(3))
                    break


def check(path):
    src = open(path).read()
    code = code_only(src)
    starts = [0]
    for line in src.split('\n'):
        starts.append(starts[-1] + len(line) + 1)
    bad = []
    for line, col in sorted(set(places(path))):
        i = starts[line - 1] + col - 1
        while True:
            end = statement_end(code, i)
            text = ' '.join(code[i:end + 1].split())
            if 'cleanup' not in text:
                bad.append((src.count('\n', 0, i) + 1, text[:70]))
            j = end + 1
            while j < len(code) and code[j].isspace():
                j += 1
            m = DECL.match(code, j)
            if not m or m.group(1) in NOT_TYPES:
                break
            i = j
    return bad


files = sys.argv[1:] or sorted(glob.glob('compiler/*/*.c') +
                               glob.glob('lang/*.c') + list(GENERATED))
found = 0
for f in files:
    for line, text in check(f):
        print('%s:%d: %s' % (f, line, text))
        found += 1
sys.exit(1 if found else 0)
