import Basics
import Foundation
import Lanes
import Steps
import Testing
import TestSupport
import TestThreads

/// Lanes that end with `notify` in `finally:`, run for real through the runner against the
/// loopback CONTRACT FAKES of Slack and Teams (neither service is here): the failed step is
/// named, the webhook URLs and the token (declared secrets) never show, a dry run shows the
/// payload and sends nothing, and bad options fail validation at their line.
@Suite(.serialized, .dedicatedThreads) struct NotifyLaneTests {
    func lane(_ slack: SlackContractFake, _ teams: TeamsContractFake, failing: Bool) -> String {
        """
        secrets: [SLACK_WEBHOOK_URL, TEAMS_WORKFLOW_URL, SLACK_BOT_TOKEN]
        steps:
          - run: { command: "echo 1.2.0" }
            id: version
          - run: { command: "\(failing ? "exit 3" : "true")" }
            id: build
        finally:
          - notify:
              service: slack
              url: "${{ secrets.SLACK_WEBHOOK_URL }}"
              message: "Release ${{ lane.status }} (${{ lane.name }}) at '${{ lane.failed-step }}': ${{ lane.error }}"
            id: slack
          - notify: { service: teams, url: "${{ secrets.TEAMS_WORKFLOW_URL }}", title: "Release" }
            id: teams
          - notify:
              service: slack
              token: "${{ secrets.SLACK_BOT_TOKEN }}"
              channel: "#releases"
              api-url: "\(slack.apiURL)"
            id: post
        """
    }

    func fixture(_ slack: SlackContractFake, _ teams: TeamsContractFake, failing: Bool = true) throws -> LaneFixture {
        try LaneFixture(["release": lane(slack, teams, failing: failing)],
                        environment: ["SLACK_WEBHOOK_URL": slack.webhookURL, "TEAMS_WORKFLOW_URL": teams.workflowURL, "SLACK_BOT_TOKEN": slack.token])
    }

