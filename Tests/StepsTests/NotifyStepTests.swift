import Basics
import Foundation
import Networking
@testable import Steps
import TestSupport
import TestThreads
import Testing
import Transport

/// The `notify` step against `SlackContractFake` and `TeamsContractFake` (loopback CONTRACT
/// FAKES of the documented payloads and answers; there is no Slack or Teams here) and a
/// `WebhookRecorder`: each request is the documented one, answers are read as the services
/// document them, 429/5xx are retried and other 4xx are not, and secrets never show.
@Suite(.serialized, .dedicatedThreads) struct NotifyStepTests {
    typealias Events = PublishStepTests.Events

    struct Fixture {
        let folder: TemporaryDirectory
        let events = Events()
        let sleeps = DistributionSleeps()
        var status = LaneStatus(lane: "release")

        init() throws { folder = try TemporaryDirectory(prefix: "slipway-notify") }

        func context(dryRun: Bool = false) -> StepContext {
            var context = StepContext(laneName: "release", stepID: "notify", workingDirectory: folder.path, environment: Environment.current,
                                      fileSystem: LocalFileSystem(), processRunner: LocalProcessRunner(), events: events,
                                      services: StepServices(httpClient: SystemHTTPClient(), sleep: sleeps.sleep),
                                      isDryRun: dryRun, redactor: Redactor(secrets: ["lane-secret-value"]))
            context.laneStatus = status
            return context
        }

        func step(_ values: [String: OptionValue]) throws -> NotifyStep {
            try NotifyStep(options: StepOptions(values, for: NotifyStep.description))
        }

        func run(_ values: [String: OptionValue]) async throws -> StepOutputs {
            try await step(values).run(in: context())
        }

        var log: String { events.lines.joined(separator: "\n") }
    }

    static let release: [String: OptionValue] = [
        "message": .string("Release 1.2.0 is out"), "title": .string("Slipway 1.2.0"), "version": .string("1.2.0"),
        "build-number": .string("42"), "links": .map(["Notes": .string("https://example.com/notes")]),
    ]

    @Test func aSlackWebhookGetsTheDocumentedPayload() async throws {
        let fixture = try Fixture()
        let slack = try SlackContractFake()
        let outputs = try await fixture.run(Self.release.merging(["service": .string("slack"), "url": .string(slack.webhookURL)]) { $1 })
        #expect(outputs == ["sent": "true", "ts": ""])
        let state = try slack.state()
        #expect(state.violations == [])
        #expect(state.requests == ["POST /services/\(slack.webhookPath)"])
        #expect(state.headers.first?["content-type"] == "application/json")
        #expect(state.bodies == [#"{"blocks":[{"text":{"text":"Slipway 1.2.0","type":"plain_text"},"type":"header"},{"text":{"text":"Release 1.2.0 is out\nVersion 1.2.0, build 42\n<https://example.com/notes|Notes>","type":"mrkdwn"},"type":"section"}],"text":"*Slipway 1.2.0*\nRelease 1.2.0 is out\nVersion 1.2.0, build 42\n<https://example.com/notes|Notes>"}"#])
        #expect(fixture.events.lines == ["info: sent the message to the Slack incoming webhook"])
    }

    @Test func chatPostMessageSendsTheTokenAsBearerAndOutputsTheTs() async throws {
        let fixture = try Fixture()
        let slack = try SlackContractFake()
        let outputs = try await fixture.run(["service": .string("slack"), "token": .string(slack.token), "channel": .string("#releases"),
                                             "api-url": .string(slack.apiURL), "message": .string("Beta 42 is on TestFlight")])
        #expect(outputs == ["sent": "true", "ts": "1700000000.000001"])
        let state = try slack.state()
        #expect(state.violations == [])
        #expect(state.requests == ["POST /api/chat.postMessage"])
        #expect(state.headers.first?["authorization"] == "Bearer \(slack.token)")
        #expect(state.headers.first?["content-type"] == "application/json; charset=utf-8")
        #expect(state.bodies == [##"{"channel":"#releases","text":"Beta 42 is on TestFlight"}"##])
        #expect(fixture.events.lines == ["info: sent the message to the Slack chat.postMessage to '#releases' (ts 1700000000.000001)"])
    }

