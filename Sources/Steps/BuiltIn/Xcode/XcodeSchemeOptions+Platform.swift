import Basics
import Foundation
import Release
import Xcode

extension XcodeSchemeOptions {
    /// Refuses a scheme whose app target cannot be built for the step's destinations or `sdk`
    /// (a macOS app archived for `generic/platform=iOS`): the target's SDKROOT and
    /// SUPPORTED_PLATFORMS are read through its `.xcconfig` chain for the configuration the step
    /// builds. What cannot be read for sure (a setting only Xcode resolves, a destination by id
    /// or with a variant, a project outside the folder) is not checked.
    func checkPlatform(of scheme: XcodeScheme, in projectDirectory: String, fileSystem: any FileSystem) throws {
        let wanted = destinations.compactMap { destination in ApplePlatformSDK.sdk(of: destination).map { (destination.description, $0) } }
            + [sdk].compactMap { $0 }.compactMap { given in ApplePlatformSDK.normalized(given).map { ("sdk \(given)", $0) } }
        guard !wanted.isEmpty else { return }
        let configuration = self.configuration ?? scheme.archiveConfiguration ?? "Release"
        var lookups: [String: BuildSettingLookup] = [:]
        for reference in scheme.buildableReferences where reference.buildableName.hasSuffix(".app") {
            guard let project = ApplePlatformSDK.project(of: reference, in: scheme),
                  project.hasPrefix(projectDirectory.hasSuffix("/") ? projectDirectory : projectDirectory + "/") else { continue }
            if lookups[project] == nil {
                lookups[project] = try? BuildSettingLookup(projectPath: project, root: projectDirectory, fileSystem: fileSystem)
            }
            guard var lookup = lookups[project] else { continue }
            let sdkroot = lookup.find("SDKROOT", target: reference.blueprintName, configuration: configuration)
            let platforms = lookup.find("SUPPORTED_PLATFORMS", target: reference.blueprintName, configuration: configuration)
            lookups[project] = lookup
            guard let supported = ApplePlatformSDK.supported(sdkroot: sdkroot?.value, supportedPlatforms: platforms?.value) else { continue }
            for (destination, sdk) in wanted where !supported.contains(sdk) {
                let listed = platforms.flatMap { $0.value.contains("$") ? nil : $0 }
                let found = listed ?? sdkroot
                let setting = listed != nil ? "SUPPORTED_PLATFORMS" : "SDKROOT"
                throw XcodeProjectError.schemePlatformMismatch(
                    scheme: scheme.name, target: reference.blueprintName, sdk: supported.sorted().joined(separator: ", "),
                    place: "\(setting) = \(found?.value ?? "?") in \(found?.place ?? project)", destination: destination, wanted: sdk, others: [])
            }
        }
    }
}
