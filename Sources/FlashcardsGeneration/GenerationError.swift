import Foundation

/// Everything that can go wrong while turning material into cards, with messages a user can act on
/// (German first, English second). The server maps these to HTTP statuses in one place.
public enum GenerationError: Error, Sendable, Hashable, LocalizedError {
    /// A command-line tool (pdftotext, tesseract, …) or its data is not installed on the server.
    case toolMissing(tool: String, package: String)
    /// The PDF needs a password.
    case encryptedPDF
    /// No text could be found (a scanned PDF without OCR, a blank page, a photo without writing).
    case noTextFound(ocrAttempted: Bool)
    /// The upload is empty.
    case emptyFile
    /// The file is larger than allowed.
    case fileTooLarge(limitBytes: Int)
    /// The PDF has more pages than allowed.
    case tooManyPages(pages: Int, limit: Int)
    /// A tool ran longer than its time limit and was stopped.
    case timeout(tool: String, seconds: Int)
    /// The content is neither PDF, PNG, JPEG nor UTF-8 text.
    case unsupportedType
    /// The PDF is damaged or not really a PDF.
    case brokenPDF
    /// A tool failed or produced more output than allowed.
    case toolFailed(tool: String, detail: String)
    /// Topic-only generation needs a language model, and none is configured.
    case topicNeedsModel
    /// The topic is empty or too long (more than 200 characters).
    case invalidTopic
    /// The language model could not be reached or refused the request (after retries).
    case modelUnavailable(detail: String)
    /// The language model kept answering with output that is not valid card JSON.
    case modelOutputInvalid
    /// The material was read, but no card could be made from it.
    case nothingGenerated

    /// A stable machine-readable code for the error envelope.
    public var code: String {
        switch self {
        case .toolMissing: "tool_missing"
        case .encryptedPDF: "encrypted_pdf"
        case .noTextFound: "no_text_found"
        case .emptyFile: "empty_file"
        case .fileTooLarge: "file_too_large"
        case .tooManyPages: "too_many_pages"
        case .timeout: "timeout"
        case .unsupportedType: "unsupported_type"
        case .brokenPDF: "broken_pdf"
        case .toolFailed: "tool_failed"
        case .topicNeedsModel: "topic_needs_model"
        case .invalidTopic: "invalid_topic"
        case .modelUnavailable: "model_unavailable"
        case .modelOutputInvalid: "model_output_invalid"
        case .nothingGenerated: "nothing_generated"
        }
    }

    /// Whether the user's material is at fault (4xx) rather than the server (5xx).
    public var isUserError: Bool {
        switch self {
        case .encryptedPDF, .noTextFound, .emptyFile, .fileTooLarge, .tooManyPages, .unsupportedType, .brokenPDF,
            .nothingGenerated, .topicNeedsModel, .invalidTopic:
            true
        case .toolMissing, .timeout, .toolFailed, .modelUnavailable, .modelOutputInvalid:
            false
        }
    }

    /// The message for the user in German.
    public var germanMessage: String {
        switch self {
        case .toolMissing(let tool, let package):
            "\(tool) ist auf dem Server nicht installiert (Paket \(package)). Bitte wende dich an den Betreiber."
        case .encryptedPDF:
            "Die PDF-Datei ist verschlüsselt oder mit einem Passwort geschützt. Bitte lade eine ungeschützte Datei hoch."
        case .noTextFound(let ocrAttempted):
            ocrAttempted
                ? "In der Datei wurde kein lesbarer Text gefunden, auch nicht per Texterkennung."
                : "Die PDF-Datei enthält keinen Text (vermutlich ein Scan). Die Texterkennung (OCR) ist ausgeschaltet."
        case .emptyFile:
            "Die Datei ist leer."
        case .fileTooLarge(let limit):
            "Die Datei ist zu groß. Erlaubt sind höchstens \(limit / 1_000_000) MB."
        case .tooManyPages(let pages, let limit):
            "Die PDF-Datei hat \(pages) Seiten; verarbeitet werden höchstens \(limit) Seiten."
        case .timeout(let tool, let seconds):
            "Das Lesen der Datei hat zu lange gedauert (\(tool), über \(seconds) Sekunden) und wurde abgebrochen."
        case .unsupportedType:
            "Dieser Dateityp wird nicht unterstützt. Erlaubt sind PDF, PNG, JPEG und Text (UTF-8, auch Markdown)."
        case .brokenPDF:
            "Die PDF-Datei ist beschädigt und kann nicht gelesen werden."
        case .toolFailed(let tool, _):
            "Beim Lesen der Datei ist ein Fehler aufgetreten (\(tool))."
        case .topicNeedsModel:
            "Karten zu einem Thema lassen sich nur mit einem Sprachmodell erstellen, und auf diesem Server ist keines eingerichtet."
        case .invalidTopic:
            "Bitte gib ein Thema mit höchstens 200 Zeichen an."
        case .modelUnavailable:
            "Das Sprachmodell ist gerade nicht erreichbar. Bitte versuche es später erneut."
        case .modelOutputInvalid:
            "Das Sprachmodell hat keine brauchbaren Karten geliefert. Bitte versuche es erneut oder passe deine Anweisungen an."
        case .nothingGenerated:
            "Aus dem Inhalt konnten keine Karteikarten erstellt werden."
        }
    }

    /// The message for the user in English.
    public var englishMessage: String {
        switch self {
        case .toolMissing(let tool, let package):
            "\(tool) is not installed on the server (package \(package)). Please contact the operator."
        case .encryptedPDF:
            "The PDF is encrypted or password-protected. Please upload an unprotected file."
        case .noTextFound(let ocrAttempted):
            ocrAttempted
                ? "No readable text was found in the file, not even with text recognition."
                : "The PDF contains no text (probably a scan), and text recognition (OCR) is turned off."
        case .emptyFile:
            "The file is empty."
        case .fileTooLarge(let limit):
            "The file is too large. At most \(limit / 1_000_000) MB are allowed."
        case .tooManyPages(let pages, let limit):
            "The PDF has \(pages) pages; at most \(limit) pages are processed."
        case .timeout(let tool, let seconds):
            "Reading the file took too long (\(tool), over \(seconds) seconds) and was stopped."
        case .unsupportedType:
            "This file type is not supported. Allowed are PDF, PNG, JPEG and text (UTF-8, Markdown too)."
        case .brokenPDF:
            "The PDF is damaged and cannot be read."
        case .toolFailed(let tool, _):
            "An error occurred while reading the file (\(tool))."
        case .topicNeedsModel:
            "Cards about a topic need a language model, and none is configured on this server."
        case .invalidTopic:
            "Please enter a topic of at most 200 characters."
        case .modelUnavailable:
            "The language model cannot be reached right now. Please try again later."
        case .modelOutputInvalid:
            "The language model did not return usable cards. Please try again or adjust your instructions."
        case .nothingGenerated:
            "No flashcards could be made from the content."
        }
    }

    /// German message, for logs and `localizedDescription`.
    public var errorDescription: String? { germanMessage }
}
