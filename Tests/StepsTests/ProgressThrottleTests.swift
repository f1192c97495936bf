import Foundation
import Steps
import Testing
import TestThreads

/// The one throttle of byte progress, on an injected clock: a report is shown when it is 5%
/// further AND a second later than the last shown (whichever comes later), never backwards,
/// never past the end, and "100%" exactly once.
@Suite("Progress throttle", .dedicatedThreads)
struct ProgressThrottleTests {
    /// A clock tests move by hand.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var current = Date(timeIntervalSince1970: 1_700_000_000)
        var now: Date { lock.withLock { current } }
        func advance(_ seconds: TimeInterval) { lock.withLock { current = current.addingTimeInterval(seconds) } }
    }

    let clock = Clock()
    var throttle: ProgressThrottle { let clock = self.clock; return ProgressThrottle(now: { clock.now }) }

    @Test func fivePercentAndOneSecondWhicheverComesLater() {
        let throttle = self.throttle
        #expect(throttle.admit("a.ipa", fraction: 0.01) == nil, "the first report starts the clock")
        clock.advance(5)
        #expect(throttle.admit("a.ipa", fraction: 0.04) == nil, "a second passed but not 5%")
        #expect(throttle.admit("a.ipa", fraction: 0.05) == 0.05)
        #expect(throttle.admit("a.ipa", fraction: 0.5) == nil, "45% further but no second passed")
        clock.advance(0.999)
        #expect(throttle.admit("a.ipa", fraction: 0.6) == nil)
        clock.advance(0.001)
        #expect(throttle.admit("a.ipa", fraction: 0.6) == 0.6)
        clock.advance(10)
        #expect(throttle.admit("a.ipa", fraction: 0.3) == nil, "never backwards")
        #expect(throttle.admit("a.ipa", fraction: 0.649) == nil, "0.64 is not 5% past 0.6")
        #expect(throttle.admit("a.ipa", fraction: 0.65) == 0.65)
    }

    @Test func theEndIsShownOnceAtOnceAndNothingReads100PercentBeforeIt() {
        let throttle = self.throttle
        _ = throttle.admit("a.ipa", fraction: 0)
        clock.advance(2)
        #expect(throttle.admit("a.ipa", fraction: 0.9996) == 0.99, "short of the end: whole percents rounded down")
        #expect(throttle.admit("a.ipa", fraction: 1) == 1, "the end is shown without waiting")
        clock.advance(2)
        #expect(throttle.admit("a.ipa", fraction: 1) == nil)
        #expect(throttle.admit("a.ipa", fraction: 1.7) == nil, "a re-sent part cannot push it past the end")
        #expect(throttle.admit("b.ipa", sent: 30, total: 30) == 1, "a file finished at its first report")
        #expect(throttle.admit("c.ipa", sent: 1, total: 0) == nil)
        #expect(throttle.admit("c.ipa", fraction: .nan) == nil)
    }

    @Test func aLongTransferGivesAtMost21Lines() {
        let throttle = self.throttle
        var shown: [Double] = []
        // 20 MB in 4 KiB callbacks, 2 ms each, parts re-sent (progress going back) now and then.
        let total: Int64 = 20_000_000
        var sent: Int64 = 0
        var step = 0
        while sent < total {
            step += 1
            sent = min(total, sent + 4096)
            let reported = step % 97 == 0 ? max(0, sent - 1_000_000) : sent
            clock.advance(0.002)
            if let fraction = throttle.admit("a.ipa", sent: reported, total: total) { shown.append(fraction) }
        }
        #expect(shown.count <= 21 && shown.count >= 5, "\(shown)")
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $0 < $1 })
        #expect(shown.filter { $0 >= 1 } == [1])
        #expect(shown.allSatisfy { $0 <= 1 })
    }
}
