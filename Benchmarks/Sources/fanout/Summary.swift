import ArgumentParser
import AsyncHTTPClient
import BazaarAPI
import BenchSupport
import Foundation
import Logging
import NIOCore
import Synchronization
import WSClient

#if canImport(Glibc)
    import Glibc
#endif

/// What one run found, and its printed form.
struct Summary: Sendable {
    let clients: Int
    let users: Int
    let devices: Int
    let conversations: Int
    let intervalMs: Double
    let warmup: Int
    let sent: Int
    let sendFailures: [String]
    let expected: Int
    let received: Int
    let duplicates: Int
    let unknownFrames: Int
    /// Frames of other kinds (the recipient's notification.created), not deliveries.
    let otherEvents: Int
    let socketFailures: [String]
    let delivery: Percentiles
    let send: Percentiles
    let afterAnswer: Percentiles
    let sendWindow: Duration
    let cpu: CPUShare

    /// Every send went out, every delivery arrived once, no socket failed.
    var passed: Bool {
        sendFailures.isEmpty && received == expected && duplicates == 0 && socketFailures.isEmpty
    }

    /// The table printed on standard output.
    var report: String {
        func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }
        let seconds = sendWindow / .seconds(1)
        var lines = [
            "fanout: \(clients) sockets = \(users) users × \(devices) socket(s), \(conversations) conversations; "
                + "\(2 * devices) sockets per message",
            String(
                format: "sends: one every %.2f ms (%.0f msg/s achieved), %d warm-up not counted", intervalMs,
                Double(sent + warmup) / max(seconds, 1e-9), warmup),
            "",
            "| messages sent | send failures | expected deliveries | received | lost | duplicates |",
            "| ---: | ---: | ---: | ---: | ---: | ---: |",
            "| \(sent) | \(sendFailures.count) | \(expected) | \(received) | \(expected - received) | \(duplicates) |",
            "",
            "| latency | p50 | p90 | p99 | p99.9 | max | samples |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
            "| delivery (send → socket) | \(ms(delivery.at(50))) | \(ms(delivery.at(90))) | \(ms(delivery.at(99))) | "
                + "\(ms(delivery.at(99.9))) | \(ms(delivery.max)) | \(delivery.count) |",
            "| HTTP send (→ 201) | \(ms(send.at(50))) | \(ms(send.at(90))) | \(ms(send.at(99))) | "
                + "\(ms(send.at(99.9))) | \(ms(send.max)) | \(send.count) |",
            "| frame after the 201 (may be < 0) | \(ms(afterAnswer.at(50))) | \(ms(afterAnswer.at(90))) | "
                + "\(ms(afterAnswer.at(99))) | \(ms(afterAnswer.at(99.9))) | \(ms(afterAnswer.max)) | \(afterAnswer.count) |",
        ]
        lines.append("")
        lines.append(cpu.description)
        lines.append("other frames received (notification.created, not counted above): \(otherEvents)")
        if unknownFrames > 0 { lines.append("unrecognised frames: \(unknownFrames)") }
        for failure in sendFailures.prefix(3) { lines.append("send failure: \(failure)") }
        for failure in socketFailures.prefix(3) { lines.append("socket failure: \(failure)") }
        return lines.joined(separator: "\n")
    }
}
