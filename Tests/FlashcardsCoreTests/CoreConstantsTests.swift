import Foundation
import Testing

@testable import FlashcardsCore

/// The constants the web app's offline port shares with Core come from one source: Core. The JS reads
/// them from `Public/assets/js/offline/core-constants.js` (a module whose default export is JSON);
/// this test fails when a value there differs from Core's, and writes the file anew from Core's
/// values when `FLASHCARDS_WRITE_CORE_CONSTANTS=1` is set (docs/offline.md).
@Suite("Core constants shared with the web app")
struct CoreConstantsTests {
    struct Constants: Codable, Equatable {
        struct FSRS: Codable, Equatable {
            struct Rating: Codable, Equatable {
                var key: String
                var grade: Int
                var id: Int
                var label: String
                var color: String
            }
            var defaultParameters: [Double]
            var parameterLowerBounds: [Double]
            var parameterUpperBounds: [Double]
            var desiredRetention: Double
            var learningSteps: [Double]
            var relearningSteps: [Double]
            var maximumInterval: Int
            var minimumStability: Double
            var maximumStability: Double
            var minimumDifficulty: Double
            var maximumDifficulty: Double
            var dayStartHour: Int
            var ratings: [Rating]
        }
        struct Ladder: Codable, Equatable {
            struct Rating: Codable, Equatable {
                var key: String
                var id: Int
                var label: String
                var color: String
                var intervals: [Int]
            }
            var maximumLevel: Int
            var dayStartHour: Int
            var ratings: [Rating]
        }
        struct Queue: Codable, Equatable {
            var dueCountLimit: Int
            var newCardsPerDay: Int
            var reviewsPerDay: Int
            var newCardsPerDayRange: [Int]
            var reviewsPerDayRange: [Int]
        }
        struct Quiz: Codable, Equatable {
            var maximumOptions: Int
            var truthWords: [String]
        }
        struct Check: Codable, Equatable {
            var comparedLength: Int
            var diffEditLimit: Int
        }
        struct Limits: Codable, Equatable {
            var question: Int
            var answer: Int
            var hint: Int
            var stackName: Int
            var stackDescription: Int
            var userName: Int
            var mail: Int
            var minimumPassword: Int
            var maximumPassword: Int
        }
        struct Kinds: Codable, Equatable {
            var minimumChoices: Int
            var maximumChoices: Int
            var choiceLength: Int
            var maximumGaps: Int
        }
        var fsrs: FSRS
        var ladder: Ladder
        var queue: Queue
        var quiz: Quiz
        var answerCheck: Check
        var textLimits: Limits
        var cardKinds: Kinds
        struct LoadBalancer: Codable, Equatable {
            struct Weights: Codable, Equatable {
                var normal: Double
                var reduced: Double
                var minimum: Double
            }
            var maximumBalancedInterval: Int
            var horizon: Int
            var minimumWeight: Double
            var siblingSameDay: Double
            var siblingNear: [Double]
            var loadExponent: Double
            var intervalExponent: Double
            var easyDayWeights: Weights
        }
        var loadBalancer: LoadBalancer
    }

