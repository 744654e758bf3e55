import NIOConcurrencyHelpers
import Testing

@testable import FlashcardsServer

@Suite("Keyed gates")
struct KeyedGateTests {
    /// What the holders of a key did, in order, and the most that held it at once.
    final class Journal: Sendable {
        private let state = NIOLockedValueBox((order: [Int](), inside: 0, most: 0))

        func entered(_ id: Int) {
            state.withLockedValue {
                $0.order.append(id)
                $0.inside += 1
                $0.most = max($0.most, $0.inside)
            }
        }

        func left() { state.withLockedValue { $0.inside -= 1 } }

        var order: [Int] { state.withLockedValue { $0.order } }
        var most: Int { state.withLockedValue { $0.most } }
    }

    @Test("one holder per key at a time, the waiting enter in the order they came; other keys do not wait")
    func orderAndExclusion() async throws {
        let gate = KeyedGate<Int>()
        let journal = Journal()
        await gate.enter(1)
        var waiters: [Task<Void, Never>] = []
        for id in 0..<5 {
            waiters.append(
                Task {
                    await gate.run(1) {
                        journal.entered(id)
                        try? await Task.sleep(for: .milliseconds(5))
                        journal.left()
                    }
                })
            // Each waiter queues before the next one starts.
            try await Task.sleep(for: .milliseconds(30))
        }
        // While key 1 is held, key 2 is free.
        let other = await gate.run(2) { "frei" }
        #expect(other == "frei")
        #expect(journal.order.isEmpty)
        gate.leave(1)
        for waiter in waiters { await waiter.value }
        #expect(journal.order == [0, 1, 2, 3, 4])
        #expect(journal.most == 1)
        // Everything left: the key is free again at once, also after a holder threw.
        await #expect(throws: CancellationError.self) {
            try await gate.run(1) { throw CancellationError() }
        }
        #expect(await gate.run(1) { 7 } == 7)
    }

    @Test("many holders of a few keys at once: never two in one key, every one enters")
    func manyAtOnce() async {
        let gate = KeyedGate<Int>()
        let journals = [Journal(), Journal(), Journal()]
        await withTaskGroup(of: Void.self) { group in
            for id in 0..<300 {
                group.addTask {
                    let key = id % 3
                    await gate.run(key) {
                        journals[key].entered(id)
                        await Task.yield()
                        journals[key].left()
                    }
                }
            }
        }
        for journal in journals {
            #expect(journal.most == 1)
            #expect(journal.order.count == 100)
        }
    }
}
