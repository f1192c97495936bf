import Basics
import Foundation
import Testing
import TestThreads

@Suite("BlockingWork", .dedicatedThreads)
struct BlockingWorkTests {
    @Test func resultsKeepTheOrderOfTheItems() async {
        let results = await BlockingWork.map(Array(0..<50), width: 3) { item -> Int in
            usleep(UInt32((50 - item) * 100))
            return item * 2
        }
        #expect(results == (0..<50).map { $0 * 2 })
        #expect(await BlockingWork.map([Int](), width: 2) { $0 }.isEmpty)
    }

    @Test func neverRunsMoreThanWidthAtOnce() async {
        let counter = Counter()
        _ = await BlockingWork.map(Array(0..<12), width: 2) { _ in
            counter.enter()
            usleep(2_000)
            counter.leave()
        }
        #expect(counter.peak <= 2)
        #expect(counter.peak >= 1)
    }

    @Test func leavesTheCooperativePoolFree() async {
        // While every worker blocks, an ordinary task still runs.
        let release = Counter()
        async let blocked: [Void] = BlockingWork.map(Array(0..<ProcessInfo.processInfo.activeProcessorCount)) { _ in
            while release.peak == 0 { usleep(1_000) }
        }
        let ran = await Task { release.enter(); return true }.value
        _ = await blocked
        #expect(ran)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var highest = 0
    var peak: Int { lock.withLock { highest } }
    func enter() { lock.withLock { current += 1; highest = max(highest, current) } }
    func leave() { lock.withLock { current -= 1 } }
}
