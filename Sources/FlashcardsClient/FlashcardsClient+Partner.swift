import FlashcardsAPI
import Foundation

/// The study partner's whole answer, read from its event stream.
public struct PartnerAnswer: Sendable, Hashable {
    /// The learner's cards the answer draws on.
    public var sources: [PartnerSourceDTO]
    /// The answer's Markdown as the model wrote it.
    public var text: String
    /// The answer as sanitised HTML (empty when the model stopped answering).
    public var html: String
    /// For "more cards": the generation job whose drafts the draft editor shows.
    public var jobId: UUID?
    /// The stream's error, when the model stopped answering mid-way (what came before is kept).
    public var error: ErrorResponse?
}

extension FlashcardsClient {
    /// Asks the study partner about a stack (or one of its cards) and reads the whole answer. The
    /// server streams it as Server-Sent Events; this call returns once it is complete.
    /// A server without a language model refuses with 409 `partner_needs_model`.
    public func askPartner(in stack: UUID, _ request: PartnerRequest) async throws -> PartnerAnswer {
        let data = try await transport.send(Endpoint.V1.askPartner, stack.path, body: .json(request))
        return try Self.partnerAnswer(from: data)
    }

    /// The answer in an event stream's text.
    static func partnerAnswer(from data: Data) throws -> PartnerAnswer {
        var answer = PartnerAnswer(sources: [], text: "", html: "", jobId: nil, error: nil)
        let decoder = FlashcardsJSON.makeDecoder()
        let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        for block in text.components(separatedBy: "\n\n") {
            var name = "message"
            var payload = ""
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event:") { name = line.dropFirst(6).trimmingCharacters(in: .whitespaces) }
                if line.hasPrefix("data:") { payload += line.dropFirst(5).trimmingCharacters(in: .whitespaces) }
            }
            guard !payload.isEmpty else { continue }
            let bytes = Data(payload.utf8)
            do {
                switch name {
                case "sources": answer.sources = try decoder.decode(PartnerSourcesEvent.self, from: bytes).sources
                case "delta": answer.text += try decoder.decode(PartnerDeltaEvent.self, from: bytes).text
                case "done":
                    let done = try decoder.decode(PartnerDoneEvent.self, from: bytes)
                    answer.html = done.html
                    answer.jobId = done.jobId
                case "error": answer.error = try decoder.decode(ErrorResponse.self, from: bytes)
                default: continue
                }
            } catch {
                throw FlashcardsError.decoding("study partner event \(name): \(error)")
            }
        }
        return answer
    }
}
