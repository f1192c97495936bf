import Basics
@testable import Pins
import Testing
import TestThreads

@Suite(.dedicatedThreads) struct VersionProbeTests {
    @Test(arguments: [
        ("SwiftLint version 0.57.1\n", nil, "0.57.1"),
        ("swiftformat 0.54.6", nil, "0.54.6"),
        ("git version 2.39.2 (Apple Git-143)", nil, "2.39.2"),
        ("tool v1.2.3-rc.1+build.5 (linux)", nil, "1.2.3-rc.1+build.5"),
        ("release-2.0.0.", nil, "2.0.0"),
        ("built 2024.01.15 from 10.4.1", nil, "10.4.1"),
        ("protocol 1.2, tool 3.4.5", nil, "3.4.5"),
        ("ver1.2.3 and 01.2.3", nil, nil),
        ("hello", nil, nil),
        ("tool 5.8 (no patch)", #"tool (\S+)"#, "5.8.0"),
        ("git version 2.39.2.windows.1", #"git version (\d+\.\d+\.\d+)"#, "2.39.2"),
    ] as [(String, String?, String?)])
    func readsTheVersion(output: String, pattern: String?, expected: String?) {
        #expect(VersionProbe.parse(output, pattern: pattern)?.description == expected, "\(output)")
    }
}
