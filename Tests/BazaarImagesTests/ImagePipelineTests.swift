import BazaarAPI
import BazaarImages
import Foundation
import TestSupport
import Testing

@Suite("The photo pipeline (libvips)")
struct ImagePipelineTests {
    let pipeline: ImagePipeline

    init() throws {
        pipeline = try ImagePipeline()
    }

    @Test("a JPEG with GPS in its EXIF and an XMP packet comes back at every size with no metadata block")
    func everySizeIsStripped() throws {
        let photo = try JPEGMetadata.inserting(
            exif: JPEGMetadata.exif(orientation: 1, description: "HOME-AT-48.8584N-2.2945E"),
            xmp: "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">SECRET-XMP-PACKET</x:xmpmeta>",
            into: pipeline.picture(width: 1200, height: 800))
        #expect(photo.range(of: Data("HOME-AT-48.8584N".utf8)) != nil, "the test's photo carries its metadata")
        #expect(photo.range(of: Data("SECRET-XMP-PACKET".utf8)) != nil)
        for (size, image) in try pipeline.sizes(of: photo) {
            for marker in ["Exif", "HOME-AT-48.8584N", "SECRET-XMP-PACKET", "http://ns.adobe.com/xap"] {
                #expect(image.data.range(of: Data(marker.utf8)) == nil, "\(size) still holds \(marker)")
            }
            #expect(!JPEGMetadata.segments(of: image.data).contains(0xE1), "\(size) has an APP1 segment")
            #expect(try pipeline.header(of: image.data).orientation == 1)
        }
    }

    @Test("EXIF orientation 6 of a 400×200 image is served 200×400, at every size")
    func orientationIsApplied() throws {
        let photo = try JPEGMetadata.inserting(
            exif: JPEGMetadata.exif(orientation: 6, description: "turned"), xmp: nil,
            into: pipeline.picture(width: 400, height: 200))
        #expect(try pipeline.header(of: photo).orientation == 6)
        let sizes = try pipeline.sizes(of: photo)
        #expect(sizes[.full]?.width == 200 && sizes[.full]?.height == 400)
        #expect(sizes[.medium]?.width == 200 && sizes[.medium]?.height == 400, "never enlarged")
        #expect(sizes[.thumb]?.width == 120 && sizes[.thumb]?.height == 240)
    }

    @Test("each size has its stated dimensions: the longest side 240, 960 and at most 2048, the shape kept")
    func sizesHaveTheirDimensions() throws {
        let sizes = try pipeline.sizes(of: pipeline.picture(width: 3000, height: 2000))
        #expect(sizes[.thumb].map { [$0.width, $0.height] } == [240, 160])
        #expect(sizes[.medium].map { [$0.width, $0.height] } == [960, 640])
        #expect(sizes[.full].map { [$0.width, $0.height] } == [2048, 1365])
        #expect(sizes.values.allSatisfy { $0.mediaType == "image/jpeg" })
        let png = try pipeline.sizes(of: pipeline.picture(width: 300, height: 500, format: .png))
        #expect(png[.thumb].map { [$0.width, $0.height] } == [144, 240])
        #expect(png[.full].map { [$0.width, $0.height] } == [300, 500], "a small photo stays its size")
    }

    @Test("a PNG declaring 50 000 × 50 000 is refused from its header, before a pixel is decoded")
    func tooManyPixelsIsRefusedFromTheHeader() throws {
        let bomb = PNGHeader.declaring(width: 50_000, height: 50_000)
        let started = ContinuousClock.now
        #expect(throws: ImageError.tooLarge(width: 50_000, height: 50_000)) { try pipeline.sizes(of: bomb) }
        #expect(ContinuousClock.now - started < .seconds(1), "refused at once")
        #expect(throws: ImageError.tooLarge(width: 40_001, height: 1_000)) {
            try pipeline.header(of: PNGHeader.declaring(width: 40_001, height: 1_000))
        }
    }

    @Test("an image that takes longer than the decode time limit is given up, and the pipeline goes on")
    func slowDecodeIsGivenUp() throws {
        let large = try pipeline.picture(width: 6000, height: 4000, format: .png)
        let hurried = try ImagePipeline(decodeTimeLimit: .milliseconds(1))
        #expect(throws: ImageError.tookTooLong) { try hurried.sizes(of: large) }
        #expect(try pipeline.sizes(of: large)[.full]?.width == 2048, "the next image is processed as usual")
    }

    @Test(
        "what is not a JPEG, PNG or WebP image is refused, also when it names itself one",
        arguments: [
            ("text", Data("just some text, named photo.jpg".utf8)),
            ("svg", Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>"#.utf8)),
            ("truncated jpeg", Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10])),
            ("empty", Data()),
        ])
    func notAnImageIsRefused(name: String, data: Data) {
        #expect(throws: ImageError.self, "\(name)") { try pipeline.sizes(of: data) }
    }
}

@Suite("Photos processed off the event loop, a bounded number at once")
struct PhotoProcessorTests {
    @Test(
        "past its capacity a photo is refused at once as busy; the admitted ones are processed, and the places come back"
    )
    func pastTheBoundIsBusy() async throws {
        let processor = try PhotoProcessor(capacity: 2)
        let photo = try ImagePipeline().picture(width: 4000, height: 3000)
        let outcomes = await withTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    do {
                        let sizes = try await processor.sizes(of: photo)
                        return sizes[.full]?.width == 2048 ? "done" : "wrong"
                    } catch ImageError.busy {
                        return "busy"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(outcomes.allSatisfy { $0 == "done" || $0 == "busy" }, "\(outcomes)")
        #expect(outcomes.contains("busy"), "eight at once, two places: some are refused")
        #expect((2...8).contains(outcomes.count { $0 == "done" }))
        #expect(processor.busyCount == 0, "every place is given back")
        #expect(try await processor.sizes(of: photo)[.thumb]?.width == 240)
    }
}
