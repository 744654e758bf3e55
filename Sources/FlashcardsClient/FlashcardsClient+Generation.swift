import FlashcardsAPI
import Foundation

// Card generation and its drafts (`docs/generation.md`).
extension FlashcardsClient {
    /// Starts making cards for `stack` from pasted text or a topic: a job whose drafts wait for
    /// review (``drafts(in:jobId:)``).
    public func startGeneration(in stack: UUID, _ request: GenerationRequestDTO) async throws -> JobDTO {
        try await transport.send(JobDTO.self, Endpoint.V1.startGeneration, stack.path, body: .json(request))
    }

    /// The stack's pending drafts, optionally of one job.
    public func drafts(in stack: UUID, jobId: UUID? = nil) async throws -> [DraftDTO] {
        try await transport.send(
            [DraftDTO].self, Endpoint.V1.listDrafts, stack.path,
            query: jobId.map { [URLQueryItem(name: "jobId", value: $0.uuidString.lowercased())] } ?? [])
    }

    /// Changes a draft's texts before it is accepted.
    public func updateDraft(_ draft: UUID, in stack: UUID, question: String? = nil, answer: String? = nil)
        async throws -> DraftDTO
    {
        try await transport.send(
            DraftDTO.self, Endpoint.V1.updateDraft, stack.path, draft.path,
            body: .json(UpdateDraftRequest(question: question, answer: answer)))
    }

    /// Makes cards of the drafts with these ids (or of all of a job's).
    public func acceptDrafts(in stack: UUID, ids: [UUID]? = nil, jobId: UUID? = nil) async throws
        -> AcceptDraftsResponse
    {
        try await transport.send(
            AcceptDraftsResponse.self, Endpoint.V1.acceptDrafts, stack.path,
            body: .json(AcceptDraftsRequest(ids: ids, jobId: jobId)))
    }

    /// Discards a draft.
    public func discardDraft(_ draft: UUID, in stack: UUID) async throws {
        _ = try await transport.send(Endpoint.V1.discardDraft, stack.path, draft.path)
    }
}
