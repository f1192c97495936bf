import Basics
import Foundation
import Xcode

/// `xcode.export`: `xcodebuild -exportArchive` with an `ExportOptions.plist` written from typed
/// options (or one given as a file); outputs the `.ipa` / `.pkg` / `.app`.
public struct XcodeExportStep: Step {
    public static let description = StepDescription(
        id: "xcode.export",
        summary: "Export a signed .ipa, .pkg or .app from an .xcarchive (macOS only)",
        discussion: """
            Writes ExportOptions.plist from the options (or takes 'options-plist') and runs \
            'xcodebuild -exportArchive'. Methods use Xcode 15.3's names (app-store-connect, \
            release-testing, debugging, enterprise, developer-id, mac-application); the older \
            app-store, ad-hoc and development are accepted as aliases, with a note.
            """,
        options: [
            .required("archive", .string, "The .xcarchive (e.g. ${{ steps.archive.outputs.archive }})."),
            .optional("export-path", .string, default: .string("build/export"), "The folder the export goes into."),
            .optional("method", .string, "How the app is distributed: app-store-connect, release-testing, debugging, enterprise, developer-id, mac-application."),
            .optional("team-id", .string, "The 10-character Apple team id."),
            .optional("signing-style", .choice(["automatic", "manual"]), "Automatic or manual signing."),
            .optional("profiles", .map(.string), "Provisioning profiles by bundle id (name or UUID), for manual signing."),
            .optional("signing-certificate", .string, "The certificate (e.g. 'Apple Distribution'), for manual signing."),
            .optional("signing", .map(.string), "Every output of a signing.sync step (\"${{ steps.signing }}\"): manual signing with its team-id, certificate-name and profiles, unless those options are given."),
            .optional("manage-version", .bool, "Let Xcode change the version and build number (manageAppVersionAndBuildNumber)."),
            .optional("upload-symbols", .bool, "Include symbols for App Store Connect (uploadSymbols)."),
            .optional("destination", .choice(["export", "upload"]), "Export to the folder, or upload to App Store Connect from xcodebuild."),
            .optional("options-plist", .string, "An ExportOptions.plist to use instead of the options above."),
            .optional("allow-provisioning-updates", .bool, default: .bool(false), "Let xcodebuild create and update profiles (-allowProvisioningUpdates)."),
        ] + XcodeRunOptions.specs,
        outputs: [
            OutputSpec("path", "The exported .ipa, .pkg or .app.", file: true), OutputSpec("export-path", "The export folder.", file: true),
            OutputSpec("options-plist", "The ExportOptions.plist used.", file: true), OutputSpec("log", "The raw xcodebuild log.", file: true),
        ],
        examples: [
            StepExample("An App Store .ipa with automatic signing", """
                - xcode.export: { archive: build/App.xcarchive, method: app-store-connect, team-id: ABCDE12345 }
                """),
            StepExample("Manual signing with a profile per bundle id", """
                - xcode.export:
                    archive: build/App.xcarchive
                    method: release-testing
                    team-id: ABCDE12345
                    signing-style: manual
                    signing-certificate: Apple Distribution
                    profiles: { com.example.app: "App Ad Hoc" }
                """),
            StepExample("Signing handed over from signing.sync (every bundle id's profile)", """
                - xcode.export:
                    archive: build/App.xcarchive
                    method: app-store-connect
                    signing: "${{ steps.earlier }}"
                """),
        ],
        platforms: [.macOS]
    )

    let archive: String
    let exportPath: String
    let exportOptions: ExportOptions?
    let methodNote: String?
    let optionsPlist: String?
    let allowProvisioningUpdates: Bool
    let run: XcodeRunOptions

    public init(options: StepOptions) throws {
        archive = try options.requiredString("archive")
        exportPath = try options.requiredString("export-path")
        optionsPlist = try options.string("options-plist")
        allowProvisioningUpdates = try options.bool("allow-provisioning-updates")
        run = try XcodeRunOptions(options: options)
        let typed = ["method", "team-id", "signing-style", "profiles", "signing-certificate", "signing", "manage-version", "upload-symbols", "destination"]
        let given = typed.filter { options.values[$0] != nil }
        if optionsPlist != nil {
            guard given.isEmpty else {
                throw StepError.invalidOption(name: "options-plist", problem: "is given together with \(given.joined(separator: ", ")). Put those into the plist, or drop options-plist and let Slipway write it.")
            }
            exportOptions = nil
            methodNote = nil
            return
        }
        guard let method = try options.string("method") else {
            throw StepError.invalidOption(name: "method", problem: "is missing. Give one of \(ExportMethod.allCases.map(\.rawValue).joined(separator: ", ")), or an options-plist.")
        }
        var export = ExportOptions(method: try Self.method(method))
        methodNote = ExportMethod.deprecationNote(for: method)
        let signing = try Self.handedOverSigning(try options.stringMap("signing"))
        export.teamID = try options.string("team-id") ?? signing?.teamID
        export.signingStyle = try options.string("signing-style").flatMap(ExportOptions.SigningStyle.init(rawValue:))
            ?? (signing == nil ? nil : .manual)
        let profiles = try options.stringMap("profiles")
        export.provisioningProfiles = profiles.isEmpty ? signing?.profiles ?? [:] : profiles
        export.signingCertificate = try options.string("signing-certificate") ?? signing?.certificate
        export.manageAppVersionAndBuildNumber = options.values["manage-version"] == nil ? nil : try options.bool("manage-version")
        export.uploadSymbols = options.values["upload-symbols"] == nil ? nil : try options.bool("upload-symbols")
        export.destination = try options.string("destination").flatMap(ExportOptions.Destination.init(rawValue:))
        // In a dry run a value from an earlier step (signing.sync's team-id) is not known yet.
        var checked = export
        if let team = checked.teamID, DryRunPlaceholder.contains(team) { checked.teamID = nil }
        if let certificate = checked.signingCertificate, DryRunPlaceholder.contains(certificate) { checked.signingCertificate = nil }
        checked.provisioningProfiles = checked.provisioningProfiles.filter { !DryRunPlaceholder.contains($0.key) }
        if let problem = checked.problems.first {
            throw StepError.invalidOption(name: "method", problem: "and the other export options do not fit: \(problem)")
        }
        exportOptions = export
    }