    /// Core's values.
    static func core() -> Constants {
        let configuration = FSRSConfiguration()
        let settings = StackSettings()
        let ladder = LadderRating.allCases.reversed().map { rating in
            Constants.Ladder.Rating(
                key: rating.key, id: rating.rawValue, label: rating.germanName, color: rating.color,
                intervals: LadderScheduler.tables[rating]!)
        }
        return Constants(
            fsrs: .init(
                defaultParameters: FSRSConfiguration.defaultParameters,
                parameterLowerBounds: FSRSConfiguration.parameterLowerBounds,
                parameterUpperBounds: FSRSConfiguration.parameterUpperBounds,
                desiredRetention: configuration.desiredRetention, learningSteps: configuration.learningSteps,
                relearningSteps: configuration.relearningSteps, maximumInterval: configuration.maximumInterval,
                minimumStability: FSRSModel.minimumStability, maximumStability: FSRSModel.maximumStability,
                minimumDifficulty: FSRSModel.difficultyRange.lowerBound,
                maximumDifficulty: FSRSModel.difficultyRange.upperBound,
                dayStartHour: SchedulerKind.fsrs.dayStartHour,
                ratings: FSRSRating.allCases.map {
                    .init(key: $0.key, grade: $0.rawValue, id: $0.compatId, label: $0.germanName, color: $0.color)
                }),
            ladder: .init(
                maximumLevel: LadderScheduler.maximumLevel, dayStartHour: SchedulerKind.ladder.dayStartHour,
                ratings: ladder),
            queue: .init(
                dueCountLimit: QueueOrder.dueCountLimit, newCardsPerDay: settings.newCardsPerDay,
                reviewsPerDay: settings.reviewsPerDay,
                newCardsPerDayRange: [
                    StackSettings.newCardsPerDayRange.lowerBound, StackSettings.newCardsPerDayRange.upperBound,
                ],
                reviewsPerDayRange: [
                    StackSettings.reviewsPerDayRange.lowerBound, StackSettings.reviewsPerDayRange.upperBound,
                ]),
            quiz: .init(
                maximumOptions: QuizOptions.maximumOptions,
                truthWords: [CardSides.truthWord(true), CardSides.truthWord(false)]),
            answerCheck: .init(comparedLength: AnswerCheck.comparedLength, diffEditLimit: AnswerCheck.diffEditLimit),
            textLimits: .init(
                question: TextLimits.question, answer: TextLimits.answer, hint: TextLimits.hint,
                stackName: TextLimits.stackName, stackDescription: TextLimits.stackDescription,
                userName: TextLimits.userName, mail: TextLimits.mail, minimumPassword: TextLimits.minimumPassword,
                maximumPassword: TextLimits.maximumPassword),
            cardKinds: .init(
                minimumChoices: CardKind.choiceRange.lowerBound, maximumChoices: CardKind.choiceRange.upperBound,
                choiceLength: CardKind.choiceLength, maximumGaps: Cloze.maximumGaps),
            loadBalancer: .init(
                maximumBalancedInterval: FSRSLoadBalancer.maximumBalancedInterval, horizon: FSRSLoadBalancer.horizon,
                minimumWeight: FSRSLoadBalancer.minimumWeight, siblingSameDay: FSRSLoadBalancer.siblingSameDay,
                siblingNear: FSRSLoadBalancer.siblingNear, loadExponent: FSRSLoadBalancer.loadExponent,
                intervalExponent: FSRSLoadBalancer.intervalExponent,
                easyDayWeights: .init(
                    normal: EasyDay.normal.weight, reduced: EasyDay.reduced.weight, minimum: EasyDay.minimum.weight)))
    }

    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Public/assets/js/offline/core-constants.js").standardizedFileURL
    static let marker = "export default "

    @Test("core-constants.js holds Core's values")
    func sameAsCore() throws {
        let text = try String(contentsOf: Self.file, encoding: .utf8)
        let start = try #require(text.range(of: Self.marker), "no \(Self.marker) in core-constants.js")
        var json = text[start.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)
        if json.hasSuffix(";") { json.removeLast() }
        let core = Self.core()
        if ProcessInfo.processInfo.environment["FLASHCARDS_WRITE_CORE_CONSTANTS"] == "1" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
            let body = String(decoding: try encoder.encode(core), as: UTF8.self)
            try (String(text[..<start.upperBound]) + body + ";\n").write(
                to: Self.file, atomically: true, encoding: .utf8)
            return
        }
        let shared = try JSONDecoder().decode(Constants.self, from: Data(json.utf8))
        #expect(
            shared == core,
            "core-constants.js differs from Core: run FLASHCARDS_WRITE_CORE_CONSTANTS=1 swift test --filter CoreConstantsTests"
        )
    }
}
