import FlashcardsAPI
import FlashcardsClient
import Foundation
import Observation

/// Ratings made without a connection, kept in a file until the server has them. Each has its own
/// id, so sending one twice changes nothing on the server, and the server merges them in any order
/// (`POST /api/v1/reviews`). A review the server can never take (its card was deleted meanwhile)
/// is dropped on its own, so one bad review never holds the others back.
@MainActor @Observable
public final class OfflineReviewQueue {
    /// The ratings not yet on the server, oldest first.
    public private(set) var pending: [SyncReviewDTO]
    /// Why the last sync stopped (offline, or the session ended); nil after a complete sync.
    public private(set) var lastError: String?
    /// Ratings the server refused for good in the last sync (their cards are gone).
    public private(set) var dropped = 0

    private let file: URL

    /// The queue kept in `file` (read now; an unreadable file counts as empty).
    public init(file: URL) {
        self.file = file
        let data = try? Data(contentsOf: file)
        pending = data.flatMap { try? FlashcardsJSON.makeDecoder().decode([SyncReviewDTO].self, from: $0) } ?? []
    }

    /// How many ratings wait for the server.
    public var pendingCount: Int { pending.count }

    /// Keeps a rating until it is synced.
    public func enqueue(_ review: SyncReviewDTO) throws {
        guard !pending.contains(where: { $0.id == review.id }) else { return }
        pending.append(review)
        try persist()
    }

    /// Sends what is pending, 1,000 at a time. True when nothing is left.
    @discardableResult
    public func sync(using client: FlashcardsClient) async -> Bool {
        dropped = 0
        while !pending.isEmpty {
            let batch = Array(pending.prefix(1_000))
            do {
                _ = try await client.syncReviews(batch)
                remove(batch.map(\.id))
            } catch  where UserFacingError.isOffline(error) || Self.isSessionEnded(error) {
                lastError = UserFacingError.message(for: error)
                return false
            } catch {
                // The batch is refused as a whole: send each on its own, drop the ones refused.
                for review in batch {
                    do {
                        _ = try await client.syncReviews([review])
                        remove([review.id])
                    } catch  where UserFacingError.isOffline(error) || Self.isSessionEnded(error) {
                        lastError = UserFacingError.message(for: error)
                        return false
                    } catch {
                        dropped += 1
                        remove([review.id])
                    }
                }
            }
        }
        lastError = nil
        return true
    }

    private static func isSessionEnded(_ error: any Error) -> Bool {
        if case .unauthorized = error as? FlashcardsError { return true }
        return false
    }

    private func remove(_ ids: [UUID]) {
        let gone = Set(ids)
        pending.removeAll { gone.contains($0.id) }
        try? persist()
    }

    private func persist() throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FlashcardsJSON.makeEncoder().encode(pending).write(to: file, options: .atomic)
    }
}
