/// Documented limits of user text, in characters (Unicode extended grapheme clusters).
///
/// The original stored questions in a VARCHAR(255) and crashed above it; ours accepts long text up
/// to these limits and rejects longer text with a clear 400.
public enum TextLimits {
    /// The longest question.
    public static let question = 10_000
    /// The longest answer.
    public static let answer = 20_000
    /// The longest hint.
    public static let hint = 2_000
    /// The longest stack name.
    public static let stackName = 200
    /// The longest stack description.
    public static let stackDescription = 500
    /// The longest display name of a user.
    public static let userName = 100
    /// The longest e-mail address (RFC 5321).
    public static let mail = 254
    /// The shortest password for a new account.
    public static let minimumPassword = 8
    /// The longest password (bcrypt reads only 72 bytes; longer ones are refused instead of truncated).
    public static let maximumPassword = 72
}
