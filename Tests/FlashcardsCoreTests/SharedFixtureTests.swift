import Foundation
import Testing

@testable import FlashcardsCore

/// The vectors Core and the web app's offline port (`Public/assets/js/offline/`) both answer to:
/// `Tests/FlashcardsCoreTests/Fixtures/*.json`, read here and by `Tests/js/parity.test.mjs` under
/// Node. Core is the reference: a case here states what Core computes.
enum SharedFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func load<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func date(_ text: String) throws -> Date { try #require(ReviewLogCSV.parseTimestamp(text), "\(text)") }

    static func zone(_ name: String) throws -> TimeZone { try #require(TimeZone(identifier: name), "\(name)") }

    static func uint64(_ text: String) throws -> UInt64 { try #require(UInt64(text), "\(text)") }
}

@Suite("Shared fixtures: FSRS fuzz and the app's FSRS configuration")
struct FSRSSharedFixtureTests {
    struct Fuzz: Decodable {
        struct Range: Decodable {
            var interval: Double
            var minimum: Int
            var maximum: Int
            var fractions: [Double]
            var days: [Int]
        }
        struct Fraction: Decodable {
            var seed: String
            var fraction: Double
        }
        struct Seed: Decodable {
            var cardID: Int64
            var reviewCount: Int
            var seed: String
        }
        var ranges: [Range]
        var unitFractions: [Fraction]
        var fuzzSeeds: [Seed]
    }

    @Test("fuzz ranges (Anki's own expectations first), unit fractions and seeds")
    func fuzz() throws {
        let fixture = try SharedFixtures.load("fuzz.json", as: Fuzz.self)
        #expect(fixture.ranges.count >= 15)
        for range in fixture.ranges {
            let days = range.fractions.map {
                FSRSScheduler.fuzzedInterval(
                    range.interval, minimum: range.minimum, maximum: range.maximum, fraction: $0)
            }
            #expect(days == range.days, "\(range.interval) in \(range.minimum) … \(range.maximum)")
        }
        for item in fixture.unitFractions {
            let seed = try SharedFixtures.uint64(item.seed)
            #expect(FSRSScheduler.unitFraction(seed: seed) == item.fraction, "\(item.seed)")
        }
        for item in fixture.fuzzSeeds {
            let seed = try SharedFixtures.uint64(item.seed)
            #expect(FSRSScheduler.fuzzSeed(cardID: item.cardID, reviewCount: item.reviewCount) == seed)
        }
    }

    struct Fuzzed: Decodable {
        struct Sequence: Decodable {
            var name: String
            var zone: String
            var cardID: Int64
            var desiredRetention: Double
            var learningSteps: [Double]
            var relearningSteps: [Double]
            /// No steps, FSRS schedules the same-day reviews (`FSRSConfiguration.schedulesShortTerm`).
            var shortTerm: Bool?
            var reviews: [Review]
        }
        struct Review: Decodable {
            var rating: String
            var time: String
            var state: String
            var step: Int?
            var stability: Double
            var difficulty: Double
            var due: String
        }
        var sequences: [Sequence]
    }

    @Test("fuzzed reviews with days from 04:00 in the learner's zone replay exactly")
    func fuzzedSequences() throws {
        let fixture = try SharedFixtures.load("fsrs-fuzzed.json", as: Fuzzed.self)
        #expect(fixture.sequences.count >= 20)
        #expect(fixture.sequences.filter { $0.shortTerm == true }.count >= 3)
        for sequence in fixture.sequences {
            let scheduler = try FSRSScheduler(
                configuration: FSRSConfiguration(
                    desiredRetention: sequence.desiredRetention, learningSteps: sequence.learningSteps,
                    relearningSteps: sequence.relearningSteps, fuzz: true,
                    dayCounting: .rollover(hourOfDay: 4, timeZone: try SharedFixtures.zone(sequence.zone)),
                    schedulesShortTerm: sequence.shortTerm ?? false))
            var reviews: [(rating: FSRSRating, time: Date)] = []
            for review in sequence.reviews {
                let rating = try #require(FSRSRating.allCases.first(where: { $0.key == review.rating }))
                reviews.append((rating: rating, time: try SharedFixtures.date(review.time)))
            }
            let states = scheduler.replay(reviews, cardID: sequence.cardID)
            for (index, (expected, actual)) in zip(sequence.reviews, states).enumerated() {
                let label = "\(sequence.name) review \(index)"
                #expect(actual.state.rawValue == expected.state, "\(label): state")
                #expect(actual.step == expected.step, "\(label): step")
                let due = try SharedFixtures.date(expected.due)
                #expect(actual.due == due, "\(label): due \(actual.due)")
                // The same formulas in both languages; `pow` and `exp` may differ in the last bit.
                let stability = try #require(actual.stability)
                let difficulty = try #require(actual.difficulty)
                #expect(abs(stability - expected.stability) <= 1e-9 * expected.stability, "\(label): S \(stability)")
                #expect(
                    abs(difficulty - expected.difficulty) <= 1e-9 * expected.difficulty, "\(label): D \(difficulty)")
            }
        }
    }
}

@Suite("Shared fixtures: the ladder and the learner's day")
struct DaySharedFixtureTests {
    struct Ladder: Decodable {
        struct Interval: Decodable {
            var rating: String
            var level: Int
            var seconds: Int
        }
        struct Level: Decodable {
            var rating: String
            var level: Int
            var next: Int
        }
        var intervals: [Interval]
        var nextLevels: [Level]
    }

