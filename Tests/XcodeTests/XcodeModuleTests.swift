import Testing
import TestThreads
@testable import Xcode

@Suite("Xcode module", .dedicatedThreads)
struct XcodeModuleTests {
    @Test("the module links")
    func links() {
        #expect(String(describing: Xcode.self) == "Xcode")
    }
}
