import Testing

@testable import BazaarServer

/// The rule for a request the HTTP parser rejects, without a socket: the `400` waits for the
/// answers owed to the requests that arrived whole before it (the black-box side, over raw TCP,
/// is in ``ErrorStatusTests``).
@Suite("A rejected request is answered after the ones before it")
struct PipelinedRejectionTests {
    /// One step of a connection, and what the rule decides after it.
    enum Step {
        case requestEnded
        case responseEnded(PipelinedRejection.Decision)
        case parseFailed(responseInProgress: Bool, PipelinedRejection.Decision)
    }

    static let cases: [(String, [Step])] = [
        (
            "a parse error on a quiet connection is answered at once",
            [.parseFailed(responseInProgress: false, .answerAndClose)]
        ),
        (
            "two pipelined requests are answered first",
            [
                .requestEnded, .requestEnded, .parseFailed(responseInProgress: false, .wait), .responseEnded(.wait),
                .responseEnded(.answerAndClose),
            ]
        ),
        (
            "a response being written is finished first",
            [.requestEnded, .parseFailed(responseInProgress: true, .wait), .responseEnded(.answerAndClose)]
        ),
        (
            "a request the router already answered (an early 413) is only closed",
            [
                .requestEnded, .responseEnded(.wait), .responseEnded(.wait),
                .parseFailed(responseInProgress: false, .close),
            ]
        ),
        (
            "after the decision nothing more is decided",
            [.parseFailed(responseInProgress: false, .answerAndClose), .requestEnded, .responseEnded(.wait)]
        ),
        (
            "answers without a parse error decide nothing",
            [.requestEnded, .responseEnded(.wait), .requestEnded, .responseEnded(.wait)]
        ),
    ]

    @Test(arguments: cases)
    func decidesWhenTheAnswersBeforeItAreOut(_ name: String, _ steps: [Step]) {
        var rule = PipelinedRejection()
        for (index, step) in steps.enumerated() {
            switch step {
            case .requestEnded:
                rule.requestEnded()
            case .responseEnded(let expected):
                #expect(rule.responseEnded() == expected, "\(name): step \(index)")
            case .parseFailed(let inProgress, let expected):
                #expect(rule.parseFailed(responseInProgress: inProgress) == expected, "\(name): step \(index)")
            }
        }
    }

    @Test func aSecondParseErrorIsNotTheRulesToAnswer() {
        var rule = PipelinedRejection()
        rule.requestEnded()
        #expect(!rule.hasFailed)
        #expect(rule.parseFailed(responseInProgress: false) == .wait)
        #expect(rule.hasFailed)
        #expect(rule.parseFailed(responseInProgress: false) == .wait)
        #expect(rule.responseEnded() == .answerAndClose)
    }
}