    @Test("the ladder's intervals and levels, out-of-range levels clamped")
    func ladder() throws {
        let fixture = try SharedFixtures.load("ladder.json", as: Ladder.self)
        for item in fixture.intervals {
            let rating = try #require(LadderRating(key: item.rating))
            #expect(
                LadderScheduler.intervalSeconds(for: rating, level: item.level) == item.seconds,
                "\(item.rating) \(item.level)")
        }
        for item in fixture.nextLevels {
            let rating = try #require(LadderRating(key: item.rating))
            #expect(
                LadderScheduler.nextLevel(after: rating, level: item.level) == item.next, "\(item.rating) \(item.level)"
            )
        }
    }

    struct Day: Decodable {
        struct Cutoff: Decodable {
            var now: String
            var zone: String
            var daysAhead: Int
            var dayStartHour: Int
            var cutoff: String
        }
        struct Elapsed: Decodable {
            var zone: String
            var hour: Int
            var from: String
            var to: String
            var days: Int
        }
        struct Adding: Decodable {
            var zone: String
            var hour: Int
            var from: String
            var days: Int
            var date: String
        }
        var cutoffs: [Cutoff]
        var elapsed: [Elapsed]
        var addingDays: [Adding]
    }

    @Test("due cut-offs, elapsed days and due dates in time zones, across daylight-saving changes")
    func learnerDay() throws {
        let fixture = try SharedFixtures.load("learner-day.json", as: Day.self)
        for item in fixture.cutoffs {
            let cutoff = StudyDay.dueCutoff(
                now: try SharedFixtures.date(item.now), timeZone: try SharedFixtures.zone(item.zone),
                daysAhead: item.daysAhead, dayStartHour: item.dayStartHour)
            let expected = try SharedFixtures.date(item.cutoff)
            #expect(cutoff == expected, "\(item.now) \(item.zone) → \(cutoff)")
        }
        for item in fixture.elapsed {
            let counting = FSRSDayCounting.rollover(hourOfDay: item.hour, timeZone: try SharedFixtures.zone(item.zone))
            let days = counting.elapsedDays(
                from: try SharedFixtures.date(item.from), to: try SharedFixtures.date(item.to))
            #expect(days == item.days, "\(item.zone) \(item.from) → \(item.to)")
        }
        for item in fixture.addingDays {
            let counting = FSRSDayCounting.rollover(hourOfDay: item.hour, timeZone: try SharedFixtures.zone(item.zone))
            let date = counting.date(addingDays: item.days, to: try SharedFixtures.date(item.from))
            let expected = try SharedFixtures.date(item.date)
            #expect(date == expected, "\(item.zone) \(item.from) + \(item.days) → \(date)")
        }
    }
}

@Suite("Shared fixtures: queue order")
struct QueueSharedFixtureTests {
    struct Fixture: Decodable {
        struct Case: Decodable {
            struct Rule: Decodable {
                var kind: String
                var now: Double?
                var reviewCap: Int?
                var newCap: Int?
            }
            struct Entry: Decodable {
                var id: Int
                var queue: String
                var due: Double
            }
            var name: String
            var rule: Rule
            var cutoff: Double
            var entries: [Entry]
            var head: Int?
            var rank: String?
            var dueCount: Int
        }
        var cases: [Case]
    }

