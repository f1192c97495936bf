import Basics

// STAND-IN hook, for Slipway's own tests only. `slipway-macos-standin` (a test-only executable,
// not a product) runs the same CLI as `slipway` on Linux but reports macOS, so that the GitHub
// Actions simulator can give `runs-on: macos-*` jobs a "Mac": macOS-only steps validate and run,
// and call whatever `xcodebuild`, `xcrun`, `security` and `codesign` come first on PATH (the
// tests' stand-ins). Only code can switch it on, through SPI that the stand-in's `main` calls
// before the command line is parsed: no environment variable, option or file (nothing a checkout
// controls) can make a real `slipway` act as another system. Deliberately left as compiled:
// `ToolPlatform.current` (Pins: which tool binaries to download; the stand-in still runs Linux
// binaries) and the state folder's layout (Basics' `StateFiles`), which no macOS step depends on.

extension Platform {
    /// The platform the stand-in executable reports (nil in every other binary).
    private static let standIn = Locked<Platform?>(nil)

    /// The STAND-IN platform, when `actAsMacOSForStandIn()` was called in this process.
    static var standInPlatform: Platform? { standIn.value }

    /// STAND-IN, for Slipway's tests: from now on `Platform.current` is macOS in this process,
    /// whatever it was compiled for. Called only by the `slipway-macos-standin` test executable,
    /// first thing in its `main`; nothing that reads input calls it.
    @_spi(MacOSStandIn) public static func actAsMacOSForStandIn() {
        standIn.withLock { $0 = .macOS }
    }
}
