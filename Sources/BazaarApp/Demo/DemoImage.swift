import DemoPictures
import Foundation

/// The demo's pictures: drawn by the project's own code (``DemoPicture``), so every photo the
/// demo uploads is a real image the server decodes and sizes.
enum DemoImage {
    /// A profile photo: a portrait, about 1.4 MB as PNG, so the upload's progress bar has
    /// something to show.
    static func portrait(_ colour: RGB = DemoPicture.palette[1]) -> Data {
        Data(DemoPicture.portrait.png(colour: colour))
    }

    /// A photo of what `title` names (a box of records when it names nothing the demo draws).
    static func product(titled title: String, colour: RGB) -> Data {
        Data((DemoPicture.named(by: title) ?? .records).png(colour: colour))
    }
}
