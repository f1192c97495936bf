import Basics
import Foundation
import Lanes
import Steps
import Testing
import TestSupport
import TestThreads

/// A beta lane that sends one build to DeployGate and to Firebase App Distribution through the
/// `upload` step, run for real against the loopback CONTRACT FAKES of both services (there is
/// neither DeployGate nor Google here). Credentials come from declared secrets and never show.
@Suite(.serialized, .dedicatedThreads) struct DistributionLaneTests {
    func lane(deployGate: DeployGateContractFake, firebase: FirebaseContractFake) -> String {
        """
        description: Send the beta build to testers
        secrets: [DEPLOYGATE_API_KEY, FIREBASE_SERVICE_ACCOUNT]
        steps:
          - upload:
              to: deploygate
              files: [build/App.ipa]
              owner: \(deployGate.owner)
              token: "${{ secrets.DEPLOYGATE_API_KEY }}"
              message: "Beta 1.2.0 (42)"
              deploygate-url: "\(deployGate.baseURL)"
            id: deploygate
          - upload:
              to: firebase
              files: [build/App.ipa]
              app-id: "\(firebase.appID)"
              service-account: "${{ secrets.FIREBASE_SERVICE_ACCOUNT }}"
              notes: "Beta 1.2.0 (42)"
              groups: [qa]
              firebase-url: "\(firebase.baseURL)"
              poll-interval: 10ms
            id: firebase
        """
    }

    @Test func aBetaLaneUploadsToDeployGateAndFirebaseWithoutShowingCredentials() async throws {
        let deployGate = try DeployGateContractFake()
        let firebase = try FirebaseContractFake()
        let fixture = try LaneFixture(["beta": lane(deployGate: deployGate, firebase: firebase)],
                                      environment: ["DEPLOYGATE_API_KEY": deployGate.token, "FIREBASE_SERVICE_ACCOUNT": firebase.serviceAccountJSON])
        try fixture.write("build/App.ipa", String(repeating: "ipa bytes ", count: 5_000))
        let outcome = try await fixture.run("beta")
        #expect(outcome.status("deploygate") == .succeeded, "\(outcome.console)")
        #expect(outcome.status("firebase") == .succeeded, "\(outcome.console)")
        #expect(outcome.outputs("deploygate")["revision"] == "1")
        #expect(outcome.outputs("firebase")["result"] == "RELEASE_CREATED")
        let dg = try deployGate.state()
        let fb = try firebase.state()
        #expect(dg.violations == [] && fb.violations == [])
        #expect(dg.uploads.map(\.fields) == [["message": "Beta 1.2.0 (42)"]])
        #expect(fb.releases.map(\.groups) == [["qa"]])
        #expect(fb.releases.first?.size == 50_000 && dg.uploads.first?.size == 50_000)

        let object = try #require(try JSONSerialization.jsonObject(with: Data(firebase.serviceAccountJSON.utf8)) as? [String: Any])
        let pemLines = try #require(object["private_key"] as? String).split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-----") }
        let secrets = [deployGate.token] + pemLines + fb.tokens
        let events = outcome.events.compactMap { try? JSONFormatting.line($0) }.joined(separator: "\n")
        for secret in secrets {
            #expect(!outcome.console.contains(secret))
            #expect(!events.contains(secret))
        }
    }

    @Test func aMalformedAppIDFailsTheStepBeforeAnythingIsSent() async throws {
        let firebase = try FirebaseContractFake()
        let text = """
            secrets: [FIREBASE_SERVICE_ACCOUNT]
            steps:
              - upload: { to: firebase, files: [build/App.ipa], app-id: "1:oops", firebase-url: "\(firebase.baseURL)",
                          service-account: "${{ secrets.FIREBASE_SERVICE_ACCOUNT }}" }
                id: firebase
            """
        let fixture = try LaneFixture(["beta": text], environment: ["FIREBASE_SERVICE_ACCOUNT": firebase.serviceAccountJSON])
        try fixture.write("build/App.ipa", "ipa")
        let outcome = try await fixture.run("beta")
        #expect(outcome.status("firebase") == .failed)
        #expect(outcome.console.contains("option 'app-id' '1:oops' is not a Firebase app id. Copy it from the Firebase console "
            + "(Project settings → Your apps → App ID); it looks like 1:1234567890:ios:0a1b2c3d4e5f6789"), "\(outcome.console)")
        #expect(try firebase.state().requests == [])
    }
}
