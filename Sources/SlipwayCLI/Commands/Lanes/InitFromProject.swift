import ArgumentParser
import Basics
import FastlaneImport
import Foundation
import Xcode

/// `slipway init --template ios` and `slipway init --from-fastlane`: lanes written from what the
/// project (and its fastlane folder) say. Nothing is run: the Fastfile is read, not executed.
struct InitFromProject {
    let env: CommandEnvironment
    let force: Bool
    let json: Bool

    func run(fromFastlane: Bool) throws {
        do {
            var survey = try XcodeProjectSurvey.survey(env.projectDirectory, fileSystem: env.fileSystem)
            survey.readSettings(in: env.projectDirectory, fileSystem: env.fileSystem)
            if fromFastlane {
                try translate(survey)
            } else {
                let (lane, findings) = IOSStarterLane.make(survey)
                findings.forEach(env.print)
                try write([lane])
                env.print("Next: 'slipway validate ios-release --platform macos' to check it here, then 'slipway run ios-release --dry-run --platform macos --input team-id=… --input build-number=1'.")
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            throw Failure.report(error, in: env)
        }
    }

    private func translate(_ survey: XcodeProjectSurvey) throws {
        let files = try FastlaneFiles.load(from: env.projectDirectory, fileSystem: env.fileSystem)
        let translation = FastlaneTranslator(files: files, survey: survey).translate()
        let lanes = translation.lanes.filter { !$0.draft.steps.isEmpty }
        if json {
            try write(lanes.map(\.draft), quiet: true)
            env.print(Self.json(translation, lanes: lanes))
            return
        }
        let count = files.fastfile.lanes.count
        env.print("read     \(files.fastfile.path): \(count) lane\(count == 1 ? "" : "s")"
                  + [files.appfile, files.matchfile, files.gymfile, files.scanfile, files.deliverfile].compactMap { $0.map { ", \($0.path)" } }.joined())
        if let container = survey.container { env.print("found    \(container.path)") }
        try write(lanes.map(\.draft))
        let hook = translation.lanes.first?.hookUntranslated ?? []
        if !hook.isEmpty {
            env.print("")
            env.print("before_all (fastlane runs it before every lane; each lane file has its steps):")
            for item in hook { env.print("  not translated: \(item.location) \(item.what) — \(item.reason)") }
        }
        for lane in translation.lanes {
            let steps = lane.draft.steps.count
            env.print("")
            env.print("lane '\(lane.source)' → " + (steps == 0 ? "not written: nothing in it has a Slipway step"
                                                             : "lanes/\(lane.draft.name).yml, \(steps) step\(steps == 1 ? "" : "s") from \(lane.translated.count) action\(lane.translated.count == 1 ? "" : "s")"))
            for difference in lane.differences { env.print("  differs:        \(difference)") }
            for item in lane.untranslated where !hook.contains(item) { env.print("  not translated: \(item.location) \(item.what) — \(item.reason)") }
        }
        for note in translation.notes { env.print("note: \(note)") }
        let untranslated = translation.lanes.reduce(0) { $0 + $1.untranslated.count }
        env.print("")
        env.print("\(lanes.count) lane\(lanes.count == 1 ? "" : "s") written, \(untranslated) item\(untranslated == 1 ? "" : "s") not translated. "
                  + "Next: 'slipway validate NAME --platform macos' for each lane.")
    }

    /// Writes each lane under lanes/, keeping existing files unless --force.
    private func write(_ lanes: [LaneDraft], quiet: Bool = false) throws {
        let directory = env.projectDirectory + "/lanes"
        try env.fileSystem.createDirectory(directory)
        // Every lane file it would write is checked before the first is: none goes through a link.
        try env.checkWritable(lanes.map { "\(directory)/\($0.name).yml" }, overwriting: force)
        for lane in lanes {
            let path = "\(directory)/\(lane.name).yml"
            if env.fileSystem.exists(path) && !force {
                if !quiet { env.print("kept     lanes/\(lane.name).yml (exists; --force overwrites it)") }
                continue
            }
            try env.fileSystem.writeAtomically(lane.yaml(), to: path)
            if !quiet { env.print("wrote    lanes/\(lane.name).yml") }
        }
    }

    private static func json(_ translation: FastlaneTranslation, lanes written: [FastlaneTranslation.Lane]) -> String {
        let items = translation.lanes.map { lane -> String in
            let untranslated = lane.untranslated.map {
                "{\"location\":\(JSONFormatting.quoted($0.location)),\"what\":\(JSONFormatting.quoted($0.what)),\"reason\":\(JSONFormatting.quoted($0.reason))}"
            }
            return "{\"fastlane\":\(JSONFormatting.quoted(lane.source)),"
                + "\"lane\":" + (lane.draft.steps.isEmpty ? "null" : JSONFormatting.quoted(lane.draft.name)) + ","
                + "\"steps\":\(lane.draft.steps.count),"
                + "\"translated\":[" + lane.translated.map(JSONFormatting.quoted).joined(separator: ",") + "],"
                + "\"differences\":[" + lane.differences.map(JSONFormatting.quoted).joined(separator: ",") + "],"
                + "\"untranslated\":[" + untranslated.joined(separator: ",") + "]}"
        }
        return "{\"lanes\":[" + items.joined(separator: ",") + "],\"notes\":[" + translation.notes.map(JSONFormatting.quoted).joined(separator: ",") + "]}"
    }
}