    @Test func teamsGetsAnAdaptiveCardMessage() async throws {
        let fixture = try Fixture()
        let teams = try TeamsContractFake()
        let outputs = try await fixture.run(Self.release.merging(["service": .string("teams"), "url": .string(teams.workflowURL)]) { $1 })
        #expect(outputs == ["sent": "true", "ts": ""])
        let state = try teams.state()
        #expect(state.violations == [])
        #expect(state.requests == ["POST /workflows/slipway-notify/triggers/manual/paths/invoke"])
        #expect(state.bodies == [#"{"attachments":[{"content":{"$schema":"http://adaptivecards.io/schemas/adaptive-card.json","body":[{"size":"Medium","text":"Slipway 1.2.0","type":"TextBlock","weight":"Bolder","wrap":true},{"text":"Release 1.2.0 is out\nVersion 1.2.0, build 42\n[Notes](https://example.com/notes)","type":"TextBlock","wrap":true}],"type":"AdaptiveCard","version":"1.4"},"contentType":"application/vnd.microsoft.card.adaptive"}],"type":"message"}"#])
        #expect(!fixture.log.contains(teams.signature))
    }

    @Test func aJSONWebhookGetsTheRunsFieldsAndHeadersAndTheDefaultMessageNamesTheFailedStep() async throws {
        var fixture = try Fixture()
        fixture.status = LaneStatus(lane: "release", outcome: .failure, failedStep: "upload", error: "HTTP 503 from lane-secret-value")
        let hook = try WebhookRecorder()
        let outputs = try await fixture.run(["service": .string("webhook"), "url": .string(hook.url), "version": .string("1.2.0"),
                                             "headers": .map(["Authorization": .string("Bearer hook-token-123"), "X-Team": .string("ios")])])
        #expect(outputs == ["sent": "true", "ts": ""])
        let state = try hook.state()
        #expect(state.violations == [])
        #expect(state.headers.first?["authorization"] == "Bearer hook-token-123")
        #expect(state.headers.first?["x-team"] == "ios")
        #expect(state.bodies == [#"{"error":"HTTP 503 from ***","failed_step":"upload","lane":"release","message":"Lane 'release' failed at step 'upload': HTTP 503 from ***","status":"failure","version":"1.2.0"}"#])
        #expect(!fixture.log.contains("hook-token-123"))
    }

    @Test func rateLimitsAndServerErrorsAreRetriedThenTheMessageIsSent() async throws {
        let fixture = try Fixture()
        let slack = try SlackContractFake()
        try slack.inject([ChatFault(status: 429, retryAfter: 7), ChatFault(status: 500)])
        let outputs = try await fixture.run(["service": .string("slack"), "url": .string(slack.webhookURL), "message": .string("hi")])
        #expect(outputs["sent"] == "true")
        let state = try slack.state()
        #expect(state.requests.count == 3)
        #expect(state.bodies == [#"{"text":"hi"}"#])
        #expect(fixture.sleeps.waits.count == 2)
        #expect(fixture.sleeps.waits.first == .seconds(7), "Retry-After is honoured")
        let warnings = fixture.events.lines.filter { $0.hasPrefix("warning: attempt") }
        #expect(warnings.first == "warning: attempt 1 of 3 failed: HTTP 429 (rate_limited); retrying in 7.00s")
        #expect(warnings.count == 2 && warnings[1].hasPrefix("warning: attempt 2 of 3 failed: HTTP 500 (rollup_error); retrying in "))
        #expect(!fixture.log.contains(slack.webhookPath))
    }

