import FlashcardsAPI
import Foundation
import Testing

/// Ids of wire types with a new field, read as the app core reads them (through key paths), and
/// their wire form. (An incremental build that left a dependent module compiled against the old
/// layout of `DraftDTO` once made every `drafts.map(\.id)` return ids with a wrong first byte.)
@Suite("Wire types: ids through key paths, lowercase out, any case in")
struct DTOKeyPathTests {
    @Test("ids read through key paths are the ids")
    func ids() throws {
        let id = UUID()
        let other = UUID()
        let draft = DraftDTO(
            id: id, jobId: other, question: "q", answer: "a", sourcePage: 3, kind: "definition", status: "pending",
            source: "s", alternative: DraftAlternativeDTO(question: "x", answer: "y", kind: "cloze"), duplicateOf: "d",
            cardKind: .fillBlank)
        #expect([draft].map(\.id) == [id] && [draft].map(\.jobId) == [other])
        let card = CardDTO(
            id: id, stackId: other, question: "q", answer: "a", hint: nil, dueAt: Date(), level: 0, createdAt: Date(),
            updatedAt: Date(), kind: .cloze, variant: 2, noteId: "n", choices: ["c"])
        #expect([card].map(\.id) == [id] && [card].map(\.stackId) == [other])
        // And the wire form: lowercase out, either case in.
        let json = String(decoding: try FlashcardsJSON.makeEncoder().encode(draft), as: UTF8.self)
        #expect(json.contains(id.uuidString.lowercased()) && !json.contains(id.uuidString))
        let upper = json.replacingOccurrences(of: id.uuidString.lowercased(), with: id.uuidString)
        #expect(try FlashcardsJSON.makeDecoder().decode(DraftDTO.self, from: Data(upper.utf8)).id == id)
    }
}
