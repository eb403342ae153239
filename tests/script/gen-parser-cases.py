#!/usr/bin/env python3
# gen-parser-cases.py: writes parser-cases.h for test-parser.c — sources that CPython 3.11
# compiles, sources it rejects (with its exact class, message, line and columns) and literal
# values — all read from the running python3, never written by hand.
# Usage: python3 tests/script/gen-parser-cases.py > tests/script/parser-cases.h
import sys

assert sys.version_info[:2] == (3, 11), "run with CPython 3.11"

VALID = [
    # simple statements
    "x = 1\n", "x = y = 2\n", "a, b = 1, 2\n", "(a, b) = [c, d] = 1, 2\n", "a, *b = 1, 2, 3\n",
    "*a, b = [1, 2]\n", "[a, [b, *c]] = 1, (2, 3)\n", "x: int\n", "x: int = 3\n",
    "x.y: int = 3\n", "x[0]: int = 3\n", "x += 1\nx -= 1\nx *= 2\nx /= 2\nx //= 2\nx %= 2\n"
    "x **= 2\nx <<= 1\nx >>= 1\nx &= 1\nx |= 1\nx ^= 1\nx @= y\n", "x.a += 1\nx[1] += 2\n",
    "pass\n", "del x\n", "del x, y[0], z.a\n", "del (a, b), [c]\n", "assert x\n",
    "assert x, 'msg'\n", "x = 1; y = 2;\n", "import os\n", "import os.path as p, sys\n",
    "from os import path\n", "from os import (path,\n  sep as s,)\n", "from . import x\n",
    "from .. a import b\n", "from .a.b import *\n", "global g\n", "raise\n", "raise E\n",
    "raise E('x') from None\n",
    # compound statements
    "if a:\n  pass\nelif b:\n  pass\nelse:\n  pass\n", "if a: pass\n", "if a: x = 1; y = 2\n",
    "while x:\n  break\nelse:\n  pass\n", "while 1:\n  continue\n",
    "for i in range(3):\n  pass\nelse:\n  pass\n", "for a, b in x: pass\n",
    "for (a, *b) in x: pass\n", "for x in 1, 2, *y: pass\n", "for x, in y: pass\n",
    "try:\n  pass\nexcept:\n  pass\n",
    "try:\n  pass\nexcept E as e:\n  pass\nexcept (A, B):\n  pass\nelse:\n  pass\n"
    "finally:\n  pass\n", "try:\n  pass\nfinally:\n  pass\n",
    "with a: pass\n", "with a as b, c as (d, e): pass\n", "with (a as b, c): pass\n",
    "with (a, b) as c: pass\n", "with (yield): pass\n" if False else "with a() as b.c: pass\n",
    "def f(): pass\n", "def f(a, b=1, *args, c, d=2, **kw): return a\n",
    "def f(a, /, b, *, c): pass\n", "def f(a: int = 1, *b: str, **c: 'x') -> None: pass\n",
    "def f(*, a): pass\n", "def f(a,): pass\n", "def f(\n  a,\n  b,\n): pass\n",
    "@d\ndef f(): pass\n", "@d.e(1)\n@g\nclass C: pass\n", "@(lambda f: f)\ndef f(): pass\n",
    "class C: pass\n", "class C(): pass\n", "class C(A, B, metaclass=M): x = 1\n",
    "class C:\n  '''doc'''\n  def m(self):\n    return super().m()\n",
    "def f():\n  global g\n  g = 1\n", "def f():\n  x = 1\n  def g():\n    nonlocal x\n    x = 2\n",
    "def f():\n  yield\n  yield 1\n  x = yield 2\n  yield from g()\n",
    "def f():\n  return 1, 2\n", "def f():\n  return *a, b\n",
    "lambda: 0\n", "lambda a, b=1, *c, d, **e: a\n", "lambda *, a: a\n", "lambda a, /: a\n",
    # expressions
    "x = a if b else c\n", "x = a or b and not c\n", "x = a < b <= c != d is not e in f\n",
    "x = a not in b\n", "x = -a ** -b\n", "x = ~a + +b - -c\n", "x = a | b ^ c & d << e >> f\n",
    "x = a @ b\n", "x = a // b % c / d * e\n", "x = f(a)(b)[c].d\n", "x = a[1:2, ::3, ...]\n",
    "x = a[:]\n", "x = a[1:]\n", "x = a[::]\n", "x = a[b:c:d]\n", "x = a[1,]\n",
    "x = a[*b]\n", "x = f(*a, *b, c=1, **d, **e)\n", "x = f(a for a in b)\n",
    "x = f(a, b=c, *d)\n", "x = [a for a in b if c if d for e in f]\n",
    "x = {a: b for a, b in c}\n", "x = {a for a in b}\n", "x = (a for a in b)\n",
    "x = [i async for i in a] if 0 else 1\n" if False else "x = [[j for j in i] for i in a]\n",
    "x = {}\n", "x = {1}\n", "x = {1: 2, **a, 3: 4}\n", "x = {*a, 1}\n", "x = [*a, *b]\n",
    "x = ()\n", "x = (1,)\n", "x = 1,\n", "x = (yield)\n" if False else "x = (1)\n",
    "x = [\n  1,\n  2,\n]\n", "x = (1 +\n     2)\n", "x = 1 + \\\n    2\n",
    "if (n := 10) > 5: pass\n", "x = [y := 1, y]\n", "x = None, True, False, ...\n",
    "x = a.b.c\n", "print(*a, sep='')\n", "x = not a == b\n", "x = a if b else c if d else e\n",
    "x = lambda: (yield)\n" if False else "x = lambda: lambda: 1\n",
    "x = f'{a}'\n", "x = f'{a!r}'\n", "x = f'{a!s:>10}'\n", "x = f'{a:{w}.{p}f}'\n",
    "x = f'{a=}'\n", "x = f'{a = !r:10}'\n", "x = f'{{literal}}'\n", "x = f'{a[\"k\"]}'\n",
    "x = f'''{\na\n}'''\n", "x = f'{ {1: 2}[1] }'\n", "x = f'{x:%H:%M}'\n", "x = rf'\\d{a}'\n",
    "x = f'a' 'b' f'{c}'\n", "x = f'{a:{b}}'\n", "x = f'{3.14:.2f}'\n", "x = f'{a!r:^{w}}'\n",
    # indentation and line joining
    "if a:\n    pass\n", "if a:\n\tpass\n", "if a:\n  if b:\n    pass\n  pass\n",
    "if a:\n  pass\n\n\n  pass\n", "if a:\n  pass\n  # comment\n# comment\n  pass\n",
    "x = 1\n\n", "\n\n\nx = 1", "x = 1  # c", "# only a comment\n", "", "\n", "  \n",
    "if a:\n  x = (1,\n2)\n  pass\n", "x = [1,\n# c\n  2]\n", "def f():\n  pass\n\n\n\n",
    "x = 1\r\ny = 2\r\n", "class C:\n\n  x = 1\n\n  def f(self):\n\n    pass\n",
    "if a:\n  pass\nelse:  # c\n  pass\n", "if x:\n  \\\n  pass\n",
    "x = '''a\nb'''\n", "x = 'a' \\\n 'b'\n", "x = \"\"\"\n  '''\n\"\"\"\n",
    "while a: pass; pass\n", "def f(): return\n", "x = [\n]\n",
    # literals
    "x = 1_000\n", "x = 0xff\n", "x = 0o17\n", "x = 0b1010\n", "x = 1e10\n", "x = 1.5e-3\n",
    "x = .5\n", "x = 5.\n", "x = 1j\n", "x = 0\n", "x = 00\n", "x = 1_0.2_5e1_0\n",
    "x = 'a\\n\\t\\x41\\u00e9\\101\\\\'\n", "x = r'\\n'\n", "x = b'abc'\n",
    "if x:\n  pass\n\\\nelse:\n  pass\n", "x = 'é'\n", "x = u'x'\n", "x = Rb'\\x'\n", "x = 1if 1 else 2\n", "x = [0x1for x in y]\n",
    "x = f'{1 = }'\n", "x = f'{a=!r:>10}'\n", "x = f'{a = !s}'\n",
]

