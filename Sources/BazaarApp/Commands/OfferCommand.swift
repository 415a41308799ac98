import ArgumentParser
import BazaarAPI
import ConsoleKitTerminal
import Dependencies
import Foundation
import TerminalUI

/// `bazaar offer list | make | accept | decline | withdraw`: offers inside a conversation, the
/// same moves `bazaar chat open` takes as /offer, /accept, /decline and /withdraw.
struct OfferCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offer", abstract: "Make, accept, decline or withdraw offers in a conversation.",
        discussion: """
            The buyer offers; the seller accepts (the product is then reserved for the buyer) or
            declines; the buyer may withdraw an open offer. Without an offer id, a decision is about
            the newest offer it can be taken on.

            Examples:
              bazaar offer list 9d4b…
              bazaar offer make 9d4b… 120
              bazaar offer accept 9d4b…
              bazaar offer withdraw 9d4b… 5e7f…
            """,
        subcommands: [List.self, Make.self, Accept.self, Decline.self, Withdraw.self], defaultSubcommand: List.self)

    /// `bazaar offer list CONVERSATION`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The offers in a conversation, newest first, and which decisions are yours.")
        @Argument(help: "The conversation's id, or a unique prefix of one shown here.") var conversation: String
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await OfferCommand.perform(.load, in: conversation, options: options, doing: "Loading the offers")
        }
    }

    /// `bazaar offer make CONVERSATION AMOUNT`.
    struct Make: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Offer a price for the conversation's product (it replaces your open offer).")
        @Argument(help: "The conversation's id, or a unique prefix of one shown here.") var conversation: String
        @Argument(help: "The amount in the product's currency, such as 120 or 99.50.") var amount: String

        @OptionGroup var options: GlobalOptions

        func validate() throws {
            guard let cents = Price.cents(from: amount), cents > 0 else {
                throw ValidationError("the amount must be a positive price such as 120 or 99.50")
            }
        }

        func run() async throws {
            let cents = Price.cents(from: amount) ?? 0
            try await OfferCommand.perform(
                .make(amountCents: cents), in: conversation, options: options, doing: "Making the offer")
        }
    }

    /// `bazaar offer accept CONVERSATION [OFFER]`.
    struct Accept: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Accept an offer (as the seller): the product is reserved for that buyer.")
        @OptionGroup var decision: DecisionArguments
        func run() async throws { try await decision.take(.accept) }
    }

    /// `bazaar offer decline CONVERSATION [OFFER]`.
    struct Decline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decline an offer (as the seller).")
        @OptionGroup var decision: DecisionArguments
        func run() async throws { try await decision.take(.decline) }
    }

    /// `bazaar offer withdraw CONVERSATION [OFFER]`.
    struct Withdraw: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take back your open offer (as the buyer).")
        @OptionGroup var decision: DecisionArguments
        func run() async throws { try await decision.take(.withdraw) }
    }

    /// What every decision takes: the conversation and, optionally, the offer.
    struct DecisionArguments: ParsableArguments {
        @Argument(help: "The conversation's id, or a unique prefix of one shown here.") var conversation: String
        @Argument(help: "The offer's id or a prefix of it; the newest one this decision fits if left out.")
        var offer: String?
        @OptionGroup var options: GlobalOptions

        func take(_ decision: OfferDecision) async throws {
            try await OfferCommand.run(in: conversation, options: options) { context, logic in
                let loaded = try await context.output.loading("Loading the offers") { await logic.send(.load) }
                    .content()
                let card = try OfferMoves.target(of: decision, idPrefix: offer, in: loaded)
                return try await context.output.loading("Sending") {
                    await logic.send(.decide(decision, offerID: card.id))
                }.content()
            }
        }
    }

    /// Loads the conversation's offers, performs `action`, and prints what it left.
    static func perform(_ action: OffersAction, in conversation: String, options: GlobalOptions, doing: String)
        async throws
    {
        try await run(in: conversation, options: options) { context, logic in
            try await context.output.loading(doing) { await logic.send(action) }.content()
        }
    }

    /// Signs in, resolves the conversation, lets `body` act on its offers, and prints the result.
    static func run(
        in conversation: String, options: GlobalOptions,
        _ body: (AppContext, any OffersLogic) async throws -> OffersContent
    ) async throws {
        try await AppCommand.run(options) { context in
            try await context.startSignedIn()
            let conversationID = try context.ids.resolve(conversation, what: "conversation")
            let logic = try context.dependencies.offersModule.offersScreen(conversationID: conversationID).logic
            let content = try await body(context, logic)
            context.ids.record(content.offers.map(\.id))
            if context.json { return try context.printJSON(content.offers) }
            context.output.write(OffersRenderer().lines(for: content, width: context.output.capabilities.width))
        }
    }
}

/// Turning a person's "accept" (with or without an offer id) into the offer it means; shared by
/// `bazaar offer` and the chat's slash commands.
enum OfferMoves {
    /// The card `decision` is about, or an ``AppError`` saying why there is none.
    static func target(of decision: OfferDecision, idPrefix: String?, in content: OffersContent) throws(AppError)
        -> OfferCard
    {
        if let card = content.target(of: decision, idPrefix: idPrefix) { return card }
        if let idPrefix, !content.offers.contains(where: { $0.id.hasPrefix(idPrefix) }) {
            throw AppError(.notFound, "no offer in this conversation starts with \(idPrefix)")
        }
        throw AppError(.refused, "no offer here can be \(decision.pastTense) by you now")
    }
}

extension OfferDecision {
    /// "accepted", "declined", "withdrawn".
    var pastTense: String {
        switch self {
        case .accept: "accepted"
        case .decline: "declined"
        case .withdraw: "withdrawn"
        }
    }
}
