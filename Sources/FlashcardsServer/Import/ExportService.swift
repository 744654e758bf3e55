import FlashcardsAPI
import FlashcardsCore
import Foundation
import SQLKit
import Vapor

/// A stack as a file to take elsewhere.
enum ExportService {
    /// The header of a CSV export: names the importer reads back (`DelimitedText.mapping(header:)`).
    static let csvHeader = ["Vorderseite", "Rückseite", "Hinweis", "Schlagwörter"]

    private struct Row: Decodable {
        let question: String
        let answer: String
        let hint: String?
        let tags: String?
    }

    /// The stack's cards in creation order: CSV with a header and a byte order mark (Excel reads
    /// UTF-8 only with one), or TSV without a header (Quizlet and Anki take the rows as they are).
    static func delimited(_ stack: StackModel, format: ExportFormat, on sql: any SQLDatabase) async throws -> Response {
        let rows = try await sql.select().columns("question", "answer", "hint", "tags").from("cards")
            .where("stack_id", .equal, stack.id!).orderBy("id").all(decoding: Row.self)
            .map { [$0.question, $0.answer, $0.hint ?? "", $0.tags ?? ""] }
        let text: String
        switch format {
        case .csv: text = DelimitedText.text([csvHeader] + rows, separator: ",", byteOrderMark: true)
        case .tsv: text = DelimitedText.text(rows, separator: "\t")
        }
        let response = Response(status: .ok, body: .init(string: text))
        response.headers.contentType = HTTPMediaType(
            type: "text", subType: format == .csv ? "csv" : "tab-separated-values", parameters: ["charset": "utf-8"])
        response.headers.replaceOrAdd(
            name: .contentDisposition, value: attachment(fileName: stack.name, extension: format.rawValue))
        return response
    }

    /// `attachment` with an ASCII file name and the real one in RFC 5987 form.
    static func attachment(fileName name: String, extension ext: String) -> String {
        let ascii = String(
            name.unicodeScalars.map {
                $0.isASCII && $0.value >= 0x20 && !"\"\\/;".unicodeScalars.contains($0) ? Character($0) : "_"
            })
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encoded = "\(name).\(ext)".addingPercentEncoding(withAllowedCharacters: allowed) ?? "export.\(ext)"
        return "attachment; filename=\"\(ascii).\(ext)\"; filename*=UTF-8''\(encoded)"
    }
}
