import FlashcardsAPI
import FlashcardsClient
import Foundation
import Observation

/// The quiz: the due card as a multiple-choice question (the server picks the distractors), right
/// or wrong shown at once, the answer rated as the server says (right: FSRS Good / ladder Einfach;
/// wrong: Again / Schwer), then the next question.
@MainActor @Observable
public final class QuizSessionModel {
    /// What the screen shows.
    public enum Phase: Equatable, Sendable {
        /// Waiting for the server.
        case loading
        /// A question; the learner chooses one of `choices`.
        case question(QuizResponse)
        /// The choice made and whether it was right; the right one is `question.correctIndex`.
        case answered(QuizResponse, chosen: Int, correct: Bool)
        /// Nothing is due; `nextDueAt` says when the next card is.
        case finished(nextDueAt: Date?)
        /// No connection: the answers so far are kept and sent later.
        case offline
        /// Something else failed; the message says what.
        case failed(String)
    }

    /// What the screen shows.
    public private(set) var phase: Phase = .loading
    /// Questions answered in this session.
    public private(set) var answered = 0
    /// Of these, the right ones.
    public private(set) var correct = 0
    /// An answer is being sent.
    public private(set) var isWorking = false

    private let sender: RatingSender

    /// A quiz over `stackId`; answers that cannot reach the server go to `queue`.
    public init(stackId: UUID, client: FlashcardsClient, queue: OfflineReviewQueue, clock: any AppClock = SystemClock())
    {
        sender = RatingSender(stackId: stackId, client: client, queue: queue, clock: clock)
    }

    /// Sends what waits in the queue, then asks the first question.
    public func start() async {
        await sender.sendWaiting()
        await next()
    }

    /// The next question.
    public func next() async {
        phase = .loading
        do {
            let quiz = try await sender.client.quiz(in: sender.stackId)
            sender.cardShown()
            if quiz.card == nil {
                phase = .finished(nextDueAt: quiz.nextDueAt)
            } else {
                phase = .question(quiz)
            }
        } catch {
            phase = StudyFailure.phase(for: error, offline: .offline, failed: Phase.failed)
        }
    }

    /// Chooses the answer at `index`: shows right or wrong and rates the card.
    public func choose(_ index: Int) async {
        guard case .question(let quiz) = phase, let card = quiz.card, let right = quiz.correctIndex,
            quiz.choices.indices.contains(index), !isWorking
        else { return }
        isWorking = true
        defer { isWorking = false }
        let isRight = index == right
        do {
            let outcome = try await sender.rate(
                card.id, isRight ? quiz.ratingIfRight : quiz.ratingIfWrong, mode: .quiz)
            answered += 1
            if isRight { correct += 1 }
            if case .queued = outcome {
                phase = .offline
            } else {
                phase = .answered(quiz, chosen: index, correct: isRight)
            }
        } catch {
            phase = StudyFailure.phase(for: error, offline: .offline, failed: Phase.failed)
        }
    }

    /// The session so far, for its last screen.
    public var summary: SessionSummary {
        sender.summary(reviewed: answered, correct: correct)
    }
}

/// Typing the answer: the server compares it (case, punctuation and, on request, accents aside;
/// a typo is "close") and shows the difference; the verdict's rating is sent, or the learner says
/// "Ich hatte recht" and the right answer's rating is sent instead.
@MainActor @Observable
public final class WriteSessionModel {
    /// What the screen shows.
    public enum Phase: Equatable, Sendable {
        /// Waiting for the server.
        case loading
        /// The question; the learner types into ``typed``.
        case card(CardDTO)
        /// The typed answer compared with the card's.
        case checked(CardDTO, CheckAnswerResponse)
        /// Nothing is due; `nextDueAt` says when the next card is.
        case finished(nextDueAt: Date?)
        /// No connection: the answers so far are kept and sent later.
        case offline
        /// Something else failed; the message says what.
        case failed(String)
    }

    /// What the screen shows.
    public private(set) var phase: Phase = .loading
    /// The answer being typed.
    public var typed = ""
    /// Accents do not count ("Ubung" for "Übung").
    public var ignoreDiacritics = false
    /// Answers rated in this session.
    public private(set) var answered = 0
    /// Of these, the ones the check found correct (or the learner claimed).
    public private(set) var correct = 0
    /// A request is running.
    public private(set) var isWorking = false

    private let sender: RatingSender

    /// Typing answers for `stackId`'s due cards; ratings that cannot reach the server go to `queue`.
    public init(stackId: UUID, client: FlashcardsClient, queue: OfflineReviewQueue, clock: any AppClock = SystemClock())
    {
        sender = RatingSender(stackId: stackId, client: client, queue: queue, clock: clock)
    }

    /// Sends what waits in the queue, then shows the first card.
    public func start() async {
        phase = .loading
        await sender.sendWaiting()
        do {
            show(try await sender.client.nextCard(in: sender.stackId))
        } catch {
            phase = StudyFailure.phase(for: error, offline: .offline, failed: Phase.failed)
        }
    }

    /// Compares the typed answer with the card's (nothing is written yet). An empty answer counts
    /// as "I don't know" and is compared all the same.
    public func check() async {
        guard case .card(let card) = phase, !isWorking else { return }
        isWorking = true
        defer { isWorking = false }
        do {
            let result = try await sender.client.check(
                typed, for: card.id, in: sender.stackId, ignoreDiacritics: ignoreDiacritics ? true : nil)
            phase = .checked(card, result)
        } catch {
            phase = StudyFailure.phase(for: error, offline: .offline, failed: Phase.failed)
        }
    }

    /// Rates the checked card by the verdict, or as right when the learner says so, and shows the
    /// next card.
    public func rate(claimingRight: Bool = false) async {
        guard case .checked(let card, let result) = phase, !isWorking else { return }
        isWorking = true
        defer { isWorking = false }
        let right = claimingRight || result.verdict == .correct
        do {
            let outcome = try await sender.rate(
                card.id, claimingRight ? result.ratingIfRight : result.rating, mode: .write)
            answered += 1
            if right { correct += 1 }
            switch outcome {
            case .sent(let answer): show(answer.next)
            case .queued: phase = .offline
            }
        } catch {
            phase = StudyFailure.phase(for: error, offline: .offline, failed: Phase.failed)
        }
    }

    /// The session so far, for its last screen.
    public var summary: SessionSummary {
        sender.summary(reviewed: answered, correct: correct)
    }

    private func show(_ next: StudyNextResponse) {
        typed = ""
        sender.cardShown()
        if let card = next.card {
            phase = .card(card)
        } else {
            phase = .finished(nextDueAt: next.nextDueAt)
        }
    }
}

/// The phase a study screen shows for a failure: offline, or the failure's sentence.
enum StudyFailure {
    static func phase<Phase>(for error: any Error, offline: Phase, failed: (String) -> Phase) -> Phase {
        UserFacingError.isOffline(error) ? offline : failed(UserFacingError.message(for: error))
    }
}
