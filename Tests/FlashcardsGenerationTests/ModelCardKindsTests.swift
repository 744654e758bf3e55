import FlashcardsCore
import FlashcardsTestServer
import Foundation
import Testing

@testable import FlashcardsGeneration

/// Every kind of card from a model: its schema, what becomes a draft, what is dropped.
@Suite("Language-model cards of every kind")
struct ModelCardKindsTests {
    /// One card of each kind, each quoting the lecture, as a model following the schema writes them.
    static let everyKind = """
        {"cards":[
          {"kind":"basic","question":"Was ist ein Prozess?","answer":"Ein Programm in Ausführung",
           "quote":"Ein Prozess ist ein Programm in Ausführung","page":1},
          {"kind":"cloze","text":"Ein _____ ist ein Ausführungsstrang.","answer":"Thread",
           "quote":"Ein Thread ist ein Ausführungsstrang"},
          {"kind":"multipleChoice","question":"Was ist eine Semaphore?","answer":"Eine Zählvariable",
           "distractors":["Ein Prozess","Ein Thread","Ein Speicherblock"],"quote":"Eine Semaphore ist eine Zählvariable","page":2},
          {"kind":"trueFalse","statement":"Ein Thread ist ein Ausführungsstrang.","answer":"true",
           "quote":"Ein Thread ist ein Ausführungsstrang"}
        ]}
        """