INVALID = [
    "(1, 2\n", "[1, 2\n", "{1: 2\n", "f(a\n", "x = (1,\n\n", "x = )\n", "x = ]\n", "}\n",
    "(]\n", "[)\n", "if a:\npass\n", "if a:\n", "def f():\nreturn\n", "class C:\nx = 1\n",
    "for x in y:\nx\n", "while x:\nx\n", "try:\nx\nexcept:\n  x\n", "with a:\nx\n",
    "if a:\n  x\nelse:\nx\n", "if a:\n    x\n  y\n", "  x = 1\n", "x = 1\n  y = 2\n",
    "if a:\n\tx\n        y\n", "x = = 1\n", "x 1\n", "1 = x\n", "x + 1 = 2\n",
    "f() = 1\n", "'a' = 1\n", "None = 1\n", "True = 1\n", "(a, 1) = x\n", "[a, f()] = x\n",
    "x += 1, 2 = 3\n" if False else "1 += 1\n", "f() += 1\n", "(a, b) += 1\n",
    "del f()\n", "del 1\n", "del (a + b)\n", "for 1 in x: pass\n", "with a as 1: pass\n",
    "return 1\n", "return\n", "class C:\n  return 1\n", "yield 1\n", "class C:\n  yield\n",
    "nonlocal x\n", "def f():\n  nonlocal x\n", "def f():\n  x = 1\n  global x\n",
    "def f(x):\n  global x\n", "def f(a, a): pass\n", "def f(a=1, b): pass\n",
    "def f(*): pass\n", "def f(**a, b): pass\n", "def f(*a, *b): pass\n", "lambda a=1, b: 0\n",
    "break\n", "continue\n", "def f():\n  break\n", "while 1:\n  def g():\n    continue\n",
    "x = 1 +\n", "x = (1 +)\n", "print 'hello'\n", "a b c\n", "if x = 1: pass\n",
    "x = 'abc\n", "x = '''abc\n", "x = \"abc\n", "x = 0x\n", "x = 1__0\n", "x = 1_\n",
    "x = 09\n", "x = 0b2\n", "x = 0o8\n", "x = 1e\n", "x = 1.2.3\n", "x = $\n", "x = a ? b\n",
    "x = f'{'\n", "x = f'{}'\n", "x = f'}'\n", "x = f'{a!x}'\n", "x = f'{a!}'\n",
    "x = f'{a b}'\n", "x = f'{a:{b:{c:{d}}}}'\n", "x = f'{a:{b}'\n",
"x = b'é'\n", "x = [i for i in range(3)] = 1\n",
    "f(a for a in b, c)\n", "f(**a, *b)\n", "f(a=1, b)\n", "f(a=1, a=2)\n", "f(1=2)\n",
    "x = {**a: 1}\n", "x = [*a for a in b]\n", "*a = 1\n", "*a\n", "a, *b, *c = d\n",
    "print(*)\n", "x = yield = 1\n", "def f():\n  x = yield = 1\n", "import\n",
    "from x import\n", "from x import (a, b\n", "from x import *, a\n",
    "def f():\n  from x import *\n", "try:\n  pass\n", "try:\n  pass\nelse:\n  pass\n",
    "try:\n  pass\nexcept:\n  pass\nexcept E:\n  pass\n", "else:\n  pass\n", "elif a:\n  pass\n",
    "x = 1 if 2\n", "x = lambda: yield\n", "a.1\n", "a[1\n", "def f(a, *, **k): pass\n",
    "class C(x for x in y): pass\n", "@d\nx = 1\n", "if a:\n  pass\n else:\n  pass\n",
    "x = (\n", "\tif a:\n", "if a:\n        x\n\ty\n", "def f(:\n", "def (): pass\n",
    "global x, 1\n", "x = 1 1\n", "x = [1 2]\n", "x = f(1 2)\n", "x = {1 2}\n",
    "assert\n", "raise from e\n", "del\n", "x.\n", "x = 'a' 1\n", "x = not\n",
    "def f():\n  x = 1\n  def g():\n    print(x)\n    nonlocal x\n",
    "def f():\n  print(x)\n  global x\n", "def f(x):\n  nonlocal x\n",
    "class C:\n  nonlocal x\n", "x = 1 if 2 else\n", "a := 1\n", "(a.b := 1)\n",
    "def f(x=yield): pass\n" if False else "f(x for x in y)(z for z in w)(1 2)\n",
    "with open(x) as f\n  pass\n", "for x in y\n  pass\n", "while x\n  pass\n",
    "if x\n  pass\n", "def f()\n  pass\n", "class C\n  pass\n", "else\n",
    "x = 1e309j\n" if False else "x = 5 6\n", "x = a not b\n", "x = a is not not b\n" if False
    else "x = [1, 2,, 3]\n", "f(,)\n", "def f(a,, b): pass\n", "x = ()()()(\n",
    "x = f'{a\\n}'\n", "x = f'{a#}'\n",
    "y = 1\nx = f'''\n{a b}'''\n", "x = f'{a +}'\n", "x = f'{)}'\n", "x = f'{a:{b c}}'\n",
    "x = f'{x!r=}'\n", "x = 1 + f'{a b c}'\n", "x = f'{a $ b}'\n", "x = f'{lambda x: 1}'\n",
    "x = f'{a!r }'\n", "x = 0x1g\n", "x = 1e+\n", "x = 1.5e\n", "x = 0x_\n", "x = 0b\n",
    "x = 0b12\n", "x = 0o19\n", "x = 0_x\n", "x = 1.e_\n", "x = 1._5\n", "x = 0099\n",
    "x = 1jk\n", "x = '''abc\n\n\n", "x = '''abc", "x = '''abc\nd\n", "x = 'abc",
    "x = 'abc\\\n", "x = (1,\n\n\n", "if a:\n\n\n", "if a:\n  # c\n", "x = 1abc\n",
    "if x.y = 1: pass\n", "x = lambda a 1\n", "x = lambda a\n", "f(lambda x)\n",
    "x = lambda: \n", "x = b'a' 'b'\n", "x = a[*b for b in c]\n", "x = {*a for a in b}\n",
 "while (x) = 1: pass\n", "f(a, b for b in c)\n",
]

