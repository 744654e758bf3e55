import FlashcardsCore
import Foundation

/// A step of a generation that the server persists and shows ("Seite 12 von 80 gelesen").
public enum GenerationProgress: Sendable, Hashable, Codable {
    /// Text was read from `done` of `total` pages.
    case pagesRead(done: Int, total: Int)
    /// Text recognition finished `done` of `total` pages or images.
    case pagesRecognized(done: Int, total: Int)
    /// The generator started section `index` (1-based) of `total`.
    case chunkStarted(index: Int, total: Int)
    /// `count` cards have been made so far.
    case cardsMade(count: Int)
    /// These drafts are final (no later step drops them): they can be shown while work goes on.
    case draftsMade([DraftCard])

    /// The job stage this step belongs to (`reading`, `recognizing`, `generating`), as in `JobProgressDTO`.
    public var stage: String {
        switch self {
        case .pagesRead: "reading"
        case .pagesRecognized: "recognizing"
        case .chunkStarted, .cardsMade, .draftsMade: "generating"
        }
    }

    /// Items done in the stage (pages or sections), when counted.
    public var current: Int? {
        switch self {
        case .pagesRead(let done, _), .pagesRecognized(let done, _): done
        case .chunkStarted(let index, _): index
        case .cardsMade, .draftsMade: nil
        }
    }

    /// Items in the stage, when known.
    public var total: Int? {
        switch self {
        case .pagesRead(_, let total), .pagesRecognized(_, let total), .chunkStarted(_, let total): total
        case .cardsMade, .draftsMade: nil
        }
    }

    /// The German status line.
    public var germanText: String {
        switch self {
        case .pagesRead(let done, let total): "Seite \(done) von \(total) gelesen"
        case .pagesRecognized(let done, let total): "Texterkennung: Seite \(done) von \(total)"
        case .chunkStarted(let index, let total): "Abschnitt \(index) von \(total)"
        case .cardsMade(let count): count == 1 ? "1 Karte erstellt" : "\(count) Karten erstellt"
        case .draftsMade(let drafts): drafts.count == 1 ? "1 neuer Vorschlag" : "\(drafts.count) neue Vorschläge"
        }
    }

    /// The English status line.
    public var englishText: String {
        switch self {
        case .pagesRead(let done, let total): "Read page \(done) of \(total)"
        case .pagesRecognized(let done, let total): "Text recognition: page \(done) of \(total)"
        case .chunkStarted(let index, let total): "Section \(index) of \(total)"
        case .cardsMade(let count): count == 1 ? "1 card made" : "\(count) cards made"
        case .draftsMade(let drafts): drafts.count == 1 ? "1 new draft" : "\(drafts.count) new drafts"
        }
    }
}

/// Receives progress events; called from the generating task, must return quickly.
public typealias ProgressHandler = @Sendable (GenerationProgress) -> Void
