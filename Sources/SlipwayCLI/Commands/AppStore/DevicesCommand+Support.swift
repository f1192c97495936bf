import AppleAPI
import ArgumentParser
import Basics
import Foundation
import Signing

/// `--rename`, `--enable`, `--dry-run` and `--json` of `devices add|import`, and the registering they share.
struct DeviceChangeOptions: ParsableArguments {
    @Flag(help: "Rename a registered device whose name differs.")
    var rename = false

    @Flag(help: "Enable a registered device that is disabled.")
    var enable = false

    @Flag(help: "Only show what would be registered or changed.")
    var dryRun = false

    @Flag(help: "Print the outcome as JSON.")
    var json = false

    /// Registers `entries` and prints the outcome, then the hint about profiles.
    func register(_ entries: [DeviceEntry], env: CommandEnvironment, keyOptions: AppStoreKeyOptions) async throws {
        let items = try await keyOptions.openOrReport(env).run(env) { client in
            do {
                return try await DeviceRegistration(portal: client).run(entries, rename: rename, enable: enable, dryRun: dryRun)
            } catch {
                if !json, case let DeviceInputError.stopped(done, _)? = error as? DeviceInputError {
                    env.print(done.map { line($0) }.joined(separator: "\n"))
                }
                throw error
            }
        }
        let added = items.filter { $0.action == .added }.count
        let renamed = items.filter(\.renamed).count, enabled = items.filter(\.enabled).count
        let already = items.count - added
        if json {
            env.print(AppStoreCommandSupport.json([
                "dryRun": dryRun, "added": added, "alreadyRegistered": already, "renamed": renamed, "enabled": enabled,
                "devices": items.map { item -> [String: Any] in
                    var object: [String: Any] = ["udid": item.entry.udid, "name": item.entry.name,
                                                 "platform": DevicesSupport.word(item.entry.platform),
                                                 "action": item.action.rawValue, "renamed": item.renamed, "enabled": item.enabled,
                                                 "notes": item.notes]
                    if let id = item.deviceID { object["id"] = id }
                    if let registeredName = item.registeredName { object["registeredName"] = registeredName }
                    return object
                },
            ]))
            return
        }
        var lines = items.map { line($0) }
        lines.append("\(dryRun ? "would add" : "added") \(added), already registered \(already)"
            + (renamed > 0 ? ", \(dryRun ? "would rename" : "renamed") \(renamed)" : "")
            + (enabled > 0 ? ", \(dryRun ? "would enable" : "enabled") \(enabled)" : ""))
        if !dryRun && (added > 0 || enabled > 0) {
            lines.append("development and ad hoc profiles include a device only once re-made: run `slipway signing sync --type development` "
                + "and `slipway signing sync --type ad-hoc` (with your --bundle-id and --storage) to update them")
        }
        env.print(lines.joined(separator: "\n"))
    }

    /// One device's line: `added 'Name' (UDID, ios)`, `already registered ...: notes`, `update ...: notes`.
    private func line(_ item: DeviceRegistrationItem) -> String {
        let subject = "'\(item.entry.name.displaySafe)' (\(item.entry.udid.displaySafe), \(DevicesSupport.word(item.entry.platform)))"
        let notes = item.notes.isEmpty ? "" : ": " + item.notes.joined(separator: "; ").displaySafe
        switch item.action {
        case .added: return "\(dryRun ? "would add" : "added") \(subject)"
        case .alreadyRegistered: return "already registered \(subject)\(notes)"
        case .updated: return "\(dryRun ? "would " : "")update \(subject)\(notes)"
        }
    }
}

/// What the `devices` commands share.
enum DevicesSupport {
    /// Apple's platform for `--platform`.
    static func platform(_ word: String) throws -> String {
        guard let platform = DeviceEntry.platform(word) else {
            throw ValidationError("--platform must be ios or macos, not '\(word)'.")
        }
        return platform
    }

    /// ios or macos for Apple's IOS or MAC_OS.
    static func word(_ platform: String) -> String {
        switch platform {
        case "IOS": return "ios"
        case "MAC_OS": return "macos"
        default: return platform.lowercased()
        }
    }

    /// A device for `--json`.
    static func object(_ device: AppStoreConnectDevice) -> [String: Any] {
        ["id": device.id, "name": device.name, "udid": device.udid, "deviceClass": device.deviceClass ?? NSNull(),
         "model": device.model ?? NSNull(), "platform": word(device.platform), "status": device.status.lowercased(),
         "addedDate": device.addedDate.map(DateText.day) ?? NSNull()]
    }
}
