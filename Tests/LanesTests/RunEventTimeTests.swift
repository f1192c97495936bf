import Foundation
@testable import Lanes
import Testing
import TestThreads

@Suite("Event timestamps", .dedicatedThreads)
struct RunEventTimeTests {
    /// The hand-made timestamp is exactly what ISO8601DateFormatter writes, across years, months,
    /// days, leap days and the millisecond field's ends.
    @Test func sameTextAsISO8601DateFormatter() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let seconds: [TimeInterval] = [0, 951_782_400, 1_709_164_800, 1_795_548_547, 4_102_444_799, 86_399]
        for second in seconds {
            for millis in [0, 1, 9, 10, 99, 100, 500, 998, 999] {
                let date = Date(timeIntervalSince1970: second + Double(millis) / 1000 + 0.0004)
                #expect(RunEvent.timestamp(date) == formatter.string(from: date), "\(second) + \(millis) ms")
            }
        }
    }
}
