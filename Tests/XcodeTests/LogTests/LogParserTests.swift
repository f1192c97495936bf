import Testing
import TestThreads
import Xcode

@Suite("xcodebuild log parser", .dedicatedThreads)
struct LogParserTests {
    typealias Step = XcodeLogEvent.BuildStep
    typealias Diagnostic = XcodeLogEvent.Diagnostic

    @Test("a clean build: every kind of build step, with its subject and target")
    func cleanBuild() throws {
        #expect(try LogFixtures.events("build-clean.log") == [
            .step(Step(.emitSwiftModule, subject: "AppKit2", target: "AppKit2")),
            .step(Step(.compileSwift, subject: "Model.swift", target: "AppKit2")),
            .step(Step(.compileSwift, subject: "View.swift, My Screen.swift", target: "App")),
            .step(Step(.compileC, subject: "Legacy.m", target: "App")),
            .step(Step(.compileAssetCatalog, subject: "Assets.xcassets", target: "App")),
            .step(Step(.compileStoryboard, subject: "Main.storyboard", target: "App")),
            .step(Step(.compileXIB, subject: "Cell.xib", target: "App")),
            .step(Step(.processInfoPlist, subject: "Info.plist", target: "App")),
            .step(Step(.runScript, subject: "Run SwiftLint", target: "App")),
            .step(Step(.libtool, subject: "libAppKit2.a", target: "AppKit2")),
            .step(Step(.link, subject: "App", target: "App")),
            .step(Step(.copySwiftLibs, subject: "App.app", target: "App")),
            .step(Step(.processProductPackaging, subject: "App.entitlements", target: "App")),
            .step(Step(.generateDSYM, subject: "App.app.dSYM", target: "App")),
            .step(Step(.createUniversalBinary, subject: "App", target: "App")),
            .step(Step(.codeSign, subject: "App.app", target: "App")),
            .step(Step(.touch, subject: "App.app", target: "App")),
            .result(.init(action: "BUILD", succeeded: true)),
        ])
    }

    @Test("Swift errors with notes and warnings keep their source and caret lines")
    func swiftErrors() throws {
        let file = "/Users/dev/App/Sources/"
        #expect(try LogFixtures.events("build-errors.log") == [
            .step(Step(.compileSwift, subject: "View.swift", target: "App")),
            .diagnostic(Diagnostic(.error, file: file + "View.swift", line: 3, column: 7, message: "cannot find 'titel' in scope",
                                   sourceLine: "        titel = \"Hello\"", caretLine: "        ^~~~~")),
            .diagnostic(Diagnostic(.note, file: file + "View.swift", line: 1, column: 5, message: "did you mean 'title'?",
                                   sourceLine: "var title = \"\"", caretLine: "    ^")),
            .diagnostic(Diagnostic(.warning, file: file + "Model.swift", line: 12, column: 9,
                                   message: "variable 'count' was never mutated; consider changing to 'let' constant",
                                   sourceLine: "    var count = 0", caretLine: "    ~~~ ^")),
            .diagnostic(Diagnostic(.error, file: file + "Model.swift", line: 20, column: 1, message: "expected '}' in struct")),
            .diagnostic(Diagnostic(.warning, file: file + "Model.swift", line: 20, column: 10, message: "'foo()' is deprecated")),
            .diagnostic(Diagnostic(.warning, message: "Run script build phase 'Run SwiftLint' will be run during every build because it does not specify any outputs.")),
            .diagnostic(Diagnostic(.warning, message: "ld: ignoring duplicate libraries: '-lc++'")),
            .xcodebuildError(message: "Unable to find a destination matching the provided destination specifier:"),
            .result(.init(action: "BUILD", succeeded: false)),
        ])
    }

    @Test("a linker error: the undefined symbols with where they are referenced from")
    func linkerError() throws {
        #expect(try LogFixtures.events("linker-error.log") == [
            .step(Step(.link, subject: "App", target: "App")),
            .linkerError(.init(message: "Undefined symbols for architecture arm64", details: [
                "\"_OBJC_CLASS_$_Analytics\", referenced from:",
                "in ViewController.o",
                "\"App.Tracker.shared.unsafeMutableAddressor : App.Tracker\", referenced from:",
                "App.ViewController.viewDidLoad() -> () in ViewController.o",
            ])),
            .linkerError(.init(message: "ld: symbol(s) not found for architecture arm64")),
            .linkerError(.init(message: "clang: error: linker command failed with exit code 1 (use -v to see invocation)")),
            .result(.init(action: "BUILD", succeeded: false)),
        ])
    }

    @Test("XCTest: suites, passed, failed and skipped cases, the failure's place, the totals")
    func xctest() throws {
        #expect(try LogFixtures.events("xctest.log") == [
            .testSuite(.init(name: "All tests", status: .started)),
            .testSuite(.init(name: "AppTests.xctest", status: .started)),
            .testSuite(.init(name: "LoginTests", status: .started)),
            .testCase(.init(suite: "AppTests.LoginTests", name: "testLogin", status: .passed, duration: 0.012)),
            .testFailure(.init(suite: "AppTests.LoginTests", name: "testWrongPassword", file: "/Users/dev/App/Tests/LoginTests.swift",
                               line: 42, message: "XCTAssertEqual failed: (\"401\") is not equal to (\"200\")")),
            .testCase(.init(suite: "AppTests.LoginTests", name: "testWrongPassword", status: .failed, duration: 0.103)),
            .testCase(.init(suite: "AppTests.LoginTests", name: "testOffline", status: .skipped, duration: 0.001)),
            .testSuite(.init(name: "LoginTests", status: .failed)),
            .testRun(.init(tests: 3, failures: 1, unexpected: 0, duration: 0.116)),
            .testSuite(.init(name: "All tests", status: .failed)),
            .testRun(.init(tests: 3, failures: 1, unexpected: 0, duration: 0.116)),
            .result(.init(action: "TEST", succeeded: false)),
        ])
    }

    @Test("parallel testing: the clone each test ran on, a crash and restart, a retry")
    func parallel() throws {
        let one = "Clone 1 of iPhone 16 - App (4321)", two = "Clone 2 of iPhone 16 - App (4322)"
        #expect(try LogFixtures.events("xctest-parallel.log") == [
            .testCase(.init(suite: "CartTests", name: "testAdd()", status: .passed, duration: 0.123, device: one)),
            .testCase(.init(suite: "CartTests", name: "testRemove()", status: .failed, duration: 0.25, device: two)),
            .testCase(.init(suite: "CartTests", name: "testCheckout()", status: .skipped, duration: 0, device: one)),
            .testRestart(message: "Restarting after unexpected exit, crash, or test timeout in CartTests.testCrash(); summary will include totals from previous launches."),
            .testCase(.init(suite: "CartTests", name: "testCrash()", status: .failed, duration: 1, device: two)),
            .testCase(.init(suite: "CartTests", name: "testRemove()", status: .passed, duration: 0.2, device: one)),
            .result(.init(action: "TEST EXECUTE", succeeded: false)),
        ])
    }

    @Test("Swift Testing: passed, issues with file:line:column, failed, skipped, parameterised, the run")
    func swiftTesting() throws {
        #expect(try LogFixtures.events("swift-testing.log") == [
            .testCase(.init(suite: nil, name: "addsItem()", status: .passed, duration: 0.012)),
            .testFailure(.init(suite: nil, name: "Removes the last item", file: "CartTests.swift", line: 12, column: 5,
                               message: "Expectation failed: (cart.count → 1) == 0")),
            .testCase(.init(suite: nil, name: "Removes the last item", status: .failed, duration: 0.013)),
            .testCase(.init(suite: nil, name: "checkout()", status: .skipped)),
            .testCase(.init(suite: nil, name: "prices(currency:)", status: .passed, duration: 0.004)),
            .testRun(.init(tests: 4, failures: 1, duration: 0.031)),
            .result(.init(action: "TEST", succeeded: false)),
        ])
    }

    @Test("archive and export")
    func archiveAndExport() throws {
        #expect(try LogFixtures.events("archive.log") == [
            .step(Step(.compileSwift, subject: "App.swift", target: "App")),
            .step(Step(.link, subject: "App", target: "App")),
            .step(Step(.generateDSYM, subject: "App.app.dSYM", target: "App")),
            .step(Step(.codeSign, subject: "App.app", target: "App")),
            .result(.init(action: "ARCHIVE", succeeded: true)),
        ])
        #expect(try LogFixtures.events("export.log") == [
            .diagnostic(Diagnostic(.error, message: "exportArchive: No profiles for 'com.example.app' were found")),
            .result(.init(action: "EXPORT", succeeded: false)),
        ])
    }

    @Test("the same events whatever the chunk size, and with CRLF line ends")
    func chunkingAndLineEnds() throws {
        let whole = try LogFixtures.events("build-errors.log", chunkSize: 1 << 16)
        #expect(try LogFixtures.events("build-errors.log", chunkSize: 1) == whole)
        var parser = XcodeLogParser()
        var events: [XcodeLogEvent] = []
        for line in try LogFixtures.text("build-errors.log").split(separator: "\n", omittingEmptySubsequences: false) {
            events += parser.consume(Substring(line + "\r"))
        }
        #expect(events + parser.finish() == whole)
    }

    @Test("a log that ends inside a diagnostic or a symbol list still reports it")
    func endsMidConstruct() {
        var parser = XcodeLogParser()
        #expect(parser.consume("/a/B.swift:1:2: error: oops").isEmpty)
        #expect(parser.consume("    let x = y").isEmpty)
        #expect(parser.finish() == [.diagnostic(Diagnostic(.error, file: "/a/B.swift", line: 1, column: 2, message: "oops"))])
        #expect(parser.consume("Undefined symbols for architecture x86_64:").isEmpty)
        #expect(parser.consume("  \"_f\", referenced from:").isEmpty)
        #expect(parser.finish() == [.linkerError(.init(message: "Undefined symbols for architecture x86_64", details: ["\"_f\", referenced from:"]))])
        #expect(parser.finish().isEmpty)
    }

    @Test("a line after a diagnostic that is not followed by a caret is parsed on its own")
    func notASourceLine() {
        var parser = XcodeLogParser()
        var events = parser.consume("/a/B.swift:1:2: warning: w")
        events += parser.consume("** BUILD SUCCEEDED **")
        events += parser.consume("")
        #expect(events + parser.finish() == [
            .diagnostic(Diagnostic(.warning, file: "/a/B.swift", line: 1, column: 2, message: "w")),
            .result(.init(action: "BUILD", succeeded: true)),
        ])
    }

    @Test("a huge undefined-symbols list is capped")
    func capped() {
        var parser = XcodeLogParser()
        _ = parser.consume("Undefined symbols for architecture arm64:")
        for index in 0..<(XcodeLogParser.maxDetailLines + 5) { _ = parser.consume(Substring("  \"_s\(index)\"")) }
        guard case .linkerError(let error) = parser.finish().first else { Issue.record("no linker error"); return }
        #expect(error.details.count == XcodeLogParser.maxDetailLines + 1)
        #expect(error.details.last == "(5 more lines)")
    }

    @Test("unknown lines produce nothing")
    func unknown() {
        var parser = XcodeLogParser()
        for line in ["", "Command line invocation:", "    cd /x", "note: Building targets", "CompileSwiftSources normal arm64",
                     "Test Suite", "** NOT A RESULT", "✔", "◇ Test run started.", "12345", "Ld"] {
            #expect(parser.consume(Substring(line)).isEmpty, "\(line)")
        }
        #expect(parser.finish().isEmpty)
    }
}
