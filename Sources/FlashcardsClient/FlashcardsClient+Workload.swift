import FlashcardsAPI
import Foundation

extension FlashcardsClient {
    /// The next `days` days of a stack (FSRS only) as the simulator expects them: reviews, new cards,
    /// minutes and cards remembered per day.
    public func workload(of stack: UUID, days: Int = 30) async throws -> WorkloadDTO {
        try await transport.send(
            WorkloadDTO.self, Endpoint.V1.stackWorkload, stack.path,
            query: [URLQueryItem(name: "days", value: "\(days)")])
    }

    /// The same over all of the user's FSRS stacks.
    public func workload(days: Int = 30) async throws -> WorkloadDTO {
        try await transport.send(
            WorkloadDTO.self, Endpoint.V1.userWorkload, query: [URLQueryItem(name: "days", value: "\(days)")])
    }

    /// A stack's workload with "what if" inputs (left-out fields keep the stack's settings).
    public func simulate(_ stack: UUID, _ changes: SimulationRequest) async throws -> WorkloadDTO {
        try await transport.send(WorkloadDTO.self, Endpoint.V1.simulateStack, stack.path, body: .json(changes))
    }

    /// The workload of all FSRS stacks with "what if" inputs.
    public func simulate(_ changes: SimulationRequest) async throws -> WorkloadDTO {
        try await transport.send(WorkloadDTO.self, Endpoint.V1.simulateUser, body: .json(changes))
    }

    /// A year simulated at each desired retention from 0.70 to 0.97 for one stack, with a recommendation.
    public func retentionAdvice(for stack: UUID) async throws -> RetentionAdviceDTO {
        try await transport.send(RetentionAdviceDTO.self, Endpoint.V1.stackRetentionAdvice, stack.path)
    }

    /// The retention advice over all FSRS stacks.
    public func retentionAdvice() async throws -> RetentionAdviceDTO {
        try await transport.send(RetentionAdviceDTO.self, Endpoint.V1.userRetentionAdvice)
    }
}

extension FlashcardsClient {
    /// What FSRS knows about a stack's memory: distributions, estimated knowledge, true retention, buttons.
    public func memoryStats(of stack: UUID) async throws -> MemoryStatsDTO {
        try await transport.send(MemoryStatsDTO.self, Endpoint.V1.stackMemoryStats, stack.path)
    }

    /// The same over all of the user's stacks.
    public func memoryStats() async throws -> MemoryStatsDTO {
        try await transport.send(MemoryStatsDTO.self, Endpoint.V1.userMemoryStats)
    }
}

extension FlashcardsClient {
    /// Plans a break ("Ich bin vom … bis … weg") for one stack, or for all FSRS stacks when `stack`
    /// is nil: the review cards due then go before or after it; `preview` only says what would move.
    public func planBreak(_ request: BreakRequest, in stack: UUID? = nil) async throws -> RescheduleDTO {
        if let stack {
            return try await transport.send(
                RescheduleDTO.self, Endpoint.V1.stackBreak, stack.path, body: .json(request))
        }
        return try await transport.send(RescheduleDTO.self, Endpoint.V1.userBreak, body: .json(request))
    }

    /// Postpones up to `count` due review cards (those that keep their recall best), of one stack or all.
    public func postpone(_ count: Int, in stack: UUID? = nil, preview: Bool = false) async throws -> RescheduleDTO {
        let body = RescheduleRequest(count: count, preview: preview)
        if let stack {
            return try await transport.send(
                RescheduleDTO.self, Endpoint.V1.stackPostpone, stack.path, body: .json(body))
        }
        return try await transport.send(RescheduleDTO.self, Endpoint.V1.userPostpone, body: .json(body))
    }

    /// Brings up to `count` review cards of the next days to today (those closest to their day).
    public func advance(_ count: Int, in stack: UUID? = nil, preview: Bool = false) async throws -> RescheduleDTO {
        let body = RescheduleRequest(count: count, preview: preview)
        if let stack {
            return try await transport.send(RescheduleDTO.self, Endpoint.V1.stackAdvance, stack.path, body: .json(body))
        }
        return try await transport.send(RescheduleDTO.self, Endpoint.V1.userAdvance, body: .json(body))
    }
}