    @Test("each kind has its own object in the schema; valid cards of every kind validate, broken ones do not")
    func schema() throws {
        let schema = ModelCardSchema.schema(maximumCards: 4, kinds: ModelCardKind.allCases, quotes: true)
        #expect(JSONSchemaValidator.violations(of: Self.everyKind, against: schema).isEmpty)
        let items = try #require(
            ((schema.foundationObject as? [String: Any])?["properties"] as? [String: Any])?["cards"] as? [String: Any])
        let options = try #require((items["items"] as? [String: Any])?["anyOf"] as? [[String: Any]])
        #expect(options.count == 4)
        for invalid in [
            // Two gaps, no gap, a question as a statement, two distractors, a kind that is not asked for.
            #"{"cards":[{"kind":"cloze","text":"Ein _____ ist ein _____.","answer":"Thread","quote":"x"}]}"#,
            #"{"cards":[{"kind":"cloze","text":"Ein Thread ist ein Strang.","answer":"Thread","quote":"x"}]}"#,
            #"{"cards":[{"kind":"trueFalse","statement":"Ist ein Thread ein Strang?","answer":"true","quote":"x"}]}"#,
            #"{"cards":[{"kind":"trueFalse","statement":"Ein Thread ist ein Strang.","answer":"yes","quote":"x"}]}"#,
            #"{"cards":[{"kind":"multipleChoice","question":"Was?","answer":"A","distractors":["B","C"],"quote":"x"}]}"#,
            #"{"cards":[{"kind":"basic","question":"Was ist ein Prozess?","answer":"Ein Programm"}]}"#,
            #"{"cards":[{"kind":"essay","question":"Was ist ein Prozess?","answer":"Ein Programm","quote":"x"}]}"#,
        ] {
            #expect(!JSONSchemaValidator.violations(of: invalid, against: schema).isEmpty, "\(invalid)")
        }
        // Basic cards without quotes keep the schema of before kinds: no `kind` member at all.
        let plain = ModelCardSchema.schema(maximumCards: 4).text
        #expect(!plain.contains("\"kind\"") && !plain.contains("anyOf") && !plain.contains("quote"))
        // One kind alone is one object, still named.
        let one = ModelCardSchema.schema(maximumCards: 4, kinds: [.trueFalse], quotes: false).text
        #expect(!one.contains("anyOf") && one.contains(#""enum":["trueFalse"]"#))
    }

    @Test("the drafts of every kind: a fill-in blank, multiple choice with its wrong options, true/false; quotes kept")
    func drafts() async throws {
        let server = try await MockLLMServer.start([.content(Self.everyKind)])
        defer { Task { await server.shutdown() } }
        let configuration = LLMConfiguration(
            baseURL: server.baseURL, model: "mock-model", requestTimeoutSeconds: 5, maximumRetries: 0)
        let result = try await OpenAICompatibleGenerator(configuration: configuration).generate(
            GenerationRequest(source: .document(OpenAICompatibleGeneratorTests.lecture), cardLanguage: .de)
        ) { _ in }
        let kinds = result.cards.map { $0.cardKind }
        #expect(kinds == [.basic, .fillBlank, .multipleChoice, .trueFalse])
        let cloze = result.cards[1]
        #expect(cloze.question == "Ein \(TextToCards.gap) ist ein Ausführungsstrang." && cloze.answer == "Thread")
        #expect(CardKind.ofDraft(question: cloze.question, answer: cloze.answer) == .fillBlank)
        #expect(result.cards[2].choices == ["Ein Prozess", "Ein Thread", "Ein Speicherblock"])
        #expect(result.cards[3].answer == "true")
        #expect(result.cards[0].source == "Ein Prozess ist ein Programm in Ausführung")
        #expect(result.cards.allSatisfy { $0.kind == .model })
        // The request asked for the kinds, the quotes and German cards.
        let request = try #require(server.requests.first)
        let system = request.messagesText
        #expect(system.contains("multipleChoice:") && system.contains("trueFalse:") && system.contains("\"quote\""))
        #expect(system.contains("Schreibe auf Deutsch"))
    }

    @Test("the learner's language decides the prompt's, whatever the text's")
    func learnersLanguage() async throws {
        let server = try await MockLLMServer.start([.content(Self.everyKind)])
        defer { Task { await server.shutdown() } }
        let configuration = LLMConfiguration(
            baseURL: server.baseURL, model: "mock-model", requestTimeoutSeconds: 5, maximumRetries: 0)
        _ = try await OpenAICompatibleGenerator(configuration: configuration).generate(
            GenerationRequest(source: .document(OpenAICompatibleGeneratorTests.lecture), cardLanguage: .en)
        ) { _ in }
        let text = try #require(server.requests.first).messagesText
        #expect(text.contains("Write in English") && !text.contains("Schreibe auf Deutsch"))
    }

    @Test("broken cards of a kind are dropped and counted, never shipped")
    func brokenKinds() {
        let cases: [(String, Bool)] = [
            // The answer stands in the sentence beside its gap.
            (#"{"kind":"cloze","text":"Ein Thread _____ ist ein Thread.","answer":"Thread"}"#, false),
            (#"{"kind":"cloze","text":"Ein _____ ist ein _____.","answer":"Thread"}"#, false),
            (#"{"kind":"cloze","text":"Kein Platzhalter hier.","answer":"Thread"}"#, false),
            // Wrong options equal to the answer or each other leave fewer than two.
            (
                #"{"kind":"multipleChoice","question":"Was ist eine Semaphore?","answer":"Eine Zählvariable","distractors":["Eine Zählvariable","eine zählvariable","Ein Thread"]}"#,
                false
            ),
            (
                #"{"kind":"multipleChoice","question":"Was ist eine Semaphore?","answer":"Eine Zählvariable","distractors":["Ein Prozess","Ein Thread"]}"#,
                true
            ),
            (#"{"kind":"trueFalse","statement":"Ist das so?","answer":true}"#, false),
            (#"{"kind":"trueFalse","statement":"Ein Thread ist ein Strang.","answer":"falsch"}"#, true),
            (#"{"kind":"trueFalse","statement":"Ein Thread ist ein Strang.","answer":"vielleicht"}"#, false),
            // A small model's noise: markup, the prompt's words, the kind's own words.
            (#"{"kind":"cloze","text":"quote: die Wörter _____ </h3> <h3>","answer":"Thread"}"#, false),
            (#"{"kind":"trueFalse","statement":"truefalse, true, false, false.","answer":"true"}"#, false),
        ]
        for (item, kept) in cases {
            let parsed = ModelCardParser.parse(#"{"cards":["# + item + "]}")
            let card = (try? parsed.get())?.cards.first
            let draft = card.flatMap { ModelCardParser.draft($0, sourcePage: 1) }
            #expect((draft != nil) == kept, "\(item)")
        }
        let falseCard = try? ModelCardParser.parse(
            #"{"cards":[{"kind":"trueFalse","statement":"Ein Thread ist ein Strang.","answer":false}]}"#
        ).get().cards.first
        #expect(falseCard.flatMap { ModelCardParser.draft($0, sourcePage: nil) }?.answer == "false")
    }
}
