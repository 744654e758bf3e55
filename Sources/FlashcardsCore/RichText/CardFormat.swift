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
}