    /// The team, certificate and profiles from a signing.sync step's outputs (`${{ steps.ID }}`);
    /// nil when not given, or in a dry run before the step has run (its stand-in `<steps.ID>`).
    static func handedOverSigning(_ outputs: [String: String]) throws -> (teamID: String?, certificate: String?, profiles: [String: String])? {
        if outputs.isEmpty || outputs.keys.contains(where: DryRunPlaceholder.contains) { return nil }
        let hint = "Pass every output of a signing.sync step: signing: \"${{ steps.ID }}\"."
        guard let text = outputs["profiles"] else {
            throw StepError.invalidOption(name: "signing", problem: "has no 'profiles' (it has \(outputs.keys.sorted().joined(separator: ", "))). \(hint)")
        }
        guard let data = text.data(using: .utf8), let profiles = try? JSONDecoder().decode([String: String].self, from: data) else {
            throw StepError.invalidOption(name: "signing", problem: "'profiles' is not a JSON object of profile names by bundle id. \(hint)")
        }
        return (outputs["team-id"].flatMap { $0.isEmpty ? nil : $0 }, outputs["certificate-name"].flatMap { $0.isEmpty ? nil : $0 }, profiles)
    }

    private static func method(_ name: String) throws -> ExportMethod {
        do {
            return try ExportMethod(parsing: name)
        } catch {
            throw StepError.invalidOption(name: "method", problem: "is not known: " + errorText(error))
        }
    }

    func plistPath(in context: StepContext) -> String {
        context.resolve(optionsPlist ?? ".slipway/build/\(context.laneName)-\(context.stepID)-ExportOptions.plist")
    }

    func arguments(in context: StepContext) throws -> [String] {
        var invocation = XcodebuildInvocation(action: .exportArchive)
        invocation.archivePath = context.resolve(archive)
        invocation.exportPath = context.resolve(exportPath)
        invocation.exportOptionsPlist = plistPath(in: context)
        invocation.allowProvisioningUpdates = allowProvisioningUpdates
        return try invocation.arguments()
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        var effects: [Effect] = []
        if let exportOptions {
            effects.append(Effect(.write, "\(plistPath(in: context)) (ExportOptions.plist, method \(exportOptions.method.rawValue))"))
        }
        return effects + run.plan(try arguments(in: context), name: "export", in: context)
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        if let methodNote { context.events.log(.warning, methodNote) }
        let plist = plistPath(in: context)
        if let exportOptions {
            try context.fileSystem.createDirectory((plist as NSString).deletingLastPathComponent)
            try context.fileSystem.writeAtomically(Array(exportOptions.plist().utf8), to: plist)
        } else {
            do {
                let read = try ExportOptions.read(path: plist, fileSystem: context.fileSystem)
                for note in read.notes { context.events.log(.warning, note) }
            } catch {
                throw StepError.invalidOption(name: "options-plist", problem: errorText(error))
            }
        }
        let folder = context.resolve(exportPath)
        try context.fileSystem.remove(folder)
        let runner = XcodebuildRunner(options: run, context: context)
        let outcome = try await runner.run(try arguments(in: context), name: "export")
        guard outcome.status.isSuccess, !outcome.summary.failed else { throw XcodebuildRunner.buildFailure(outcome, action: "-exportArchive") }
        let products = ((try? context.fileSystem.contents(ofDirectory: folder)) ?? [])
            .filter { $0.hasSuffix(".ipa") || $0.hasSuffix(".pkg") || $0.hasSuffix(".app") }
        guard let product = products.first else {
            throw StepError.failed("xcodebuild -exportArchive succeeded but left no .ipa, .pkg or .app in '\(runner.display(folder))'; the raw log is \(outcome.log).")
        }
        context.events.log(.info, "exported \(product)")
        return ["path": runner.display(folder + "/" + product), "export-path": runner.display(folder),
                "options-plist": runner.display(plist), "log": outcome.log]
    }
}
