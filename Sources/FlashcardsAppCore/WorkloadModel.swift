import FlashcardsAPI
import FlashcardsClient
import Foundation
import Observation

/// The workload of one stack or of all stacks, as the statistics screen shows it: the days ahead with
/// minutes and cards, "what if" inputs, and the retention advice with the sentence the web app says.
@MainActor @Observable
public final class WorkloadModel {
    /// The forecast (or the what-if simulation last asked for).
    public private(set) var forecast: LoadState<WorkloadDTO> = .idle
    /// The retention comparison, once asked for.
    public private(set) var advice: LoadState<RetentionAdviceDTO> = .idle
    /// Why the what-if inputs were refused, in words.
    public private(set) var inputError: String?

    private let client: FlashcardsClient
    private let stack: UUID?

    /// The workload of `stack` (nil: all FSRS stacks).
    public init(client: FlashcardsClient, stack: UUID? = nil) {
        self.client = client
        self.stack = stack
    }

    /// The next `days` days with the stacks' settings.
    public func load(days: Int = 30) async {
        inputError = nil
        forecast = .loading
        do {
            if let stack {
                forecast = .loaded(try await client.workload(of: stack, days: days))
            } else {
                forecast = .loaded(try await client.workload(days: days))
            }
        } catch {
            forecast = .failed(Self.message(for: error))
        }
    }

    /// The days ahead with other inputs; invalid ones are refused before asking the server.
    public func simulate(_ changes: SimulationRequest) async {
        if let count = changes.newCardsPerDay, !(0...1_000).contains(count) {
            inputError = "Neue Karten pro Tag: eine ganze Zahl von 0 bis 1000."
            return
        }
        inputError = nil
        forecast = .loading
        do {
            if let stack {
                forecast = .loaded(try await client.simulate(stack, changes))
            } else {
                forecast = .loaded(try await client.simulate(changes))
            }
        } catch {
            forecast = .failed(Self.message(for: error))
        }
    }

    /// A year at each retention from 70 to 97 %.
    public func loadAdvice() async {
        advice = .loading
        do {
            if let stack {
                advice = .loaded(try await client.retentionAdvice(for: stack))
            } else {
                advice = .loaded(try await client.retentionAdvice())
            }
        } catch {
            advice = .failed(Self.message(for: error))
        }
    }

    /// What the last break plan, postponement or advance did (or, previewed, would do).
    public private(set) var reschedule: LoadState<RescheduleDTO> = .idle

    /// Plans a break from `from` to `to` (`YYYY-MM-DD`): previewed first, then, with
    /// `preview: false`, applied (the days away also become rest days). The forecast is loaded anew.
    public func planBreak(from: String, to: String, preview: Bool) async {
        guard from <= to else {
            reschedule = .failed("Das Ende der Pause liegt vor ihrem Anfang.")
            return
        }
        await reschedule(preview: preview) {
            try await self.client.planBreak(BreakRequest(from: from, to: to, preview: preview), in: self.stack)
        }
    }

    /// Postpones (`later`) or advances up to `count` review cards.
    public func move(_ count: Int, later: Bool, preview: Bool = false) async {
        guard (1...10_000).contains(count) else {
            reschedule = .failed("Gib eine Zahl von 1 bis 10000 ein.")
            return
        }
        await reschedule(preview: preview) {
            later
                ? try await self.client.postpone(count, in: self.stack, preview: preview)
                : try await self.client.advance(count, in: self.stack, preview: preview)
        }
    }

    /// "3 Karten kommen vorher, 12 danach." for a plan.
    public var rescheduleSentence: String? {
        guard case .loaded(let result) = reschedule else { return nil }
        let cards = { (n: Int) in n == 1 ? "1 Karte" : "\(n) Karten" }
        let verb = result.preview ? "kämen" : "kommen"
        switch (result.advanced, result.postponed) {
        case (0, 0): return "Keine Karte muss verschoben werden."
        case (let advanced, 0): return "\(cards(advanced)) \(verb) früher dran."
        case (0, let postponed): return "\(cards(postponed)) \(verb) später dran."
        case (let advanced, let postponed): return "\(cards(advanced)) \(verb) vorher, \(cards(postponed)) danach."
        }
    }

    private func reschedule(preview: Bool, _ work: @escaping () async throws -> RescheduleDTO) async {
        reschedule = .loading
        do {
            reschedule = .loaded(try await work())
            if !preview { await load() }
        } catch {
            reschedule = .failed(Self.message(for: error))
        }
    }

    /// "In den nächsten 30 Tagen: im Schnitt etwa 12 Minuten und 35 Karten am Tag."
    public var summary: String? {
        guard let workload = forecast.value else { return nil }
        if workload.cards == 0 {
            return "Noch keine Karten mit FSRS: Sobald du welche hast, siehst du hier deine nächsten Tage."
        }
        let cards = Int(workload.averageReviews.rounded())
        return
            "In den nächsten \(workload.days.count) Tagen: im Schnitt etwa \(Self.minutesText(workload.averageMinutes)) "
            + "Minuten und \(cards) \(cards == 1 ? "Karte" : "Karten") am Tag."
    }

    /// The advice in one sentence, as the web app says it.
    public var adviceSentence: String? {
        guard let advice = advice.value else { return nil }
        let percent = "\(Int((advice.recommended * 100).rounded())) %"
        let minutes = Self.minutesText(
            advice.options.first { $0.desiredRetention == advice.recommended }?.minutesPerDay ?? 0)
        let budget = advice.minutesBudget ?? 0
        switch advice.reason {
        case "within_budget":
            return
                "Mit \(percent) merkst du dir pro Minute am meisten und bleibst bei deinen \(budget) Minuten am Tag (etwa \(minutes))."
        case "over_budget":
            return
                "Auch mit \(percent) brauchst du etwa \(minutes) Minuten am Tag – mehr als deine \(budget). Weniger neue Karten am Tag helfen."
        case "no_budget":
            return "Mit \(percent) merkst du dir pro Minute Lernzeit am meisten (etwa \(minutes) Minuten am Tag)."
        default:
            return "Noch nichts zu vergleichen: Lerne ein paar Karten, dann rechnen wir mit deinem Gedächtnis."
        }
    }

    /// Minutes as a learner reads them: one decimal under 10 ("0,4"), whole minutes above.
    public static func minutesText(_ value: Double) -> String {
        if value >= 10 { return "\(Int(value.rounded()))" }
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10),\(tenths % 10)"
    }

    private static func message(for error: any Error) -> String {
        if (error as? FlashcardsError)?.code == "workload_needs_fsrs" {
            return "Die Vorschau rechnet mit FSRS; dieser Stapel nutzt die Lernstufen."
        }
        return UserFacingError.message(for: error)
    }
}
