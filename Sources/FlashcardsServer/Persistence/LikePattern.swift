/// Text taken literally in a LIKE pattern whose escape character is a backslash (`… ESCAPE`): a
/// search for "50%" finds "50%" only.
enum LikePattern {
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}
