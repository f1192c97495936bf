import Foundation
import Testing
import TestSupport
import TestThreads

/// `notify` through the built binary: `slipway run --dry-run` prints the payload with the
/// webhook URL masked and sends nothing (the Slack CONTRACT FAKE on loopback receives no
/// request), and `slipway validate` refuses bad options at their line.
@Suite(.serialized, .dedicatedThreads) struct NotifyCommandTests {
    func slipway(_ arguments: [String], in directory: String, environment: [String: String?] = [:]) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: directory, environment: environment.merging(["NO_COLOR": "1", "GITHUB_ACTIONS": nil]) { $1 })
    }

    @Test func aDryRunPrintsThePayloadWithTheURLMaskedAndSendsNothing() throws {
        let slack = try SlackContractFake()
        let folder = try TemporaryDirectory(prefix: "slipway-notify-cli")
        try folder.write("lanes/release.yml", """
            secrets: [SLACK_WEBHOOK_URL]
            steps:
              - run: "true"
            finally:
              - notify: { service: slack, url: "${{ secrets.SLACK_WEBHOOK_URL }}", title: "Release ${{ lane.status }}" }
            """)
        let before = try Snapshot.of(folder.path)
        let port = try #require(URL(string: slack.webhookURL)?.port)
        let result = try slipway(["run", "release", "--dry-run"], in: folder.path, environment: ["SLACK_WEBHOOK_URL": slack.webhookURL])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let output = result.standardOutput + result.standardError
        #expect(output.contains(#"POST http://127.0.0.1:\#(port)/*** (Slack incoming webhook): {"blocks":[{"text":{"text":"Release success","type":"plain_text"},"type":"header"},{"text":{"text":"Lane 'release' succeeded.","type":"mrkdwn"},"type":"section"}],"text":"*Release success*\nLane 'release' succeeded."}"#), "\(output)")
        #expect(!output.contains(slack.webhookPath))
        #expect(try slack.state().requests == [])
        #expect(try Snapshot.of(folder.path) == before)
    }

    @Test func validateRefusesTokenWithoutChannelAtItsLine() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-notify-cli")
        try folder.write("lanes/release.yml", """
            secrets: [SLACK_BOT_TOKEN]
            steps:
              - notify:
                  service: slack
                  token: "${{ secrets.SLACK_BOT_TOKEN }}"
            """)
        let before = try Snapshot.of(folder.path)
        let result = try slipway(["validate", "release"], in: folder.path)
        #expect(result.status == 2)
        #expect(result.standardError.contains("lanes/release.yml:5:7: error: step 'notify' (notify): option 'token' needs option 'channel' too"), "\(result.standardError)")
        #expect(try Snapshot.of(folder.path) == before)
    }
}