    static let base = 1_790_000_000.0

    @Test("the head, its rank and the due count of each case")
    func cases() throws {
        let fixture = try SharedFixtures.load("queue-order.json", as: Fixture.self)
        let at = { (offset: Double) in Date(timeIntervalSince1970: Self.base + offset) }
        let queues: [String: CardQueue] = ["new": .new, "learning": .learning, "review": .review]
        for item in fixture.cases {
            var rule = QueueOrder.Rule.ladder
            if item.rule.kind != "ladder" {
                let now = try #require(item.rule.now)
                let reviewCap = try #require(item.rule.reviewCap)
                let newCap = try #require(item.rule.newCap)
                rule = .fsrs(now: at(now), reviewCap: reviewCap, newCap: newCap)
            }
            var entries: [QueueOrder.Entry] = []
            for entry in item.entries {
                let queue = try #require(queues[entry.queue])
                entries.append(QueueOrder.Entry(id: entry.id, queue: queue, due: at(entry.due)))
            }
            let selection = QueueOrder(cutoff: at(item.cutoff), rule: rule).select(entries)
            #expect(selection.head == item.head, "\(item.name): head")
            #expect(selection.rank.map { String(describing: $0) } == item.rank, "\(item.name): rank")
            #expect(selection.dueCount == item.dueCount, "\(item.name): due count")
        }
    }
}

@Suite("Shared fixtures: typed answers, quiz options, card sides")
struct StudyModesSharedFixtureTests {
    struct Checks: Decodable {
        struct Check: Decodable {
            var typed: String
            var expected: String
            var ignoringDiacritics: Bool
            var verdict: String
            var diff: [AnswerCheck.Segment]
        }
        struct Normalized: Decodable {
            var text: String
            var ignoringDiacritics: Bool
            var normalized: String
        }
        struct Kind: Decodable {
            var answer: String
            var kind: String
        }
        var checks: [Check]
        var normalized: [Normalized]
        var kinds: [Kind]
    }

    static func name(_ kind: AnswerKind) -> String {
        switch kind {
        case .numeric: "numeric"
        case .term: "term"
        case .phrase: "phrase"
        }
    }

    @Test("verdicts and diffs, normalised texts and answer kinds")
    func answerChecks() throws {
        let fixture = try SharedFixtures.load("answer-check.json", as: Checks.self)
        for item in fixture.checks {
            let result = AnswerCheck.check(
                item.typed, against: item.expected, ignoringDiacritics: item.ignoringDiacritics)
            let label = "\(item.typed.debugDescription) against \(item.expected.debugDescription)"
            #expect(result.verdict.rawValue == item.verdict, "\(label): verdict")
            #expect(result.diff == item.diff, "\(label): diff \(result.diff)")
        }
        for item in fixture.normalized {
            let normalized = AnswerCheck.normalized(item.text, ignoringDiacritics: item.ignoringDiacritics)
            #expect(normalized == item.normalized, "\(item.text.debugDescription) → \(normalized.debugDescription)")
        }
        for item in fixture.kinds {
            #expect(Self.name(AnswerKind(of: item.answer)) == item.kind, "\(item.answer.debugDescription)")
        }
    }

    struct Quiz: Decodable {
        struct Draws: Decodable {
            var seed: String
            var values: [String]
        }
        struct Candidate: Decodable {
            var cardID: Int64
            var answer: String
        }
        struct Question: Decodable {
            var answer: String
            var candidates: [Candidate]
            var seed: String
            var options: [String]
            var correctIndex: Int
            var sources: [Int64?]
        }
        struct Own: Decodable {
            var answer: String
            var choices: [String]
            var seed: String
            var options: [String]
            var correctIndex: Int
        }
        struct TrueFalse: Decodable {
            var isTrue: Bool
            var options: [String]
            var correctIndex: Int
        }
        var splitMix64: [Draws]
        var questions: [Question]
        var own: [Own]
        var trueFalse: [TrueFalse]
    }

