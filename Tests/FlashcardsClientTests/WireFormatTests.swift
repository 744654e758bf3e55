import FlashcardsAPI
import FlashcardsCore
import Foundation
import Testing

/// The wire types' synthesized coding (`@Nullable`, `@LowercaseUUID`, `@WrittenWithDefault`): what
/// JavaScript clients and `Public/openapi.json` rely on.
@Suite("Wire format of the /api/v1 types")
struct WireFormatTests {
    static let id = UUID(uuidString: "0F6D8C1E-4F0B-4C55-9A3B-1DF3F5B0C0AA")!
    static let stackId = UUID(uuidString: "A1B2C3D4-E5F6-4711-8899-AABBCCDDEEFF")!
    static let date = FlashcardsJSON.date(from: "2026-06-13T15:51:05.123Z")!

    /// `value` written by the shared encoder, as a JSON object.
    static func object<Value: Encodable>(_ value: Value) throws -> [String: Any] {
        let data = try FlashcardsJSON.makeEncoder().encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("absent values are explicit nulls, ids lowercase, a card's kind and variant always written")
    func explicitNulls() throws {
        let card = CardDTO(
            id: Self.id, stackId: Self.stackId, question: "Frage", answer: "Antwort", hint: nil, dueAt: Self.date,
            level: 0, createdAt: Self.date, updatedAt: Self.date, kind: nil, variant: nil)
        let json = try Self.object(card)
        let nullKeys = [
            "hint", "state", "stability", "difficulty", "lastReviewedAt", "reviewCount", "step", "firstReviewedAt",
            "number", "rendered", "noteId", "choices", "shown",
        ]
        for key in nullKeys {
            #expect(json[key] is NSNull, "\(key): \(String(describing: json[key]))")
        }
        #expect(json["id"] as? String == "0f6d8c1e-4f0b-4c55-9a3b-1df3f5b0c0aa")
        #expect(json["stackId"] as? String == "a1b2c3d4-e5f6-4711-8899-aabbccddeeff")
        #expect(json["kind"] as? String == "basic" && json["variant"] as? Int == 0)
        #expect(json["dueAt"] as? String == "2026-06-13T15:51:05.123Z")
        #expect(json.count == 25)

        let next = try Self.object(StudyNextResponse(card: nil, options: [], dueCount: 0, nextDueAt: nil))
        #expect(next["card"] is NSNull && next["nextDueAt"] is NSNull)
        let job = try Self.object(
            JobDTO(
                id: Self.id, kind: "import", status: "queued", progress: .queued, result: nil, error: nil,
                errorCode: nil, createdAt: Self.date, updatedAt: Self.date))
        #expect(job["result"] is NSNull && job["error"] is NSNull && job["errorCode"] is NSNull)
        #expect(job["id"] as? String == "0f6d8c1e-4f0b-4c55-9a3b-1df3f5b0c0aa")
        let box = try Self.object(MysteryBoxStateDTO(available: false, opened: nil))
        #expect(box["opened"] is NSNull)
        let settings = try Self.object(OnboardingDTO())
        #expect(settings["purpose"] is NSNull && settings["minutesPerDay"] is NSNull)
        let draft = try Self.object(
            DraftDTO(
                id: Self.id, jobId: Self.stackId, question: "F", answer: "A", sourcePage: nil, kind: "definition",
                status: "pending", source: nil, alternative: nil, duplicateOf: "0f6d8c1e"))
        #expect(draft["cardKind"] as? String == "basic" && draft["sourcePage"] is NSNull)
        #expect(draft["duplicateOf"] as? String == "0f6d8c1e" && draft["source"] is NSNull)
    }

    @Test("written values read back; a missing key (an older server) reads as nil")
    func roundTrip() throws {
        let card = CardDTO(
            id: Self.id, stackId: Self.stackId, question: "Anführungszeichen \" \\ / Ümlaute 🧠", answer: "A",
            hint: "Zeile\nZeile", dueAt: Self.date, level: 3, createdAt: Self.date, updatedAt: Self.date,
            state: .review, stability: 9.977995708203709, difficulty: 5.5, lastReviewedAt: Self.date, reviewCount: 2,
            step: nil, firstReviewedAt: Self.date, number: 7, bookmarked: true, format: .markdown,
            rendered: RenderedCardDTO(question: "<b>F</b>", answer: "A", hint: nil), kind: .cloze, variant: 2,
            noteId: "n", choices: ["x"], shown: nil)
        let data = try FlashcardsJSON.makeEncoder().encode(card)
        #expect(try FlashcardsJSON.makeDecoder().decode(CardDTO.self, from: data) == card)

        var older = try Self.object(card)
        for key in ["kind", "variant", "hint", "noteId", "shown"] { older.removeValue(forKey: key) }
        let decoded = try FlashcardsJSON.makeDecoder().decode(
            CardDTO.self, from: try JSONSerialization.data(withJSONObject: older))
        #expect(decoded.kind == nil && decoded.variant == nil && decoded.hint == nil && decoded.noteId == nil)
        // Ids are read in either case; absent optional fields read as nil.
        let stackJSON = """
            {"id":"0F6D8C1E-4F0B-4C55-9A3B-1DF3F5B0C0AA","name":"S","color":"#000000","cardCount":0,"dueCount":0,
            "createdAt":"2026-06-13T15:51:05.123Z","updatedAt":"2026-06-13T15:51:05.123Z","scheduler":"fsrs",
            "desiredRetention":0.9,"learningSteps":[60],"relearningSteps":[600],"newCardsPerDay":20,
            "reviewsPerDay":200,"hintsEnabled":true,"description":"","favorite":false,"reviewShare":0}
            """
        let stack = try FlashcardsJSON.makeDecoder().decode(StackDTO.self, from: Data(stackJSON.utf8))
        #expect(stack.id == Self.id && stack.icon == nil && stack.matchBestMs == nil && stack.lastStudiedAt == nil)
    }
}