    @Test func aFinallyNotifyAfterAFailedStepNamesItAndNoSecretShows() async throws {
        let slack = try SlackContractFake()
        let teams = try TeamsContractFake()
        let fixture = try fixture(slack, teams)
        let outcome = try await fixture.run("release")
        #expect(outcome.status("build") == .failed)
        for id in ["slack", "teams", "post"] { #expect(outcome.status(id) == .succeeded, "\(id): \(outcome.console)") }
        #expect(outcome.outputs("post") == ["sent": "true", "ts": "1700000000.000001"])
        let error = try #require(outcome.summary.steps.first { $0.id == "build" }?.error)
        let slackState = try slack.state()
        #expect(slackState.violations == [])
        let texts = try slackState.objects().compactMap { $0["text"] as? String }
        #expect(texts == ["Release failure (release) at 'build': \(error)", "Lane 'release' failed at step 'build': \(error)"])
        let teamsState = try teams.state()
        #expect(teamsState.violations == [])
        #expect(teamsState.bodies.count == 1 && teamsState.bodies[0].contains("Lane 'release' failed at step 'build'"))
        let events = outcome.events.compactMap { try? JSONFormatting.line($0) }.joined(separator: "\n")
        let written = [fixture.path, fixture.stateHome.path].flatMap { root in
            (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).compactMap { relative in
                FileManager.default.contents(atPath: root + "/" + relative).map { String(decoding: $0, as: UTF8.self) }
            }
        }.joined(separator: "\n")
        #expect(written.contains("1700000000.000001"), "the run journal is among the files read")
        for secret in [slack.webhookPath, slack.token, teams.signature] {
            #expect(!outcome.console.contains(secret))
            #expect(!events.contains(secret))
            #expect(!written.contains(secret), "journals and state files")
        }
    }

    @Test func aSuccessfulRunSaysSo() async throws {
        let slack = try SlackContractFake()
        let teams = try TeamsContractFake()
        let outcome = try await fixture(slack, teams, failing: false).run("release")
        #expect(outcome.status("slack") == .succeeded, "\(outcome.console)")
        let texts = try slack.state().objects().compactMap { $0["text"] as? String }
        #expect(texts == ["Release success (release) at '': ", "Lane 'release' succeeded."])
    }

    @Test func aDryRunShowsThePayloadsWithTheURLsMaskedAndSendsNothing() async throws {
        let slack = try SlackContractFake()
        let teams = try TeamsContractFake()
        let outcome = try await fixture(slack, teams).run("release") { $0.isDryRun = true }
        let plans = outcome.events.filter { $0.event == .plan }.flatMap { $0.effects ?? [] }
        let slackHost = try #require(URL(string: slack.webhookURL)?.port).description
        let teamsHost = try #require(URL(string: teams.workflowURL)?.port).description
        #expect(plans.contains(#"network: POST http://127.0.0.1:\#(slackHost)/*** (Slack incoming webhook): {"text":"Release success (release) at '': "}"#), "\(plans)")
        #expect(plans.contains(#"network: POST http://127.0.0.1:\#(teamsHost)/*** (Microsoft Teams workflow): {"attachments":[{"content":{"$schema":"#
            + #""http://adaptivecards.io/schemas/adaptive-card.json","body":[{"size":"Medium","text":"Release","type":"TextBlock","weight":"Bolder","#
            + #""wrap":true},{"text":"Lane 'release' succeeded.","type":"TextBlock","wrap":true}],"type":"AdaptiveCard","version":"1.4"},"#
            + #""contentType":"application/vnd.microsoft.card.adaptive"}],"type":"message"}"#), "\(plans)")
        #expect(plans.contains(##"network: POST \##(slack.apiURL)/chat.postMessage (Slack chat.postMessage to '#releases'): {"channel":"#releases","text":"Lane 'release' succeeded."}"##), "\(plans)")
        #expect(try slack.state().requests == [] && teams.state().requests == [])
        #expect(!outcome.console.contains(slack.webhookPath) && !outcome.console.contains(slack.token))
    }

    @Test func aFinallyJobOfAnExportedPipelineKnowsWhichEarlierJobsStepFailed() async throws {
        typealias S = OnlyRunSupport
        let origin = try S.origin("""
            steps:
              - run: echo ok
                id: build
              - run: exit 4
                id: test
            finally:
              - run: { command: "echo '${{ lane.status }} ${{ lane.failed-step }}' > status.txt" }
                id: report
            """)
        let runner = try S.clone(origin)
        _ = try await runner.run("l") { $0.only = ["build", "test"] }
        let finallyJob = try S.clone(origin)
        try S.handOver(from: runner, to: finallyJob)
        let outcome = try await finallyJob.run("l") { $0.only = ["report"] }
        #expect(outcome.status("report") == .succeeded, "\(outcome.console)")
        #expect(try String(contentsOfFile: finallyJob.path + "/status.txt", encoding: .utf8) == "failure test\n")
    }

    @Test func badOptionsFailValidationAtTheirLineAndChangeNothing() async throws {
        let text = """
            secrets: [HOOK, TOKEN]
            steps:
              - notify: { service: pager, url: "${{ secrets.HOOK }}" }
              - notify: { service: teams, message: "${{ lane.status }}" }
              - notify:
                  service: slack
                  token: "${{ secrets.TOKEN }}"
              - notify: { service: slack, url: "${{ secrets.HOOK }}", headers: { X-A: b } }
              - notify: { service: webhook, url: "${{ secrets.HOOK }}", message: "${{ lane.colour }}" }
            """
        let fixture = try LaneFixture(["l": text])
        let before = try fixture.snapshot()
        let problems = await fixture.problems("l")
        #expect(problems == [
            "lanes/l.yml:3:24: error: option 'service' must be one of slack, teams, webhook, but it is 'pager'.",
            "lanes/l.yml:4:5: error: step 'notify-2' (notify): option 'url' is required with service: teams",
            "lanes/l.yml:7:7: error: step 'notify-3' (notify): option 'token' needs option 'channel' too",
            "lanes/l.yml:8:59: error: step 'notify-4' (notify): option 'headers' applies only with service: webhook, not with service: slack",
            "lanes/l.yml:9:75: error: unknown reference 'lane.colour'; known: lane.name, lane.status, lane.failed-step, lane.error in '${{ lane.colour }}'",
        ], "\(problems)")
        #expect(try fixture.snapshot() == before)
    }
}
