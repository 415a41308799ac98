/// A colour: red, green and blue, 0 to 1 each.
public struct RGB: Sendable, Equatable {
    /// Red.
    public var red: Double
    /// Green.
    public var green: Double
    /// Blue.
    public var blue: Double

    /// A colour from 0-255 channels.
    public init(_ red: Int, _ green: Int, _ blue: Int) {
        self.red = Double(red) / 255
        self.green = Double(green) / 255
        self.blue = Double(blue) / 255
    }

    init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// This colour moved `share` (0 to 1) of the way to `other`.
    public func mixed(with other: RGB, _ share: Double) -> RGB {
        RGB(
            red: red + (other.red - red) * share, green: green + (other.green - green) * share,
            blue: blue + (other.blue - blue) * share)
    }

    /// Darker by `share` (0 to 1).
    public func darker(_ share: Double) -> RGB { mixed(with: RGB(0, 0, 0), share) }
    /// Lighter by `share` (0 to 1).
    public func lighter(_ share: Double) -> RGB { mixed(with: RGB(255, 255, 255), share) }
}

/// A picture drawn in code: shapes with soft (anti-aliased) edges, each described by its signed
/// distance (negative inside), on RGB pixels. Shapes are given in units that ``scale`` turns into
/// pixels, so one drawing serves every size.
public struct Canvas: Sendable {
    /// Pixels across.
    public let width: Int
    /// Pixels down.
    public let height: Int
    /// Pixels per unit of the coordinates shapes are given in.
    public let scale: Double
    private var pixels: [Double]

