import BazaarAPI
import BazaarDomain
import BazaarImages
import BazaarServer
import Foundation
import NIOHTTP1
import ProcessSupport
import TestSupport
import Testing

/// What the server makes of an upload, read back over HTTP on every backend: the sizes' pixels
/// and bytes, not only the JSON that names them.
@Suite("Photos as the server serves them")
struct PhotoPipelineRoutesTests {
    /// Uploads `image` to a new product of a new seller; the product answered.
    static func upload(_ image: Data, type: String = "image/jpeg", _ client: BazaarTestClient) async throws
        -> TestResponse
    {
        let seller = try await client.register("s\(UUID().uuidString.prefix(8).lowercased())")
        let product = try await client.createProduct("Desk", token: seller.tokens.accessToken)
        return try await client.send(
            .POST, APIRoutes.addProductPhoto.path(product.id), rawBody: image, contentType: type,
            token: seller.tokens.accessToken)
    }

    @Test(
        "a JPEG with GPS in its EXIF and an XMP packet comes back at every size with no metadata, its orientation applied",
        arguments: StorageKind.available)
    func strippedAndTurned(storage: StorageKind) async throws {
        let pipeline = try ImagePipeline()
        try await BazaarTestHarness.withServer(on: storage) { client in
            let secret = "GPS-\(UUID().uuidString)"
            // EXIF orientation 6: stored 400 × 200, shown turned, 200 × 400.
            let upload = TestImages.jpegWithMetadata(width: 400, height: 200, orientation: 6, secret: secret)
            let product = try await Self.upload(upload, client).decode(Product.self)
            let photo = try #require(product.photos.first)
            #expect(photo.width == 200 && photo.height == 400)
            let expected: [PhotoSize: [Int]] = [.thumb: [120, 240], .medium: [200, 400], .full: [200, 400]]
            for size in PhotoSize.allCases {
                let served = try await client.get(photo.url(size)).body
                for marker in [secret, "Exif", "http://ns.adobe.com/xap"] {
                    #expect(served.range(of: Data(marker.utf8)) == nil, "\(size) holds \(marker)")
                }
                #expect(!JPEGMetadata.segments(of: served).contains(0xE1), "\(size) has an APP1 segment")
                let header = try pipeline.header(of: served)
                #expect([header.width, header.height] == expected[size], "\(size)")
                #expect(header.orientation == 1)
            }
        }
    }

    @Test(
        "each size has its stated dimensions: longest side 240, 960 and at most 2048", arguments: StorageKind.available)
    func statedDimensions(storage: StorageKind) async throws {
        let pipeline = try ImagePipeline()
        try await BazaarTestHarness.withServer(on: storage) { client in
            let product = try await Self.upload(TestImages.jpeg(width: 3000, height: 2000), client).decode(
                Product.self)
            let photo = try #require(product.photos.first)
            #expect(photo.width == 2048 && photo.height == 1365)
            let expected: [PhotoSize: [Int]] = [.thumb: [240, 160], .medium: [960, 640], .full: [2048, 1365]]
            for size in PhotoSize.allCases {
                let header = try pipeline.header(of: try await client.get(photo.url(size)).body)
                #expect([header.width, header.height] == expected[size], "\(size)")
            }
        }
    }

    @Test(
        "a PNG declaring 50 000 × 50 000 and a text file named as a JPEG are refused with 422",
        arguments: StorageKind.available)
    func refusedBeforeDecoding(storage: StorageKind) async throws {
        try await BazaarTestHarness.withServer(on: storage) { client in
            let bomb = try await Self.upload(
                PNGHeader.declaring(width: 50_000, height: 50_000), type: "image/png", client)
            expectError(bomb, 422, code: "invalid_image")
            #expect(bomb.text.contains("50000 × 50000"), "\(bomb.text)")
            let text = try await Self.upload(Data("holiday.jpg, really a note".utf8), client)
            expectError(text, 422, code: "invalid_image")
        }
    }

    @Test("the bazaar-server process refuses twenty 50 000 × 50 000 PNGs with its memory barely moving")
    func decompressionBombsLeaveMemoryFlat() async throws {
        let directory = try BazaarTestHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await offPool {
            try BazaarProcess(sqlitePath: directory.appendingPathComponent("bazaar.sqlite").path)
        }
        defer { _ = server.terminate() }
        let client = BazaarTestClient(baseURL: server.baseURL)
        let seller = try await client.register("sid")
        let product = try await client.createProduct("Desk", token: seller.tokens.accessToken)
        func upload(_ image: Data, type: String) async throws -> TestResponse {
            try await client.send(
                .POST, APIRoutes.addProductPhoto.path(product.id), rawBody: image, contentType: type,
                token: seller.tokens.accessToken)
        }
        // One real photo first, so libvips and the processor's threads are already up.
        expectStatus(try await upload(TestImages.jpeg(), type: "image/jpeg"), 201)
        let before = try ResidentMemory.bytes(of: server.processIdentifier)
        for _ in 0..<20 {
            let bomb = try await upload(PNGHeader.declaring(width: 50_000, height: 50_000), type: "image/png")
            expectError(bomb, 422, code: "invalid_image")
        }
        let growth = try ResidentMemory.bytes(of: server.processIdentifier) - before
        // Decoded, each would be 7.5 GB of pixels; refused from its header, none is.
        #expect(growth < 16 << 20, "the server's resident memory grew by \(growth >> 10) KiB")
    }

    @Test("past the bound on photos processed at once an upload is answered 503 with Retry-After, the others 201")
    func pastTheBoundIs503() async throws {
        try await StorageKind.sqlite.withConfiguration { base in
            var configuration = base
            configuration.maxPhotoJobs = 1
            configuration.quotas = .unlimited
            let image = TestImages.jpeg(width: 2400, height: 1800, grain: 10)
            try await BazaarTestHarness.withServer(configuration: configuration) { client in
                let seller = try await client.register("sid")
                let product = try await client.createProduct("Desk", token: seller.tokens.accessToken)
                let statuses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                    for _ in 0..<6 {
                        group.addTask {
                            try await client.send(
                                .POST, APIRoutes.addProductPhoto.path(product.id), rawBody: image,
                                contentType: "image/jpeg", token: seller.tokens.accessToken)
                        }
                    }
                    var answers: [TestResponse] = []
                    for try await answer in group { answers.append(answer) }
                    return answers
                }
                #expect(statuses.allSatisfy { [201, 503].contains($0.status) }, "\(statuses.map(\.status))")
                #expect(statuses.contains { $0.status == 201 })
                let refused = try #require(statuses.first { $0.status == 503 }, "six at once, one place")
                #expect(refused.header("Retry-After") == "1")
                #expect(refused.text.contains("service_unavailable"))
            }
        }
    }
}

/// The resident memory of a process, from `/proc/PID/status`.
enum ResidentMemory {
    struct Unreadable: Error {}

    static func bytes(of pid: Int32) throws -> Int {
        let text = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { throw Unreadable() }
        return kilobytes * 1024
    }
}
