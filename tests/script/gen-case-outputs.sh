#!/bin/sh
# gen-case-outputs.sh: records CPython's behaviour for script cases — NAME.out (stdout and
# stderr, unbuffered so that their order is the real one) and NAME.exit (the exit status,
# only when it is not 0). CPython prints the script's absolute path in tracebacks and
# warnings; the cases directory's path is removed so that the files do not depend on where
# the tree is (test-cases.c removes it from fx's output likewise). Usage: tests/script/gen-case-outputs.sh cases/NAME.py...
# Scripts using torch need /usr/bin/python3 (PyTorch 1.13); PYTHON overrides the interpreter.
set -e
python=${PYTHON:-/usr/bin/python3}
for f in "$@"; do
  if [ ! -f "$f" ]; then
    echo "gen-case-outputs.sh: $f: no such script" >&2
    exit 1
  fi
  dir=$(dirname "$f")
  base=$(basename "$f" .py)
  status=0
  (cd "$dir" && PYTHONHASHSEED=0 "$python" -u "$base.py" > "$base.out" 2>&1) || status=$?
  absdir=$(cd "$dir" && pwd)
  sed -i "s|$absdir/||g" "$dir/$base.out"
  if [ "$status" -ne 0 ]; then
    echo "$status" > "$dir/$base.exit"
  else
    rm -f "$dir/$base.exit"
  fi
done
