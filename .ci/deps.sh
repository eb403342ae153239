#!/bin/sh
# deps.sh [build|test|bench|fuzz]...: finds the Debian packages that are missing for the given
# jobs (pkg-config modules that fail to resolve, commands that are not on PATH) and installs
# them — with apt-get when run as root, otherwise by printing the exact sudo line to run.
set -eu

jobs=${*:-build test}
missing=""

need_pkg() {  # need_pkg PKG-CONFIG-MODULE DEBIAN-PACKAGE
  if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists "$1" 2>/dev/null; then
    add "$2"
  fi
}
need_cmd() {  # need_cmd COMMAND DEBIAN-PACKAGE
  command -v "$1" >/dev/null 2>&1 || add "$2"
}
need_file() {  # need_file PATH-PATTERN DEBIAN-PACKAGE
  # shellcheck disable=SC2086
  ls $1 >/dev/null 2>&1 || add "$2"
}
need_python() {  # need_python MODULE DEBIAN-PACKAGE: for /usr/bin/python3 (Debian's)
  if [ ! -x /usr/bin/python3 ] || ! /usr/bin/python3 -c "import $1" >/dev/null 2>&1; then
    add "$2"
  fi
}
add() {
  case " $missing " in *" $1 "*) ;; *) missing="$missing $1" ;; esac
}

for job in $jobs; do
  case "$job" in
    build)
      need_cmd cc gcc
      need_cmd make make
      need_cmd meson meson
      need_cmd ninja ninja-build
      need_cmd pkg-config pkg-config
      need_cmd glib-compile-resources libglib2.0-dev-bin
      need_cmd glib-compile-schemas libglib2.0-bin
      need_pkg glib-2.0 libglib2.0-dev
      need_pkg gio-2.0 libglib2.0-dev
      need_pkg json-glib-1.0 libjson-glib-dev
      need_pkg libzip libzip-dev
      need_pkg openblas libopenblas-dev
      need_pkg gtk4 libgtk-4-dev
      need_pkg libadwaita-1 libadwaita-1-dev
      need_pkg gtksourceview-5 libgtksourceview-5-dev
      need_pkg libcgraph libgraphviz-dev
      need_pkg libgvc libgraphviz-dev
      # the editor's icons are SVG: GTK draws them through gdk-pixbuf's librsvg loader
      need_file "/usr/lib/*/gdk-pixbuf-2.0/2.10.0/loaders/libpixbufloader-svg.so" librsvg2-common
      ;;
    test)
      need_cmd xvfb-run xvfb
      need_cmd xauth xauth
      need_cmd appstreamcli appstream
      need_cmd desktop-file-validate desktop-file-utils
      need_file /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf fonts-dejavu-core
      ;;
    bench)
      need_python torch python3-torch
      need_python torchvision python3-torchvision
      need_python tabulate python3-tabulate
      ;;
    fuzz)
      need_cmd clang clang
      need_file /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a libclang-rt-14-dev
      need_cmd llvm-symbolizer llvm   # sanitizer reports with file:line
      ;;
    *)
      echo "deps.sh: unknown job '$job' (build, test, bench, fuzz)" >&2
      exit 2
      ;;
  esac
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ]; then
  echo "Installing missing packages:$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  # shellcheck disable=SC2086
  apt-get install -y -q --no-install-recommends $missing
else
  echo "Missing packages. Install them with:" >&2
  echo "  sudo apt-get install -y$missing" >&2
  exit 1
fi
