import Foundation

/// Pictures of the demo catalogue's things, drawn in code (no file is shipped): a studio
/// backdrop, a shadow on the floor and the thing itself in the listing's colour. The demo data
/// uploads them as its photos, so the catalogue looks like one and every photo is the project's
/// own.
public enum DemoPicture: String, Sendable, CaseIterable {
    /// A road bike.
    case bike
    /// An espresso machine.
    case espressoMachine
    /// A guitar amplifier.
    case amplifier
    /// A crate of records.
    case records
    /// A desk lamp.
    case lamp
    /// A person: a profile photo.
    case portrait

    /// The picture whose thing a listing's title names (`Road bike`, `Desk lamp`), or `nil`.
    public static func named(by title: String) -> DemoPicture? {
        let words = Set(title.lowercased().split { !$0.isLetter }.map(String.init))
        let keywords: [(String, DemoPicture)] = [
            ("bike", .bike), ("bicycle", .bike), ("espresso", .espressoMachine), ("coffee", .espressoMachine),
            ("amplifier", .amplifier), ("amp", .amplifier), ("vinyl", .records), ("records", .records),
            ("record", .records), ("lamp", .lamp),
        ]
        return keywords.first { words.contains($0.0) }?.1
    }

    /// The picture as a PNG `width` pixels across (4:3), the thing in `colour`: 3 bytes a pixel
    /// (stored uncompressed, 1.4 MB at the default 800), from which the server makes JPEG sizes
    /// of a few dozen KB.
    public func png(colour: RGB, width: Int = 800) -> [UInt8] {
        var canvas = Canvas(
            width: width, height: width * 3 / 4, scale: Double(width) / 1200, top: RGB(241, 238, 233),
            bottom: RGB(211, 205, 197))
        switch self {
        case .bike: Self.drawBike(&canvas, colour)
        case .espressoMachine: Self.drawEspressoMachine(&canvas, colour)
        case .amplifier: Self.drawAmplifier(&canvas, colour)
        case .records: Self.drawRecords(&canvas, colour)
        case .lamp: Self.drawLamp(&canvas, colour)
        case .portrait: Self.drawPortrait(&canvas, colour)
        }
        return canvas.png()
    }

    /// Colours the demo gives its listings, in turn.
    public static let palette = [
        RGB(200, 62, 52), RGB(38, 110, 160), RGB(64, 140, 90), RGB(222, 160, 40), RGB(120, 80, 160),
        RGB(30, 30, 34),
    ]

    private static let tyre = RGB(36, 36, 38)
    private static let steel = RGB(186, 188, 194)

    private static func drawBike(_ canvas: inout Canvas, _ colour: RGB) {
        canvas.shadow(600, 735, rx: 440, ry: 30)
        for hub in [(360.0, 560.0), (840.0, 560.0)] {
            for spoke in 0..<12 {
                let angle = Double(spoke) * .pi / 6
                canvas.line(
                    hub.0, hub.1, hub.0 + 160 * cos(angle), hub.1 + 160 * sin(angle), thickness: 3, steel)
            }
            canvas.ring(hub.0, hub.1, radius: 166, thickness: 26, tyre)
            canvas.ring(hub.0, hub.1, radius: 150, thickness: 8, steel)
            canvas.circle(hub.0, hub.1, radius: 16, steel.darker(0.3))
        }
        let (rear, bracket, seat, headTop, headBottom, front) = (
            (360.0, 560.0), (565.0, 585.0), (505.0, 345.0), (805.0, 360.0), (785.0, 425.0), (840.0, 560.0)
        )
        for (a, b) in [(rear, bracket), (bracket, seat), (seat, rear), (seat, headTop), (bracket, headBottom)] {
            canvas.line(a.0, a.1, b.0, b.1, thickness: 22, colour)
        }
        canvas.line(headTop.0, headTop.1, headBottom.0, headBottom.1, thickness: 26, colour.darker(0.25))
        canvas.line(headBottom.0, headBottom.1, front.0, front.1, thickness: 16, colour.darker(0.1))
        canvas.line(seat.0, seat.1, 492, 300, thickness: 12, steel)
        canvas.rectangle(430, 282, 135, 26, radius: 13, tyre)
        canvas.line(805, 360, 795, 300, thickness: 12, steel)
        canvas.line(795, 300, 870, 296, thickness: 14, tyre)
        canvas.circle(bracket.0, bracket.1, radius: 36, steel.darker(0.2))
        canvas.line(bracket.0, bracket.1, 610, 650, thickness: 12, tyre)
        canvas.rectangle(590, 640, 50, 16, radius: 6, tyre)
    }

