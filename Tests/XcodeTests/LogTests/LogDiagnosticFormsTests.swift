import Testing
import TestThreads
import Xcode

/// Every `LOCATION: error|warning|note:` form clang, swiftc, ld and xcodebuild print, read from
/// one line each, with the exact line the formatter prints.
@Suite("xcodebuild log: every diagnostic form", .dedicatedThreads)
struct LogDiagnosticFormsTests {
    static func rendered(_ text: String) throws -> [String] {
        try LogFixtures.rendered(text: text).lines
    }

    @Test("<unknown>:0: warnings and errors count, wait for no source line, and BUILD FAILED never says 0 errors")
    func unknownLocation() throws {
        let log = """
            <unknown>:0: warning: passing argument of non-sendable type 'AnalyzerTests' into main actor-isolated context may introduce data races
            <unknown>:0: error: unable to load standard library for target 'arm64-apple-ios17.0'
            ** BUILD FAILED **
            """
        #expect(try LogFixtures.events(ofText: log) == [
            .diagnostic(.init(.warning, file: "<unknown>", line: 0, message: "passing argument of non-sendable type 'AnalyzerTests' into main actor-isolated context may introduce data races")),
            .diagnostic(.init(.error, file: "<unknown>", line: 0, message: "unable to load standard library for target 'arm64-apple-ios17.0'")),
            .result(.init(action: "BUILD", succeeded: false)),
        ])
        #expect(try Self.rendered(log) == [
            "⚠️ <unknown>:0: passing argument of non-sendable type 'AnalyzerTests' into main actor-isolated context may introduce data races",
            "❌ <unknown>:0: unable to load standard library for target 'arm64-apple-ios17.0'",
            "** BUILD FAILED **",
            "✖ Failed: 1 error, 1 warning",
        ])
    }

    @Test("relative paths, with and without a column, keep their source and caret lines")
    func relativePaths() throws {
        let log = """
            Sources/App/main.swift:3:5: error: cannot find 'prnt' in scope
                prnt("hi")
                ^~~~
            main.c:12: warning: implicit declaration of function 'foo'
            ./Tests/AppTests/AppTests.swift:8:1: note: add '@MainActor' to make it main actor-isolated
            """
        #expect(try Self.rendered(log) == [
            "❌ Sources/App/main.swift:3:5: cannot find 'prnt' in scope",
            "    prnt(\"hi\")",
            "    ^~~~",
            "⚠️ main.c:12: implicit declaration of function 'foo'",
            "   note: ./Tests/AppTests/AppTests.swift:8:1: add '@MainActor' to make it main actor-isolated",
            "✖ Failed: 1 error, 1 warning",
        ])
    }

    @Test("tool diagnostics: clang, ld, xcodebuild, swift-frontend; bare error:, warning:, fatal error:")
    func toolDiagnostics() throws {
        let log = """
            clang: error: no such file or directory: 'Missing.m'
            clang: warning: argument unused during compilation: '-fno-objc-arc'
            ld: warning: ignoring duplicate libraries: '-lc++'
            ld: symbol(s) not found for architecture arm64
            clang: error: linker command failed with exit code 1 (use -v to see invocation)
            xcodebuild: error: Unable to find a destination matching the provided destination specifier
            xcodebuild: warning: Using the first of multiple matching destinations
            swift-frontend: error: unable to execute command: Killed
            error: Provisioning profile "App Store" doesn't include signing certificate
            warning: The iOS Simulator deployment target is set to 9.0
            fatal error: too many errors emitted, stopping now
            /src/App/Bridge.h:2:9: fatal error: 'Foo/Foo.h' file not found
            """
        #expect(try Self.rendered(log) == [
            "❌ clang: no such file or directory: 'Missing.m'",
            "⚠️ clang: argument unused during compilation: '-fno-objc-arc'",
            "⚠️ ld: ignoring duplicate libraries: '-lc++'",
            "❌ ld: symbol(s) not found for architecture arm64",
            "❌ clang: error: linker command failed with exit code 1 (use -v to see invocation)",
            "❌ xcodebuild: Unable to find a destination matching the provided destination specifier",
            "⚠️ xcodebuild: Using the first of multiple matching destinations",
            "❌ swift-frontend: unable to execute command: Killed",
            "❌ Provisioning profile \"App Store\" doesn't include signing certificate",
            "⚠️ The iOS Simulator deployment target is set to 9.0",
            "❌ too many errors emitted, stopping now",
            "❌ /src/App/Bridge.h:2:9: 'Foo/Foo.h' file not found",
            "✖ Failed: 8 errors, 4 warnings",
        ])
    }

    @Test("XCTest failure lines stay test failures wherever they are located, never build errors")
    func xctestFailures() throws {
        let log = """
            /Users/dev/App/Tests/CartTests.swift:12: error: -[AppTests.CartTests testTotal] : XCTAssertEqual failed: ("3") is not equal to ("4")
            Test Case '-[AppTests.CartTests testTotal]' failed (0.010 seconds).
            <unknown>:0: error: -[AppTests.CartTests testSync] : failed: caught error: "offline"
            Test Case '-[AppTests.CartTests testSync]' failed (0.002 seconds).
            Tests/CartTests.swift:30: error: CartTests.testEmpty : XCTAssertTrue failed
            Test Case 'CartTests.testEmpty' failed (0.001 seconds)
            """
        #expect(try Self.rendered(log) == [
            "✖ testTotal, CartTests.swift:12: XCTAssertEqual failed: (\"3\") is not equal to (\"4\")",
            "✖ testTotal (0.010 s)",
            "✖ testSync, <unknown>:0: failed: caught error: \"offline\"",
            "✖ testSync (0.002 s)",
            "✖ testEmpty, CartTests.swift:30: XCTAssertTrue failed",
            "✖ testEmpty (0.001 s)",
            "✖ Failed: 0 errors, 0 warnings, tests: 0 passed, 3 failed, 0 skipped",
        ])
    }

    @Test("prose with 'error:' in it is not a diagnostic")
    func prose() throws {
        let log = """
            Create schema failed with error:  PSQLError(code: server)
            The following build commands failed: error: see above
            2026-01-01 10:00:00.000 xcodebuild[123:456] Writing error result bundle to /tmp/x.xcresult
            """
        #expect(try LogFixtures.events(ofText: log) == [])
    }
}
