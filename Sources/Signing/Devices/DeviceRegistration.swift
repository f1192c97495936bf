import AppleAPI
import Basics
import Foundation

/// What registering devices asks of Apple (`AppStoreConnectClient` is the implementation).
public protocol DevicePortal: Sendable {
    /// Every registered device.
    func listDevices(platform: String?, status: String?) async throws -> [AppStoreConnectDevice]
    /// Registers a device.
    func registerDevice(name: String, udid: String, platform: String) async throws -> AppStoreConnectDevice
    /// Renames, enables or disables a device.
    func updateDevice(id: String, udid: String, name: String?, status: String?) async throws -> AppStoreConnectDevice
}

extension AppStoreConnectClient: DevicePortal {}

/// One device's outcome (or, in a dry run, plan).
public struct DeviceRegistrationItem: Sendable, Hashable {
    /// What happens to the device.
    public enum Action: String, Sendable, Hashable {
        /// Registered now.
        case added
        /// Registered already; left as it is.
        case alreadyRegistered = "already registered"
        /// Registered already; renamed, enabled, or both.
        case updated
    }

    /// The device as asked for.
    public var entry: DeviceEntry
    /// What is (or would be) done.
    public var action: Action
    /// For a registered device: its name on Apple's side before.
    public var registeredName: String?
    /// For a registered device: renamed now.
    public var renamed = false
    /// For a registered device: enabled now.
    public var enabled = false
    /// Remarks: a name that differs, a disabled device, and the option that changes it.
    public var notes: [String] = []
    /// The device's resource id (nil for a device a dry run would add).
    public var deviceID: String?
}

/// Registers devices the way a team expects of register_devices, and more: existing UDIDs
/// (compared without case or dashes) are never registered twice; a different name or a disabled
/// device is reported, and changed only when asked (`rename`, `enable`).
public struct DeviceRegistration: Sendable {
    /// Where the devices go.
    public let portal: any DevicePortal

    /// Creates a registration.
    public init(portal: any DevicePortal) {
        self.portal = portal
    }

    /// Registers the new devices of `entries` (checked already), and renames or enables registered
    /// ones when asked. With `dryRun`, only reads and returns the plan.
    /// - Throws: `AppStoreConnectProvisioningError` (e.g. `.deviceLimitReached`), `AppStoreConnectError`;
    ///   when devices were handled before the failure, `DeviceInputError.stopped` with them and the
    ///   reason (they stay registered).
    public func run(_ entries: [DeviceEntry], rename: Bool, enable: Bool, dryRun: Bool) async throws -> [DeviceRegistrationItem] {
        let registered = try await portal.listDevices(platform: nil, status: nil)
        var byKey: [String: AppStoreConnectDevice] = [:]
        for device in registered { byKey[DeviceEntry.key(device.udid)] = device }
        var items: [DeviceRegistrationItem] = []
        do {
            try await handle(entries, byKey: byKey, rename: rename, enable: enable, dryRun: dryRun, into: &items)
        } catch where !items.isEmpty {
            throw DeviceInputError.stopped(done: items, reason: errorText(error))
        }
        return items
    }

    private func handle(_ entries: [DeviceEntry], byKey: [String: AppStoreConnectDevice], rename: Bool, enable: Bool, dryRun: Bool,
                        into items: inout [DeviceRegistrationItem]) async throws {
        for entry in entries {
            guard let existing = byKey[entry.key] else {
                var item = DeviceRegistrationItem(entry: entry, action: .added)
                if !dryRun { item.deviceID = try await portal.registerDevice(name: entry.name, udid: entry.udid, platform: entry.platform).id }
                items.append(item)
                continue
            }
            var item = DeviceRegistrationItem(entry: entry, action: .alreadyRegistered, registeredName: existing.name, deviceID: existing.id)
            let otherName = existing.name != entry.name, disabled = existing.status == "DISABLED"
            if otherName {
                item.notes.append(rename ? "renamed from '\(existing.name)'" : "registered as '\(existing.name)' (--rename renames it)")
            }
            if disabled { item.notes.append(enable ? "enabled" : "disabled (--enable enables it)") }
            let newName = otherName && rename ? entry.name : nil, newStatus = disabled && enable ? "ENABLED" : nil
            if newName != nil || newStatus != nil {
                item.action = .updated
                item.renamed = newName != nil
                item.enabled = newStatus != nil
                if !dryRun { _ = try await portal.updateDevice(id: existing.id, udid: existing.udid, name: newName, status: newStatus) }
            }
            items.append(item)
        }
    }
}
