/// Xcode builds for lanes: `xcodebuild`'s log made readable (`XcodeLog`), test results read from
/// result bundles (`ResultBundle`), schemes, destinations, export options and the choice of an
/// Xcode (`XcodeProject`), used by the `xcode.*` steps. Everything here is plain data and
/// parsing, testable on Linux; only the steps run Apple's tools.
public enum Xcode {}