LITERALS = [
    "1_000", "0xff", "0XfF", "0x_f_f", "0o17", "0O7_7", "0b1010", "0B_1", "0", "000", "0_0",
    "9223372036854775807", "1e10", "1E+10", "1.5e-3", ".5", "5.", "1_0.2_5e1_0", "0.1",
    "1.7976931348623157e308", "1e-320", "3.14", "1_000.000_1", "0e0", "00.5", "09.5", "1e0_1",
    "'a\\n\\t\\x41\\u00e9\\101\\\\'", "r'\\n\\x'", "'\\''", '"\\""', "'\\a\\b\\f\\v\\r\\0'",
    "'\\U0001F600'", "'a' 'b'", "'a' \"b\" '''c'''", "'''a\nb'''", "'\\\nx'", "r'a\\\nb'",
    "'é'", "'\\u00e9' r'\\u00e9'", "'\\q'", "'\\8'", "'''\"'''", "R'\\\\'", "'\\777'" if False
    else "'\\7'", "'a\\x00b'", "u'x'", "'日本'",
    "True", "False", "None", "...",
]


SHAPES = [
    "x = -a ** -b\n", "x = a + b * c - d / e\n", "x = (a + b) * c\n", "x = a or b and not c\n",
    "x = a < b <= c\n", "x = not a == b\n", "x = a if b else c if d else e\n",
    "x = a | b ^ c & d << e >> f + g\n", "x = a @ b // c % d\n", "x = ~a ** 2\n",
    "x = 2 ** -1\n", "x = a ** b ** c\n", "f(a)(b)[c].d\n", "x = a[1:2, ::3]\n",
    "x = a[b:c:d]\n", "x = a[:]\n", "x = a[1,]\n", "f(*a, b, c=1, **d)\n",
    "x = [a for a in b if c for d in e]\n", "x = {a: b for a, b in c}\n",
    "x = {a for a in b}\n", "x = (a for a in b)\n", "f(a for a in b)\n", "x = {1: 2, **a}\n",
    "x = {*a, 1}\n", "x = [*a, b]\n", "x = ()\n", "x = (1,)\n", "x = 1, 2\n",
    "a, *b = c\n", "x = y = z\n", "x += 1\n", "x: int = 1\n", "x = lambda a, b=1: a + b\n",
    "x = 'a' 'b'\n", "x = (1 +\n     2)\n", "x = [\n  1,\n  2,\n]\n", "x = 1 + \\\n    2\n",
    "if a:\n  b\nelif c:\n  d\nelse:\n  e\n", "while a:\n  b\nelse:\n  c\n",
    "for a, b in c:\n  d\n", "def f(a, b=1):\n  return a\n", "@d\ndef f():\n  pass\n",
    "class C(B):\n  x = 1\n", "try:\n  a\nexcept E as e:\n  b\nfinally:\n  c\n",
    "with a as b, c:\n  d\n", "assert a, b\n", "del a, b[0]\n", "raise E from x\n",
    "import a.b as c\n", "from a import b as c, d\n", "global a\n", "pass\n",
    "x = a.b.c(d)\n", "x = f'{a!r:>{w}}'\n", "x = (y := 1)\n", "x = 'é' + b\n",
    "def g():\n  yield a\n  yield from b\n", "x = a not in b is not c\n", "x = ...\n",
    "x = a[...]\n", "if a: b; c\n", "x = f(a,\n      b)\n", "x = [a\n     for a in b]\n",
]

