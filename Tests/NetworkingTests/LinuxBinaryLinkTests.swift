import Foundation
import Testing
import TestSupport
import TestThreads

/// The reason URLSessionHTTP is a target of its own (Package.swift): the Linux `slipway` binary
/// must not load FoundationNetworking, libcurl and the libraries behind them at every start.
@Suite(.dedicatedThreads) struct LinuxBinaryLinkTests {
    #if os(Linux)
    @Test func theLinuxBinaryLinksNeitherFoundationNetworkingNorCurl() throws {
        let result = try CommandResult.run("/usr/bin/env", ["ldd", Binaries.slipway])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("libc.so"), "ldd listed the binary's libraries")
        #expect(!result.standardOutput.contains("libFoundationNetworking"), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("libcurl"), "\(result.standardOutput)")
    }
    #endif
}
