import Foundation

/// Raw WebSocket frames (RFC 6455), for writing frames no WebSocket library would send and
/// reading the server's answer.
struct WebSocketFrame {
    /// The opcode: 0x1 text, 0x2 binary, 0x8 close, 0x9 ping, 0xA pong.
    var opcode: UInt8
    /// Whether this is the last fragment.
    var fin = true
    /// The payload.
    var payload: [UInt8] = []

    /// The close code, for a close frame that carries one.
    var closeCode: Int? {
        guard opcode == 0x8, payload.count >= 2 else { return nil }
        return Int(payload[0]) << 8 | Int(payload[1])
    }

    /// The frame's bytes; masked as a client must, unless `masked` is false. `claimedLength`
    /// writes a payload length other than the payload's real one (to lie about it).
    func encoded(masked: Bool = true, claimedLength: UInt64? = nil) -> Data {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let length = claimedLength ?? UInt64(payload.count)
        let maskBit: UInt8 = masked ? 0x80 : 0
        if length < 126 {
            bytes.append(maskBit | UInt8(length))
        } else if length <= UInt64(UInt16.max) {
            bytes.append(maskBit | 126)
            bytes += [UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            bytes += (0..<8).reversed().map { UInt8(length >> (UInt64($0) * 8) & 0xFF) }
        }
        if masked {
            let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
            bytes += key
            bytes += payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
        } else {
            bytes += payload
        }
        return Data(bytes)
    }

    /// The complete server frames (unmasked, as a server sends them) at the start of `bytes`.
    static func serverFrames(in bytes: [UInt8]) -> [WebSocketFrame] {
        var frames: [WebSocketFrame] = []
        var index = 0
        while bytes.count - index >= 2 {
            let first = bytes[index]
            var length = Int(bytes[index + 1] & 0x7F)
            var headerLength = 2
            if length == 126 {
                guard bytes.count - index >= 4 else { break }
                length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
                headerLength = 4
            } else if length == 127 {
                guard bytes.count - index >= 10 else { break }
                length = (2..<10).reduce(0) { $0 << 8 | Int(bytes[index + $1]) }
                headerLength = 10
            }
            guard length >= 0, bytes.count - index - headerLength >= length else { break }
            let start = index + headerLength
            frames.append(
                WebSocketFrame(
                    opcode: first & 0x0F, fin: first & 0x80 != 0, payload: Array(bytes[start..<start + length])))
            index = start + length
        }
        return frames
    }

    /// The opening handshake for `target`, authenticated with `?token=` or an `Authorization` header.
    static func handshake(path: String, token: String, inQuery: Bool) -> Data {
        var request = "GET \(path)\(inQuery ? "?token=\(token)" : "") HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        request += "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        request += "Sec-WebSocket-Version: 13\r\n"
        if !inQuery { request += "Authorization: Bearer \(token)\r\n" }
        return Data((request + "\r\n").utf8)
    }
}
