import FlashcardsAPI
import FlashcardsClient
import Foundation
import Testing
import Vapor

@testable import FlashcardsServer

/// Read-only links to a stack (issue 20): anyone with the link sees its cards, a learner copies it
/// with new progress, and a revoked link stops working at once.
@Suite("Sharing a stack by link")
struct ShareLinkTests {
    @Test("share, view without an account, copy with new progress, revoke", arguments: TestDatabase.available)
    func story(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { ada, url in
                try await ada.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await ada.createStack(name: "Chemie", color: "#DC2626")
                let rich = try await ada.createCard(
                    in: stack.id, question: "Was ist **pH**?", answer: "$-\\log a$", hint: "Säure", format: .markdown)
                _ = try await ada.createCard(in: stack.id, question: "H2O?", answer: "Wasser")
                _ = try await ada.rate(rich.id, in: stack.id, rating: .good)
                let secret = try await ada.createStack(name: "Geheim", color: "#059669")

                // Not shared yet.
                await #expect(throws: FlashcardsError.self) { _ = try await ada.shareLink(of: stack.id) }
                let link = try await ada.share(stack.id)
                #expect(link.token.count == 43 && link.path == "/app/shared/" + link.token)
                #expect(try await ada.share(stack.id) == link, "sharing again answers the same link")
                #expect(try await ada.shareLink(of: stack.id) == link)

                // Anyone with the link, without an account: the texts, never the learning state.
                let anonymous = FlashcardsClient(baseURL: url)
                let shared = try await anonymous.sharedStack(token: link.token)
                #expect(shared.name == "Chemie" && shared.color == "#DC2626" && shared.cardCount == 2)
                #expect(shared.cards.items.map(\.question) == ["Was ist **pH**?", "H2O?"])
                #expect(shared.cards.items[0].rendered?.question == "<p>Was ist <strong>pH</strong>?</p>")
                #expect(try await anonymous.sharedStack(token: link.token, page: 2, perPage: 1).cards.items.count == 1)

                // Another learner copies it: their own stack, every card new.
                let bea = FlashcardsClient(baseURL: url)
                try await bea.signup(name: "Bea", mail: "bea@example.org", password: "correct horse")
                await #expect(throws: FlashcardsError.self) {
                    _ = try await anonymous.copySharedStack(token: link.token)
                }
                let copy = try await bea.copySharedStack(token: link.token)
                #expect(copy.name == "Chemie" && copy.color == "#DC2626" && copy.cardCount == 2 && copy.dueCount == 2)
                let copied = try await bea.cards(in: copy.id).items
                #expect(copied.map(\.question) == ["Was ist **pH**?", "H2O?"])
                #expect(copied.allSatisfy { $0.state == .new && $0.reviewCount == 0 })
                #expect(copied[0].format == .markdown && copied[0].hint == "Säure")
                // Bea cannot touch Ada's stack or its link.
                await #expect(throws: FlashcardsError.self) { _ = try await bea.shareLink(of: stack.id) }
                await #expect(throws: FlashcardsError.self) { try await bea.stopSharing(stack.id) }
                await #expect(throws: FlashcardsError.self) { _ = try await bea.share(secret.id) }

                // Revoked: the link stops working at once, for viewing and copying; a new one is new.
                try await ada.stopSharing(stack.id)
                for attempt in [
                    { _ = try await anonymous.sharedStack(token: link.token) },
                    { _ = try await bea.copySharedStack(token: link.token) },
                ] as [() async throws -> Void] {
                    do {
                        try await attempt()
                        Issue.record("a revoked link still works")
                    } catch let error as FlashcardsError {
                        #expect(error.code == "share_not_found")
                    }
                }
                let again = try await ada.share(stack.id)
                #expect(again.token != link.token)
                // Bea's copy is hers: it stays when Ada deletes the stack.
                try await ada.deleteStack(stack.id)
                await #expect(throws: FlashcardsError.self) { _ = try await anonymous.sharedStack(token: again.token) }
                #expect(try await bea.cards(in: copy.id).items.count == 2)
                // Tokens that are not ours, or other stacks' ids, find nothing.
                for token in ["", "x", String(repeating: "A", count: 43), secret.id.uuidString] {
                    await #expect(throws: FlashcardsError.self) { _ = try await anonymous.sharedStack(token: token) }
                }
            }
        }
    }
}
