import Basics
import Foundation
import Testing
import TestThreads

@Suite("Locked", .dedicatedThreads)
struct LockedTests {
    @Test func concurrentIncrementsFromThreadsAllCount() async {
        let counter = Locked(0)
        // Eight threads of their own (not the cooperative pool), each adding 10 000 times.
        _ = await BlockingWork.map(Array(0..<8), width: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.value == 80_000)
    }

    @Test func withLockReturnsWhatTheBodyReturns() {
        let names = Locked<Set<String>>([])
        #expect(names.withLock { $0.insert("a").inserted })
        #expect(!names.withLock { $0.insert("a").inserted })
        #expect(names.value == ["a"])
    }

    @Test func anErrorFromTheBodyIsRethrownAndTheLockReleased() {
        struct Refused: Error {}
        let value = Locked(1)
        #expect(throws: Refused.self) {
            try value.withLock { number in
                number = 2
                throw Refused()
            }
        }
        // The lock is free again (this would deadlock otherwise), and the change made before
        // the throw stays.
        #expect(value.withLock { $0 } == 2)
    }
}