    /// A canvas of `width` × `height` pixels, `scale` pixels a unit, filled with a vertical
    /// gradient from `top` to `bottom`.
    public init(width: Int, height: Int, scale: Double = 1, top: RGB, bottom: RGB) {
        self.width = width
        self.height = height
        self.scale = scale
        pixels = [Double](repeating: 0, count: width * height * 3)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                let colour = top.mixed(with: bottom, Double(y) / Double(max(1, height - 1)))
                var index = y * width * 3
                for _ in 0..<width {
                    buffer[index] = colour.red
                    buffer[index + 1] = colour.green
                    buffer[index + 2] = colour.blue
                    index += 3
                }
            }
        }
    }

    /// Paints `colour` at `opacity` wherever `distance` (a signed distance from a point, in
    /// pixels) is negative, feathered over `soft` pixels at the edge, within `bounds`.
    public mutating func paint(
        _ colour: RGB, opacity: Double = 1, soft: Double = 1, bounds: (x: ClosedRange<Double>, y: ClosedRange<Double>),
        _ distance: (Double, Double) -> Double
    ) {
        let xs = max(0, Int(bounds.x.lowerBound - soft - 1))...min(width - 1, Int(bounds.x.upperBound + soft + 1))
        let ys = max(0, Int(bounds.y.lowerBound - soft - 1))...min(height - 1, Int(bounds.y.upperBound + soft + 1))
        guard !xs.isEmpty, !ys.isEmpty else { return }
        let width = self.width
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in ys {
                for x in xs {
                    let d = distance(Double(x) + 0.5, Double(y) + 0.5)
                    let coverage = min(1, max(0, 0.5 - d / soft)) * opacity
                    guard coverage > 0 else { continue }
                    let index = (y * width + x) * 3
                    buffer[index] += (colour.red - buffer[index]) * coverage
                    buffer[index + 1] += (colour.green - buffer[index + 1]) * coverage
                    buffer[index + 2] += (colour.blue - buffer[index + 2]) * coverage
                }
            }
        }
    }

    /// A filled circle.
    public mutating func circle(_ cx: Double, _ cy: Double, radius: Double, _ colour: RGB, opacity: Double = 1) {
        let (cx, cy, radius) = (cx * scale, cy * scale, radius * scale)
        paint(colour, opacity: opacity, bounds: (cx - radius...cx + radius, cy - radius...cy + radius)) { x, y in
            ((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot() - radius
        }
    }

    /// A ring of `thickness` around a circle of `radius`.
    public mutating func ring(_ cx: Double, _ cy: Double, radius: Double, thickness: Double, _ colour: RGB) {
        let (cx, cy, radius, thickness) = (cx * scale, cy * scale, radius * scale, thickness * scale)
        let outer = radius + thickness / 2
        paint(colour, bounds: (cx - outer...cx + outer, cy - outer...cy + outer)) { x, y in
            abs(((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot() - radius) - thickness / 2
        }
    }

    /// A line of `thickness` from one point to another, with round ends.
    public mutating func line(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, thickness: Double, _ colour: RGB
    ) {
        let (x1, y1, x2, y2, thickness) = (x1 * scale, y1 * scale, x2 * scale, y2 * scale, thickness * scale)
        let (dx, dy) = (x2 - x1, y2 - y1)
        let length = max(dx * dx + dy * dy, 0.0001)
        let pad = thickness / 2
        paint(colour, bounds: (min(x1, x2) - pad...max(x1, x2) + pad, min(y1, y2) - pad...max(y1, y2) + pad)) { x, y in
            let t = min(1, max(0, ((x - x1) * dx + (y - y1) * dy) / length))
            let (px, py) = (x1 + t * dx - x, y1 + t * dy - y)
            return (px * px + py * py).squareRoot() - pad
        }
    }

    /// A rectangle with corners rounded by `radius`.
    public mutating func rectangle(
        _ x: Double, _ y: Double, _ w: Double, _ h: Double, radius: Double = 0, _ colour: RGB, opacity: Double = 1
    ) {
        let (x, y, w, h, radius) = (x * scale, y * scale, w * scale, h * scale, radius * scale)
        let (cx, cy, hx, hy) = (x + w / 2, y + h / 2, w / 2 - radius, h / 2 - radius)
        paint(colour, opacity: opacity, bounds: (x...x + w, y...y + h)) { px, py in
            let qx = abs(px - cx) - hx
            let qy = abs(py - cy) - hy
            let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
            return outside + min(max(qx, qy), 0) - radius
        }
    }

    /// A filled convex polygon, its corners in order (either way round).
    public mutating func polygon(_ corners: [(Double, Double)], _ colour: RGB) {
        guard corners.count >= 3 else { return }
        let corners = corners.map { ($0.0 * scale, $0.1 * scale) }
        let xs = corners.map(\.0)
        let ys = corners.map(\.1)
        // Which side is inside: the sign of the polygon's area.
        var area = 0.0
        for (index, a) in corners.enumerated() {
            let b = corners[(index + 1) % corners.count]
            area += a.0 * b.1 - b.0 * a.1
        }
        let orientation: Double = area > 0 ? 1 : -1
        paint(colour, bounds: (xs.min()!...xs.max()!, ys.min()!...ys.max()!)) { x, y in
            var distance = -Double.infinity
            for (index, a) in corners.enumerated() {
                let b = corners[(index + 1) % corners.count]
                let (ex, ey) = (b.0 - a.0, b.1 - a.1)
                let length = max((ex * ex + ey * ey).squareRoot(), 0.0001)
                // Distance to the edge's line, positive outside.
                distance = max(distance, orientation * ((x - a.0) * ey - (y - a.1) * ex) / length)
            }
            return distance
        }
    }

    /// A soft ellipse: a shadow on the floor.
    public mutating func shadow(_ cx: Double, _ cy: Double, rx: Double, ry: Double, opacity: Double = 0.35) {
        let (cx, cy, rx, ry) = (cx * scale, cy * scale, rx * scale, ry * scale)
        paint(RGB(0, 0, 0), opacity: opacity, soft: ry, bounds: (cx - rx...cx + rx, cy - ry...cy + ry)) { x, y in
            let nx = (x - cx) / rx
            let ny = (y - cy) / ry
            return ((nx * nx + ny * ny).squareRoot() - 1) * ry
        }
    }

    /// The picture as a PNG file.
    public func png() -> [UInt8] {
        let bytes = [UInt8](unsafeUninitializedCapacity: pixels.count) { buffer, count in
            pixels.withUnsafeBufferPointer { source in
                for index in 0..<source.count {
                    buffer[index] = UInt8(max(0, min(255, source[index] * 255 + 0.5)))
                }
            }
            count = pixels.count
        }
        return PNGEncoder.encode(width: width, height: height, rgb: bytes)
    }
}
