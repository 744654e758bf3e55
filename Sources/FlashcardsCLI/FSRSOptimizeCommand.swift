import ArgumentParser
import FlashcardsCore
import Foundation

/// `flashcards fsrs optimize FILE`: fits FSRS-6 parameters to a review log and prints them with their
/// log loss next to that of the default parameters.
public struct FSRSOptimizeCommand: AsyncParsableCommand {
    /// Command configuration.
    public static let configuration = CommandConfiguration(
        commandName: "optimize",
        abstract: "Fit FSRS-6 parameters to a review log (CSV: card_id,review_rating,review_time,review_duration)."
    )

    /// The review log.
    @Argument(help: "Review log CSV file.")
    public var file: String

    /// Hour at which a new day starts.
    @Option(name: .customLong("day-start"), help: "Hour (0-23) at which a new day starts.")
    public var dayStart: Int = 4

    /// Time zone of the day rollover.
    @Option(name: .customLong("time-zone"), help: "Time zone of the day rollover (IANA name).")
    public var timeZone: String = "UTC"

    /// Train item by item instead of card by card.
    @Flag(name: .customLong("by-item"), help: "Replay each predicted review's history on its own (slower).")
    public var byItem = false

    /// Print timings instead of parameters.
    @Flag(
        name: .customLong("bench"),
        help: "Print optimizer timings for FILE and for a synthetic 100,000-review history instead."
    )
    public var bench = false

    /// Creates the command.
    public init() {}

    /// Validates the options.
    public func validate() throws {
        guard (0...23).contains(dayStart) else { throw ValidationError("--day-start must be between 0 and 23") }
        guard TimeZone(identifier: timeZone) != nil else { throw ValidationError("unknown time zone \(timeZone)") }
    }

    /// Runs the command.
    public func run() async throws {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let rows = try ReviewLogCSV.parse(text)
        let dayCounting = FSRSDayCounting.rollover(hourOfDay: dayStart, timeZone: TimeZone(identifier: timeZone)!)
        let histories = FSRSReviewHistory.histories(from: rows, dayCounting: dayCounting)
        var configuration = FSRSOptimizerConfiguration()
        configuration.groupByCard = !byItem
        if bench {
            print(Self.benchmark(histories: histories, configuration: configuration))
            return
        }
        let result = try FSRSOptimizer.fit(histories: histories, configuration: configuration)
        print(Self.json(result))
    }

    /// The result as `{"parameters": […], "logLoss", "rmseBins", "reviews", "defaultLogLoss"}`, in that order.
    static func json(_ result: FSRSOptimizationResult) -> String {
        let parameters = result.parameters.map { number($0) }.joined(separator: ", ")
        return """
            {"parameters": [\(parameters)], "logLoss": \(number(result.logLoss)), \
            "rmseBins": \(number(result.rmseBins)), "reviews": \(result.reviews), \
            "defaultLogLoss": \(number(result.defaultLogLoss))}
            """
    }

    /// Six significant decimals are more than the data supports and keep the line readable.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let rounded = (value * 1_000_000).rounded() / 1_000_000
        return "\(rounded)"
    }

    /// Median wall-clock seconds of the optimizer (training only) over a few runs, on `histories` and
    /// on a deterministic synthetic history of 100,000 reviews.
    static func benchmark(histories: [FSRSReviewHistory], configuration: FSRSOptimizerConfiguration) -> String {
        func seconds(_ histories: [FSRSReviewHistory], runs: Int) -> Double {
            var times: [Double] = []
            for _ in 0..<runs {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = FSRSOptimizer.parameters(histories: histories, configuration: configuration)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            return times.sorted()[times.count / 2]
        }
        let sampleReviews = histories.reduce(0) { $0 + $1.reviews.count }
        let synthetic = FSRSSyntheticHistory.generate(reviewCount: 100_000)
        let sample = seconds(histories, runs: 5)
        let large = seconds(synthetic, runs: 3)
        return """
            {"fileReviews": \(sampleReviews), "fileSeconds": \(number(sample)), \
            "syntheticReviews": 100000, "syntheticSeconds": \(number(large))}
            """
    }
}
