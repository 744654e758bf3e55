import FlashcardsCore
import Foundation

/// A stored value its type does not know (a row written by hand or by a newer version, a damaged
/// database): reading it is an error that names the column and the value, never a silent default.
/// The request that meets it fails with a 500 (logged with this description); a job fails.
struct UnknownStoredValue: Error, Equatable, CustomStringConvertible {
    /// `table.column`, e.g. `cards.kind`.
    let column: String
    /// The value as stored.
    let value: String

    var description: String { "Unknown value '\(value)' in \(column)" }
}

/// Reads a stored enum: `Value(rawValue:)`, or `UnknownStoredValue` naming `column`.
func storedValue<Value: RawRepresentable>(_ type: Value.Type, _ raw: Value.RawValue, column: String) throws
    -> Value
{
    guard let value = Value(rawValue: raw) else { throw UnknownStoredValue(column: column, value: "\(raw)") }
    return value
}

extension StudyRating {
    /// A rating as a log row stores it (`review_logs.scheduler` and `.rating`); an unknown
    /// scheduler name or number is `UnknownStoredValue`.
    static func stored(scheduler: String, rating: Int) throws -> StudyRating {
        let kind = try FlashcardsServer.storedValue(SchedulerKind.self, scheduler, column: "review_logs.scheduler")
        guard let rating = StudyRating(scheduler: kind, storedValue: rating) else {
            throw UnknownStoredValue(column: "review_logs.rating", value: "\(rating) (\(scheduler))")
        }
        return rating
    }
}
