import Foundation
@testable import Steps
import Testing
import TestThreads

/// `xcode.export`'s `signing` option: a signing.sync step's outputs handed over whole.
@Suite(.dedicatedThreads) struct XcodeExportSigningTests {
    func step(_ values: [String: OptionValue]) throws -> XcodeExportStep {
        try XcodeExportStep(options: StepOptions(["archive": .string("build/App.xcarchive"), "method": .string("app-store-connect")]
            .merging(values) { _, new in new }, for: XcodeExportStep.description))
    }

    static let synced: OptionValue = .map([
        "team-id": .string("AB12CD34EF"), "certificate-name": .string("Apple Distribution: Example Ltd (AB12CD34EF)"),
        "profiles": .string(#"{"com.example.app":"App Store","com.example.app.widget":"Widget Store"}"#),
        "profile-name": .string("App Store"), "keychain": .string(""),
    ])

    @Test func signingOutputsSetTheTeamCertificateAndEveryProfile() throws {
        let options = try #require(try step(["signing": Self.synced]).exportOptions)
        #expect(options.teamID == "AB12CD34EF")
        #expect(options.signingStyle == .manual)
        #expect(options.signingCertificate == "Apple Distribution: Example Ltd (AB12CD34EF)")
        #expect(options.provisioningProfiles == ["com.example.app": "App Store", "com.example.app.widget": "Widget Store"])
    }

    @Test func explicitOptionsWinOverTheHandedOverOnes() throws {
        let options = try #require(try step(["signing": Self.synced, "team-id": .string("ZZ99ZZ99ZZ"),
                                             "profiles": .map(["com.example.app": .string("Own")])]).exportOptions)
        #expect(options.teamID == "ZZ99ZZ99ZZ")
        #expect(options.provisioningProfiles == ["com.example.app": "Own"])
        #expect(options.signingCertificate == "Apple Distribution: Example Ltd (AB12CD34EF)")
    }

    @Test func aDryRunStandInIsLeftAlone() throws {
        let options = try #require(try step(["signing": .map(["<steps.signing>": .string("<steps.signing>")])]).exportOptions)
        #expect(options.provisioningProfiles == [:])
        #expect(options.teamID == nil)
    }

    @Test func signingThatIsNotASigningSyncStepIsRefused() throws {
        #expect(throws: StepError.invalidOption(name: "signing", problem: #"has no 'profiles' (it has exit-code). Pass every output of a signing.sync step: signing: "${{ steps.ID }}"."#)) {
            try step(["signing": .map(["exit-code": .string("0")])])
        }
        #expect(throws: StepError.invalidOption(name: "signing", problem: #"'profiles' is not a JSON object of profile names by bundle id. Pass every output of a signing.sync step: signing: "${{ steps.ID }}"."#)) {
            try step(["signing": .map(["profiles": .string("App Store")])])
        }
    }
}