    @Test("SplitMix64 draws, distractors, a card's own options and true/false")
    func quizOptions() throws {
        let fixture = try SharedFixtures.load("quiz-options.json", as: Quiz.self)
        for item in fixture.splitMix64 {
            var random = SplitMix64(seed: try SharedFixtures.uint64(item.seed))
            let values = item.values.map { _ in String(random.next()) }
            #expect(values == item.values, "seed \(item.seed)")
        }
        for item in fixture.questions {
            let question = QuizOptions.question(
                answer: item.answer,
                candidates: item.candidates.map { QuizOptions.Candidate(cardID: $0.cardID, answer: $0.answer) },
                seed: try SharedFixtures.uint64(item.seed))
            let label = "\(item.answer) seed \(item.seed)"
            #expect(question.options == item.options, "\(label): \(question.options)")
            #expect(question.correctIndex == item.correctIndex, "\(label): correct index")
            #expect(question.sources == item.sources, "\(label): sources")
        }
        for item in fixture.own {
            let question = QuizOptions.question(
                answer: item.answer, ownChoices: item.choices, seed: try SharedFixtures.uint64(item.seed))
            #expect(question.options == item.options && question.correctIndex == item.correctIndex, "\(item)")
        }
        for item in fixture.trueFalse {
            let question = QuizOptions.trueFalseQuestion(isTrue: item.isTrue)
            #expect(question.options == item.options && question.correctIndex == item.correctIndex)
        }
    }

    struct Sides: Decodable {
        struct Side: Decodable {
            var kind: String
            var variant: Int
            var question: String
            var answer: String
            var format: String
            var front: String
            var back: String
            var expected: String
        }
        struct Gaps: Decodable {
            struct Gap: Decodable, Equatable {
                var number: Int
                var answer: String
                var hint: String?
            }
            var text: String
            var gaps: [Gap]
        }
        var sides: [Side]
        var gaps: [Gaps]
    }

    @Test("the sides of every kind of card, and cloze gaps")
    func cardSides() throws {
        let fixture = try SharedFixtures.load("card-sides.json", as: Sides.self)
        #expect(Set(fixture.sides.map(\.kind)) == Set(CardKind.allCases.map(\.rawValue)))
        for item in fixture.sides {
            let sides = CardSides(
                kind: try #require(CardKind(rawValue: item.kind)), variant: item.variant, question: item.question,
                answer: item.answer, format: try #require(CardFormat(rawValue: item.format)))
            let label = "\(item.kind) \(item.variant) \(item.question.debugDescription)"
            #expect(sides.question == item.front, "\(label): question side \(sides.question.debugDescription)")
            #expect(sides.answer == item.back, "\(label): answer side \(sides.answer.debugDescription)")
            #expect(sides.expected == item.expected, "\(label): expected \(sides.expected.debugDescription)")
        }
        for item in fixture.gaps {
            let gaps = Cloze.gaps(in: item.text).map {
                Sides.Gaps.Gap(number: $0.number, answer: $0.answer, hint: $0.hint)
            }
            #expect(gaps == item.gaps, "\(item.text): \(gaps)")
        }
    }
}

@Suite("Shared fixtures: the load balancer")
struct LoadBalancerSharedFixtureTests {
    struct Fixture: Decodable {
        struct Case: Decodable {
            var name: String
            var interval: Double
            var maximum: Int
            var dueCounts: [Int]
            var weights: [Double]
            var siblingDays: [Int]
            var fraction: Double
            var expected: Int?
        }
        struct Accepted: Decodable {
            var interval: Double
            var maximum: Int
            var lower: Int
            var upper: Int
        }
        var cases: [Case]
        var accepted: [Accepted]
    }

    @Test("balanced days by load, easy days and siblings; the range a recorded day is kept in")
    func loadBalancer() throws {
        let fixture = try SharedFixtures.load("load-balancer.json", as: Fixture.self)
        #expect(fixture.cases.count >= 30)
        #expect(fixture.cases.contains { $0.expected == nil })
        for item in fixture.cases {
            let counts = item.dueCounts
            let weights = item.weights
            let days = FSRSLoadBalancer.Days(
                dueCount: { counts.indices.contains($0) ? counts[$0] : 0 },
                weight: { weights.indices.contains($0) ? weights[$0] : 1 }, siblingDays: item.siblingDays)
            let chosen = FSRSLoadBalancer.interval(
                item.interval, maximum: item.maximum, days: days, fraction: item.fraction)
            #expect(chosen == item.expected, "\(item.name): \(String(describing: chosen))")
        }
        for item in fixture.accepted {
            let range = FSRSLoadBalancer.acceptedRange(item.interval, maximum: item.maximum)
            #expect(range == item.lower...item.upper, "\(item.interval) in 1 … \(item.maximum): \(range)")
        }
    }
}
