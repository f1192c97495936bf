import Foundation
import Testing
import TestThreads
import Transport

/// `Retry-After` as `RetryingHTTPClient.sendRetryingRateLimits` reads it (RFC 9110 §10.2.3):
/// delay-seconds or an HTTP date; anything else is no instruction (the backoff applies).
@Suite(.dedicatedThreads) struct RetryAfterTests {
    @Test func secondsAndHTTPDatesAreRead() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
        #expect(RetryAfter.duration("30", now: now) == .seconds(30))
        #expect(RetryAfter.duration(" 0 ", now: now) == .seconds(0))
        #expect(RetryAfter.duration("Tue, 14 Nov 2023 22:13:50 GMT", now: now) == .seconds(30))
        #expect(RetryAfter.duration("Tue, 14 Nov 2023 22:13:00 GMT", now: now) == .seconds(0), "a date in the past: retry now")
    }

    @Test func anythingElseIsNoInstruction() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        for value in [nil, "", "soon", "-5", "1.5"] as [String?] {
            #expect(RetryAfter.duration(value, now: now) == nil, "\(value ?? "nil")")
        }
    }
}