OPNAMES = {'Add': '+', 'Sub': '-', 'Mult': '*', 'Div': '/', 'FloorDiv': '//', 'Mod': '%',
           'Pow': '**', 'LShift': '<<', 'RShift': '>>', 'BitAnd': '&', 'BitOr': '|',
           'BitXor': '^', 'MatMult': '@', 'USub': '-', 'UAdd': '+', 'Invert': '~',
           'Not': 'not', 'And': 'and', 'Or': 'or', 'Lt': '<', 'LtE': '<=', 'Eq': '==',
           'NotEq': '!=', 'Gt': '>', 'GtE': '>=', 'Is': 'is', 'IsNot': 'is not', 'In': 'in',
           'NotIn': 'not in'}


def shape(node):
    """The same compact dump as test-parser.c's dump_expr/dump_stmt: kind, position,
    operator and children."""
    import ast
    if node is None:
        return '_'
    if isinstance(node, list):
        return '[' + ' '.join(shape(n) for n in node) + ']'
    k = type(node).__name__
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant)
            and type(node.operand.value) in (int, float)):
        k = 'Constant'   # folded by the parser; CPython folds it when compiling
        node = ast.Constant(0, lineno=node.lineno, col_offset=node.col_offset,
                            end_lineno=node.end_lineno, end_col_offset=node.end_col_offset)
    pos = '@%d:%d-%d:%d' % (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)
    def op(o):
        return OPNAMES[type(o).__name__]
    kids = []
    if isinstance(node, ast.BinOp):
        kids = [op(node.op), shape(node.left), shape(node.right)]
    elif isinstance(node, ast.UnaryOp):
        kids = [op(node.op), shape(node.operand)]
    elif isinstance(node, ast.BoolOp):
        kids = [op(node.op)] + [shape(v) for v in node.values]
    elif isinstance(node, ast.Compare):
        kids = [shape(node.left)]
        for o, c in zip(node.ops, node.comparators):
            kids += [op(o), shape(c)]
    elif isinstance(node, ast.Call):
        kids = [shape(node.func)] + [shape(a) for a in node.args]
        kids += ['%s=%s' % (kw.arg or '**', shape(kw.value)) for kw in node.keywords]
    elif isinstance(node, ast.Attribute):
        kids = [shape(node.value), '.' + node.attr]
    elif isinstance(node, ast.Subscript):
        kids = [shape(node.value), shape(node.slice)]
    elif isinstance(node, ast.Slice):
        kids = [shape(node.lower), shape(node.upper), shape(node.step)]
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        kids = [shape(e) for e in node.elts]
    elif isinstance(node, ast.Dict):
        for key, v in zip(node.keys, node.values):
            kids += [shape(key) if key is not None else '**', shape(v)]
    elif isinstance(node, ast.Starred):
        kids = [shape(node.value)]
    elif isinstance(node, ast.IfExp):
        kids = [shape(node.test), shape(node.body), shape(node.orelse)]
    elif isinstance(node, ast.Lambda):
        kids = [shape(node.body)]
    elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
        kids = [shape(node.elt)]
        for g in node.generators:
            kids += ['for', shape(g.target), shape(g.iter)] + ['if ' + shape(i) for i in g.ifs]
    elif isinstance(node, ast.DictComp):
        kids = [shape(node.key), shape(node.value)]
        for g in node.generators:
            kids += ['for', shape(g.target), shape(g.iter)] + ['if ' + shape(i) for i in g.ifs]
    elif isinstance(node, (ast.Yield, ast.YieldFrom)):
        kids = [shape(node.value)]
    elif isinstance(node, ast.NamedExpr):
        kids = [shape(node.target), shape(node.value)]
    elif isinstance(node, ast.Name):
        kids = [node.id]
    elif isinstance(node, (ast.Constant, ast.JoinedStr)):
        kids = []
    # statements
    elif isinstance(node, ast.Expr):
        kids = [shape(node.value)]
    elif isinstance(node, ast.Assign):
        kids = [shape(t) for t in node.targets] + ['=', shape(node.value)]
    elif isinstance(node, ast.AugAssign):
        kids = [shape(node.target), op(node.op) + '=', shape(node.value)]
    elif isinstance(node, ast.AnnAssign):
        kids = [shape(node.target), shape(node.annotation), shape(node.value)]
    elif isinstance(node, ast.Return):
        kids = [shape(node.value)]
    elif isinstance(node, (ast.If, ast.While)):
        kids = [shape(node.test), shape(node.body), shape(node.orelse)]
    elif isinstance(node, ast.For):
        kids = [shape(node.target), shape(node.iter), shape(node.body), shape(node.orelse)]
    elif isinstance(node, ast.FunctionDef):
        kids = [node.name, shape(node.decorator_list), shape(node.args.defaults),
                shape(node.body)]
    elif isinstance(node, ast.ClassDef):
        kids = [node.name, shape(node.bases), shape(node.body)]
    elif isinstance(node, ast.Try):
        kids = [shape(node.body)]
        for h in node.handlers:
            kids += ['except', shape(h.type), h.name or '_', shape(h.body)]
        kids += [shape(node.orelse), shape(node.finalbody)]
    elif isinstance(node, ast.With):
        for it in node.items:
            kids += [shape(it.context_expr), shape(it.optional_vars)]
        kids += [shape(node.body)]
    elif isinstance(node, ast.Assert):
        kids = [shape(node.test), shape(node.msg)]
    elif isinstance(node, ast.Delete):
        kids = [shape(t) for t in node.targets]
    elif isinstance(node, ast.Raise):
        kids = [shape(node.exc), shape(node.cause)]
    elif isinstance(node, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.Pass,
                           ast.Break, ast.Continue)):
        kids = []
    else:
        raise SystemExit("shape: " + k)
    return k + pos + ('(' + ' '.join(kids) + ')' if kids else '')


