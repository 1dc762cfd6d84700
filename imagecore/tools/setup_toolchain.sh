#!/usr/bin/env bash
# Sets up what `deno task build:wasm` needs on a Debian machine, once:
#   - a rustc that can target wasm32-unknown-unknown (rustup's if it has the target,
#     else Debian's rustc-web with a wasm32 std built here from rust-web-src),
#   - wasm-bindgen-cli at exactly the version in imagecore/Cargo.lock (Cargo.toml pins the crate
#     with `=`, and cargo's --locked keeps the two equal).
# No wasm-opt: tools/build.ts ships the WASM as rustc and wasm-bindgen leave it.
# Prints `RUSTC=<path>` for the build script to use. Safe to run again.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
log() { printf 'setup_toolchain: %s\n' "$*" >&2; }

rustc_for_wasm=""
if command -v rustup >/dev/null 2>&1 && rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  rustc_for_wasm=$(rustup which rustc)
  log "using rustup's rustc with its wasm32 target"
else
  if [ ! -x /usr/bin/rustc ] || [ ! -d /usr/lib/rustlib/src/rust/library/vendor ] || ! command -v wasm-ld-22 >/dev/null 2>&1; then
    log "installing Debian's rustc-web, cargo-web, rust-web-src, lld-22"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq rustc-web cargo-web rust-web-src lld-22 >&2
  fi
  rustc_for_wasm=/usr/bin/rustc
  sysroot_lib=/usr/lib/rustlib/wasm32-unknown-unknown/lib
  if ! ls "$sysroot_lib"/libstd-*.rlib >/dev/null 2>&1; then
    log "building std for wasm32-unknown-unknown (once, a few minutes)"
    scratch=$(mktemp -d)
    mkdir -p "$scratch/src" "$scratch/.cargo"
    cat >"$scratch/Cargo.toml" <<'TOML'
[package]
name = "wasm-std-scratch"
version = "0.0.0"
edition = "2021"
[lib]
crate-type = ["cdylib"]
[profile.release]
panic = "abort"
TOML
    echo '' >"$scratch/src/lib.rs"
    cat >"$scratch/.cargo/config.toml" <<'TOML'
[target.wasm32-unknown-unknown]
linker = "wasm-ld-22"
[source.crates-io]
replace-with = "vendored"
[source.vendored]
directory = "/usr/lib/rustlib/src/rust/library/vendor"
TOML
    (cd "$scratch" && RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 /usr/bin/cargo build --release \
      -Zbuild-std=std,panic_abort --target wasm32-unknown-unknown >&2)
    mkdir -p "$sysroot_lib"
    cp "$scratch"/target/wasm32-unknown-unknown/release/deps/*.rlib "$sysroot_lib/"
    rm -rf "$scratch"
  fi
fi

# wasm-bindgen-cli must match the wasm-bindgen crate in Cargo.lock exactly.
want=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' "$here/Cargo.lock")
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  log "installing wasm-bindgen-cli $want (host build, a few minutes)"
  # --locked first; the registry mirror may lack a pinned transitive version, then resolve anew.
  cargo install -q --locked wasm-bindgen-cli --version "=$want" >&2 ||
    cargo install -q wasm-bindgen-cli --version "=$want" >&2
fi

echo "RUSTC=$rustc_for_wasm"
