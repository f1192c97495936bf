import Foundation
import Testing
import TestSupport
import TestThreads
import Xcode

/// xcresulttool's output is refused before decoding when it is larger than the reader's cap.
@Suite(.dedicatedThreads) struct ResultBundleOutputLimitTests {
    @Test func outputOverTheCapIsRefusedNamingTheBundleAndCommand() async throws {
        let directory = try TemporaryDirectory()
        let bundle = try directory.write("Test.xcresult/Info.plist", "")
        let path = (bundle as NSString).deletingLastPathComponent
        let reader = ResultBundleReader(maximumOutputBytes: 100) { _ in Data(repeating: 0x20, count: 101) }
        let before = try Snapshot.of(directory.path)
        await #expect {
            _ = try await reader.testResults(bundle: path)
        } throws: { error in
            error.localizedDescription == "Result bundle '\(path)': the output of 'xcrun xcresulttool get test-results summary --path \(path) --format json' "
                + "is not the JSON expected (it is 101 bytes, more than the 100 bytes slipway decodes; the result bundle may be hostile). "
                + "Run the command to see it, and report it with the output of 'xcodebuild -version'."
        }
        #expect(try Snapshot.of(directory.path) == before)
        #expect(ResultBundleReader.defaultMaximumOutputBytes == 256 << 20)
    }
}
