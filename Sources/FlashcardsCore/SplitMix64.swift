/// A small seeded random number generator (SplitMix64): the same seed gives the same sequence on
/// every platform. Used wherever the product needs reproducible randomness: the optimizer's batch
/// order, synthetic review logs, and benchmark data.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform draw in [0, 1).
    public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// Fisher–Yates with our own bounded draws, so the order does not depend on the standard
    /// library's shuffle algorithm.
    public mutating func shuffle<T>(_ array: inout [T]) {
        guard array.count > 1 else { return }
        for index in stride(from: array.count - 1, to: 0, by: -1) {
            let other = Int(next() % UInt64(index + 1))
            array.swapAt(index, other)
        }
    }
}
