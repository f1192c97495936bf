import Basics
import Steps
import TestReports

/// The `StepEventSink` a step sees: turns its logs, progress and child output into run events.
struct StepEventBridge: StepEventSink {
    let bus: EventBus
    let lane: String
    let step: String
    let parallelGroup: String?

    func log(_ level: LogLevel, _ message: String) {
        var event = RunEvent(.log, lane: lane, step: step)
        event.level = level.rawValue
        event.message = message
        event.parallelGroup = parallelGroup
        bus.emit(event)
    }

    func progress(fraction: Double?, message: String) {
        var event = RunEvent(.progress, lane: lane, step: step)
        event.fraction = fraction
        event.message = message
        event.parallelGroup = parallelGroup
        bus.emit(event)
    }

    func processOutput(_ stream: ProcessStream, line: String) {
        var event = RunEvent(.output, lane: lane, step: step)
        event.stream = stream.rawValue
        event.line = line
        event.parallelGroup = parallelGroup
        bus.emit(event)
    }

    func testResults(_ cases: [JUnitTestCase]) {
        guard !cases.isEmpty else { return }
        var event = RunEvent(.tests, lane: lane, step: step)
        event.tests = cases
        event.parallelGroup = parallelGroup
        bus.emit(event)
    }
}
