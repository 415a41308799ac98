import Foundation
import Networking
import Testing

@Suite("Multipart form data")
struct MultipartFormDataTests {
    @Test("text and file parts are encoded byte for byte as RFC 7578 describes")
    func encodesPartsExactly() async throws {
        var form = MultipartFormData(boundary: "XyZ")
        form.append("Ada", name: "name")
        form.append(Data("PNG".utf8), name: "photo", filename: "me \"1\".png", mediaType: .png)
        let body = try form.encoded()
        let expected =
            "--XyZ\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nAda\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"me %221%22.png\"\r\n"
            + "Content-Type: image/png\r\n\r\nPNG\r\n--XyZ--\r\n"
        #expect(try await body.collect() == Data(expected.utf8))
        #expect(body.length == Int64(expected.utf8.count))
        #expect(form.mediaType.rawValue == "multipart/form-data; boundary=XyZ")
    }

    @Test("a file part is streamed from disk in chunks and its length is known up front")
    func streamsFileParts() async throws {
        let file = try TemporaryFile(bytes: 300_000)
        var form = MultipartFormData(boundary: "b")
        form.appendFile(at: file.url, name: "file", mediaType: .octetStream)
        let body = try form.encoded()
        var chunks = 0
        var total = 0
        for try await chunk in body.chunks() {
            chunks += 1
            total += chunk.count
        }
        #expect(chunks > 4, "a 300 kB file arrives in several chunks, not at once")
        #expect(Int64(total) == body.length)
        let collected = try await body.collect()
        #expect(collected.range(of: try Data(contentsOf: file.url)) != nil)
    }

    @Test("the stream can be read again from the start, as a retry needs")
    func streamIsReplayable() async throws {
        let file = try TemporaryFile(bytes: 100_000)
        var form = MultipartFormData(boundary: "b")
        form.appendFile(at: file.url, name: "file")
        let body = try form.encoded()
        let first = try await body.collect()
        let second = try await body.collect()
        #expect(first == second)
        #expect(Int64(first.count) == body.length)
    }

    @Test("a missing file is a typed error naming the file")
    func missingFileIsTypedError() {
        var form = MultipartFormData()
        form.appendFile(at: URL(fileURLWithPath: "/nonexistent/photo.jpg"), name: "photo")
        #expect {
            try form.encoded()
        } throws: { error in
            guard case RequestBuildError.unreadableFile(let path, _) = error else { return false }
            return path == "/nonexistent/photo.jpg"
        }
    }

    @Test("a real server receives exactly the encoded length of a streamed upload")
    func serverReceivesWholeUpload() async throws {
        try await KitFixture.with { fixture in
            let file = try TemporaryFile(bytes: 2_000_000)
            var form = MultipartFormData()
            form.append("caption", name: "caption")
            form.appendFile(at: file.url, name: "file", mediaType: .jpeg)
            let expected = try form.encoded().length
            let request = Send<[String: Int]>(path: "/upload", method: .post, parameters: .multipart(form))
            // What counts here is the byte count, not the speed: a loaded CI machine once took over 10 s.
            let answer = try await fixture.client(timeout: .seconds(60)).send(request)
            #expect(answer["bytes"].map(Int64.init) == expected)
        }
    }
}

/// A file of `bytes` pseudo-random bytes in the temporary folder, removed when released.
final class TemporaryFile: Sendable {
    let url: URL

    init(bytes: Int) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("bazaar-test-\(UUID().uuidString)")
        // SplitMix64, eight bytes a step: drawing each byte from the system generator is one
        // syscall per byte, which held a cooperative thread for seconds and starved every
        // in-process server of the run.
        var state = UInt64.random(in: 0...UInt64.max)
        var data = Data(count: bytes)
        data.withUnsafeMutableBytes { buffer in
            for offset in stride(from: 0, to: buffer.count, by: 8) {
                state &+= 0x9E37_79B9_7F4A_7C15
                var mixed = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
                mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
                mixed ^= mixed >> 31
                withUnsafeBytes(of: mixed) { word in
                    for index in 0..<min(8, buffer.count - offset) { buffer[offset + index] = word[index] }
                }
            }
        }
        try data.write(to: url)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
