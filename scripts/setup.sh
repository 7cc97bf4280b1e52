#!/bin/sh
# Installs everything cohsim needs to build and test, from Debian 12's
# packages only. Idempotent: installs nothing when all is present.
set -eu
PKGS="g++ clang libclang-rt-14-dev rumur cmake make pkg-config dpkg-dev chromium libsystemc-dev libyaml-cpp-dev libspdlog-dev
libboost-program-options-dev libboost-context-dev libgtest-dev nlohmann-json3-dev python3 python3-matplotlib
slurm-wlm munge gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu qemu-user python3-pandas valgrind python3-nbconvert python3-ipykernel python3-jsonschema mkdocs"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  echo "cohsim setup: installing$missing"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
fi
