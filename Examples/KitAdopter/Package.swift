// swift-tools-version: 6.1
// An app that adopts Bazaar's client kit and nothing else, on Linux: the kit's products, and the
// AsyncHTTPClient transport through the `AsyncHTTPClient` trait. Outside this repository, replace
// the path with the package's URL and a version:
//     .package(url: "https://github.com/OWNER/bazaar", from: "0.16.0", traits: ["AsyncHTTPClient"])
// `traits: []` is the URLSession-only form (iOS, macOS): no SwiftNIO at all.
import PackageDescription

let package = Package(
    name: "KitAdopter",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Bazaar", path: "../..", traits: ["AsyncHTTPClient"])
    ],
    targets: [
        .executableTarget(
            name: "KitAdopter",
            dependencies: [
                .product(name: "Networking", package: "Bazaar"),
                .product(name: "NetworkingAsyncHTTPClient", package: "Bazaar"),
                .product(name: "Session", package: "Bazaar"),
                .product(name: "BazaarAPI", package: "Bazaar"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
