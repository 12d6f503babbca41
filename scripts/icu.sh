# Sourced by scripts/serve.sh, scripts/test.sh and .ci/run before they install the Python packages:
# PyICU (names drawn alike, docs/dependencies.md) has no wheels and builds against the system's ICU
# with a C++ compiler. As root with apt, Debian's packages are installed when missing; elsewhere the
# line below says what to install.
if ! { pkg-config --exists icu-uc && command -v g++; } >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> installing Debian's libicu-dev, g++ and pkg-config for PyICU"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libicu-dev g++ pkg-config >/dev/null || true
  else
    echo "note: PyICU needs ICU's headers, pkg-config and a C++ compiler (Debian: libicu-dev g++ pkg-config;" \
      "macOS: brew install icu4c pkg-config)" >&2
  fi
fi