    @Test func chatPostMessageRateLimitIsRetriedAfterRetryAfter() async throws {
        let fixture = try Fixture()
        let slack = try SlackContractFake()
        try slack.inject([ChatFault(status: 429, retryAfter: 3)])
        let outputs = try await fixture.run(["service": .string("slack"), "token": .string(slack.token), "channel": .string("C0SLIPWAY1"),
                                             "api-url": .string(slack.apiURL), "message": .string("hi")])
        #expect(outputs == ["sent": "true", "ts": "1700000000.000001"])
        #expect(fixture.sleeps.waits == [.seconds(3)])
    }

    @Test func aRetryAfterLongerThanTwoMinutesFailsInsteadOfHoldingTheLane() async throws {
        let fixture = try Fixture()
        let slack = try SlackContractFake()
        try slack.inject([ChatFault(status: 429, retryAfter: 600)])
        let error = await #expect(throws: TransportError.self) {
            _ = try await fixture.run(["service": .string("slack"), "url": .string(slack.webhookURL), "message": .string("hi")])
        }
        #expect(error?.localizedDescription == "sending the message to the Slack incoming webhook failed after 1 attempt: HTTP 429 (rate_limited), "
            + "which asks to wait 600s, longer than the 120s Slipway waits. Try again later, or check the server.")
        #expect(fixture.sleeps.waits.isEmpty)
    }

    @Test func aFourHundredFailsWithSlacksErrorAndIsNotRetried() async throws {
        let fixture = try Fixture()
        let slack = try SlackContractFake()
        try slack.inject([ChatFault(status: 400, error: "invalid_payload")])
        await #expect(throws: StepError.failed("the Slack incoming webhook refused the message: HTTP 400 invalid_payload. Slack could not read "
            + "the payload; check 'message' and 'title'. Not retried: Slack's 4xx answers are not temporary.")) {
            _ = try await fixture.run(["service": .string("slack"), "url": .string(slack.webhookURL), "message": .string("hi")])
        }
        #expect(try slack.state().requests.count == 1)
        #expect(fixture.sleeps.waits.isEmpty)
    }

    @Test func slacksWebAPIErrorsAreReportedWithWhatToDo() async throws {
        let fixture = try Fixture()
        let slack = try SlackContractFake()
        await #expect(throws: StepError.failed("Slack refused the message to '#nope': channel_not_found. Check 'channel': a channel id "
            + "(C0123456789) or a public channel's name.")) {
            _ = try await fixture.run(["service": .string("slack"), "token": .string(slack.token), "channel": .string("#nope"),
                                       "api-url": .string(slack.apiURL), "message": .string("hi")])
        }
        await #expect(throws: StepError.failed("Slack refused the message to '#releases': invalid_auth. Check 'token': a bot token "
            + "(xoxb-...) of an installed app with the chat:write scope.")) {
            _ = try await fixture.run(["service": .string("slack"), "token": .string("xoxb-wrong-token"), "channel": .string("#releases"),
                                       "api-url": .string(slack.apiURL), "message": .string("hi")])
        }
        #expect(try slack.state().requests.count == 2)
    }

    @Test func serverErrorsUntilTheAttemptsRunOutFailWithoutShowingTheURL() async throws {
        let fixture = try Fixture()
        let teams = try TeamsContractFake()
        try teams.inject([ChatFault(status: 500), ChatFault(status: 500)])
        let error = await #expect(throws: TransportError.self) {
            _ = try await fixture.run(["service": .string("teams"), "url": .string(teams.workflowURL), "message": .string("hi"), "attempts": .int(2)])
        }
        #expect(error?.localizedDescription == "sending the message to the Microsoft Teams workflow failed after 2 attempts: HTTP 500 "
            + "({\"error\": {\"code\": \"Fault\", \"message\": \"injected fault 500\"}}). Try again later, or check the server.")
        #expect(try teams.state().bodies.isEmpty)
    }

    @Test func withFailOnErrorFalseAFailedSendIsAWarningAndSentIsFalse() async throws {
        let fixture = try Fixture()
        let teams = try TeamsContractFake()
        let wrong = teams.workflowURL.replacingOccurrences(of: teams.signature, with: "badsig")
        let outputs = try await fixture.run(["service": .string("teams"), "url": .string(wrong), "message": .string("hi"),
                                             "fail-on-error": .bool(false)])
        #expect(outputs == ["sent": "false", "ts": ""])
        #expect(fixture.events.lines == ["warning: the message was not sent: the Microsoft Teams workflow refused the message: HTTP 401 "
            + "(DirectApiAuthorizationRequired: The signature does not match.). The workflow URL is wrong, expired or its flow is turned off; "
            + "copy the URL from the workflow's trigger again and update the secret. Not retried. (fail-on-error: false, so the step goes on)"])
    }

    @Test func theDryRunPlanShowsThePayloadWithTheURLMaskedAndSendsNothing() async throws {
        let fixture = try Fixture()
        let slack = try SlackContractFake()
        let step = try fixture.step(["service": .string("slack"), "url": .string(slack.webhookURL), "message": .string("Beta ${{ x }} lane-secret-value")])
        let effects = try step.plan(in: fixture.context(dryRun: true))
        let port = try #require(URL(string: slack.webhookURL)?.port)
        #expect(effects == [Effect(.network, #"POST http://127.0.0.1:\#(port)/*** (Slack incoming webhook): {"text":"Beta ${{ x }} ***"}"#)])
        let masked = try fixture.step(["service": .string("slack"), "url": .string(Redactor.mask), "message": .string("hi")])
        #expect(try masked.plan(in: fixture.context(dryRun: true)) == [Effect(.network, #"POST *** (Slack incoming webhook): {"text":"hi"}"#)])
        #expect(try slack.state().requests == [])
    }

    @Test func badOptionsAreRefusedNamingTheOption() throws {
        let fixture = try Fixture()
        let cases: [([String: OptionValue], StepError)] = [
            (["service": .string("teams")], .invalidOption(name: "url", problem: "is required with service: teams")),
            (["service": .string("slack")], .invalidOption(name: "url", problem: "is missing: give 'url' or 'token' with service: slack")),
            (["service": .string("slack"), "token": .string("xoxb-1")], .invalidOption(name: "token", problem: "needs option 'channel' too")),
            (["service": .string("slack"), "url": .string("https://hooks.slack.com/services/x"), "token": .string("xoxb-1"), "channel": .string("#a")],
             .invalidOption(name: "token", problem: "cannot be given with 'url': give 'url' or 'token', not both")),
            (["service": .string("teams"), "url": .string("https://example.com/x"), "token": .string("xoxb-1")],
             .invalidOption(name: "token", problem: "applies only with service: slack, not with service: teams")),
            (["service": .string("slack"), "url": .string("https://hooks.slack.com/services/x"), "headers": .map(["A": .string("b")])],
             .invalidOption(name: "headers", problem: "applies only with service: webhook, not with service: slack")),
            (["service": .string("webhook"), "url": .string("http://hooks.example.com/secret-path")],
             .invalidOption(name: "url", problem: "must be an https URL (http only to localhost): the URL is a credential and must not travel in clear text")),
            (["service": .string("webhook"), "url": .string("hooks.example.com")],
             .invalidOption(name: "url", problem: "is not a URL. Copy the whole URL (https://...) from the service")),
            (["service": .string("webhook"), "url": .string("")],
             .invalidOption(name: "url", problem: "is empty; if it comes from a secret, set that secret's environment variable")),
            (["service": .string("webhook"), "url": .string("https://example.com/h"), "headers": .map(["Content-Type": .string("text/plain")])],
             .invalidOption(name: "headers", problem: "cannot set 'Content-Type': the step sets it (the body is application/json)")),
            (["service": .string("slack"), "url": .string("https://hooks.slack.com/services/x"), "title": .string(String(repeating: "t", count: 151))],
             .invalidOption(name: "title", problem: "is 151 characters; a Slack header holds at most 150")),
            (["service": .string("pager")], .invalidOption(name: "service", problem: "must be slack, teams or webhook")),
        ]
        for (values, expected) in cases {
            #expect(throws: expected, "\(values)") {
                let step = try fixture.step(values)
                _ = try step.plan(in: fixture.context(dryRun: true))
            }
        }
    }
}
