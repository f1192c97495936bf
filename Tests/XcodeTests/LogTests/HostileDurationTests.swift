import Basics
import Testing
import TestThreads
import Xcode
import TestReports

/// Durations a log states are numbers from outside: NaN, infinities and values past `Int.max`
/// must print, never trap (the xcode-log fuzz target found `Int(Double)` trapping in the
/// renderer; JUnit's time attribute and progress percentages had the same conversion).
@Suite(.dedicatedThreads) struct HostileDurationTests {
    @Test func numberTextNeverTraps() {
        #expect(NumberText.seconds(0.0125) == "0.013")
        #expect(NumberText.seconds(61.5) == "61.500")
        #expect(NumberText.seconds(.nan) == "0.000")
        #expect(NumberText.seconds(-3) == "0.000")
        #expect(NumberText.seconds(.infinity) == "1000000000000.000")
        #expect(NumberText.seconds(1e300) == "1000000000000.000")
        #expect(NumberText.roundedInt(.nan, in: 0...100) == 0)
        #expect(NumberText.roundedInt(1e300, in: 0...100) == 100)
        #expect(NumberText.roundedInt(-.infinity, in: 0...100) == 0)
        #expect(NumberText.roundedInt(42.4, in: 0...100) == 42)
    }

    @Test func aTestThatClaimsToHaveRunForeverRenders() {
        let huge = String(repeating: "9", count: 400)
        var parser = XcodeLogParser()
        let events = parser.consume("Test Case '-[AppTests.LoginTests testHuge]' started.")
            + parser.consume("Test Case '-[AppTests.LoginTests testHuge]' passed (\(huge) seconds).")
            + parser.finish()
        let lines = events.flatMap(XcodeLogRenderer(useColor: false).lines(for:))
        #expect(lines.contains { $0.contains("testHuge") && $0.contains("(1000000000000.000 s)") }, "\(lines)")
    }

    @Test func junitTimesOfHostileDurationsArePrintable() {
        let xml = JUnitXML.render([
            JUnitTestCase(className: "A", name: "t()", duration: .infinity, outcome: .passed),
            JUnitTestCase(className: "A", name: "u()", duration: .nan, outcome: .passed),
        ], name: "n")
        #expect(xml.contains("<testcase classname=\"A\" name=\"t()\" time=\"1000000000000.000\"/>"), "\(xml)")
        #expect(xml.contains("<testcase classname=\"A\" name=\"u()\" time=\"0.000\"/>"), "\(xml)")
    }
}
