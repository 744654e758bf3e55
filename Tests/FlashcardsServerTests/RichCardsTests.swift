import FlashcardsAPI
import FlashcardsClient
import Foundation
import Testing
import Vapor

@testable import FlashcardsServer

/// Cards with formatting and formulas (issue 20): stored as written, rendered as sanitised HTML on
/// `/api/v1`, shown as plain text to the original API's clients.
@Suite("Rich cards: Markdown and formulas")
struct RichCardsTests {
    @Test("a rich card is rendered on /api/v1 and plain on the original API", arguments: TestDatabase.available)
    func richCard(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "Chemie", color: "#059669")
                let card = try await client.createCard(
                    in: stack.id, question: "Was ist **pH**?",
                    answer: "Der negative Logarithmus: $pH = -\\log_{10} a_{H^+}$\n\n- sauer < 7\n- basisch > 7",
                    hint: "Denk an *Wasserstoff*", format: .markdown)
                #expect(card.format == .markdown)
                #expect(card.question == "Was ist **pH**?", "the source is kept as written")
                let rendered = try #require(card.rendered)
                #expect(rendered.question == "<p>Was ist <strong>pH</strong>?</p>")
                #expect(
                    rendered.answer
                        == "<p>Der negative Logarithmus: <span class=\"math\">pH = -\\log_{10} a_{H^+}</span></p>"
                        + "<ul><li>sauer &lt; 7</li><li>basisch &gt; 7</li></ul>")
                #expect(rendered.hint == "<p>Denk an <em>Wasserstoff</em></p>")

                // A plain card stays as it was: no rendering, text as written.
                let plain = try await client.createCard(in: stack.id, question: "2 * 3 * 4", answer: "**24**")
                #expect(plain.format == .plain && plain.rendered == nil)

                // The card list and the learning path carry the rendering; a hidden hint stays hidden.
                let listed = try await client.cards(in: stack.id)
                #expect(listed.items.first { $0.id == card.id }?.rendered == rendered)
                _ = try await client.updateStack(stack.id, hintsEnabled: false)
                let next = try await client.nextCard(in: stack.id)
                #expect(next.card?.id == card.id)
                #expect(next.card?.rendered?.hint == nil && next.card?.rendered?.question == rendered.question)

                // The original API shows plain text: formatting dropped, formulas as LaTeX.
                let compat = try await client.compat.card(
                    stackId: stack.id.uuidString.lowercased(), cardId: card.id.uuidString.lowercased())
                #expect(compat.question == "Was ist pH?")
                #expect(
                    compat.answer == "Der negative Logarithmus: pH = -\\log_{10} a_{H^+}\n\n- sauer < 7\n- basisch > 7")
                #expect(compat.hint == "Denk an Wasserstoff")
                // Sending the texts back unchanged keeps the card rich; changing them makes it plain.
                _ = try await client.compat.updateCard(
                    stackId: stack.id.uuidString.lowercased(), cardId: card.id.uuidString.lowercased(),
                    question: compat.question, answer: compat.answer)
                #expect(try await client.card(card.id, in: stack.id).format == .markdown)
                _ = try await client.compat.updateCard(
                    stackId: stack.id.uuidString.lowercased(), cardId: card.id.uuidString.lowercased(),
                    question: "Was ist der pH-Wert?", answer: compat.answer)
                let edited = try await client.card(card.id, in: stack.id)
                #expect(edited.format == .plain && edited.rendered == nil && edited.question == "Was ist der pH-Wert?")

                // The format can be switched on /api/v1.
                let rich = try await client.updateCard(plain.id, in: stack.id, format: .markdown)
                #expect(rich.rendered?.answer == "<p><strong>24</strong></p>")
                #expect(try await client.updateCard(plain.id, in: stack.id, format: .plain).rendered == nil)

                // Write mode compares what is typed with the words, not the markup.
                let formula = try await client.createCard(
                    in: stack.id, question: "Einheit der Kraft?", answer: "**Newton**", format: .markdown)
                let check = try await client.check("Newton", for: formula.id, in: stack.id)
                #expect(check.verdict == .correct && check.expected == "Newton")
            }
        }
    }

    @Test("the preview renders as a card would, and needs a sign-in", arguments: TestDatabase.available)
    func preview(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                await #expect(throws: FlashcardsError.self) { _ = try await client.render("*x*") }
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let preview = try await client.render("| a | b |\n|---|:-:|\n| $x^2$ | <b>c</b> |")
                #expect(
                    preview.html
                        == "<table><thead><tr><th>a</th><th class=\"align-center\">b</th></tr></thead><tbody><tr>"
                        + "<td><span class=\"math\">x^2</span></td><td class=\"align-center\">&lt;b&gt;c&lt;/b&gt;</td>"
                        + "</tr></tbody></table>")
                #expect(preview.plainText == "a | b\nx^2 | <b>c</b>")
                do {
                    _ = try await client.render(String(repeating: "x", count: 20_001))
                    Issue.record("an over-long text was rendered")
                } catch let error as FlashcardsError {
                    #expect(error.code == "validation_failed")
                }
            }
        }
    }

    @Test("hostile texts never become markup, in any field", arguments: TestDatabase.available)
    func hostile(db: TestDatabase) async throws {
        try await withApp(db) { app in
            try await withRunningServer(app) { client, _ in
                try await client.signup(name: "Ada", mail: "ada@example.org", password: "correct horse")
                let stack = try await client.createStack(name: "XSS", color: "#059669")
                let payloads = [
                    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "**<svg onload=alert(1)>**",
                    "$\\href{javascript:alert(1)}{x}$", "| <iframe src=javascript:alert(1)> |\n|---|",
                    "```\n</code></pre><script>alert(2)</script>\n```", "[x](javascript:alert(1))",
                ]
                for payload in payloads {
                    let card = try await client.createCard(
                        in: stack.id, question: payload, answer: payload, hint: payload, format: .markdown)
                    let rendered = try #require(card.rendered)
                    for html in [rendered.question, rendered.answer, rendered.hint ?? ""] {
                        #expect(!html.contains("<script") && !html.contains("<img") && !html.contains("<svg"))
                        #expect(!html.contains("<iframe") && !html.contains("<a "), "\(payload) → \(html)")
                    }
                }
            }
        }
    }
}
