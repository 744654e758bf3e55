import FlashcardsAPI
import FlashcardsCore
import Foundation
import Vapor

/// Encodes every JSON response with the shared conventions (ISO-8601 dates with milliseconds).
func jsonResponse<T: Encodable>(_ value: T, status: HTTPResponseStatus = .ok) throws -> Response {
    let response = Response(status: status)
    response.headers.contentType = .json
    response.body = .init(data: try FlashcardsJSON.makeEncoder().encode(value))
    return response
}

extension Request {
    /// The query parameter `name`, nil when absent. A URL without a query skips Vapor's query
    /// decoder, which cost ~20 µs of every study request even then.
    func queryText(_ name: String) -> String? {
        guard let text = url.query, !text.isEmpty else { return nil }
        return query[String.self, at: name]
    }

    /// A whole-number query parameter within `range`; absent gives `default`, anything else a 400.
    func intQuery(_ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = queryText(name), !text.isEmpty else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw AppError.validation(
                "\(name) muss eine ganze Zahl von \(range.lowerBound) bis \(range.upperBound) sein.")
        }
        return number
    }
}

// Fluent models never leave the server; these build the wire types.
extension UserModel {
    var dto: UserDTO { UserDTO(id: id!, name: name, mail: mail, timeZone: timeZone, createdAt: createdAt) }
}

extension StackModel {
    func dto(cardCount: Int, dueCount: Int) -> StackDTO {
        settingsDTO(cardCount: cardCount, dueCount: dueCount)
    }
}

extension CardModel {
    func dto(stack: StackModel) -> CardDTO {
        stateDTO(stack: stack)
    }

    func compat(options: [LadderOption] = []) -> CompatCard {
        CompatCard(
            id: id!, uniqueId: uniqueId.uuidString.lowercased(), question: question, answer: answer, hint: hint ?? "",
            difficultyAndDurations: options.map(\.compat),
            maturity: CompatMaturity(id: id!, maturity: FlashcardsJSON.string(from: dueAt), level: level))
    }
}

extension LadderOption {
    var dto: StudyOptionDTO {
        StudyOptionDTO(
            rating: rating.key, id: rating.rawValue, label: rating.germanName, color: rating.color,
            intervalSeconds: seconds, intervalText: DurationText.german(seconds: seconds))
    }

    var compat: CompatDifficultyAndDuration {
        CompatDifficultyAndDuration(
            difficulty: CompatDifficulty(id: rating.rawValue, name: rating.germanName, color: rating.color),
            duration: CompatDuration(displayName: DurationText.german(seconds: seconds)))
    }
}
