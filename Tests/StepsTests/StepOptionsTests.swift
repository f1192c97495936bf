import Basics
@testable import Steps
import Testing
import TestThreads

@Suite(.dedicatedThreads) struct StepOptionsTests {
    @Test func typedAccessors() throws {
        let options = StepOptions([
            "s": .string("x"), "n": .int(3), "b": .bool(true), "l": .list([.string("a"), .int(1)]),
            "m": .map(["k": .string("v")]), "d": .string("1m30s"), "bad": .map([:]),
        ])
        #expect(try options.string("s") == "x")
        #expect(try options.int("n") == 3)
        #expect(try options.bool("b"))
        #expect(try options.strings("l") == ["a", "1"])
        #expect(try options.stringMap("m") == ["k": "v"])
        #expect(try options.duration("d") == .seconds(90))
        #expect(try options.string("absent") == nil)
        #expect(throws: StepError.invalidOption(name: "bad", problem: "expected a string, got {}")) { try options.string("bad") }
    }

    @Test func durations() {
        #expect(DurationParser.parse("250ms") == .milliseconds(250))
        #expect(DurationParser.parse("1h30m") == .seconds(5400))
        #expect(DurationParser.parse("45") == .seconds(45))
        #expect(DurationParser.parse("soon") == nil)
        #expect(DurationParser.parse("5x") == nil)
        #expect(DurationParser.parse("5m3") == nil)
    }

    @Test func runStepOutputsFile() {
        #expect(RunStepProbe.parse("a=1\nb=x=y\nmulti<<EOF\nline 1\nline 2\nEOF\n") == ["a": "1", "b": "x=y", "multi": "line 1\nline 2"])
    }

    @Test func runStepRefusesAnEmptyCommand() {
        #expect(throws: StepError.invalidOption(name: "command", problem: "is empty. Give the command to run.")) {
            try RunStep(options: StepOptions(["command": .string("  ")]))
        }
    }
}

enum RunStepProbe {
    static func parse(_ text: String) -> [String: String] { RunStep.parseOutputs(text) }
}
