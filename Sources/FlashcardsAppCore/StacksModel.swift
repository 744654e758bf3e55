import FlashcardsAPI
import FlashcardsClient
import Foundation
import Observation

/// The library: the learner's stacks with their counts; create and delete.
@MainActor @Observable
public final class StacksModel {
    /// The stacks, or why they could not be loaded.
    public private(set) var state: LoadState<[StackDTO]> = .idle
    /// Why the last change failed; nil after a success.
    public private(set) var errorMessage: String?

    private let client: FlashcardsClient

    /// A model over `client`'s account.
    public init(client: FlashcardsClient) { self.client = client }

    /// Whether the library is loaded and has no stack (the screen shows its empty state).
    public var isEmpty: Bool { state.value?.isEmpty == true }

    /// Loads (or reloads) the stacks; a reload keeps the shown list until the answer is in.
    public func load() async {
        if state.value == nil { state = .loading }
        do {
            state = .loaded(try await client.stacks())
        } catch {
            state = .failed(UserFacingError.message(for: error))
        }
    }

    /// Creates a stack; returns it, or nil with ``errorMessage`` set.
    @discardableResult
    public func create(name: String, color: String = "#2563EB") async -> StackDTO? {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else {
            errorMessage = "Bitte gib dem Stapel einen Namen."
            return nil
        }
        do {
            let stack = try await client.createStack(name: name, color: color)
            state = .loaded((state.value ?? []) + [stack])
            errorMessage = nil
            return stack
        } catch {
            errorMessage = UserFacingError.message(for: error)
            return nil
        }
    }

    /// Deletes a stack with its cards (the view asks first).
    public func delete(_ stack: StackDTO) async {
        do {
            try await client.deleteStack(stack.id)
            state = .loaded((state.value ?? []).filter { $0.id != stack.id })
            errorMessage = nil
        } catch {
            errorMessage = UserFacingError.message(for: error)
        }
    }
}
