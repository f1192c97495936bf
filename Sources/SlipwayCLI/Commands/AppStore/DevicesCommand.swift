import AppleAPI
import ArgumentParser
import Basics
import Foundation
import Signing

/// `slipway devices`: the team's registered devices (fastlane's register_devices).
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List and register the team's devices for development and ad hoc profiles (fastlane's register_devices).",
        discussion: "See docs/devices.md.",
        subcommands: [DevicesListCommand.self, DevicesAddCommand.self, DevicesImportCommand.self]
    )
}

/// `slipway devices list`.
struct DevicesListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the registered devices: name, UDID, class, model, platform, status and the day it was added.",
        discussion: """
            Examples:
              slipway devices list --key-id ABC123DEFG --issuer-id ... --key-file AuthKey.p8
              slipway devices list --platform ios --status enabled --json --key-id ABC123DEFG --individual --key-env ASC_KEY
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var keyOptions: AppStoreKeyOptions

    @Option(help: ArgumentHelp("Only devices of this platform: ios or macos.", valueName: "platform"))
    var platform: String?

    @Option(help: ArgumentHelp("Only enabled or disabled devices.", valueName: "status"))
    var status: String?

    @Flag(help: "Print the devices as JSON.")
    var json = false

    func validate() throws {
        try keyOptions.check(required: true)
        if let platform { _ = try DevicesSupport.platform(platform) }
        if let status, !["enabled", "disabled"].contains(status.lowercased()) {
            throw ValidationError("--status must be enabled or disabled, not '\(status)'.")
        }
    }

    func run() async throws {
        let env = global.environment()
        try await keyOptions.openOrReport(env).run(env) { client in
            let devices = try await client.listDevices(platform: try platform.map(DevicesSupport.platform),
                                                       status: status?.uppercased())
            if json {
                env.print(AppStoreCommandSupport.json(devices.map(DevicesSupport.object)))
            } else if devices.isEmpty {
                env.print("no registered devices" + (platform != nil || status != nil ? " match" : ""))
            } else {
                let rows = devices.map { device in
                    [device.name, device.udid, device.deviceClass ?? "-", device.model ?? "-", DevicesSupport.word(device.platform),
                     device.status.lowercased(), device.addedDate.map(DateText.day) ?? "-"]
                }
                env.print(AppStoreCommandSupport.table(header: ["NAME", "UDID", "CLASS", "MODEL", "PLATFORM", "STATUS", "ADDED"], rows: rows))
            }
        }
    }
}

/// `slipway devices add`.
struct DevicesAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Register one device (nothing happens when its UDID is registered already).",
        discussion: """
            A UDID registered already (compared without case or dashes) is reported, not registered \
            again; when its name differs or it is disabled, that is said, and --rename or --enable \
            changes it. Afterwards `slipway signing sync --type development` (and `--type ad-hoc`) \
            re-makes the profiles so that they include the device.

            Examples:
              slipway devices add --name "Alice's iPhone" --udid 00008030-001A2B3C4D5E6F70 --key-id ABC123DEFG --issuer-id ... --key-file AuthKey.p8
              slipway devices add --name "Build Mac" --udid 5D4C3B2A-1F0E-4D3C-8B2A-1F0E9D8C7B6A --platform macos --dry-run ...
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var keyOptions: AppStoreKeyOptions

    @Option(help: ArgumentHelp("The device's name.", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("The device's UDID.", valueName: "udid"))
    var udid: String

    @Option(help: ArgumentHelp("ios (default) or macos.", valueName: "platform"))
    var platform = "ios"

    @OptionGroup var change: DeviceChangeOptions

    func validate() throws {
        try keyOptions.check(required: true)
        let apple = try DevicesSupport.platform(platform)
        if let problem = DeviceEntry.problem(udid: udid, platform: apple) { throw ValidationError("--udid: \(problem).") }
        if let problem = DeviceEntry.problem(name: name) { throw ValidationError("--name: \(problem).") }
    }

    func run() async throws {
        let env = global.environment()
        let entry = DeviceEntry(udid: udid, name: name, platform: try DevicesSupport.platform(platform))
        try await change.register([entry], env: env, keyOptions: keyOptions)
    }
}

/// `slipway devices import`.
struct DevicesImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Register the devices of a devices file (Apple's tab-separated format, as register_devices reads).",
        discussion: """
            The file has the header `Device ID<TAB>Device Name` (optionally `<TAB>Device Platform`, \
            ios or mac), then one device per line; blank lines and lines starting with # are skipped. \
            Every line is checked first: any problem (a bad UDID, a missing tab, an empty or too long \
            name, a duplicate UDID, an unknown platform) is reported with its file:line, all at once, \
            and nothing is registered (exit 2). Then the new devices are registered and registered \
            ones reported (renamed or enabled with --rename, --enable).

            Examples:
              slipway devices import devices.txt --dry-run --key-id ABC123DEFG --issuer-id ... --key-file AuthKey.p8
              slipway devices import devices.txt --rename --key-id ABC123DEFG --issuer-id ... --key-file AuthKey.p8
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var keyOptions: AppStoreKeyOptions

    @Argument(help: ArgumentHelp("The devices file.", valueName: "devices.txt"))
    var file: String

    @Option(help: ArgumentHelp("The platform of lines without one: ios (default) or macos.", valueName: "platform"))
    var platform = "ios"

    @OptionGroup var change: DeviceChangeOptions

    func validate() throws {
        try keyOptions.check(required: true)
        _ = try DevicesSupport.platform(platform)
    }

    func run() async throws {
        let env = global.environment()
        let entries = try Failure.readingInput(env) {
            let path = file.hasPrefix("/") ? file : env.projectDirectory + "/" + file
            return try DeviceFile.load(path, display: file, defaultPlatform: try DevicesSupport.platform(platform), fileSystem: env.fileSystem)
        }
        try await change.register(entries, env: env, keyOptions: keyOptions)
    }
}
