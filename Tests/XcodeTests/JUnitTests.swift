import Basics
import Testing
import TestThreads
import Xcode
import TestReports

@Suite("JUnit XML and GitHub annotations", .dedicatedThreads)
struct JUnitTests {
    @Test("one testsuite per class, counts, escaping, flaky as passed with a note")
    func render() {
        let xml = JUnitXML.render([
            JUnitTestCase(className: "AppTests.Login", name: "testOK()", duration: 0.0125, outcome: .passed),
            JUnitTestCase(className: "AppTests.Login", name: "testBad()", duration: 1, outcome: .failed(message: "a < b", details: "Login.swift:12: a < b")),
            JUnitTestCase(className: "AppTests.Other", name: "testSkip()", outcome: .skipped(message: "no network")),
            JUnitTestCase(className: "AppTests.Other", name: "testFlaky()", duration: 2.5, outcome: .flaky(failedRuns: 1, details: "Other.swift:3: timed out")),
        ], name: "App & tests")
        #expect(xml == """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="App &amp; tests" tests="4" failures="1" skipped="1" time="3.513">
              <testsuite name="AppTests.Login" tests="2" failures="1" skipped="0" time="1.013">
                <testcase classname="AppTests.Login" name="testOK()" time="0.013"/>
                <testcase classname="AppTests.Login" name="testBad()" time="1.000">
                  <failure message="a &lt; b">Login.swift:12: a &lt; b</failure>
                </testcase>
              </testsuite>
              <testsuite name="AppTests.Other" tests="2" failures="0" skipped="1" time="2.500">
                <testcase classname="AppTests.Other" name="testSkip()" time="0.000">
                  <skipped message="no network"/>
                </testcase>
                <testcase classname="AppTests.Other" name="testFlaky()" time="2.500">
                  <system-out>flaky: failed 1 time, then passed on a retry
            Other.swift:3: timed out</system-out>
                </testcase>
              </testsuite>
            </testsuites>

            """)
    }

    @Test("annotations escape the message and the properties")
    func annotation() {
        let note = GitHubAnnotation(.error, "100% wrong\nsecond line", file: "App/A,B.swift", line: 3, column: 7, title: "x: y")
        #expect(note.rendered == "::error file=App/A%2CB.swift,line=3,col=7,title=x%3A y::100%25 wrong%0Asecond line")
        #expect(GitHubAnnotation(.warning, "plain").rendered == "::warning::plain")
    }
}
