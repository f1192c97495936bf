@testable import Basics
import Foundation
import Testing
import TestThreads

/// Issue 25 point 7: the Mac's state folder (`~/Library/Application Support/Slipway`) used to be
/// chosen in an `#if os(macOS)` branch that never ran here; the choice now runs on both.
@Suite(.dedicatedThreads) struct StateDirectoryTests {
    @Test func theMacAndLinuxFoldersComeFromHome() {
        let home = Environment(["HOME": "/home/ann/"])
        #expect(StateFiles.userStateDirectory(environment: home, macOS: true) == "/home/ann/Library/Application Support/Slipway")
        #expect(StateFiles.userStateDirectory(environment: home, macOS: false) == "/home/ann/.local/state/slipway")
        #expect(StateFiles.userStateDirectory(environment: home) == StateFiles.userStateDirectory(environment: home, macOS: StateFiles.runsOnMacOS))
        #if os(macOS)
        #expect(StateFiles.runsOnMacOS)
        #else
        #expect(!StateFiles.runsOnMacOS)
        #endif
    }

    @Test func xdgStateHomeWinsOnBoth() {
        let xdg = Environment(["HOME": "/home/ann", "XDG_STATE_HOME": "/state/"])
        for macOS in [false, true] {
            #expect(StateFiles.userStateDirectory(environment: xdg, macOS: macOS) == "/state/slipway")
        }
    }
}
