import Foundation

extension MalformedCase {
    /// Broken and truncated frames on `/v1/events` after a valid upgrade.
    static let webSocketCases: [MalformedCase] = [
        webSocket("half a frame header, then hang up (?token=)", Data([0x81]), tokenInQuery: true, then: .hangUp),
        webSocket(
            "half a frame header, then hang up (Authorization)", Data([0x82, 0xFE]), tokenInQuery: false, then: .hangUp),
        webSocket(
            "a frame claiming 2^63-1 bytes, then hang up",
            WebSocketFrame(opcode: 0x2, payload: [1, 2, 3]).encoded(claimedLength: UInt64(Int64.max)),
            tokenInQuery: true, then: .hangUp),
        webSocket(
            "a frame claiming 2^64-1 bytes",
            WebSocketFrame(opcode: 0x2, payload: [1, 2, 3]).encoded(claimedLength: UInt64.max),
            tokenInQuery: false, then: .expectClose),
        webSocket(
            "a frame claiming 1 GiB, 64 KiB of it sent",
            WebSocketFrame(opcode: 0x2, payload: [UInt8](repeating: 0x61, count: 64 << 10)).encoded(
                claimedLength: 1 << 30),
            tokenInQuery: true, then: .expectClose),
        webSocket(
            "an unmasked client frame",
            WebSocketFrame(opcode: 0x1, payload: Array("hello".utf8)).encoded(masked: false),
            tokenInQuery: true, then: .expectCloseCode(1002)),
        webSocket(
            "a reserved opcode (0x3)", WebSocketFrame(opcode: 0x3, payload: [1]).encoded(), tokenInQuery: false,
            then: .expectClose),
        webSocket(
            "a fragmented ping", WebSocketFrame(opcode: 0x9, fin: false, payload: [1]).encoded(), tokenInQuery: true,
            then: .expectClose),
        webSocket(
            "a text frame of invalid UTF-8", WebSocketFrame(opcode: 0x1, payload: [0xC3, 0x28, 0xFF]).encoded(),
            tokenInQuery: true, then: .expectCloseCode(1007)),
        webSocket(
            "a whole frame of 20 KiB (the limit is 16 KiB)",
            WebSocketFrame(opcode: 0x2, payload: [UInt8](repeating: 0x61, count: 20 << 10)).encoded(),
            tokenInQuery: false,
            then: .expectCloseCode(1009)),
        // Parsed as a frame header, these bytes announce an unmasked frame longer than what
        // follows; the server waits for the rest, and the ping timeout closes the socket.
        webSocket(
            "HTTP garbage instead of frames", Data("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".utf8), tokenInQuery: false,
            then: .observe),
        unansweredPings,
        slowReader(messages: 1500),
    ]

    /// Upgrades `/v1/events`, then sends `bytes` and does `then`.
    static func webSocket(_ name: String, _ bytes: Data, tokenInQuery: Bool, then: WebSocketProbe.Then) -> MalformedCase
    {
        MalformedCase(name: "WebSocket: \(name)", expectation: .judgedByCase) { context in
            try await WebSocketProbe.run(bytes, context: context, tokenInQuery: tokenInQuery, then: then)
        }
    }
}
