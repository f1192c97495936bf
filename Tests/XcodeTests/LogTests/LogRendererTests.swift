import Basics
import Foundation
import Testing
import TestThreads
import Xcode
import TestReports

@Suite("xcodebuild log renderer and summary", .dedicatedThreads)
struct LogRendererTests {
    @Test("a clean build: one line per step, the result, success")
    func cleanBuild() throws {
        let (lines, summary) = try LogFixtures.rendered("build-clean.log")
        #expect(lines == [
            "[AppKit2] Emitting module AppKit2", "[AppKit2] Compiling Model.swift", "[App] Compiling View.swift, My Screen.swift",
            "[App] Compiling Legacy.m", "[App] Compiling Assets.xcassets", "[App] Compiling Main.storyboard", "[App] Compiling Cell.xib",
            "[App] Processing Info.plist", "[App] Running script 'Run SwiftLint'", "[AppKit2] Building library libAppKit2.a",
            "[App] Linking App", "[App] Copying Swift libraries into App.app", "[App] Processing App.entitlements",
            "[App] Generating App.app.dSYM", "[App] Creating universal binary App", "[App] Signing App.app", "[App] Touching App.app",
            "** BUILD SUCCEEDED **", "✔ Succeeded: 0 errors, 0 warnings",
        ])
        #expect(!summary.failed)
    }

    @Test("errors and warnings with their source and caret lines")
    func errors() throws {
        let (lines, summary) = try LogFixtures.rendered("build-errors.log")
        #expect(lines == [
            "[App] Compiling View.swift",
            "❌ /Users/dev/App/Sources/View.swift:3:7: cannot find 'titel' in scope",
            "        titel = \"Hello\"",
            "        ^~~~~",
            "   note: /Users/dev/App/Sources/View.swift:1:5: did you mean 'title'?",
            "var title = \"\"",
            "    ^",
            "⚠️ /Users/dev/App/Sources/Model.swift:12:9: variable 'count' was never mutated; consider changing to 'let' constant",
            "    var count = 0",
            "    ~~~ ^",
            "❌ /Users/dev/App/Sources/Model.swift:20:1: expected '}' in struct",
            "⚠️ /Users/dev/App/Sources/Model.swift:20:10: 'foo()' is deprecated",
            "⚠️ Run script build phase 'Run SwiftLint' will be run during every build because it does not specify any outputs.",
            "⚠️ ld: ignoring duplicate libraries: '-lc++'",
            "❌ xcodebuild: Unable to find a destination matching the provided destination specifier:",
            "** BUILD FAILED **",
            "✖ Failed: 3 errors, 4 warnings",
        ])
        #expect(summary.failed)
    }

    @Test("linker errors")
    func linker() throws {
        let (lines, summary) = try LogFixtures.rendered("linker-error.log")
        #expect(lines == [
            "[App] Linking App",
            "❌ Undefined symbols for architecture arm64",
            "    \"_OBJC_CLASS_$_Analytics\", referenced from:",
            "    in ViewController.o",
            "    \"App.Tracker.shared.unsafeMutableAddressor : App.Tracker\", referenced from:",
            "    App.ViewController.viewDidLoad() -> () in ViewController.o",
            "❌ ld: symbol(s) not found for architecture arm64",
            "❌ clang: error: linker command failed with exit code 1 (use -v to see invocation)",
            "** BUILD FAILED **",
            "✖ Failed: 3 errors, 0 warnings",
        ])
        #expect(summary.errors == 3)
    }

    @Test("XCTest: passed, failed with the failure's place, skipped, totals; JUnit cases")
    func xctest() throws {
        let (lines, summary) = try LogFixtures.rendered("xctest.log")
        #expect(lines == [
            "LoginTests",
            "✔ testLogin (0.012 s)",
            "✖ testWrongPassword, LoginTests.swift:42: XCTAssertEqual failed: (\"401\") is not equal to (\"200\")",
            "✖ testWrongPassword (0.103 s)",
            "➜ testOffline skipped",
            "Executed 3 tests, 1 failure (0 unexpected) in 0.116 s",
            "Executed 3 tests, 1 failure (0 unexpected) in 0.116 s",
            "** TEST FAILED **",
            "✖ Failed: 0 errors, 0 warnings, tests: 1 passed, 1 failed, 1 skipped",
        ])
        let message = "LoginTests.swift:42: XCTAssertEqual failed: (\"401\") is not equal to (\"200\")"
        #expect(summary.testCases == [
            JUnitTestCase(className: "AppTests.LoginTests", name: "testLogin", duration: 0.012, outcome: .passed),
            JUnitTestCase(className: "AppTests.LoginTests", name: "testWrongPassword", duration: 0.103,
                          outcome: .failed(message: message, details: message)),
            JUnitTestCase(className: "AppTests.LoginTests", name: "testOffline", duration: 0.001, outcome: .skipped(message: nil)),
        ])
        #expect(summary.failures.map(\.line) == [42])
    }

    @Test("parallel testing: the class stays; a same-named rerun without a retry announcement is another test")
    func parallel() throws {
        let (lines, summary) = try LogFixtures.rendered("xctest-parallel.log")
        #expect(lines == [
            "✔ CartTests.testAdd() on 'Clone 1 of iPhone 16 - App (4321)' (0.123 s)",
            "✖ CartTests.testRemove() on 'Clone 2 of iPhone 16 - App (4322)' (0.250 s)",
            "➜ CartTests.testCheckout() on 'Clone 1 of iPhone 16 - App (4321)' skipped",
            "⚠️ Restarting after unexpected exit, crash, or test timeout in CartTests.testCrash(); summary will include totals from previous launches.",
            "✖ CartTests.testCrash() on 'Clone 2 of iPhone 16 - App (4322)' (1.000 s)",
            "✔ CartTests.testRemove() on 'Clone 1 of iPhone 16 - App (4321)' (0.200 s)",
            "** TEST EXECUTE FAILED **",
            "✖ Failed: 0 errors, 0 warnings, tests: 2 passed, 2 failed, 1 skipped",
        ])
        #expect(summary.testCases[1].outcome == .failed(message: "failed", details: ""))
        #expect(summary.testCases.count == 5)
    }

    @Test("Swift Testing")
    func swiftTesting() throws {
        let (lines, summary) = try LogFixtures.rendered("swift-testing.log")
        #expect(lines == [
            "✔ addsItem() (0.012 s)",
            "✖ Removes the last item, CartTests.swift:12:5: Expectation failed: (cart.count → 1) == 0",
            "✖ Removes the last item (0.013 s)",
            "➜ checkout() skipped",
            "✔ prices(currency:) (0.004 s)",
            "Executed 4 tests, 1 failure in 0.031 s",
            "** TEST FAILED **",
            "✖ Failed: 0 errors, 0 warnings, tests: 2 passed, 1 failed, 1 skipped",
        ])
        #expect(summary.testCases.map(\.className) == Array(repeating: "Swift Testing", count: 4))
    }

    @Test("archive and export")
    func archiveAndExport() throws {
        #expect(try LogFixtures.rendered("archive.log").lines.suffix(2) == ["** ARCHIVE SUCCEEDED **", "✔ Succeeded: 0 errors, 0 warnings"])
        #expect(try LogFixtures.rendered("export.log").lines == [
            "❌ exportArchive: No profiles for 'com.example.app' were found", "** EXPORT FAILED **", "✖ Failed: 1 error, 0 warnings",
        ])
    }

    @Test("a failed test fails the log even when the result line says succeeded, unless an announced retry passed")
    func failedTestWithoutResult() {
        var summary = XcodeLogSummary()
        summary.add(.testCase(.init(suite: "A", name: "t", status: .failed)))
        summary.add(.result(.init(action: "TEST", succeeded: true)))
        #expect(summary.failed)
        var unannounced = summary
        unannounced.add(.testCase(.init(suite: "A", name: "t", status: .passed)))
        #expect(unannounced.failed && unannounced.testsFlaky == 0 && unannounced.testCases.count == 2)
        summary.add(.testRepeat(.init(suite: "A", name: "t", iteration: 2)))
        summary.add(.testCase(.init(suite: "A", name: "t", status: .passed)))
        #expect(!summary.failed)
        #expect(summary.testsFlaky == 1 && summary.testCases.count == 1)
    }

    @Test("colours only when asked")
    func colours() {
        let renderer = XcodeLogRenderer(useColor: true)
        #expect(renderer.lines(for: .result(.init(action: "BUILD", succeeded: false))) == ["\u{1B}[31m** BUILD FAILED **\u{1B}[0m"])
        #expect(renderer.lines(for: .testCase(.init(suite: nil, name: "t()", status: .passed, duration: 1.5)))
            == ["\u{1B}[32m✔\u{1B}[0m t() (1.500 s)"])
    }

    @Test("events encode as flat NDJSON objects and decode back")
    func json() throws {
        let events = try LogFixtures.events("build-errors.log") + LogFixtures.events("xctest-parallel.log")
            + LogFixtures.events("linker-error.log")
        let lines = try events.map { try JSONFormatting.line($0) }
        #expect(lines[0] == #"{"event":"step","kind":"compileSwift","subject":"View.swift","target":"App"}"#)
        #expect(lines.contains(#"{"event":"xcodebuildError","message":"Unable to find a destination matching the provided destination specifier:"}"#))
        let decoded = try lines.map { try JSONDecoder().decode(XcodeLogEvent.self, from: Data($0.utf8)) }
        #expect(decoded == events)
    }
}
