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

    @Test func declaredDefaultsApplyWhenAnOptionIsAbsentOrNull() throws {
        let description = StepDescription(id: "test.defaults", summary: "Defaults", options: [
            .optional("s", .string, default: .string("d"), "A string."),
            .optional("n", .int, default: .int(3), "An integer."),
            .optional("b", .bool, default: .bool(true), "A flag."),
            .optional("t", .duration, default: .string("1m"), "A duration."),
            .optional("plain", .string, "No default."),
        ])
        #expect(description.defaultValues == ["s": .string("d"), "n": .int(3), "b": .bool(true), "t": .string("1m")])
        let absent = StepOptions([:], for: description)
        #expect(try absent.requiredString("s") == "d")
        #expect(try absent.requiredInt("n") == 3)
        #expect(try absent.bool("b"))
        #expect(try absent.requiredDuration("t") == .seconds(60))
        #expect(try absent.string("plain") == nil)
        #expect(throws: StepError.invalidOption(name: "plain", problem: "is required")) { try absent.requiredString("plain") }
        let given = StepOptions(["s": .string("x"), "n": .null, "b": .bool(false)], for: description)
        #expect(try given.string("s") == "x")
        #expect(try given.int("n") == 3)
        #expect(try !given.bool("b"))
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
            try RunStep(options: StepOptions(["command": .string("  ")], for: RunStep.description))
        }
    }
}

enum RunStepProbe {
    static func parse(_ text: String) -> [String: String] { RunStep.parseOutputs(text) }
}
