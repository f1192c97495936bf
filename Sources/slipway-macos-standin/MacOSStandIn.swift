// STAND-IN — not Slipway for macOS. A test-only executable (not a product users get): the same
// command line as `slipway`, built for Linux, but reporting macOS as its platform so that
// macOS-only steps (xcode.*, signing.sync's keychain install, sign.codesign) validate and run.
// They then call whatever `xcodebuild`, `xcrun`, `security` and `codesign` come first on PATH:
// in Slipway's tests, the STAND-INs in Tests/LanesTests/Fixtures and TestSupport. The GitHub
// Actions simulator puts it on PATH as `slipway` for `runs-on: macos-*` jobs
// (Tests/LanesTests/MacOSRunnerSimulationTests.swift). The platform is set here, in code, before
// the command line is parsed; nothing a checkout controls can set it.
@_spi(MacOSStandIn) import Steps
import SlipwayCLI

@main
enum MacOSStandInEntrypoint {
    static func main() async {
        Platform.actAsMacOSForStandIn()
        await SlipwayCommand.start()
    }
}
