import BazaarAPI
import BazaarImages
import DemoPictures
import Foundation
import Testing

@Suite("The demo catalogue's pictures")
struct DemoPictureTests {
    @Test("each picture is a PNG the photo pipeline takes, 4:3 at the width asked for")
    func picturesDecode() throws {
        let pipeline = try ImagePipeline()
        for picture in DemoPicture.allCases {
            let png = Data(picture.png(colour: DemoPicture.palette[0], width: 400))
            let header = try pipeline.header(of: png)
            #expect(header.width == 400 && header.height == 300, "\(picture)")
            #expect(header.format == .png)
            #expect(try pipeline.sizes(of: png)[.thumb]?.width == 240)
        }
    }

    @Test("a title names its picture by whole words: a desk lamp is a lamp, not an amp")
    func titlesNameTheirPicture() {
        #expect(DemoPicture.named(by: "Desk lamp") == .lamp)
        #expect(DemoPicture.named(by: "Guitar amplifier") == .amplifier)
        #expect(DemoPicture.named(by: "Vinyl records (box)") == .records)
        #expect(DemoPicture.named(by: "Road bike") == .bike)
        #expect(DemoPicture.named(by: "Espresso machine") == .espressoMachine)
        #expect(DemoPicture.named(by: "Sofa") == nil)
    }
}
