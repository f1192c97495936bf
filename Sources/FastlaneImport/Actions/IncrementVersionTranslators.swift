import Basics

/// `increment_version_number` → `version.bump` (id `version`) on the project's version.
enum IncrementVersionNumberTranslator: FastlaneActionTranslator {
    static let names = ["increment_version_number"]
    static let documentation = docs("increment_version_number")
    static let defaults = [
        "bump_type patch; fastlane (agvtool) bumps the project's marketing version, as version.bump with xcodeproj does",
    ]
    static let parameters: [FastlaneParameter] = [
        .handled("bump_type", "version.bump's strategy: patch, minor or major of the project's version"),
        .handled("version_number", "version.bump's strategy: the version as given"),
        .handled("xcodeproj", "version.bump's xcodeproj (else the project found)"),
    ]

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        builder.updateVersionStep(call, statement) { step, builder in
            if let version = builder.literal(call, "version_number", statement) {
                step.set("strategy", version.asString)
            } else if call.argument("version_number") != nil {
                return // listed: the step keeps its strategy
            } else if let given = call.argument("bump_type") {
                guard let type = given.text, ["patch", "minor", "major"].contains(type) else {
                    builder.skipArgument(call.name, "bump_type", statement, "not patch, minor or major (\(LaneBuilder.source(of: given))); set version.bump's strategy by hand")
                    return
                }
                step.set("strategy", .string(type))
            } else {
                step.set("strategy", .string("patch"))
            }
            guard case .string(let strategy)? = step.option("strategy") else { return }
            if let project = step.option("xcodeproj") {
                builder.differ("increment_version_number: version.bump's strategy \(strategy) starts from the project's version (MARKETING_VERSION in \(GymTranslator.text(project)), where the app and its extensions define it), as fastlane does; a result at or below the latest release tag is refused")
            } else {
                builder.differ("increment_version_number: no Xcode project was found, so version.bump's strategy \(strategy) starts from the latest release tag, not from the project: give version.bump's xcodeproj")
            }
        }
    }
}

/// `increment_build_number` → `version.bump`'s build-number (with strategy keep when the
/// version is not bumped).
enum IncrementBuildNumberTranslator: FastlaneActionTranslator {
    static let names = ["increment_build_number"]
    static let documentation = docs("increment_build_number")
    static let defaults = ["without build_number, the project's build number plus 1 (agvtool next-version): build-number: increment"]
    static let parameters: [FastlaneParameter] = [
        .handled("build_number", "version.bump's build-number"),
        .handled("skip_info_plist", "said: version.bump writes CFBundleVersion where each target keeps it"),
        .handled("xcodeproj", "version.bump's xcodeproj (else the project found)"),
    ]
    static let takesPositionalArguments = true

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        builder.updateVersionStep(call, statement) { step, builder in
            if let number = call.argument("build_number") ?? call.positional.first {
                guard let converted = builder.value(number, statement: statement) else {
                    builder.skipArgument(call.name, "build_number", statement,
                                         "its value (\(LaneBuilder.source(of: number))) is only known when Ruby runs; give version.bump's build-number by hand")
                    return
                }
                step.set("build-number", converted.asString)
            } else {
                // fastlane runs agvtool: the project's build number plus 1. So does the lane.
                step.set("build-number", .string("increment"))
            }
            if step.option("strategy") == nil { step.set("strategy", .string("keep")) }
            if call.argument("skip_info_plist") != nil {
                builder.differ("increment_build_number's skip_info_plist: version.bump writes CFBundleVersion where each target keeps it (Info.plist or CURRENT_PROJECT_VERSION); check its plan")
            }
        }
    }
}

extension LaneBuilder {
    /// increment_build_number and increment_version_number share one version.bump step (id
    /// `version`): the first call adds it where it is, later calls change it.
    mutating func updateVersionStep(_ call: RubyCall, _ statement: Fastfile.Statement, _ change: (inout DraftStep, inout LaneBuilder) -> Void) {
        var step = draft.step("version") ?? DraftStep(kind: "version.bump", id: "version", options: [], origin: nil)
        let isNew = draft.step("version") == nil
        if let project = literal(call, "xcodeproj", statement) {
            step.set("xcodeproj", project)
        } else if step.option("xcodeproj") == nil, let project = translator.survey.project {
            step.set("xcodeproj", .string(project))
        }
        change(&step, &self)
        if isNew {
            guard !step.options.isEmpty, step.option("strategy") != nil || step.option("build-number") != nil else { return }
            let origin = "\(statement.file):\(statement.line) \(statement.text)"
            step.origin = String(origin.prefix(160))
            draft.steps.append(step)
        } else if let index = draft.steps.firstIndex(where: { $0.id == "version" }) {
            draft.steps[index] = step
        }
    }
}
