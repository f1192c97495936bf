import Basics
import Release
import Xcode

extension XcodeProjectSurvey {
    /// Fills in what the pbxproj alone does not say: bundle ids and the version kept in
    /// `.xcconfig` files (with their `#include`s), read as `version.bump` writes them, for the
    /// archive configuration. Files outside `directory` are never read; what cannot be read for
    /// sure stays unknown (and the survey's note says so).
    public mutating func readSettings(in directory: String, fileSystem: any FileSystem) {
        guard let project, var lookup = try? BuildSettingLookup(projectPath: directory + "/" + project, root: directory, fileSystem: fileSystem)
        else { return }
        for index in shippingTargets.indices {
            let name = shippingTargets[index].name
            if shippingTargets[index].bundleID?.contains("$") ?? true,
               let found = lookup.find("PRODUCT_BUNDLE_IDENTIFIER", target: name, configuration: configuration), !found.value.contains("$") {
                shippingTargets[index].bundleID = found.value
            }
            // The SDK through the .xcconfig chain: the iOS scheme of a Mac-and-iOS app is chosen by it.
            if let found = lookup.find("SDKROOT", target: name, configuration: configuration) { shippingTargets[index].sdkroot = found.value }
            if let found = lookup.find("SUPPORTED_PLATFORMS", target: name, configuration: configuration) {
                shippingTargets[index].supportedPlatforms = found.value
            }
            if let found = lookup.find("MARKETING_VERSION", target: name, configuration: configuration) {
                shippingTargets[index].versionSource = String(found.place.prefix { $0 != ":" })
            }
        }
        notes.removeAll { $0.hasPrefix("the bundle id of ") }
        let unresolved = shippingTargets.filter { $0.bundleID?.contains("$") ?? true }.map(\.name)
        if !unresolved.isEmpty {
            notes.append("the bundle id of \(unresolved.joined(separator: ", ")) is set through a build setting Slipway cannot resolve here, or not at all; add it to the lane's bundle-ids by hand")
        }
    }
}
