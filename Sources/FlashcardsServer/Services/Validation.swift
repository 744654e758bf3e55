import FlashcardsCore
import Foundation

/// Input rules shared by both APIs. Messages are German, the product's first language.
enum Validate {
    /// A typed answer (Write mode) checked against the card's: at most as long as an answer may be.
    static func answerCheck(_ typed: String, against expected: String, ignoringDiacritics: Bool?) throws
        -> AnswerCheck.Result
    {
        guard typed.count <= TextLimits.answer else {
            throw AppError.validation("answer darf höchstens \(TextLimits.answer) Zeichen lang sein.")
        }
        return AnswerCheck.check(typed, against: expected, ignoringDiacritics: ignoringDiacritics ?? false)
    }

    /// A required text: trimmed, not empty, at most `max` characters, no NUL characters
    /// (PostgreSQL cannot store them).
    static func text(_ value: String, field: String, max: Int) throws -> String {
        try checked(value, field: field, max: max, required: true)
    }

    /// An optional text: as ``text(_:field:max:)`` but empty is allowed.
    static func optionalText(_ value: String, field: String, max: Int) throws -> String {
        try checked(value, field: field, max: max, required: false)
    }

    private static func checked(_ value: String, field: String, max: Int, required: Bool) throws -> String {
        switch TextCheck.checked(value, max: max, required: required) {
        case .success(let text): return text
        case .failure(.empty): throw AppError.validation("\(field) darf nicht leer sein.")
        case .failure(.tooLong): throw AppError.validation("\(field) darf höchstens \(max) Zeichen lang sein.")
        case .failure(.invalidCharacters): throw AppError.validation("\(field) enthält ungültige Zeichen.")
        }
    }

    /// A hint: nil or empty means none.
    static func hint(_ value: String?) throws -> String? {
        guard let value else { return nil }
        let hint = try optionalText(value, field: "Der Hinweis", max: TextLimits.hint)
        return hint.isEmpty ? nil : hint
    }

    /// A colour as `#RRGGBB` (the web app and SDK); `lenient` accepts any short non-empty text, as
    /// the original did, so its clients keep working.
    static func color(_ value: String, lenient: Bool = false) throws -> String {
        let color = try text(value, field: "Die Farbe", max: 32)
        if lenient { return color }
        let hex = color.dropFirst()
        guard color.first == "#", hex.count == 6, hex.allSatisfy(\.isHexDigit) else {
            throw AppError.validation("Die Farbe muss im Format #RRGGBB angegeben werden.")
        }
        return color
    }

    /// The lookup key of a mail sent to sign in or to ask for a reset link: not blank, and without
    /// a NUL character (which PostgreSQL cannot compare).
    static func mailKey(_ value: String) throws -> String {
        let key = UserModel.key(forMail: value)
        guard !key.isEmpty else { throw AppError.validation("Die E-Mail-Adresse darf nicht leer sein.") }
        guard !key.utf8.contains(0) else { throw AppError.validation("Die E-Mail-Adresse enthält ungültige Zeichen.") }
        return key
    }

    /// A plausible mail address.
    static func mail(_ value: String) throws -> String {
        let mail = try text(value, field: "Die E-Mail-Adresse", max: TextLimits.mail)
        let parts = mail.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix("."), !mail.contains(where: \.isWhitespace)
        else { throw AppError.validation("Die E-Mail-Adresse ist ungültig.") }
        return mail
    }

    /// A new password: 8 characters at least, 72 bytes at most (bcrypt reads no more).
    static func newPassword(_ value: String) throws -> String {
        guard value.count >= TextLimits.minimumPassword else {
            throw AppError.validation("Das Passwort muss mindestens \(TextLimits.minimumPassword) Zeichen lang sein.")
        }
        guard value.utf8.count <= TextLimits.maximumPassword else {
            throw AppError.invalid(
                "Das Passwort darf höchstens \(TextLimits.maximumPassword) Bytes lang sein.", code: "password_too_long")
        }
        guard !value.unicodeScalars.contains("\u{0}") else {
            throw AppError.validation("Das Passwort enthält ungültige Zeichen.")
        }
        return value
    }

    /// An IANA time zone name.
    static func timeZone(_ value: String) throws -> String {
        guard TimeZone(identifier: value) != nil, value.count <= 64 else {
            throw AppError.invalid("'\(value.prefix(64))' ist keine gültige Zeitzone.", code: "unknown_time_zone")
        }
        return value
    }

    /// Learn-ahead days: 0…3650.
    static func daysAhead(_ value: Int?, name: String = "daysAhead") throws -> Int {
        guard let value else { return 0 }
        guard (0...3_650).contains(value) else {
            throw AppError.validation("\(name) muss eine ganze Zahl von 0 bis 3650 sein.")
        }
        return value
    }

    /// Learn-ahead days from a query string, where anything but a whole number is an error.
    static func daysAhead(query: String?, name: String) throws -> Int {
        guard let query, !query.isEmpty else { return 0 }
        guard let value = Int(query) else {
            throw AppError.validation("\(name) muss eine ganze Zahl von 0 bis 3650 sein.")
        }
        return try daysAhead(value, name: name)
    }

    /// A UUID path segment; anything else behaves like an unknown id.
    static func uuid(_ value: String?, notFound: AppError) throws -> UUID {
        guard let value, let id = UUID(exactly: value) else { throw notFound }
        return id
    }
}

extension UUID {
    /// A UUID from exactly its 36 characters. Foundation's parser reads a C string, so it would take
    /// `"…\0abc"` as the UUID before the NUL byte.
    init?(exactly text: String) {
        guard text.utf8.count == 36, let id = UUID(uuidString: text) else { return nil }
        self = id
    }
}
