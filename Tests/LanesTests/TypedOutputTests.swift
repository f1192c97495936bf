import Basics
import Foundation
import Lanes
import Steps
import Testing
import TestSupport
import TestThreads

/// Outputs keep their declared type (mapping, list, int) through `${{ }}`: a whole-value
/// expression gives the option the typed value, `${{ steps.ID }}` a mapping of the outputs,
/// and mismatches are validation errors.
@Suite(.dedicatedThreads) struct TypedOutputTests {
    /// `test.emit`: sets `profiles` (mapping), `files` (list) and `count` (int) from the JSON
    /// text given in its options, as a real step writes them.
    static let emit = StepKind(description: StepDescription(
        id: "test.emit", summary: "Sets typed outputs.",
        options: [.optional("profiles", .string, default: .string(#"{"com.example.app":"App Store","com.example.app.widget":"Widget Store"}"#), "JSON."),
                  .optional("files", .string, default: .string(#"["a.ipa","b.dSYM.zip"]"#), "JSON.")],
        outputs: [OutputSpec("profiles", "By bundle id.", type: .map(.string)),
                  OutputSpec("files", "Files.", type: .list(.string)),
                  OutputSpec("count", "A number.", type: .int),
                  OutputSpec("name", "A string.")]),
        origin: .builtIn) { options in
            EmitAction(profiles: try options.requiredString("profiles"), files: try options.requiredString("files"))
        }

    /// `test.take`: takes a mapping, a list and a whole-step mapping; its outputs say what it got.
    static let take = StepKind(description: StepDescription(
        id: "test.take", summary: "Takes typed options.",
        options: [.optional("profiles", .map(.string), "A mapping."),
                  .optional("files", .list(.string), "A list."),
                  .optional("all", .map(.string), "Every output of a step."),
                  .optional("text", .string, "Text."),
                  .optional("number", .int, "A number."),
                  .optional("counts", .map(.int), "Numbers by name.")]),
        origin: .builtIn) { options in
            TakeAction(profiles: try options.stringMap("profiles"), files: try options.strings("files"),
                       all: try options.stringMap("all"), text: try options.string("text") ?? "", number: try options.int("number"))
        }

    static let registry = StepRegistry(extra: [emit, take])

    func validate(_ text: String, registry: StepRegistry = Self.registry, platform: Platform = .current) async throws -> ValidatedLane {
        let lane = try LaneFileParser.parse(text, name: "l", file: "lanes/l.yml")
        return try await LaneValidator(registry: registry, platform: platform).validate(lane)
    }

    func problems(_ text: String, registry: StepRegistry = Self.registry, platform: Platform = .current) async throws -> [String] {
        do {
            _ = try await validate(text, registry: registry, platform: platform)
            return []
        } catch let error as DiagnosticsError {
            return error.diagnostics.filter { $0.severity == .error }.map(\.description)
        }
    }

    func run(_ text: String, dryRun: Bool = false) async throws -> LaneFixture.Outcome {
        let fixture = try LaneFixture()
        let validated = try await validate(text)
        var options = LaneRunner.Options()
        options.isDryRun = dryRun
        let console = BufferedOutput()
        let summary = try await LaneRunner(services: fixture.workspace.services)
            .run(validated, options: options, reporters: [ConsoleReporter(output: console, style: .plain)])
        return LaneFixture.Outcome(summary: summary, console: console.text, events: [])
    }

    @Test func mappingsListsAndWholeStepsKeepTheirTypeThroughExpressions() async throws {
        let outcome = try await run("""
            steps:
              - test.emit: {}
                id: emit
              - test.take:
                  profiles: "${{ steps.emit.outputs.profiles }}"
                  files: "${{ steps.emit.outputs.files }}"
                  all: "${{ steps.emit }}"
                  text: "profiles: ${{ steps.emit.outputs.profiles }}"
                  number: "${{ steps.emit.outputs.count }}"
                id: take
            """)
        #expect(outcome.status("take") == .succeeded, "\(outcome.console)")
        let got = outcome.outputs("take")
        #expect(got["profiles"] == "com.example.app=App Store;com.example.app.widget=Widget Store")
        #expect(got["files"] == "a.ipa|b.dSYM.zip")
        #expect(got["all"] == #"count=2;files=["a.ipa","b.dSYM.zip"];name=emitted;profiles={"com.example.app":"App Store","com.example.app.widget":"Widget Store"}"#)
        #expect(got["text"] == #"profiles: {"com.example.app":"App Store","com.example.app.widget":"Widget Store"}"#)
        #expect(got["number"] == "2")
    }

    @Test func stepsIDOutputsIsTheSameAsStepsID() async throws {
        let outcome = try await run("""
            steps:
              - test.emit: {}
                id: emit
              - test.take: { all: "${{ steps.emit.outputs }}" }
                id: take
            """)
        #expect(outcome.outputs("take")["all"]?.hasPrefix("count=2;files=") == true, "\(outcome.console)")
    }

    @Test func outputTextThatIsNotItsDeclaredTypeFailsTheStepThatUsesIt() async throws {
        let outcome = try await run("""
            steps:
              - test.emit: { profiles: "App Store" }
                id: emit
              - test.take: { profiles: "${{ steps.emit.outputs.profiles }}" }
                id: take
            """)
        #expect(outcome.status("take") == .failed)
        let error = outcome.summary.steps.first { $0.id == "take" }?.error ?? ""
        #expect(error.contains("'steps.emit.outputs.profiles' should hold a mapping of strings (as JSON), but it is 'App Store'; the step that set it (or a hand-over record) wrote it in another form. Run that step again."), "\(error)")
    }

    @Test func undeclaredOutputsAreDecodedAsAJSONObjectOrRefused() async throws {
        let good = try await run("""
            steps:
              - run: echo 'map={"com.example.app":"App Store"}' >> "$SLIPWAY_OUTPUT"
                id: script
              - test.take: { profiles: "${{ steps.script.outputs.map }}" }
                id: take
            """)
        #expect(good.outputs("take")["profiles"] == "com.example.app=App Store", "\(good.console)")
        let bad = try await run("""
            steps:
              - run: echo 'map=App Store' >> "$SLIPWAY_OUTPUT"
                id: script
              - test.take: { profiles: "${{ steps.script.outputs.map }}" }
                id: take
            """)
        #expect(bad.status("take") == .failed)
        let error = bad.summary.steps.first { $0.id == "take" }?.error ?? ""
        #expect(error.contains("option 'profiles' expects a mapping of strings, but 'steps.script.outputs.map' is a string 'App Store', not a JSON object; give the option a YAML mapping, or an output that holds JSON"), "\(error)")
    }

    @Test func dryRunStandsInForMappingsThatDoNotExistYet() async throws {
        let outcome = try await run("""
            steps:
              - test.emit: {}
                id: emit
              - test.take: { profiles: "${{ steps.emit.outputs.profiles }}", all: "${{ steps.emit }}" }
                id: take
            """, dryRun: true)
        #expect(outcome.status("take") == .planned, "\(outcome.console)")
    }

    @Test func mismatchedOutputTypesAreValidationErrors() async throws {
        let found = try await problems("""
            steps:
              - test.emit: {}
                id: emit
              - test.take:
                  profiles: "${{ steps.emit.outputs.files }}"
                  files: "${{ steps.emit.outputs.profiles }}"
                  number: "${{ steps.emit.outputs.files }}"
              - test.take: { profiles: "${{ steps.emit.outputs.name }}" }
              - test.take: { files: "${{ steps.emit }}" }
              - test.take: { all: "${{ steps.emit }}", profiles: "${{ inputs.x }}" }
              - test.take: { counts: "${{ steps.emit }}" }
            inputs:
              x: { default: a }
            """)
        #expect(found == [
            "lanes/l.yml:5:18: error: option 'profiles' expects a mapping of strings, but 'steps.emit.outputs.files' is a list of strings (declared by step 'emit' (test.emit)); pass an output that is a mapping, or write the mapping in the lane file",
            "lanes/l.yml:6:15: error: option 'files' expects a list of strings, but 'steps.emit.outputs.profiles' is a mapping of strings (declared by step 'emit' (test.emit)); pass an output that is a list, or write the list in the lane file",
            "lanes/l.yml:7:16: error: option 'number' expects an integer, but 'steps.emit.outputs.files' is a list of strings (declared by step 'emit' (test.emit)); pass an output of that type",
            "lanes/l.yml:8:29: error: option 'profiles' expects a mapping of strings, but 'steps.emit.outputs.name' is a string (declared by step 'emit' (test.emit)); pass an output that is a mapping, or write the mapping in the lane file",
            "lanes/l.yml:9:26: error: option 'files' expects a list of strings, but 'steps.emit' is a mapping of every output of step 'emit' (test.emit); use 'steps.emit.outputs.NAME' for one output",
            "lanes/l.yml:10:54: error: option 'profiles' expects a mapping, but this is a string '${{ inputs.x }}'",
            "lanes/l.yml:11:27: error: option 'counts' expects a mapping of integers, but 'steps.emit' holds every output of step 'emit' (test.emit), and 'profiles' (a mapping of strings), 'files' (a list of strings), 'name' (a string) are not an integer; pass the outputs one by one",
        ])
    }

    @Test func aMismatchStopsTheRunBeforeAnythingChanges() async throws {
        let fixture = try LaneFixture(["l": """
            steps:
              - run: touch ran.txt
              - test.emit: {}
                id: emit
              - test.take: { profiles: "${{ steps.emit.outputs.files }}" }
            """])
        let before = try fixture.snapshot()
        let lane = try fixture.workspace.store.load("l")
        do {
            _ = try await LaneValidator(registry: Self.registry).validate(lane)
            Issue.record("expected a validation error")
        } catch let error as DiagnosticsError {
            #expect(error.diagnostics.map(\.description) == [
                "lanes/l.yml:5:29: error: option 'profiles' expects a mapping of strings, but 'steps.emit.outputs.files' is a list of strings (declared by step 'emit' (test.emit)); pass an output that is a mapping, or write the mapping in the lane file",
            ])
        }
        #expect(try fixture.snapshot() == before)
    }

    @Test func wholeStepReferencesAreCheckedLikeOutputReferences() async throws {
        let found = try await problems("""
            steps:
              - test.take: { text: "${{ steps.later }}" }
              - test.emit: {}
                id: later
              - test.take: { text: "${{ steps.nope }}" }
            """)
        #expect(found == [
            "lanes/l.yml:2:25: error: 'steps.later' refers to step 'later', which runs after this one (or beside it in a parallel group); move it earlier",
            "lanes/l.yml:5:25: error: 'steps.nope' refers to an unknown step 'nope'. Give the step 'id: nope'.",
        ])
    }

    @Test func syncedProfilesReachTheExportAsAMapping() async throws {
        let lane = """
            secrets: [SIGNING_PASSPHRASE]
            steps:
              - signing.sync:
                  type: app-store
                  bundle-ids: [com.example.app, com.example.app.widget]
                  storage: signing-store
                  passphrase: "${{ secrets.SIGNING_PASSPHRASE }}"
                id: signing
              - xcode.export:
                  archive: build/App.xcarchive
                  method: app-store-connect
                  signing-style: manual
                  profiles: "${{ steps.signing.outputs.profiles }}"
                id: export
            """
        let validated = try await validate(lane, registry: StepRegistry(), platform: .macOS)
        let export = try #require(validated.lane.allInvocations.first { $0.id == "export" })
        let kind = try #require(validated.kinds["export"])
        let options = try StepOptionsBuilder.build(export, description: kind.description) { template in
            #expect(template.source == "${{ steps.signing.outputs.profiles }}")
            return .map(["com.example.app": .string("App Store"), "com.example.app.widget": .string("Widget Store")])
        }
        #expect(try options.stringMap("profiles") == ["com.example.app": "App Store", "com.example.app.widget": "Widget Store"])
        _ = try kind.makeAction(options: options)
        // A list output into the export's mapping is refused before anything runs.
        let wrong = lane.replacingOccurrences(of: "profiles: \"${{ steps.signing.outputs.profiles }}\"",
                                              with: "profiles: \"${{ steps.signing.outputs.profile-name }}\"")
        #expect(try await problems(wrong, registry: StepRegistry(), platform: .macOS) == [
            "lanes/l.yml:13:18: error: option 'profiles' expects a mapping of strings, but 'steps.signing.outputs.profile-name' is a string (declared by step 'signing' (signing.sync)); pass an output that is a mapping, or write the mapping in the lane file",
        ])
    }

    @Test func aWholeSigningStepReachesTheExport() async throws {
        let lane = """
            secrets: [SIGNING_PASSPHRASE]
            steps:
              - signing.sync:
                  type: app-store
                  bundle-ids: [com.example.app, com.example.app.widget]
                  storage: signing-store
                  passphrase: "${{ secrets.SIGNING_PASSPHRASE }}"
                id: signing
              - xcode.export: { archive: build/App.xcarchive, method: app-store-connect, signing: "${{ steps.signing }}" }
                id: export
            """
        let validated = try await validate(lane, registry: StepRegistry(), platform: .macOS)
        let export = try #require(validated.lane.allInvocations.first { $0.id == "export" })
        let kind = try #require(validated.kinds["export"])
        // What the run gives for ${{ steps.signing }}: every output, `profiles` a mapping.
        let options = try StepOptionsBuilder.build(export, description: kind.description) { _ in
            .map(["team-id": .string("AB12CD34EF"), "profiles": .map(["com.example.app": .string("App Store"), "com.example.app.widget": .string("Widget Store")])])
        }
        #expect(try options.stringMap("signing") == ["team-id": "AB12CD34EF", "profiles": #"{"com.example.app":"App Store","com.example.app.widget":"Widget Store"}"#])
        _ = try kind.makeAction(options: options)
    }

    @Test func stepPagesShowTheTypeOfTypedOutputs() throws {
        let kind = try #require(StepRegistry().builtInKinds.first { $0.description.id == "signing.sync" })
        let page = StepDocumentation.page(kind)
        #expect(page.contains("  profiles ({string: string}): Every profile name by bundle id (a mapping; JSON text inside a longer string)."))
        #expect(page.contains("  team-id: The team id."))
    }

    @Test func typedValuesDecodeAndPrintAsJSON() throws {
        let value = try ExpressionValue.decode(#"{"b":"x \"q\"","a":"1"}"#, as: .map(.string))
        #expect(value == .map(["a": .string("1"), "b": .string("x \"q\"")]))
        #expect(value.description == #"{"a":"1","b":"x \"q\""}"#)
        #expect(throws: TypedValueError.self) { try ExpressionValue.decode(#"{"a":1}"#, as: .map(.string)) }
        #expect(throws: TypedValueError.self) { try ExpressionValue.decode("[1, 2]", as: .list(.string)) }
        #expect(try ExpressionValue.decode("[1, 2]", as: .list(.int)) == .list([.number(1), .number(2)]))
        #expect(try ExpressionValue.decode("7", as: .int) == .number(7))
    }
}

private struct EmitAction: StepAction {
    var profiles: String
    var files: String
    func plan(in context: StepContext) async throws -> [Effect] { [] }
    func run(in context: StepContext) async throws -> StepOutputs {
        ["profiles": profiles, "files": files, "count": "2", "name": "emitted"]
    }
}

private struct TakeAction: StepAction {
    var profiles: [String: String]
    var files: [String]
    var all: [String: String]
    var text: String
    var number: Int?
    func plan(in context: StepContext) async throws -> [Effect] { [] }
    func run(in context: StepContext) async throws -> StepOutputs {
        func joined(_ map: [String: String]) -> String { map.keys.sorted().map { "\($0)=\(map[$0] ?? "")" }.joined(separator: ";") }
        return ["profiles": joined(profiles), "files": files.joined(separator: "|"), "all": joined(all), "text": text,
                "number": number.map(String.init) ?? "none"]
    }
}