def c_str(s):
    out = []
    for b in s.encode('utf-8', 'surrogatepass'):
        c = chr(b)
        if c == '\\':
            out.append('\\\\')
        elif c == '"':
            out.append('\\"')
        elif c == '\n':
            out.append('\\n')
        elif c == '\t':
            out.append('\\t')
        elif c == '\r':
            out.append('\\r')
        elif 32 <= b < 127:
            out.append(c)
        else:
            out.append('\\%03o' % b)
    return '"' + ''.join(out) + '"'


def byte_col(src, lineno, offset):
    """CPython's 1-based character offset on a line → 0-based byte column."""
    if offset is None or lineno is None or offset <= 0:
        return -1
    lines = src.split('\n')
    if lineno - 1 >= len(lines):
        return offset - 1
    line = lines[lineno - 1]
    return len(line[:offset - 1].encode('utf-8'))


def main():
    w = sys.stdout.write
    w("/* parser-cases.h: generated by gen-parser-cases.py from CPython %d.%d.%d; do not edit. */\n"
      % sys.version_info[:3])
    w("static const char *const valid_sources[] = {\n")
    for src in VALID:
        compile(src, 'f', 'exec')
        w("  %s,\n" % c_str(src))
    w("};\n\n")
    w("typedef struct { const char *src, *cls, *msg; int line, col, end_line, end_col; } "
      "ErrorCase;\n")
    w("static const ErrorCase error_cases[] = {\n")
    seen = set()
    for src in INVALID:
        if src in seen:
            raise SystemExit("duplicate " + repr(src))
        seen.add(src)
        try:
            compile(src, 'f', 'exec')
        except SyntaxError as e:
            col = byte_col(src, e.lineno, e.offset)
            end_line = e.end_lineno if e.end_lineno is not None else -1
            end_col = byte_col(src, e.end_lineno, e.end_offset) if e.end_lineno else -1
            w("  { %s, %s, %s, %d, %d, %d, %d },\n" % (c_str(src), c_str(type(e).__name__),
                                                       c_str(e.msg), e.lineno, col, end_line,
                                                       end_col))
        else:
            raise SystemExit("compiles: " + repr(src))
    w("};\n\n")
    w("typedef struct { const char *src; char kind; gint64 i; double f; const char *s; "
      "gsize len; } LiteralCase;\n")
    w("static const LiteralCase literal_cases[] = {\n")
    for src in LITERALS:
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = eval(compile(src, 'f', 'eval'))
        if v is None:
            w("  { %s, 'N', 0, 0, NULL, 0 },\n" % c_str(src))
        elif v is Ellipsis:
            w("  { %s, 'E', 0, 0, NULL, 0 },\n" % c_str(src))
        elif isinstance(v, bool):
            w("  { %s, 'b', %d, 0, NULL, 0 },\n" % (c_str(src), int(v)))
        elif isinstance(v, int):
            w("  { %s, 'i', G_GINT64_CONSTANT (%d), 0, NULL, 0 },\n" % (c_str(src), v))
        elif isinstance(v, float):
            w("  { %s, 'f', 0, %s, NULL, 0 },\n" % (c_str(src), float.hex(v)))
        elif isinstance(v, str):
            w("  { %s, 's', 0, 0, %s, %d },\n" % (c_str(src), c_str(v), len(v.encode())))
        else:
            raise SystemExit("literal kind " + repr(v))
    w("};\n\n")
    import ast
    w("typedef struct { const char *src, *shape; } ShapeCase;\n")
    w("static const ShapeCase shape_cases[] = {\n")
    for src in SHAPES:
        tree = ast.parse(src)
        w("  { %s,\n    %s },\n" % (c_str(src), c_str(' '.join(shape(s) for s in tree.body))))
    w("};\n")


main()
