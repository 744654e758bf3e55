import Foundation
import Testing

@testable import FlashcardsServer

@Suite("Benchmark seeding")
struct BenchmarkSeederTests {
    @Test("the benchmark user's zone has it about noon whenever the run starts")
    func noonZone() throws {
        let midnight = Date(timeIntervalSince1970: 1_795_305_600)  // 2026-11-22 00:00 UTC
        for hour in 0..<24 {
            let now = midnight.addingTimeInterval(Double(hour * 3_600 + 1_799))
            let zone = try #require(TimeZone(identifier: BenchmarkSeeder.noonZone(at: now)))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            #expect(calendar.component(.hour, from: now) == 12, "UTC hour \(hour): \(zone.identifier)")
        }
    }
}
