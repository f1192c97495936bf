import Basics
import Steps

extension LaneValidator {
    /// The error for step `kind` of lane `lane`, which runs only on `supported`, validated for
    /// `platform`: where it runs, and how to check the lane from here anyway (`--platform`
    /// validates and plans it as on a platform the step supports).
    static func platformRefusal(kind: String, supported: [Platform], platform: Platform, lane: String) -> String {
        let names = supported.map(\.rawValue).sorted()
        let list = names.joined(separator: ", ")
        var message = "step '\(kind)' runs only on \(list), not on \(platform.rawValue); run this lane on \(list) or remove the step"
        if let target = names.first {
            message += "; to check this lane from \(platform.rawValue), run 'slipway validate \(lane) --platform \(target)'"
                + " or 'slipway run \(lane) --dry-run --platform \(target)'"
        }
        return message
    }
}

extension StepRegistry {
    /// A registry that knows, besides the built-ins of this machine, those that exist only on
    /// `platform` (`sign.codesign` when checking a macOS lane from Linux), so that a lane can be
    /// validated and planned as there. Never used for a real run on another platform.
    public static func validating(for platform: Platform, pluginLocator: PluginLocator? = nil) -> StepRegistry {
        let extra = platform != .current && platform == .macOS ? macOSOnlyBuiltInTypes.map { StepKind($0) } : []
        return StepRegistry(extra: extra, pluginLocator: pluginLocator)
    }
}
