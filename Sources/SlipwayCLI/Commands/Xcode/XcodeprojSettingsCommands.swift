import ArgumentParser
import Basics
import Foundation
import PBXProj

/// `slipway xcodeproj settings PATH [--target T] [--configuration C] [--json]`.
struct XcodeprojSettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Print the build settings written in the project (not those from .xcconfig files or defaults).",
        discussion: """
            Without --target, the project's own configurations; with --target, that target's. \
            --configuration narrows to one configuration. Values are shown as written; lists one \
            item per line. --json prints {"configurations": {NAME: {KEY: value}}, "target": NAME} \
            with sorted keys.

            EXAMPLES:
              slipway xcodeproj settings App.xcodeproj
              slipway xcodeproj settings App.xcodeproj --target App --configuration Release --json
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: XcodeprojSupport.pathHelp)
    var path: String

    @Option(help: ArgumentHelp("A target's settings instead of the project's.", valueName: "name"))
    var target: String?

    @Option(help: ArgumentHelp("Only this configuration (Debug, Release, ...).", valueName: "name"))
    var configuration: String?

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let env = global.environment()
        let path = XcodeprojSupport.resolve(self.path, global)
        let (project, file) = try XcodeprojSupport.load(path, in: env)
        let selected: [OwnedConfiguration]
        do {
            selected = try project.configurations(targets: target.map { [$0] } ?? [], configurations: configuration.map { [$0] })
        } catch {
            throw XcodeprojSupport.report(error, file: file, in: env)
        }
        if json {
            env.print(try SettingsJSON.render(selected, target: target))
            return
        }
        for owned in selected {
            // Names, keys and values are the pbxproj's: control characters shown escaped.
            env.print("\((owned.targetName ?? file.projectName).displaySafe) — \(owned.configuration.name.displaySafe):")
            for entry in owned.configuration.buildSettings {
                switch entry.value {
                case .array(let items):
                    env.print("  \(entry.key.displaySafe) =")
                    for item in items { env.print("    \((item.string ?? "\(item)").displaySafe)") }
                default:
                    env.print("  \(entry.key.displaySafe) = \((entry.value.string ?? "\(entry.value)").displaySafe)")
                }
            }
        }
    }
}

/// The JSON form of `settings`.
enum SettingsJSON {
    private enum Value: Encodable {
        case string(String)
        case list([String])
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let text): try container.encode(text)
            case .list(let items): try container.encode(items)
            }
        }
    }

    private struct Output: Encodable {
        let configurations: [String: [String: Value]]
        let target: String?
    }

    static func render(_ selected: [OwnedConfiguration], target: String?) throws -> String {
        var configurations: [String: [String: Value]] = [:]
        for owned in selected {
            var settings: [String: Value] = [:]
            for entry in owned.configuration.buildSettings {
                if let items = entry.value.array {
                    settings[entry.key] = .list(items.map { $0.string ?? "\($0)" })
                } else {
                    settings[entry.key] = .string(entry.value.string ?? "\(entry.value)")
                }
            }
            configurations[owned.configuration.name] = settings
        }
        let data = try JSONFormatting.encoder().encode(Output(configurations: configurations, target: target))
        return String(decoding: data, as: UTF8.self)
    }
}

/// `slipway xcodeproj set-setting PATH KEY [VALUE] ...`.
struct XcodeprojSetSettingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-setting",
        abstract: "Set (or remove) one build setting; only the lines holding it change.",
        discussion: """
            By default every target's configurations get the value. --target (repeatable) \
            chooses targets, --project the project's own configurations, --configuration \
            (repeatable) narrows further. --only-where-defined changes only configurations that \
            already define the setting and names the targets that define it nowhere (how version \
            numbers are stamped). The file is rewritten atomically.

            EXAMPLES:
              slipway xcodeproj set-setting App.xcodeproj MARKETING_VERSION 2.1.0 --only-where-defined
              slipway xcodeproj set-setting App.xcodeproj SWIFT_VERSION 6.0 --target App --configuration Debug
              slipway xcodeproj set-setting App.xcodeproj OTHER_SWIFT_FLAGS --remove --project
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: XcodeprojSupport.pathHelp)
    var path: String

    @Argument(help: ArgumentHelp("The build setting, e.g. MARKETING_VERSION.", valueName: "key"))
    var key: String

    @Argument(help: ArgumentHelp("The new value (omit with --remove).", valueName: "value"))
    var value: String?

    @Option(help: ArgumentHelp("Only this target (repeatable).", valueName: "name"))
    var target: [String] = []

    @Flag(help: "The project's own configurations instead of the targets'.")
    var project = false

    @Option(help: ArgumentHelp("Only this configuration (repeatable).", valueName: "name"))
    var configuration: [String] = []

    @Flag(help: "Remove the setting instead of setting it.")
    var remove = false

    @Flag(help: "Change only configurations that already define the setting.")
    var onlyWhereDefined = false

    func validate() throws {
        if remove && value != nil { throw ValidationError("give either a value or --remove, not both") }
        if !remove && value == nil { throw ValidationError("missing the value for '\(key)' (or pass --remove)") }
        if project && !target.isEmpty { throw ValidationError("--project and --target exclude each other") }
        if key.isEmpty { throw ValidationError("the setting's name is empty") }
    }

    func run() async throws {
        let env = global.environment()
        let path = XcodeprojSupport.resolve(self.path, global)
        let lock = try XcodeprojSupport.lock(path, in: env)
        defer { lock?.release() }
        var (loaded, file) = try XcodeprojSupport.load(path, in: env)
        let targets: [String]? = project ? [] : (target.isEmpty ? nil : target)
        let configurations = configuration.isEmpty ? nil : configuration
        do {
            if remove {
                let changed = try loaded.removeBuildSetting(key, targets: targets, configurations: configurations)
                try env.fileSystem.writeAtomically(try loaded.serialized(), to: file.pbxprojPath)
                env.print("removed \(key) from \(changed.count) configuration\(changed.count == 1 ? "" : "s")")
                return
            }
            let update = try loaded.setBuildSetting(
                key, to: value ?? "", targets: targets, configurations: configurations, addWhereMissing: !onlyWhereDefined)
            try env.fileSystem.writeAtomically(try loaded.serialized(), to: file.pbxprojPath)
            let count = update.changedConfigurations.count
            env.print("set \(key) = \(value ?? "") in \(count) configuration\(count == 1 ? "" : "s")")
            if onlyWhereDefined && !update.targetsLackingSetting.isEmpty {
                let names = update.targetsLackingSetting.map { "'\($0)'" }.joined(separator: ", ")
                env.standardError.write("warning: \(key) is defined nowhere in \(names); left unchanged\n")
            }
        } catch {
            throw XcodeprojSupport.report(error, file: file, in: env)
        }
    }
}
