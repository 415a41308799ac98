#!/usr/bin/env bash
# Proves the kit is light for an app that adopts it (issue 37), from this checkout:
#   1. Examples/KitAdopter (the kit's products and the AsyncHTTPClient transport, `traits:
#      ["AsyncHTTPClient"]`) resolves only the kit's dependency closure: none of the server's
#      packages, and nothing a package depending on the kit's own dependencies alone would not;
#   2. an adopter on URLSession alone (`traits: []`, made here in a temporary folder) resolves no
#      SwiftNIO and no AsyncHTTPClient;
#   3. KitAdopter builds and runs against a real bazaar-server on loopback (register, list a product,
#      find it, sign out).
# Prints the packages each resolves. BAZAAR_SERVER_BINARY names the server (default: the debug build).
#
#   scripts/adopter-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
SERVER_PACKAGES="hummingbird|hummingbird-auth|hummingbird-websocket|grdb.swift|postgres-nio|jwt-kit|console-kit|swift-mustache|swift-prometheus|swift-otel|zipfoundation|swift-argument-parser|yams"

pins() { python3 -c 'import json,sys; print("\n".join(sorted(p["identity"] for p in json.load(open(sys.argv[1]))["pins"])))' "$1"; }

echo "== the Linux adopter (Examples/KitAdopter: Networking, NetworkingAsyncHTTPClient, Session, BazaarAPI)"
(cd Examples/KitAdopter && rm -f Package.resolved && swift package resolve >/dev/null)
linux="$(pins Examples/KitAdopter/Package.resolved)"
echo "resolves $(echo "$linux" | wc -l) packages: $(echo "$linux" | tr '\n' ' ')"
if echo "$linux" | grep -Eqx "$SERVER_PACKAGES"; then
    echo "adopter-check: the kit's adopter resolves server packages: $(echo "$linux" | grep -Ex "$SERVER_PACKAGES" | tr '\n' ' ')" >&2
    exit 1
fi

# The yardstick: a package that depends on the kit's own dependencies and nothing else.
plain="$(mktemp -d "${TMPDIR:-/tmp}/bazaar-urlsession-adopter.XXXXXX")"
closure="$(mktemp -d "${TMPDIR:-/tmp}/bazaar-kit-closure.XXXXXX")"
trap 'rm -rf "$plain" "$closure"' EXIT
mkdir -p "$closure/Sources/Closure"
cat >"$closure/Package.swift" <<'SWIFT'
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "Closure",
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [.target(name: "Closure")]
)
SWIFT
echo '' >"$closure/Sources/Closure/Closure.swift"
(cd "$closure" && swift package resolve >/dev/null)
yardstick="$(pins "$closure/Package.resolved")"
echo "(the kit's own dependencies, AsyncHTTPClient, swift-http-types, swift-log and swift-distributed-tracing, resolve $(echo "$yardstick" | wc -l))"
extra="$(comm -23 <(echo "$linux") <(echo "$yardstick"))"
if [ -n "$extra" ]; then
    echo "adopter-check: the kit's adopter resolves packages beyond the kit's own closure: $(echo "$extra" | tr '\n' ' ')" >&2
    exit 1
fi

echo "== an adopter on URLSession alone (traits: [])"
mkdir -p "$plain/Sources/Plain"
cat >"$plain/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "Plain",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Bazaar", path: "$ROOT", traits: [])],
    targets: [
        .executableTarget(
            name: "Plain",
            dependencies: [.product(name: "Networking", package: "Bazaar"), .product(name: "Session", package: "Bazaar")])
    ]
)
SWIFT
echo 'import Networking; import Session; print(URLSessionTransport.self)' >"$plain/Sources/Plain/main.swift"
(cd "$plain" && swift package resolve >/dev/null)
bare="$(pins "$plain/Package.resolved")"
echo "resolves $(echo "$bare" | wc -l) packages: $(echo "$bare" | tr '\n' ' ')"
if echo "$bare" | grep -Eqx "swift-nio|async-http-client|$SERVER_PACKAGES"; then
    echo "adopter-check: a URLSession adopter resolves SwiftNIO, AsyncHTTPClient or the server's packages" >&2
    exit 1
fi

echo "== KitAdopter built and run against bazaar-server"
(cd Examples/KitAdopter && swift build)
SERVER_BIN="${BAZAAR_SERVER_BINARY:-$ROOT/.build/debug/bazaar-server}"
[ -x "$SERVER_BIN" ] || { echo "adopter-check: build bazaar-server first (swift build)" >&2; exit 69; }
work="$(mktemp -d "${TMPDIR:-/tmp}/bazaar-adopter.XXXXXX")"
trap 'rm -rf "$plain" "$closure" "$work"; [ -n "${SERVER_STARTED_PID:-}" ] && kill "$SERVER_STARTED_PID" 2>/dev/null || true' EXIT
source scripts/start-server.sh
start_server "$work/server.out" "$work/server.err" "$SERVER_BIN" --port 0 --sqlite "$work/bazaar.sqlite" --bcrypt-cost 4
Examples/KitAdopter/.build/debug/KitAdopter "$SERVER_STARTED_URL"
kill "$SERVER_STARTED_PID"; wait "$SERVER_STARTED_PID" 2>/dev/null || true
echo "adopter-check: OK"
