import ArgumentParser
import FlashcardsCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `flashcards fsrs …`: FSRS-6 tools working on review logs (replay, benchmark).
public struct FSRSCommand: AsyncParsableCommand {
    /// Command configuration and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "fsrs",
        abstract: "FSRS-6 tools: replay a review log, benchmark the scheduler, fit parameters.",
        subcommands: [
            Replay.self, Bench.self, FSRSOptimizeCommand.self, FSRSEvaluateCommand.self, FSRSSimulateCommand.self,
            FSRSLoadBalanceCommand.self,
        ]
    )

    /// Creates the command.
    public init() {}

    /// Scheduler options shared by the subcommands.
    struct SchedulerOptions: ParsableArguments {
        @Option(help: "21 comma-separated FSRS-6 parameters (default: FSRS-6 defaults).")
        var parameters: String?

        @Option(help: "Desired retention, 0 < r < 1.")
        var retention: Double = 0.9

        @Option(help: "Learning steps, e.g. \"1m,10m\" (s, m, h, d; empty for none).")
        var learningSteps: String = "1m,10m"

        @Option(help: "Relearning steps, e.g. \"10m\" (empty for none).")
        var relearningSteps: String = "10m"

        @Option(help: "Maximum review interval in days.")
        var maximumInterval: Int = 36_500

        @Flag(inversion: .prefixedNo, help: "Spread review intervals with seeded fuzz (seed: card id + review count).")
        var fuzz: Bool = true

        @Option(help: "Hour at which a new day starts (Anki's \"next day starts at\").")
        var dayStart: Int = 4

        @Option(help: "Time zone of the day start, an IANA name such as Europe/Berlin.")
        var timeZone: String = "UTC"

        @Flag(
            name: [.customLong("twenty-four-hour-periods"), .customLong("24h")],
            help: "Count days as 24-hour periods since the last review (py-fsrs) instead of day rollovers."
        )
        var twentyFourHourPeriods: Bool = false

        func scheduler() throws -> FSRSScheduler {
            var configuration = FSRSConfiguration(
                desiredRetention: retention, maximumInterval: maximumInterval, fuzz: fuzz)
            if let parameters {
                guard let values = FSRSConfiguration.parseParameters(parameters) else {
                    throw ValidationError("--parameters must be 21 numbers separated by commas")
                }
                configuration.parameters = values
            }
            guard let learning = FSRSConfiguration.parseSteps(learningSteps) else {
                throw ValidationError("--learning-steps: cannot read \"\(learningSteps)\" (use e.g. 1m,10m)")
            }
            guard let relearning = FSRSConfiguration.parseSteps(relearningSteps) else {
                throw ValidationError("--relearning-steps: cannot read \"\(relearningSteps)\" (use e.g. 10m)")
            }
            configuration.learningSteps = learning
            configuration.relearningSteps = relearning
            if twentyFourHourPeriods {
                configuration.dayCounting = .twentyFourHourPeriods
            } else {
                guard let zone = TimeZone(identifier: timeZone) else {
                    throw ValidationError("--time-zone: unknown time zone \"\(timeZone)\"")
                }
                configuration.dayCounting = .rollover(hourOfDay: dayStart, timeZone: zone)
            }
            do {
                return try FSRSScheduler(configuration: configuration)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    /// `flashcards fsrs replay FILE`: one JSON object per review, in input order.
    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replay a review-log CSV and print each card's FSRS state after every review as JSON lines.",
            discussion: """
                FILE has the columns card_id,review_rating,review_time,review_duration (ISO-8601 times). \
                Each card's reviews must be in time order. Output fields: card_id, review_time, rating, \
                state, step, stability, difficulty, due (times in UTC).
                """
        )

        @Argument(help: "Review-log CSV file (\"-\" for standard input).")
        var file: String

        @OptionGroup var options: SchedulerOptions

        func run() async throws {
            let scheduler = try options.scheduler()
            let data: Data
            do {
                data =
                    file == "-"
                    ? FileHandle.standardInput.readDataToEndOfFile()
                    : try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw ValidationError("cannot read \(file): \(error.localizedDescription)")
            }
            let rows: [ReviewLogCSV.Row]
            do {
                rows = try data.withUnsafeBytes { raw throws(ReviewLogCSV.ParseError) in
                    try ReviewLogCSV.parse(utf8: raw.bindMemory(to: UInt8.self))
                }
            } catch {
                FileHandle.standardError.write(Data("\(file): \(String(describing: error))\n".utf8))
                throw ExitCode.failure
            }
            var output = BufferedOutput()
            FSRSReplay.forEach(rows, scheduler: scheduler) { step in
                output.writeLine { FSRSReplay.appendJSONLine(step, to: &$0) }
            }
            output.flush()
        }
    }

    /// `flashcards fsrs bench`: replay speed on a deterministic synthetic log.
    struct Bench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure replay speed on a deterministic synthetic review log.")

        @Option(help: "Number of reviews to generate.")
        var reviews: Int = 1_000_000

        @Option(help: "Number of cards the reviews are spread over.")
        var cards: Int = 50_000

        @Option(help: "Seed of the synthetic log.")
        var seed: UInt64 = 42

        @Option(help: "Timed repetitions; the best is reported.")
        var repeats: Int = 3

        @OptionGroup var options: SchedulerOptions

        func validate() throws {
            guard reviews > 0, cards > 0, repeats > 0 else {
                throw ValidationError("--reviews, --cards and --repeats must be positive")
            }
        }

        func run() async throws {
            let scheduler = try options.scheduler()
            let log = FSRSReplay.syntheticLog(reviews: reviews, cards: cards, seed: seed, scheduler: scheduler)
            let clock = ContinuousClock()
            var bestWall = Duration.seconds(1_000_000)
            var bestCPU = Double.infinity
            var checksum = 0.0
            for _ in 0..<repeats {
                let cpuStart = threadCPUSeconds()
                let elapsed = clock.measure {
                    // Sum a value of every state so the optimiser cannot drop the work.
                    var sum = 0.0
                    FSRSReplay.forEach(log, scheduler: scheduler) { sum += $0.card.stability ?? 0 }
                    checksum = sum
                }
                bestCPU = min(bestCPU, threadCPUSeconds() - cpuStart)
                bestWall = min(bestWall, elapsed)
            }
            let wall = Double(bestWall.components.seconds) + Double(bestWall.components.attoseconds) * 1e-18
            print(
                "replayed \(log.count) reviews of \(cards) cards: best of \(repeats) "
                    + "\(String(format: "%.3f", bestCPU)) s CPU, \(String(format: "%.3f", wall)) s wall"
            )
            print("\(Int(Double(log.count) / bestCPU)) reviews/s of CPU time (checksum \(checksum))")
        }

        /// CPU time of the calling thread: on a shared machine wall time also counts other processes.
        private func threadCPUSeconds() -> Double {
            var spec = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
            return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
        }
    }
}

/// Collects output and writes it to standard output in large blocks: a million `print` calls would
/// take longer than the replay itself.
private struct BufferedOutput {
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 17) }

    /// Lets `body` append one line's bytes, then adds the line break.
    mutating func writeLine(_ body: (inout [UInt8]) -> Void) {
        body(&buffer)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}
