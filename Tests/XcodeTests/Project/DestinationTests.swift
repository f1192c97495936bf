import Testing
import TestThreads
import Xcode

@Suite("xcodebuild destinations", .dedicatedThreads)
struct DestinationTests {
    @Test("valid specifiers parse and print back", arguments: [
        "platform=iOS Simulator,name=iPhone 16,OS=18.2",
        "id=00008110-001A2B3C4D5E6F7A",
        "generic/platform=iOS",
        "platform=macOS,arch=arm64",
        "platform=macOS,variant=Mac Catalyst",
        "generic/platform=macOS,variant=Mac Catalyst",
        "platform=visionOS Simulator,name=Apple Vision Pro,OS=latest",
    ])
    func valid(text: String) throws {
        #expect(try XcodeDestination(parsing: text).description == text)
    }

    @Test("keys are read case-insensitively and spaces around pairs are dropped")
    func normalised() throws {
        let destination = try XcodeDestination(parsing: " platform = iOS Simulator , name=iPhone 16, os=18.2")
        #expect(destination.description == "platform=iOS Simulator,name=iPhone 16,OS=18.2")
        #expect(destination[.OS] == "18.2")
        #expect(destination[.id] == nil)
    }

    @Test("typed forms")
    func typed() {
        #expect(XcodeDestination.simulator(name: "iPhone 16", os: "18.2").description == "platform=iOS Simulator,name=iPhone 16,OS=18.2")
        #expect(XcodeDestination.simulator(name: "Apple TV", platform: "tvOS Simulator").description == "platform=tvOS Simulator,name=Apple TV")
        #expect(XcodeDestination.device(id: "ABC-1").description == "id=ABC-1")
        #expect(XcodeDestination.generic(platform: "iOS").description == "generic/platform=iOS")
        #expect(XcodeDestination.mac(arch: "arm64").description == "platform=macOS,arch=arm64")
        #expect(XcodeDestination.mac(variant: "Mac Catalyst").description == "platform=macOS,variant=Mac Catalyst")
    }

    static let example = " Example: 'platform=iOS Simulator,name=iPhone 16,OS=18.2'."

    @Test("malformed specifiers: the exact error", arguments: [
        ("", "'' is empty."),
        ("platform=iOS Simulator,,name=iPhone 16", "'platform=iOS Simulator,,name=iPhone 16' has an empty item (two commas in a row, or a trailing comma)."),
        ("iPhone 16", "'iPhone 16' has 'iPhone 16' without '=' (write key=value)."),
        ("platform=iOS Simulator,nmae=iPhone 16", "'platform=iOS Simulator,nmae=iPhone 16' has an unknown key 'nmae'. Did you mean 'name'? Known keys: platform, name, OS, id, arch, variant."),
        ("platform=iOS Simulator,name=", "'platform=iOS Simulator,name=' gives 'name' an empty value."),
        ("platform=iOS,platform=macOS", "'platform=iOS,platform=macOS' gives 'platform' twice."),
        ("platform=iOS Simulater,name=iPhone 16", "'platform=iOS Simulater,name=iPhone 16' names an unknown platform 'iOS Simulater'. Did you mean 'iOS Simulator'? Known platforms: iOS, iOS Simulator, macOS, tvOS, tvOS Simulator, watchOS, watchOS Simulator, visionOS, visionOS Simulator, DriverKit."),
        ("generic/name=Any", "'generic/name=Any' uses 'generic/' without 'platform=' (write generic/platform=iOS)."),
        ("generic/platform=iOS,name=iPhone", "'generic/platform=iOS,name=iPhone' uses 'generic/' with 'name=' (a generic destination takes only platform and variant)."),
        ("name=iPhone 16", "'name=iPhone 16' names neither 'platform=' nor 'id='."),
        ("platform=iOS Simulator,name=iPhone 16,OS=eighteen", "'platform=iOS Simulator,name=iPhone 16,OS=eighteen' has OS 'eighteen', which is not a version (write e.g. OS=18.2, or OS=latest)."),
        ("platform=iOS,variant=Mac Catalyst", "'platform=iOS,variant=Mac Catalyst' gives variant 'Mac Catalyst' without 'platform=macOS' (variants are for macOS, e.g. variant=Mac Catalyst)."),
    ])
    func malformed(text: String, message: String) {
        #expect {
            try XcodeDestination(parsing: text, option: "destinations[0]")
        } throws: { error in
            (error as? XcodeProjectError)?.errorDescription == "Option 'destinations[0]': " + message + Self.example
        }
    }
}
