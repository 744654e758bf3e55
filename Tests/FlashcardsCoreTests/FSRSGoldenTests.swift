import Foundation
import Testing

@testable import FlashcardsCore

/// Replays the golden vectors made by scripts/fsrs/make_golden.py from py-fsrs 6.3.2 and
/// fsrs-rs-python 0.9.3 and checks that FSRSScheduler reproduces them.
@Suite("FSRS golden vectors")
struct FSRSGoldenTests {
    struct Fixture: Decodable {
        var versions: [String: String]
        var sequences: [Sequence]
    }

    struct Sequence: Decodable {
        var name: String
        var config: Config
        var stability_reference: String
        var reviews: [Review]
    }

    struct Config: Decodable {
        var parameters: [Double]
        var desired_retention: Double
        var learning_steps: [Double]
        var relearning_steps: [Double]
        var maximum_interval: Int
    }

    struct Review: Decodable {
        var rating: Int
        var time: String
        var elapsed_days: Int
        var state: String
        var step: Int?
        var stability: Double
        var difficulty: Double
        var due: String
        var rs_stability: Double
        var rs_difficulty: Double
    }

    /// py-fsrs computes in float64 like we do: agreement to 1e-6 relative is the requirement.
    static let pyTolerance = 1e-6
    /// fsrs-rs computes in float32 (parameters included), so it can only agree to a few float32 ulps
    /// accumulated over a history; the generator measures ~3e-6 against py-fsrs.
    static let rsTolerance = 5e-5

    static func loadFixture() throws -> Fixture {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fsrs-golden.json")
        return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }

    static func microseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1e6).rounded()) }

    static func relativeError(_ a: Double, _ b: Double) -> Double { abs(a - b) / max(abs(b), 1e-12) }

    @Test("fixture is the expected size and from the pinned versions")
    func fixtureShape() throws {
        let fixture = try Self.loadFixture()
        #expect(fixture.versions["fsrs"] == "6.3.2")
        #expect(fixture.versions["fsrs-rs-python"] == "0.9.3")
        #expect(fixture.sequences.count >= 30)
        // Every rating must occur from every state, so the state machine is fully exercised.
        var seen = Set<String>()
        for sequence in fixture.sequences {
            var previous = "new"
            for review in sequence.reviews {
                seen.insert("\(previous)-\(review.rating)")
                previous = review.state
            }
        }
        for state in ["new", "learning", "review", "relearning"] {
            for rating in 1...4 {
                #expect(seen.contains("\(state)-\(rating)"), "missing rating \(rating) from \(state)")
            }
        }
    }

    @Test("every golden sequence replays exactly")
    func replayGolden() throws {
        let fixture = try Self.loadFixture()
        for sequence in fixture.sequences {
            let configuration = FSRSConfiguration(
                parameters: sequence.config.parameters,
                desiredRetention: sequence.config.desired_retention,
                learningSteps: sequence.config.learning_steps,
                relearningSteps: sequence.config.relearning_steps,
                maximumInterval: sequence.config.maximum_interval,
                fuzz: false,
                dayCounting: .twentyFourHourPeriods
            )
            let scheduler = try FSRSScheduler(configuration: configuration)
            let reviews = try sequence.reviews.map { review in
                let time = try #require(ReviewLogCSV.parseTimestamp(review.time))
                return (rating: try #require(FSRSRating(rawValue: review.rating)), time: time)
            }
            let states = scheduler.replay(reviews)
            #expect(states.count == sequence.reviews.count)
            // Once py-fsrs' stability has gone past the 36,500-day cap, its later stabilities follow an
            // uncapped history; from there on fsrs-rs (which caps like we do) is the reference.
            var beyondCap = false
            for (index, (expected, actual)) in zip(sequence.reviews, states).enumerated() {
                let label = "\(sequence.name) review \(index)"
                if expected.stability > FSRSModel.maximumStability { beyondCap = true }
                #expect(actual.state.rawValue == expected.state, "\(label): state")
                #expect(actual.step == expected.step, "\(label): step")
                let due = try #require(ReviewLogCSV.parseTimestamp(expected.due))
                #expect(
                    Self.microseconds(actual.due) == Self.microseconds(due), "\(label): due \(actual.due) vs \(due)")
                let stability = try #require(actual.stability)
                let difficulty = try #require(actual.difficulty)
                if beyondCap {
                    #expect(sequence.stability_reference == "fsrs-rs")
                    #expect(Self.relativeError(stability, expected.rs_stability) <= Self.rsTolerance, "\(label): S")
                } else {
                    #expect(
                        Self.relativeError(stability, expected.stability) <= Self.pyTolerance,
                        "\(label): S \(stability) vs \(expected.stability)")
                }
                #expect(
                    Self.relativeError(difficulty, expected.difficulty) <= Self.pyTolerance,
                    "\(label): D \(difficulty) vs \(expected.difficulty)")
                // The second reference, fsrs-rs, must agree everywhere within float32 precision.
                #expect(
                    Self.relativeError(stability, expected.rs_stability) <= Self.rsTolerance, "\(label): S vs fsrs-rs")
                #expect(
                    Self.relativeError(difficulty, expected.rs_difficulty) <= Self.rsTolerance, "\(label): D vs fsrs-rs"
                )
                #expect(stability <= FSRSModel.maximumStability)
            }
        }
    }
}
