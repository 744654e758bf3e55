/// How a card's texts are written.
public enum CardFormat: String, Codable, Sendable, CaseIterable {
    /// Plain text, shown as written (every card made before rich text, and the default).
    case plain
    /// The rich-text subset of ``RichText``: Markdown with formulas.
    case markdown

    /// `text` as plain text: itself for a plain card, without its formatting for a rich one.
    public func plainText(_ text: String) -> String {
        self == .markdown ? RichText.plainText(text) : text
    }

    /// `text` as the words a learner types for it (write mode, the quiz's options): the plain text
    /// without images, unless images are all there is (then their descriptions).
    public func answerText(_ text: String) -> String {
        guard self == .markdown else { return text }
        let words = RichText.plainText(text, showingImages: false)
        return words.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? RichText.plainText(text) : words
    }
}
