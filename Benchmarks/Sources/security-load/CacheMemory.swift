import ArgumentParser
import AsyncHTTPClient
import BazaarAPI
import BenchSupport
import Foundation
import NIOCore
import NIOHTTP1

/// `security-load cache-memory`: the server's resident memory while 1 024 filter variants of a
/// heavy product page are read, each once: a page of 100 products whose descriptions escape to
/// 6 bytes a character in JSON (about 3 MB). The public response cache keeps pages by key; bounded
/// by entries alone it would hold gigabytes of them.
struct CacheMemory: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache-memory",
        abstract: "Server memory (VmRSS) across 1 024 filter variants of a heavy product page.")

    @Option(help: "Filter variants read (each a different minimum price matching every product).")
    var variants = 1024
    @Option(help: "Print the server's memory every this many variants.") var every = 128

    func run() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let seed = SeedClient(baseURL: server.baseURL)
        let seller = try await seed.register(username: "heavy\(String(UUID().uuidString.prefix(6)).lowercased())")
        // U+0001 is written as \u0001 in JSON: 6 bytes for each character of the description.
        let description = String(repeating: "\u{1}", count: InputRules.productDescription.upperBound)
        for index in 0..<100 {
            let _: Product = try await seed.send(
                .POST, "/v1/products",
                body: CreateProductRequest(
                    title: "Heavy \(index)", description: description, priceCents: 100_000 + index, currency: "EUR"),
                token: seller.tokens.accessToken)
        }
        let pid = server.processIdentifier
        let first = try await read(variant: 0, seed: seed)
        print("cache-memory: page of 100 products, \(first) bytes; \(variants) variants, each read once")
        print("variants read | server VmRSS MiB")
        print(String(format: "%13d | %8.1f", 1, Self.residentMiB(pid)))
        for variant in 1..<variants {
            _ = try await read(variant: variant, seed: seed)
            if (variant + 1) % every == 0 { print(String(format: "%13d | %8.1f", variant + 1, Self.residentMiB(pid))) }
        }
    }

    /// Reads variant `variant` (a minimum price every product passes) and answers its size.
    private func read(variant: Int, seed: SeedClient) async throws -> Int {
        var request = HTTPClientRequest(
            url: seed.baseURL.absoluteString + "/v1/products?limit=100&minPriceCents=\(variant)")
        request.method = .GET
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 64 << 20)
        guard response.status == .ok else {
            throw SecurityLoadFailure("variant \(variant) answered \(response.status.code): \(String(buffer: body))")
        }
        return body.readableBytes
    }

    /// The resident memory of process `pid` in MiB, from `/proc/PID/status`.
    static func residentMiB(_ pid: Int32) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return .nan }
        return kilobytes / 1024
    }
}