    private static func drawEspressoMachine(_ canvas: inout Canvas, _ colour: RGB) {
        canvas.shadow(600, 765, rx: 320, ry: 28)
        canvas.rectangle(380, 250, 440, 500, radius: 34, colour)
        canvas.rectangle(400, 270, 60, 460, radius: 20, colour.lighter(0.18))
        canvas.rectangle(366, 228, 468, 44, radius: 14, colour.darker(0.3))
        canvas.circle(600, 345, radius: 52, RGB(248, 246, 240))
        canvas.ring(600, 345, radius: 52, thickness: 10, steel.darker(0.2))
        canvas.line(600, 345, 628, 318, thickness: 5, RGB(200, 40, 40))
        canvas.rectangle(530, 440, 140, 44, radius: 10, steel)
        canvas.line(600, 500, 780, 528, thickness: 24, tyre)
        canvas.rectangle(560, 480, 80, 34, radius: 10, steel.darker(0.15))
        canvas.rectangle(410, 690, 380, 44, radius: 12, steel.darker(0.35))
        canvas.rectangle(556, 600, 88, 86, radius: 16, RGB(250, 250, 248))
        canvas.ring(654, 640, radius: 22, thickness: 11, RGB(250, 250, 248))
    }

    private static func drawAmplifier(_ canvas: inout Canvas, _ colour: RGB) {
        canvas.shadow(600, 765, rx: 370, ry: 28)
        canvas.rectangle(520, 262, 160, 34, radius: 17, tyre)
        canvas.rectangle(300, 290, 600, 460, radius: 26, RGB(38, 36, 40))
        canvas.rectangle(326, 312, 548, 64, radius: 10, RGB(214, 192, 130))
        for knob in 0..<6 {
            let x = 380 + Double(knob) * 84
            canvas.circle(x, 344, radius: 19, tyre)
            canvas.line(x, 344, x + 8, 330, thickness: 4, RGB(240, 240, 240))
        }
        canvas.rectangle(326, 396, 548, 330, radius: 14, colour.darker(0.35))
        for row in 0..<11 {
            for column in 0..<18 {
                canvas.circle(
                    354 + Double(column) * 29.5, 420 + Double(row) * 28.5, radius: 6, colour.darker(0.6))
            }
        }
        canvas.rectangle(720, 672, 120, 30, radius: 8, RGB(230, 222, 200))
    }

    private static func drawRecords(_ canvas: inout Canvas, _ colour: RGB) {
        canvas.shadow(600, 775, rx: 390, ry: 28)
        let labels = [RGB(220, 70, 60), RGB(240, 200, 70), RGB(70, 140, 200), RGB(240, 240, 230), RGB(90, 170, 110)]
        for (index, label) in labels.enumerated() {
            let x = 370 + Double(index) * 115
            let y = 430 - Double(index % 2) * 24
            canvas.circle(x, y, radius: 140, RGB(22, 22, 24))
            for groove in stride(from: 60.0, to: 136, by: 12) {
                canvas.ring(x, y, radius: groove, thickness: 1.5, RGB(48, 48, 52))
            }
            canvas.circle(x, y, radius: 46, label)
            canvas.circle(x, y, radius: 6, RGB(22, 22, 24))
        }
        canvas.rectangle(270, 440, 660, 320, radius: 18, colour)
        for slat in 0..<3 {
            let y = 520 + Double(slat) * 80
            canvas.line(290, y, 910, y, thickness: 6, colour.darker(0.3))
        }
        canvas.rectangle(540, 470, 120, 34, radius: 17, colour.darker(0.45))
    }

    private static func drawLamp(_ canvas: inout Canvas, _ colour: RGB) {
        canvas.shadow(600, 770, rx: 220, ry: 24)
        canvas.rectangle(470, 718, 260, 46, radius: 23, colour.darker(0.2))
        canvas.line(600, 725, 520, 470, thickness: 20, colour)
        canvas.circle(520, 470, radius: 22, steel)
        canvas.line(520, 470, 730, 320, thickness: 20, colour)
        canvas.circle(730, 320, radius: 20, steel)
        canvas.circle(820, 455, radius: 40, RGB(255, 238, 170))
        canvas.polygon([(690, 300), (770, 250), (900, 430), (770, 490)], colour.darker(0.1))
        canvas.polygon([(700, 310), (740, 285), (800, 380), (760, 400)], colour.lighter(0.2))
    }

    private static func drawPortrait(_ canvas: inout Canvas, _ colour: RGB) {
        canvas.rectangle(0, 0, 1200, 900, colour.lighter(0.55))  // in units: the whole picture
        canvas.rectangle(330, 600, 540, 420, radius: 200, colour)
        canvas.rectangle(540, 520, 120, 120, radius: 40, RGB(214, 170, 136))
        canvas.circle(600, 365, radius: 170, RGB(70, 48, 36))
        canvas.circle(600, 405, radius: 152, RGB(226, 184, 150))
        canvas.circle(545, 400, radius: 12, RGB(50, 40, 36))
        canvas.circle(655, 400, radius: 12, RGB(50, 40, 36))
        canvas.line(560, 470, 640, 470, thickness: 8, RGB(170, 100, 90))
    }
}
