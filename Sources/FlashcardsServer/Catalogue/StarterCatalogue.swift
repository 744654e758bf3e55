import FlashcardsCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// Publishes ``StarterDecks`` once per database, as the account "Smart Flashcards" (which nobody
/// can sign in to: its password is a random secret that is thrown away). All of it is one
/// transaction, claimed by a `server_settings` row, so that two instances starting at once on one
/// PostgreSQL publish it once, and a crash leaves nothing half-written.
enum StarterCatalogue {
    static let settingKey = "starter_catalogue"
    static let mail = "katalog@smart-flashcards.invalid"

    static func seedIfNeeded(_ store: any StudyStore, logger: Logger, now: Date = Date()) async throws {
        let database = store.db
        if try await ServerSettingModel.find(settingKey, on: database) != nil { return }
        do {
            try await store.modelTransaction { tx in
                try await ServerSettingModel(key: settingKey, value: ISO8601DateFormatter().string(from: now))
                    .create(on: tx.db)
                try await seed(tx, now: now)
            }
            logger.info("Published the starter catalogue (\(StarterDecks.all.count) decks)")
        } catch {
            // Another instance published it first; anything else is a real failure.
            guard try await ServerSettingModel.find(settingKey, on: database) != nil else { throw error }
        }
    }

    private static func seed(_ tx: any ModelTransaction, now: Date) async throws {
        let db = tx.db
        let secret = [UInt8].random(count: 32).base64
        let user = UserModel(
            id: UUID(), name: "Smart Flashcards", mail: mail, passwordHash: try Bcrypt.hash(secret, cost: 8),
            timeZone: "Europe/Berlin", createdAt: now)
        try await user.create(on: db)
        for deck in StarterDecks.all {
            let stack = StackModel(uniqueId: UUID(), userId: user.id!, name: deck.name, color: deck.color, now: now)
            stack.description = deck.description
            stack.icon = deck.icon.rawValue
            stack.settings = StackSettings(scheduler: .fsrs)
            try await stack.create(on: db)
            for (index, card) in deck.cards.enumerated() {
                // A second apart, so the preview and the copies keep the written order.
                try await CardModel(
                    uniqueId: UUID(), stackId: stack.id!, userId: user.id!, question: card.question,
                    answer: card.answer,
                    hint: nil, now: now.addingTimeInterval(Double(index)), format: deck.format
                ).create(on: db)
            }
            try await CatalogueService.insertEntry(
                id: UUID(), stack: stack, category: deck.category, language: deck.language, official: true, now: now,
                in: tx.catalogue)
        }
    }
}
